// Search tab: llmc::search_layouts on the current scenario (its GPU count, objective step time),
// run only when the button is pressed. Shows the top layouts, why the best wins, and the best step
// time over tp × pp (other dimensions optimised, one search per cell with tp and pp fixed) through
// the GL heatmap of plots.cpp. The search's own error is shown as is.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#include <chrono>
#endif

#include "tp_pp_heatmap.h"
#include "llmc/explain.h"
#include "llmc/search.h"
#include "state.h"

namespace llmc::ui {

namespace {

double now_ms() {
#ifdef __EMSCRIPTEN__
  return emscripten_get_now();
#else
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

struct SearchCell {
  int64_t tp = 1, pp = 1;
  bool fits = false;  // some layout with this tp and pp fits
  double step_s = 0;
};

struct SearchUi {
  bool ran = false;
  std::optional<SearchResult> result;
  std::string error;
  double ms = 0, heat_ms = 0;  // the search itself; the tp × pp grid of searches after it
  int64_t gpus = 0;
  std::vector<int64_t> tp_axis, pp_axis;
  std::vector<SearchCell> cells;  // rows pp, columns tp
};

SearchUi g_search;  // one UI per process (web page or desktop window)

void run_search(State& st) {
  SearchUi& s = g_search;
  s = SearchUi{};
  s.ran = true;
  SearchSpec spec;
  spec.base = st.scenario;
  spec.objective = SearchObjective::step_time;
  spec.top_n = 10;
  s.gpus = st.est ? st.est->r.gpu_count : st.scenario.hardware.gpu_count;
  spec.gpus_min = spec.gpus_max = s.gpus;
  const double t0 = now_ms();
  Result<SearchResult> r = search_layouts(spec);
  s.ms = now_ms() - t0;
  if (!r) {
    s.error = r.error().text();
    return;
  }
  s.result = std::move(*r);
  // Heatmap: best step per (tp, pp), powers of two dividing the GPU count.
  const double t1 = now_ms();
  for (int64_t tp = 1; tp <= std::min<int64_t>(s.gpus, 64); tp *= 2)
    if (s.gpus % tp == 0) s.tp_axis.push_back(tp);
  for (int64_t pp = 1; pp <= std::min<int64_t>(s.gpus, 128); pp *= 2)
    if (s.gpus % pp == 0) s.pp_axis.push_back(pp);
  for (int64_t pp : s.pp_axis) {
    for (int64_t tp : s.tp_axis) {
      SearchCell c;
      c.tp = tp;
      c.pp = pp;
      if (tp * pp <= s.gpus) {
        SearchSpec cell = spec;
        cell.top_n = 1;
        cell.vary_tp = cell.vary_pp = false;
        cell.base.parallel.tp = tp;
        cell.base.parallel.pp = pp;
        if (Result<SearchResult> cr = search_layouts(cell); cr && !cr->top.empty()) {
          c.fits = true;
          c.step_s = cr->top.front().step_s;
        }
      }
      s.cells.push_back(c);
    }
  }
  s.heat_ms = now_ms() - t1;
}

void search_heatmap(State& st) {
  SearchUi& s = g_search;
  const int cols = int(s.tp_axis.size()), rows = int(s.pp_axis.size());
  if (cols == 0 || rows == 0 || int(s.cells.size()) != cols * rows) return;
  double lo = 1e300, hi = 0;
  for (const SearchCell& c : s.cells)
    if (c.fits) lo = std::min(lo, c.step_s), hi = std::max(hi, c.step_s);
  std::vector<float> data;
  data.reserve(s.cells.size() * 2);
  for (const SearchCell& c : s.cells) {
    const double v = c.fits && hi > lo ? (std::log(c.step_s) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 0.0;
    data.push_back(float(v));
    data.push_back(c.fits ? 1.0f : 0.0f);  // grey: no layout with this tp and pp divides and fits
  }
  heading("Best step time over tp (columns) × pp (rows), other dimensions optimised");
  if (!heatmap_ready(st)) return;
  const int hovered = draw_tp_pp_heatmap(st, data, s.tp_axis, s.pp_axis, "search:heatmap");
  if (hovered >= 0) {
    const SearchCell& c = s.cells[size_t(hovered)];
    if (!c.fits) ImGui::SetTooltip("tp %lld, pp %lld: no layout divides and fits", (long long)c.tp, (long long)c.pp);
    else ImGui::SetTooltip("tp %lld, pp %lld: best step %.4g s", (long long)c.tp, (long long)c.pp, c.step_s);
  }
  char note[160];
  std::snprintf(note, sizeof note, "Bright = faster; grey = nothing with this tp and pp divides and fits. %zu searches with tp and pp fixed, %.0f ms.",
                s.cells.size(), s.heat_ms);
  section_note(note);
}

}  // namespace

void search_panel(State& st) {
  SearchUi& s = g_search;
  if (ImGui::Button("Run search")) run_search(st);
  remember_rect(st, "search:run");
  ImGui::SameLine();
  ImGui::TextDisabled("all tp × pp × dp × cp × ep × v × micro-batch × recompute × ZeRO on this GPU count, fastest step first");
  if (!s.ran) {
    section_note("Press Run search to rank every layout of the current scenario (docs/search.md).");
    return;
  }
  if (!s.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.5f, 0.5f, 1));
    ImGui::TextWrapped("%s", s.error.c_str());
    ImGui::PopStyleColor();
    ImGui::Text("(%.0f ms)", s.ms);
    return;
  }
  const SearchResult& r = *s.result;
  ImGui::Text("%lld GPUs: %lld candidates, %lld valid, %lld fit, %lld timed, %lld pruned; %.0f ms", (long long)s.gpus, (long long)r.counts.candidates,
              (long long)r.counts.valid, (long long)(r.counts.valid - r.counts.does_not_fit), (long long)r.counts.evaluated,
              (long long)r.counts.pruned_by_bound, s.ms);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("search_top", 14, flags)) {
    const char* cols[] = {"#", "tp", "pp", "dp", "cp", "ep", "v", "micro-batch", "recompute", "ZeRO", "step", "MFU", "memory/GPU", "cost"};
    for (const char* c : cols) ImGui::TableSetupColumn(c);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < r.top.size(); ++i) {
      const SearchLayout& l = r.top[i];
      ImGui::TableNextRow();
      const long long ints[] = {(long long)i + 1, l.tp, l.pp, l.dp, l.cp, l.ep, l.virtual_stages, l.micro_batch};
      for (long long v : ints) {
        ImGui::TableNextColumn();
        ImGui::Text("%lld", v);
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(to_string(l.recompute));
      ImGui::TableNextColumn();
      ImGui::Text("%d", l.zero_stage);
      ImGui::TableNextColumn();
      ImGui::Text("%.4g s", l.step_s);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", 100 * l.mfu);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_value(l.memory_bytes, "bytes").c_str());
      ImGui::TableNextColumn();
      ImGui::Text("$%.4g", l.cost_usd);
    }
    ImGui::EndTable();
  }
  heading("Why the best wins");
  for (const std::string& line : r.why) ImGui::TextWrapped("%s", line.c_str());
  if (r.pruning_disabled) section_note("The lower bound failed a check; this search ran without pruning.");
  search_heatmap(st);
}

std::string search_summary() {
  const SearchUi& s = g_search;
  if (!s.ran) return "";
  char buf[1024];
  if (!s.result || s.result->top.empty()) {
    std::snprintf(buf, sizeof buf, "\nSearch: %s [search_ms=%.17g]", s.error.c_str(), s.ms);
    return buf;
  }
  const SearchLayout& l = s.result->top.front();
  std::snprintf(buf, sizeof buf, "\nSearch best: %s [search_best=tp%lld,pp%lld,dp%lld,cp%lld,ep%lld,v%lld,mb%lld,%s,zero%d] [search_step_s=%.17g] [search_ms=%.17g] [search_heat_ms=%.17g]",
                describe_layout(l).c_str(), (long long)l.tp, (long long)l.pp, (long long)l.dp, (long long)l.cp, (long long)l.ep,
                (long long)l.virtual_stages, (long long)l.micro_batch, to_string(l.recompute), l.zero_stage, l.step_s, s.ms, s.heat_ms);
  return buf;
}

}  // namespace llmc::ui
