// The layer plan: each op of a step declared once (layer_plan.h); the attention block's ops are in
// plan_attention.cpp, a linear layer's kernels in plan_linear.cpp, the builder and context they
// all use in plan_ops.h. Shapes per GPU:
//   T  = micro_batch · seq_len / cp tokens; Tn = T / tp for norms, residuals and dropout under
//        sequence parallelism (else T, replicated on every tp rank);
//   linear layers C[m×n] = A[m×k]·B[k×n] with the sharded dimension divided by tp; backward is
//   dX (m=T, n=k, k=n) and dW (m=k, n=n, k=T);
//   attention per rank: mb sequences, s/cp queries against s keys, heads/tp heads, causal.
// Memory-bound kernels are counted in bytes read + written, e the activation element size.
// Saved bytes follow Korthikanti et al. 2022 (Table 2) term by term, generalised to GQA, gated
// MLPs, MoE, flash attention, FP8 and PyTorch eager (docs/formulas.md, "Activations").
#include "estimate/layer_plan.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "estimate/estimate_parts.h"
#include "estimate/lora_targets.h"
#include "estimate/placement.h"
#include "estimate/plan_ops.h"
#include "estimate/precision.h"

namespace llmc::detail {
namespace plan_ops {

Ctx make_ctx(const Resolved& r, const PlanShape& shape) {
  const TrainingSpec& ts = r.s.training;
  const double tp = double(r.s.parallel.tp);
  const double e = activation_bytes(r);
  const auto [amp_fwd, amp_bwd] = amp_cast_bytes(r, shape.zero3_shard);
  const double T = double(shape.micro_batch) * double(ts.seq_len) / double(r.s.parallel.cp);
  const Dtype attn = r.compute_dtype == Dtype::fp8 ? Dtype::bf16 : r.compute_dtype;
  const bool lora = ts.finetune == Finetune::lora;
  const double base = bytes_of(r.base_weight_dtype), compute = bytes_of(r.compute_dtype);
  const CopyOuts copy_outs = fsdp2_copy_outs(r);
  // bsh sequence parallelism: a copy per all-gather and per reduce-scatter; async TP fuses the
  // forward's pairs and the backward's all-gathers into their matmuls (no copy), not the
  // backward's reduce-scatters, whose input is a sum of matmuls (tp_chunks, plan_linear.cpp); with
  // rowwise FP8 no all-gather (async_tp_leaves_all_gathers): those keep their copies.
  const ParallelSpec& par = r.s.parallel;
  const bool bsh = ts.activation_layout == ActivationLayout::bsh && ts.sequence_parallel && par.tp > 1;
  const bool async_tp = async_tp_running(r), gathers_fused = !async_tp_leaves_all_gathers(r);
  const double fwd_layout_copies = !bsh ? 0.0 : !async_tp ? 2.0 : gathers_fused ? 0.0 : 1.0;
  const double bwd_layout_copies = !bsh ? 0.0 : async_tp && gathers_fused ? 1.0 : 2.0;
  return Ctx{r,
             nullptr,
             r.compute_dtype,
             attn,
             e,
             !ts.fused_elementwise,
             amp_fwd,
             amp_bwd,
             saves_fp8_gemm_inputs(r) ? 1.0 : e,
             !lora || lora_matrices(ts.lora_targets).mlp,
             lora,
             lora && base < compute ? base + compute : 0.0,
             T,
             ts.sequence_parallel ? T / tp : T,
             tp,
             double(r.m.hidden),
             double(ts.seq_len) / double(r.s.parallel.cp) * double(shape.micro_batch),
             ts.sequence_parallel ? tp : 1.0,
             r.compute_dtype == Dtype::fp8 && ts.fp8_recipe == Fp8Recipe::rowwise,
             lora ? double(ts.lora_rank) : 0.0,
             2 * copy_outs.fwd,  // read + write
             2 * copy_outs.bwd,
             gathered_weight_bytes(r, 1, 1),
             fwd_layout_copies,
             bwd_layout_copies};
}

// PyTorch eager: every op is its own kernel and round-trips HBM. Each entry is one kernel's bytes
// read + written per element, timed as a streaming copy with its own launch (docs/formulas.md,
// "Eager element-wise kernels").
void eager_pass(const Ctx& c, Pass pass, uint32_t rerun_by, double elems, std::initializer_list<double> bytes) {
  if (elems <= 0) return;
  for (double b : bytes) c.b->memory(pass, rerun_by, MemKernel::hbm_copy, b * elems);
}
void eager_ops(const Ctx& c, uint32_t rerun_by, double elems, std::initializer_list<double> fwd,
               std::initializer_list<double> bwd) {
  eager_pass(c, Pass::fwd, rerun_by, elems, fwd);
  eager_pass(c, Pass::bwd, 0, elems, bwd);
}
void elementwise(const Ctx& c, uint32_t rerun_by, MemKernel k, double fwd_bytes, double bwd_bytes) {
  c.b->memory(Pass::fwd, rerun_by, k, fwd_bytes);
  c.b->memory(Pass::bwd, 0, k, bwd_bytes);
}

MemKernel norm_kernel(const ModelSpec& m) {
  return m.norm == NormKind::rmsnorm ? MemKernel::rmsnorm : MemKernel::layernorm;
}

// A norm's kernels over Tn·h elements: one fused kernel (read x, write y; backward reads x and dy,
// writes dx), or RMSNorm's eager chain of fp32 ops.
void norm_kernels(const Ctx& c, uint32_t rerun_by, bool eager_rms) {
  const double elems = c.Tn * c.h;
  if (eager_rms) {
    eager_ops(c, rerun_by, elems, {c.e + 4, 8, 4, 8, 4 + c.e, 2 * c.e},  // to fp32, square, mean, scale, back, × w
              {2 * c.e, 3 * c.e, c.e, c.e + 4, 8, 12, 4, 12, 12,
               4 + c.e});  // dy·w, dy·y + sum (dw), cast, ·rsqrt, ·x + sum, square', add, cast
  } else {
    elementwise(c, rerun_by, norm_kernel(c.r.m), 2 * elems * c.e, 3 * elems * c.e);
  }
}

// A norm over Tn·h elements, keeping its input: a fused norm in 16 bits; RMSNorm as the Llama
// reference code and torchtitan write it eagerly, (x.float() · rsqrt(mean(x.float()²) + ε)).type_as(x)
// · w, a chain of fp32 ops keeping the fp32 x.float() and, for the weight's gradient, the
// normalised 16-bit tensor (not with LoRA: frozen norms); eager LayerNorm is one native kernel.
// Megatron's layernorm module re-runs the two pre-norms (one fused kernel each in backward) and
// drops their outputs, the next GEMMs' inputs (attention_in, mlp).
void norm(const Ctx& c, const char* name, bool pre_norm) {
  const ModelSpec& m = c.r.m;
  const bool eager_rms = c.eager && m.norm == NormKind::rmsnorm;
  Op& o = c.b->op(name);
  o.tags = kTagOpPolicy;
  const double norm_bytes = eager_rms ? 4 + (c.r.s.training.finetune == Finetune::lora ? 0 : c.e) : c.e;
  o.saved_bytes = norm_bytes * c.tok_saved * c.h / c.rep;
  norm_kernels(c, kTagOpPolicy, eager_rms);
  if (pre_norm) c.b->memory(Pass::rerun, kTagLayernorm, norm_kernel(m), 2 * c.Tn * c.h * c.e);
}

// A GEMM reading a pre-norm's output keeps it as its input, unless Megatron's layernorm module
// re-runs the norm in backward.
void keeps_norm_output(const Ctx& c, Op& o) {
  o.dropped_bytes = c.gin * c.tok_saved * c.h / c.rep;
  o.saved_bytes += o.dropped_bytes;
  o.drop_tags = kTagLayernorm;
}

// A residual add (with bias-dropout-add fused when the model has dropout: + a 1-byte mask, kept;
// eager: dropout, then the add). Backward needs nothing from the block's last add, so the per-op
// policy re-runs only the first.
void residual(const Ctx& c, const char* name, bool first) {
  const ModelSpec& m = c.r.m;
  Op& o = c.b->op(name);
  const uint32_t rerun = first ? uint32_t(kTagOpPolicy) : 0u;
  o.tags = rerun;
  const double mask = m.dropout ? 1.0 : 0.0, elems = c.Tn * c.h;
  o.saved_bytes = mask * c.tok_saved * c.h / c.rep;
  if (c.eager && m.dropout)
    eager_ops(c, rerun, elems, {2 * c.e + 1, 3 * c.e}, {2 * c.e + 1});
  else
    elementwise(c, rerun, m.dropout ? MemKernel::dropout : MemKernel::hbm_triad, (3 * c.e + mask) * elems,
                m.dropout ? (2 * c.e + 1) * elems : 0);
}

// FSDP2's copy-out (torch.distributed.fsdp fully_shard, foreach_all_gather_copy_out): after each
// all-gather the compute stream waits for it and copies the flat output into each parameter's
// unsharded tensor (split_with_sizes_copy), one kernel per FSDP unit reading and writing the
// unit's gathered weights. The forward's gather serves a recomputed forward only when it is kept.
void fsdp_copy_out(const Ctx& c) {
  if (c.copy_out_fwd <= 0 || c.b->gathered_bytes() <= 0) return;
  c.b->op("fsdp_copy_out");
  c.b->memory(Pass::fwd, 0, MemKernel::hbm_copy, c.copy_out_fwd * c.b->gathered_bytes());
  c.b->memory(Pass::bwd, 0, MemKernel::hbm_copy, c.copy_out_bwd * c.b->gathered_bytes());
}

// Batch-first sequence parallelism: NCCL's all-gather concatenates along dimension 0, so PyTorch's
// functional collectives follow an all-gather along the sequence (dimension 1) with
// torch.cat(torch.chunk(out, tp), dim=1) and precede a reduce-scatter with the reverse, each a
// copy of the pair's full T × h tensor (read + write) on the compute stream; the all-gather's
// copy is re-run when the per-op policy re-runs the gather. Called by the ops that own a pair.
void sp_layout_copies(const Ctx& c) {
  if (c.sp_copies_bwd <= 0) return;
  const double bytes = 2 * c.T * c.h * c.e;
  if (c.sp_copies_fwd > 0) {
    c.b->memory(Pass::fwd, kTagOpPolicy, MemKernel::hbm_copy, bytes);  // after the all-gather
    c.b->memory(Pass::fwd, 0, MemKernel::hbm_copy, bytes);             // before the reduce-scatter
  }
  c.b->memory(Pass::bwd, 0, MemKernel::hbm_copy, c.sp_copies_bwd * bytes);
}

}  // namespace plan_ops

using namespace plan_ops;

namespace {

// torchtitan's per-op policy (dense MLPs) re-runs w3 of w1 and w3 (one up projection here) and
// keeps w1's output and w2's, the row-parallel partial sum, T × h on every tp rank, though
// backward never reads it (a GeLU MLP's w2 is the 6th matmul: not kept); with sequence
// parallelism also the reduce-scatter's output.
struct MlpSpec {
  const char *up, *act, *down;  // op names
  double tokens, width, shard, batch, saved_rows;
  Fp8Input up_input;
  bool routed;
  double flops_per_token;  // FLOPs per matmul weight and token: 2, × top-k for routed experts
  bool dense;              // a dense layer's MLP: reads the pre-norm's output; the per-op policy covers it
};
void mlp(const Ctx& c, const MlpSpec& s) {
  const ModelSpec& m = c.r.m;
  const double e = c.e, h = c.h;
  const bool gated = m.mlp != MlpKind::gelu;
  {
    Op& o = c.b->op(s.up);
    o.tp_window = !s.routed;
    o.weight_flops = s.flops_per_token * (gated ? 2 : 1) * h * s.width;
    if (s.dense) {  // (the router keeps the norm's output in an MoE layer)
      if (c.mlp_trained) keeps_norm_output(c, o);
      o.saved_op_policy_bytes = e * c.tok_saved * s.width / c.tp;  // w1's output
      if (gated) o.extra_weight_flops = s.flops_per_token * h * s.width, o.extra_tags = kTagOpPolicy;
    }
    linear(c, c.gemm_dtype, s.tokens, h, (gated ? 2 : 1) * s.width / s.shard, s.batch, s.up_input, 0);
    if (gated && s.dense) c.b->gemm(Pass::rerun, kTagOpPolicy, c.gemm_dtype, s.tokens, s.width / s.shard, h, s.batch);
    if (c.mlp_trained)  // LoRA on every linear: one adapter per up matrix (w1 and w3 when gated)
      for (int i = 0; i < (gated ? 2 : 1); ++i) lora_adapter(c, s.tokens, h, s.width / s.shard, s.batch, 0);
  }
  {
    Op& o = c.b->op(s.act);
    o.tags = kTagOpPolicy;
    const double act_mats = !gated ? 2 : c.eager ? 4 : 3;
    const double out = c.mlp_trained ? c.gin : 0.0;  // fc2's input: for its weight gradient only
    o.saved_bytes = ((act_mats - 1) * e + out) * s.saved_rows * s.width / s.shard;
    if (s.routed) {
      o.dropped_bytes = out * s.saved_rows * s.width / s.shard;
      o.drop_tags = kTagMoeAct;
    }
    const double elems = s.tokens * s.width / s.shard * s.batch;
    const MemKernel act = gated ? MemKernel::swiglu : MemKernel::gelu;
    // Eager SwiGLU: silu(x₁) · x₃ as two kernels; backward two products and silu's derivative.
    if (c.eager && gated)
      eager_ops(c, kTagOpPolicy, elems, {2 * e, 3 * e}, {3 * e, 3 * e, 3 * e});
    else
      elementwise(c, kTagOpPolicy, act, (gated ? 3 : 2) * elems * e, (gated ? 5 : 3) * elems * e);
    if (s.routed) c.b->memory(Pass::rerun, kTagMoeAct, act, (gated ? 3 : 2) * elems * e);
  }
  Op& o = c.b->op(s.down);
  o.weight_flops = s.flops_per_token * h * s.width;
  o.tp_collectives = s.routed ? 0 : 1;  // routed experts' outputs go back by the combine all-to-all
  o.tp_window = !s.routed;
  if (s.dense) {
    if (gated) o.saved_op_policy_bytes = e * c.tok_saved * h;
    if (c.r.s.training.sequence_parallel && c.r.s.parallel.tp > 1)
      o.saved_op_policy_bytes += e * c.tok_saved * h / c.tp;
  }
  linear(c, c.gemm_dtype, s.tokens, s.width / s.shard, h, s.batch, Fp8Input::cast, 0);
  if (c.mlp_trained) lora_adapter(c, s.tokens, s.width / s.shard, h, s.batch, 0);
  if (o.tp_collectives > 0) sp_layout_copies(c);
}

// A mixture-of-experts block in place of the MLP: router, token permutation, routed experts,
// unpermutation, and the shared experts (a tensor-parallel MLP of their own).
void moe(const Ctx& c) {
  const Resolved& r = c.r;
  const ModelSpec& m = r.m;
  const double E = double(m.experts), k = double(m.top_k), ep = double(r.s.parallel.ep), etp = double(r.etp), h = c.h,
               e = c.e;
  {
    Op& o = c.b->op("router");  // replicated, in 16 bits; reads the norm's output, keeps fp32 logits
    o.weight_flops = 2 * (h * E);
    keeps_norm_output(c, o);
    o.saved_bytes += 4 * c.tok_saved * E / c.rep;
    linear(c, c.attn_dtype, c.T, h, E, 1, Fp8Input::cast, 0, false);
  }
  // The tp·cp·dp ranks regroup as etp × ep × expert-data-parallel. Under balanced routing each
  // rank runs its E/ep experts (ffn split etp ways) on T·top_k·etp/tp token copies in all: the
  // tp ranks share one micro-batch, each routing its own 1/tp of it, and an expert's etp shards
  // all see its tokens (Megatron-core MoE; comm.cpp times the dispatch of the same rows). The
  // busiest rank, which the step waits for and whose memory peaks, holds capacity_factor times
  // that share (training.moe_capacity_factor: a padded capacity, or an uneven router).
  const double load = r.s.training.moe_capacity_factor;
  const double rows = load * c.T * k * etp / c.tp, saved_rows = load * k * c.tok_saved * etp / c.tp;
  {
    Op& o = c.b->op("permute");  // gather and scatter of the routed rows; keeps the experts' inputs
    o.saved_bytes = saved_rows * c.gin * h;
    elementwise(c, 0, MemKernel::hbm_copy, 4 * rows * h * e, 4 * rows * h * e);
  }
  mlp(c, {"expert_up", "expert_act", "expert_down", rows * ep / E, double(m.expert_ffn_hidden), etp, E / ep, saved_rows,
          Fp8Input::cast, true, 2 * k, false});
  const double shared = m.shared_expert_ffn_hidden > 0 ? double(m.shared_expert_ffn_hidden)
                                                       : double(m.shared_experts * m.expert_ffn_hidden);
  if (shared > 0)
    mlp(c, {"shared_up", "shared_act", "shared_down", c.T, shared, c.tp, 1, c.tok_saved, Fp8Input::fused_into_norm,
            false, 2, false});
}

// The plans' builders on one context (the recipe and shapes are the same for every part of a step).
void layer(Ctx c, Plan& plan, const ParamCounts& p, bool kernels, bool moe_layer) {
  Builder b(plan, kernels);
  c.b = &b;
  const Resolved& r = c.r;
  const ModelSpec& m = r.m;
  const TrainingSpec& ts = r.s.training;
  const bool sdpa = runs_sdpa_math(ts.flash_attention, ts.unfused_attention);
  // Norms: before attention and before the MLP (Megatron's layernorm module re-runs these two),
  // then any others after attention and after the MLP (Gemma 2: four in all).
  const int64_t norms = m.norms_per_layer, post = std::max<int64_t>(norms - 2, 0);
  if (norms >= 1) norm(c, "attn_norm", true);
  attention_in(c, p);
  rotary(c);
  repeat_kv(c, sdpa);
  core_attention(c, sdpa);
  attention_out(c);
  for (int64_t i = 0; i < (post + 1) / 2; ++i) norm(c, "attn_post_norm", false);
  residual(c, "attn_residual", true);
  if (norms >= 2) norm(c, "mlp_norm", true);
  if (moe_layer) {
    moe(c);
  } else {
    mlp(c, {"mlp_up", "mlp_act", "mlp_down", c.T, double(m.ffn_hidden), c.tp, 1, c.tok_saved, Fp8Input::fused_into_norm,
            false, 2, true});
  }
  for (int64_t i = 0; i < post / 2; ++i) norm(c, "mlp_post_norm", false);
  residual(c, "mlp_residual", false);
  fsdp_copy_out(c);
}

void embedding(Ctx c, Plan& plan, bool kernels) {
  Builder b(plan, kernels);
  c.b = &b;
  b.op("embedding");  // gather forward, scatter-add backward
  elementwise(c, 0, MemKernel::hbm_copy, 2 * c.T * c.h * c.e, 2 * c.T * c.h * c.e);
  if (b.kernels()) b.gathered(double(c.r.m.vocab) / c.tp * c.h * gathered_weight_bytes(c.r, 1, 0));
  fsdp_copy_out(c);
}

// Final norm, output layer and the loss (training.fused_loss: fused kernels, or PyTorch eager ops
// on fp32 logits), holding loss_bytes_per_logit() per logit.
void head(Ctx c, Plan& plan, bool kernels) {
  Builder b(plan, kernels);
  c.b = &b;
  const Resolved& r = c.r;
  const ModelSpec& m = r.m;
  const double V = double(m.vocab);
  const bool eager = !r.fused_loss;
  b.op("final_norm");
  norm_kernels(c, 0, eager && m.norm == NormKind::rmsnorm);
  Op& out = b.op("output_layer");
  out.weight_flops = 2.0 * V * c.h;
  linear(c, c.attn_dtype, c.T, c.h, V / c.tp, 1, Fp8Input::cast, 0, false);  // FP8 recipes keep it in 16 bits
  // Without loss parallelism the tp ranks' vocabulary shards are all-gathered (comm.cpp) and
  // every rank computes the loss over the whole vocabulary.
  const double vocab_share = r.s.training.loss_parallel ? c.tp : 1.0;
  Op& loss = b.op("loss");
  loss.saved_bytes = loss_bytes_per_logit(r) * c.tok_saved * V / vocab_share;
  // Eager cross-entropy on fp32 logits: to fp32, log-softmax; backward the one-hot scatter,
  // log-softmax's backward and the cast back. On the 16-bit logits: no casts, e-byte passes.
  const double logits = c.T * V / vocab_share;
  // PyTorch's loss_parallel (torch/distributed/tensor/parallel/loss.py) decomposes log-softmax into
  // amax, x − max, exp, sum and − log-sum-exp (32 bytes per logit, not 8) and its backward into
  // zeros_like, exp of the output, the add and × the gradient (28, not 12), timed here as one pass
  // each (the all-reduces move one value per row: left out).
  const bool lp = dtensor_loss_parallel(r);
  if (eager && !r.loss_upcast)
    eager_ops(c, 0, logits, {2 * c.e}, {c.e, 3 * c.e});
  else if (eager)
    eager_ops(c, 0, logits, {c.e + 4, lp ? 32.0 : 8.0}, {4, lp ? 28.0 : 12.0, 4 + c.e});
  else
    elementwise(c, 0, MemKernel::cross_entropy, logits * (c.e + 8), logits * (4 + c.e));
  fsdp_copy_out(c);
}

}  // namespace

void plan_layer(Plan& out, const Resolved& r, const ParamCounts& p, const PlanShape& shape, bool moe_layer) {
  layer(make_ctx(r, shape), out, p, shape.kernels, moe_layer);
}
void plan_embedding(Plan& out, const Resolved& r, const PlanShape& shape) {
  embedding(make_ctx(r, shape), out, shape.kernels);
}
void plan_head(Plan& out, const Resolved& r, const PlanShape& shape) { head(make_ctx(r, shape), out, shape.kernels); }

// Read master (or weights), gradients and states, write master, states and the 16-bit weights;
// gradient-norm clipping reads the gradients once more. torch.optim.AdamW's foreach path is eight
// passes over the shard (decay, m lerp, v scale, v += g², sqrt, ÷ bias correction, + ε,
// p −= step·m/denom) after clipping's two, then the 16-bit copy.
void plan_optimizer(Plan& plan, const Resolved& r, double local) {
  Builder b(plan, true);
  const TrainingSpec& ts = r.s.training;
  b.op("optimizer_step");
  const OptimizerStates st = optimizer_states(r);
  const double P = r.master_weights ? 4 : bytes_of(r.weight_dtype), G = bytes_of(r.grad_dtype), S = st.bytes,
               states = st.per_param;
  const double opt_bytes = local * (2 * P + 2 * G + 2 * states * S + (r.master_weights ? bytes_of(r.weight_dtype) : 0));
  if (ts.cpu_offload_optimizer || opt_bytes <= 0) return;
  if (ts.optimizer == Optimizer::adamw && adamw_runs_foreach(ts.optimizer_kernel, ts.fused_elementwise)) {
    for (double bytes : {G, 2 * G, 2 * P, 2 * S + G, 2 * S, 2 * S + 2 * G, 2 * S, 2 * S, 2 * S, 2 * P + 2 * S})
      b.memory(Pass::fwd, 0, MemKernel::hbm_copy, bytes * local);
    if (r.master_weights) b.memory(Pass::fwd, 0, MemKernel::hbm_copy, local * (P + bytes_of(r.weight_dtype)));
  } else {
    b.memory(Pass::fwd, 0, MemKernel::adamw, opt_bytes);
  }
}

double StepPlan::tp_collectives_per_layer() const {
  auto count = [](const Plan& p) {
    int n = 0;
    for (const Op& o : p) n += o.tp_collectives;
    return double(n);
  };
  return (has_dense() ? (1 - moe_share) * count(dense) : 0.0) + (has_moe() ? moe_share * count(moe) : 0.0);
}

PlanShape plan_shape(const Resolved& r) {
  const TrainingSpec& ts = r.s.training;
  return {ts.micro_batch, ts.zero_stage >= 3 ? zero_shard_groups(r, r.s.parallel.dp).dense : 1.0, true};
}

void build_step_plan(StepPlan& out, const Resolved& r, const ParamCounts& p, const PlanShape& shape) {
  const ModelSpec& m = r.m;
  out.moe_share = m.is_moe() && m.layers > 0 ? double(p.moe_layers) / double(m.layers) : 0;
  out.dense.n_ops = out.dense.n_kernels = out.moe.n_ops = out.moe.n_kernels = 0;
  const Ctx c = make_ctx(r, shape);
  if (m.has_shape()) {
    if (out.has_dense()) layer(c, out.dense, p, shape.kernels, false);
    if (out.has_moe()) layer(c, out.moe, p, shape.kernels, true);
  }
  embedding(c, out.embedding, shape.kernels);
  head(c, out.head, shape.kernels);
}

}  // namespace llmc::detail
