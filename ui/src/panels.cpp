// Input screens: Model, Training, Parallelism, Hardware. Every editor goes through the field
// registry, so ranges and errors are core's.
#include <imgui.h>

#include <cctype>
#include <cstring>

#include "llmc/catalog.h"
#include "llmc/fields.h"
#include "state.h"

namespace llmc::ui {

namespace {

bool contains_ci(const std::string& hay, const char* needle) {
  if (!*needle) return true;
  std::string h = hay, n = needle;
  for (char& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return h.find(n) != std::string::npos;
}

void import_hf(State& st) {
  Result<ModelSpec> m = model_from_hf_config(st.hf_buffer.data());
  if (!m) {
    set_banner(st, "config.json not imported: " + m.error().text(), true);
    return;
  }
  st.scenario.model = *m;
  st.dirty = true;
  set_banner(st, "Imported " + m->name + " from config.json", false);
}

}  // namespace

void model_panel(State& st) {
  ImGui::TextUnformatted("Preset");
  ImGui::SetNextItemWidth(260);
  ImGui::InputTextWithHint("##preset_filter", "search presets", st.preset_filter, sizeof st.preset_filter);
  remember_rect(st, "Model preset filter");
  if (ImGui::BeginListBox("##presets", ImVec2(260, 150))) {
    for (const std::string& id : model_preset_ids()) {
      if (!contains_ci(id, st.preset_filter)) continue;
      if (ImGui::Selectable(id.c_str(), false)) {
        if (Status s = set_field(st.scenario, "model.preset", id); s) {
          st.dirty = true;
          st.field_errors.clear();
          st.pending.clear();
        }
      }
      remember_rect(st, "preset:" + id);
    }
    ImGui::EndListBox();
  }
  ImGui::Text("Model: %s", st.scenario.model.name.empty() ? "(size only)" : st.scenario.model.name.c_str());
  ImGui::Separator();
  field_editor(st, "model.params", "parameters N (0: from shape)");
  field_editor(st, "model.layers", "layers");
  field_editor(st, "model.hidden", "hidden");
  field_editor(st, "model.heads", "heads");
  field_editor(st, "model.kv_heads", "kv heads (0: = heads)");
  field_editor(st, "model.head_dim", "head dim (0: hidden/heads)");
  field_editor(st, "model.ffn_hidden", "ffn hidden");
  field_editor(st, "model.mlp", "MLP");
  field_editor(st, "model.vocab", "vocab");
  field_editor(st, "model.seq_len", "pre-training seq len");
  field_editor(st, "model.tied_embeddings", "tied embeddings");
  field_editor(st, "model.norm", "norm");
  field_editor(st, "model.position", "positions");
  field_editor(st, "model.attn_bias", "q/k/v bias");
  field_editor(st, "model.dropout", "dropout");
  if (ImGui::CollapsingHeader("Mixture of experts")) {
    field_editor(st, "model.experts", "experts (0: dense)");
    field_editor(st, "model.top_k", "top-k");
    field_editor(st, "model.shared_experts", "shared experts");
    field_editor(st, "model.expert_ffn_hidden", "expert ffn hidden");
    field_editor(st, "model.moe_first_dense", "leading dense layers");
    field_editor(st, "model.moe_every", "MoE every n-th layer");
  }
  if (ImGui::CollapsingHeader("Multi-head latent attention (MLA)")) {
    field_editor(st, "model.attention", "attention");
    field_editor(st, "model.q_lora_rank", "q low-rank");
    field_editor(st, "model.kv_lora_rank", "kv latent");
    field_editor(st, "model.qk_rope_head_dim", "rope head dim");
    field_editor(st, "model.qk_nope_head_dim", "nope head dim");
    field_editor(st, "model.v_head_dim", "v head dim");
  }
  if (ImGui::CollapsingHeader("Import a Hugging Face config.json")) {
    section_note("Paste the config.json here (or drop the file on the page).");
    ImGui::InputTextMultiline("##hf", st.hf_buffer.data(), st.hf_buffer.size(), ImVec2(-1, 120));
    remember_rect(st, "HF config text");
    if (ImGui::Button("Import config.json")) import_hf(st);
    remember_rect(st, "Import config.json");
  }
}

void training_panel(State& st) {
  field_editor(st, "training.tokens", "training tokens D (0: 20N)");
  field_editor(st, "training.seq_len", "sequence length");
  field_editor(st, "training.micro_batch", "micro-batch");
  field_editor(st, "training.global_batch_seqs", "global batch (sequences)");
  field_editor(st, "training.global_batch_tokens", "global batch (tokens)");
  ImGui::Separator();
  field_editor(st, "training.precision", "precision");
  field_editor(st, "training.weight_dtype", "weight dtype");
  field_editor(st, "training.grad_dtype", "gradient dtype");
  field_editor(st, "training.optimizer", "optimizer");
  field_editor(st, "training.optimizer_state_dtype", "optimizer state dtype");
  field_editor(st, "training.master_weights", "fp32 master weights");
  field_editor(st, "training.grad_fp32_accum_buffer", "extra fp32 grad buffer");
  ImGui::Separator();
  field_editor(st, "training.zero_stage", "ZeRO stage (3 = FSDP)");
  field_editor(st, "training.zero_shard_group", "hybrid shard group (0: all)");
  field_editor(st, "training.grad_reduce", "gradient reduction (auto: per micro-batch under ZeRO-2/3)");
  field_editor(st, "training.cpu_offload_optimizer", "offload optimizer to CPU");
  field_editor(st, "training.recompute", "activation recompute");
  field_editor(st, "training.recompute_modules", "selective recompute modules (empty: core_attn)");
  field_editor(st, "training.recompute_layers", "recompute layers (0: all)");
  field_editor(st, "training.flash_attention", "flash attention");
  field_editor(st, "training.unfused_attention", "attention without flash (matmul; PyTorch math SDPA, fp32)");
  field_editor(st, "training.fused_elementwise", "fused element-wise kernels");
  field_editor(st, "training.optimizer_kernel", "AdamW kernel (auto: fused with fused kernels)");
  field_editor(st, "training.fp8_params", "FP8 parameters (fp8_mixed)");
  field_editor(st, "training.sequence_parallel", "sequence parallel");
  ImGui::Separator();
  field_editor(st, "training.finetune", "fine-tuning");
  field_editor(st, "training.lora_rank", "LoRA rank");
  field_editor(st, "training.reference_model", "reference model (DPO)");
  field_editor(st, "training.flops_formula", "FLOPs basis");
  field_editor(st, "training.causal_attention_flops", "causal attention FLOPs");
}

void parallel_panel(State& st) {
  field_editor(st, "parallel.tp", "tensor parallel");
  field_editor(st, "parallel.pp", "pipeline parallel");
  field_editor(st, "parallel.dp", "data parallel (0: derive)");
  field_editor(st, "parallel.cp", "context parallel");
  field_editor(st, "parallel.ep", "expert parallel");
  field_editor(st, "parallel.etp", "expert tensor parallel (0: tp)");
  field_editor(st, "parallel.schedule", "pipeline schedule");
  field_editor(st, "parallel.virtual_stages", "virtual stages");
  field_editor(st, "parallel.dp_overlap", "overlap DP reduction");
  field_editor(st, "parallel.tp_overlap", "overlap TP comm");
  field_editor(st, "parallel.cp_overlap", "overlap CP exchange");
  field_editor(st, "parallel.ep_overlap", "overlap EP all-to-all");
}

void hardware_panel(State& st, Platform& platform) {
  const std::string gpu = st.scenario.hardware.gpu.id;
  ImGui::SetNextItemWidth(160);
  if (ImGui::BeginCombo("GPU", gpu.c_str())) {
    for (const std::string& id : gpu_ids()) {
      if (ImGui::Selectable(id.c_str(), id == gpu)) {
        if (set_field(st.scenario, "hardware.gpu", id)) {
          st.active_profile = -1;
          st.dirty = true;
        }
      }
      remember_rect(st, "gpu:" + id);
    }
    ImGui::EndCombo();
  }
  remember_rect(st, "hardware.gpu");
  const GpuSpec& g = st.scenario.hardware.gpu;
  const Dtype half_dtype = g.half_dtype();
  const char* half = half_dtype == Dtype::bf16 ? "bf16" : "fp16 (no bf16)";
  const double half_peak = g.peak_tflops(half_dtype);
  if (g.mamf_bf16_tflops > 0)
    ImGui::TextWrapped("%s: %.0f GiB, %s %.0f TFLOP/s dense, %.0f max achievable (hover for sources)", g.name.c_str(), g.memory_gib, half,
                       half_peak, g.mamf_bf16_tflops);
  else
    ImGui::TextWrapped("%s: %.0f GiB, %s %.0f TFLOP/s dense (hover for sources)", g.name.c_str(), g.memory_gib, half, half_peak);
  if (ImGui::IsItemHovered()) {  // where the figures come from, and what the datasheet profile makes of them
    const Result<GpuSources> found = gpu_sources(g.id);
    const GpuSources src = found ? *found : GpuSources{};
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    ImGui::Text("peaks: %s", src.peaks.c_str());
    ImGui::Text("memory: %s", src.memory.c_str());
    if (!g.has_mamf())
      ImGui::TextUnformatted("max achievable matmul: none published; the datasheet profile runs GEMMs at 0.75 of the dense peak");
    else
      ImGui::Text("max achievable matmul: %s. The datasheet profile runs GEMMs at 0.86 of it.", src.max_achievable_matmul.c_str());
    {  // the datasheet profile's fused-attention rates, read from core (docs/formulas.md, Kernel times)
      const std::shared_ptr<const HardwareProfile> ds = shared_datasheet_profile(g);
      const auto att = ds->attention.find(to_string(half_dtype));
      if (att != ds->attention.end() && half_peak > 0) {
        const AttentionTable& t = att->second;
        ImGui::Text("fused attention: the datasheet profile runs forward at %.2f and backward at %.2f of the %s peak in a step at head dim 128 "
                    "(the matmul part's share of peak from the FlashAttention-3 paper's H100 figures, this GPU's own exponentials, at the GEMMs' "
                    "in-step share; docs/formulas.md, Kernel times)",
                    attention_tflops(t, false, 128) / half_peak, attention_tflops(t, true, 128) / half_peak, half);
        if (t.exp_tera_per_s > 0)
          ImGui::Text("softmax exponentials: %.2f T/s in a step (%lld SMs x 16 per clock x %.0f MHz boost clock); at head dim 64 forward %.2f, "
                      "backward %.2f of peak",
                      t.exp_tera_per_s, static_cast<long long>(g.sm_count), g.boost_clock_mhz, attention_tflops(t, false, 64) / half_peak,
                      attention_tflops(t, true, 64) / half_peak);
        else
          ImGui::TextUnformatted("softmax exponentials: no SM count and clock in the catalog; attention keeps head dim 128's rates at every head dim");
      }
    }
    if (g.sm_count > 0)
      ImGui::Text("SMs: %s. Overlapped communication slows compute by hardware.nccl_sms / %lld while it runs.", src.sm_count.c_str(),
                  static_cast<long long>(g.sm_count));
    else
      ImGui::TextUnformatted("SMs: not in the catalog; overlapped communication is taken to cost compute nothing");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  field_editor(st, "hardware.gpu_count", "GPU count");
  // The same field as a logarithmic slider, for sweeping the GPU count by dragging.
  long long gpus = st.scenario.hardware.gpu_count > 0 ? st.scenario.hardware.gpu_count : 1;
  const long long lo = 1, hi = 65536;
  ImGui::SetNextItemWidth(260);
  if (ImGui::SliderScalar("GPU count (drag)", ImGuiDataType_S64, &gpus, &lo, &hi, "%lld", ImGuiSliderFlags_Logarithmic)) {
    if (set_field(st.scenario, "hardware.gpu_count", std::to_string(gpus))) st.dirty = true;
  }
  remember_rect(st, "GPU count slider");
  field_editor(st, "hardware.gpus_per_node", "GPUs per node", double(st.scenario.hardware.gpu.gpus_per_node));
  field_editor(st, "hardware.price_per_gpu_hour_usd", "price per GPU-hour (USD)", st.scenario.hardware.gpu.price_per_gpu_hour_usd);
  ImGui::Separator();
  section_note("Time basis: an end-to-end MFU or TFLOP/s fixes the step time; otherwise the profile's efficiency.");
  field_editor(st, "hardware.mfu", "MFU (0: unset)");
  field_editor(st, "hardware.achieved_tflops", "achieved TFLOP/s (0: unset)");
  field_editor(st, "hardware.compute_efficiency", "kernel efficiency (0: profile)");
  field_editor(st, "hardware.nccl_sms", "SMs held by NCCL (0: overlap is free)");
  ImGui::Separator();
  ImGui::TextUnformatted("Hardware profile");
  if (ImGui::RadioButton(("datasheet (built in) for " + gpu).c_str(), st.active_profile < 0)) {
    st.active_profile = -1;
    st.scenario.hardware.profile = shared_datasheet_profile(st.scenario.hardware.gpu);
    st.scenario.hardware.profile_loaded = false;
    st.dirty = true;
  }
  for (size_t i = 0; i < st.profiles.size(); ++i) {
    const LoadedProfile& lp = st.profiles[i];
    // "measured on <device>, <date>" or "published"/"datasheet", as the profile says.
    const std::string label = (lp.bundled ? "bundled " : "loaded ") + lp.name + ": " + lp.profile.source + " (" + lp.profile.description + ")";
    const bool usable = lp.profile.gpu_id == gpu;
    if (!usable) ImGui::BeginDisabled();
    ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x);
    const bool chosen = ImGui::RadioButton(label.c_str(), st.active_profile == int(i));
    ImGui::PopTextWrapPos();
    remember_rect(st, "profile:" + lp.name);
    if (chosen) {
      st.active_profile = int(i);
      st.scenario.hardware.profile = std::make_shared<const HardwareProfile>(lp.profile);
      st.scenario.hardware.profile_loaded = true;
      st.dirty = true;
    }
    if (!usable) {
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::TextDisabled("(for %s)", lp.profile.gpu_id.c_str());
    }
  }
  if (ImGui::Button("Load profile...") && platform.open_file_picker) platform.open_file_picker();
  remember_rect(st, "Load profile");
  if (const auto& active = st.scenario.hardware.profile)  // set with the GPU; resolve() fills it otherwise
    section_note(("In use: " + active->source + " (" + active->description + ")").c_str());
}

}  // namespace llmc::ui
