// Scaling plot (days and cost against GPU count) and the tp × pp heatmap of step time. Both are
// grids of full core estimates around the current scenario, recomputed when it changes.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tp_pp_heatmap.h"
#include "state.h"

namespace llmc::ui {

void compute_plots(State& st) {
  st.plots_dirty = false;
  st.scaling.clear();
  st.heat.clear();
  st.heat_tp.clear();
  st.heat_pp.clear();
  if (!st.est) return;
  const Resolved& r = st.est->r;
  const int64_t unit = r.s.parallel.tp * r.s.parallel.pp * r.s.parallel.cp;
  // Scaling: dp from 1/16 to 16× the current, powers of two, batch held fixed.
  for (int64_t dp = std::max<int64_t>(1, r.s.parallel.dp / 16); dp <= r.s.parallel.dp * 16; dp *= 2) {
    Scenario s = st.scenario;
    s.hardware.gpu_count = unit * dp;
    s.parallel.dp = 0;
    Result<Estimate> e = estimate(s);
    if (!e) continue;
    st.scaling.push_back({double(unit * dp), e->time.total_days, e->time.cost_usd, e->fits});
  }
  // Heatmap: tp × pp on the current GPU count; each cell a full estimate.
  for (int64_t tp = 1; tp <= std::min<int64_t>({r.gpus_per_node, r.gpu_count, 16}); tp *= 2) st.heat_tp.push_back(tp);
  for (int64_t pp = 1; pp <= std::min<int64_t>(r.gpu_count, 64); pp *= 2) st.heat_pp.push_back(pp);
  for (int64_t pp : st.heat_pp) {
    for (int64_t tp : st.heat_tp) {
      HeatCell c;
      c.tp = tp;
      c.pp = pp;
      Scenario s = st.scenario;
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

void scaling_plot(State& st) {
  if (st.plots_dirty) compute_plots(st);
  if (st.scaling.size() < 2) {
    section_note("No other GPU counts divide this global batch.");
    return;
  }
  const float w = ImGui::GetContentRegionAvail().x - 10, h = 170;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 o(p.x + 50, p.y + h - 20), end(p.x + w - 50, p.y + 8);
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(25, 25, 30, 255));
  double gmin = st.scaling.front().gpus, gmax = st.scaling.back().gpus, dmax = 0, cmax = 0;
  for (const ScalingPoint& s : st.scaling) dmax = std::max(dmax, s.days), cmax = std::max(cmax, s.cost_usd);
  auto X = [&](double g) { return o.x + float((std::log2(g) - std::log2(gmin)) / std::max(1e-9, std::log2(gmax) - std::log2(gmin))) * (end.x - o.x); };
  auto Yd = [&](double d) { return o.y - float(d / dmax) * (o.y - end.y); };
  auto Yc = [&](double c) { return o.y - float(c / cmax) * (o.y - end.y); };
  dl->AddLine(o, ImVec2(end.x, o.y), IM_COL32(180, 180, 180, 255));
  dl->AddLine(o, ImVec2(o.x, end.y), IM_COL32(120, 200, 255, 255));
  dl->AddLine(ImVec2(end.x, o.y), ImVec2(end.x, end.y), IM_COL32(255, 180, 90, 255));
  for (size_t i = 0; i < st.scaling.size(); ++i) {
    const ScalingPoint& s = st.scaling[i];
    const ImVec2 pd(X(s.gpus), Yd(s.days)), pc(X(s.gpus), Yc(s.cost_usd));
    if (i) {
      const ScalingPoint& q = st.scaling[i - 1];
      dl->AddLine(ImVec2(X(q.gpus), Yd(q.days)), pd, IM_COL32(120, 200, 255, 255), 2);
      dl->AddLine(ImVec2(X(q.gpus), Yc(q.cost_usd)), pc, IM_COL32(255, 180, 90, 255), 2);
    }
    dl->AddCircleFilled(pd, 4, s.fits ? IM_COL32(120, 200, 255, 255) : IM_COL32(230, 60, 60, 255));
    dl->AddCircleFilled(pc, 3, IM_COL32(255, 180, 90, 255));
    char lab[32];
    std::snprintf(lab, sizeof lab, "%.0f", s.gpus);
    dl->AddText(ImVec2(pd.x - 10, o.y + 3), IM_COL32(200, 200, 200, 255), lab);
    if (ImGui::IsMouseHoveringRect(ImVec2(pd.x - 6, end.y), ImVec2(pd.x + 6, o.y)))
      ImGui::SetTooltip("%.0f GPUs: %.3g days, $%.3g%s", s.gpus, s.days, s.cost_usd, s.fits ? "" : " (does not fit)");
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g d", dmax);
  dl->AddText(ImVec2(p.x + 4, end.y), IM_COL32(120, 200, 255, 255), buf);
  std::snprintf(buf, sizeof buf, "$%.3g", cmax);
  dl->AddText(ImVec2(end.x + 4, end.y), IM_COL32(255, 180, 90, 255), buf);
  ImGui::Dummy(ImVec2(w, h));
  section_note("Blue: total days; orange: cost; red dots do not fit. GPU count on a log axis; batch held fixed.");
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
  for (const HeatCell& c : st.heat) {
    // Log scale: layouts differ by orders of magnitude.
    const double v = c.valid && hi > lo ? (std::log(c.step_s) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 0.0;
    data.push_back(float(v));
    data.push_back(!c.valid ? 0.0f : (c.fits ? 1.0f : 0.5f));
  }
  if (!heatmap_ready(st)) return;
  ImGui::TextUnformatted("Step time over tp (columns) × pp (rows) on this GPU count");
  const int hovered = draw_tp_pp_heatmap(st, data, st.heat_tp, st.heat_pp, "heatmap");
  if (hovered >= 0) {
    const HeatCell& c = st.heat[size_t(hovered)];
    if (!c.valid) ImGui::SetTooltip("tp %lld, pp %lld: not a valid layout", (long long)c.tp, (long long)c.pp);
    else ImGui::SetTooltip("tp %lld, pp %lld: step %.3g s%s", (long long)c.tp, (long long)c.pp, c.step_s, c.fits ? "" : " (does not fit)");
  }
  section_note("Bright = faster; striped red = does not fit; grey = layout not valid (divisibility). Rendered by shaders/heatmap.frag.");
}

}  // namespace llmc::ui
