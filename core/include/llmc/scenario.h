// Scenario: everything the user says about a training run (model, training, parallel, hardware).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/model.h"
#include "llmc/result.h"

namespace llmc {

enum class Precision { fp32, bf16_mixed, fp16_mixed, fp8_mixed, bf16_pure };
enum class Optimizer { adamw, adam8bit, sgd_momentum, adafactor, lion };
// selective: Megatron-LM's (the attention core); full: whole layers; selective_op: torchtitan's
// per-op policy (saves attention and every odd matmul's output, recomputes the rest).
enum class Recompute { none, selective, full, selective_op };
// What selective recompute discards in forward and re-runs in backward, Megatron-core's
// --recompute-modules (bits of Resolved::recompute_modules): core_attn (its default, and all
// selective meant before), the two pre-norms (layernorm), MLA's up-projections (mla_up_proj) and
// the routed experts' activation function (moe_act).
enum RecomputeModule : uint32_t {
  kRecomputeCoreAttn = 1,
  kRecomputeLayernorm = 2,
  kRecomputeMlaUpProj = 4,
  kRecomputeMoeAct = 8
};
enum class Schedule { afab, one_f_one_b, interleaved, zero_bubble };
// How context parallelism exchanges attention's keys and values (Megatron-core --cp-comm-type):
// p2p, a ring passing K,V chunks while attention computes block by block (Liu et al. 2023); all_gather,
// K and V gathered from every rank before attention (Llama 3 §3.3.2); a2a, DeepSpeed-Ulysses's
// all-to-alls trading the sequence split for a head split around attention (Jacobs et al. 2023).
enum class CpMethod { p2p, all_gather, a2a };
// How ZeRO-1/2 hands the updated parameters back to every rank: one all-gather (Megatron-core,
// DeepSpeed, PyTorch's ZeroRedundancyOptimizer), or one broadcast from each rank of its shard, one
// after the other (InternEvo's HybridZeroOptimizer.broadcast_params): each pays a ring's latency.
enum class ParamGather { all_gather, broadcast };
// How the expert all-to-all moves a token's routed copies: alltoall sends one copy per routed
// expert to that expert's rank (NCCL all-to-all: Megatron-core's alltoall dispatcher, torchtitan);
// deepep sends it once to each node holding one of its experts, over the network to the rank of
// the same local index, which forwards it over NVLink to each rank there holding one (DeepEP's
// normal kernels; Megatron-core's flex dispatcher with DeepEP or HybridEP).
enum class EpDispatcher { alltoall, deepep };
// Which experts a token is routed to, for where its copies go: random, its top_k drawn evenly
// (within its model.moe_group_topk groups): a balanced learned router, or Megatron-core's forced
// balancing, which routes random logits; contiguous, top_k consecutive experts, token i taking
// experts i·top_k … i·top_k + top_k − 1 (mod experts): NeMo AutoModel's FakeBalancedGate.
enum class MoeRouting { random, contiguous };
// How tensor-parallel comm overlaps its GEMMs (parallel.tp_overlap): Transformer Engine's
// userbuffers (Megatron's --tp-comm-overlap) in both passes, or PyTorch's async TP, which fuses
// no backward reduce-scatter.
enum class TpOverlapMethod { userbuffers, async_tp };
enum class FlopsFormula { detailed, six_nd };
enum class Finetune { full, lora };
// The matrices LoRA adapts (PEFT target_modules): every linear layer of the blocks (all_linear,
// PEFT's "all-linear"; MoE: every expert), the attention projections q, k, v, o (attention), or
// q and v only (qv, the LoRA paper's and many recipes' choice).
enum class LoraTargets { all_linear, attention, qv };
// When data-parallel gradients are reduced over a step of m micro-batches. micro_batch: after every
// micro-batch's backward, into sharded gradients (DeepSpeed ZeRO-2/3, FSDP's default); step: once,
// after the last, the others accumulating the whole gradient locally (DDP no_sync, Megatron-LM,
// FSDP no_sync / set_requires_gradient_sync(False), PyTorch pipelining). auto: micro_batch under
// ZeRO-2/3, step under ZeRO-0/1.
enum class GradReduce { auto_, micro_batch, step };
// How the AdamW step runs: one fused kernel (apex/Transformer Engine FusedAdam, torch's
// fused=True) or torch.optim.AdamW's foreach chain of passes; auto: fused under fused element-wise
// kernels, foreach under PyTorch eager (torch's own default on CUDA).
enum class OptimizerKernel { auto_, fused, foreach };
// Whether a region of the step runs fused kernels (Transformer Engine, torch.compile) or PyTorch
// eager ops; auto: as training.fused_elementwise. training.fused_loss is the head's region (final
// norm and cross-entropy), which torchtitan compiles apart from the blocks or leaves eager.
// eager_16bit: eager F.cross_entropy on the 16-bit logits themselves, without .float().
enum class Fusion { auto_, fused, eager, eager_16bit };
// How the host issues the step's kernels (docs/formulas.md, "Host issue"): python, one at a time
// from PyTorch (eager ops, or torch.compile'd / Transformer Engine's fused modules); native, from a
// C++/CUDA loop (llm.c); cuda_graphs, replayed from captured graphs (Megatron's and NeMo's
// --enable-cuda-graph, torch.compile's reduce-overhead mode, JAX/XLA), which the host does not pace.
enum class KernelLaunch { python, native, cuda_graphs };
inline bool adamw_runs_foreach(OptimizerKernel k, bool fused_elementwise) {
  return k == OptimizerKernel::auto_ ? !fused_elementwise : k == OptimizerKernel::foreach;
}
// What computes attention without flash attention. matmul: batched GEMMs in the compute dtype and a
// softmax (Megatron's fused softmax; the Llama reference and Hugging Face's eager attention, with
// an fp32 softmax). sdpa_math_*: PyTorch's F.scaled_dot_product_attention math backend, which casts
// 16-bit q, k and v to fp32 and runs every step in fp32 (aten attention.cpp, "Keep query, key,
// value in high precision"), its matmuls in TF32 where allowed (torch.backends.cuda.matmul.
// allow_tf32 or set_float32_matmul_precision("high")) or in full fp32 (PyTorch's default).
enum class UnfusedAttention { matmul, sdpa_math_tf32, sdpa_math_fp32 };
// Which kernel computes attention (docs/formulas.md, "Attention backends"). fa2: FlashAttention-2
// (flash-attn 2, and PyTorch SDPA's flash backend); fa3: FlashAttention-3 (Hopper only); cudnn:
// cuDNN's fused flash attention (Transformer Engine's default on Hopper, SDPA's cuDNN backend);
// sdpa_math: PyTorch's math SDPA (training.unfused_attention picks TF32 or fp32 matmuls); eager:
// batched GEMMs and a softmax (Megatron's unfused path, the Llama reference, HF eager). auto: the
// framework's default: with training.flash_attention false, unfused_attention decides; else
// Transformer Engine's choice under fused element-wise kernels (cudnn on Hopper and later, fa2
// on Ampere) and PyTorch SDPA's under eager ones (fa2). triton: FlashAttention written in Triton
// (triton.ops.flash_attention; flash-attn's flash_attn_triton.py, MPT's attn_impl 'triton').
// Appended last: share links and scenario fields keep the earlier values' positions.
enum class AttentionBackend { auto_, fa2, fa3, cudnn, sdpa_math, eager, triton, flex };
// The fused kernels: the backends a profile keeps an attention table for, and is_fused()'s set.
inline constexpr AttentionBackend kFusedAttentionBackends[] = {AttentionBackend::fa2, AttentionBackend::fa3,
                                                               AttentionBackend::cudnn, AttentionBackend::triton,
                                                               AttentionBackend::flex};
inline bool is_fused(AttentionBackend b) {
  for (AttentionBackend f : kFusedAttentionBackends)
    if (b == f) return true;
  return false;
}
// How FP8 GEMM inputs are scaled (docs/formulas.md, "FP8 casts"). tensorwise: one scale
// per tensor (Transformer Engine's delayed and current scaling, torchao's tensorwise), one cast
// serving both layouts; rowwise: a scale per row of every operand along its GEMM's free axis
// (torchao's rowwise), so each operand is cast once per GEMM that reads it.
enum class Fp8Recipe { tensorwise, rowwise };
// How ZeRO-3 holds a gathered layer (training.fsdp_impl): flat, its parameters views into the
// all-gather's output (FSDP1's FlatParameter, DeepSpeed ZeRO-3, Megatron-core's FSDP); fsdp2,
// PyTorch's fully_shard with per-parameter DTensor shards, where each all-gather's output is
// copied out into every parameter's own tensor on the compute stream.
enum class FsdpImpl { flat, fsdp2 };
// How a layer's activations are laid out (training.activation_layout): sbh, sequence first
// (Megatron-LM, Transformer Engine): sequence parallelism splits dimension 0, which NCCL's
// all-gather and reduce-scatter concatenate and split in place; bsh, batch first (PyTorch DTensor's
// SequenceParallel, Shard(1)): every all-gather is followed, and every reduce-scatter preceded, by
// a copy that moves the sequence dimension (torch.distributed._functional_collectives).
enum class ActivationLayout { sbh, bsh };
inline bool runs_sdpa_math(bool flash_attention, UnfusedAttention u) {
  return !flash_attention && u != UnfusedAttention::matmul;
}
inline bool reduces_every_micro_batch(GradReduce g, int zero_stage) {
  return g == GradReduce::auto_ ? zero_stage >= 2 : g == GradReduce::micro_batch;
}

struct TrainingSpec {
  double tokens = 0;    // training tokens D; 0: 20 × params (Hoffmann et al. 2022)
  int64_t seq_len = 0;  // 0: model.seq_len, else 2048
  // Documents packed into each sequence with attention kept inside each one (cu_seqlens: Transformer
  // Engine's THD format, FlashAttention's varlen kernels): their length in tokens (mixed lengths:
  // Σl²/Σl), which bounds what a query attends to; 0: one document fills the sequence.
  int64_t document_tokens = 0;
  int64_t micro_batch = 1;         // sequences per micro-batch per data-parallel replica
  int64_t global_batch_seqs = 0;   // 0: derived from global_batch_tokens, else micro_batch × dp
  double global_batch_tokens = 0;  // alternative to global_batch_seqs
  Precision precision = Precision::bf16_mixed;
  // Storage dtypes; unset ones follow the precision recipe (docs/formulas.md, "Precision recipes").
  std::optional<Dtype> weight_dtype, grad_dtype, optimizer_state_dtype;
  std::optional<bool> master_weights;   // fp32 master copy
  bool grad_fp32_accum_buffer = false;  // an fp32 gradient buffer beside 16-bit grads (nanotron; seed 004's 20Ψ)
  Optimizer optimizer = Optimizer::adamw;
  int zero_stage = 0;            // 0..3; 3 == FSDP full shard
  int64_t zero_shard_group = 0;  // hybrid shard: shard within groups of this many dp ranks (0: all dp)
  bool cpu_offload_optimizer = false;
  GradReduce grad_reduce = GradReduce::auto_;
  // ZeRO-3: free a layer's gathered weights after its forward and gather them again for its
  // backward (FSDP2 fully_shard's reshard_after_forward); false keeps them until the backward.
  bool reshard_after_forward = true;
  FsdpImpl fsdp_impl = FsdpImpl::flat;
  ActivationLayout activation_layout = ActivationLayout::sbh;
  // Tensor parallelism: the loss on each rank's vocabulary shard (Megatron's vocab-parallel
  // cross-entropy, torchtitan's loss_parallel); false gathers the whole logits on every tp rank.
  bool loss_parallel = true;
  OptimizerKernel optimizer_kernel = OptimizerKernel::auto_;
  Recompute recompute = Recompute::none;
  int64_t recompute_layers = 0;  // with full: recompute only this many layers per stage (0: all)
  // With selective: Megatron-core module names, comma-separated (core_attn, layernorm,
  // mla_up_proj, moe_act); empty: core_attn.
  std::string recompute_modules;
  bool flash_attention = true;
  UnfusedAttention unfused_attention = UnfusedAttention::matmul;  // with flash_attention false
  // When set (not auto), decides flash_attention and unfused_attention (resolve()).
  AttentionBackend attention_backend = AttentionBackend::auto_;
  // Norms, activations, rotary, loss and optimizer as fused kernels (Megatron-LM, Transformer
  // Engine, torch.compile); false: PyTorch eager, one kernel per op (docs/formulas.md).
  bool fused_elementwise = true;
  Fusion fused_loss = Fusion::auto_;  // the final norm and the loss; auto: as fused_elementwise
  KernelLaunch kernel_launch = KernelLaunch::python;
  // The loss's fp32 work done one chunk of the logits at a time (torchtune's
  // CEWithChunkedOutputLoss: 8); the 16-bit logits stay whole. 1: the whole logits at once.
  int64_t loss_chunks = 1;
  // Saved activations copied to host memory in forward and back in backward, on a side stream
  // (torchtune's OffloadActivations); the GPU keeps two layers' worth in transit.
  bool activation_offload = false;
  // Each parameter's optimizer step runs as soon as its gradient is ready, which is then freed
  // (torchtune's optimizer_in_bwd): one gradient at a time instead of all of them.
  bool optimizer_in_backward = false;
  // FP8 parameters (Megatron's --fp8-param-gather, NeMo's FP8 recipes): with fp8_mixed and fused
  // kernels, the linear weights are stored in FP8 instead of beside a cached FP8 copy.
  bool fp8_params = false;
  Fp8Recipe fp8_recipe = Fp8Recipe::tensorwise;  // with fp8_mixed: how the FP8 GEMM inputs are scaled
  bool sequence_parallel = false;
  Finetune finetune = Finetune::full;
  int64_t lora_rank = 16;
  LoraTargets lora_targets = LoraTargets::all_linear;
  // With LoRA, the frozen base weights' storage (QLoRA: 4-bit NF4 ≈ fp4; 8-bit: int8 or fp8);
  // unset: training.weight_dtype. Dequantised to the compute dtype before every GEMM.
  std::optional<Dtype> base_weight_dtype;
  bool reference_model = false;  // frozen copy of the model (DPO), as seed 000 counts
  // MoE: routed token copies the busiest expert rank processes ÷ an even share of T·top_k
  // (a padded capacity factor, or dropless routing's max/mean load); 1: balanced.
  double moe_capacity_factor = 1;
  MoeRouting moe_routing = MoeRouting::random;
  FlopsFormula flops_formula = FlopsFormula::detailed;
  bool causal_attention_flops = true;  // causal mask halves the s² term (Megatron-LM #831)
  double bytes_per_token_on_disk = 4;  // seed 000: "a token is ~4 bytes"
};

// The keys a query attends to: its packed document's (training.document_tokens), else the sequence's.
inline int64_t attention_span_tokens(const TrainingSpec& t) {
  return t.document_tokens > 0 ? t.document_tokens : t.seq_len;
}
// Sliding windows (model.sliding_window): the share of layers windowed and the span a windowed
// layer counts as. A window w over a span s leaves a band of s·w − w²/2 causal scores, as many as
// a span of 2w − w²/s (FlashAttention's local attention skips the blocks outside the band).
struct WindowedLayers {
  double share = 0;  // of the layers: (n − 1)/n with a global layer every n, else all
  double span = 0;   // tokens
};
inline WindowedLayers windowed_layers(const ModelSpec& m, const TrainingSpec& t) {
  const double s = double(attention_span_tokens(t)), w = double(m.sliding_window);
  if (w <= 0 || w >= s) return {0, s};
  const double share =
      m.full_attention_every > 0 ? double(m.full_attention_every - 1) / double(m.full_attention_every) : 1.0;
  return {share, 2 * w - w * w / s};
}
// The keys a query attends to, averaged over the layers (the attention FLOPs' span).
inline double attention_span(const ModelSpec& m, const TrainingSpec& t) {
  const WindowedLayers w = windowed_layers(m, t);
  return (1 - w.share) * double(attention_span_tokens(t)) + w.share * w.span;
}

struct ParallelSpec {
  int64_t tp = 1, pp = 1, dp = 0, cp = 1, ep = 1;
  int64_t etp = 0;             // expert tensor parallel size; 0: tp (Megatron default)
  int64_t virtual_stages = 1;  // model chunks per pipeline rank (interleaved schedule)
  Schedule schedule = Schedule::one_f_one_b;
  bool dp_overlap = true;  // gradient reduction overlapped with backward (DDP buckets)
  // ZeRO-1/2's gather of the updated parameters hidden behind the next step's forward (Megatron's
  // --overlap-param-gather); off: it waits after the optimizer step (DeepSpeed ZeRO-1/2, PyTorch's
  // ZeroRedundancyOptimizer, nanotron). Only with dp_overlap.
  bool param_gather_overlap = true;
  // ZeRO-1/2's parameter gather: one all-gather, or a broadcast per rank (InternEvo).
  ParamGather param_gather = ParamGather::all_gather;
  // Gradient bucket size in MB (10^6 bytes) of DDP / ZeRO-1/2 reductions; 0: the framework's
  // default, Megatron-core's max(40M, 1M × dp) parameters under fused kernels, PyTorch DDP's 25 MB
  // under eager ones.
  double dp_bucket_mb = 0;
  bool tp_overlap = false;  // tensor-parallel comm overlapped with GEMMs
  TpOverlapMethod tp_overlap_method = TpOverlapMethod::userbuffers;
  bool cp_overlap = true;  // ring-attention KV exchange overlapped with attention compute
  // Pipeline sends of the interleaved schedule's steady 1F1B phase overlapped with the next model
  // chunk's compute (Megatron-core's overlap_p2p_comm, its default with virtual stages since
  // 2023-10; NeMo's and Megatron-Bridge's with vp > 1); the fill and drain sends stay exposed.
  bool pp_overlap = true;
  CpMethod cp_method = CpMethod::p2p;
  // Expert-parallel all-to-all hidden behind another micro-batch's compute (DeepSeek-V3's
  // DualPipe, Megatron-core's EP A2A overlap); off: dispatch and combine wait for it.
  bool ep_overlap = false;
  EpDispatcher ep_dispatcher = EpDispatcher::alltoall;
};

struct HardwareSpec {
  GpuSpec gpu;
  int64_t gpu_count = 0;                 // 0: tp·pp·cp·dp with dp = 1
  std::optional<int64_t> gpus_per_node;  // override the catalog value
  std::optional<double> price_per_gpu_hour_usd;
  std::optional<double> intra_node_bandwidth_gbps, inter_node_bandwidth_gbps;
  // End-to-end overrides: each fixes step time from model FLOPs (see docs/formulas.md "Time").
  double mfu = 0;                 // model FLOPs utilisation vs dense peak of the compute dtype
  double achieved_tflops = 0;     // sustained model TFLOP/s per GPU
  double compute_efficiency = 0;  // flat kernel efficiency; 0: from the profile
  double cuda_context_gib = 0.5;  // CUDA context + kernels resident per process (assumption)
  // Variants of the catalog GPU (docs/formulas.md, "GPU variants"): another memory size or HBM
  // bandwidth of the same chip, and a lowered power limit (sustained clock ∝ its cube root).
  std::optional<double> memory_gib, hbm_tbps, power_limit_w;
  double fragmentation_fraction = 0.05;  // caching-allocator reserve beyond allocated (assumption)
  // SMs a running NCCL collective holds (one CTA per channel, not shared with compute kernels):
  // 16 on a DGX-class node (NVIDIA/nccl#689). Overlapped communication slows compute by
  // nccl_sms / gpu.sm_count while it runs; 0 leaves overlap free.
  int64_t nccl_sms = 16;
  // datasheet_profile(gpu) unless a profile is loaded; set by set_field("hardware.gpu") and by
  // resolve(). Shared and immutable because every estimate copies the Scenario, not the tables.
  std::shared_ptr<const HardwareProfile> profile;
  bool profile_loaded = false;
  // Not a scenario field: the in-step GEMM fraction of MAMF the datasheet profile is built with
  // (0: llmcalc's fitted value). `llmcalc validate --lofo` sets it to refit it.
  double datasheet_gemm_mamf_fraction = 0;
};

struct Scenario {
  ModelSpec model;
  TrainingSpec training;
  ParallelSpec parallel;
  HardwareSpec hardware;
};

const char* to_string(Precision v);
const char* to_string(Optimizer v);
const char* to_string(Recompute v);
const char* to_string(Schedule v);
const char* to_string(CpMethod v);
const char* to_string(ParamGather v);
const char* to_string(EpDispatcher v);
const char* to_string(MoeRouting v);
const char* to_string(TpOverlapMethod v);
const char* to_string(FlopsFormula v);
const char* to_string(Finetune v);
const char* to_string(LoraTargets v);
const char* to_string(GradReduce v);
const char* to_string(OptimizerKernel v);
const char* to_string(Fusion v);
const char* to_string(KernelLaunch v);
const char* to_string(UnfusedAttention v);
const char* to_string(AttentionBackend v);
const char* to_string(Fp8Recipe v);
const char* to_string(FsdpImpl v);
const char* to_string(ActivationLayout v);

// Everything derived from the scenario before any formula runs: defaults resolved, divisibility
// checked. Every estimate works from a Resolved, never from raw input.
struct Resolved {
  Scenario s;   // with defaults filled in (dp, seq_len, global batch, tokens, dtypes)
  ModelSpec m;  // resolved(s.model)
  int64_t gpu_count = 0;
  int64_t gpus_per_node = 8;
  int64_t etp = 1;
  int64_t micro_batches = 1;  // per step per pipeline (gradient accumulation steps)
  Dtype compute_dtype = Dtype::bf16;
  Dtype weight_dtype = Dtype::bf16, grad_dtype = Dtype::bf16, optimizer_state_dtype = Dtype::fp32;
  bool master_weights = true;
  bool tokens_defaulted = false;
  int64_t layers_per_stage = 0;  // the largest pipeline stage (ceil when layers % pp != 0)
  // Gradients reduced after every micro-batch (training.grad_reduce, auto resolved by ZeRO stage).
  bool grad_reduce_per_micro_batch = false;
  uint32_t recompute_modules = 0;  // RecomputeModule bits in force (0 unless training.recompute = selective)
  AttentionBackend attention_backend = AttentionBackend::fa2;  // never auto: the kernel that runs
  bool fused_loss = true;                                      // training.fused_loss resolved
  bool loss_upcast = true;  // an eager loss works on fp32 logits (false: training.fused_loss = eager_16bit)
  Dtype base_weight_dtype = Dtype::bf16;                       // frozen LoRA base weights (weight_dtype without LoRA)
  std::vector<std::string> warnings;
};

// Fill defaults and check every cross-field rule (divisibility, ranges that involve two fields).
Result<Resolved> resolve(const Scenario& s);

}  // namespace llmc
