// Internal: the efficiencies the datasheet profile assumes where nothing was measured: what each
// kind of kernel reaches of the datasheet's peaks, with the published measurements each is read
// from (docs/formulas.md, "Kernel times"). The datasheet profile (datasheet.cpp) and the kernel
// time model's spec fallback (estimate/kernel_time.cpp) use them.
#pragma once
#include <string>
#include <string_view>

#include "llmc/hardware.h"
#include "llmc/scenario.h"

namespace llmc::detail {

// The achievable fraction of spec the datasheet profile assumes (documented in
// docs/formulas.md "Kernel times"); exposed for the datasheet profile and tests.
// GEMMs of a training step against the GPU's maximum achievable matmul rate (MAMF, the best shape
// of a mamf-finder sweep). Large cuBLASLt GEMMs alone reach 0.92-0.985 of it (below); inside a
// step they run at the shapes tp leaves, beside NCCL, with eight GPUs at their power cap, and the
// step has launch gaps and host work the kernel model does not see, which weigh more the faster
// the GPU. The one fitted efficiency of the model, per architecture: chosen by `llmcalc validate
// --lofo` on the published runs of validation/ (the fraction that minimises the mean over source
// families of their mean |ln(measured / predicted step time)|, 0.50-1.00 by 0.02, over the rows
// of that architecture; over every row for the pooled value), docs/validation.md "Leave one
// family out". Attention's in-step rate scales with it.
constexpr double kDatasheetGemmMamfFraction = 0.74;  // pooled, 325 rows of 28 families: other GPUs
constexpr double kAmpereGemmMamfFraction = 0.80;     // A100, A800, RTX 4090: 89 rows of 13 families
constexpr double kHopperGemmMamfFraction = 0.72;     // H100, H200, H800: 202 rows of 17 families
constexpr double kBlackwellGemmMamfFraction = 0.56;  // B200, GB200: 32 rows of 4 families (a flat loss)
inline double gemm_mamf_fraction_of(const GpuSpec& gpu) {
  const std::string_view a = gpu.architecture();
  return a == "ampere"      ? kAmpereGemmMamfFraction
         : a == "hopper"    ? kHopperGemmMamfFraction
         : a == "blackwell" ? kBlackwellGemmMamfFraction
                            : kDatasheetGemmMamfFraction;
}
// GPUs without a published MAMF: A100 SXM's ratio of MAMF to dense peak (271.2 / 312 = 0.87).
constexpr double kMamfOverPeakWithoutMamf = 0.87;
// A dtype without a published MAMF on a GPU with one for its 16-bit type takes that type's share
// of peak: the same matrix units, clocks and power cap. Where both are published the two shares
// are close (H100 SXM fp8 0.71 vs bf16 0.80, B200 0.76 vs 0.78); the A100's 0.87 would put an
// MI300X's FP8 at 2,275 TFLOP/s against its bf16 MAMF of 668 (0.51 of peak).
inline double mamf_or_estimate_tflops(const GpuSpec& gpu, Dtype d) {
  if (const double mamf = gpu.mamf_tflops(d); mamf > 0) return mamf;
  const Dtype half = gpu.half_dtype();
  const double half_mamf = gpu.mamf_tflops(half), half_peak = gpu.peak_tflops(half);
  const double share = half_mamf > 0 && half_peak > 0 ? half_mamf / half_peak : kMamfOverPeakWithoutMamf;
  return gpu.peak_tflops(d) * share;
}
// A GEMM benchmarked alone (no neighbours at their power cap, no NCCL sharing HBM and SMs): the
// seven large cuBLASLt shapes (6144-32768) of the published records reach 0.92-0.985 of MAMF
// (H100 fp8 1290-1382 of 1402.6, A100 fp16 250.8-256.5 of 271.2), median 0.946: 0.95. The same
// ratio to the in-step rate relates attention's isolated and in-step rates (below);
// `llmcalc validate` predicts kernel benchmark records with it.
constexpr double kIsolatedGemmMamfFraction = 0.95;
// The GEMM rate (TFLOP/s) of the datasheet profile for `d` on `gpu` at an in-step fraction of
// MAMF (0: the one fitted for its architecture; MAMF estimated as above where none is published). It
// scales with the sustained clock (GpuSpec::clock_ratio, 1 at the GPU's own power limit).
inline double datasheet_gemm_tflops(const GpuSpec& gpu, Dtype d, double mamf_fraction = 0) {
  const double fraction = mamf_fraction > 0 ? mamf_fraction : gemm_mamf_fraction_of(gpu);
  return mamf_or_estimate_tflops(gpu, d) * fraction * gpu.clock_ratio;
}
// Fused attention is two kinds of work: matmuls on the tensor cores and one softmax exponential
// per score element on the special function units (forward, and backward's recomputed P), which
// run 16 exp2 per clock per SM on compute capability 7.x-9.x (CUDA C++ Programming Guide,
// "Arithmetic Instructions", throughput table) against 1,024-4,096 tensor FLOP: H100 SXM5 has
// 989 TFLOP/s of matmul but 3.9 TFLOP/s of exponentials (FlashAttention-3 paper, §3; 132 SMs ×
// 16 × 1,830 MHz). Per score element the forward does 4·head_dim matmul FLOPs (QKᵀ, PV), the
// backward 10·head_dim (QKᵀ again, dP, dV, dQ, dK), so a smaller head spends a larger share of
// its time on exponentials. The two add: the FlashAttention-3 forward figures (H100, 16k tokens,
// head dim 64 / 128 / 256: 497 / 648 / 756 TFLOP/s, 0.77 and 1.17 × head dim 128's) are matched
// within 2 % with the exponential rate from the SMs and clock alone, nothing fitted
// (docs/formulas.md, Kernel times, "Head dimension").
constexpr double kExpPerClockPerSm = 16;
constexpr double kAttentionFwdFlopsPerScorePerDim = 4;
constexpr double kAttentionBwdFlopsPerScorePerDim = 10;
constexpr double attention_flops_per_score_per_dim(bool backward) {
  return backward ? kAttentionBwdFlopsPerScorePerDim : kAttentionFwdFlopsPerScorePerDim;
}
// GpuSpec::exp_tera_per_s() is SMs × this × boost clock; 0 where the catalog has no SM count or
// clock (AMD, Blackwell, L40S, H100 NVL): their attention keeps a flat rate.

// Fused attention alone on the GPU, bf16, head dim 128, 16k tokens: the Hopper-native kernels of
// the FlashAttention-3 paper's figures (arXiv:2407.08608, H100 SXM5) run forward at 648
// (FlashAttention-3) and 595 (cuDNN) TFLOP/s, backward at 561 and 516: means 0.63 and 0.54 of
// 989.4.
constexpr double kIsolatedAttentionFwdFraction = 0.63;
constexpr double kIsolatedAttentionBwdFraction = 0.54;
// Those rates hold H100's exponentials (its peak is 256 × its exponential rate, 4,096 tensor FLOPs
// and 16 exponentials per clock per SM; A100's 2,048 and 16, 128 ×): what is left is the matmul
// part's share of the tensor peak, the figure that carries to other GPUs, whose exponentials cost
// what their own SMs and clock say.
constexpr double kHopperPeakFlopsPerExp = 4096 / kExpPerClockPerSm;
constexpr double kAmperePeakFlopsPerExp = 2048 / kExpPerClockPerSm;
constexpr double matmul_fraction(double fraction_at_128, double flops_per_score_per_dim,
                                 double peak_flops_per_exp = kHopperPeakFlopsPerExp) {
  return 1 / (1 / fraction_at_128 - peak_flops_per_exp / (flops_per_score_per_dim * 128));
}
// (forward 0.92, backward 0.61 of the tensor peak).

// Which attention kernels a datasheet table describes, and the GPU their figures were read on.
struct AttentionFractions {
  double fwd_at_128, bwd_at_128;                       // isolated rates at head dim 128, 16k tokens, fractions of peak
  double peak_flops_per_exp = kHopperPeakFlopsPerExp;  // of the GPU they were measured on
};
// A fused kernel of unnamed make (profiles without a backend): the Hopper-native mean above.
constexpr AttentionFractions kHopperNativeAttention{kIsolatedAttentionFwdFraction, kIsolatedAttentionBwdFraction};
// The backends one by one (training.attention_backend), from the FlashAttention-3 paper's H100
// SXM5 figures at head dim 128 and 16k tokens: FlashAttention-3 648 / 561 TFLOP/s forward /
// backward (0.655, 0.567 of 989.4), cuDNN 595 / 516 (0.601, 0.522), and FlashAttention-2, written
// for Ampere's mma.sync, which cannot use Hopper's warpgroup MMA: 370 / 322 (0.374, 0.326),
// "about 35 % of H100's peak" (its abstract): the flash-attn package's build, kept for the kernel
// benchmarks that name it and as the basis of Triton's rates below. What training frameworks run
// as FlashAttention-2 is mostly PyTorch SDPA's flash backend, a build of its own that is slower:
// 329 TFLOP/s forward in tritonbench on an H100 (1 × 24 heads × 4,608 tokens, head dim 128;
// meta-pytorch/tritonbench#97, against 631 for cuDNN and FlashAttention-3), and 327 forward /
// 307 backward measured on an H100 SXM with PyTorch 2.11 (head dim 128, 16k tokens, the mean of
// 8 head counts and masks; gpu/measurements/2026-11-27-*/attention.json): 0.330 and 0.310.
constexpr AttentionFractions kFa3OnHopper{0.655, 0.567};
constexpr AttentionFractions kCudnnOnHopper{0.601, 0.522};
constexpr AttentionFractions kFa2PackageOnHopper{0.374, 0.326};
constexpr AttentionFractions kFa2OnHopper{0.330, 0.310};
constexpr AttentionFractions kAmpereAttentionOnHopper = kFa2PackageOnHopper;
// FlashAttention-2 on datacenter Blackwell (compute capability 10.x): its mma.sync code cannot use
// Blackwell's tcgen05 tensor cores, so it runs at about Hopper's absolute rate, not at Hopper's
// fraction of a peak 2.3 × higher: 331 TFLOP/s forward at head dim 128, 16k tokens on a B200
// (tritonbench, meta-pytorch/tritonbench#171; 352-362 at 2k-8k tokens), 0.147 of 2,250; backward
// in FlashAttention-2's H100 proportion (322 : 370), 0.128 (Dao-AILab/flash-attention#1589 measured
// backward at 0.88 of forward on a B200, head dim 64).
constexpr AttentionFractions kFa2OnBlackwell{0.147, 0.128};
// FlashAttention-2 on the GPU it was written for, A100 SXM: forward + backward 203 TFLOP/s at head
// dim 128, 16k tokens, non-causal (0.651 of 312; Dao 2023, benchmark figures), split into
// forward and backward in the proportion of its H100 figures (370 : 322): 0.720 and 0.627, the
// forward matching the paper's "up to 73 % of the theoretical maximum" on A100.
constexpr AttentionFractions kFa2OnAmpere{0.720, 0.627, kAmperePeakFlopsPerExp};
// FlashAttention written in Triton: FlashAttention-2 is "around 1.3-1.5× faster than
// FlashAttention in Triton in the forward pass and around 2× faster in the backward pass" (Dao
// 2023, §4.1, A100; its benchmark's Triton kernel is triton.ops.flash_attention). Rates:
// FlashAttention-2's ÷ 1.4 forward and ÷ 2 backward, on Hopper too (neither uses Hopper's
// warpgroup MMA). MosaicML's MPT kernel (attn_impl 'triton': flash-attn's flash_attn_triton.py
// on a pre-MLIR Triton) has no published rate of its own; this is the nearest published figure.
constexpr double kFa2OverTritonFwd = 1.4, kFa2OverTritonBwd = 2.0;
constexpr AttentionFractions kTritonOnAmpere{kFa2OnAmpere.fwd_at_128 / kFa2OverTritonFwd,
                                             kFa2OnAmpere.bwd_at_128 / kFa2OverTritonBwd, kAmperePeakFlopsPerExp};
constexpr AttentionFractions kTritonOnHopper{kFa2PackageOnHopper.fwd_at_128 / kFa2OverTritonFwd,
                                             kFa2PackageOnHopper.bwd_at_128 / kFa2OverTritonBwd};
// PyTorch's FlexAttention (torch.nn.attention.flex_attention: Triton kernels Inductor generates for
// a score_mod / block mask), as its authors measured it: on A100 90 % of FlashAttention-2's
// forward and 85 % of its backward (PyTorch blog "FlexAttention: The Flexibility of PyTorch with
// the Performance of FlashAttention", 2024-08-07); on H100 85 % of FlashAttention-3's forward and
// 76 % of its backward, "~25 % faster than FlashAttention-2" forward and ~3 % backward (Guessous,
// Meta, GTC 2025 session "FlexAttention: The Flexibility of PyTorch With the Performance of
// FlashAttention").
constexpr AttentionFractions kFlexOnAmpere{0.90 * kFa2OnAmpere.fwd_at_128, 0.85 * kFa2OnAmpere.bwd_at_128,
                                           kAmperePeakFlopsPerExp};
constexpr AttentionFractions kFlexOnHopper{0.85 * kFa3OnHopper.fwd_at_128, 0.76 * kFa3OnHopper.bwd_at_128};
// The fractions of `backend` (fa2, fa3, cudnn, triton, flex) on `gpu`: Hopper's figures on compute capability
// 9.x; Ampere's FlashAttention-2 on 8.x (cuDNN's fused attention there is FlashAttention-2 class;
// no published comparison); FlashAttention-2's B200 figures on 10.x; on Blackwell and later
// otherwise, where no attention rates are published, the Hopper figures of the same backend; on
// GPUs without a compute capability (AMD: CK's flash attention), the unnamed-make rates.
AttentionFractions attention_fractions(const GpuSpec& gpu, AttentionBackend backend);
// A profile's attention table of one backend is keyed "<dtype>.<backend>" ("bf16.fa2"); "<dtype>"
// alone is a fused kernel of unrecorded make (docs/profile-schema.md).
std::string attention_table_key(Dtype d, AttentionBackend backend);
// The datasheet attention table of `gpu` in 16-bit dtype `d`: with the GPU's exponential rate,
// matmul parts at the fractions' matmul share of peak plus the exponentials; without one, the
// head-dim-128 rates flat. `speed` is 1 alone on the GPU and, inside a training step, the
// architecture's in-step GEMM fraction ÷ kIsolatedGemmMamfFraction: attention, like the GEMMs,
// runs slower there than alone (eight GPUs at their power cap, NCCL holding SMs; both terms
// slow), on H100 at 0.72 / 0.95 of its isolated rate.
AttentionTable datasheet_attention_table(const GpuSpec& gpu, Dtype d, double speed,
                                         AttentionFractions fractions = kHopperNativeAttention);
// The datasheet profile with GEMMs and attention at their isolated rates (kIsolatedGemmMamfFraction):
// a kernel benchmarked alone (llmc/kernel_timing.h; hardware.cpp).
HardwareProfile datasheet_profile_isolated(const GpuSpec& gpu);
// Seconds of `flops` matmul work and `exps` exponentials at table `t`'s fit, launch left out.
double attention_work_s(const AttentionTable& t, bool backward, double flops, double exps);
// Streaming copies (HBM copy/triad, the fused multi-tensor optimizer): BabelStream copy on
// A100 80GB 1.61-1.75 of 2.04 TB/s, H100 2.90-3.18 of 3.35.
constexpr double kDatasheetHbmFraction = 0.85;
// Framework element-wise kernels (LayerNorm/RMSNorm, GeLU/SwiGLU, dropout, softmax, rotary,
// cross-entropy) move their bytes at about half of HBM peak: short, multi-pass kernels with
// reductions, strided views and launch gaps. The calibration bench measures our own versions.
constexpr double kDatasheetElementwiseFraction = 0.50;
constexpr double kKernelOverheadUs = 4.0;  // launch + tail of one kernel (CUDA launch ~2-5 µs)
// Fused attention's floor per query row and head (kernel_time.cpp): time = rows × (ns_per_row +
// ps_per_row_dim × head_dim), fitted (least squares in relative error) to an H100's SDPA kernels at
// 128-512 tokens per sequence, 16,384 tokens of 32/8, 64/8, 40/40 and 16/16 query/key-value heads
// of dim 128 or 64, causal, PyTorch 2.11 / cuDNN 9.19 (gpu/groundtruth/packed_attention_bench.py;
// gpu/measurements/2026-11-27-*/packed_attention*.json). cuDNN's fused attention; SDPA's
// FlashAttention-2, which also stands for the other flash kernels. Other GPUs: × 3,350 / their GB/s.
struct AttentionFloor {
  double ns_per_row, ps_per_row_dim;
};
constexpr AttentionFloor kAttentionFloorCudnnFwd{0.25, 1.74}, kAttentionFloorCudnnBwd{1.34, 8.7};
constexpr AttentionFloor kAttentionFloorFlashFwd{0.51, 1.18}, kAttentionFloorFlashBwd{1.50, 13.7};
constexpr double kAttentionFloorHbmGbps = 3350;  // the H100 SXM it was measured on
// Host microseconds to issue one kernel, where a profile has none (docs/formulas.md, "Host
// issue"), measured on one H100 box (a Firecracker VM's Xeon, PyTorch 2.11, 2026-11-27). Python:
// gpu/groundtruth/overheads.py, a tiny Llama whose kernels are shorter than issuing them, host time
// of forward + backward over the kernels they issue between 2 and 10 layers; the median of three
// runs (eager 36.3 / 39.7 / 42.4, compiled 31.7 / 43.0 / 62.0). Native: llmcalc-bench's launch
// suite, an empty kernel launched back to back (21 samples of three runs, median 3.80). A plain
// eager op cost 10-12 µs on that host; bare-metal hosts are faster, so these err slow.
constexpr double kHostPythonEagerUs = 39.7;  // PyTorch eager ops, autograd included (100 kernels a layer)
constexpr double kHostPythonFusedUs = 43.0;  // torch.compile'd layers (48 kernels a layer)
constexpr double kHostNativeUs = 3.8;        // cudaLaunchKernel from C++

}  // namespace llmc::detail
