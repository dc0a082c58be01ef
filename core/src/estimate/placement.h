// Internal: what each GPU holds, computed once after resolve() and read by memory, time and
// communication (never written back): the parameters of each pipeline stage after tensor,
// pipeline and expert parallelism, and the groups ZeRO shards them over.
#pragma once
#include <algorithm>
#include <cstdint>

#include "llmc/estimate.h"

namespace llmc::detail {

// Parameters one GPU of a pipeline stage holds, before ZeRO shards them.
struct StageParams {
  double dense = 0;             // non-expert parameters (after the tp/pp split)
  double expert = 0;            // routed-expert parameters (after the ep/etp split)
  double max_layer = 0;         // the largest single layer (ZeRO-3's gather buffer)
  double max_layer_linear = 0;  // of it, the linear weights (gathered in FP8 with training.fp8_params)
  double linear = 0;            // of dense + expert, the layers' linear weights: what FP8 GEMMs read
  double all() const { return dense + expert; }
};
// Stage `stage` (0 … pp − 1): the first holds the embedding, the last the output layer.
StageParams stage_params(const Resolved& r, const ParamCounts& p, int64_t stage);

// The ranks ZeRO shards over with `dp` data-parallel replicas: the hybrid-shard group
// (training.zero_shard_group) or all of dp × cp for the other parameters; the expert-data-parallel
// ranks for routed experts, tp·cp·dp / (ep·etp) (capped by the hybrid-shard group).
struct ShardGroups {
  double dense = 1, expert = 1;
};
inline ShardGroups zero_shard_groups(const Resolved& r, int64_t dp) {
  const ParallelSpec& par = r.s.parallel;
  const int64_t group = r.s.training.zero_shard_group;
  const double de = std::max(1.0, double(par.tp * par.cp * dp) / double(par.ep * r.etp));
  return {group > 0 ? double(group) : double(dp * par.cp), group > 0 ? std::min(de, double(group)) : de};
}

// Tensor-parallel collectives overlapped with their GEMMs (parallel.tp_overlap, which needs
// sequence parallelism), and whether PyTorch's async TP runs it (parallel.tp_overlap_method):
// read by comm.cpp's exposed time, plan_linear.cpp's GEMM chunks and layer_plan.cpp's
// batch-first copies, which must agree.
inline bool tp_overlap_running(const Resolved& r) {
  return r.s.parallel.tp_overlap && r.s.parallel.tp > 1 && r.s.training.sequence_parallel;
}
inline bool async_tp_running(const Resolved& r) {
  return tp_overlap_running(r) && r.s.parallel.tp_overlap_method == TpOverlapMethod::async_tp;
}
// Async TP fuses an all-gather into the matmul after it with 16-bit or tensorwise-FP8 operands;
// with rowwise scales (training.fp8_recipe) that pattern stays unfused, the all-gather waited for
// whole (pytorch/pytorch#149990, open since 2025-03; torchtitan#866: "Rowwise with AsyncTP runs at
// roughly same perf as vanilla TP"). Its matmul → reduce-scatter side fuses (pytorch/pytorch#149247).
// True only where async TP runs and leaves its all-gathers so.
inline bool async_tp_leaves_all_gathers(const Resolved& r) {
  return async_tp_running(r) && r.compute_dtype == Dtype::fp8 && r.s.training.fp8_recipe == Fp8Recipe::rowwise;
}

// FSDP2's copy-outs (training.fsdp_impl): gathers of each unit whose output is copied into the
// parameters, per micro-batch, forward and backward. Resharded after forward: one gather each way;
// kept: one per micro-batch, or one per step when the gradients are reduced once (the weights
// stay gathered across micro-batches, as comm.cpp's all-gathers count them).
struct CopyOuts {
  double fwd = 0, bwd = 0;
};
inline CopyOuts fsdp2_copy_outs(const Resolved& r) {
  const TrainingSpec& ts = r.s.training;
  if (ts.zero_stage != 3 || ts.fsdp_impl != FsdpImpl::fsdp2) return {};
  if (ts.reshard_after_forward) return {1, 1};
  return {r.grad_reduce_per_micro_batch ? 1.0 : 1.0 / double(std::max<int64_t>(1, r.micro_batches)), 0};
}

}  // namespace llmc::detail
