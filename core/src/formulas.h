// Internal: the formula modules estimate() composes. One job per file:
// params.cpp, flops.cpp, memory.cpp, comm.cpp, time.cpp. Every function records its terms in
// the Trace it is given (nullptr: compute only, used by searches such as max_micro_batch).
#pragma once
#include <algorithm>
#include <string_view>
#include <vector>

#include "llmc/estimate.h"

namespace llmc::detail {

ParamCounts count_params(const Resolved& r, Trace* t);

// Transformer layers on pipeline stage `stage` (0 … pp − 1): as even as they go; when pp does not
// divide them, the first and last stages give up the shortfall (Llama 3 §3.3.2), the first the
// larger half. Time and memory both use it (inline: memory searches call it in their loops).
inline double stage_layers(const Resolved& r, int64_t stage) {
  const int64_t pp = r.s.parallel.pp, L = r.layers_per_stage;
  if (pp == 1 || (stage > 0 && stage < pp - 1)) return double(L);
  const int64_t short_by = L * pp - r.m.layers;  // layers the end stages give up
  const int64_t given_up = stage == 0 ? (short_by + 1) / 2 : short_by / 2;
  return double(L > given_up ? L - given_up : 0);
}

// Layers in the first j of a stage's v chunks, in 1/v-layer units (exact integers): each chunk
// holds per_stage/v layers, except that the layers an end stage gave up (stage_layers) come out
// of its first chunks (the first stage) or its last ones (the last stage).
inline int64_t first_chunks_units(int64_t per_stage, int64_t v, int64_t given_up, bool first_stage, int64_t j) {
  const int64_t all = j * per_stage, removed = given_up * v;
  return all - (first_stage ? std::min(removed, all) : std::clamp(removed - (v - j) * per_stage, int64_t(0), all));
}

// Fewest transformer layers pp stages of v chunks take: every chunk holds a layer, except that
// the first may hold only the embedding and the last only the output layer and loss (Llama 3
// §3.3.2; Megatron-LM's --account-for-embedding/loss-in-pipeline-split), which stage_layers
// models as the end stages giving up layers (at least one layer in all).
inline int64_t fewest_layers(int64_t pp, int64_t v) { return pp >= 2 ? std::max<int64_t>(pp * v - 2, 1) : v; }

// Layers on a full pipeline stage (Resolved::layers_per_stage): ⌈layers/pp⌉, the end stages giving
// up the shortfall (stage_layers). With pp = 2 that split is even whenever the layers are, so
// where layers + 2 is a multiple of 2v (Megatron-LM accepts such a split only with the
// embedding and the loss accounted as layers, Llama 3 §3.3.2) a full stage is (layers + 2)/2 and
// each stage gives up one layer, from its first chunk (the first stage) or its last (the last).
inline int64_t full_stage_layers(int64_t layers, int64_t pp, int64_t v) {
  if (pp == 2 && v > 1 && (layers + 2) % (2 * v) == 0) return (layers + 2) / 2;
  return (layers + pp - 1) / pp;
}

// MLA's up-projections, what Megatron-core's mla_up_proj recompute re-runs: from the query latent
// (or from h without one) to every head's Q, and from the key/value latent to every head's K
// (no-rope part) and V. Widths before tensor parallelism splits the heads.
struct MlaUpProj {
  double q_in, q_out, kv_in, kv_out;
  double weights() const { return q_in * q_out + kv_in * kv_out; }
};
inline MlaUpProj mla_up_proj(const ModelSpec& m) {
  const double a = double(m.heads);
  return {m.q_lora_rank > 0 ? double(m.q_lora_rank) : double(m.hidden), a * double(m.head_dim), double(m.kv_lora_rank),
          a * double(m.qk_nope_head_dim + m.v_head_dim)};
}

// Trainable LoRA adapter parameters (all linear layers, rank r), in the whole model.
double lora_params(const ModelSpec& m, int64_t rank);

FlopCounts count_flops(const Resolved& r, const ParamCounts& p, double tokens, Trace* t);

// The parameters the most loaded GPU holds (before ZeRO-3), and of them the layers' linear weights.
struct HeldParams {
  double all = 0, linear = 0;
};
// Memory per GPU at the peak (the most loaded pipeline stage); fills `held` when asked.
MemoryPerGpu memory_per_gpu(const Resolved& r, const ParamCounts& p, Trace* t, HeldParams* held = nullptr);
// Bytes per linear weight that Transformer Engine's FP8 copies add beyond training.weight_dtype.
double fp8_weight_extra_bytes(const Resolved& r);
// Bytes per activation element: 4 in the fp32 recipe (tf32 compute), else 2.
double activation_bytes(const Resolved& r);
// torch.autocast's per-micro-batch weight casts apply: weights wider than a 16-bit compute dtype.
bool autocast_casts_weights(const Resolved& r);
// Bytes per linear weight of torch.autocast's cached 16-bit copies (fp32 weights, 16-bit compute).
double amp_weight_copy_bytes(const Resolved& r);
// current_fits: whether the scenario's own micro-batch fits (already known), to narrow the search.
int64_t max_micro_batch_that_fits(const Resolved& r, const ParamCounts& p, bool current_fits);
int64_t min_gpus_that_fit(const Resolved& r, const ParamCounts& p);

// Pipeline bubble ÷ ideal compute time for the scenario's schedule: (p − 1)/m for AFAB and 1F1B,
// ÷ v interleaved, ÷ 3 zero bubble H1 (Narayanan et al. 2021 §2.2; Qi et al. 2023).
double bubble_fraction(const Resolved& r);

// The flat kernel efficiency in use: hardware.compute_efficiency if set, else the profile's
// (used when the user sets one, and for kernels a profile has no fit for).
double compute_efficiency(const Resolved& r);
// Per-step compute time at the flat efficiency (the hardware.compute_efficiency basis).
double compute_seconds(const Resolved& r, const FlopCounts& f);
// The step time as estimate() computes it: kernel times, communication, then the schedule. The
// one composition estimate() and the layout search both call. `comm_out` receives the comm items.
TimeEstimate step_time(const Resolved& r, const ParamCounts& p, const FlopCounts& f, double tokens, Trace* t,
                       std::vector<std::string>& warnings, std::vector<CommItem>* comm_out = nullptr);

struct ComputeTimes;  // step_ops.h: the step as timed kernels
// Bytes on the wire per byte of payload, as nccl-tests' bus bandwidth counts them: all-reduce
// 2(n−1)/n, all-gather / reduce-scatter / all-to-all (n−1)/n, send/recv 1, nothing alone.
double ring_factor(std::string_view collective, double n);
// Seconds of one collective over `group` consecutive ranks moving `bytes` per rank (nccl-tests'
// size), on the tier(s) it crosses, as comm_per_step times each of the step's collectives.
double collective_time_s(const Resolved& r, const char* collective, int64_t group, double bytes);
std::vector<CommItem> comm_per_step(const Resolved& r, const ParamCounts& p, const FlopCounts& f, Trace* t);
std::vector<CommItem> comm_per_step(const Resolved& r, const ParamCounts& p, const FlopCounts& f, const ComputeTimes& ct, Trace* t);

TimeEstimate time_per_step(const Resolved& r, const FlopCounts& f, const std::vector<CommItem>& comm, double tokens,
                           Trace* t, std::vector<std::string>& warnings);
TimeEstimate time_per_step(const Resolved& r, const FlopCounts& f, const ComputeTimes& ct, const std::vector<CommItem>& comm,
                           double tokens, Trace* t, std::vector<std::string>& warnings);

}  // namespace llmc::detail
