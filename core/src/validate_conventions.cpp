// Each source's FLOP convention, in one table (printed in docs/validation.md), and the rule that
// picks one for a record. A source's "TFLOP/s per GPU" is its own FLOP count divided by its
// measured time, so llmcalc's prediction is put in the same terms: the source's FLOP count for
// the run divided by llmcalc's predicted step time. Only the time is llmcalc's; the FLOPs are
// the source's, so a difference in counting never shows up as a prediction error.
#include <algorithm>

#include "validate_internal.h"

namespace llmc {

const std::vector<FlopConvention>& flop_conventions() {
  static const std::vector<FlopConvention> table = {
      {"megatron2021", "Narayanan et al. 2021 (Megatron-LM), Table 1", "tflops_per_gpu (TFLOP/s per GPU, counting recompute)", "tflops_per_gpu", "TFLOP/s/GPU",
       "96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) FLOPs per step (eq. 3 with full recompute: 4 forward passes' worth of "
       "the h² matmuls); B = global batch in sequences; % of peak is this over 312 TFLOP/s",
       "96·B·s·l·h²·(1 + s/6h + V/16lh) / (predicted step time × GPUs)", true, false, false},
      {"korthikanti2022", "Korthikanti et al. 2022 (sequence parallelism, selective recompute), end-to-end iteration time",
       "iteration_time_s (seconds per training step)", "iteration_time_s", "s", "measured wall-clock time of one iteration; no FLOP count is involved",
       "llmcalc's predicted step time; the error column is that of throughput (measured time / predicted time − 1), so + "
       "means llmcalc predicts faster, as in every other row",
       true, false, false},
      {"llama3", "Llama Team 2024 (Llama 3 Herd), Table 4", "tflops_per_gpu (BF16 TFLOP/s per GPU; MFU = this / 989)", "tflops_per_gpu", "TFLOP/s/GPU",
       "not written out in the paper; 430/989 = 0.43 matches its MFU column, so it is model FLOPs (no recompute) "
       "over the dense BF16 peak",
       "llmcalc's model FLOPs per step (2 FLOPs per multiply-add of every matmul incl. the output layer, backward = 2 × "
       "forward, attention s² term halved for the causal mask; flops.model_per_token × global batch tokens) / (predicted "
       "step time × GPUs). The paper's count is unknown; the row's notes give the figure with PaLM's unhalved attention",
       true, true},
      {"flashattention2", "Dao 2023 (FlashAttention-2), Table 1", "model_tflops_per_gpu_flashattention2 (TFLOP/s per GPU)", "model_tflops_per_gpu_flashattention2", "TFLOP/s/GPU",
       "6·s·N + 12·L·h·s² FLOPs per sequence (attention not halved for the causal mask); N = parameters",
       "(6·s·N + 12·L·h·s²) × sequences per step / (predicted step time × GPUs), N = llmcalc's parameter count of the "
       "shape (params.total)",
       true, true},
      {"gpu_hours", "Touvron et al. 2023 (Llama 2), model card / Table 2", "gpu_hours (GPU-hours for the whole pre-training)", "gpu_hours", "GPU-hours",
       "GPU-hours the authors counted as pre-training time (everything: restarts, evaluation, idle)",
       "llmcalc's time.gpu_hours for training.tokens = total_tokens on the layout rule of docs/validation.md; shown, "
       "not in the throughput target (the GPU count and layout are unpublished and the hours include time that no "
       "step-time model predicts)",
       false, true},
      {"model_states", "Rajbhandari et al. 2020 (ZeRO), Figure 1", "model-state GB per GPU (1 GB = 1e9 bytes)", "", "GB",
       "(2 + 2 + K)·Ψ with K = 12 (fp32 master, momentum, variance), sharded by ZeRO stage over N_d GPUs",
       "llmcalc's memory.per_gpu.model_states_bytes / 1e9 for the same precision, optimizer, dp and ZeRO stage", false, true},
  };
  return table;
}

double megatron2021_flops_per_step(double B, double s, double l, double h, double V) {
  return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
}

double flashattention2_flops_per_seq(double s, double N, double L, double h) { return 6 * s * N + 12 * L * h * s * s; }

namespace detail::validation {

const FlopConvention& convention(const std::string& id) {
  for (const FlopConvention& c : flop_conventions())
    if (c.id == id) return c;
  return flop_conventions().front();  // unreachable for the ids used in this file
}

namespace {
bool has(const std::string& text, const char* needle) { return text.find(needle) != std::string::npos; }
}  // namespace

// By what the record measured and who published it (the citation, then the id's prefix), so any
// file in this format works: a source not listed here is skipped, never guessed.
const FlopConvention* convention_for(const ParsedRecord& r) {
  auto measured = [&](const char* k) { return r.measured_value(k) != nullptr; };
  if (r.kind == "memory_analytic_published") return &convention("model_states");
  if (measured("gpu_hours")) return &convention("gpu_hours");
  const std::string& c = r.citation;
  if (measured("tflops_per_gpu") && (has(c, "Narayanan") || r.id.rfind("narayanan2021", 0) == 0)) return &convention("megatron2021");
  if (measured("iteration_time_s") && (has(c, "Korthikanti") || r.id.rfind("korthikanti2022", 0) == 0)) return &convention("korthikanti2022");
  if (measured("tflops_per_gpu") && (has(c, "Llama 3") || has(c, "Llama Team") || r.id.rfind("llama3", 0) == 0)) return &convention("llama3");
  if (measured("model_tflops_per_gpu_flashattention2") && (has(c, "FlashAttention-2") || r.id.rfind("flashattention2", 0) == 0))
    return &convention("flashattention2");
  return nullptr;
}

}  // namespace detail::validation
}  // namespace llmc
