// The conventions table (printed in docs/validation.md) and llmcalc's prediction under each.
#include "llmc_validate/conventions.h"

#include <cstdio>

namespace llmc::validate {

namespace {
constexpr auto kThroughput = ConventionGroup::throughput, kShown = ConventionGroup::shown,
               kMemory = ConventionGroup::memory, kKernel = ConventionGroup::kernel,
               kPeakMemory = ConventionGroup::peak_memory;
}  // namespace

const std::vector<FlopConvention>& flop_conventions() {
  static const std::vector<FlopConvention> table = {
      {"megatron2021", "Narayanan et al. 2021 (Megatron-LM), Table 1: TFLOP/s per GPU, counting recompute",
       "tflops_per_gpu", "TFLOP/s/GPU",
       "96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) FLOPs per step (eq. 3 with full recompute: 4 forward passes' worth of "
       "the h² matmuls); B = global batch in sequences; % of peak is this over 312 TFLOP/s",
       "96·B·s·l·h²·(1 + s/6h + V/16lh) / (predicted step time × GPUs)", kThroughput},
      {"megatron_deepspeed",
       "Megatron-DeepSpeed (BigScience BLOOM, 2022): the TFLOP/s per GPU its training log prints, counting recompute",
       "tflops_per_gpu", "TFLOP/s/GPU",
       "24·f·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) FLOPs per step, f = 4 with activation checkpointing (full or "
       "selective), 3 "
       "without (megatron/utils.py throughput_calculator: Narayanan et al.'s eq. 3); B = global batch in sequences",
       "24·f·B·s·l·h²·(1 + s/6h + V/16lh) / (predicted step time × GPUs), f from the run's recompute", kThroughput},
      {"korthikanti2022",
       "Korthikanti et al. 2022 (sequence parallelism, selective recompute): end-to-end seconds per iteration",
       "iteration_time_s", "s", "measured wall-clock time of one iteration; no FLOP count is involved",
       "llmcalc's predicted step time; the error column is that of throughput (measured time / predicted time − 1), so "
       "+ "
       "means llmcalc predicts faster, as in every other row",
       kThroughput, true},
      {"llama3", "Llama Team 2024 (Llama 3 Herd), Table 4: BF16 TFLOP/s per GPU (MFU = this / 989)", "tflops_per_gpu",
       "TFLOP/s/GPU",
       "not written out in the paper; 430/989 = 0.43 matches its MFU column, so it is model FLOPs (no recompute) "
       "over the dense BF16 peak",
       "llmcalc's model FLOPs per step (2 FLOPs per multiply-add of every matmul incl. the output layer, backward = 2 "
       "× "
       "forward, attention s² term halved for the causal mask; flops.model_per_token × global batch tokens) / "
       "(predicted "
       "step time × GPUs). The paper's count is unknown; the row's notes give the figure with PaLM's unhalved "
       "attention",
       kThroughput},
      {"flashattention2", "Dao 2023 (FlashAttention-2), Table 1: model TFLOP/s per GPU", "tflops_per_gpu",
       "TFLOP/s/GPU", "6·s·N + 12·L·h·s² FLOPs per sequence (attention not halved for the causal mask); N = parameters",
       "(6·s·N + 12·L·h·s²) × sequences per step / (predicted step time × GPUs), N = llmcalc's parameter count of the "
       "shape (params.total)",
       kThroughput},
      {"gpu_hours", "Touvron et al. 2023 (Llama 2), model card / Table 2: GPU-hours of the whole pre-training",
       "gpu_hours", "GPU-hours",
       "GPU-hours the authors counted as pre-training time (everything: restarts, evaluation, idle)",
       "llmcalc's time.gpu_hours for the scenario's training.tokens; shown, not in the throughput target (the hours "
       "include "
       "time that no step-time model predicts)",
       kShown},
      {"training_days", "any source: wall-clock days of a whole pre-training", "training_days", "days",
       "the days the authors report for the run (everything: restarts, evaluation, idle)",
       "llmcalc's time.total_days for the scenario's training.tokens and GPU count; shown, not in the throughput "
       "target",
       kShown},
      {"model_states", "Rajbhandari et al. 2020 (ZeRO), Figure 1: model-state GB per GPU (1 GB = 1e9 bytes)",
       "model_states_gb", "GB",
       "(2 + 2 + K)·Ψ with K = 12 (fp32 master, momentum, variance), sharded by ZeRO stage over N_d GPUs",
       "llmcalc's memory.per_gpu.model_states_bytes / 1e9 for the scenario's precision, optimizer, dp and ZeRO stage",
       kMemory},
      // A time or a token rate needs no FLOP count, so a run of any source that measured one is
      // compared against the targets.
      {"step_time", "any source: measured seconds per training step", "step_time_s", "s",
       "measured wall-clock time of one step",
       "llmcalc's predicted step time; the error column is that of throughput (measured / predicted − 1)", kThroughput,
       true},
      {"tokens_per_gpu", "any source: measured tokens per second per GPU", "tokens_per_sec_per_gpu", "tokens/s/GPU",
       "global batch tokens / (step time × GPUs)", "global batch tokens / (predicted step time × GPUs)", kThroughput},
      {"tokens_per_s", "any source: measured tokens per second of the whole job", "tokens_per_s", "tokens/s",
       "global batch tokens / step time", "global batch tokens / predicted step time", kThroughput},
      {"samples_per_s", "any source: measured sequences (samples) per second of the whole job", "samples_per_s",
       "samples/s", "global batch sequences / step time", "global batch sequences / predicted step time", kThroughput},
      // A run's peak memory per GPU, from the counter the record names (memory_kind).
      {"peak_memory", "any source: peak GPU memory per GPU of a run (measured.memory_kind: which counter)",
       "peak_memory_gib", "GiB",
       "the peak the source's counter printed for one GPU (the most loaded one where the source says so), in GiB (2^30 "
       "bytes): "
       "allocated = PyTorch's max_memory_allocated, reserved = max_memory_reserved (the caching allocator's pool), "
       "device = "
       "nvidia-smi's or the framework's \"GPU memory used\"",
       "llmcalc's memory.per_gpu in GiB by the record's memory_kind: allocated = total − cuda_context − "
       "comm_buffers − fragmentation; reserved = total − cuda_context − comm_buffers (NCCL allocates its buffers "
       "outside PyTorch's caching allocator); device = total; the error is (predicted − measured) / measured, + = "
       "llmcalc predicts more memory",
       kPeakMemory},
      // A TFLOP/s or MFU of a source whose FLOP count is unknown: shown, not in the target, because
      // the count (recompute in or out, causal attention halved or not, output layer in or out)
      // moves the figure by up to a third whatever the step time.
      {"tflops_unknown", "any source: TFLOP/s per GPU of a FLOP count not known to llmcalc", "tflops_per_gpu",
       "TFLOP/s/GPU", "the source's own count, not known to llmcalc",
       "the FLOPs llmcalc's step executes (flops.hardware_per_token × global batch tokens: recompute counted, causal "
       "attention "
       "halved) / (predicted step time × GPUs); shown, not in the throughput target",
       kShown},
      {"mfu_unknown", "any source: model FLOPs utilisation of a FLOP count not known to llmcalc", "mfu", "fraction",
       "the source's model FLOPs / (step time × GPUs × peak), as a fraction (not a percent)",
       "llmcalc's time.mfu (model FLOPs, causal attention halved, over the dense peak of the compute dtype); shown, "
       "not in "
       "the throughput target",
       kShown},
      // Kernel benchmarks: one kernel or collective alone on the GPU (llmc/kernel_timing.h).
      {"kernel_gemm", "GEMM benchmarks (cuBLASLt, torch.mm, mamf-finder)", "tflops", "TFLOP/s", "2·m·n·k / time",
       "2·m·n·k / llmcalc's GEMM time at the kernel's shape and dtype, alone on the GPU", kKernel},
      {"kernel_attention", "fused attention benchmarks (FlashAttention's benchmark_flash_attention.py)", "tflops",
       "TFLOP/s", "4·b·s²·h·d forward (halved when causal), backward 2.5 × forward, / time",
       "the same FLOPs / llmcalc's attention time forward, backward or both, alone on the GPU", kKernel},
      {"kernel_hbm", "STREAM-type HBM benchmarks (BabelStream, gpu-stream)", "bandwidth_gbps", "GB/s",
       "bytes moved (read + written) / time", "bytes / llmcalc's streaming-copy (or triad) time", kKernel},
      {"kernel_nccl", "nccl-tests bus bandwidth", "busbw_gbps", "GB/s",
       "factor × bytes per rank / time, factor 2(n−1)/n for all-reduce, (n−1)/n for all-gather, reduce-scatter, "
       "all-to-all",
       "the same factor × bytes / llmcalc's ring collective time (NCCL's ring; NVLS, tree and CollNet not modelled)",
       kKernel},
  };
  return table;
}

const FlopConvention* find_convention(const std::string& id) {
  for (const FlopConvention& c : flop_conventions())
    if (c.id == id) return &c;
  return nullptr;
}

double megatron2021_flops_per_step(double B, double s, double l, double h, double V) {
  return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
}

double flashattention2_flops_per_seq(double s, double N, double L, double h) { return 6 * s * N + 12 * L * h * s * s; }

const std::vector<std::string>& memory_kinds() {
  static const std::vector<std::string> kinds = {"allocated", "reserved", "device"};
  return kinds;
}

// PyTorch's counters see its caching allocator only: not the CUDA context, nor the channel buffers
// NCCL allocates itself (nvidia-smi sees both; NVIDIA/nccl issues 964 and 1685 measure them so).
double peak_memory_gib(const MemoryPerGpu& m, const std::string& memory_kind) {
  double bytes = m.total_bytes;
  if (memory_kind != "device") bytes -= m.cuda_context_bytes + m.comm_buffers_bytes;
  if (memory_kind == "allocated") bytes -= m.fragmentation_bytes;
  return bytes / 1073741824.0;
}

namespace {
std::string fmt(const char* f, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
}  // namespace

Prediction predict_metric(const FlopConvention& c, const Estimate& e, bool recompute_searched,
                          const std::string& memory_kind) {
  const Resolved& r = e.r;
  const double gpus = double(r.gpu_count), step = e.time.step_s;
  const double seqs = double(r.s.training.global_batch_seqs), seq = double(r.s.training.seq_len), tokens = seqs * seq;
  Prediction p;
  if (c.id == "megatron2021" || c.id == "megatron_deepspeed") {
    // Narayanan et al.'s count (4 forward-pass equivalents: full recompute). Megatron-DeepSpeed
    // prints the same with 3 when nothing is recomputed (throughput_calculator: 4 with
    // checkpoint_activations or any recompute granularity), following the run's recompute.
    double passes = 1.0;
    if (c.id == "megatron_deepspeed") {
      if (recompute_searched)
        p.notes.push_back(std::string("recompute unpublished: the FLOP count's factor follows the rule's choice (") +
                          to_string(r.s.training.recompute) + ")");
      if (r.s.training.recompute == Recompute::none) passes = 0.75;
    }
    p.value = megatron2021_flops_per_step(seqs, seq, double(r.m.layers), double(r.m.hidden), double(r.m.vocab)) *
              passes / (step * gpus) / 1e12;
  } else if (c.id == "llama3") {
    p.value = e.flops.model_per_token * tokens / (step * gpus) / 1e12;
    const double unhalved = (e.flops.model_per_token + e.flops.attention_per_token) * tokens / (step * gpus) / 1e12;
    p.notes.push_back("with PaLM's unhalved attention FLOPs (6N + 12·l·h·s) the same step time gives " +
                      fmt("%.1f", unhalved) + " TFLOP/s");
  } else if (c.id == "flashattention2") {
    p.value = flashattention2_flops_per_seq(seq, e.params.total, double(r.m.layers), double(r.m.hidden)) * seqs /
              (step * gpus) / 1e12;
    p.notes.push_back("N = " + fmt("%.3f", e.params.total / 1e9) + "B (llmcalc's count of the shape)");
  } else if (c.time_metric) {
    p.value = step;
  } else if (c.id == "tokens_per_gpu") {
    p.value = tokens / (step * gpus);
  } else if (c.id == "tokens_per_s") {
    p.value = tokens / step;
  } else if (c.id == "samples_per_s") {
    p.value = seqs / step;
  } else if (c.id == "tflops_unknown") {
    p.value = e.flops.hardware_per_token * tokens / (step * gpus) / 1e12;
    p.notes.push_back(
        "not in the throughput target: the source's FLOP count is not known to llmcalc (compared with the FLOPs "
        "llmcalc's step executes)");
  } else if (c.id == "mfu_unknown") {
    p.value = e.time.mfu;
    p.notes.push_back(
        "not in the throughput target: the source's FLOP count is not known to llmcalc (compared with llmcalc's MFU)");
  } else if (c.id == "training_days") {
    p.value = e.time.total_days;
    p.notes.push_back("not in the throughput target: the days include restarts, evaluation and idle time");
  } else if (c.id == "gpu_hours") {
    p.value = e.time.gpu_hours;
    p.notes.push_back("not in the throughput target: the hours include restarts, evaluation and idle time");
  } else if (c.id == "model_states") {
    p.value = e.mem.model_states_bytes / 1e9;
  } else if (c.id == "peak_memory") {
    p.value = peak_memory_gib(e.mem, memory_kind);
    const double gib = 1073741824.0;
    std::string terms = "total " + fmt("%.2f", e.mem.total_bytes / gib);
    if (memory_kind != "device")
      terms += " − CUDA context " + fmt("%.2f", e.mem.cuda_context_bytes / gib) + " − NCCL buffers " +
               fmt("%.2f", e.mem.comm_buffers_bytes / gib);
    if (memory_kind == "allocated") terms += " − allocator reserve " + fmt("%.2f", e.mem.fragmentation_bytes / gib);
    p.notes.push_back("peak memory, " + memory_kind + ": " + terms + " = " + fmt("%.2f", p.value) + " GiB (weights " +
                      fmt("%.2f", e.mem.weights_bytes / gib) + ", gradients " +
                      fmt("%.2f", e.mem.gradients_bytes / gib) + ", optimizer " +
                      fmt("%.2f", (e.mem.optimizer_bytes + e.mem.master_weights_bytes) / gib) + ", activations " +
                      fmt("%.2f", e.mem.activations_bytes / gib) + ", logits " + fmt("%.2f", e.mem.logits_bytes / gib) +
                      ", NCCL buffers " + fmt("%.2f", e.mem.comm_buffers_bytes / gib) + ")");
  }
  return p;
}

}  // namespace llmc::validate
