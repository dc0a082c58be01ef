// Internal: one training step as timed kernels, read from the layer plan (layer_plan.h): each
// kernel timed from the hardware profile (kernel_time.h), per micro-batch and per pipeline
// stage; the schedule, communication and the optimizer step are composed in time.cpp.
#pragma once
#include "estimate/estimate_parts.h"
#include "estimate/kernel_time.h"
#include "estimate/layer_plan.h"

namespace llmc::detail {

// Seconds by kernel family, and how each was timed.
struct OpTally {
  double gemm_s = 0, attention_s = 0, memory_s = 0;
  double var_s2 = 0;            // Σ (time × rel_err)², for the error bar
  double kernels = 0;           // kernels issued (each run of a repeated one, × times)
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
  OpTally stage_fwd, stage_bwd;  // stage_bwd includes recomputed forwards
  OpTally optimizer;             // once per step
  // One average layer's forward GEMMs next to tensor-parallel collectives (Op::tp_window): the
  // window TP overlap hides those collectives in.
  double tp_window_s = 0;
  // One average layer's fused attention kernels, forward and backward: the window of context
  // parallelism's ring exchange (comm.cpp).
  double attention_fwd_s = 0, attention_bwd_s = 0;
  // Host seconds to issue one kernel (host_issue_s_per_kernel): a micro-batch, or the optimizer
  // step, lasts at least as long as issuing its kernels.
  double host_s_per_kernel = 0;
  double micro_batch_s() const { return stage_fwd.total() + stage_bwd.total(); }
  double host_micro_batch_s() const { return (stage_fwd.kernels + stage_bwd.kernels) * host_s_per_kernel; }
  double host_optimizer_s() const { return optimizer.kernels * host_s_per_kernel; }
};

// Host seconds to issue one kernel the way the scenario does (training.kernel_launch, and under
// python training.fused_elementwise): the profile's measured value, else the datasheet's; 0 for
// CUDA graphs (docs/formulas.md, "Host issue").
double host_issue_s_per_kernel(const Resolved& r);

// FP8 backward GEMMs' time over the FP8 rate of the profile (fast accumulation, as the forward
// runs): precise accumulation, 1.04 on Hopper as measured on an H100; 1 where not measured.
double fp8_backward_gemm_factor(const GpuSpec& gpu);
// `plan` built with the scenario's micro-batch and, under ZeRO-3, its shard group (plan_shape()).
ComputeTimes compute_times(const Resolved& r, const ParamCounts& p, const StepPlan& plan, const HeldParams& held);

}  // namespace llmc::detail
