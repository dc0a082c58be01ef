// Parameter counts from the model shape. Sources: Megatron-LM / Narayanan et al. 2021 (eq. 2
// counts 12·l·h² + 13·l·h + (V+s)·h for GPT); Hugging Face modeling code for GQA, gated MLPs,
// MoE (Mixtral) and MLA (DeepSeek-V3). Published totals are checked in tests/test_params.cpp.
#include "estimate/estimate_parts.h"
#include "estimate/lora_targets.h"

namespace llmc::detail {
namespace {

double attention_params(const ModelSpec& m) {
  const double h = m.hidden, a = m.heads, kv = m.kv_heads, d = m.head_dim;
  if (m.attention == AttentionKind::mla) {
    const double qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
    const double q = m.q_lora_rank > 0 ? h * m.q_lora_rank + m.q_lora_rank + m.q_lora_rank * a * qk : h * a * qk;
    const double kvp = h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank +
                       m.kv_lora_rank * a * (m.qk_nope_head_dim + m.v_head_dim);
    return q + kvp + a * m.v_head_dim * h;
  }
  double p = h * a * d + 2 * h * kv * d + a * d * h;
  if (m.attn_bias) p += a * d + 2 * kv * d;
  if (m.attn_out_bias) p += h;
  return p;
}

double mlp_params(const ModelSpec& m, double ffn) {
  const double h = m.hidden;
  if (m.mlp == MlpKind::gelu) return 2 * h * ffn + (m.mlp_bias ? ffn + h : 0);
  return 3 * h * ffn + (m.mlp_bias ? 2 * ffn + h : 0);
}

double norm_params(const ModelSpec& m) { return m.norm == NormKind::layernorm ? 2.0 * m.hidden : m.hidden; }

}  // namespace

double lora_params(const ModelSpec& m, int64_t rank, LoraTargets targets) {
  // LoRA (Hu et al. 2021) adds r·(in + out) per adapted matrix; PEFT "all-linear" adapts every
  // attention and MLP projection (MoE: every expert), not the embeddings or the output layer.
  const double r = static_cast<double>(rank), h = m.hidden, a = m.heads, kv = m.kv_heads, d = m.head_dim;
  const LoraMatrices on = lora_matrices(targets);
  const double attn =
      r * ((on.q ? h + a * d : 0) + (on.k ? h + kv * d : 0) + (on.v ? h + kv * d : 0) + (on.o ? a * d + h : 0));
  if (!on.mlp) return m.layers * attn;
  const double mats = m.mlp == MlpKind::gelu ? 2 : 3;
  const double dense_mlp = mats * r * (h + m.ffn_hidden);
  const int64_t moe_layers = moe_layer_count(m);
  const double moe = m.experts * mats * r * (h + m.expert_ffn_hidden) +
                     (m.shared_expert_ffn_hidden ? mats * r * (h + m.shared_expert_ffn_hidden) : 0);
  return m.layers * attn + (m.layers - moe_layers) * dense_mlp + moe_layers * moe;
}

MlaUpProj mla_up_proj(const ModelSpec& m) {
  const double a = double(m.heads);
  return {m.q_lora_rank > 0 ? double(m.q_lora_rank) : double(m.hidden), a * double(m.head_dim), double(m.kv_lora_rank),
          a * double(m.qk_nope_head_dim + m.v_head_dim)};
}

ParamCounts count_params(const Resolved& r, Trace* t) {
  ParamCounts p;
  const ModelSpec& m = r.m;
  Trace scratch(false);
  Trace& tr = t ? *t : scratch;
  if (!m.has_shape()) {
    p.total = p.active = p.non_embedding = m.params_override;
    p.trainable = p.total;
    tr.add("params.total", "model.params (given; no shape)", "params", "user input (the seeds' N)", p.total,
           {{"model.params", p.total}});
    return p;
  }
  p.from_shape = true;
  const double h = m.hidden, V = m.vocab;
  p.attention_per_layer =
      tr.add("params.per_layer.attention", "h·a·d + 2·h·kv·d + a·d·h (+ biases); MLA: low-rank q/kv paths", "params",
             "Vaswani et al. 2017; GQA: Ainslie et al. 2023; MLA: DeepSeek-V2 (arXiv:2405.04434)", attention_params(m),
             {{"h", h}, {"a", double(m.heads)}, {"kv", double(m.kv_heads)}, {"d", double(m.head_dim)}});
  const double mats = m.mlp == MlpKind::gelu ? 2 : 3;
  p.mlp_per_dense_layer = tr.add("params.per_layer.mlp", "mats·h·f (+ biases); mats = 2 for GeLU, 3 for SwiGLU/GeGLU",
                                 "params", "Shazeer 2020 (GLU variants)", mlp_params(m, double(m.ffn_hidden)),
                                 {{"mats", mats}, {"h", h}, {"f", double(m.ffn_hidden)}});
  p.norm_per_layer = tr.add("params.per_layer.norm", "norms_per_layer × (h for RMSNorm, 2h for LayerNorm)", "params",
                            "model definition", double(m.norms_per_layer) * norm_params(m),
                            {{"norms_per_layer", double(m.norms_per_layer)}, {"h", h}});
  p.moe_layers = moe_layer_count(m);
  p.dense_layers = m.layers - p.moe_layers;
  double moe_active = 0;
  if (m.is_moe()) {
    p.expert_params = mlp_params(m, double(m.expert_ffn_hidden));
    const double shared = m.shared_expert_ffn_hidden > 0 ? mlp_params(m, double(m.shared_expert_ffn_hidden)) : 0;
    p.router_per_layer =
        tr.add("params.per_layer.router", "h × experts", "params", "Shazeer et al. 2017; Fedus et al. 2021",
               h * m.experts, {{"h", h}, {"experts", double(m.experts)}});
    p.moe_per_layer =
        tr.add("params.per_layer.moe", "experts × expert_params + shared_params + router", "params",
               "Mixtral (arXiv:2401.04088); DeepSeekMoE", m.experts * p.expert_params + shared + p.router_per_layer,
               {{"experts", double(m.experts)},
                {"expert_params", p.expert_params},
                {"shared_params", shared},
                {"router", p.router_per_layer}});
    moe_active = m.top_k * p.expert_params + shared + p.router_per_layer;
  }
  const double pos = m.position == PositionKind::learned ? double(m.max_positions) * h : 0;
  p.embedding = tr.add("params.embedding", "V·h (token) + positions·h (learned) + V·h (untied output layer)", "params",
                       "model definition", V * h + pos + (m.tied_embeddings ? 0 : V * h),
                       {{"V", V}, {"h", h}, {"positions", pos / h}, {"untied", m.tied_embeddings ? 0.0 : 1.0}});
  const double final_norm = norm_params(m);
  const double per_dense = p.attention_per_layer + p.mlp_per_dense_layer + p.norm_per_layer;
  const double per_moe = p.attention_per_layer + p.moe_per_layer + p.norm_per_layer;
  p.non_embedding = p.dense_layers * per_dense + p.moe_layers * per_moe + final_norm;
  const double derived_total = p.non_embedding + p.embedding;
  const double derived_active = derived_total - p.moe_layers * (p.moe_per_layer - moe_active);
  p.total = tr.add(
      "params.total", "dense_layers·(attn + mlp + norm) + moe_layers·(attn + moe + norm) + final_norm + embedding",
      "params", "sum of the per-layer terms", derived_total,
      {{"dense_layers", double(p.dense_layers)}, {"moe_layers", double(p.moe_layers)}, {"embedding", p.embedding}});
  p.active = tr.add("params.active", "total − moe_layers × (experts − top_k) × expert_params", "params",
                    "tokens pass through top_k routed + shared experts (Fedus et al. 2021)", derived_active,
                    {{"total", derived_total},
                     {"moe_layers", double(p.moe_layers)},
                     {"top_k", double(m.top_k)},
                     {"expert_params", p.expert_params}});
  if (m.params_override > 0) {
    // The user's N wins everywhere N is used; the shape still drives activations and FLOPs detail.
    const double scale = m.params_override / derived_total;
    p.active *= scale;
    p.total = tr.add("params.total", "model.params (given; overrides the shape's count)", "params", "user input",
                     m.params_override, {{"model.params", m.params_override}, {"shape_count", derived_total}});
  }
  p.trainable = r.s.training.finetune == Finetune::lora
                    ? lora_params(m, r.s.training.lora_rank, r.s.training.lora_targets)
                    : p.total;
  if (r.s.training.finetune == Finetune::lora)
    tr.add("params.trainable", "Σ over attention and MLP matrices of r·(in + out)", "params",
           "LoRA, Hu et al. 2021 (arXiv:2106.09685)", p.trainable, {{"r", double(r.s.training.lora_rank)}});
  return p;
}

}  // namespace llmc::detail
