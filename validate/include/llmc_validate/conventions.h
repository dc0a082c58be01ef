// How each source counts what it measured, and how llmcalc's prediction is put in the same terms.
// A source's "TFLOP/s per GPU" is its own FLOP count divided by its measured time, so the
// prediction is the source's FLOP count for the run divided by llmcalc's predicted step time:
// only the time is llmcalc's, and a difference in counting never shows up as an error. One row
// per convention, printed in docs/validation.md.
#pragma once
#include <string>
#include <vector>

#include "llmc/estimate.h"

namespace llmc::validate {

enum class ConventionGroup {
  throughput,   // in the throughput targets (MAE ≤ 5 %, max ≤ 10 %)
  shown,        // compared and shown, outside every target (whole-run hours and days; unknown FLOP counts)
  memory,       // model-state bytes
  kernel,       // one kernel or collective alone (kernel benchmark records)
  peak_memory,  // a run's peak GPU memory per GPU (its own summary group, outside the throughput targets)
};

struct FlopConvention {
  std::string id;          // "megatron2021"
  std::string source;      // who uses it
  std::string metric;      // measured.metric of a record under it
  std::string unit;        // measured.unit
  std::string formula;     // how the source computes it
  std::string conversion;  // how llmcalc's prediction is put into the same metric
  ConventionGroup group = ConventionGroup::throughput;
  bool time_metric = false;  // a time: the row's error is that of throughput, measured / predicted − 1
};
const std::vector<FlopConvention>& flop_conventions();
const FlopConvention* find_convention(const std::string& id);

// Megatron-LM's count for one step (Narayanan et al. 2021 eq. 3, with full recompute):
// 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), B = global batch in sequences.
double megatron2021_flops_per_step(double B, double s, double l, double h, double V);
// FlashAttention-2 Table 1, per sequence: 6·s·N + 12·L·h·s² (attention not halved).
double flashattention2_flops_per_seq(double s, double N, double L, double h);

// The counters a source's peak memory comes from (measured.memory_kind under peak_memory), and
// the part of llmcalc's memory.per_gpu each counts: PyTorch's max allocated leaves out the CUDA
// context and the caching allocator's reserve; its max reserved keeps the reserve; device memory
// (nvidia-smi, "GPU memory used") is all of it.
const std::vector<std::string>& memory_kinds();  // allocated, reserved, device
double peak_memory_gib(const MemoryPerGpu& m, const std::string& memory_kind);

// llmcalc's prediction of a training record's metric under convention `c` from its estimate,
// with notes on what was counted. `recompute_searched`: the record left training.recompute to the
// rule (Megatron-DeepSpeed's FLOP count follows the run's recompute). `memory_kind`: the record's
// measured.memory_kind (peak_memory only).
struct Prediction {
  double value = 0;
  std::vector<std::string> notes;
};
Prediction predict_metric(const FlopConvention& c, const Estimate& e, bool recompute_searched,
                          const std::string& memory_kind = "");

}  // namespace llmc::validate
