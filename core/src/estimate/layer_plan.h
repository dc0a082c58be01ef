// Internal: one description of a training step. Every op of a transformer layer (and of the
// embedding, the head and loss, and the optimizer step) is declared once, with its kernels on one
// GPU after tp/sp/cp/ep sharding, the bytes it keeps for backward, its matmul FLOPs and the
// recompute rules that touch it. FLOPs (flops.cpp), memory (memory.cpp) and time
// (compute_times.cpp) are readings of the same plan (docs/formulas.md, "The layer plan").
#pragma once
#include <array>
#include <cstdint>

#include "llmc/estimate.h"
#include "estimate/precision.h"

namespace llmc::detail {

// The recompute rules, as tags on ops and kernels. The first four are Megatron-core's
// --recompute-modules (the same bits as RecomputeModule); kTagOpPolicy is torchtitan's per-op
// policy. Full recompute re-runs every forward kernel of the layers it covers (no tag).
enum RecomputeTag : uint32_t {
  kTagCoreAttn = kRecomputeCoreAttn,
  kTagLayernorm = kRecomputeLayernorm,
  kTagMlaUpProj = kRecomputeMlaUpProj,
  kTagMoeAct = kRecomputeMoeAct,
  kTagOpPolicy = 16,
};
// The rules in force: selective's modules, or the per-op policy; none for none and full.
inline uint32_t recompute_tags(const Resolved& r) {
  switch (r.s.training.recompute) {
    case Recompute::selective:
      return r.recompute_modules;
    case Recompute::selective_op:
      return kTagOpPolicy;
    case Recompute::none:
    case Recompute::full:
      return 0;
  }
  return 0;
}

// Forward, backward, or only in backward when a rule in `rerun_by` recomputes its op: a kernel
// the plain forward does not run (torchtitan's separate wk and w3 matmuls, MLA's
// up-projections, the fused norm Megatron's layernorm module re-runs).
enum class Pass : uint8_t { fwd, bwd, rerun };

// One kernel. Trivial (no initialisers) so that a plan's fixed arrays cost nothing until filled.
struct KernelSpec {
  enum class Kind : uint8_t { gemm, attention, memory };
  Kind kind;
  Pass pass;
  uint32_t rerun_by;  // RecomputeTag bits: rules that run this forward kernel again in backward
  Dtype dtype;
  MemKernel mem;
  AttentionBackend backend;  // attention: the fused kernel that runs it
  double m, n, k, batch;     // gemm: C[m×n] = A[m×k]·B[k×n], `batch` products
  // attention (fused, causal): `batch` sequences, q_len queries against kv_len keys
  double q_len, kv_len, heads, kv_heads, head_dim;
  double bytes;  // memory: read + written
  int repeat;    // runs this many times in a row (ring attention's cp blocks): timed once
};

struct Op {
  const char* name;
  // FLOPs per token of the whole layer before tensor parallelism splits it, forward: matmuls
  // against weights and the attention score matmuls (QKᵀ and PV, causal halved).
  double weight_flops, score_flops;
  uint32_t tags;  // rules that re-run this op's whole forward in backward
  // Matmuls that only a rule runs (in backward), and which rule: wk, w3, MLA's up-projections.
  double extra_weight_flops;
  uint32_t extra_tags;
  // Bytes kept for backward per micro-batch on one GPU with no recompute; the part of them a
  // rule in drop_tags does not keep (it re-runs what made them); what the per-op policy keeps.
  double saved_bytes, dropped_bytes;
  uint32_t drop_tags;
  double saved_op_policy_bytes;
  // Tensor-parallel collectives that follow it in forward (an all-reduce, or with sequence
  // parallelism a reduce-scatter and the next block's all-gather): the row-parallel outputs.
  int tp_collectives;
  // Its GEMM is next to a tensor-parallel collective (the column-parallel GEMM after an
  // all-gather, the row-parallel one before a reduce-scatter): what TP overlap hides it behind.
  bool tp_window;
  int first_kernel, kernels;
};

// Ops and their kernels, with room for the largest layer (an eager MoE layer with eight norms,
// PyTorch's math attention, rowwise FP8 casts and LoRA adapters on every linear, 256 kernels:
// tests/test_layer_plan.cpp), so a plan is built without allocating.
// The builder never writes past them: a plan that would is marked `overflow`, which the test of
// the largest layer within the input fields' ranges checks never happens.
struct Plan {
  static constexpr int kMaxOps = 32, kMaxKernels = 320;
  std::array<Op, kMaxOps> ops;
  std::array<KernelSpec, kMaxKernels> kernels;
  int n_ops = 0, n_kernels = 0;
  bool overflow = false;
  const Op* begin() const { return ops.data(); }
  const Op* end() const { return ops.data() + n_ops; }
};

// What a plan depends on beyond the resolved scenario, so that readings can vary it cheaply.
struct PlanShape {
  int64_t micro_batch = 1;  // sequences per micro-batch (memory searches vary it)
  double zero3_shard = 1;   // ranks a ZeRO-3 weight is sharded over (autocast casts one shard)
  bool kernels = true;      // false: ops only (memory and FLOPs need no kernels)
};

// The shape of the scenario's own step: its micro-batch and ZeRO-3 shard group, with kernels.
PlanShape plan_shape(const Resolved& r);

// One transformer layer, dense or MoE (a model with a shape), into `out`.
void plan_layer(Plan& out, const Resolved& r, const ParamCounts& p, const PlanShape& shape, bool moe_layer);
// The embedding (first pipeline stage), and the final norm, output layer and loss (last stage).
void plan_embedding(Plan& out, const Resolved& r, const PlanShape& shape);
void plan_head(Plan& out, const Resolved& r, const PlanShape& shape);
// The optimizer step over `local_params` parameters (after ZeRO sharding), once per step.
void plan_optimizer(Plan& out, const Resolved& r, double local_params);

// The step's plans: built once per estimate (and per layout the search times) and read by
// flops.cpp, memory.cpp and compute_times.cpp. Layers of a kind the model lacks stay empty.
struct StepPlan {
  Plan dense, moe, embedding, head;
  double moe_share = 0;  // MoE layers ÷ layers
  bool has_dense() const { return moe_share < 1; }
  bool has_moe() const { return moe_share > 0; }
  // Tensor-parallel collectives of an average layer in forward (Op::tp_collectives).
  double tp_collectives_per_layer() const;
};
void build_step_plan(StepPlan& out, const Resolved& r, const ParamCounts& p, const PlanShape& shape);

// What full recompute keeps of a layer: its input, per micro-batch of b sequences.
inline double checkpoint_bytes(const Resolved& r, int64_t b) {
  const TrainingSpec& ts = r.s.training;
  const double rep = ts.sequence_parallel ? double(r.s.parallel.tp) : 1.0;
  return activation_bytes(r) * double(ts.seq_len) / double(r.s.parallel.cp) * double(b) * double(r.m.hidden) / rep;
}

}  // namespace llmc::detail
