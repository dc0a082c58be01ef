// Memory per GPU at the peak of a training step. Sources: ZeRO (Rajbhandari et al. 2020) for
// model states; Korthikanti et al. 2022 ("Reducing Activation Recomputation", arXiv:2205.05198)
// for activations, generalised term by term to GQA, gated MLPs, MoE, flash attention and CP;
// Narayanan et al. 2021 for in-flight micro-batches per pipeline schedule.
#include <algorithm>
#include <cmath>

#include "formulas.h"

namespace llmc::detail {

double activation_bytes(const Resolved& r) { return r.s.training.precision == Precision::fp32 ? 4.0 : 2.0; }

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// What searches vary without copying the scenario: micro-batch, micro-batches per step, dp.
struct Knobs {
  int64_t b = 1, m = 1, dp = 1;
  // The last stage's in-flight count (in_flight), which depends on neither b nor dp: kept while
  // a search over dp reuses these knobs (min_gpus_that_fit), valid for the m it was computed for.
  mutable double last_stage_in_flight = 0;
  mutable int64_t last_stage_in_flight_m = 0;
};

struct Shard {
  double dense = 0;      // non-expert parameters on this GPU (after tp/pp split)
  double expert = 0;     // routed-expert parameters on this GPU (after ep/etp split)
  double max_layer = 0;  // largest single layer on this GPU (ZeRO-3 gather buffer)
  double gemm = 0;       // of dense + expert, the layers' linear weights: what FP8 GEMMs read
};

// Parameters held by one GPU of pipeline stage `stage` (the first holds the embedding, the last
// the output layer).
Shard stage_params(const Resolved& r, const ParamCounts& p, int64_t stage) {
  const ParallelSpec& par = r.s.parallel;
  Shard s;
  if (!p.from_shape) {
    s.dense = p.total / double(par.tp * par.pp);
    s.max_layer = 0;  // size-only: layer sizes unknown, so no ZeRO-3 gather buffer is counted
    s.gemm = s.dense;  // and every parameter counts as a linear weight
    return s;
  }
  const ModelSpec& m = r.m;
  const double tp = double(par.tp);
  const double layers = stage_layers(r, stage);
  const double moe_share = m.layers > 0 ? double(p.moe_layers) / double(m.layers) : 0;
  const double attn = p.attention_per_layer / tp + p.norm_per_layer;
  double dense_layer = attn + p.mlp_per_dense_layer / tp;
  double moe_dense_part = attn, moe_expert_part = 0;
  if (m.is_moe()) {
    const double shared = p.moe_per_layer - m.experts * p.expert_params - p.router_per_layer;
    moe_dense_part += shared / tp + p.router_per_layer;
    moe_expert_part = double(m.experts) / double(par.ep) * p.expert_params / double(r.etp);
  }
  s.dense = layers * ((1 - moe_share) * dense_layer + moe_share * moe_dense_part);
  s.expert = layers * moe_share * moe_expert_part;
  // The norms and the router stay out of the linear weights; the output layer too (Megatron's
  // is a plain ColumnParallelLinear, run in 16 bits).
  const double norms_router = m.is_moe() ? moe_share * p.router_per_layer : 0;
  s.gemm = s.dense - layers * (p.norm_per_layer + norms_router) + s.expert;
  s.max_layer = std::max(dense_layer, m.is_moe() ? moe_dense_part + moe_expert_part : 0.0);
  // model.params overrides the shape's count: scale the shards so N is the same everywhere.
  const double scale = m.params_override > 0 ? p.total / (p.non_embedding + p.embedding) : 1.0;
  const double V = double(m.vocab), h = double(m.hidden);
  const double pos = m.position == PositionKind::learned ? double(m.max_positions) * h : 0;
  const bool first_stage = stage == 0, last_stage = stage == par.pp - 1;
  if (first_stage) s.dense += (V * h + pos) / tp;
  // The output layer lives on the last stage; tied embeddings need a copy there when pp > 1.
  if (last_stage && (!m.tied_embeddings || par.pp > 1)) s.dense += V * h / tp;
  if (last_stage) s.dense += m.norm == NormKind::layernorm ? 2 * h : h;
  s.dense *= scale;
  s.expert *= scale;
  s.max_layer *= scale;
  s.gemm *= scale;
  return s;
}

// FP8 recipes (Transformer Engine's, the one step_ops.cpp times) save each FP8 GEMM's input for
// its weight gradient as the FP8 copy the forward made, one byte per element: the norms' FP8
// outputs (LayerNormLinear, LayerNormMLP), the out-projection's input, the activation's output
// (fc2's input) and the experts' permuted inputs. What other kernels read in backward stays
// 16-bit: norm inputs, Q, K, V and flash attention's O, the GeLU/SwiGLU inputs
// (NVIDIA/TransformerEngine pytorch/module/linear.py, layernorm_mlp.py: save_for_backward).
// torchao's Float8Linear, PyTorch's own (eager, torchtitan), saves the 16-bit input instead
// (torchao/float8/float8_linear.py, matmul_with_hp_or_float8_args).
bool saves_fp8_gemm_inputs(const Resolved& r) { return r.compute_dtype == Dtype::fp8 && r.s.training.fused_elementwise; }

// Bytes one layer stores for backward, for one micro-batch of b sequences, with no recompute.
// Korthikanti et al. 2022 Table 2 term by term; for a GPT layer (MHA, GeLU f = 4h, dropout,
// 16-bit, no flash, t = 1) this is s·b·h·(34 + 5·a·s/h).
double layer_activation_bytes(const Resolved& r, int64_t b, bool moe_layer) {
  const ModelSpec& m = r.m;
  const ParallelSpec& par = r.s.parallel;
  const TrainingSpec& ts = r.s.training;
  const double e = activation_bytes(r);
  const double t = double(par.tp);
  const double rep = ts.sequence_parallel ? t : 1.0;  // tensors outside tp regions: split by SP only
  const double s = double(ts.seq_len), sl = s / double(par.cp), h = double(m.hidden);
  const double a = double(m.heads), kv = double(m.kv_heads);
  const double tok = sl * double(b);
  const double mask = m.dropout ? 1.0 : 0.0;  // dropout masks are 1 byte per element
  const double d_qk = double(m.head_dim);
  const double d_v = m.attention == AttentionKind::mla ? double(m.v_head_dim) : double(m.head_dim);
  // PyTorch eager (training.fused_elementwise = false), as the Llama reference code, Hugging Face
  // Llama and torchtitan's "rmsnorm" write the layer: RMSNorm keeps x.float() (fp32) and, for the
  // weight's gradient, the normalised 16-bit tensor it multiplies (not with LoRA: frozen norms),
  // where a fused norm keeps its 16-bit input; SwiGLU keeps silu(x₁) beside x₁, x₃ and the
  // product; repeat_kv hands SDPA K and V copied out to every query head, and SDPA keeps those
  // copies instead of the kv-head ones; without flash attention, softmax(scores.float()) keeps
  // its fp32 output beside the 16-bit copy the PV matmul keeps. Not modelled: eager MLA latent
  // norms, and code-specific fp32 copies in MoE routing (torchtitan's routed tokens).
  const bool eager = !ts.fused_elementwise;
  // PyTorch's math SDPA (training.unfused_attention) works in fp32 and saves its own tensors:
  // the scaled fp32 Q, K and V repeated out to every query head, and _safe_softmax's result,
  // the only score-sized tensor autograd keeps (the PV matmul saves the same one).
  const bool sdpa_math = runs_sdpa_math(ts.flash_attention, ts.unfused_attention);
  const bool fp8 = saves_fp8_gemm_inputs(r);
  const double gin = fp8 ? 1.0 : e;  // a saved GEMM input
  // Selective recompute discards what its modules re-run in backward (RecomputeModule).
  const uint32_t rec = r.recompute_modules;
  const double norm_out = rec & kRecomputeLayernorm ? 0 : gin;  // a pre-norm's output: the next GEMM's input
  const double norm_bytes = eager && m.norm == NormKind::rmsnorm ? 4 + (ts.finetune == Finetune::lora ? 0 : e) : e;

  double bytes = double(m.norms_per_layer) * norm_bytes * tok * h / rep;  // norm inputs
  bytes += norm_out * tok * h / rep;                             // QKV GEMM input
  if (m.attention == AttentionKind::mla) {
    bytes += (e + gin) * tok * double(m.q_lora_rank + m.kv_lora_rank + m.qk_rope_head_dim);  // latents: norm + up-proj inputs
    if (!(rec & kRecomputeMlaUpProj)) bytes += e * tok * a * (2 * d_qk + d_v) / t;        // Q, K, V per head
  } else if (sdpa_math) {
    bytes += 4 * tok * a * (2 * d_qk + d_v) / t;  // fp32 scaled Q, and K and V repeated out to every query head
  } else {
    bytes += e * tok * (a * d_qk + kv * d_qk + kv * d_v) / t;  // Q, K, V
    if (eager && kv < a) bytes += e * tok * (a - kv) * (d_qk + d_v) / t;  // repeat_kv's copies
  }
  if (ts.flash_attention) {
    bytes += 4 * tok * a / t;  // softmax log-sum-exp (fp32); the output O is the out-proj input below
  } else if (!(rec & kRecomputeCoreAttn)) {
    const double scores = a / t * double(b) * sl * s;  // this rank's query rows × all keys
    // Softmax out (+ dropout mask and output); the math SDPA's are fp32.
    const double per_score = sdpa_math ? 4 + mask * (1 + 4) : (eager ? 4 + e : e) + mask * (1 + e);
    bytes += per_score * scores;
  }
  // The out-projection's input; flash attention's backward reads the same O in 16 bits, which an
  // FP8 recipe keeps beside its FP8 copy.
  const double o_bytes = !fp8 ? e : ts.flash_attention ? e + gin : gin;
  bytes += o_bytes * tok * a * d_v / t;
  bytes += mask * tok * h / rep;   // attention dropout mask
  bytes += norm_out * tok * h / rep;  // MLP input
  // GeLU in/out, or gate, up, (silu,) product: the last is fc2's input.
  const double act_mats = m.mlp == MlpKind::gelu ? 2 : eager ? 4 : 3;
  const double act_bytes = (act_mats - 1) * e + gin;  // per element of the ffn width
  if (moe_layer) {
    bytes += 4 * tok * double(m.experts) / rep;  // router logits (fp32)
    // This rank's expert rows: tok·top_k·etp/tp token copies (step_ops.cpp), each saving its
    // permuted input (h) and the activation matrices of its ffn/etp shard.
    const double rows = double(m.top_k) * tok * double(r.etp) / t;
    const double expert_act_bytes = rec & kRecomputeMoeAct ? act_bytes - gin : act_bytes;  // moe_act re-runs fc2's input
    bytes += rows * (gin * h + expert_act_bytes * double(m.expert_ffn_hidden) / double(r.etp));
    if (m.shared_expert_ffn_hidden > 0) bytes += act_bytes * tok * double(m.shared_expert_ffn_hidden) / t;
  } else {
    bytes += act_bytes * tok * double(m.ffn_hidden) / t;
  }
  bytes += mask * tok * h / rep;  // MLP dropout mask
  return bytes;
}

// Micro-batches whose activations pipeline stage i holds at its peak. AFAB, 1F1B: the warm-up
// forwards before the stage's first backward, plus the one in flight. Interleaved (Megatron-LM):
// stage i runs W = 2(p − i − 1) + (v − 1)·p chunk forwards first, then alternates one forward
// and one backward; forwards go p micro-batches through chunk 0, the same p through chunk 1, …,
// then the next p; backwards take the chunks in reverse. With even chunks (L/v layers each) the
// stage holds W + 1 chunks from the first backward on: p + (p − 1 − 2i)/v micro-batches. When an
// end stage gave up layers (stage_layers), the first stage's come out of its first chunks and the
// last stage's out of its last ones, so with pp·v − 2 layers the first chunk holds only the
// embedding and the last only the output layer and loss (Llama 3 §3.3.2); what such a stage
// holds then varies as it alternates, and its peak is taken over the steady state. Returned in
// micro-batches of the whole stage: layer-micro-batches ÷ L.
double in_flight(const Resolved& r, const Knobs& k, int64_t stage) {
  const ParallelSpec& par = r.s.parallel;
  const double p = double(par.pp), m = double(k.m), i = double(stage), v = double(par.virtual_stages);
  if (par.pp == 1) return 1;
  switch (par.schedule) {
    case Schedule::afab: return m;  // GPipe: every forward before any backward
    case Schedule::one_f_one_b:
    case Schedule::zero_bubble: return std::min(p - i, m);  // ZB-H1 keeps 1F1B's peak (Qi et al. 2023)
    case Schedule::interleaved: break;
  }
  const int64_t chunks = par.virtual_stages, group = std::min(par.pp, k.m), period = group * chunks;
  const int64_t passes = k.m * chunks, warm = chunks * par.pp - par.pp + 2 * (par.pp - 1 - stage);
  if (warm + 1 >= passes) return m;  // every forward before the first backward
  const double L = stage_layers(r, stage), given_up = double(r.layers_per_stage) - L;
  if (L <= 0 || given_up <= 0) return double(warm + 1) / v;
  // Counted in 1/v-layer units, so that sums of chunks stay exact integers: units in chunks
  // 0 … j − 1 (forward order) and in the last j chunks (backward order).
  const int64_t stage_units = int64_t(L) * chunks;
  auto first_chunks = [&](int64_t j) { return first_chunks_units(r.layers_per_stage, chunks, int64_t(given_up), stage == 0, j); };
  auto last_chunks = [&](int64_t j) { return stage_units - first_chunks(chunks - j); };
  // Units of the first n forwards (fwd) or backwards: whole periods, whole groups, one partial.
  auto units_of = [&](bool fwd, int64_t n) {
    const int64_t rest = n % period, j = rest / group;
    const int64_t before = fwd ? first_chunks(j) : last_chunks(j);
    const int64_t next = (fwd ? first_chunks(j + 1) : last_chunks(j + 1)) - before;
    return n / period * group * stage_units + group * before + rest % group * next;
  };
  // The first stage's smaller chunks are its first: over any stretch of one period its backwards
  // (largest chunks first) free at least what its forwards add, so its peak is at its first
  // backward.
  if (stage == 0) return double(units_of(true, warm + 1)) / double(stage_units);
  // The last stage: after forward warm + t and backward t − 1 it holds an amount linear in t
  // between the group boundaries of either order, and periodic, so its largest value is at a
  // boundary within one period.
  const int64_t steps = std::min(passes - warm, period);
  int64_t peak = 0;
  auto at = [&](int64_t t) {
    if (t >= 0 && t < steps) peak = std::max(peak, units_of(true, warm + t + 1) - units_of(false, t));
  };
  for (int64_t b = 0; b <= chunks; ++b)
    for (int64_t d = -1; d <= 1; ++d) {
      at(b * group + d);
      if (warm % group) at(b * group - warm % group + d);
    }
  at(steps - 1);
  return double(peak) / double(stage_units);
}

struct StageMemory {
  MemoryPerGpu mem;
  HeldParams held;
};

// What one layer stores per micro-batch: the same on every stage, so computed once per peak.
struct LayerActivations {
  double full_layer = 0;    // no recompute (selective drops the s² scores)
  double checkpoint = 0;    // the layer input, all full recompute keeps
  double selective_op = 0;  // what torchtitan's per-op policy keeps (selective_op_layer_bytes)
};

// Bytes a dense layer keeps under torchtitan's per-op policy (step_ops.cpp, Layer): the block's
// input, the outputs of the matmuls it saves (wq, wv, w1, and w2 after a gated MLP's w3; a GeLU
// MLP's w2 is the 6th matmul, neither saved nor re-run), of fused SDPA (O and the fp32
// log-sum-exp) and, with sequence parallelism, of the two reduce-scatters (its save list holds
// them). w2's output is the row-parallel partial sum, T × h on every tp rank; the others are
// split like their layers.
double selective_op_layer_bytes(const Resolved& r, int64_t b) {
  const ModelSpec& m = r.m;
  const TrainingSpec& ts = r.s.training;
  const ParallelSpec& par = r.s.parallel;
  const double e = activation_bytes(r), t = double(par.tp), rep = ts.sequence_parallel ? t : 1.0;
  const double tok = double(ts.seq_len) / double(par.cp) * double(b), h = double(m.hidden);
  const double qd = double(m.heads) * double(m.head_dim), kvd = double(m.kv_heads) * double(m.head_dim);
  double bytes = e * tok * h / rep;                 // block input
  bytes += e * tok * (qd + kvd) / t;                // wq, wv outputs
  if (ts.flash_attention) bytes += e * tok * qd / t + 4 * tok * double(m.heads) / t;  // O, log-sum-exp
  bytes += e * tok * double(m.ffn_hidden) / t;     // w1 output
  if (m.mlp != MlpKind::gelu) bytes += e * tok * h;  // w2 output (saved, though backward never reads it)
  if (ts.sequence_parallel && par.tp > 1) bytes += 2 * e * tok * h / t;  // after wo and w2
  return bytes;
}

LayerActivations layer_activations(const Resolved& r, const ParamCounts& p, int64_t b) {
  const ModelSpec& m = r.m;
  const TrainingSpec& ts = r.s.training;
  LayerActivations a;
  if (!m.has_shape()) return a;
  const double dense_layer = layer_activation_bytes(r, b, false);
  const double moe_layer = m.is_moe() ? layer_activation_bytes(r, b, true) : 0;
  const double moe_share = double(p.moe_layers) / double(m.layers);
  a.full_layer = (1 - moe_share) * dense_layer + moe_share * moe_layer;
  const double rep = ts.sequence_parallel ? double(r.s.parallel.tp) : 1.0;
  a.checkpoint = activation_bytes(r) * double(ts.seq_len) / double(r.s.parallel.cp) * double(b) * double(m.hidden) / rep;
  if (ts.recompute == Recompute::selective_op) a.selective_op = selective_op_layer_bytes(r, b);
  return a;
}

StageMemory stage_memory(const Resolved& r, const ParamCounts& p, int64_t stage, const Knobs& k, const LayerActivations& act, Trace* t) {
  const int64_t b = k.b;
  const TrainingSpec& ts = r.s.training;
  const ParallelSpec& par = r.s.parallel;
  const HardwareSpec& hw = r.s.hardware;
  const ModelSpec& m = r.m;
  Trace scratch(false);
  Trace& tr = t ? *t : scratch;
  StageMemory out;
  MemoryPerGpu& mem = out.mem;
  const Shard sh = stage_params(r, p, stage);
  out.held = {sh.dense + sh.expert, sh.gemm};

  const double d = ts.zero_shard_group > 0 ? double(ts.zero_shard_group) : double(k.dp * par.cp);
  const double de = std::max(1.0, double(par.tp * par.cp * k.dp) / double(par.ep * r.etp));
  const double d_experts = ts.zero_shard_group > 0 ? std::min(de, double(ts.zero_shard_group)) : de;
  const int z = ts.zero_stage;
  auto shard = [&](double dense, double expert, int from_stage) {
    return z >= from_stage ? dense / d + expert / d_experts : dense + expert;
  };
  const double wb = bytes_of(r.weight_dtype), gb = bytes_of(r.grad_dtype), sb = bytes_of(r.optimizer_state_dtype);

  // Trainable parameters on this GPU: everything, or the LoRA adapters (split like the layers).
  double tr_dense = sh.dense, tr_expert = sh.expert;
  const bool lora = ts.finetune == Finetune::lora;
  if (lora) {
    tr_dense = p.trainable / double(par.tp * par.pp);
    tr_expert = 0;
  }
  const double local_params = shard(sh.dense, sh.expert, 3);
  const double local_gemm = shard(sh.gemm - sh.expert, sh.expert, 3);
  const double fp8_extra = fp8_weight_extra_bytes(r);
  mem.weights_bytes = tr.add("memory.per_gpu.weights_bytes",
                             "params_local / (dp under ZeRO-3) × bytes_per_param (+ LoRA adapters) + linear_weights_local × fp8_extra_bytes", "bytes",
                             "seed 001 (4/2/1 bytes per param); ZeRO-3 shards parameters (Rajbhandari et al. 2020); FP8 copies: Transformer Engine's weight workspaces",
                             (local_params + (lora ? tr_dense : 0)) * wb + local_gemm * fp8_extra,
                             {{"params_local", sh.dense + sh.expert}, {"bytes_per_param", wb}, {"zero_stage", double(z)}, {"dp_shard", d},
                              {"linear_weights_local", local_gemm}, {"fp8_extra_bytes", fp8_extra}});
  // Autocast's 16-bit weight copies live for a forward and its backward, like activations: each
  // micro-batch in flight holds its own. They cover the output layer too (last stage: V × h / tp).
  const double amp_copy = amp_weight_copy_bytes(r);
  const double head_local = stage == par.pp - 1 ? double(m.vocab) * double(m.hidden) / double(par.tp) : 0.0;
  const double autocast_weights = amp_copy > 0 ? local_gemm + head_local : 0.0;
  const double stages_grad_bytes = gb + (ts.grad_fp32_accum_buffer ? 4.0 : 0.0);
  // ZeRO-2/3 keep only their shard of the gradients when they reduce after every micro-batch; one
  // reduction per step of several micro-batches means each GPU accumulates the whole gradient.
  const bool accumulate_whole = k.m > 1 && !r.grad_reduce_per_micro_batch;
  const double grads_local = accumulate_whole ? tr_dense + tr_expert : shard(tr_dense, tr_expert, 2);
  mem.gradients_bytes = tr.add("memory.per_gpu.gradients_bytes",
                               "trainable_local / (dp under ZeRO-2+, unless m > 1 micro-batches accumulate before one reduction) × (grad_bytes + 4 if fp32 accumulation buffer)",
                               "bytes", "seed 001 (same dtype as params); seed 004 (fp32 grads: 20Ψ recipe); ZeRO-2; training.grad_reduce",
                               grads_local * stages_grad_bytes,
                               {{"trainable_local", tr_dense + tr_expert}, {"grad_bytes", stages_grad_bytes}, {"dp_shard", d},
                                {"micro_batches", double(k.m)}, {"reduce_every_micro_batch", r.grad_reduce_per_micro_batch ? 1.0 : 0.0}});
  double states = 0, state_bytes = sb;
  switch (ts.optimizer) {
    case Optimizer::adamw: states = 2; break;          // m, v
    case Optimizer::adam8bit: states = 2; state_bytes = 1; break;  // bitsandbytes: 1 byte each (block scales ≈ 0.2%)
    case Optimizer::sgd_momentum: states = 1; break;
    case Optimizer::lion: states = 1; break;           // momentum only (Chen et al. 2023)
    case Optimizer::adafactor:
      // Factored second moment: a row and a column vector per matrix ≈ 2/h of the parameters
      // (Shazeer & Stern 2018), no first moment by default.
      states = m.has_shape() ? 2.0 / double(m.hidden) : 0.0;
      break;
  }
  const double opt_params = shard(tr_dense, tr_expert, 1);
  mem.master_weights_bytes = tr.add("memory.per_gpu.master_weights_bytes", "trainable_local / (dp under ZeRO-1+) × 4 (fp32 master copy)", "bytes",
                                    "mixed precision (Micikevicius et al. 2018); seed 001 counts it in the optimizer", r.master_weights ? opt_params * 4 : 0,
                                    {{"trainable_local_sharded", opt_params}, {"master", r.master_weights ? 1.0 : 0.0}});
  const double opt_states = opt_params * states * state_bytes;
  mem.optimizer_bytes = tr.add("memory.per_gpu.optimizer_bytes", "master_weights + trainable_local_sharded × states × state_bytes", "bytes",
                               "seed 001: AdamW 12, 8-bit Adam 6, SGD+momentum 8 bytes/param; ZeRO-1 shards them",
                               mem.master_weights_bytes + opt_states,
                               {{"master_weights", mem.master_weights_bytes}, {"trainable_local_sharded", opt_params}, {"states", states}, {"state_bytes", state_bytes}});
  if (ts.cpu_offload_optimizer) {
    mem.cpu_offload_bytes = mem.optimizer_bytes;
    mem.optimizer_bytes = tr.add("memory.per_gpu.optimizer_bytes", "0 on the GPU: optimizer states and master weights offloaded to host memory", "bytes",
                                 "ZeRO-Offload (Ren et al. 2021)", 0, {{"cpu_bytes", mem.cpu_offload_bytes}});
  }
  // A frozen reference model (DPO) in the weight dtype; with LoRA the base model is the reference.
  mem.reference_model_bytes = tr.add("memory.per_gpu.reference_model_bytes", "params_local / (dp under ZeRO-3) × bytes_per_param if a reference model is kept", "bytes",
                                     "seed 000 (reference model N×P, after the DPO blog); LoRA reuses the base", ts.reference_model && !lora ? local_params * wb : 0,
                                     {{"params_local", local_params}, {"bytes_per_param", wb}});
  const double gather = z >= 3 && d > 1 ? 2 * sh.max_layer * wb : 0;  // the layer in use + the prefetched one (FSDP)
  mem.model_states_bytes = tr.add("memory.per_gpu.model_states_bytes", "weights + gradients + optimizer + reference + ZeRO-3 gather buffers", "bytes",
                                  "ZeRO paper's 'model states'", mem.weights_bytes + mem.gradients_bytes + mem.optimizer_bytes + mem.reference_model_bytes + gather,
                                  {{"weights", mem.weights_bytes}, {"gradients", mem.gradients_bytes}, {"optimizer", mem.optimizer_bytes},
                                   {"reference", mem.reference_model_bytes}, {"gather_buffers", gather}});

  // Activations.
  if (m.has_shape()) {
    const double full_layer = act.full_layer, checkpoint = act.checkpoint;
    mem.activations_per_layer_bytes = tr.add("memory.per_gpu.activations_per_layer_bytes",
                                             "Korthikanti 2022 per-layer terms (GPT: s·b·h·(34 + 5·a·s/h)), divided by t (tp regions), t with SP, cp (sequence); "
                                             "saved GEMM inputs in 1 byte under FP8; less what selective recompute's modules re-run; "
                                             "PyTorch's math SDPA keeps 4 bytes per score and fp32 Q, K, V for every query head",
                                             "bytes", "Korthikanti et al. 2022 Table 2 (seed 004 drops the s in 5·a·s/h); Transformer Engine (FP8); Megatron-core --recompute-modules; "
                                             "PyTorch aten attention.cpp (_scaled_dot_product_attention_math)", full_layer,
                                             {{"s", double(ts.seq_len)}, {"b", double(b)}, {"h", double(m.hidden)}, {"a", double(m.heads)},
                                              {"t", double(par.tp)}, {"cp", double(par.cp)}, {"flash", ts.flash_attention ? 1.0 : 0.0},
                                              {"sdpa_math", runs_sdpa_math(ts.flash_attention, ts.unfused_attention) ? 1.0 : 0.0},
                                              {"fp8_saved_inputs", saves_fp8_gemm_inputs(r) ? 1.0 : 0.0},
                                              {"recompute_layernorm", r.recompute_modules & kRecomputeLayernorm ? 1.0 : 0.0},
                                              {"recompute_mla_up_proj", r.recompute_modules & kRecomputeMlaUpProj ? 1.0 : 0.0},
                                              {"recompute_moe_act", r.recompute_modules & kRecomputeMoeAct ? 1.0 : 0.0}});
    const double L = stage_layers(r, stage);
    double per_micro = L * full_layer, working = 0;
    if (ts.recompute == Recompute::full && L > 0) {
      const double k = ts.recompute_layers > 0 ? std::min(double(ts.recompute_layers), L) : L;
      per_micro = k * checkpoint + (L - k) * full_layer;
      working = full_layer;  // the layer being recomputed during backward
    } else if (ts.recompute == Recompute::selective_op && L > 0) {
      per_micro = L * act.selective_op;
      working = full_layer;  // the layer whose re-runs are live during its backward
    }
    const bool last_stage = stage == par.pp - 1;
    if (last_stage && k.last_stage_in_flight_m != k.m) k.last_stage_in_flight = in_flight(r, k, stage), k.last_stage_in_flight_m = k.m;
    const double flights = last_stage ? k.last_stage_in_flight : in_flight(r, k, stage);
    mem.in_flight_micro_batches = static_cast<int64_t>(std::ceil(flights));
    const double autocast = autocast_weights * amp_copy;
    mem.activations_bytes = tr.add("memory.per_gpu.activations_bytes",
                                   "in_flight × (stored_per_micro_batch + autocast_weights × amp_copy_bytes) + recompute working layer (on the peak stage i)", "bytes",
                                   "Korthikanti et al. 2022 §4-5; in-flight micro-batches on stage i: AFAB m, 1F1B min(p − i, m), interleaved p + (p − 1 − 2i)/v with even chunks (docs/formulas.md, Interleaved chunks); "
                                   "torch.autocast's cached 16-bit weight copies (docs/formulas.md, Autocast)",
                                   flights * (per_micro + autocast) + working,
                                   {{"in_flight", flights}, {"stage", double(stage)}, {"layers_on_stage", L}, {"stored_per_micro_batch", per_micro}, {"working_layer", working},
                                    {"autocast_weights", autocast_weights}, {"amp_copy_bytes", amp_copy}});
    // Megatron's vocab-parallel cross-entropy (and other fused losses) holds the 16-bit logits
    // and one fp32 copy: e + 4 bytes per logit. PyTorch eager F.cross_entropy(logits.float())
    // saves log-softmax's fp32 output; the loss's backward then allocates the fp32 gradients of
    // that output and of its input while it lives, with every layer's activations still held:
    // 12 bytes per logit (measured: docs/measurements/README.md, "Ground truth").
    const double per_logit = ts.fused_elementwise ? activation_bytes(r) + 4 : 12.0;
    const double logits = last_stage ? per_logit * double(ts.seq_len) / double(par.cp) * double(b) * double(m.vocab) / double(par.tp) : 0;
    mem.logits_bytes = tr.add("memory.per_gpu.logits_bytes",
                              "bytes_per_logit × s/cp × b × V / t on the last stage (fused loss: act_bytes + 4, logits + fp32 copy; "
                              "eager: 12, fp32 log-softmax output + its gradient + its input's gradient)", "bytes",
                              "cross-entropy upcasts logits to fp32 (Megatron vocab-parallel loss; PyTorch eager measured on H100)", logits,
                              {{"s", double(ts.seq_len)}, {"b", double(b)}, {"V", double(m.vocab)}, {"t", double(par.tp)}, {"bytes_per_logit", per_logit}});
  }
  int groups = 0;
  for (int64_t g : {par.tp, par.pp, k.dp * par.cp, par.cp, par.ep}) groups += g > 1 ? 1 : 0;
  mem.comm_buffers_bytes = tr.add("memory.per_gpu.comm_buffers_bytes", "0.25 GiB × active process groups (tp, pp, dp, cp, ep)", "bytes",
                                  "assumption: NCCL channel buffers (NCCL_BUFFSIZE 4 MiB × 2 × up to 32 channels)", 0.25 * kGiB * groups,
                                  {{"groups", double(groups)}});
  mem.cuda_context_bytes = tr.add("memory.per_gpu.cuda_context_bytes", "hardware.cuda_context_gib × 2^30", "bytes",
                                  "assumption: CUDA context + cuBLAS/cuDNN kernels with lazy loading", hw.cuda_context_gib * kGiB,
                                  {{"cuda_context_gib", hw.cuda_context_gib}});
  const double allocated = mem.model_states_bytes + mem.activations_bytes + mem.logits_bytes + mem.comm_buffers_bytes;
  mem.fragmentation_bytes = tr.add("memory.per_gpu.fragmentation_bytes", "fragmentation_fraction × allocated", "bytes",
                                   "assumption: PyTorch caching allocator reserves ~5% beyond allocated", hw.fragmentation_fraction * allocated,
                                   {{"fragmentation_fraction", hw.fragmentation_fraction}, {"allocated", allocated}});
  mem.total_bytes = tr.add("memory.per_gpu.total_bytes", "model_states + activations + logits + comm_buffers + cuda_context + fragmentation", "bytes",
                           "sum", allocated + mem.cuda_context_bytes + mem.fragmentation_bytes,
                           {{"model_states", mem.model_states_bytes}, {"activations", mem.activations_bytes}, {"logits", mem.logits_bytes}});
  // A measured profile knows what the GPU really offers: what cudaMemGetInfo left free after the
  // bench's CUDA context (H100 80GB: 78.7 GiB), plus the context llmcalc counts in the total.
  const double usable = hw.profile ? hw.profile->usable_memory_bytes : 0.0;
  mem.capacity_bytes = tr.add("memory.per_gpu.capacity_bytes",
                              usable > 0 ? "profile usable_memory_bytes + cuda_context" : "gpu.memory_gib × 2^30", "bytes",
                              usable > 0 ? "measured free memory on an idle GPU (hardware profile)" : "datasheet memory size",
                              usable > 0 ? usable + mem.cuda_context_bytes : hw.gpu.memory_gib * kGiB,
                              {{"memory_gib", hw.gpu.memory_gib}, {"usable_memory_bytes", usable}, {"cuda_context", mem.cuda_context_bytes}});
  mem.headroom_bytes = mem.capacity_bytes - mem.total_bytes;
  return out;
}

MemoryPerGpu peak_memory(const Resolved& r, const ParamCounts& p, const Knobs& b, Trace* t, HeldParams* held) {
  // The first stage holds the embedding and the most in-flight micro-batches; the last holds the
  // output layer and logits. When the end stages give up layers (stage_layers), the second
  // stage, a full one with one micro-batch fewer in flight, can hold more than the first.
  // Report the largest (with pp = 1 they are the same GPU).
  const int64_t pp = r.s.parallel.pp;
  const LayerActivations act = layer_activations(r, p, b.b);
  if (pp == 1) {
    StageMemory s = stage_memory(r, p, 0, b, act, t);
    if (held) *held = s.held;
    return s.mem;
  }
  // The candidates silently, then the peak one again with its terms: cheaper than recording all
  // and keeping one.
  int64_t peak_stage = 0;
  StageMemory peak = stage_memory(r, p, 0, b, act, nullptr);
  auto consider = [&](int64_t stage) {
    StageMemory s = stage_memory(r, p, stage, b, act, nullptr);
    if (s.mem.total_bytes > peak.mem.total_bytes) peak = std::move(s), peak_stage = stage;
  };
  if (pp > 2 && stage_layers(r, 0) < double(r.layers_per_stage)) consider(1);
  consider(pp - 1);
  if (held) *held = peak.held;
  if (t) return stage_memory(r, p, peak_stage, b, act, t).mem;
  return peak.mem;
}

}  // namespace

MemoryPerGpu memory_per_gpu(const Resolved& r, const ParamCounts& p, Trace* t, HeldParams* held) {
  return peak_memory(r, p, Knobs{r.s.training.micro_batch, r.micro_batches, r.s.parallel.dp}, t, held);
}

int64_t max_micro_batch_that_fits(const Resolved& r, const ParamCounts& p, bool current_fits) {
  // Micro-batches must divide the per-replica batch and, interleaved, leave a multiple of pp of
  // them (resolve()). While there are several, memory grows with b for every schedule
  // (b·in_flight is b·min(p, n/b), b·n/b or b), so bisect over those divisors. When ZeRO-2/3
  // gradients are reduced once per step (training.grad_reduce) they are held whole while several
  // micro-batches accumulate and sharded with one, so a single micro-batch (b = n) can need less
  // than the others: it is tried on its own first.
  const ParallelSpec& par = r.s.parallel;
  const int64_t per_replica = r.s.training.global_batch_seqs / par.dp;
  auto allowed = [&](int64_t b) { return par.schedule != Schedule::interleaved || (per_replica / b) % par.pp == 0; };
  std::vector<int64_t> divisors, upper;
  for (int64_t d = 1; d * d <= per_replica; ++d) {
    if (per_replica % d) continue;
    if (allowed(d)) divisors.push_back(d);
    if (d != per_replica / d && allowed(per_replica / d)) upper.push_back(per_replica / d);
  }
  divisors.insert(divisors.end(), upper.rbegin(), upper.rend());
  auto fits = [&](int64_t b) { return peak_memory(r, p, Knobs{b, per_replica / b, par.dp}, nullptr, nullptr).headroom_bytes >= 0; };
  const int64_t own = r.s.training.micro_batch;
  const bool single_holds_less = r.s.training.zero_stage >= 2 && !r.grad_reduce_per_micro_batch;
  if (single_holds_less && !divisors.empty() && divisors.back() == per_replica) {
    if (own == per_replica ? current_fits : fits(per_replica)) return per_replica;
    divisors.pop_back();
  }
  // The scenario's own micro-batch was just evaluated: start the bracket there.
  const size_t at = size_t(std::find(divisors.begin(), divisors.end(), own) - divisors.begin());
  size_t lo = 0, hi = divisors.size();  // fits(divisors[lo]) holds; divisors[hi] is out of range
  if (at < divisors.size()) {
    if (current_fits) lo = at;
    else hi = at;
  }
  const bool lo_known = current_fits && at < divisors.size();
  if (hi == 0 || (!lo_known && !fits(divisors[lo]))) return 0;
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    (fits(divisors[mid]) ? lo : hi) = mid;
  }
  return divisors[lo];
}

int64_t min_gpus_that_fit(const Resolved& r, const ParamCounts& p) {
  // Keep tp, pp, cp, ep and the ZeRO stage; grow dp. Memory never grows with dp, so the first dp
  // that fits is the answer.
  Knobs k{r.s.training.micro_batch, r.micro_batches, 1};
  auto total = [&](int64_t dp) {
    k.dp = dp;
    return peak_memory(r, p, k, nullptr, nullptr);
  };
  auto fits = [&](int64_t dp) { return total(dp).headroom_bytes >= 0; };
  auto divisible = [&](int64_t dp) { return (r.s.parallel.tp * r.s.parallel.cp * dp) % (r.etp * r.s.parallel.ep) == 0; };
  int64_t hi = 1;
  if (!fits(1)) {
    // For dp ≥ 2 memory is A + B/dp exactly (ZeRO shards B; comm buffers, context and
    // fragmentation do not depend on dp), so two evaluations give the answer; a few more confirm it.
    const MemoryPerGpu m2 = total(2), m4 = total(4);
    const double b = 4 * (m2.total_bytes - m4.total_bytes), a = m4.total_bytes - b / 4, room = m2.capacity_bytes - a;
    if (b <= 0 || room <= 0) {
      if (m4.headroom_bytes < 0) return 0;  // more data parallelism does not shrink this layout
      hi = m2.headroom_bytes >= 0 ? 2 : fits(3) ? 3 : 4;
    } else {
      constexpr int64_t kMaxDp = int64_t(1) << 20;
      const double guess = std::ceil(b / room);
      if (guess > double(kMaxDp)) return 0;
      hi = std::max<int64_t>(2, static_cast<int64_t>(guess));
      // Confirm: the guess fits and one less does not. With pp > 1 the peak is the larger of two
      // stages, so the guess can be off; then bracket by doubling and bisect.
      int64_t lo = 1;
      if (fits(hi)) {
        if (hi > 2 && fits(hi - 1)) hi = hi - 1;
        else lo = hi - 1;
      } else {
        lo = hi;
        while (!fits(hi)) {
          lo = hi;
          hi *= 2;
          if (hi > kMaxDp) return 0;
        }
      }
      while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? hi : lo) = mid;
      }
    }
  }
  // Round up to a dp the expert layout accepts (memory only shrinks, so it still fits).
  while (!divisible(hi)) ++hi;
  return hi * r.s.parallel.tp * r.s.parallel.pp * r.s.parallel.cp;
}

// Transformer Engine casts each linear weight to FP8 on a step's first micro-batch and keeps the
// copy for the others (is_first_microbatch, which Megatron-core passes), with its transpose: the
// backward's dgrad GEMM reads the weight the other way round and Hopper's FP8 tensor cores take
// only the TN layout. That is 2 bytes per linear weight beside the 16-bit one. FP8 parameters
// (training.fp8_params) are that copy: the 16-bit weight goes, the transpose stays. Bytes per
// linear weight beyond weight_dtype; under ZeRO-3, TE shards the copies like the weights. A
// one-byte training.weight_dtype is taken as the whole storage, as seed 004's 10Ψ recipe counts.
double fp8_weight_extra_bytes(const Resolved& r) {
  const double wb = bytes_of(r.weight_dtype);
  if (!saves_fp8_gemm_inputs(r) || wb <= 1) return 0;
  return r.s.training.fp8_params ? 2.0 - wb : 2.0;
}

// torch.autocast: weights stored wider than a 16-bit compute dtype (fp32 weights with bf16 or
// fp16 compute, no separate master). Not the fp32 recipe (tf32 compute reads the fp32 weights),
// nor FP8 recipes (Transformer Engine casts once per step: fp8_weight_extra_bytes).
bool autocast_casts_weights(const Resolved& r) {
  const bool sixteen_bit = r.compute_dtype == Dtype::bf16 || r.compute_dtype == Dtype::fp16;
  return sixteen_bit && bytes_of(r.weight_dtype) > bytes_of(r.compute_dtype);
}

// Under autocast each linear's 16-bit copy is cached for the whole forward (and saved for
// backward without recompute), so the peak holds one per linear weight. FSDP / ZeRO-3 gathers its
// 16-bit copies into the gather buffers instead (counted there); Megatron-style recipes keep
// 16-bit weights beside an fp32 master and make no copy.
double amp_weight_copy_bytes(const Resolved& r) {
  return autocast_casts_weights(r) && r.s.training.zero_stage < 3 ? bytes_of(r.compute_dtype) : 0;
}

}  // namespace llmc::detail
