// Internal: the parts estimate() composes, in its order (one job per file): params.cpp →
// placement.cpp → flops.cpp → memory.cpp / memory_fit.cpp → compute_times.cpp → comm.cpp →
// time.cpp. FLOPs, memory and kernel times are readings of one layer plan (layer_plan.h). Every
// function records its terms in the Trace it is given (nullptr: compute only, for searches).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "llmc/estimate.h"

namespace llmc::detail {

ParamCounts count_params(const Resolved& r, Trace* t);
// Trainable LoRA adapter parameters (rank r, on the target matrices), in the whole model.
double lora_params(const ModelSpec& m, int64_t rank, LoraTargets targets);

// MLA's up-projections, what Megatron-core's mla_up_proj recompute re-runs: from the query latent
// (or from h without one) to every head's Q, and from the key/value latent to every head's K
// (no-rope part) and V. Widths before tensor parallelism splits the heads.
struct MlaUpProj {
  double q_in, q_out, kv_in, kv_out;
  double weights() const { return q_in * q_out + kv_in * kv_out; }
};
MlaUpProj mla_up_proj(const ModelSpec& m);

struct StepPlan;  // layer_plan.h: the step's ops, read by FLOPs, memory and time
FlopCounts count_flops(const Resolved& r, const ParamCounts& p, const StepPlan& plan, double tokens, Trace* t);

// What one layer keeps per micro-batch, and the loss's logits: the plan's kept bytes under the
// recompute rules in force, read once per micro-batch size.
struct LayerActivations {
  double full_layer = 0;    // no full recompute (selective's modules applied)
  double checkpoint = 0;    // the layer input, all full recompute keeps
  double selective_op = 0;  // what torchtitan's per-op policy keeps
  double loss = 0;          // the last stage's logits and their fp32 copies
};
LayerActivations layer_activations(const Resolved& r, const StepPlan& plan, int64_t micro_batch);
// Memory per GPU at the peak (the most loaded pipeline stage, whose index goes to *peak_stage),
// with the scenario's own micro-batch, whose activations are `act`.
MemoryPerGpu memory_per_gpu(const Resolved& r, const ParamCounts& p, const LayerActivations& act, Trace* t,
                            int64_t* peak_stage = nullptr);
// current_fits: whether the scenario's own micro-batch fits (already known), to narrow the search.
int64_t max_micro_batch_that_fits(const Resolved& r, const ParamCounts& p, const LayerActivations& own,
                                  bool current_fits);
// own_mem: the memory at the scenario's own dp (memory_per_gpu), a point of the search.
int64_t min_gpus_that_fit(const Resolved& r, const ParamCounts& p, const LayerActivations& own,
                          const MemoryPerGpu& own_mem);

// The parameters of the GPU whose step is timed (before ZeRO shards them), and of them the
// layers' linear weights: what its optimizer step updates and its data-parallel group reduces.
struct HeldParams {
  double all = 0, linear = 0;
};

struct ComputeTimes;  // compute_times.h: the step as timed kernels
// Bytes on the wire per byte of payload, as nccl-tests' bus bandwidth counts them: all-reduce
// 2(n−1)/n, all-gather / reduce-scatter / all-to-all (n−1)/n, send/recv 1, nothing alone.
double ring_factor(std::string_view collective, double n);
// Seconds of one collective over `group` consecutive ranks moving `bytes` per rank (nccl-tests'
// size), on the tier(s) it crosses, as comm_per_step times each of the step's collectives.
double collective_time_s(const Resolved& r, const char* collective, int64_t group, double bytes);
std::vector<CommItem> comm_per_step(const Resolved& r, const ParamCounts& p, const StepPlan& plan,
                                    const HeldParams& held, const FlopCounts& f, const ComputeTimes& ct, Trace* t);

// Activation offloading (training.activation_offload, offload.cpp): whether it applies, and its
// copies to host memory and back as a step item on the copy engines (tier "host").
bool offloads_activations(const Resolved& r);
CommItem activation_offload(const Resolved& r, const StepPlan& plan, const ComputeTimes& ct, const FlopCounts& f,
                            Trace* t);

// The flat kernel efficiency in use: hardware.compute_efficiency if set, else the profile's
// (used when the user sets one, and for kernels a profile has no fit for).
double compute_efficiency(const Resolved& r);
// Per-step compute time at the flat efficiency (the hardware.compute_efficiency basis).
double compute_seconds(const Resolved& r, const FlopCounts& f);
// The step time as estimate() computes it: kernel times, communication, then the schedule. The
// one composition estimate() and the layout search both call. `comm_out` receives the comm items.
TimeEstimate step_time(const Resolved& r, const ParamCounts& p, const StepPlan& plan, const HeldParams& held,
                       const FlopCounts& f, double tokens, Trace* t, std::vector<std::string>& warnings,
                       std::vector<CommItem>* comm_out = nullptr);

}  // namespace llmc::detail
