// Search tab: llmc::search_layouts on the last valid scenario (its GPU count, objective step
// time), run only when the button is pressed. Shows the top layouts, rows that differ from a
// better one in a single knob folded under it, an Apply button on each (every knob of that
// layout, on the scenario the search ran on), why the best wins, and the best step time over
// tp × pp (other dimensions optimised, one search per cell with tp and pp fixed) through the GL
// heatmap, whose cells apply their best layout on a click. The search's own error is shown as is.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#include <chrono>
#endif

#include "llmc/explain.h"
#include "llmc/fields.h"
#include "llmc/search.h"
#include "state.h"
#include "tp_pp_heatmap.h"

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
  std::optional<SearchLayout> best;  // the fastest layout with this tp and pp that divides and fits
};

struct SearchUi {
  bool ran = false;
  SearchSpec spec;  // spec.base: the scenario the search ran on (Apply applies onto it)
  std::optional<SearchResult> result;
  std::string error;
  double ms = 0, heat_ms = 0;  // the search itself; the tp × pp grid of searches after it
  int64_t gpus = 0;
  std::vector<int> leader;           // per top row: the row it differs from in one knob (-1: a group of its own)
  std::vector<std::string> differs;  // per top row: the knob that differs from its leader
  std::set<int> expanded;            // leaders whose one-knob variants are shown
  std::vector<int64_t> tp_axis, pp_axis;
  std::vector<SearchCell> cells;  // rows pp, columns tp
};

SearchUi g_search;  // one UI per process (web page or desktop window)

// The knobs a layout sets (dp and micro-batches per step follow from them).
std::vector<std::pair<const char*, std::string>> knobs(const SearchLayout& l) {
  return {{"tp", std::to_string(l.tp)},
          {"pp", std::to_string(l.pp)},
          {"cp", std::to_string(l.cp)},
          {"ep", std::to_string(l.ep)},
          {"v", std::to_string(l.virtual_stages)},
          {"micro-batch", std::to_string(l.micro_batch)},
          {"recompute",
           std::string(to_string(l.recompute)) + (l.recompute_layers ? " " + std::to_string(l.recompute_layers) : "")},
          {"ZeRO", std::to_string(l.zero_stage)},
          {"schedule", to_string(l.schedule)}};
}

// Folds each row under the first better row (itself not folded) that differs in exactly one knob.
void group_rows(SearchUi& s) {
  const std::vector<SearchLayout>& top = s.result->top;
  s.leader.assign(top.size(), -1);
  s.differs.assign(top.size(), "");
  for (size_t i = 1; i < top.size(); ++i) {
    const auto ki = knobs(top[i]);
    for (size_t j = 0; j < i; ++j) {
      if (s.leader[j] >= 0) continue;
      const auto kj = knobs(top[j]);
      int n = 0;
      std::string which;
      for (size_t k = 0; k < ki.size(); ++k)
        if (ki[k].second != kj[k].second) ++n, which = ki[k].first;
      if (n == 1) {
        s.leader[i] = int(j);
        s.differs[i] = which;
        break;
      }
    }
  }
}

void run_search(State& st) {
  SearchUi& s = g_search;
  s = SearchUi{};
  s.ran = true;
  s.spec.base = st.last_valid;
  s.spec.objective = SearchObjective::step_time;
  s.spec.top_n = 10;
  s.gpus = st.est ? st.est->r.gpu_count : st.last_valid.hardware.gpu_count;
  s.spec.gpus_min = s.spec.gpus_max = s.gpus;
  const double t0 = now_ms();
  Result<SearchResult> r = search_layouts(s.spec);
  s.ms = now_ms() - t0;
  if (!r) {
    s.error = r.error().text();
    return;
  }
  s.result = std::move(*r);
  group_rows(s);
  // Heatmap: best layout per (tp, pp), powers of two dividing the GPU count.
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
        SearchSpec cell = s.spec;
        cell.top_n = 1;
        cell.vary_tp = cell.vary_pp = false;
        cell.base.parallel.tp = tp;
        cell.base.parallel.pp = pp;
        if (Result<SearchResult> cr = search_layouts(cell); cr && !cr->top.empty()) c.best = cr->top.front();
      }
      s.cells.push_back(c);
    }
  }
  s.heat_ms = now_ms() - t1;
}

void apply_layout(State& st, const SearchLayout& l, const std::string& what) {
  set_scenario(st, apply_search_layout(g_search.spec.base, l));
  set_banner(st, "Applied " + what + ": " + describe_layout(l) + ". Every knob is set; the results are that row's.",
             false);
}

std::string layout_csv(const SearchUi& s) {
  std::string out =
      "rank,gpus,tp,pp,dp,cp,ep,virtual_stages,micro_batch,micro_batches,recompute,recompute_layers,zero_stage,"
      "schedule,"
      "sequence_parallel,step_s,compute_s,bubble_s,comm_exposed_s,total_days,cost_usd,mfu,memory_bytes,capacity_"
      "bytes\n";
  int rank = 0;
  for (const SearchLayout& l : s.result->top) {
    char buf[640];
    std::snprintf(buf, sizeof buf,
                  "%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%s,%lld,%d,%s,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%."
                  "17g,%.17g,%.17g,%.17g\n",
                  ++rank, (long long)l.gpus, (long long)l.tp, (long long)l.pp, (long long)l.dp, (long long)l.cp,
                  (long long)l.ep, (long long)l.virtual_stages, (long long)l.micro_batch, (long long)l.micro_batches,
                  to_string(l.recompute), (long long)l.recompute_layers, l.zero_stage, to_string(l.schedule),
                  s.spec.base.training.sequence_parallel ? "true" : "false", l.step_s, l.compute_s, l.bubble_s,
                  l.comm_exposed_s, l.total_days, l.cost_usd, l.mfu, l.memory_bytes, l.capacity_bytes);
    out += buf;
  }
  return out;
}

void top_table(State& st, SearchUi& s) {
  const SearchResult& r = *s.result;
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  // Rank and Apply first, frozen: on a narrow screen the table scrolls sideways under them.
  const char* cols[] = {"#",           "",          "tp",   "pp",   "dp",  "cp",         "ep",  "v",
                        "micro-batch", "recompute", "ZeRO", "step", "MFU", "memory/GPU", "cost"};
  const int ncols = int(sizeof cols / sizeof *cols);
  int shown = 0;
  for (size_t i = 0; i < r.top.size(); ++i) shown += s.leader[i] < 0 || s.expanded.count(s.leader[i]);
  const float row_h = ImGui::GetFrameHeightWithSpacing();
  if (!ImGui::BeginTable("search_top", ncols, flags,
                         ImVec2(0, row_h * (float(shown) + 1.0f) + ImGui::GetStyle().ScrollbarSize + 4)))
    return;
  for (const char* c : cols) ImGui::TableSetupColumn(c);
  ImGui::TableSetupScrollFreeze(2, 1);
  ImGui::TableHeadersRow();
  const ImVec4 dim = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), hot(1.0f, 0.85f, 0.35f, 1.0f);
  for (size_t i = 0; i < r.top.size(); ++i) {
    const int lead = s.leader[i];
    if (lead >= 0 && !s.expanded.count(lead)) continue;  // a folded one-knob variant
    const SearchLayout& l = r.top[i];
    ImGui::PushID(int(i));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    int variants = 0;
    for (size_t k = 0; k < r.top.size(); ++k) variants += s.leader[k] == int(i);
    if (lead >= 0) {
      ImGui::TextDisabled("  %zu", i + 1);
    } else if (variants > 0) {
      const bool open = s.expanded.count(int(i)) > 0;
      if (ImGui::ArrowButton("##fold", open ? ImGuiDir_Down : ImGuiDir_Right)) {
        if (open)
          s.expanded.erase(int(i));
        else
          s.expanded.insert(int(i));
      }
      remember_rect(st, "search:fold:" + std::to_string(i + 1));
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%d more layout%s that differ from this one in a single knob", variants,
                          variants == 1 ? "" : "s");
      ImGui::SameLine();
      ImGui::Text("%zu (+%d)", i + 1, variants);
    } else {
      ImGui::Text("%zu", i + 1);
    }
    ImGui::TableNextColumn();
    if (ImGui::SmallButton("Apply")) apply_layout(st, l, "search row " + std::to_string(i + 1));
    remember_rect(st, "search:apply:" + std::to_string(i + 1));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Set every knob of this layout (on the scenario the search ran on)");
    // A variant's cells: the knob that differs bright, the rest dimmed (as its leader's).
    const auto cell = [&](const char* knob, const std::string& text) {
      ImGui::TableNextColumn();
      if (lead >= 0)
        ImGui::TextColored(s.differs[i] == knob ? hot : dim, "%s", text.c_str());
      else
        ImGui::TextUnformatted(text.c_str());
    };
    cell("tp", std::to_string(l.tp));
    cell("pp", std::to_string(l.pp));
    cell("dp", std::to_string(l.dp));
    cell("cp", std::to_string(l.cp));
    cell("ep", std::to_string(l.ep));
    cell("v", std::to_string(l.virtual_stages));
    cell("micro-batch", std::to_string(l.micro_batch));
    cell("recompute",
         std::string(to_string(l.recompute)) + (l.recompute_layers ? " " + std::to_string(l.recompute_layers) : ""));
    cell("ZeRO", std::to_string(l.zero_stage));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_duration(l.step_s).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_percent(l.mfu).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_bytes(l.memory_bytes, st.memory_units).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_usd(l.cost_usd).c_str());
    ImGui::PopID();
  }
  ImGui::EndTable();
}

void search_heatmap(State& st) {
  SearchUi& s = g_search;
  const int cols = int(s.tp_axis.size()), rows = int(s.pp_axis.size());
  if (cols == 0 || rows == 0 || int(s.cells.size()) != cols * rows) return;
  double lo = 1e300, hi = 0;
  for (const SearchCell& c : s.cells)
    if (c.best) lo = std::min(lo, c.best->step_s), hi = std::max(hi, c.best->step_s);
  std::vector<float> data;
  data.reserve(s.cells.size() * 2);
  int marked = -1;
  const SearchLayout* best = s.result && !s.result->top.empty() ? &s.result->top.front() : nullptr;
  for (const SearchCell& c : s.cells) {
    const double v =
        c.best && hi > lo ? (std::log(c.best->step_s) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 0.0;
    data.push_back(float(v));
    data.push_back(c.best ? 1.0f : 0.0f);  // grey: no layout with this tp and pp divides and fits
    if (best && c.tp == best->tp && c.pp == best->pp) marked = int(&c - s.cells.data());
  }
  heading("Best step time over tp (columns) \xC3\x97 pp (rows), other dimensions optimised");
  if (!heatmap_ready(st)) return;
  HeatmapView view{&data,
                   &s.tp_axis,
                   &s.pp_axis,
                   marked,
                   hi > 0 ? format_duration(lo) : "",
                   hi > 0 ? format_duration(hi) : "",
                   "search:heatmap"};
  bool clicked = false;
  const int hovered = draw_tp_pp_heatmap(st, view, clicked);
  if (hovered >= 0) {
    const SearchCell& c = s.cells[size_t(hovered)];
    if (!c.best) {
      ImGui::SetTooltip("tp %lld, pp %lld: no layout divides and fits", (long long)c.tp, (long long)c.pp);
    } else {
      ImGui::SetTooltip("tp %lld, pp %lld: best step %s\n%s\nclick to apply it", (long long)c.tp, (long long)c.pp,
                        format_duration(c.best->step_s).c_str(), describe_layout(*c.best).c_str());
      if (clicked)
        apply_layout(st, *c.best,
                     "the best layout with tp " + std::to_string(c.tp) + " and pp " + std::to_string(c.pp));
    }
  }
  char note[200];
  std::snprintf(note, sizeof note,
                "Bright = faster; grey = nothing with this tp and pp divides and fits; white outline: the best layout. "
                "Click a cell to apply its best layout. %zu searches with tp and pp fixed, %.0f ms.",
                s.cells.size(), s.heat_ms);
  section_note(note);
}

}  // namespace

void search_panel(State& st, Platform& platform) {
  SearchUi& s = g_search;
  if (ImGui::Button("Run search")) run_search(st);
  remember_rect(st, "search:run");
  ImGui::SameLine();
  ImGui::TextWrapped(
      "every tp \xC3\x97 pp \xC3\x97 dp \xC3\x97 cp \xC3\x97 ep \xC3\x97 v \xC3\x97 micro-batch \xC3\x97 recompute "
      "\xC3\x97 ZeRO on "
      "this GPU count, fastest step first");
  if (!s.ran) {
    section_note("Press Run search to rank every layout of the current scenario (docs/search.md).");
    return;
  }
  if (!s.error.empty()) {
    error_text(s.error);
    ImGui::Text("(%.0f ms)", s.ms);
    return;
  }
  const SearchResult& r = *s.result;
  ImGui::TextWrapped("%lld GPUs: %lld candidates, %lld valid, %lld fit, %lld timed, %lld pruned; %.0f ms",
                     (long long)s.gpus, (long long)r.counts.candidates, (long long)r.counts.valid,
                     (long long)(r.counts.valid - r.counts.does_not_fit), (long long)r.counts.evaluated,
                     (long long)r.counts.pruned_by_bound, s.ms);
  // Inputs other than the layout changed since the search? (Both with the best row's layout
  // applied, so that Apply itself, or a layout typed in, does not count.)
  if (!r.top.empty() && scenario_to_json(apply_search_layout(s.spec.base, r.top.front())) !=
                            scenario_to_json(apply_search_layout(st.last_valid, r.top.front())))
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.4f, 1.0f),
                       "The inputs changed since this search: Apply restores the searched scenario's other settings.");
  section_note(("Rows under a \xE2\x96\xB6 differ from the row above them in one knob (shown bright). Every row keeps "
                "the scenario's sequence "
                "parallel (" +
                std::string(s.spec.base.training.sequence_parallel ? "on" : "off") + "), precision and optimizer.")
                   .c_str());
  top_table(st, s);
  if (platform.save_file) {
    ImGui::TextDisabled("Export the table:");
    ImGui::SameLine();
    if (ImGui::SmallButton("CSV##search")) save(st, platform, "llmcalc-search.csv", layout_csv(s));
    remember_rect(st, "export:search.csv");
    ImGui::SameLine();
    if (ImGui::SmallButton("JSON##search")) save(st, platform, "llmcalc-search.json", search_to_json(s.spec, r));
    remember_rect(st, "export:search.json");
  }
  heading("Why the best wins");
  for (const std::string& line : r.why) ImGui::TextWrapped("%s", line.c_str());
  if (r.pruning_disabled) section_note("The lower bound failed a check; this search ran without pruning.");
  search_heatmap(st);
}

std::string search_summary() {
  const SearchUi& s = g_search;
  if (!s.ran) return "";
  if (!s.result || s.result->top.empty()) return "\nSearch: " + s.error;
  const SearchLayout& l = s.result->top.front();
  return "\nSearch, fastest of " + std::to_string(s.result->counts.evaluated) +
         " timed layouts: " + describe_layout(l) + "; step " + format_duration(l.step_s) + ", MFU " +
         format_percent(l.mfu) + ".";
}

void search_figures(std::string& json_members) {
  const SearchUi& s = g_search;
  if (!s.ran) return;
  nlohmann::ordered_json j;
  j["ms"] = s.ms;
  j["heat_ms"] = s.heat_ms;
  j["error"] = s.error;
  if (s.result && !s.result->top.empty()) {
    const SearchLayout& l = s.result->top.front();
    char key[200];
    std::snprintf(key, sizeof key, "tp%lld,pp%lld,dp%lld,cp%lld,ep%lld,v%lld,mb%lld,%s,zero%d", (long long)l.tp,
                  (long long)l.pp, (long long)l.dp, (long long)l.cp, (long long)l.ep, (long long)l.virtual_stages,
                  (long long)l.micro_batch, to_string(l.recompute), l.zero_stage);
    j["best"] = key;
    j["step_s"] = l.step_s;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (size_t i = 0; i < s.result->top.size(); ++i)
      rows.push_back({{"step_s", s.result->top[i].step_s}, {"leader", s.leader[i]}, {"differs", s.differs[i]}});
    j["rows"] = rows;
  }
  json_members += ",\"search\":" + j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace llmc::ui
