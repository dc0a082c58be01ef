// The layer plan's attention block (plan_ops.h): the QKV projection, rotary, the key/value
// repeat of grouped-query attention, the attention core (fused kernels, unfused GEMMs and
// softmax, or PyTorch's math SDPA) and the output projection, each op declared once.
#include <algorithm>

#include "estimate/estimate_parts.h"
#include "estimate/lora_targets.h"
#include "estimate/placement.h"
#include "estimate/plan_ops.h"
#include "estimate/precision.h"

namespace llmc::detail::plan_ops {
namespace {

// Unfused attention's batched GEMMs over bh = b·heads sequences-and-heads, q queries against s
// keys of head_dim d: forward QKᵀ and PV; backward dP = dO·Vᵀ, dV = Pᵀ·dO, dQ = dS·K, dK = dSᵀ·Q.
void score_gemms(const Ctx& c, uint32_t rerun, Dtype dtype, double q, double s, double d, double bh) {
  c.b->gemm(Pass::fwd, rerun, dtype, q, s, d, bh);
  c.b->gemm(Pass::fwd, rerun, dtype, q, d, s, bh);
  c.b->gemm(Pass::bwd, 0, dtype, q, s, d, bh);
  c.b->gemm(Pass::bwd, 0, dtype, s, d, q, bh);
  c.b->gemm(Pass::bwd, 0, dtype, q, d, s, bh);
  c.b->gemm(Pass::bwd, 0, dtype, s, d, q, bh);
}

// PyTorch's math SDPA (aten/src/ATen/native/transformers/attention.cpp,
// _scaled_dot_product_attention_math, is_causal, enable_gqa) on b sequences of q queries against
// s keys, `heads` query heads over `kv_heads` key/value heads of head_dim d, in fp32 throughout:
// q, k and v cast up; q and the expanded k scaled by √scale; k and v repeated out to every query
// head; QKᵀ; the causal mask added in place; _safe_softmax (softmax, then `eq -inf`, `all` over
// the row and a `where` that zeroes fully masked rows); dropout; PV; the output cast back, and the
// probabilities cast to 16 bits as the op's second output, which SDPA discards. Autograd keeps
// only _safe_softmax's result, so backward is one softmax backward over the scores beside the
// four matmul gradients and the small passes' reverses. Matmuls in `mm` (TF32 or fp32).
void sdpa_math(const Ctx& c, uint32_t rerun, Dtype mm, double b, double q, double s, double heads, double kv_heads,
               double d, bool dropout) {
  const double e = c.e, bh = b * heads, scores = bh * q * s;
  const double q_elems = bh * q * d, kv_elems = b * kv_heads * s * d, expanded = bh * s * d;
  const double per_expanded = 4 * kv_heads / heads + 4;  // repeat_interleave: read the kv heads, write every head
  eager_ops(c, rerun, q_elems, {e + 4, 8}, {8, 4 + e});  // q: cast up, scale
  eager_ops(c, rerun, kv_elems, {e + 4, e + 4}, {4 + e, 4 + e});  // k, v: cast up
  eager_ops(c, rerun, expanded, {per_expanded, per_expanded, 8},
            {per_expanded, per_expanded, 8});  // k, v repeated; k scaled
  score_gemms(c, rerun, mm, q, s, d, bh);
  eager_pass(c, Pass::fwd, rerun, scores, {8, 8, 5, 1, 8, 4 + e});  // mask add, softmax, eq, all, where, 16-bit copy
  eager_pass(c, Pass::bwd, 0, scores, {12});                        // softmax backward
  if (dropout) eager_ops(c, rerun, scores, {9}, {9});
  eager_ops(c, rerun, q_elems, {4 + e}, {e + 4});  // output cast down
}

}  // namespace

// Attention projections: q, k and v (one GEMM) here, the output projection after the core.
// torchtitan's per-op policy projects q, k and v separately (wq, wk, wv), re-runs wk and wo, and
// keeps the block's input and the outputs of wq and wv. MLA (DeepSeek-V2/V3) is its low-rank
// projections lumped as one linear of the same parameter count, keeping the latents (their
// norms' and the up-projections' inputs) and Q, K, V per head, which Megatron's mla_up_proj
// re-runs instead (the up-projections of this rank's heads with their FP8 input casts; RoPE's
// element-wise pass on them is left out).
void attention_in(const Ctx& c, const ParamCounts& p) {
  const ModelSpec& m = c.r.m;
  const double a = double(m.heads), kv = double(m.kv_heads), d = double(m.head_dim), h = c.h, tp = c.tp, e = c.e;
  if (m.attention == AttentionKind::standard) {
    Op& o = c.b->op("qkv_proj");
    o.tp_window = true;
    o.weight_flops = 2 * (h * (a * d + 2 * kv * d));
    o.extra_weight_flops = 2 * (h * kv * d);  // wk
    o.extra_tags = kTagOpPolicy;
    keeps_norm_output(c, o);
    o.saved_op_policy_bytes =
        e * c.tok_saved * h / c.rep + e * c.tok_saved * (a * d + kv * d) / tp;  // block input; wq, wv outputs
    linear(c, c.gemm_dtype, c.T, h, (a + 2 * kv) * d / tp, 1, Fp8Input::fused_into_norm, 0);
    c.b->gemm(Pass::rerun, kTagOpPolicy, c.gemm_dtype, c.T, kv * d / tp, h);
    // LoRA adapters on the projections training.lora_targets picks.
    const LoraMatrices on = lora_matrices(c.r.s.training.lora_targets);
    if (on.q) lora_adapter(c, c.T, h, a * d / tp, 1, 0);
    if (on.k) lora_adapter(c, c.T, h, kv * d / tp, 1, 0);
    if (on.v) lora_adapter(c, c.T, h, kv * d / tp, 1, 0);
    return;
  }
  const double qk = double(m.qk_nope_head_dim + m.qk_rope_head_dim);
  const double q = m.q_lora_rank > 0 ? h * double(m.q_lora_rank) + double(m.q_lora_rank) * a * qk : h * a * qk;
  Op& o = c.b->op("mla_proj");  // with the output projection, and its tp collective
  o.tp_collectives = 1;
  o.tp_window = true;
  o.weight_flops =
      2 * (q + h * double(m.kv_lora_rank + m.qk_rope_head_dim) +
           double(m.kv_lora_rank) * a * double(m.qk_nope_head_dim + m.v_head_dim) + a * double(m.v_head_dim) * h);
  keeps_norm_output(c, o);
  o.saved_bytes += (e + c.gin) * c.tok_saved * double(m.q_lora_rank + m.kv_lora_rank + m.qk_rope_head_dim);
  linear(c, c.gemm_dtype, c.T, h, p.attention_per_layer / h / tp, 1, Fp8Input::fused_into_norm, 0);
  sp_layout_copies(c);
  Op& heads = c.b->op("mla_up_proj");
  const MlaUpProj up = mla_up_proj(m);
  heads.extra_weight_flops = 2 * up.weights();
  heads.extra_tags = kTagMlaUpProj;
  heads.saved_bytes = heads.dropped_bytes = e * c.tok_saved * a * (2 * d + double(m.v_head_dim)) / tp;
  heads.drop_tags = kTagMlaUpProj;
  for (const auto& [k_in, n_out] : {std::pair{up.q_in, up.q_out}, std::pair{up.kv_in, up.kv_out}}) {
    c.b->gemm(Pass::rerun, kTagMlaUpProj, c.gemm_dtype, c.T, n_out / tp, k_in);
    if (c.gemm_dtype == Dtype::fp8) c.b->memory(Pass::rerun, kTagMlaUpProj, MemKernel::cast, c.T * k_in * (e + 2));
  }
}

void rotary(const Ctx& c) {
  const ModelSpec& m = c.r.m;
  if (m.position != PositionKind::rotary) return;
  Op& o = c.b->op("rotary");
  o.tags = kTagOpPolicy;
  const double qk = c.T * double(m.heads + m.kv_heads) * double(m.head_dim) / c.tp;
  // Eager: to fp32, complex multiply, back (and the same three backward).
  if (c.eager)
    eager_ops(c, kTagOpPolicy, qk, {c.e + 4, 8, 4 + c.e}, {c.e + 4, 8, 4 + c.e});
  else
    elementwise(c, kTagOpPolicy, MemKernel::rotary, 2 * qk * c.e, 2 * qk * c.e);
}

// Eager grouped-query attention copies K and V out to every query head before SDPA (repeat_kv in
// the Llama reference code, torchtitan and transformers), and SDPA keeps those copies beside the
// kv-head ones; backward sums them. PyTorch's math SDPA repeats them itself, in fp32.
void repeat_kv(const Ctx& c, bool sdpa_math_attention) {
  const ModelSpec& m = c.r.m;
  const double a = double(m.heads), kv = double(m.kv_heads), d = double(m.head_dim);
  if (!c.eager || kv >= a || m.attention != AttentionKind::standard || sdpa_math_attention) return;
  Op& o = c.b->op("repeat_kv");
  o.tags = kTagOpPolicy;
  o.saved_bytes = c.e * c.tok_saved * (a - kv) * (d + d) / c.tp;
  const double kv_elems = 2 * c.T * kv * d / c.tp, per_kv = c.e + c.e * a / kv;
  eager_ops(c, kTagOpPolicy, kv_elems, {per_kv}, {per_kv});
}

// The attention core: fused flash attention, PyTorch's math SDPA, or batched GEMMs and a softmax.
// It keeps Q, K and V (fp32 and repeated to every query head under the math SDPA; MLA's per-head
// ones are the projections' op), the output O (the out-projection's input; flash attention's
// backward reads the same O in 16 bits, which an FP8 recipe keeps beside its FP8 copy), and flash
// attention's fp32 log-sum-exp, or without flash the softmax output and dropout mask per score,
// which Megatron's selective recompute (core_attn) re-runs instead.
void core_attention(const Ctx& c, bool sdpa_math_attention) {
  const Resolved& r = c.r;
  const ModelSpec& m = r.m;
  const TrainingSpec& ts = r.s.training;
  const double a = double(m.heads), kv = double(m.kv_heads), tp = c.tp, e = c.e, tok = c.tok_saved;
  const double s = double(ts.seq_len), q = s / double(r.s.parallel.cp), b = c.tok_saved / q;
  // Packed documents (training.document_tokens, flash attention and cp 1 only): each one a
  // sequence of its own to the varlen kernel, s/doc of them per sequence. Sliding windows shorten
  // the span of their layers (windowed_layers), timed the same way, each kind of layer on its
  // share of the sequences; context parallelism runs them whole (ring attention skips no block).
  const double doc = double(attention_span_tokens(ts));
  const WindowedLayers win = windowed_layers(m, ts);
  const double d_qk = double(m.head_dim),
               d_v = m.attention == AttentionKind::mla ? double(m.v_head_dim) : double(m.head_dim);
  const bool fp8 = c.gin < e;
  Op& o = c.b->op("core_attention");
  const double causal = ts.causal_attention_flops ? 0.5 : 1.0;
  o.score_flops = 2 * attention_span(m, ts) * a * (d_qk + d_v) * causal;
  o.tags = ts.flash_attention ? uint32_t(kTagCoreAttn) : uint32_t(kTagCoreAttn | kTagOpPolicy);
  if (m.attention == AttentionKind::standard)
    o.saved_bytes =
        sdpa_math_attention ? 4 * tok * a * (2 * d_qk + d_v) / tp : e * tok * (a * d_qk + kv * d_qk + kv * d_v) / tp;
  const double o_bytes = !fp8 ? e : ts.flash_attention ? e + c.gin : c.gin;
  o.saved_bytes += o_bytes * tok * a * d_v / tp;
  if (ts.flash_attention) {
    o.saved_bytes += 4 * tok * a / tp;                                     // softmax log-sum-exp (fp32)
    o.saved_op_policy_bytes = e * tok * a * d_qk / tp + 4 * tok * a / tp;  // O, log-sum-exp
  } else {
    const double mask = m.dropout ? 1.0 : 0.0;
    const double scores = a / tp * b * q * s;  // this rank's query rows × all keys
    // Softmax out (+ dropout mask and output); the math SDPA's are fp32; eager keeps the fp32
    // softmax beside the 16-bit copy the PV matmul keeps.
    const double per_score = sdpa_math_attention ? 4 + mask * (1 + 4) : (c.eager ? 4 + e : e) + mask * (1 + e);
    o.dropped_bytes = per_score * scores;
    o.saved_bytes += o.dropped_bytes;
    o.drop_tags = kTagCoreAttn;
  }
  if (!c.b->kernels()) return;
  const double heads = a / tp;
  const uint32_t rerun = o.tags;
  const double cp = double(r.s.parallel.cp);
  if (ts.flash_attention && cp > 1 && r.s.parallel.cp_method == CpMethod::p2p) {
    // Ring attention: cp blocks of s/cp queries against s/cp keys as the K,V chunks come round,
    // each a kernel of its own at the rate of that shorter length; load-balanced causal chunks
    // (Megatron's zigzag split) give every rank the same work, half of the full blocks'.
    c.b->attention(Pass::fwd, rerun, c.attn_dtype, r.attention_backend, b, q, q, heads, kv / tp, d_qk, int(cp));
    c.b->attention(Pass::bwd, 0, c.attn_dtype, r.attention_backend, b, q, q, heads, kv / tp, d_qk, int(cp));
  } else if (ts.flash_attention && cp > 1 && r.s.parallel.cp_method == CpMethod::a2a) {
    // Ulysses: after the all-to-all each rank attends over the whole sequence with heads/cp heads.
    c.b->attention(Pass::fwd, rerun, c.attn_dtype, r.attention_backend, b, s, s, heads / cp, kv / tp / cp, d_qk);
    c.b->attention(Pass::bwd, 0, c.attn_dtype, r.attention_backend, b, s, s, heads / cp, kv / tp / cp, d_qk);
  } else if (ts.flash_attention && cp == 1 && (doc < s || win.share > 0)) {
    // Packed documents (b·s/doc of them, each against its own keys) and windowed layers.
    auto spans = [&](double share, double len) {
      const double seqs = b * s / len * share;
      c.b->attention(Pass::fwd, rerun, c.attn_dtype, r.attention_backend, seqs, len, len, heads, kv / tp, d_qk);
      c.b->attention(Pass::bwd, 0, c.attn_dtype, r.attention_backend, seqs, len, len, heads, kv / tp, d_qk);
    };
    if (win.share < 1) spans(1 - win.share, doc);
    if (win.share > 0) spans(win.share, win.span);
  } else if (ts.flash_attention) {  // no CP, or K,V gathered from every rank: this rank's queries against all keys
    c.b->attention(Pass::fwd, rerun, c.attn_dtype, r.attention_backend, b, q, s, heads, kv / tp, d_qk);
    c.b->attention(Pass::bwd, 0, c.attn_dtype, r.attention_backend, b, q, s, heads, kv / tp, d_qk);
  } else if (sdpa_math_attention) {
    const Dtype mm = ts.unfused_attention == UnfusedAttention::sdpa_math_tf32 ? Dtype::tf32 : Dtype::fp32;
    sdpa_math(c, rerun, mm, b, q, s, heads, kv / tp, d_qk, m.dropout);
  } else {
    // QKᵀ and PV as batched GEMMs over b·heads, softmax (scale, mask, dropout fused) over the
    // s/cp × s score matrix (Megatron fused softmax; Korthikanti 2022 §4.1).
    const double bh = b * heads, scores = bh * q * s;
    score_gemms(c, rerun, c.attn_dtype, q, s, d_qk, bh);
    if (c.eager) {
      // Eager code (the Llama reference's and Hugging Face's eager attention): each op its own
      // pass over the scores: the causal mask added (read the scores, write them; the s × s
      // mask is shared by every sequence and head, so left out), softmax in fp32 (cast up,
      // softmax, cast down for the PV matmul), dropout; backward their gradients in reverse.
      eager_ops(c, rerun, scores, {2 * e, e + 4, 8, 4 + e}, {e + 4, 12, 4 + e, 2 * e});
      if (m.dropout) eager_ops(c, rerun, scores, {2 * e + 1}, {2 * e + 1});
    } else {
      c.b->memory(Pass::fwd, rerun, MemKernel::softmax, scores * (2 * e + (m.dropout ? 2 * e + 1 : 0)));
      c.b->memory(Pass::bwd, 0, MemKernel::softmax, scores * (3 * e + (m.dropout ? 2 * e + 1 : 0)));
    }
  }
}

void attention_out(const Ctx& c) {
  const ModelSpec& m = c.r.m;
  if (m.attention != AttentionKind::standard) return;  // part of MLA's lumped projections
  const double ad = double(m.heads) * double(m.head_dim);
  Op& o = c.b->op("out_proj");
  o.weight_flops = 2 * (ad * c.h);
  o.tags = kTagOpPolicy;
  o.tp_collectives = 1;
  o.tp_window = true;
  // With sequence parallelism the per-op policy also keeps the reduce-scatter's output.
  if (c.r.s.training.sequence_parallel && c.r.s.parallel.tp > 1)
    o.saved_op_policy_bytes = c.e * c.tok_saved * c.h / c.tp;
  linear(c, c.gemm_dtype, c.T, ad / c.tp, c.h, 1, Fp8Input::cast, kTagOpPolicy);
  if (lora_matrices(c.r.s.training.lora_targets).o) lora_adapter(c, c.T, ad / c.tp, c.h, 1, kTagOpPolicy);
  sp_layout_copies(c);
}

// An MLP of `width` (split `shard` ways) on `tokens` rows, `batch` of them (routed experts):
// up projection (two matrices when gated), activation, down projection. The activation keeps its
// inputs (GeLU's; gate and up, and with eager SwiGLU silu(x₁)) and its output, fc2's input, which
// Megatron's moe_act re-runs instead for routed experts; `saved_rows` rows are kept.

}  // namespace llmc::detail::plan_ops
