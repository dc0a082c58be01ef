// Compare profiles (Hardware tab): the measured tables of two or more profiles (loaded, from the
// registry, bundled) on one plot: GEMM TFLOP/s against the GEMM's FLOPs per dtype, memory-bound
// kernels' GB/s against bytes moved, collectives' bus bandwidth against the message size. The
// curves are core's (profile_curves.h); this file only draws them.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "llmc/profile_curves.h"
#include "state.h"

namespace llmc::ui {

namespace {

const ImU32 kPalette[] = {IM_COL32(120, 200, 255, 255), IM_COL32(255, 180, 90, 255),  IM_COL32(140, 230, 140, 255),
                          IM_COL32(240, 120, 200, 255), IM_COL32(230, 230, 110, 255), IM_COL32(170, 150, 255, 255)};

struct Shown {
  const LoadedProfile* lp;
  ProfileCurve curve;
  ImU32 colour;
};

std::string x_text(const ProfileCurve& c, double x, MemoryUnits u) {
  return c.key.rfind("gemm.", 0) == 0 ? format_flops(x) : format_bytes(x, u);
}

std::string y_text(const ProfileCurve& c, double y) {
  char buf[48];
  if (c.y_unit == "TFLOP/s")
    std::snprintf(buf, sizeof buf, "%.1f TFLOP/s", y);
  else
    std::snprintf(buf, sizeof buf, "%.0f GB/s", y);
  return buf;
}

void draw_plot(State& st, const std::vector<Shown>& shown) {
  double xmin = 1e300, xmax = 0, ymax = 0;
  for (const Shown& s : shown)
    for (const CurvePoint& p : s.curve.points)
      xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x), ymax = std::max(ymax, p.y);
  if (!(xmax > 0) || !(ymax > 0)) return;
  if (xmax <= xmin) xmax = xmin * 2;
  ymax *= 1.08;
  const ProfileCurve& first = shown.front().curve;
  const float line = ImGui::GetTextLineHeight();
  const float left = ImGui::CalcTextSize(y_text(first, ymax).c_str()).x + 10;
  const float w = ImGui::GetContentRegionAvail().x - 4, h = std::max(170.0f, ImGui::GetFontSize() * 12);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 o(p.x + left, p.y + h - line * 2 - 6), end(p.x + w - 10, p.y + line * 0.5f + 4);
  const ImU32 kAxis = IM_COL32(170, 170, 170, 255);
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(25, 25, 30, 255));
  auto X = [&](double x) {
    return o.x + float((std::log10(x) - std::log10(xmin)) / (std::log10(xmax) - std::log10(xmin))) * (end.x - o.x);
  };
  auto Y = [&](double y) { return o.y - float(y / ymax) * (o.y - end.y); };
  dl->AddLine(o, ImVec2(end.x, o.y), kAxis);
  dl->AddLine(o, ImVec2(o.x, end.y), kAxis);
  for (double f : {0.0, 0.5, 1.0}) {
    const float y = o.y - float(f) * (o.y - end.y);
    dl->AddLine(ImVec2(o.x, y), ImVec2(end.x, y), IM_COL32(60, 60, 66, 255));
    const std::string t = f == 0 ? "0" : y_text(first, f * ymax);
    dl->AddText(ImVec2(o.x - 6 - ImGui::CalcTextSize(t.c_str()).x, y - line * 0.5f), kAxis, t.c_str());
  }
  for (const double x : {xmin, std::sqrt(xmin * xmax), xmax}) {
    const std::string t = x_text(first, x, st.memory_units);
    const float tw = ImGui::CalcTextSize(t.c_str()).x;
    dl->AddText(ImVec2(std::clamp(X(x) - tw * 0.5f, p.x, p.x + w - tw), o.y + 3), kAxis, t.c_str());
  }
  const std::string axis = first.x_label + " (log scale)";
  dl->AddText(ImVec2((o.x + end.x - ImGui::CalcTextSize(axis.c_str()).x) * 0.5f, o.y + line + 5), kAxis, axis.c_str());
  for (const Shown& s : shown) {
    const auto& pts = s.curve.points;
    for (size_t i = 0; i < pts.size(); ++i) {
      const ImVec2 a(X(pts[i].x), Y(pts[i].y));
      if (i) dl->AddLine(ImVec2(X(pts[i - 1].x), Y(pts[i - 1].y)), a, s.colour, 1.5f);
      dl->AddCircleFilled(a, 2.5f, s.colour);
    }
  }
  // Hover: each profile's point nearest the mouse's x, with its source key.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsWindowHovered() && mouse.x >= o.x && mouse.x <= end.x && mouse.y >= p.y && mouse.y <= p.y + h) {
    dl->AddLine(ImVec2(mouse.x, end.y), ImVec2(mouse.x, o.y), IM_COL32(255, 200, 80, 120));
    ImGui::BeginTooltip();
    for (const Shown& s : shown) {
      const CurvePoint* best = nullptr;
      float d = 1e30f;
      for (const CurvePoint& q : s.curve.points)
        if (std::fabs(X(q.x) - mouse.x) < d) d = std::fabs(X(q.x) - mouse.x), best = &q;
      if (!best) continue;
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.colour), "%s: %s at %s%s%s", s.lp->name.c_str(),
                         y_text(s.curve, best->y).c_str(), x_text(s.curve, best->x, st.memory_units).c_str(),
                         best->shape.empty() ? "" : " (", best->shape.empty() ? "" : (best->shape + ")").c_str());
      if (best->p90 > 0)
        ImGui::TextDisabled("    p10 %s, p90 %s", y_text(s.curve, best->p10).c_str(),
                            y_text(s.curve, best->p90).c_str());
    }
    ImGui::TextDisabled("source: each profile's %s (medians as measured; no fit)", first.source.c_str());
    ImGui::EndTooltip();
  }
  ImGui::Dummy(ImVec2(w, h));
  remember_rect(st, "profiles:compare-plot");
}

}  // namespace

void profile_compare(State& st) {
  if (st.profiles.empty()) return;
  const bool open = ImGui::CollapsingHeader("Compare profiles (measured tables)");
  remember_rect(st, "profiles:compare");
  if (!open) return;
  ImGui::PushID("profile_compare");
  // Which profiles: by name (indices move when bundled profiles arrive).
  std::vector<std::pair<const LoadedProfile*, std::vector<ProfileCurve>>> chosen;
  for (size_t i = 0; i < st.profiles.size(); ++i) {
    const LoadedProfile& lp = st.profiles[i];
    std::vector<ProfileCurve> curves = profile_curves(lp.profile);
    ImGui::PushID(int(i));
    bool on = st.compare_profiles.count(lp.name) > 0;
    if (curves.empty()) ImGui::BeginDisabled();
    if (ImGui::Checkbox("##on", &on)) {
      if (on)
        st.compare_profiles.insert(lp.name);
      else
        st.compare_profiles.erase(lp.name);
    }
    if (curves.empty()) ImGui::EndDisabled();
    remember_rect(st, "compare-profile:" + lp.name);
    ImGui::SameLine();
    ImGui::TextWrapped("%s (%s, %s)%s", lp.name.c_str(), lp.profile.source.c_str(), lp.profile.gpu_id.c_str(),
                       curves.empty() ? ": no measured tables" : "");
    ImGui::PopID();
    if (on && !curves.empty()) chosen.emplace_back(&lp, std::move(curves));
  }
  if (chosen.empty()) {
    section_note("Tick two or more profiles to compare their measured GEMM, memory and collective tables.");
    ImGui::PopID();
    return;
  }
  // The tables the chosen profiles have, in core's order, first seen first.
  std::vector<std::pair<std::string, std::string>> metrics;  // key, title
  for (const auto& [lp, curves] : chosen)
    for (const ProfileCurve& c : curves)
      if (std::none_of(metrics.begin(), metrics.end(), [&](const auto& m) { return m.first == c.key; }))
        metrics.emplace_back(c.key, c.title);
  if (std::none_of(metrics.begin(), metrics.end(), [&](const auto& m) { return m.first == st.compare_metric; }))
    st.compare_metric = metrics.front().first;
  std::string title;
  for (const auto& m : metrics)
    if (m.first == st.compare_metric) title = m.second;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##metric", title.c_str())) {
    for (const auto& m : metrics) {
      if (ImGui::Selectable(m.second.c_str(), m.first == st.compare_metric)) st.compare_metric = m.first;
      remember_rect(st, "compare-metric:" + m.first);
    }
    ImGui::EndCombo();
  }
  remember_rect(st, "compare-metric");
  std::vector<Shown> shown;
  std::string missing;
  for (const auto& [lp, curves] : chosen) {
    auto it =
        std::find_if(curves.begin(), curves.end(), [&](const ProfileCurve& c) { return c.key == st.compare_metric; });
    if (it == curves.end()) {
      missing += (missing.empty() ? "" : ", ") + lp->name;
      continue;
    }
    shown.push_back({lp, *it, kPalette[shown.size() % (sizeof kPalette / sizeof kPalette[0])]});
  }
  draw_plot(st, shown);
  for (const Shown& s : shown) {
    ImGui::ColorButton("##c", ImGui::ColorConvertU32ToFloat4(s.colour), ImGuiColorEditFlags_NoTooltip,
                       ImVec2(ImGui::GetTextLineHeight(), ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::TextWrapped(
        "%s: %zu points, max %s", s.lp->name.c_str(), s.curve.points.size(),
        y_text(s.curve, std::max_element(s.curve.points.begin(), s.curve.points.end(),
                                         [](const CurvePoint& a, const CurvePoint& b) { return a.y < b.y; })
                            ->y)
            .c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the highest median in the profile's %s", s.curve.source.c_str());
  }
  if (!missing.empty()) section_note(("Not in " + missing + " (not measured there).").c_str());
  ImGui::PopID();
}

}  // namespace llmc::ui
