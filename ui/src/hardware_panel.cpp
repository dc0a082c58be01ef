// Hardware screen: the GPU (with names and memory), counts and price, the time basis, and the
// hardware profiles that time the step. Profiles are listed by origin (built-in datasheet,
// bundled with the site, loaded by the user); each origin is a group, so another source of
// profiles (a registry) adds a group here without touching the rest.
#include <imgui.h>

#include <algorithm>

#include "llmc/catalog.h"
#include "llmc/fields.h"
#include "llmc/profile.h"
#include "state.h"

namespace llmc::ui {

namespace {

std::string gpu_label(const GpuSpec& g) {
  return g.name + "  \xC2\xB7 " + format_bytes(g.memory_gib * 1073741824.0) + ", " + to_string(g.half_dtype()) + " " +
         format_flop_rate(g.peak_tflops(g.half_dtype()) * 1e12) + " dense";
}

void select_gpu(State& st, const std::string& id) {
  Scenario next = st.scenario;
  if (!set_field(next, "hardware.gpu", id)) return;
  st.scenario = next;
  st.active_profile = -1;
  st.dirty = true;
}

void gpu_picker(State& st) {
  const GpuSpec& g = st.scenario.hardware.gpu;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("GPU");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  const std::string preview = g.name + "  \xC2\xB7 " + format_bytes(g.memory_gib * 1073741824.0, st.memory_units);
  // The list as wide as its longest entry (a combo's list is otherwise as narrow as its box).
  static float widest = 0;
  if (widest == 0)
    for (const std::string& id : gpu_ids())
      if (Result<GpuSpec> spec = find_gpu(id))
        widest = std::max(widest, ImGui::CalcTextSize(gpu_label(*spec).c_str()).x);
  ImGui::SetNextWindowSizeConstraints(
      ImVec2(widest + ImGui::GetStyle().WindowPadding.x * 2 + ImGui::GetStyle().ScrollbarSize, 0),
      ImVec2(ImGui::GetMainViewport()->WorkSize.x, ImGui::GetMainViewport()->WorkSize.y * 0.8f));
  if (ImGui::BeginCombo("##gpu", preview.c_str(), ImGuiComboFlags_HeightLargest)) {
    for (const std::string& id : gpu_ids()) {
      Result<GpuSpec> spec = find_gpu(id);
      if (!spec) continue;
      if (ImGui::Selectable(gpu_label(*spec).c_str(), id == g.id)) select_gpu(st, id);
      remember_rect(st, "gpu:" + id);
    }
    ImGui::EndCombo();
  }
  remember_rect(st, "hardware.gpu");
}

void gpu_sources_tooltip(const GpuSpec& g) {
  const Dtype half_dtype = g.half_dtype();
  const char* half = to_string(half_dtype);
  const double half_peak = g.peak_tflops(half_dtype);
  const Result<GpuSources> found = gpu_sources(g.id);
  const GpuSources src = found ? *found : GpuSources{};
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
  ImGui::Text("peaks: %s", src.peaks.c_str());
  ImGui::Text("memory: %s", src.memory.c_str());
  // The datasheet profile's rates, read from core (docs/formulas.md, Kernel times).
  const std::shared_ptr<const HardwareProfile> ds = shared_datasheet_profile(g);
  const auto gemm = ds->gemm.find(half);
  const double gemm_tflops = gemm != ds->gemm.end() ? gemm->second.fit.peak : 0.0;
  const double mamf = g.mamf_tflops(half_dtype);
  if (mamf <= 0)
    ImGui::Text(
        "max achievable matmul: none published; the datasheet profile runs GEMMs at %.2f of the dense peak in a step",
        half_peak > 0 ? gemm_tflops / half_peak : 0.0);
  else
    ImGui::Text("max achievable matmul: %s. The datasheet profile runs GEMMs at %.2f of it in a step.",
                src.max_achievable_matmul.c_str(), gemm_tflops / mamf);
  {
    const auto att = ds->attention.find(to_string(half_dtype));
    if (att != ds->attention.end() && half_peak > 0) {
      const AttentionTable& t = att->second;
      ImGui::Text(
          "fused attention: the datasheet profile runs forward at %.2f and backward at %.2f of the %s peak in a step "
          "at head dim 128 "
          "(the matmul part's share of peak from the FlashAttention-3 paper's H100 figures, this GPU's own "
          "exponentials, at the GEMMs' "
          "in-step share; docs/formulas.md, Kernel times)",
          attention_tflops(t, false, 128) / half_peak, attention_tflops(t, true, 128) / half_peak, half);
      if (t.exp_tera_per_s > 0)
        ImGui::Text(
            "softmax exponentials: %.2f T/s in a step (%lld SMs \xC3\x97 16 per clock \xC3\x97 %.0f MHz boost clock); "
            "at head dim 64 forward "
            "%.2f, backward %.2f of peak",
            t.exp_tera_per_s, static_cast<long long>(g.sm_count), g.boost_clock_mhz,
            attention_tflops(t, false, 64) / half_peak, attention_tflops(t, true, 64) / half_peak);
      else
        ImGui::TextUnformatted(
            "softmax exponentials: no SM count and clock in the catalog; attention keeps head dim 128's rates at every "
            "head dim");
    }
  }
  if (g.sm_count > 0)
    ImGui::Text("SMs: %s. Overlapped communication slows compute by hardware.nccl_sms / %lld while it runs.",
                src.sm_count.c_str(), static_cast<long long>(g.sm_count));
  else
    ImGui::TextUnformatted("SMs: not in the catalog; overlapped communication is taken to cost compute nothing");
  if (g.host_link_gbps > 0)
    ImGui::Text("host link: %s. Activation offloading copies at %.0f GB/s each way (unless a profile measured it).",
                src.host_link.c_str(), host_copy_rates(g, nullptr).d2h_gbps);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void gpu_summary(State& st) {
  const GpuSpec& g = st.scenario.hardware.gpu;
  const Dtype half_dtype = g.half_dtype();
  std::string line = g.name + ": " + format_bytes(g.memory_gib * 1073741824.0, st.memory_units) + ", " +
                     (half_dtype == Dtype::bf16 ? "bf16 " : "fp16 (no bf16) ") +
                     format_flop_rate(g.peak_tflops(half_dtype) * 1e12) + " dense";
  if (g.mamf_bf16_tflops > 0) line += ", " + format_flop_rate(g.mamf_bf16_tflops * 1e12) + " max achievable";
  line += " (hover for sources)";
  section_note(line.c_str());
  if (ImGui::IsItemHovered()) gpu_sources_tooltip(g);
}

}  // namespace

void use_profile(State& st, int i) {
  const LoadedProfile& lp = st.profiles[size_t(i)];
  if (lp.profile.gpu_id != st.scenario.hardware.gpu.id) select_gpu(st, lp.profile.gpu_id);
  st.active_profile = i;
  st.scenario.hardware.profile = std::make_shared<const HardwareProfile>(lp.profile);
  st.scenario.hardware.profile_loaded = true;
  st.dirty = true;
}

namespace {

// One profile choice: a radio button and its label wrapped beside it (a RadioButton's own label
// would be cut at the panel's edge). A profile of another GPU is marked so, with a button that
// switches the GPU and uses it.
void profile_row(State& st, int i) {
  const LoadedProfile& lp = st.profiles[size_t(i)];
  const std::string gpu = st.scenario.hardware.gpu.id;
  const bool usable = lp.profile.gpu_id == gpu;
  ImGui::PushID(i);
  if (!usable) ImGui::BeginDisabled();
  const bool chosen = ImGui::RadioButton("##use", st.active_profile == i);
  remember_rect(st, "profile:" + lp.name);
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0);
  ImGui::TextWrapped("%s (%s): %s", lp.name.c_str(), lp.profile.source.c_str(), lp.profile.description.c_str());
  ImGui::PopTextWrapPos();
  if (!usable) ImGui::EndDisabled();
  if (chosen && usable) use_profile(st, i);
  if (!usable) {
    // The button first: a wrapped sentence before it would push it past the panel's edge.
    ImGui::Indent(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
    if (ImGui::SmallButton(("use with " + lp.profile.gpu_id).c_str())) use_profile(st, i);
    remember_rect(st, "profile-switch:" + lp.name);
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.4f, 1.0f));
    ImGui::TextWrapped("for %s, not this scenario's %s: not in use", lp.profile.gpu_id.c_str(), gpu.c_str());
    ImGui::PopStyleColor();
    ImGui::Unindent(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
  }
  ImGui::PopID();
}

void profiles_section(State& st, Platform& platform) {
  heading("Hardware profile (times the step)");
  if (ImGui::Button("Load profile...") && platform.open_file_picker) platform.open_file_picker();
  remember_rect(st, "Load profile");
  ImGui::SameLine();
  ImGui::TextDisabled("or drop a profile JSON on the page");
  if (const auto& active = st.scenario.hardware.profile)  // set with the GPU; resolve() fills it otherwise
    section_note(("In use: " + active->source + " (" + active->description + ")").c_str());
  const std::string gpu = st.scenario.hardware.gpu.id;
  if (ImGui::RadioButton("##datasheet", st.active_profile < 0)) {
    st.active_profile = -1;
    st.scenario.hardware.profile = shared_datasheet_profile(st.scenario.hardware.gpu);
    st.scenario.hardware.profile_loaded = false;
    st.dirty = true;
  }
  remember_rect(st, "profile:datasheet");
  ImGui::SameLine();
  ImGui::TextWrapped("datasheet (built in) for %s", gpu.c_str());
  const struct {
    LoadedProfile::Origin origin;
    const char* title;
  } groups[] = {{LoadedProfile::Origin::loaded, "Loaded by you"},
                {LoadedProfile::Origin::registry, "Loaded from the registry"},
                {LoadedProfile::Origin::bundled, "Bundled with this site"}};
  for (const auto& group : groups) {
    bool any = false;
    for (size_t i = 0; i < st.profiles.size(); ++i) {
      if (st.profiles[i].origin != group.origin) continue;
      if (!any) ImGui::TextDisabled("%s", group.title);
      any = true;
      profile_row(st, int(i));
    }
  }
  registry_group(st, platform);
  profile_compare(st);
}

}  // namespace

void hardware_panel(State& st, Platform& platform) {
  gpu_picker(st);
  gpu_summary(st);
  heading("Cluster");
  field_editor(st, "hardware.gpu_count", "GPU count");
  // The same field as a logarithmic slider, for sweeping the GPU count by dragging.
  long long gpus = st.scenario.hardware.gpu_count > 0 ? st.scenario.hardware.gpu_count : 1;
  const long long lo = 1, hi = 65536;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderScalar("##gpu_slider", ImGuiDataType_S64, &gpus, &lo, &hi, "%lld GPUs (drag)",
                          ImGuiSliderFlags_Logarithmic)) {
    if (set_field(st.scenario, "hardware.gpu_count", std::to_string(gpus))) {
      st.field_errors.erase("hardware.gpu_count");
      st.pending_text.erase("hardware.gpu_count");
      st.dirty = true;
    }
  }
  remember_rect(st, "GPU count slider");
  field_editor(st, "hardware.gpus_per_node", "GPUs per node", double(st.scenario.hardware.gpu.gpus_per_node));
  field_editor(st, "hardware.price_per_gpu_hour_usd", "price per GPU-hour (USD)",
               st.scenario.hardware.gpu.price_per_gpu_hour_usd);
  heading("GPU variant");
  section_note("Another memory size or HBM bandwidth of this chip, or a lowered power limit (datasheet profile only).");
  field_editor(st, "hardware.memory_gib", "memory (GiB)", st.scenario.hardware.gpu.memory_gib);
  field_editor(st, "hardware.hbm_tbps", "HBM bandwidth (TB/s)", st.scenario.hardware.gpu.hbm_bandwidth_gbps / 1000);
  field_editor(st, "hardware.power_limit_w", "power limit (W)", st.scenario.hardware.gpu.tdp_w);
  heading("Time basis");
  section_note("An end-to-end MFU or TFLOP/s fixes the step time; otherwise the profile's kernel efficiencies do.");
  field_editor(st, "hardware.mfu", "MFU (0: unset; 45% works)");
  field_editor(st, "hardware.achieved_tflops", "achieved TFLOP/s (0: unset)");
  field_editor(st, "hardware.compute_efficiency", "kernel efficiency (0: profile)");
  field_editor(st, "hardware.nccl_sms", "SMs held by NCCL (0: free overlap)");
  profiles_section(st, platform);
}

}  // namespace llmc::ui
