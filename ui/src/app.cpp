// App: owns the UI state, lays out the screens (two columns, or tabs below 900 px), recomputes
// after every committed edit, keeps the URL, the stored scenario and the accessible summary
// current.
#include "llmc_ui/app.h"

#include <imgui.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "heatmap_gl.h"
#include "llmc/catalog.h"
#include "llmc/fields.h"
#include "llmc/profile.h"
#include "llmc/url_state.h"
#include "state.h"

namespace llmc::ui {

namespace {
constexpr const char* kStoreScenario = "llmcalc.scenario";
constexpr const char* kStoreProfiles = "llmcalc.profiles";
constexpr const char* kStoreUnits = "llmcalc.units";
constexpr float kNarrowPx = 900;  // below this width inputs and results are tabs of one column

// The model section of a scenario as JSON, to recognise a preset's model.
std::string model_json(const Scenario& s) { return nlohmann::json::parse(scenario_to_json(s))["model"].dump(); }

// The preset whose model the scenario has exactly, or "". Only presets of the same name are
// compared field by field (each comparison reads a preset: this runs on every recompute).
std::string preset_of(const Scenario& s) {
  for (const PresetInfo& p : preset_infos()) {
    if (p.model_name != s.model.name) continue;
    Scenario preset = default_scenario();
    if (set_field(preset, "model.preset", p.id) && model_json(preset) == model_json(s)) return p.id;
  }
  return "";
}

void inputs_column(State& st, Platform& platform) {
  if (!ImGui::BeginTabBar("input_tabs")) return;
  const char* tabs[] = {"Model", "Training", "Parallelism", "Hardware"};
  for (int i = 0; i < 4; ++i) {
    const bool open = ImGui::BeginTabItem(tabs[i]);
    remember_rect(st, std::string("tab:") + tabs[i]);
    if (!open) continue;
    ImGui::BeginChild("tab_body");
    if (i == 0) model_panel(st);
    if (i == 1) training_panel(st);
    if (i == 2) parallel_panel(st);
    if (i == 3) hardware_panel(st, platform);
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

void outputs_column(State& st, Platform& platform, const std::string& share) {
  if (!ImGui::BeginTabBar("output_tabs")) return;
  const char* tabs[] = {"Results", "Scaling", "Layouts", "Search", "Compare"};
  for (int i = 0; i < 5; ++i) {
    const bool open = ImGui::BeginTabItem(tabs[i]);
    remember_rect(st, std::string("tab:") + tabs[i]);
    if (!open) continue;
    ImGui::BeginChild("out_body");
    if (i != 0) stale_notice(st);  // Results says it itself, with the error
    if (i == 0) results_panel(st, platform, share);
    if (i == 1) scaling_plot(st);
    if (i == 2) heatmap_panel(st);
    if (i == 3) search_panel(st, platform);
    if (i == 4) compare_panel(st);
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

void banner(State& st) {
  if (st.banner.empty()) return;
  // The dismiss button first, so a long message wraps beside it instead of pushing it off screen.
  if (ImGui::SmallButton("dismiss")) {
    st.banner.clear();
    return;
  }
  remember_rect(st, "banner:dismiss");
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, st.banner_error ? ImVec4(1.0f, 0.5f, 0.5f, 1) : ImVec4(0.6f, 0.9f, 0.6f, 1));
  ImGui::TextWrapped("%s", st.banner.c_str());
  ImGui::PopStyleColor();
}
}  // namespace

const std::vector<PresetInfo>& preset_infos() {
  static const std::vector<PresetInfo> infos = [] {
    std::vector<PresetInfo> out;
    for (const std::string& id : model_preset_ids())
      if (Result<ModelPreset> p = find_model_preset(id))
        out.push_back({id, p->name, p->model.name, p->published_total});
    return out;
  }();
  return infos;
}

void set_banner(State& st, const std::string& text, bool error) {
  st.banner = text;
  st.banner_error = error;
}

void recompute(State& st) {
  Result<Estimate> e = estimate(st.scenario);
  if (e) {
    st.est = std::move(e).value();
    st.last_valid = st.scenario;
    st.error.reset();
  } else {
    st.error = e.error();
  }
  st.model_preset = preset_of(st.scenario);
  st.dirty = false;
  st.plots_dirty = true;
}

void set_scenario(State& st, const Scenario& s) {
  st.scenario = s;
  st.field_errors.clear();
  st.pending_text.clear();
  st.editing.clear();
  st.dirty = true;
}

void estimate_pinned(State& st) {
  if (!st.pinned) return;
  Result<Estimate> e = estimate(st.pinned->scenario);
  st.pinned->est.reset();
  st.pinned->error.reset();
  if (e)
    st.pinned->est = std::move(e).value();
  else
    st.pinned->error = e.error();
}

void pin_current(State& st) {
  st.pinned = Pinned{st.last_valid, {}, {}};
  estimate_pinned(st);
  st.dirty = true;  // the link now carries A
}

struct App::Impl {
  State st;
  HeatmapRenderer heatmap;
  std::string last_fragment;
};

App::App() : impl_(std::make_unique<Impl>()) { impl_->st.heatmap = &impl_->heatmap; }
App::~App() = default;

void App::set_embedded(bool e) { impl_->st.embedded = e; }

std::string App::url_fragment() const {
  const State& st = impl_->st;
  const LinkProfile profile = link_profile(st);
  return scenario_to_url_fragment(st.scenario, st.pinned ? &st.pinned->scenario : nullptr, &profile);
}

void App::fetched(Platform& platform, const std::string& tag, int status, const std::string& text,
                  const std::string& sha256) {
  registry_fetched(impl_->st, platform, tag, status, text, sha256);
}

bool App::widget_rect(const std::string& id, float out[4]) const {
  auto it = impl_->st.rects.find(id);
  if (it == impl_->st.rects.end()) return false;
  out[0] = it->second.x;
  out[1] = it->second.y;
  out[2] = it->second.w;
  out[3] = it->second.h;
  return true;
}

Scenario starting_scenario() {
  Scenario s = default_scenario();
  (void)set_field(s, "model.preset", "llama3.1-8b");
  (void)set_field(s, "hardware.gpu_count", "8");
  (void)set_field(s, "training.global_batch_seqs", "512");
  (void)set_field(s, "training.zero_stage", "3");
  (void)set_field(s, "training.tokens", "1e12");
  return s;
}

void App::start(Platform& platform, const std::string& url_fragment) {
  State& st = impl_->st;
  st.scenario = starting_scenario();
  if (platform.load) {
    // Profiles loaded earlier come back first, so a stored scenario can refer to them.
    const std::string saved = platform.load(kStoreProfiles);
    if (!saved.empty()) {
      nlohmann::json arr = nlohmann::json::parse(saved, nullptr, false);
      if (arr.is_array())
        for (const auto& item : arr)
          if (item.is_object() && item.contains("name") && item.contains("text") && item["name"].is_string() &&
              item["text"].is_string())
            load_file(platform, item["name"].get<std::string>(), item["text"].get<std::string>());
      set_banner(st, "", false);
    }
    (void)parse_memory_units(platform.load(kStoreUnits), st.memory_units);
  }
  const bool has_url = url_fragment.size() > 1;
  LinkProfile link;
  if (has_url) {
    Scenario from_url = default_scenario();
    std::optional<Scenario> pinned;
    if (Status s = apply_url_fragment(from_url, url_fragment, &pinned, &link); s) {
      st.scenario = from_url;
      st.active_profile = -1;  // the link's scenario has the datasheet profile, unless the link names one (below)
      if (pinned) {
        st.pinned = Pinned{*pinned, {}, {}};
        estimate_pinned(st);
      }
    } else {
      set_banner(st, "The link's scenario could not be read (" + s.error().text() + "); showing the defaults instead.",
                 true);
    }
  } else if (platform.load) {
    const std::string saved = platform.load(kStoreScenario);
    Scenario restored = default_scenario();
    if (!saved.empty() && apply_scenario_json(restored, saved)) {
      st.scenario = restored;
      st.active_profile = -1;  // a stored scenario comes with the datasheet profile
    }
  }
  registry_start(st, platform, link);
  st.last_valid = st.scenario;
  st.dirty = true;
}

void App::add_bundled_profile(const std::string& name, const std::string& text) {
  State& st = impl_->st;
  Result<HardwareProfile> p = profile_from_json(text);
  if (!p) {
    set_banner(st, "bundled profile " + name + ": " + p.error().text(), true);
    return;
  }
  // Bundled profiles stay ahead of the user's, in the order they arrive (site/profiles/index.json's).
  const auto first_loaded = std::find_if(st.profiles.begin(), st.profiles.end(), [](const LoadedProfile& lp) {
    return lp.origin != LoadedProfile::Origin::bundled;
  });
  const int at = int(first_loaded - st.profiles.begin());
  st.profiles.insert(first_loaded, {name, *p, LoadedProfile::Origin::bundled, {}, {}});
  if (st.active_profile >= at) ++st.active_profile;
}

void App::load_file(Platform& platform, const std::string& name, const std::string& text) {
  State& st = impl_->st;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    set_banner(st, name + ": not a JSON object; expected a hardware profile, a scenario or a config.json.", true);
    return;
  }
  if (j.contains("schema_version")) {
    Result<HardwareProfile> p = profile_from_json(text);
    if (!p) {
      set_banner(st, name + ": " + p.error().text(), true);
      return;
    }
    st.profiles.push_back({name, *p, LoadedProfile::Origin::loaded, {}, {}});
    if (p->gpu_id == st.scenario.hardware.gpu.id) {
      st.active_profile = int(st.profiles.size()) - 1;
      attach_profile(st.scenario, *p);
      st.dirty = true;
      set_banner(st, "Loaded profile " + name + " (" + p->source + ", " + p->gpu_id + "): in use.", false);
    } else {
      // Say so: a profile of another GPU is listed but times nothing until that GPU is chosen.
      set_banner(st,
                 "Loaded profile " + name + " (" + p->source + ") is for " + p->gpu_id + ", not this scenario's " +
                     st.scenario.hardware.gpu.id + ": not in use. Choose it in the Hardware tab to switch to " +
                     p->gpu_id + ".",
                 true);
    }
    if (platform.store) {
      nlohmann::json arr = nlohmann::json::array();
      for (const LoadedProfile& lp : st.profiles)
        if (lp.origin == LoadedProfile::Origin::loaded)
          arr.push_back({{"name", lp.name}, {"text", profile_to_json(lp.profile)}});
      platform.store(kStoreProfiles, arr.dump());
    }
    return;
  }
  if (j.contains("model_type")) {
    import_hf_text(st, text, name);
    return;
  }
  Scenario next = st.scenario;
  if (Status s = apply_scenario_json(next, text); !s) {
    set_banner(st, name + ": " + s.error().text(), true);
    return;
  }
  set_scenario(st, next);
  set_banner(st, "Loaded scenario " + name, false);
}

void App::paste_text(const std::string& text) {
  State& st = impl_->st;
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) {
    // Into the field being edited, as typed characters (tabs as spaces; CR dropped).
    std::string t;
    for (char c : text)
      if (c != '\r') t += c == '\t' ? ' ' : c;
    io.AddInputCharactersUTF8(t.c_str());
    return;
  }
  if (text.find("\"model_type\"") != std::string::npos) import_hf_text(st, text, "pasted config.json");
}

void App::frame(Platform& platform) {
  State& st = impl_->st;
  st.editing_drawn.clear();
  if (st.dirty) {
    recompute(st);
    const std::string frag = url_fragment();
    if (frag != impl_->last_fragment) {
      impl_->last_fragment = frag;
      if (platform.set_url_fragment) platform.set_url_fragment(frag);
      if (platform.store) platform.store(kStoreScenario, scenario_to_json(st.scenario));
    }
  }
  const std::string share = (platform.base_url ? platform.base_url() : std::string()) + impl_->last_fragment;
  const MemoryUnits units_before = st.memory_units;

  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("llmcalc", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (st.embedded) {
    banner(st);
    results_panel(st, platform, share);
  } else {
    header_bar(st, platform);
    banner(st);
    const float width = ImGui::GetContentRegionAvail().x;
    if (width >= kNarrowPx) {
      const float inputs_w = std::clamp(width * 0.4f, 400.0f, 560.0f);
      ImGui::BeginChild("inputs", ImVec2(inputs_w, 0), true);
      inputs_column(st, platform);
      ImGui::EndChild();
      ImGui::SameLine();
      ImGui::BeginChild("outputs", ImVec2(0, 0), true);
      outputs_column(st, platform, share);
      ImGui::EndChild();
    } else if (ImGui::BeginTabBar("narrow_tabs")) {
      for (const char* tab : {"Inputs", "Outputs"}) {
        const bool open = ImGui::BeginTabItem(tab);
        remember_rect(st, std::string("tab:") + tab);
        if (!open) continue;
        if (tab[0] == 'I')
          inputs_column(st, platform);
        else
          outputs_column(st, platform, share);
        ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    }
  }
  help_window(st);
  ImGui::End();
  commit_editing(st);  // a field being typed into that was not drawn (tab switched): keep its text
  if (st.memory_units != units_before && platform.store) platform.store(kStoreUnits, to_string(st.memory_units));
  if (platform.announce) {
    const std::string summary = aria_summary(st) + search_summary() + compare_summary(st);
    if (summary != st.announced) {
      st.announced = summary;
      platform.announce(summary);
    }
  }
  if (platform.publish_figures) {
    const std::string figures = figures_json(st);
    if (figures != st.published) {
      st.published = figures;
      platform.publish_figures(figures);
    }
  }
}

}  // namespace llmc::ui
