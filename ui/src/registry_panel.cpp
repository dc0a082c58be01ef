// Registry profiles (Hardware tab): the profiles a registry holds for the scenario's GPU, one click
// to load one (core's profile loader, as a file the user loads), and the profile part of share
// links (&p=, &r=, &pl=). The registry is found at B = "api/v1" relative to the page (the same
// origin under `llmcalc serve`), or B = ?registry=URL, or a link's &r=; it reads B/index.json and
// B/profiles/<id>.json only, so a static export (`llmcalc serve export`) works as well.
// docs/web.md, "Registry profiles"; docs/registry.md, "The page".
#include <imgui.h>

#include <algorithm>

#include "llmc/profile.h"
#include "llmc/registry_list.h"
#include "state.h"

namespace llmc::ui {

namespace {

constexpr const char* kListTag = "registry:list";
constexpr const char* kProfileTag = "registry:profile:";  // + id

std::string short_id(const std::string& id) { return id.substr(0, 12); }

// Where the base came from, for messages.
std::string registry_name(const RegistryState& r) {
  return r.custom ? r.base : "this site's registry (" + r.base + ")";
}

void request_list(State& st, Platform& platform) {
  if (!platform.fetch_text) return;
  st.registry.list = RegistryState::List::loading;
  st.registry.list_note.clear();
  platform.fetch_text(registry_url(st.registry.base, "index.json"), kListTag);
}

void request_profile(State& st, Platform& platform, const std::string& id) {
  if (!platform.fetch_text || st.registry.loading.count(id)) return;
  st.registry.loading.insert(id);
  platform.fetch_text(registry_url(st.registry.base, "profiles/" + id + ".json"), kProfileTag + id);
}

int loaded_index(const State& st, const std::string& id) {
  for (size_t i = 0; i < st.profiles.size(); ++i)
    if (st.profiles[i].origin == LoadedProfile::Origin::registry && st.profiles[i].registry_id == id) return int(i);
  return -1;
}

const RegistryEntry* entry_of(const State& st, const std::string& id) {
  for (const RegistryEntry& e : st.registry.entries)
    if (e.id == id) return &e;
  return nullptr;
}

// A registry profile arrived: core's loader checks it as it checks a user's file; then it is
// listed (Loaded from the registry) and used when it fits the scenario's GPU.
void profile_arrived(State& st, const std::string& id, int status, const std::string& text, const std::string& sha256) {
  st.registry.loading.erase(id);
  const bool from_link = id == st.registry.link_id;
  if (from_link) st.registry.link_id.clear();
  const std::string what = "registry profile " + short_id(id) + " (" + registry_name(st.registry) + ")";
  const std::string fallback = from_link ? "; the link's scenario is shown with the datasheet profile instead" : "";
  if (status != 200) {
    const std::string why = status == 0     ? "the registry could not be reached: " + text
                            : status == 404 ? "HTTP 404: the registry does not have it"
                            : status == 410 ? "HTTP 410: it was deleted from the registry"
                                            : "HTTP " + std::to_string(status);
    set_banner(st, what + ": " + why + fallback + ".", true);
    st.dirty = true;  // the link no longer names it
    return;
  }
  // The id is the SHA-256 of the profile's bytes (docs/registry.md): a registry cannot serve other
  // numbers under it. Checked where the platform can hash (web: secure contexts).
  if (!sha256.empty() && sha256 != id) {
    set_banner(st,
               what + ": the bytes served do not hash to the id (SHA-256 " + sha256.substr(0, 12) + "...): refused" +
                   fallback + ".",
               true);
    st.dirty = true;
    return;
  }
  Result<HardwareProfile> p = profile_from_json(text);
  if (!p) {
    set_banner(st, what + ": " + p.error().text() + fallback + ".", true);
    st.dirty = true;
    return;
  }
  int at = loaded_index(st, id);
  if (at < 0) {
    const RegistryEntry* e = entry_of(st, id);
    std::string name = "registry/" + short_id(id);
    if (e && !e->label.empty()) name += " " + e->label;
    st.profiles.push_back({name, *p, LoadedProfile::Origin::registry, id,
                           st.registry.custom ? st.registry.base : std::string(), !sha256.empty()});
    at = int(st.profiles.size()) - 1;
  }
  if (p->gpu_id == st.scenario.hardware.gpu.id) {
    use_profile(st, at);
    set_banner(
        st,
        "Loaded " + what + ": " + p->source + ", " + p->gpu_id + ", in use" +
            (sha256.empty() ? " (SHA-256 not checked: this page is not in a secure context)." : " (SHA-256 checked)."),
        false);
  } else {
    set_banner(st,
               "Loaded " + what + " is for " + p->gpu_id + ", not this scenario's " + st.scenario.hardware.gpu.id +
                   ": not in use. Choose it in the Hardware tab to switch to " + p->gpu_id + ".",
               true);
    st.dirty = true;
  }
}

// "808.3 TFLOP/s" with a tooltip naming where the figure comes from.
void list_figure(const char* label, const std::optional<double>& v, const std::string& shown,
                 const std::string& source) {
  const std::string text = std::string(label) + " " + (v ? shown : std::string("\xE2\x80\x94"));
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(text.c_str()).x)
    ImGui::NewLine();  // wrap, never cut at the edge
  ImGui::TextDisabled("%s", text.c_str());
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(v ? source.c_str()
                             : (source + "\nThe list says null: not in this profile (not measured).").c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void entry_row(State& st, Platform& platform, const RegistryEntry& e) {
  ImGui::PushID(e.id.c_str());
  const int loaded = loaded_index(st, e.id);
  const bool busy = st.registry.loading.count(e.id) > 0;
  const bool in_use = loaded >= 0 && st.active_profile == loaded;
  if (busy || in_use) ImGui::BeginDisabled();
  if (ImGui::SmallButton(busy ? "loading..." : in_use ? "in use" : loaded >= 0 ? "use" : "load")) {
    if (loaded >= 0)
      use_profile(st, loaded);
    else
      request_profile(st, platform, e.id);
  }
  if (busy || in_use) ImGui::EndDisabled();
  remember_rect(st, "registry:load:" + short_id(e.id));
  ImGui::SameLine();
  ImGui::TextWrapped("%s  %s  (%s)  %s by %s", short_id(e.id).c_str(), e.label.empty() ? "(no label)" : e.label.c_str(),
                     e.source.c_str(), e.uploaded_at.c_str(), e.uploader.c_str());
  remember_rect(st, "registry:entry:" + short_id(e.id));
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
    ImGui::Text("id %s (SHA-256 of the stored profile)", e.id.c_str());
    ImGui::Text("%s", e.description.c_str());
    if (!e.device.empty()) ImGui::Text("device: %s", e.device.c_str());
    if (!e.measured_at.empty()) ImGui::Text("measured at: %s", e.measured_at.c_str());
    ImGui::Text("uploaded at %s by %s (the registry's record; uploader = the upload token's name)",
                e.uploaded_at.c_str(), e.uploader.c_str());
    if (!e.notes.empty()) ImGui::Text("notes: %s", e.notes.c_str());
    ImGui::Text("%s bytes, from %s", std::to_string(e.bytes).c_str(), registry_url(st.registry.base, e.path).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::Indent(ImGui::GetFrameHeight());
  ImGui::TextDisabled("max");
  const std::string src =
      "from the registry's list (" + registry_name(st.registry) + "), which reads it from the profile: ";
  list_figure("bf16", e.gemm_bf16_max_tflops, format_flop_rate(e.gemm_bf16_max_tflops.value_or(0) * 1e12),
              src + "gemm.bf16.max_tflops, the fastest bf16 GEMM the bench measured");
  list_figure("fp8", e.gemm_fp8_max_tflops, format_flop_rate(e.gemm_fp8_max_tflops.value_or(0) * 1e12),
              src + "gemm.fp8.max_tflops, the fastest fp8 GEMM the bench measured");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f TB/s", e.hbm_copy_tbps.value_or(0));
  list_figure("HBM", e.hbm_copy_tbps, buf,
              src + "memory_bound.hbm_copy.fit.peak_gbps / 1000, the fitted peak of a device-to-device copy");
  std::snprintf(buf, sizeof buf, "%.0f GB/s%s", e.all_reduce_busbw_gbps.value_or(0),
                e.all_reduce_group ? (" (" + std::to_string(*e.all_reduce_group) + " GPUs)").c_str() : "");
  list_figure("all-reduce", e.all_reduce_busbw_gbps, buf,
              src +
                  "the fitted bus bandwidth of the measured all-reduce in collectives.measured[] (inside a node if "
                  "measured there, "
                  "the largest group)");
  ImGui::Unindent(ImGui::GetFrameHeight());
  ImGui::PopID();
}

}  // namespace

void registry_group(State& st, Platform& platform) {
  if (!platform.fetch_text) return;  // no way to reach a registry (desktop: Registry menu)
  RegistryState& r = st.registry;
  if (r.list == RegistryState::List::idle) request_list(st, platform);
  const std::string gpu = st.scenario.hardware.gpu.id;
  ImGui::TextDisabled("Registry profiles for %s", gpu.c_str());
  remember_rect(st, "registry:heading");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("From %s/index.json%s", r.base.c_str(),
                      r.custom ? "" : " (add ?registry=URL to the page's address for another)");
  ImGui::SameLine();
  if (r.list == RegistryState::List::loading) ImGui::BeginDisabled();
  if (ImGui::SmallButton("refresh")) request_list(st, platform);
  if (r.list == RegistryState::List::loading) ImGui::EndDisabled();
  remember_rect(st, "registry:refresh");
  switch (r.list) {
    case RegistryState::List::idle:
    case RegistryState::List::loading:
      ImGui::TextDisabled("reading %s...", registry_url(r.base, "index.json").c_str());
      break;
    case RegistryState::List::none:
      // Quiet: a page served statically has no registry, which is not an error.
      ImGui::TextDisabled("no registry");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.list_note.c_str());
      break;
    case RegistryState::List::ready: {
      const std::vector<RegistryEntry> mine = registry_entries_for_gpu(r.entries, gpu);
      if (mine.empty())
        ImGui::TextDisabled("none for %s (%zu in the registry for other GPUs)", gpu.c_str(), r.entries.size());
      for (const RegistryEntry& e : mine) entry_row(st, platform, e);
      break;
    }
  }
  remember_rect(st, "registry:status");
}

void registry_start(State& st, Platform& platform, const LinkProfile& link) {
  RegistryState& r = st.registry;
  const std::string asked = platform.query_param ? platform.query_param("registry") : std::string();
  if (!link.registry.empty()) {
    r.base = link.registry;  // checked by the link's parser
    r.custom = true;
  } else if (!asked.empty()) {
    Result<std::string> base = check_registry_base(asked);
    if (base) {
      r.base = *base;
      r.custom = true;
    } else {
      set_banner(
          st, "?registry= in the page's address: " + base.error().message + "; reading this site's registry instead.",
          true);
    }
  }
  if (!link.registry_id.empty()) {
    if (!platform.fetch_text) {
      set_banner(st,
                 "The link's author used registry profile " + short_id(link.registry_id) +
                     ", which this app cannot fetch; showing the datasheet profile.",
                 true);
    } else {
      r.link_id = link.registry_id;
      request_profile(st, platform, link.registry_id);
    }
  }
  if (!link.local_name.empty()) {
    // The sender's own file: usable only where it was loaded before (this browser's storage).
    for (size_t i = 0; i < st.profiles.size(); ++i)
      if (st.profiles[i].origin == LoadedProfile::Origin::loaded && st.profiles[i].name == link.local_name &&
          st.profiles[i].profile.gpu_id == st.scenario.hardware.gpu.id) {
        use_profile(st, int(i));
        set_banner(st, "The link's profile " + link.local_name + " was loaded in this browser before: in use.", false);
        return;
      }
    r.link_local = link.local_name;
    set_banner(st,
               "The link's author used the profile file " + link.local_name +
                   ", which is not available here (it was loaded from their computer, not a registry): the step time "
                   "below uses "
                   "the datasheet profile, and may differ from theirs. Load that file to see their numbers.",
               true);
  }
}

void registry_fetched(State& st, Platform&, const std::string& tag, int status, const std::string& text,
                      const std::string& sha256) {
  RegistryState& r = st.registry;
  if (tag == kListTag) {
    r.entries.clear();
    if (status != 200) {
      r.list = RegistryState::List::none;
      r.list_note = registry_url(r.base, "index.json") + ": " +
                    (status == 0 ? "no answer (" + text + ")" : "HTTP " + std::to_string(status));
      const bool api = r.base.size() >= 7 && r.base.compare(r.base.size() - 7, 7, "/api/v1") == 0;
      if (r.custom && status == 404 && !api)
        r.list_note += ". A server run by `llmcalc serve` has its registry at <server>/api/v1";
      return;
    }
    Result<std::vector<RegistryEntry>> l = parse_registry_list(text);
    if (!l) {
      // A static host may answer any path with its index.html: that, too, is no registry.
      r.list = RegistryState::List::none;
      r.list_note = registry_url(r.base, "index.json") + ": not a registry list (" + l.error().text() + ")";
      return;
    }
    r.entries = std::move(l).value();
    r.list = RegistryState::List::ready;
    return;
  }
  if (tag.rfind(kProfileTag, 0) == 0)
    profile_arrived(st, tag.substr(std::string(kProfileTag).size()), status, text, sha256);
}

LinkProfile link_profile(const State& st) {
  LinkProfile out;
  if (!st.registry.link_id.empty()) {  // still arriving: the link keeps naming it
    out.registry_id = st.registry.link_id;
    if (st.registry.custom) out.registry = st.registry.base;
    return out;
  }
  if (st.active_profile < 0 || size_t(st.active_profile) >= st.profiles.size()) return out;
  const LoadedProfile& lp = st.profiles[size_t(st.active_profile)];
  if (lp.origin == LoadedProfile::Origin::registry) {
    out.registry_id = lp.registry_id;
    out.registry = lp.registry;
  } else if (lp.origin == LoadedProfile::Origin::loaded) {
    out.local_name = lp.name;
  }
  return out;
}

}  // namespace llmc::ui
