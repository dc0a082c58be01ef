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
      {"megatron_deepspeed", "Megatron-DeepSpeed (BigScience BLOOM, 2022): the TFLOP/s its training log prints",
       "tflops_per_gpu (TFLOP/s per GPU, counting recompute)", "tflops_per_gpu", "TFLOP/s/GPU",
       "24·f·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) FLOPs per step, f = 4 with activation checkpointing (full or selective), 3 "
       "without (megatron/utils.py throughput_calculator: Narayanan et al.'s eq. 3); B = global batch in sequences",
       "24·f·B·s·l·h²·(1 + s/6h + V/16lh) / (predicted step time × GPUs), f from the record's recompute", true, false, false},
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
       true, true, true, {}, 1,
       "one-layer chunks: §3.3.2 takes one layer each from the first and the last stage, which leaves the first model chunk "
       "of the first stage with the embedding only and the last chunk of the last stage with the output projection and "
       "loss only",
       Dtype::fp32, GradReduce::step,
       "§3.3.2 (numerical stability) accumulates gradients in FP32 over the micro-batches during backward and "
       "reduce-scatters them in FP32 across the data-parallel workers (FSDP without gradient sync until the last "
       "micro-batch, with an FP32 reduce dtype)"},
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
      // Wall-clock days of a whole run, from any source: no FLOP count is involved, but like
      // GPU-hours they include what no step-time model predicts, so they are shown, not targeted.
      {"training_days", "any other source: wall-clock days of the whole pre-training", "training_days (days for the whole run)", "training_days", "days",
       "the days the authors report for the run (everything: restarts, evaluation, idle); the record may name it training_days, "
       "train_days, wall_clock_days or days",
       "llmcalc's time.total_days for training.total_tokens on the record's GPU count and the layout rule of docs/validation.md; "
       "shown, not in the throughput target",
       false, true, true, {"train_days", "wall_clock_days", "days"}},
      {"model_states", "Rajbhandari et al. 2020 (ZeRO), Figure 1", "model-state GB per GPU (1 GB = 1e9 bytes)", "", "GB",
       "(2 + 2 + K)·Ψ with K = 12 (fp32 master, momentum, variance), sharded by ZeRO stage over N_d GPUs",
       "llmcalc's memory.per_gpu.model_states_bytes / 1e9 for the same precision, optimizer, dp and ZeRO stage", false, true},
      // A time or a token rate needs no FLOP count, so a record of any other source that measured
      // one is compared too. Its framework is taken to be a current one (fused attention, DP
      // reduction overlapped with the backward pass), as in every framework since 2023.
      {"step_time", "any other source: measured seconds per training step", "step_time_s (seconds per training step)", "step_time_s", "s",
       "measured wall-clock time of one step; the record may name it step_time_s, iteration_time_s, time_per_step_s, "
       "seconds_per_step or time_per_global_step_s",
       "llmcalc's predicted step time; the error column is that of throughput (measured / predicted − 1)", true, true, true,
       {"iteration_time_s", "time_per_step_s", "seconds_per_step", "time_per_global_step_s"}},
      {"tokens_per_gpu", "any other source: measured tokens per second per GPU", "tokens_per_sec_per_gpu (tokens/s per GPU)", "tokens_per_sec_per_gpu",
       "tokens/s/GPU",
       "global batch tokens / (step time × GPUs); the record may name it tokens_per_sec_per_gpu, tokens_per_s_per_gpu or "
       "tokens_per_second_per_gpu",
       "global batch tokens / (predicted step time × GPUs)", true, true, true, {"tokens_per_s_per_gpu", "tokens_per_second_per_gpu"}},
      {"tokens_per_s", "any other source: measured tokens per second of the whole job", "tokens_per_s (tokens/s, all GPUs)", "tokens_per_s", "tokens/s",
       "global batch tokens / step time; the record may name it tokens_per_s, tokens_per_sec or tokens_per_second",
       "global batch tokens / predicted step time", true, true, true, {"tokens_per_sec", "tokens_per_second"}},
      {"samples_per_s", "any other source: measured sequences (samples) per second of the whole job", "samples_per_s (sequences/s, all GPUs)",
       "samples_per_s", "samples/s",
       "global batch sequences / step time; the record may name it samples_per_s, samples_per_sec, samples_per_second, sequences_per_s or "
       "sequences_per_sec",
       "global batch sequences / predicted step time", true, true, true, {"samples_per_sec", "samples_per_second", "sequences_per_s", "sequences_per_sec"}},
      // A TFLOP/s or MFU figure of a source whose FLOP count is unknown: shown, not in the target,
      // because the count (recompute in or out, causal attention halved or not, output layer in or
      // out) moves the figure by up to a third whatever the step time.
      {"tflops_unknown", "any other source: TFLOP/s per GPU, FLOP count not known to llmcalc", "tflops_per_gpu (TFLOP/s per GPU)", "tflops_per_gpu",
       "TFLOP/s/GPU", "the source's own count, not known to llmcalc; the record may name it tflops_per_gpu or model_tflops_per_gpu",
       "the FLOPs llmcalc's step executes (flops.hardware_per_token × global batch tokens: recompute counted, causal attention "
       "halved) / (predicted step time × GPUs); shown, not in the throughput target",
       false, true, true, {"model_tflops_per_gpu"}},
      {"mfu_unknown", "any other source: model FLOPs utilisation, FLOP count not known to llmcalc", "mfu (fraction of the dense peak)", "mfu", "fraction",
       "the source's model FLOPs / (step time × GPUs × peak); the record may name it mfu, mfu_bf16 or model_flops_utilization, as a fraction "
       "or, above 1, a percent",
       "llmcalc's time.mfu (model FLOPs, causal attention halved, over the dense peak of the compute dtype); shown, not in "
       "the throughput target",
       false, true, true, {"mfu_bf16", "model_flops_utilization"}},
  };
  return table;
}

namespace detail::validation {

std::vector<std::string> measured_keys(const FlopConvention& c) {
  std::vector<std::string> keys = {c.measured_key};
  keys.insert(keys.end(), c.key_aliases.begin(), c.key_aliases.end());
  return keys;
}

}  // namespace detail::validation

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

// The conventions of any other source, in the order a record's measured entries are tried: step
// time first (the most direct), then token rates, then the days of a whole run; last a FLOP rate
// of an unknown count.
constexpr const char* kAnySource[] = {"step_time", "tokens_per_gpu", "tokens_per_s", "samples_per_s", "training_days", "tflops_unknown", "mfu_unknown"};
}  // namespace

bool any_source(const FlopConvention& c) {
  for (const char* id : kAnySource)
    if (c.id == id) return true;
  return false;
}

// By what the record measured and who published it (the citation, then the id's prefix), so any
// file in this format works: a source not listed here is skipped, never guessed.
const FlopConvention* convention_for(const ParsedRecord& r) {
  auto measured = [&](const char* k) { return r.measured_value(k) != nullptr; };
  if (r.kind == "memory_analytic_published") return &convention("model_states");
  if (measured("gpu_hours")) return &convention("gpu_hours");
  const std::string& c = r.citation;
  // Megatron-DeepSpeed first: its citations may name Narayanan et al., whose count it extends.
  if (measured("tflops_per_gpu") && has(c, "Megatron-DeepSpeed")) return &convention("megatron_deepspeed");
  if (measured("tflops_per_gpu") && (has(c, "Narayanan") || r.id.rfind("narayanan2021", 0) == 0)) return &convention("megatron2021");
  if (measured("iteration_time_s") && (has(c, "Korthikanti") || r.id.rfind("korthikanti2022", 0) == 0)) return &convention("korthikanti2022");
  if (measured("tflops_per_gpu") && (has(c, "Llama 3") || has(c, "Llama Team") || r.id.rfind("llama3", 0) == 0)) return &convention("llama3");
  if (measured("model_tflops_per_gpu_flashattention2") && (has(c, "FlashAttention-2") || r.id.rfind("flashattention2", 0) == 0))
    return &convention("flashattention2");
  // Convention-free metrics, from any source (a FLOP rate of an unknown count is shown, not
  // compared against the targets).
  for (const char* id : kAnySource)
    for (const std::string& k : measured_keys(convention(id)))
      if (measured(k.c_str())) return &convention(id);
  return nullptr;
}

}  // namespace detail::validation
}  // namespace llmc
