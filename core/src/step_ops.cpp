// One step as kernels (docs/formulas.md "Time model: kernels"). Shapes per GPU:
//   T  = micro_batch · seq_len / cp tokens; Tn = T / tp for the norms, residuals and dropout
//        under sequence parallelism (else T, replicated on every tp rank);
//   linear layers C[m×n] = A[m×k]·B[k×n] with the sharded dimension divided by tp; backward is
//   dX (m=T, n=k, k=n) and dW (m=k, n=n, k=T);
//   attention per rank: mb sequences, s/cp queries against s keys, heads/tp heads, causal.
// Memory-bound kernels are counted in bytes read + written, e the activation element size.
#include "step_ops.h"

#include "detmath.h"
#include "formulas.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace llmc::detail {

void OpTally::add_gemm(const KernelTime& k, double times) {
  gemm_s += k.s * times;
  var_s2 += (k.s * times * k.rel_err) * (k.s * times * k.rel_err);
  by_basis[int(k.basis)] += 1;
}
void OpTally::add_attention(const KernelTime& k, double times) {
  attention_s += k.s * times;
  var_s2 += (k.s * times * k.rel_err) * (k.s * times * k.rel_err);
  by_basis[int(k.basis)] += 1;
}
void OpTally::add_memory(const KernelTime& k, double times) {
  memory_s += k.s * times;
  var_s2 += (k.s * times * k.rel_err) * (k.s * times * k.rel_err);
  by_basis[int(k.basis)] += 1;
}
void OpTally::add(const OpTally& o, double times) {
  gemm_s += o.gemm_s * times;
  attention_s += o.attention_s * times;
  memory_s += o.memory_s * times;
  var_s2 += o.var_s2 * times * times;
  for (int i = 0; i < 3; ++i) by_basis[i] += o.by_basis[i];
}

namespace {

struct Ctx {
  const KernelProfile& kp;
  Dtype gemm_dtype, attn_dtype;
  double e;     // activation bytes per element
  bool eager;   // PyTorch eager: one kernel per op (training.fused_elementwise = false)
  // Autocast (weights stored wider than the 16-bit compute, no separate master copy): bytes per
  // linear weight element of its per-micro-batch casts, forward (read W, write the 16-bit copy)
  // and backward (the 16-bit weight gradient cast up and added into the stored-dtype gradient);
  // 0 otherwise (amp_cast_bytes).
  double amp_fwd = 0, amp_bwd = 0;
  // The same with 16-bit GEMMs: FP8 recipes (Megatron-LM, Transformer Engine) keep the output
  // layer and the MoE router out of FP8; attn_dtype is the 16-bit dtype they run in.
  Ctx sixteen_bit() const { return {kp, attn_dtype, attn_dtype, e, eager, amp_fwd, amp_bwd}; }
};

// torch.autocast's weight casts, per linear weight element and micro-batch: forward W + e (the
// 16-bit copy, cached for the rest of the forward); backward e + G to cast the weight gradient
// up, and 3·G to add it into the kept gradient (read both, write one). Under ZeRO-3 (FSDP's
// mixed precision) each GPU casts only its shard, before the gather and after the reduce-scatter.
// Megatron-style recipes store 16-bit weights beside an fp32 master and cast nothing per
// micro-batch; FP8 recipes cast once per step (left out, see linear()).
std::pair<double, double> amp_cast_bytes(const Resolved& r, double zero3_shard) {
  if (!autocast_casts_weights(r)) return {0, 0};
  const double w = bytes_of(r.weight_dtype), g = bytes_of(r.grad_dtype), e = bytes_of(r.compute_dtype);
  const double bwd = r.s.training.finetune == Finetune::lora ? 0 : e + 4 * g;  // frozen weights: no gradient
  return {(w + e) / zero3_shard, bwd / zero3_shard};
}

// Where an FP8 GEMM's input comes from: a norm that already writes it in FP8 (Transformer
// Engine's LayerNormLinear), or a tensor that needs its own cast.
enum class Fp8Input { fused_into_norm, cast };

// A linear layer y[T×n] = x[T×k]·W[k×n]: forward, and backward dX + dW.
// FP8 GEMMs need their inputs in FP8, and the weight-gradient GEMM needs them transposed
// (Hopper's FP8 tensor cores take only the TN layout): Transformer Engine casts the forward
// input and the backward output gradient with a fused cast-transpose (read e bytes, write two FP8
// copies) before the GEMMs; a norm that outputs FP8 leaves only the transpose (read 1, write 1).
// Weights are cast once per step, not per micro-batch, and are left out.
// `rerun`, when given, also gets the forward kernels (a recompute policy runs them again).
void linear(const Ctx& c, double T, double k, double n, OpTally& fwd, OpTally& bwd, double batch = 1,
            Fp8Input input = Fp8Input::cast, OpTally* rerun = nullptr) {
  if (T <= 0 || k <= 0 || n <= 0) return;
  const KernelTime forward = gemm_time(c.kp, c.gemm_dtype, T, n, k, batch);
  fwd.add_gemm(forward);
  if (rerun) rerun->add_gemm(forward);
  if (c.amp_fwd > 0) {  // autocast: a recomputed forward casts the weight again
    const KernelTime cast = memory_time(c.kp, MemKernel::cast, k * n * batch * c.amp_fwd);
    fwd.add_memory(cast);
    if (rerun) rerun->add_memory(cast);
    bwd.add_memory(memory_time(c.kp, MemKernel::cast, k * n * batch * c.amp_bwd));
  }
  bwd.add_gemm(gemm_time(c.kp, c.gemm_dtype, T, k, n, batch));
  bwd.add_gemm(gemm_time(c.kp, c.gemm_dtype, k, n, T, batch));
  if (c.gemm_dtype == Dtype::fp8) {
    const double x_bytes_per_elem = input == Fp8Input::fused_into_norm ? 2 : c.e + 2;
    const KernelTime cast = memory_time(c.kp, MemKernel::cast, T * k * batch * x_bytes_per_elem);
    fwd.add_memory(cast);
    if (rerun) rerun->add_memory(cast);
    bwd.add_memory(memory_time(c.kp, MemKernel::cast, T * n * batch * (c.e + 2)));
  }
}

void elementwise(const Ctx& c, MemKernel kernel, double fwd_bytes, double bwd_bytes, OpTally& fwd, OpTally& bwd) {
  if (fwd_bytes > 0) fwd.add_memory(memory_time(c.kp, kernel, fwd_bytes));
  if (bwd_bytes > 0) bwd.add_memory(memory_time(c.kp, kernel, bwd_bytes));
}

// PyTorch eager: every op of a block is its own kernel and round-trips HBM. Each entry is one
// kernel's bytes read + written per element; each is timed as a streaming copy of its bytes
// with its own launch. The op sequences are in docs/formulas.md ("Eager element-wise kernels").
void eager_pass(const Ctx& c, double elems, std::initializer_list<double> bytes, OpTally& out) {
  if (elems <= 0) return;
  for (double b : bytes) out.add_memory(memory_time(c.kp, MemKernel::hbm_copy, b * elems));
}
void eager_ops(const Ctx& c, double elems, std::initializer_list<double> fwd_bytes, std::initializer_list<double> bwd_bytes, OpTally& fwd, OpTally& bwd) {
  eager_pass(c, elems, fwd_bytes, fwd);
  eager_pass(c, elems, bwd_bytes, bwd);
}

// RMSNorm as the Llama reference code and torchtitan write it,
// (x.float() · rsqrt(mean(x.float()²) + ε)).type_as(x) · w, and its autograd backward.
void eager_rmsnorm(const Ctx& c, double elems, OpTally& fwd, OpTally& bwd) {
  const double e = c.e;
  eager_ops(c, elems,
            {e + 4, 8, 4, 8, 4 + e, 2 * e},                         // to fp32, square, mean, scale, back, × w
            {2 * e, 3 * e, e, e + 4, 8, 12, 4, 12, 12, 4 + e},      // dy·w, dy·y + sum (dw), cast, ·rsqrt, ·x + sum, square', add, cast
            fwd, bwd);
}

// Unfused attention's batched GEMMs over bh = b·heads sequences-and-heads, q queries against s
// keys of head_dim d: forward QKᵀ and PV; backward dP = dO·Vᵀ, dV = Pᵀ·dO, dQ = dS·K, dK = dSᵀ·Q.
void score_gemms(const KernelProfile& kp, Dtype dtype, double q, double s, double d, double bh, OpTally& fwd, OpTally& bwd) {
  fwd.add_gemm(gemm_time(kp, dtype, q, s, d, bh));
  fwd.add_gemm(gemm_time(kp, dtype, q, d, s, bh));
  bwd.add_gemm(gemm_time(kp, dtype, q, s, d, bh));
  bwd.add_gemm(gemm_time(kp, dtype, s, d, q, bh));
  bwd.add_gemm(gemm_time(kp, dtype, q, d, s, bh));
  bwd.add_gemm(gemm_time(kp, dtype, s, d, q, bh));
}

// PyTorch's math SDPA (aten/src/ATen/native/transformers/attention.cpp,
// _scaled_dot_product_attention_math, is_causal, enable_gqa) on b sequences of q queries against
// s keys, `heads` query heads over `kv_heads` key/value heads of head_dim d, in fp32 throughout:
// q, k and v cast up; q and the expanded k scaled by √scale; k and v repeated out to every query
// head; QKᵀ; the causal mask added in place; _safe_softmax (softmax, then `eq -inf`, `all` over
// the row and a `where` that zeroes fully masked rows); dropout; PV; the output cast back, and the
// probabilities cast to 16 bits as the op's second output, which SDPA discards. Autograd keeps only
// _safe_softmax's result, so backward is one softmax backward over the scores beside the four
// matmul gradients and the small passes' reverses. The matmuls (score_gemms) run in `mm` (TF32
// or fp32).
void sdpa_math(const Ctx& c, Dtype mm, double b, double q, double s, double heads, double kv_heads, double d, bool dropout,
               OpTally& fwd, OpTally& bwd) {
  const double e = c.e, bh = b * heads, scores = bh * q * s;
  const double q_elems = bh * q * d, kv_elems = b * kv_heads * s * d, expanded = bh * s * d;
  const double per_expanded = 4 * kv_heads / heads + 4;  // repeat_interleave: read the kv heads, write every head
  eager_ops(c, q_elems, {e + 4, 8}, {8, 4 + e}, fwd, bwd);                            // q: cast up, scale
  eager_ops(c, kv_elems, {e + 4, e + 4}, {4 + e, 4 + e}, fwd, bwd);                   // k, v: cast up
  eager_ops(c, expanded, {per_expanded, per_expanded, 8}, {per_expanded, per_expanded, 8}, fwd, bwd);  // k, v repeated; k scaled
  score_gemms(c.kp, mm, q, s, d, bh, fwd, bwd);
  eager_pass(c, scores, {8, 8, 5, 1, 8, 4 + e}, fwd);  // mask add, softmax, eq, all, where, 16-bit copy
  eager_pass(c, scores, {12}, bwd);                    // softmax backward
  if (dropout) eager_ops(c, scores, {9}, {9}, fwd, bwd);
  eager_ops(c, q_elems, {4 + e}, {e + 4}, fwd, bwd);  // output cast down
}

struct Layer {
  OpTally fwd, bwd;
  OpTally attn_core_fwd;  // what Megatron's selective recompute re-runs
  // torchtitan's per-op policy counts a block's matmuls in forward order (wq, wk, wv, wo, w1,
  // w3, w2), saves the fused SDPA outputs and the odd matmuls' outputs and re-runs the rest in
  // backward, stopping at w2's input: wk, wo, w3 and the element-wise ops before it.
  OpTally selective_op;
  // What selective recompute's other modules re-run in backward (layernorm, mla_up_proj, moe_act).
  OpTally module_rerun;
};

Layer layer_ops(const Ctx& c, const Resolved& r, const ParamCounts& p, bool moe) {
  Layer L;
  const ModelSpec& m = r.m;
  const TrainingSpec& ts = r.s.training;
  const ParallelSpec& par = r.s.parallel;
  const double tp = double(par.tp), cp = double(par.cp), e = c.e;
  const double s = double(ts.seq_len), b = double(ts.micro_batch);
  const double T = b * s / cp;
  const double Tn = ts.sequence_parallel ? T / tp : T;
  const double h = double(m.hidden), a = double(m.heads), kv = double(m.kv_heads), d = double(m.head_dim);
  const MemKernel norm = m.norm == NormKind::rmsnorm ? MemKernel::rmsnorm : MemKernel::layernorm;
  // Under torchtitan's per-op policy the element-wise forward kernels (all but the last residual
  // add) are tallied apart, because it saves none of their outputs and re-runs them in backward.
  const bool op_policy = ts.recompute == Recompute::selective_op;
  OpTally* rerun = op_policy ? &L.selective_op : nullptr;
  OpTally fwd_mem;
  OpTally& elem = op_policy ? fwd_mem : L.fwd;

  // Norms: read x, write y; backward reads x and dy, writes dx. Eager LayerNorm is one native
  // kernel too; eager RMSNorm is a chain of fp32 ops.
  // Megatron-core's layernorm module re-runs the two pre-norms (not Gemma 2's post-norms).
  const uint32_t rec = r.recompute_modules;
  for (int64_t i = 0; i < m.norms_per_layer; ++i) {
    if (c.eager && norm == MemKernel::rmsnorm) eager_rmsnorm(c, Tn * h, elem, L.bwd);
    else elementwise(c, norm, 2 * Tn * h * e, 3 * Tn * h * e, elem, L.bwd);
    if (rec & kRecomputeLayernorm && i < 2) L.module_rerun.add_memory(memory_time(c.kp, norm, 2 * Tn * h * e));
  }
  // Two residual adds (with bias-dropout-add fused when the model has dropout: + 1-byte mask;
  // eager: dropout, then the add).
  const double drop = m.dropout ? 1 : 0;
  for (int i = 0; i < 2; ++i) {
    OpTally& into = i == 0 ? elem : L.fwd;  // backward needs nothing from the block's last add
    if (c.eager && m.dropout) eager_ops(c, Tn * h, {2 * e + 1, 3 * e}, {2 * e + 1}, into, L.bwd);
    else elementwise(c, m.dropout ? MemKernel::dropout : MemKernel::hbm_triad, (3 * e + drop) * Tn * h, m.dropout ? (2 * e + 1) * Tn * h : 0, into, L.bwd);
  }

  // Attention projections.
  if (m.attention == AttentionKind::standard) {
    linear(c, T, h, (a + 2 * kv) * d / tp, L.fwd, L.bwd, 1, Fp8Input::fused_into_norm);
    // Per-op policy: torchtitan projects q, k and v separately (wq, wk, wv) and re-runs wk.
    if (op_policy) L.selective_op.add_gemm(gemm_time(c.kp, c.gemm_dtype, T, kv * d / tp, h));
    linear(c, T, a * d / tp, h, L.fwd, L.bwd, 1, Fp8Input::cast, rerun);  // wo: re-run
  } else {  // MLA: the low-rank projections lumped as one linear of the same parameter count
    linear(c, T, h, p.attention_per_layer / h / tp, L.fwd, L.bwd, 1, Fp8Input::fused_into_norm);
    if (rec & kRecomputeMlaUpProj) {
      // The up-projections (mla_up_proj), this rank's heads, with their FP8 input casts; RoPE's
      // element-wise pass on them is left out.
      const MlaUpProj up = mla_up_proj(m);
      for (const auto& [k_in, n_out] : {std::pair{up.q_in, up.q_out}, std::pair{up.kv_in, up.kv_out}}) {
        L.module_rerun.add_gemm(gemm_time(c.kp, c.gemm_dtype, T, n_out / tp, k_in));
        if (c.gemm_dtype == Dtype::fp8) L.module_rerun.add_memory(memory_time(c.kp, MemKernel::cast, T * k_in * (e + 2)));
      }
    }
  }
  if (m.position == PositionKind::rotary) {
    const double qk = T * (a + kv) * d / tp;
    // Eager: to fp32, complex multiply, back (and the same three backward).
    if (c.eager) eager_ops(c, qk, {e + 4, 8, 4 + e}, {e + 4, 8, 4 + e}, elem, L.bwd);
    else elementwise(c, MemKernel::rotary, 2 * qk * e, 2 * qk * e, elem, L.bwd);
  }
  // Eager grouped-query attention copies K and V out to every query head before SDPA
  // (repeat_kv in the Llama reference code, torchtitan and transformers); backward sums them.
  // PyTorch's math SDPA repeats them itself, in fp32 (sdpa_math).
  const bool sdpa_math_attention = runs_sdpa_math(ts.flash_attention, ts.unfused_attention);
  if (c.eager && kv < a && m.attention == AttentionKind::standard && !sdpa_math_attention) {
    const double kv_elems = 2 * T * kv * d / tp, per_kv = e + e * a / kv;
    eager_ops(c, kv_elems, {per_kv}, {per_kv}, elem, L.bwd);
  }
  // Core attention.
  const double heads = a / tp;
  if (ts.flash_attention) {
    L.attn_core_fwd.add_attention(attention_time(c.kp, c.attn_dtype, b, s / cp, s, heads, kv / tp, d, true, false));
    L.fwd.add(L.attn_core_fwd, 1);
    L.bwd.add_attention(attention_time(c.kp, c.attn_dtype, b, s / cp, s, heads, kv / tp, d, true, true));
  } else {
    OpTally& f = L.attn_core_fwd;
    if (sdpa_math_attention) {
      const Dtype mm = ts.unfused_attention == UnfusedAttention::sdpa_math_tf32 ? Dtype::tf32 : Dtype::fp32;
      sdpa_math(c, mm, b, s / cp, s, heads, kv / tp, d, m.dropout, f, L.bwd);
    } else {
      // Unfused: QKᵀ and PV as batched GEMMs over b·heads, softmax (scale, mask, dropout fused)
      // over the s/cp × s score matrix (Megatron fused softmax; Korthikanti 2022 §4.1).
      const double bh = b * heads, q = s / cp, scores = bh * q * s;
      score_gemms(c.kp, c.attn_dtype, q, s, d, bh, f, L.bwd);
      if (c.eager) {
        // Eager code (the Llama reference's and Hugging Face's eager attention): each op its own
        // pass over the scores: the causal mask added (read the scores, write them; the s × s
        // mask is shared by every sequence and head, so left out), softmax in fp32 (cast up,
        // softmax, cast down for the PV matmul), dropout; backward their gradients in reverse.
        eager_ops(c, scores, {2 * e, e + 4, 8, 4 + e}, {e + 4, 12, 4 + e, 2 * e}, f, L.bwd);
        if (m.dropout) eager_ops(c, scores, {2 * e + 1}, {2 * e + 1}, f, L.bwd);
      } else {
        f.add_memory(memory_time(c.kp, MemKernel::softmax, scores * (2 * e + (m.dropout ? 2 * e + 1 : 0))));
        L.bwd.add_memory(memory_time(c.kp, MemKernel::softmax, scores * (3 * e + (m.dropout ? 2 * e + 1 : 0))));
      }
    }
    L.fwd.add(f, 1);
    if (op_policy) L.selective_op.add(f, 1);  // the per-op policy saves only fused SDPA outputs
  }

  // MLP or MoE.
  const bool gated = m.mlp != MlpKind::gelu;
  const MemKernel act = gated ? MemKernel::swiglu : MemKernel::gelu;
  // The dense MLP's up projection reads the norm's output; routed experts read permuted tokens.
  auto mlp = [&](double tokens, double width, double shard, double batch, Fp8Input up_input, bool routed = false) {
    linear(c, tokens, h, (gated ? 2 : 1) * width / shard, L.fwd, L.bwd, batch, up_input);
    // Per-op policy: of w1 and w3 (one up projection here) it re-runs w3.
    if (op_policy && gated) L.selective_op.add_gemm(gemm_time(c.kp, c.gemm_dtype, tokens, width / shard, h, batch));
    linear(c, tokens, width / shard, h, L.fwd, L.bwd, batch);
    const double elems = tokens * width / shard * batch;
    // Eager SwiGLU: silu(x₁) · x₃ as two kernels; backward two products and silu's derivative.
    if (c.eager && gated) eager_ops(c, elems, {2 * e, 3 * e}, {3 * e, 3 * e, 3 * e}, elem, L.bwd);
    else elementwise(c, act, (gated ? 3 : 2) * elems * e, (gated ? 5 : 3) * elems * e, elem, L.bwd);
    if (routed && rec & kRecomputeMoeAct) L.module_rerun.add_memory(memory_time(c.kp, act, (gated ? 3 : 2) * elems * e));
  };
  if (!moe) {
    mlp(T, double(m.ffn_hidden), tp, 1, Fp8Input::fused_into_norm);
  } else {
    const double E = double(m.experts), k = double(m.top_k), ep = double(par.ep), etp = double(r.etp);
    linear(c.sixteen_bit(), T, h, E, L.fwd, L.bwd);  // router (replicated)
    // The tp·cp·dp ranks regroup as etp × ep × expert-data-parallel. Under balanced routing each
    // rank runs its E/ep experts (ffn split etp ways) on T·top_k·etp/tp token copies in all: the
    // tp ranks share one micro-batch, each routing its own 1/tp of it, and an expert's etp shards
    // all see its tokens (Megatron-core MoE; comm.cpp times the dispatch of the same rows).
    const double rows = T * k * etp / tp;
    mlp(rows * ep / E, double(m.expert_ffn_hidden), etp, E / ep, Fp8Input::cast, true);
    // Permute before the experts and unpermute after: gather/scatter of those rows.
    elementwise(c, MemKernel::hbm_copy, 4 * rows * h * e, 4 * rows * h * e, L.fwd, L.bwd);
    const double shared = m.shared_expert_ffn_hidden > 0 ? double(m.shared_expert_ffn_hidden) : double(m.shared_experts * m.expert_ffn_hidden);
    if (shared > 0) mlp(T, shared, tp, 1, Fp8Input::fused_into_norm);
  }
  if (op_policy) {
    L.fwd.add(fwd_mem, 1);
    L.selective_op.add(fwd_mem, 1);
  }
  return L;
}

}  // namespace

ComputeTimes compute_times(const Resolved& r, const ParamCounts& p) {
  ComputeTimes ct;
  const ModelSpec& m = r.m;
  const TrainingSpec& ts = r.s.training;
  const ParallelSpec& par = r.s.parallel;
  const HardwareSpec& hw = r.s.hardware;
  const Dtype attn = r.compute_dtype == Dtype::fp8 ? Dtype::bf16 : r.compute_dtype;  // attention stays 16-bit in fp8 recipes
  const KernelProfile kp(hw);
  const double e = activation_bytes(r);
  // The ranks ZeRO shards over: the hybrid-shard group, or all of dp × cp.
  const double zero_group = double(ts.zero_shard_group > 0 ? ts.zero_shard_group : par.dp * par.cp);
  const auto [amp_fwd, amp_bwd] = amp_cast_bytes(r, ts.zero_stage >= 3 ? zero_group : 1.0);
  const Ctx c{kp, r.compute_dtype, attn, e, !ts.fused_elementwise, amp_fwd, amp_bwd};

  // Optimizer step on this GPU's shard: read master (or weights), gradients and states, write
  // master, states and the 16-bit weights; gradient-norm clipping reads the gradients once more.
  const double shard = ts.zero_stage >= 1 ? zero_group : 1.0;
  const double local = (ts.finetune == Finetune::lora ? p.trainable / double(par.tp * par.pp) : p.per_gpu) / shard;
  const double master = r.master_weights ? 4 : bytes_of(r.weight_dtype);
  const double states = ts.optimizer == Optimizer::adamw || ts.optimizer == Optimizer::adam8bit ? 2 : ts.optimizer == Optimizer::adafactor ? 0 : 1;
  const double opt_bytes = local * (2 * master + 2 * bytes_of(r.grad_dtype) + 2 * states * bytes_of(r.optimizer_state_dtype) + (r.master_weights ? bytes_of(r.weight_dtype) : 0));
  if (!ts.cpu_offload_optimizer && opt_bytes > 0) {
    if (ts.optimizer == Optimizer::adamw && adamw_runs_foreach(ts.optimizer_kernel, ts.fused_elementwise)) {
      // Gradient clipping (norm, scale) and torch.optim.AdamW's foreach path: eight passes over
      // the shard (decay, m lerp, v scale, v += g², sqrt, ÷ bias correction, + ε,
      // p −= step·m/denom), then the 16-bit copy.
      const double P = master, G = bytes_of(r.grad_dtype), S = bytes_of(r.optimizer_state_dtype);
      eager_pass(c, local, {G, 2 * G, 2 * P, 2 * S + G, 2 * S, 2 * S + 2 * G, 2 * S, 2 * S, 2 * S, 2 * P + 2 * S}, ct.optimizer);
      if (r.master_weights) ct.optimizer.add_memory(memory_time(kp, MemKernel::hbm_copy, local * (P + bytes_of(r.weight_dtype))));
    } else {
      ct.optimizer.add_memory(memory_time(kp, MemKernel::adamw, opt_bytes));
    }
  }

  if (!m.has_shape()) {
    // Size-only model: 6·N FLOPs per token as GEMMs at the profile's rate on square-ish shapes.
    const double tokens_mb = double(ts.micro_batch) * double(ts.seq_len) / double(par.cp);
    const double flops = 2 * p.active / double(par.tp * par.pp) * tokens_mb;
    // det_pow, not std::cbrt: libm cube roots differ in the last bit between glibc and wasm's musl.
    const double side = det_pow(std::max(flops / 2, 1.0), 1.0 / 3.0);
    KernelTime k = gemm_time(kp, c.gemm_dtype, side, side, side);
    ct.stage_fwd.add_gemm(k);
    ct.stage_bwd.add_gemm(k, 2);
    ct.layer_fwd_s = ct.stage_fwd.total();
    ct.layer_bwd_s = ct.stage_bwd.total();
    return ct;
  }

  const double L_stage = double(r.layers_per_stage);
  const double moe_share = m.is_moe() ? double(p.moe_layers) / double(m.layers) : 0;
  Layer dense, moe;  // each timed only when some layer is of its kind (Mixtral has no dense layer)
  if (moe_share < 1) dense = layer_ops(c, r, p, false);
  if (moe_share > 0) moe = layer_ops(c, r, p, true);
  OpTally layer_fwd, layer_bwd, layer_core, layer_modules;
  layer_fwd.add(dense.fwd, 1 - moe_share);
  layer_bwd.add(dense.bwd, 1 - moe_share);
  layer_core.add(dense.attn_core_fwd, 1 - moe_share);
  layer_modules.add(dense.module_rerun, 1 - moe_share);
  const OpTally& layer_selective_op = dense.selective_op;  // dense layers only (scenario.cpp)
  if (moe_share > 0) {
    layer_fwd.add(moe.fwd, moe_share);
    layer_bwd.add(moe.bwd, moe_share);
    layer_core.add(moe.attn_core_fwd, moe_share);
    layer_modules.add(moe.module_rerun, moe_share);
  }

  // Recomputation in the backward pass: the whole forward of recomputed layers (full), the
  // attention core (selective's core_attn: Megatron-core checkpoints Transformer Engine's
  // DotProductAttention whatever kernel it runs, so a flash forward is re-run too, though it frees
  // nothing; flops.cpp counts the same) and its other modules' re-runs, or torchtitan's per-op
  // re-runs (selective_op).
  double recomputed_layers = 0;
  if (ts.recompute == Recompute::full) recomputed_layers = ts.recompute_layers > 0 ? double(ts.recompute_layers) : L_stage;

  // Embedding (first stage): gather forward, scatter-add backward. Final norm, logits and the
  // vocab-parallel cross-entropy in fp32 (last stage).
  const double T = double(ts.micro_batch) * double(ts.seq_len) / double(par.cp);
  const double tp = double(par.tp), h = double(m.hidden), V = double(m.vocab);
  OpTally emb_f, emb_b, head_f, head_b;
  elementwise(c, MemKernel::hbm_copy, 2 * T * h * c.e, 2 * T * h * c.e, emb_f, emb_b);
  const double Tn = ts.sequence_parallel ? T / tp : T;
  if (c.eager && m.norm == NormKind::rmsnorm) eager_rmsnorm(c, Tn * h, head_f, head_b);
  else elementwise(c, m.norm == NormKind::rmsnorm ? MemKernel::rmsnorm : MemKernel::layernorm, 2 * Tn * h * c.e, 3 * Tn * h * c.e, head_f, head_b);
  linear(c.sixteen_bit(), T, h, V / tp, head_f, head_b);
  // Eager cross-entropy on fp32 logits: to fp32, log-softmax; backward the one-hot scatter,
  // log-softmax's backward and the cast back.
  if (c.eager) eager_ops(c, T * V / tp, {c.e + 4, 8}, {4, 12, 4 + c.e}, head_f, head_b);
  else elementwise(c, MemKernel::cross_entropy, T * V / tp * (c.e + 8), T * V / tp * (4 + c.e), head_f, head_b);

  // The slowest stage: with pp = 1 one stage holds everything; otherwise the layers split as
  // evenly as they go, the first and last stages taking the shortfall when pp does not divide
  // them (Llama 3 §3.3.2) and carrying the embedding and the head.
  auto stage = [&](double layers, bool first, bool last, OpTally& f, OpTally& bw) {
    f.add(layer_fwd, layers);
    bw.add(layer_bwd, layers);
    const double rec = std::min(recomputed_layers, layers);
    bw.add(layer_fwd, rec);
    if (r.recompute_modules & kRecomputeCoreAttn) bw.add(layer_core, layers);
    bw.add(layer_modules, layers);
    if (ts.recompute == Recompute::selective_op) bw.add(layer_selective_op, layers);
    if (first) f.add(emb_f, 1), bw.add(emb_b, 1);
    if (last) f.add(head_f, 1), bw.add(head_b, 1);
  };
  const int64_t pp = par.pp;
  if (pp == 1) {
    stage(L_stage, true, true, ct.stage_fwd, ct.stage_bwd);
  } else {
    OpTally f_mid, b_mid, f_first, b_first, f_last, b_last;
    stage(L_stage, false, false, f_mid, b_mid);
    stage(stage_layers(r, 0), true, false, f_first, b_first);
    stage(stage_layers(r, pp - 1), false, true, f_last, b_last);
    const double mid = pp > 2 ? f_mid.total() + b_mid.total() : 0;
    const double first = f_first.total() + b_first.total(), last = f_last.total() + b_last.total();
    if (mid >= first && mid >= last) ct.stage_fwd = f_mid, ct.stage_bwd = b_mid;
    else if (first >= last) ct.stage_fwd = f_first, ct.stage_bwd = b_first;
    else ct.stage_fwd = f_last, ct.stage_bwd = b_last;
  }
  ct.layer_fwd_s = layer_fwd.total();
  ct.layer_bwd_s = layer_bwd.total();
  return ct;
}

}  // namespace llmc::detail
