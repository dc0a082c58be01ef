// Internal state of the UI, shared by its source files (one job each: layout, header, field
// editors, panels, results, plots, search, compare, export, ARIA text). Everything shown is read
// from core's Estimate and its explanation terms, and formatted by core's format.h.
#pragma once
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "llmc/estimate.h"
#include "llmc/format.h"
#include "llmc/hardware.h"
#include "llmc/registry_list.h"
#include "llmc/url_state.h"
#include "llmc_ui/app.h"

namespace llmc::ui {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
};

// A hardware profile the Hardware tab offers, grouped by origin (the user's first), each group in
// the order it arrived (bundled: site/profiles/index.json's order).
struct LoadedProfile {
  // shipped with the site; loaded by the user (file, drop); fetched from a profile registry
  enum class Origin { bundled, loaded, registry };
  std::string name;  // file name ("registry/<id prefix>" for a registry's)
  HardwareProfile profile;
  Origin origin = Origin::loaded;
  std::string registry_id;  // registry: the profile's id (SHA-256 of its bytes)
  std::string registry;     // registry: the base it came from when not the page's default ("" = default)
  bool verified = false;    // registry: its bytes' SHA-256 was checked against registry_id
};

// The profile registry the page reads (registry_panel.cpp; docs/web.md, "Registry profiles"):
// B/index.json lists its profiles, B/profiles/<id>.json serves one.
struct RegistryState {
  std::string base = "api/v1";  // relative to the page: the same origin under `llmcalc serve`
  bool custom = false;          // from ?registry= or a link's &r=: share links name it (&r=)
  enum class List { idle, loading, ready, none } list = List::idle;
  std::string list_note;  // why there is no list (HTTP status, network error, a bad document)
  std::vector<RegistryEntry> entries;
  std::set<std::string> loading;  // ids being fetched
  std::string link_id;            // a link's &p=: fetched at start, kept in the link until it arrives
  std::string link_local;         // a link's &pl=: the sender's local profile file, not available here
};

// Scaling plot and Layouts heatmap data, recomputed only when shown after a change.
struct ScalingPoint {
  double gpus = 0, days = 0, cost_usd = 0, step_s = 0, mfu = 0, memory_bytes = 0;
  bool fits = false;
};
struct HeatCell {
  int64_t tp = 1, pp = 1;
  bool valid = false, fits = false;
  double step_s = 0;
};

// Compare: A is a pinned scenario; B is the current one.
struct Pinned {
  Scenario scenario;
  std::optional<Estimate> est;
  std::optional<Error> error;
};

class HeatmapRenderer;  // heatmap_gl.cpp

struct State {
  Scenario scenario;            // what the inputs say (each field valid on its own)
  Scenario last_valid;          // the scenario `est` was computed from: plots and search use it
  std::optional<Estimate> est;  // the last good estimate (kept, marked stale, while inputs are wrong)
  std::optional<Error> error;   // the current scenario's cross-field error, if any
  bool dirty = true;
  // Typed values that were refused: the field's message and the text as typed, shown in place
  // until corrected. The scenario keeps its last valid value meanwhile.
  std::map<std::string, std::string> field_errors, pending_text;
  // Text fields being typed into, by key: their text is ImGui's until Enter or focus loss commits
  // it. Usually one; two in the frame where a click moves the focus from one field to another.
  std::map<std::string, std::array<char, 256>> editing;
  std::set<std::string> editing_drawn;  // drawn this frame (one that was not is committed as it is)
  std::string banner;
  bool banner_error = false;
  std::vector<LoadedProfile> profiles;
  int active_profile = -1;  // -1: the built-in datasheet profile
  RegistryState registry;
  std::set<std::string> compare_profiles;  // Compare profiles: the ticked profiles, by name
  std::string compare_metric;              // and the table shown (a profile_curves() key)
  bool embedded = false;
  MemoryUnits memory_units = MemoryUnits::gib;
  std::string model_preset;  // the preset whose model the scenario has ("" if edited or imported)
  char preset_filter[64] = "";
  std::vector<char> hf_buffer = std::vector<char>(16384, 0);
  std::string hf_error;
  std::optional<Pinned> pinned;
  bool show_help = false;
  std::map<std::string, Rect> rects;  // widget id → last frame's rectangle
  bool plots_dirty = true;            // plots are recomputed only when shown (keeps edits and drags cheap)
  std::vector<ScalingPoint> scaling;
  std::vector<HeatCell> heat;
  std::vector<int64_t> heat_tp, heat_pp;
  HeatmapRenderer* heatmap = nullptr;
  std::string announced, published;
  std::string expanded_term;  // figure whose derivation is expanded inline
};

// True while the results are not those of the current inputs: a typed value was refused, or the
// scenario as a whole does not estimate.
inline bool stale(const State& st) { return !st.field_errors.empty() || st.error.has_value(); }

// The model presets, read once (each read parses its JSON): the preset list and recognising the
// scenario's preset both use them.
struct PresetInfo {
  std::string id, name, model_name;  // the preset's display name; the name its model carries
  double published_total = 0;
};
const std::vector<PresetInfo>& preset_infos();

// app.cpp
Scenario starting_scenario();  // what the page shows first (and "Reset" returns to)
void recompute(State& st);
void set_banner(State& st, const std::string& text, bool error);
void set_scenario(State& st, const Scenario& s);  // replaces the inputs (preset, apply, reset): clears refused values
void pin_current(State& st);                      // Compare: the current scenario becomes A
void estimate_pinned(State& st);

// widgets.cpp
void remember_rect(State& st, const std::string& id);
void figure(State& st, const char* label, const char* term_key, const std::string& value);
void section_note(const char* text);
void heading(const char* text);  // ImGui 1.86 has no SeparatorText
std::string render_term(const Term& t, MemoryUnits u);
void error_text(const std::string& text);
void stale_notice(const State& st);

// field_editor.cpp
// `shown_when_unset`: the effective value an optional field takes when left empty (a hint).
bool field_editor(State& st, const char* key, const char* label, std::optional<double> shown_when_unset = std::nullopt);
void commit_editing(State& st);  // commits the field being typed into (when it was not drawn)

// panels.cpp, hardware_panel.cpp
void model_panel(State& st);
void training_panel(State& st);
void parallel_panel(State& st);
void hardware_panel(State& st, Platform& platform);
void import_hf_text(State& st, const std::string& text, const std::string& what);

// registry_panel.cpp: the registry's profiles for the scenario's GPU (Hardware tab), fetching
// them, and the profile part of share links.
void registry_group(State& st, Platform& platform);
void registry_start(State& st, Platform& platform, const LinkProfile& link);  // ?registry=, the link's &p=/&pl=
void registry_fetched(State& st, Platform& platform, const std::string& tag, int status, const std::string& text,
                      const std::string& sha256);
LinkProfile link_profile(const State& st);  // what share links say about the profile in use
void profile_compare(State& st);            // profile_compare.cpp: measured tables of ticked profiles on one plot
void use_profile(State& st, int i);         // hardware_panel.cpp

// results.cpp
void results_panel(State& st, Platform& platform, const std::string& share_url);

// aria.cpp: the key results in words (ARIA live region) and as numbers (data attributes, tests)
std::string aria_summary(const State& st);
std::string figures_json(const State& st);

// plots.cpp, layouts_panel.cpp
void compute_plots(State& st);
void scaling_plot(State& st);
void heatmap_panel(State& st);

// search_panel.cpp
void search_panel(State& st, Platform& platform);  // the Search tab: runs llmc::search_layouts only on its button
std::string search_summary();                      // "" before the first search; else a sentence
void search_figures(std::string& json_members);    // ,"search":{...} for figures_json

// compare.cpp
void compare_panel(State& st);
std::string compare_summary(const State& st);

// export.cpp
void export_menu(State& st, Platform& platform, const char* id);  // results and scenario downloads
void save(State& st, Platform& platform, const std::string& name, const std::string& text);

// header.cpp
void header_bar(State& st, Platform& platform);
void help_window(State& st);

}  // namespace llmc::ui
