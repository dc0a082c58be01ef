// Internal: one training step decomposed into kernels with their real shapes after tp/sp/cp/ep
// sharding, each timed from the hardware profile (kernel_time.h). Per micro-batch and per
// pipeline stage; the pipeline schedule, communication and the optimizer step are composed in
// time.cpp.
#pragma once
#include "kernel_time.h"
#include "llmc/estimate.h"

namespace llmc::detail {

// Seconds by kernel family, and how each was timed.
struct OpTally {
  double gemm_s = 0, attention_s = 0, memory_s = 0;
  double var_s2 = 0;  // Σ (time × rel_err)², for the error bar
  int by_basis[3] = {0, 0, 0};  // kernels timed from table / fit / spec
  double total() const { return gemm_s + attention_s + memory_s; }
  void add_gemm(const KernelTime& k, double times = 1);
  void add_attention(const KernelTime& k, double times = 1);
  void add_memory(const KernelTime& k, double times = 1);
  void add(const OpTally& o, double times);
};

struct ComputeTimes {
  // One micro-batch through the slowest pipeline stage (its layers, plus the embedding on the
  // first stage and the final norm, logits and loss on the last).
  OpTally stage_fwd, stage_bwd;       // stage_bwd includes recomputed forwards
  double layer_fwd_s = 0, layer_bwd_s = 0;  // one average layer of that stage
  OpTally optimizer;                  // once per step
  double micro_batch_s() const { return stage_fwd.total() + stage_bwd.total(); }
};

ComputeTimes compute_times(const Resolved& r, const ParamCounts& p);

}  // namespace llmc::detail
