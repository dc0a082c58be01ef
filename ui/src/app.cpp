// App: owns the UI state, lays out the screens, recomputes on every edit, keeps the URL, the
// stored scenario and the accessible summary current.
#include "llmc_ui/app.h"

#include <imgui.h>

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

Scenario starting_scenario() {
  Scenario s = default_scenario();
  (void)set_field(s, "model.preset", "llama3.1-8b");
  (void)set_field(s, "hardware.gpu_count", "8");
  (void)set_field(s, "training.global_batch_seqs", "512");
  (void)set_field(s, "training.zero_stage", "3");
  (void)set_field(s, "training.tokens", "1e12");
  return s;
}
}  // namespace

void set_banner(State& st, const std::string& text, bool error) {
  st.banner = text;
  st.banner_error = error;
}

void recompute(State& st) {
  Result<Estimate> e = estimate(st.scenario);
  if (e) {
    st.est = std::move(e).value();
    st.error.reset();
  } else {
    st.error = e.error();
  }
  st.dirty = false;
  st.plots_dirty = true;
}

struct App::Impl {
  State st;
  HeatmapRenderer heatmap;
  std::string last_fragment;
};

App::App() : impl_(std::make_unique<Impl>()) { impl_->st.heatmap = &impl_->heatmap; }
App::~App() = default;

void App::set_embedded(bool e) { impl_->st.embedded = e; }

std::string App::url_fragment() const { return scenario_to_url_fragment(impl_->st.scenario); }

bool App::widget_rect(const std::string& id, float out[4]) const {
  auto it = impl_->st.rects.find(id);
  if (it == impl_->st.rects.end()) return false;
  out[0] = it->second.x;
  out[1] = it->second.y;
  out[2] = it->second.w;
  out[3] = it->second.h;
  return true;
}

void App::start(Platform& platform, const std::string& url_fragment) {
  State& st = impl_->st;
  st.scenario = starting_scenario();
  // Profiles loaded earlier come back first, so a stored scenario can refer to them.
  if (platform.load) {
    const std::string saved = platform.load(kStoreProfiles);
    if (!saved.empty()) {
      nlohmann::json arr = nlohmann::json::parse(saved, nullptr, false);
      if (arr.is_array())
        for (const auto& item : arr)
          if (item.is_object() && item.contains("name") && item.contains("text") && item["name"].is_string() && item["text"].is_string())
            load_file(platform, item["name"].get<std::string>(), item["text"].get<std::string>());
      set_banner(st, "", false);
    }
  }
  const bool has_url = url_fragment.size() > 1;
  if (has_url) {
    Scenario from_url = default_scenario();
    if (Status s = apply_url_fragment(from_url, url_fragment); s) {
      st.scenario = from_url;
    } else {
      set_banner(st, "The link's scenario could not be read (" + s.error().text() + "); showing the defaults instead.", true);
    }
  } else if (platform.load) {
    const std::string saved = platform.load(kStoreScenario);
    Scenario restored = default_scenario();
    if (!saved.empty() && apply_scenario_json(restored, saved)) st.scenario = restored;
  }
  st.dirty = true;
}

void App::add_bundled_profile(const std::string& name, const std::string& text) {
  State& st = impl_->st;
  Result<HardwareProfile> p = profile_from_json(text);
  if (!p) {
    set_banner(st, "bundled profile " + name + ": " + p.error().text(), true);
    return;
  }
  st.profiles.push_back({name, *p, true});
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
    st.profiles.push_back({name, *p});
    if (p->gpu_id == st.scenario.hardware.gpu.id) {
      st.active_profile = int(st.profiles.size()) - 1;
      attach_profile(st.scenario, *p);
      st.dirty = true;
    }
    set_banner(st, "Loaded profile " + name + " (" + p->source + ", " + p->gpu_id + ")", false);
    if (platform.store) {
      nlohmann::json arr = nlohmann::json::array();
      for (const LoadedProfile& lp : st.profiles)
        if (!lp.bundled) arr.push_back({{"name", lp.name}, {"text", profile_to_json(lp.profile)}});
      platform.store(kStoreProfiles, arr.dump());
    }
    return;
  }
  if (j.contains("model_type")) {
    Result<ModelSpec> m = model_from_hf_config(text);
    if (!m) {
      set_banner(st, name + ": " + m.error().text(), true);
      return;
    }
    st.scenario.model = *m;
    st.dirty = true;
    set_banner(st, "Imported " + name + " (" + m->name + ")", false);
    return;
  }
  Scenario next = st.scenario;
  if (Status s = apply_scenario_json(next, text); !s) {
    set_banner(st, name + ": " + s.error().text(), true);
    return;
  }
  st.scenario = next;
  st.dirty = true;
  set_banner(st, "Loaded scenario " + name, false);
}

void App::frame(Platform& platform) {
  State& st = impl_->st;
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

  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("llmcalc", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (!st.banner.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, st.banner_error ? ImVec4(1.0f, 0.5f, 0.5f, 1) : ImVec4(0.6f, 0.9f, 0.6f, 1));
    ImGui::TextWrapped("%s", st.banner.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::SmallButton("dismiss")) st.banner.clear();
  }
  if (st.embedded) {
    results_panel(st, platform, share);
  } else {
    ImGui::BeginChild("inputs", ImVec2(440, 0), true);
    if (ImGui::BeginTabBar("input_tabs")) {
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
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("outputs", ImVec2(0, 0), true);
    if (ImGui::BeginTabBar("output_tabs")) {
      const char* tabs[] = {"Results", "Scaling", "Layouts", "Search"};
      for (int i = 0; i < 4; ++i) {
        const bool open = ImGui::BeginTabItem(tabs[i]);
        remember_rect(st, std::string("tab:") + tabs[i]);
        if (!open) continue;
        ImGui::BeginChild("out_body");
        if (i == 0) results_panel(st, platform, share);
        if (i == 1) scaling_plot(st);
        if (i == 2) heatmap_panel(st);
        if (i == 3) search_panel(st);
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    }
    ImGui::EndChild();
  }
  ImGui::End();
  if (platform.announce) {
    const std::string summary = aria_summary(st) + search_summary();
    if (summary != st.announced) {
      st.announced = summary;
      platform.announce(summary);
    }
  }
}

}  // namespace llmc::ui
