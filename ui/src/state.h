// Internal state of the UI, shared by its source files (one job each: panels, results, plots,
// heatmap, widgets). Everything shown is read from core's Estimate and its explanation terms.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "llmc/estimate.h"
#include "llmc/hardware.h"
#include "llmc_ui/app.h"

namespace llmc::ui {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
};

struct LoadedProfile {
  std::string name;  // file name
  HardwareProfile profile;
  bool bundled = false;  // shipped with the site (site/profiles/), not loaded by the user
};

// Scaling plot and heatmap data, recomputed only when the estimate changes.
struct ScalingPoint {
  double gpus = 0, days = 0, cost_usd = 0;
  bool fits = false;
};
struct HeatCell {
  int64_t tp = 1, pp = 1;
  bool valid = false, fits = false;
  double step_s = 0;
};

class HeatmapRenderer;  // heatmap_gl.cpp

struct State {
  Scenario scenario;
  std::optional<Estimate> est;   // the last good estimate (results stay visible while an input is wrong)
  std::optional<Error> error;    // the current scenario's error, if any
  bool dirty = true;
  std::map<std::string, std::string> field_errors;  // inline errors by field key
  std::map<std::string, double> pending;            // refused numeric input, shown until fixed
  std::string banner;
  bool banner_error = false;
  std::vector<LoadedProfile> profiles;
  int active_profile = -1;  // -1: the built-in datasheet profile
  bool embedded = false;
  char preset_filter[64] = "";
  std::string hf_text;
  std::vector<char> hf_buffer = std::vector<char>(16384, 0);
  std::map<std::string, Rect> rects;  // widget id → last frame's rectangle
  bool plots_dirty = true;  // plots are recomputed only when shown (keeps edits and drags cheap)
  std::vector<ScalingPoint> scaling;
  std::vector<HeatCell> heat;
  std::vector<int64_t> heat_tp, heat_pp;
  HeatmapRenderer* heatmap = nullptr;
  std::string announced;
  std::string expanded_term;  // figure whose derivation is expanded inline
};

// app.cpp
void recompute(State& st);
void set_banner(State& st, const std::string& text, bool error);

// widgets.cpp
void remember_rect(State& st, const std::string& id);
// `shown_when_unset`: the effective value to display for an optional field left unset.
bool field_editor(State& st, const char* key, const char* label, std::optional<double> shown_when_unset = std::nullopt);
void figure(State& st, const char* label, const char* term_key, const std::string& value);
void section_note(const char* text);
void heading(const char* text);  // ImGui 1.86 has no SeparatorText

// panels.cpp
void model_panel(State& st);
void training_panel(State& st);
void parallel_panel(State& st);
void hardware_panel(State& st, Platform& platform);

// results.cpp
void results_panel(State& st, Platform& platform, const std::string& share_url);
void memory_bar(State& st);
void time_bar(State& st);
std::string aria_summary(const State& st);

// plots.cpp
void compute_plots(State& st);
void scaling_plot(State& st);
void heatmap_panel(State& st);

// search_panel.cpp
void search_panel(State& st);  // the Search tab: runs llmc::search_layouts only on its button
std::string search_summary();  // "" before the first search; else a line for the ARIA summary

}  // namespace llmc::ui
