// Training FLOPs, read from the layer plan: 2 FLOPs per multiply-add of every weight matrix a
// token passes (attention projections, MLP or top-k + shared experts and router, logits), plus
// the attention score matmuls 2·s·(d_qk + d_v)·a per token per layer, halved under a causal mask
// (Megatron-LM #831); backward = 2 × forward (Kaplan et al. 2020; Narayanan et al. 2021 eq. 3).
// Hardware FLOPs add what the recompute rules run again (layer_plan.h tags).
#include "estimate/estimate_parts.h"
#include "estimate/layer_plan.h"

namespace llmc::detail {
namespace {

// Forward FLOPs per token of the whole model's layers, and what the rules in `tags` re-run.
struct LayerFlops {
  double weights = 0, scores = 0;              // forward matmuls against weights; attention scores
  double rerun_weights = 0, rerun_scores = 0;  // of them, what the rules re-run in backward (+ their extra matmuls)
};
LayerFlops layer_flops(const Resolved& r, const ParamCounts& p, const StepPlan& plan) {
  LayerFlops f;
  const uint32_t tags = recompute_tags(r);
  auto add = [&](const Plan& layer, double layers) {
    if (layers <= 0) return;
    for (const Op& o : layer) {
      f.weights += layers * o.weight_flops;
      f.scores += layers * o.score_flops;
      if (o.tags & tags) f.rerun_weights += layers * o.weight_flops, f.rerun_scores += layers * o.score_flops;
      if (o.extra_tags & tags) f.rerun_weights += layers * o.extra_weight_flops;
    }
  };
  add(plan.dense, double(p.dense_layers));
  add(plan.moe, double(p.moe_layers));
  return f;
}

}  // namespace

FlopCounts count_flops(const Resolved& r, const ParamCounts& p, const StepPlan& plan, double tokens, Trace* t) {
  FlopCounts f;
  Trace scratch(false);
  Trace& tr = t ? *t : scratch;
  const TrainingSpec& ts = r.s.training;
  const ModelSpec& m = r.m;
  f.six_nd = tr.add("flops.six_nd", "6 × N × D", "FLOPs", "Kaplan et al. 2020 (C = 6ND)", 6 * p.active * tokens,
                    {{"N", p.active}, {"D", tokens}});
  const bool detailed = ts.flops_formula == FlopsFormula::detailed && m.has_shape();
  const bool lora = ts.finetune == Finetune::lora;
  double recompute_share = 0;  // fraction of the forward that full recompute runs again
  if (ts.recompute == Recompute::full)
    recompute_share = ts.recompute_layers > 0 && r.layers_per_stage > 0
                          ? double(ts.recompute_layers) / double(r.layers_per_stage)
                          : 1.0;
  const LayerFlops lf = m.has_shape() ? layer_flops(r, p, plan) : LayerFlops{};
  // The per-op policy's recomputed matmuls (dense layers only, resolve()), in either FLOP basis.
  const double selective_op_fwd = ts.recompute == Recompute::selective_op ? lf.rerun_weights : 0;

  if (!detailed) {
    // C = 6ND split as forward 2N, backward 4N per token (seed 001).
    f.forward_per_token = 2 * p.active;
    f.backward_per_token = (lora ? 2 : 4) * p.active;
    f.model_per_token = tr.add("flops.model_per_token", "forward 2N + backward 4N", "FLOPs", "Kaplan et al. 2020",
                               f.forward_per_token + f.backward_per_token, {{"N", p.active}});
    f.model_total =
        tr.add("flops.model_total", "6 × N × D (training.flops_formula = 6nd)", "FLOPs", "Kaplan et al. 2020 (C = 6ND)",
               f.model_per_token * tokens, {{"N", p.active}, {"D", tokens}});
    f.hardware_per_token = f.model_per_token + recompute_share * f.forward_per_token + selective_op_fwd;
  } else {
    const double linear_fwd = tr.add(
        "flops.linear_forward_per_token", "2 × matmul weights per token (all layers, top-k + shared experts)", "FLOPs",
        "2 FLOPs per multiply-add (2·M·N·K per GEMM)", lf.weights, {{"matmul_weights", lf.weights / 2}});
    const double s = attention_span(m, ts), d_qk = double(m.head_dim);
    const double d_v = m.attention == AttentionKind::mla ? double(m.v_head_dim) : double(m.head_dim);
    const double causal = ts.causal_attention_flops ? 0.5 : 1.0;
    const double attn_fwd =
        tr.add("flops.attention_forward_per_token",
               "layers × 2·s·a·(d_qk + d_v) × causal; s: training.document_tokens when documents are packed, else "
               "seq_len; in sliding-window layers 2w − w²/s, averaged over the layers",
               "FLOPs", "QKᵀ and AV; causal halves the s² work (Megatron-LM #831, torchtitan #341)", lf.scores,
               {{"layers", double(m.layers)},
                {"s", s},
                {"a", double(m.heads)},
                {"d_qk", d_qk},
                {"d_v", d_v},
                {"causal", causal}});
    const double logits_fwd = 2.0 * m.vocab * m.hidden;
    f.logits_per_token = (lora ? 2 : 3) * logits_fwd;
    f.attention_per_token = 3 * attn_fwd;
    f.forward_per_token = tr.add("flops.forward_per_token", "linear + attention + logits (2·V·h)", "FLOPs",
                                 "Narayanan et al. 2021 eq. 3 (per token)", linear_fwd + attn_fwd + logits_fwd,
                                 {{"linear", linear_fwd}, {"attention", attn_fwd}, {"logits", logits_fwd}});
    // LoRA: frozen weights need input gradients (1× forward) but no weight gradients.
    const double linear_bwd = (lora ? 1 : 2) * (linear_fwd + logits_fwd);
    f.backward_per_token =
        tr.add("flops.backward_per_token", "2 × forward (input + weight gradients; LoRA: 1× for frozen linears)",
               "FLOPs", "Kaplan et al. 2020", linear_bwd + 2 * attn_fwd,
               {{"forward", f.forward_per_token}, {"lora", lora ? 1.0 : 0.0}});
    f.model_per_token = tr.add("flops.model_per_token", "forward + backward", "FLOPs",
                               "model FLOPs (MFU basis, PaLM appendix B)", f.forward_per_token + f.backward_per_token,
                               {{"forward", f.forward_per_token}, {"backward", f.backward_per_token}});
    f.model_total =
        tr.add("flops.model_total", "model_per_token × D", "FLOPs", "per-token model FLOPs times training tokens",
               f.model_per_token * tokens, {{"model_per_token", f.model_per_token}, {"D", tokens}});
    // Full recompute re-runs the forward of the layers it covers; selective and the per-op
    // policy re-run what their tags mark (Megatron's core_attn and mla_up_proj; its norm and
    // activation modules re-run no matmul); flash attention's backward recomputes QKᵀ itself:
    // backward = 2.5 × forward (Dao 2023).
    double extra = ts.recompute == Recompute::full ? recompute_share * (linear_fwd + attn_fwd)
                                                   : lf.rerun_scores + lf.rerun_weights;
    if (ts.flash_attention) extra += 0.5 * attn_fwd;
    f.hardware_per_token = f.model_per_token + extra;
  }
  f.hardware_per_token = tr.add("flops.hardware_per_token",
                                "model_per_token + recomputed forward (+ flash attention's backward recompute)",
                                "FLOPs", "HFU basis (Korthikanti et al. 2022 §6)", f.hardware_per_token,
                                {{"model_per_token", f.model_per_token},
                                 {"recompute_share", recompute_share},
                                 {"selective_op_recomputed", selective_op_fwd}});
  f.hardware_total =
      tr.add("flops.hardware_total", "hardware_per_token × D", "FLOPs",
             "per-token hardware FLOPs (with recompute) times training tokens", f.hardware_per_token * tokens,
             {{"hardware_per_token", f.hardware_per_token}, {"D", tokens}});
  f.pflop_days = tr.add("flops.pflop_days", "model_total / (1e15 × 86400)", "PFLOP-days",
                        "1 PFLOP/s-day = 1e15 · 24 · 3600 FLOP (Brown et al. 2020, appendix D)",
                        f.model_total / 8.64e19, {{"model_total", f.model_total}});
  return f;
}

}  // namespace llmc::detail
