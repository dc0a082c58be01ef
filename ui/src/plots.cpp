// Scaling plot (total days and cost against GPU count, log x axis) and the Layouts tp × pp
// heatmap of step time. Both are grids of full core estimates around the last valid scenario,
// recomputed when it changes and the plot is shown.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "llmc/fields.h"
#include "state.h"
#include "tp_pp_heatmap.h"

namespace llmc::ui {

void compute_plots(State& st) {
  st.plots_dirty = false;
  st.scaling.clear();
  st.heat.clear();
  st.heat_tp.clear();
  st.heat_pp.clear();
  if (!st.est) return;
  const Resolved& r = st.est->r;
  const Scenario& base = st.last_valid;
  const int64_t unit = r.s.parallel.tp * r.s.parallel.pp * r.s.parallel.cp;
  // Scaling: dp from 1/16 to 16× the current, powers of two, batch held fixed.
  for (int64_t dp = std::max<int64_t>(1, r.s.parallel.dp / 16); dp <= r.s.parallel.dp * 16; dp *= 2) {
    Scenario s = base;
    s.hardware.gpu_count = unit * dp;
    s.parallel.dp = 0;
    Result<Estimate> e = estimate(s);
    if (!e) continue;
    st.scaling.push_back({double(unit * dp), e->time.total_days, e->time.cost_usd, e->time.step_s, e->time.mfu,
                          e->mem.total_bytes, e->fits});
  }
  // Heatmap: tp × pp on the current GPU count; each cell a full estimate.
  for (int64_t tp = 1; tp <= std::min<int64_t>({r.gpus_per_node, r.gpu_count, 16}); tp *= 2) st.heat_tp.push_back(tp);
  for (int64_t pp = 1; pp <= std::min<int64_t>(r.gpu_count, 64); pp *= 2) st.heat_pp.push_back(pp);
  for (int64_t pp : st.heat_pp) {
    for (int64_t tp : st.heat_tp) {
      HeatCell c;
      c.tp = tp;
      c.pp = pp;
      Scenario s = base;
      s.parallel.tp = tp;
      s.parallel.pp = pp;
      s.parallel.dp = 0;
      if (s.parallel.schedule == Schedule::interleaved && pp < 2) {
        s.parallel.schedule = Schedule::one_f_one_b;
        s.parallel.virtual_stages = 1;
      }
      s.hardware.gpu_count = r.gpu_count;
      Result<Estimate> e = estimate(s);
      if (e) {
        c.valid = true;
        c.fits = e->fits;
        c.step_s = e->time.step_s;
      }
      st.heat.push_back(c);
    }
  }
}

namespace {

void point_tooltip(const ScalingPoint& s, MemoryUnits u, bool current) {
  ImGui::BeginTooltip();
  ImGui::Text("%s GPUs%s", format_exact(s.gpus).c_str(), current ? " (the scenario's)" : "");
  ImGui::Text("total %s, cost %s", format_quantity(s.days, "days").c_str(), format_usd(s.cost_usd).c_str());
  ImGui::Text("step %s, MFU %s", format_duration(s.step_s).c_str(), format_percent(s.mfu).c_str());
  ImGui::Text("memory per GPU %s%s", format_bytes(s.memory_bytes, u).c_str(), s.fits ? "" : ": does not fit");
  ImGui::EndTooltip();
}

}  // namespace

void scaling_plot(State& st) {
  if (st.plots_dirty) compute_plots(st);
  if (st.scaling.size() < 2) {
    section_note("No other GPU counts divide this global batch.");
    return;
  }
  const ImU32 kDays = IM_COL32(120, 200, 255, 255), kCost = IM_COL32(255, 180, 90, 255),
              kAxis = IM_COL32(170, 170, 170, 255);
  double dmax = 0, cmax = 0;
  for (const ScalingPoint& s : st.scaling) dmax = std::max(dmax, s.days), cmax = std::max(cmax, s.cost_usd);
  dmax *= 1.08, cmax *= 1.08;  // headroom above the highest point
  const auto days_label = [](double d) { return format_quantity(d, "days"); };
  // Margins wide enough for the widest tick label on each side: nothing is clipped.
  const float line = ImGui::GetTextLineHeight();
  const float left = ImGui::CalcTextSize(days_label(dmax).c_str()).x + 10,
              right = ImGui::CalcTextSize(format_usd(cmax).c_str()).x + 10;
  const float w = ImGui::GetContentRegionAvail().x - 4, h = std::max(180.0f, ImGui::GetFontSize() * 14);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 o(p.x + left, p.y + h - line * 2 - 6), end(p.x + w - right, p.y + line * 0.5f + 4);
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(25, 25, 30, 255));
  const double gmin = st.scaling.front().gpus, gmax = st.scaling.back().gpus;
  auto X = [&](double g) {
    return o.x +
           float((std::log2(g) - std::log2(gmin)) / std::max(1e-9, std::log2(gmax) - std::log2(gmin))) * (end.x - o.x);
  };
  auto Yd = [&](double d) { return o.y - float(d / dmax) * (o.y - end.y); };
  auto Yc = [&](double c) { return o.y - float(c / cmax) * (o.y - end.y); };
  // Axes, with ticks at 0, half and the top on both value axes.
  dl->AddLine(o, ImVec2(end.x, o.y), kAxis);
  dl->AddLine(o, ImVec2(o.x, end.y), kDays);
  dl->AddLine(ImVec2(end.x, o.y), ImVec2(end.x, end.y), kCost);
  for (double f : {0.0, 0.5, 1.0}) {
    const float y = o.y - float(f) * (o.y - end.y);
    dl->AddLine(ImVec2(o.x, y), ImVec2(end.x, y), IM_COL32(60, 60, 66, 255));
    const std::string dl_text = f == 0 ? "0" : days_label(f * dmax), cl_text = f == 0 ? "$0" : format_usd(f * cmax);
    dl->AddText(ImVec2(o.x - 6 - ImGui::CalcTextSize(dl_text.c_str()).x, y - line * 0.5f), kDays, dl_text.c_str());
    dl->AddText(ImVec2(end.x + 6, y - line * 0.5f), kCost, cl_text.c_str());
  }
  const double current = st.est ? double(st.est->r.gpu_count) : 0;
  int nearest = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool inside =
      ImGui::IsWindowHovered() && mouse.x >= p.x && mouse.x <= p.x + w && mouse.y >= p.y && mouse.y <= p.y + h;
  float best = 1e30f, last_label_end = -1e30f;
  for (size_t i = 0; i < st.scaling.size(); ++i) {
    const ScalingPoint& s = st.scaling[i];
    const float x = X(s.gpus);
    const ImVec2 pd(x, Yd(s.days)), pc(x, Yc(s.cost_usd));
    if (i) {
      const ScalingPoint& q = st.scaling[i - 1];
      dl->AddLine(ImVec2(X(q.gpus), Yd(q.days)), pd, kDays, 2);
      dl->AddLine(ImVec2(X(q.gpus), Yc(q.cost_usd)), pc, kCost, 2);
    }
    dl->AddCircleFilled(pd, 4, s.fits ? kDays : IM_COL32(230, 60, 60, 255));
    dl->AddCircleFilled(pc, 3, kCost);
    if (s.gpus == current) {  // the scenario's own GPU count
      dl->AddLine(ImVec2(x, end.y), ImVec2(x, o.y), IM_COL32(255, 255, 255, 120), 1.5f);
      dl->AddCircle(pd, 7, IM_COL32(255, 255, 255, 255), 0, 2);
      dl->AddCircle(pc, 6, IM_COL32(255, 255, 255, 255), 0, 2);
    }
    // GPU count labels under the axis, skipping those that would overlap the previous one.
    const std::string lab = format_exact(s.gpus);
    const float tw = ImGui::CalcTextSize(lab.c_str()).x;
    if (x - tw * 0.5f > last_label_end + 6) {
      dl->AddText(ImVec2(x - tw * 0.5f, o.y + 3), s.gpus == current ? IM_COL32(255, 255, 255, 255) : kAxis,
                  lab.c_str());
      last_label_end = x + tw * 0.5f;
    }
    if (inside && std::fabs(mouse.x - x) < best) best = std::fabs(mouse.x - x), nearest = int(i);
  }
  const char* axis = "GPUs (log scale; batch held fixed)";
  dl->AddText(ImVec2((o.x + end.x - ImGui::CalcTextSize(axis).x) * 0.5f, o.y + line + 5), kAxis, axis);
  if (nearest >= 0) {
    const ScalingPoint& s = st.scaling[size_t(nearest)];
    dl->AddLine(ImVec2(X(s.gpus), end.y), ImVec2(X(s.gpus), o.y), IM_COL32(255, 200, 80, 160), 1.0f);
    point_tooltip(s, st.memory_units, s.gpus == current);
  }
  ImGui::Dummy(ImVec2(w, h));
  remember_rect(st, "scaling:plot");
  section_note(
      "Blue: total time (left axis); orange: cost (right axis); red dots do not fit; white: this scenario's GPU count. "
      "Hover for the values at each count.");
}

void heatmap_panel(State& st) {
  if (st.plots_dirty) compute_plots(st);
  const int cols = int(st.heat_tp.size()), rows = int(st.heat_pp.size());
  if (!st.est || cols == 0 || rows == 0 || int(st.heat.size()) != cols * rows) return;
  double lo = 1e300, hi = 0;
  for (const HeatCell& c : st.heat)
    if (c.valid) lo = std::min(lo, c.step_s), hi = std::max(hi, c.step_s);
  std::vector<float> data;
  data.reserve(st.heat.size() * 2);
  int marked = -1;
  for (const HeatCell& c : st.heat) {
    // Log scale: layouts differ by orders of magnitude.
    const double v = c.valid && hi > lo ? (std::log(c.step_s) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 0.0;
    data.push_back(float(v));
    data.push_back(!c.valid ? 0.0f : (c.fits ? 1.0f : 0.5f));
    if (c.tp == st.est->r.s.parallel.tp && c.pp == st.est->r.s.parallel.pp) marked = int(&c - st.heat.data());
  }
  if (!heatmap_ready(st)) return;
  ImGui::TextWrapped(
      "Step time of each tp \xC3\x97 pp on %s GPUs (the other settings as they are). Click a cell to use its tp and "
      "pp.",
      format_exact(double(st.est->r.gpu_count)).c_str());
  HeatmapView view{
      &data,    &st.heat_tp, &st.heat_pp, marked, hi > 0 ? format_duration(lo) : "", hi > 0 ? format_duration(hi) : "",
      "heatmap"};
  bool clicked = false;
  const int hovered = draw_tp_pp_heatmap(st, view, clicked);
  if (hovered >= 0) {
    const HeatCell& c = st.heat[size_t(hovered)];
    if (!c.valid)
      ImGui::SetTooltip("tp %lld, pp %lld: not a valid layout (divisibility)", (long long)c.tp, (long long)c.pp);
    else
      ImGui::SetTooltip("tp %lld, pp %lld: step %s%s\nclick to use tp %lld and pp %lld", (long long)c.tp,
                        (long long)c.pp, format_duration(c.step_s).c_str(), c.fits ? "" : " (does not fit)",
                        (long long)c.tp, (long long)c.pp);
    if (clicked && c.valid) {
      Scenario next = st.scenario;
      if (set_field(next, "parallel.tp", std::to_string(c.tp)) &&
          set_field(next, "parallel.pp", std::to_string(c.pp)) && set_field(next, "parallel.dp", "0")) {
        if (next.parallel.schedule == Schedule::interleaved && c.pp < 2)
          next.parallel.schedule = Schedule::one_f_one_b, next.parallel.virtual_stages = 1;
        set_scenario(st, next);
        set_banner(st, "Layout: tp " + std::to_string(c.tp) + ", pp " + std::to_string(c.pp) + " (dp derived).", false);
      }
    }
  }
  section_note(
      "Bright = faster (log scale); striped red = does not fit; grey = not a valid layout; white outline: the "
      "scenario's tp and pp. "
      "Rendered by shaders/heatmap.frag.");
}

}  // namespace llmc::ui
