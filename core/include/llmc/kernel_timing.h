// One kernel or one collective timed alone on a GPU with its hardware profile, by the same
// functions the step time uses (docs/formulas.md, "Kernel times" and "Communication"). For callers
// outside the estimator: the kernel benchmark records of `llmcalc validate`, tests, the bench.
#pragma once
#include <cstdint>
#include <string>

#include "llmc/hardware.h"
#include "llmc/scenario.h"

namespace llmc {

struct KernelTiming {
  double s = 0;        // seconds
  double rel_err = 0;  // one-sigma relative uncertainty (the profile's spread, or its basis's)
  std::string basis;   // "table" (measured points), "fit" (the profile's curve) or "spec" (datasheet fraction)
};

// `hw` needs hw.gpu; without a profile (hw.profile null) the GPU's datasheet profile is used.
// C[m×n] = A[m×k]·B[k×n] in `dtype`, `batch` independent products.
KernelTiming gemm_kernel_time(const HardwareSpec& hw, Dtype dtype, double m, double n, double k, double batch = 1);
// Fused (flash) attention: `batch` sequences, `q_len` queries against `kv_len` keys, `heads`
// query heads of `head_dim`; FLOPs 4·b·q·kv·h·d (÷2 causal), backward 2.5× forward.
KernelTiming attention_kernel_time(const HardwareSpec& hw, Dtype dtype, double batch, double q_len, double kv_len,
                                   double heads, double kv_heads, double head_dim, bool causal, bool backward);
// A memory-bound kernel moving `bytes` (read + written).
KernelTiming memory_kernel_time(const HardwareSpec& hw, MemKernel kernel, double bytes);

// Seconds of one collective ("all_reduce", "all_gather", "reduce_scatter", "all_to_all",
// "send_recv") over `ranks` consecutive GPUs, `bytes` per rank (nccl-tests' size), on the
// tier(s) it crosses: NCCL's ring; 0 for fewer than 2 ranks.
double collective_time_s(const HardwareSpec& hw, const std::string& collective, int64_t ranks, double bytes);
// Seconds of one MoE dispatch (a combine moves the same bytes back) from each of `ranks`
// consecutive GPUs (the EP group) of `tokens` tokens of `token_bytes`, routed over `m`'s experts
// as `routing` says, by `dispatcher`: alltoall sends each of a token's top_k copies, deepep each
// token once per rank (one node) or per remote node it reaches (docs/formulas.md, "Expert dispatch").
double moe_dispatch_time_s(const HardwareSpec& hw, EpDispatcher dispatcher, const ModelSpec& m, MoeRouting routing,
                           int64_t ranks, double tokens, double token_bytes);
// nccl-tests' bus bandwidth factor: all-reduce 2(n−1)/n, all-gather / reduce-scatter /
// all-to-all (n−1)/n, send/recv 1. busbw = factor × bytes / time.
double bus_bandwidth_factor(const std::string& collective, double ranks);

// The datasheet profile with its GEMMs and attention at their rates alone on the GPU (a kernel
// benchmark), not inside a training step (0.95 / 0.86 of them: docs/formulas.md, Kernel times).
HardwareProfile isolated_kernel_profile(const GpuSpec& gpu);
// `p` with its 16-bit attention tables replaced by an Ampere-generation kernel's (mma.sync, e.g.
// FlashAttention-2) isolated rates on a Hopper GPU: 0.374 forward, 0.326 backward of peak at
// head dim 128. Unchanged when `gpu` is not Hopper.
HardwareProfile with_ampere_attention_on_hopper(HardwareProfile p, const GpuSpec& gpu);

}  // namespace llmc
