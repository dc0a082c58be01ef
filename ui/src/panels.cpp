// Input screens: Model, Training, Parallelism (Hardware: hardware_panel.cpp). Every editor goes
// through the field registry, so ranges and errors are core's.
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

struct PresetRow {
  std::string id, label;  // label: "Llama 3.1 70B · 70.6B" (the id in its tooltip)
};

const std::vector<PresetRow>& preset_rows() {
  static const std::vector<PresetRow> rows = [] {
    std::vector<PresetRow> out;
    for (const PresetInfo& p : preset_infos())
      out.push_back(
          {p.id, p.name + (p.published_total > 0 ? " \xC2\xB7 " + format_count(p.published_total) : std::string())});
    return out;
  }();
  return rows;
}

void preset_picker(State& st) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Preset");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::InputTextWithHint("##preset_filter", "search presets (e.g. llama, 70b, moe)", st.preset_filter,
                           sizeof st.preset_filter);
  remember_rect(st, "Model preset filter");
  const float rows = 7.25f;
  if (ImGui::BeginListBox("##presets", ImVec2(-1, ImGui::GetTextLineHeightWithSpacing() * rows))) {
    for (const PresetRow& p : preset_rows()) {
      if (!contains_ci(p.id + " " + p.label, st.preset_filter)) continue;
      const bool current = p.id == st.model_preset;
      // The current model's preset is marked (and highlighted) wherever the list is scrolled.
      const std::string text = std::string(current ? "\xE2\x97\x8F " : "   ") + p.label;
      if (ImGui::Selectable(text.c_str(), current)) {
        Scenario next = st.scenario;
        if (set_field(next, "model.preset", p.id)) set_scenario(st, next);
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s params (preset %s)%s", p.label.c_str(), p.id.c_str(),
                          current ? ": the current model" : "");
      if (current && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
      remember_rect(st, "preset:" + p.id);
    }
    ImGui::EndListBox();
  }
  const std::string name = st.scenario.model.name.empty() ? "(size only)" : st.scenario.model.name;
  if (!st.model_preset.empty())
    ImGui::Text("Model: %s (preset %s)", name.c_str(), st.model_preset.c_str());
  else
    ImGui::Text("Model: %s (custom: no preset has this shape)", name.c_str());
}

void hf_import(State& st) {
  if (!ImGui::CollapsingHeader("Import a Hugging Face config.json", ImGuiTreeNodeFlags_DefaultOpen)) return;
  section_note("Paste it here (Ctrl+V) or drop the file on the page; Import reads the shape.");
  ImGui::InputTextMultiline("##hf", st.hf_buffer.data(), st.hf_buffer.size(),
                            ImVec2(-1, ImGui::GetTextLineHeight() * 4.5f));
  remember_rect(st, "HF config text");
  if (ImGui::Button("Import config.json")) import_hf_text(st, st.hf_buffer.data(), "config.json");
  remember_rect(st, "Import config.json");
  ImGui::SameLine();
  if (ImGui::Button("Clear")) {
    st.hf_buffer.assign(st.hf_buffer.size(), 0);
    st.hf_error.clear();
  }
  if (!st.hf_error.empty()) error_text(st.hf_error);
}

}  // namespace

void import_hf_text(State& st, const std::string& text, const std::string& what) {
  Result<ModelSpec> m = model_from_hf_config(text);
  if (!m) {
    // Core names the key ("config.json: num_key_value_heads: must divide ..."), or says where the
    // JSON is broken ("not valid JSON: parse error at line 3, column 5: ...").
    st.hf_error = m.error().text();
    set_banner(st, what + " not imported: " + m.error().text(), true);
    return;
  }
  st.hf_error.clear();
  if (text.size() < st.hf_buffer.size()) {  // what was imported, for a look or an edit
    st.hf_buffer.assign(st.hf_buffer.size(), 0);
    std::memcpy(st.hf_buffer.data(), text.data(), text.size());
  }
  Scenario next = st.scenario;
  next.model = *m;
  set_scenario(st, next);
  set_banner(st, "Imported " + m->name + " from " + what, false);
}

void model_panel(State& st) {
  preset_picker(st);
  hf_import(st);
  heading("Shape");
  field_editor(st, "model.params", "parameters N (0: from the shape)");
  field_editor(st, "model.layers", "layers");
  field_editor(st, "model.hidden", "hidden size");
  field_editor(st, "model.heads", "attention heads");
  field_editor(st, "model.kv_heads", "key/value heads (0: = heads)");
  field_editor(st, "model.head_dim", "head dim (0: hidden / heads)");
  field_editor(st, "model.ffn_hidden", "MLP hidden size");
  field_editor(st, "model.mlp", "MLP kind");
  field_editor(st, "model.vocab", "vocabulary");
  field_editor(st, "model.seq_len", "pre-training sequence length");
  field_editor(st, "model.tied_embeddings", "tied embeddings");
  field_editor(st, "model.norm", "normalisation");
  field_editor(st, "model.position", "positions");
  field_editor(st, "model.attn_bias", "q/k/v bias");
  field_editor(st, "model.dropout", "dropout");
  field_editor(st, "model.sliding_window", "sliding window (tokens; 0: none)");
  field_editor(st, "model.full_attention_every", "global attention every n-th layer");
  if (ImGui::CollapsingHeader("Mixture of experts")) {
    field_editor(st, "model.experts", "routed experts (0: dense)");
    field_editor(st, "model.top_k", "experts per token (top-k)");
    field_editor(st, "model.shared_experts", "shared experts");
    field_editor(st, "model.expert_ffn_hidden", "expert MLP hidden size");
    field_editor(st, "model.moe_first_dense", "leading dense layers");
    field_editor(st, "model.moe_every", "MoE every n-th layer");
    field_editor(st, "model.moe_groups", "expert groups (group-limited routing)");
    field_editor(st, "model.moe_group_topk", "groups per token");
  }
  if (ImGui::CollapsingHeader("Multi-head latent attention (MLA)")) {
    field_editor(st, "model.attention", "attention");
    field_editor(st, "model.q_lora_rank", "query low rank");
    field_editor(st, "model.kv_lora_rank", "key/value latent");
    field_editor(st, "model.qk_rope_head_dim", "rotary head dim");
    field_editor(st, "model.qk_nope_head_dim", "non-rotary head dim");
    field_editor(st, "model.v_head_dim", "value head dim");
  }
}

void training_panel(State& st) {
  heading("Data and batch");
  field_editor(st, "training.tokens", "training tokens D (0: 20 N)");
  field_editor(st, "training.seq_len", "sequence length (0: the model's)");
  field_editor(st, "training.micro_batch", "micro-batch (sequences)");
  field_editor(st, "training.global_batch_seqs", "global batch (sequences)");
  field_editor(st, "training.global_batch_tokens", "global batch (tokens)");
  heading("Precision and optimizer");
  field_editor(st, "training.precision", "precision recipe");
  field_editor(st, "training.weight_dtype", "weight dtype");
  field_editor(st, "training.grad_dtype", "gradient dtype");
  field_editor(st, "training.optimizer", "optimizer");
  field_editor(st, "training.optimizer_state_dtype", "optimizer state dtype");
  field_editor(st, "training.master_weights", "fp32 master weights");
  field_editor(st, "training.grad_fp32_accum_buffer", "extra fp32 gradient buffer");
  field_editor(st, "training.optimizer_kernel", "AdamW kernel");
  heading("Sharding and memory");
  field_editor(st, "training.zero_stage", "ZeRO stage (3 = FSDP)");
  field_editor(st, "training.zero_shard_group", "hybrid shard group (0: all)");
  field_editor(st, "training.grad_reduce", "gradient reduction");
  field_editor(st, "training.reshard_after_forward", "ZeRO-3: reshard after forward");
  field_editor(st, "training.fsdp_impl", "ZeRO-3 implementation (flat, fsdp2)");
  field_editor(st, "training.cpu_offload_optimizer", "optimizer in CPU memory");
  field_editor(st, "training.optimizer_in_backward", "optimizer step in backward (frees each gradient)");
  field_editor(st, "training.activation_offload", "activations offloaded to CPU memory");
  field_editor(st, "training.recompute", "activation recompute");
  field_editor(st, "training.recompute_modules", "selective recompute modules (empty: core_attn)");
  field_editor(st, "training.recompute_layers", "recomputed layers (0: all)");
  field_editor(st, "training.sequence_parallel", "sequence parallel");
  field_editor(st, "training.loss_parallel", "loss parallel (vocabulary split over tp)");
  heading("Kernels");
  field_editor(st, "training.attention_backend", "attention kernel (auto: the framework's)");
  field_editor(st, "training.flash_attention", "flash attention");
  field_editor(st, "training.unfused_attention", "attention without flash");
  field_editor(st, "training.fused_elementwise", "fused element-wise kernels");
  field_editor(st, "training.fused_loss", "fused loss (auto: as the blocks)");
  field_editor(st, "training.kernel_launch", "kernels issued by");
  field_editor(st, "training.document_tokens", "packed documents' mean length (0: one per sequence)");
  field_editor(st, "training.loss_chunks", "loss chunks (fp32 work per chunk of logits)");
  field_editor(st, "training.fp8_params", "FP8 parameters (fp8_mixed)");
  field_editor(st, "training.fp8_recipe", "FP8 scaling (fp8_mixed): per tensor or per row");
  heading("Fine-tuning and FLOPs");
  field_editor(st, "training.finetune", "fine-tuning");
  field_editor(st, "training.lora_rank", "LoRA rank");
  field_editor(st, "training.lora_targets", "LoRA target matrices");
  field_editor(st, "training.base_weight_dtype", "LoRA base weight dtype (QLoRA: fp4)");
  field_editor(st, "training.reference_model", "reference model (DPO)");
  field_editor(st, "training.flops_formula", "FLOPs basis");
  field_editor(st, "training.causal_attention_flops", "causal attention FLOPs");
}

void parallel_panel(State& st) {
  section_note(
      "\xE2\x88\x92 and + halve and double. dp 0 takes the GPUs left over (GPU count / (tp \xC2\xB7 pp \xC2\xB7 cp)).");
  field_editor(st, "parallel.tp", "tensor parallel (tp)");
  field_editor(st, "parallel.pp", "pipeline parallel (pp)");
  field_editor(st, "parallel.dp", "data parallel (dp; 0: derive)");
  field_editor(st, "parallel.cp", "context parallel (cp)");
  field_editor(st, "parallel.cp_method", "context parallel method");
  field_editor(st, "parallel.ep", "expert parallel (ep)");
  field_editor(st, "parallel.etp", "expert tensor parallel (0: tp)");
  field_editor(st, "parallel.ep_dispatcher", "EP dispatcher (alltoall, deepep)");
  field_editor(st, "training.moe_capacity_factor", "MoE capacity factor (busiest expert rank)");
  field_editor(st, "training.moe_routing", "MoE routing (where copies go)");
  field_editor(st, "parallel.schedule", "pipeline schedule");
  field_editor(st, "parallel.virtual_stages", "virtual stages (interleaved)");
  heading("Overlap");
  field_editor(st, "parallel.dp_overlap", "overlap DP reduction");
  field_editor(st, "parallel.param_gather_overlap", "overlap ZeRO-1/2 parameter gather");
  field_editor(st, "parallel.param_gather", "ZeRO-1/2 parameter gather: one all-gather, or a broadcast per rank");
  field_editor(st, "parallel.tp_overlap", "overlap TP communication");
  field_editor(st, "parallel.tp_overlap_method", "TP overlap method");
  field_editor(st, "parallel.cp_overlap", "overlap CP exchange");
  field_editor(st, "parallel.pp_overlap", "overlap PP sends (interleaved)");
  field_editor(st, "parallel.ep_overlap", "overlap EP all-to-all");
  field_editor(st, "training.sequence_parallel", "sequence parallel (with tp)");
  field_editor(st, "training.activation_layout", "activation layout (sbh Megatron, bsh DTensor)");
}

}  // namespace llmc::ui
