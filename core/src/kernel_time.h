// Internal: the time of one kernel on this GPU, from the hardware profile. Lookup order, reported
// with every time: a measured table (log-space interpolation) → the profile's fitted curve →
// the spec peak × the datasheet's achievable fraction (constants below).
#pragma once
#include "llmc/scenario.h"

namespace llmc::detail {

enum class KernelBasis { table, fit, spec };
const char* to_string(KernelBasis b);

struct KernelTime {
  double s = 0;        // seconds
  double rel_err = 0;  // one-sigma relative uncertainty of s (measured spread, or the basis's)
  KernelBasis basis = KernelBasis::spec;
};

// Tables by a small enum index, each looked up on first use (a step times one or two of the seven
// dtypes and a few of the memory-bound kernels).
template <class Table, int N>
class LazyTables {
 public:
  template <class Find>
  const Table* get(int i, Find find) const {
    if (!known_[i]) table_[i] = find(), known_[i] = true;
    return table_[i];
  }

 private:
  mutable const Table* table_[N] = {};
  mutable bool known_[N] = {};
};

// The profile entries kernel times read, looked up by name once per step instead of once per
// kernel (the lookups were a tenth of an estimate's time; docs/benchmarks.md).
class KernelProfile {
 public:
  explicit KernelProfile(const HardwareSpec& hw);
  const HardwareSpec& hw;
  double hbm_gbps = 0;  // streaming copy bandwidth: the profile's hbm_copy fit, else datasheet × fraction
  const GemmTable* gemm(Dtype d) const;            // null when the profile has no GEMM fit for d
  const AttentionTable* attention(Dtype d) const;  // null when the profile has no attention table for d
  const BandwidthTable* memory(MemKernel k) const;  // null when the profile has no fit for k

 private:
  static constexpr int kDtypes = int(Dtype::int8) + 1;
  LazyTables<GemmTable, kDtypes> gemm_;
  LazyTables<AttentionTable, kDtypes> attention_;
  LazyTables<BandwidthTable, kMemKernels> memory_;
};

// The busy share of the SMs once a GEMM's m×n output is cut into tiles (and its k loop into
// chunks) and those into waves of one per SM (kernel_time.cpp).
double tile_efficiency(double m, double n, double k, double batch, double sms);

// C[m×n] = A[m×k]·B[k×n] in `dtype`, `batch` independent products (batched attention GEMMs).
KernelTime gemm_time(const KernelProfile& kp, Dtype dtype, double m, double n, double k, double batch = 1);

// Fused (flash) attention of `batch` sequences: `q_len` queries against `kv_len` keys,
// `heads` query heads of `head_dim`, FLOPs 4·b·q·kv·h·d (÷2 causal), backward 2.5× forward.
KernelTime attention_time(const KernelProfile& kp, Dtype dtype, double batch, double q_len, double kv_len, double heads,
                          double kv_heads, double head_dim, bool causal, bool backward);

// A memory-bound kernel moving `bytes` (read + written).
KernelTime memory_time(const KernelProfile& kp, MemKernel kernel, double bytes);

// The achievable fraction of spec the datasheet profile assumes (documented in
// docs/formulas.md "Kernel times"); exposed for the datasheet profile and tests.
// GEMMs of a training step against the GPU's maximum achievable matmul rate (MAMF, the best shape
// of a mamf-finder sweep): large cuBLASLt GEMMs in isolation reach 0.84-0.95 of it (Azure A100
// fp16 4096³ 228, 8192³ 254 of MAMF 271.2; H100 fp8 4096³ 1217, 8192³ 1290 of 1402.6); inside a
// step, at the shapes tp leaves and with eight GPUs at their power cap, 0.86.
constexpr double kDatasheetGemmMamfFraction = 0.86;
// GPUs without a published MAMF: A100 SXM's ratio of MAMF to peak (271.2 / 312 = 0.87) times
// 0.86, i.e. 0.75 of dense peak.
constexpr double kDatasheetGemmFraction = 0.75;
// A GEMM benchmarked alone (no neighbours at their power cap, no NCCL sharing HBM and SMs): the
// seven large cuBLASLt shapes (6144-32768) of the published records reach 0.92-0.985 of MAMF
// (H100 fp8 1290-1382 of 1402.6, A100 fp16 250.8-256.5 of 271.2), median 0.946: 0.95 / 0.86 =
// 1.10 × the in-step rate. The same ratio relates attention's isolated and in-step rates (below);
// `llmcalc validate` predicts kernel benchmark records with it.
constexpr double kIsolatedOverInStep = 0.95 / kDatasheetGemmMamfFraction;
// The GEMM rate (TFLOP/s) of the datasheet profile for `d` on `gpu`, by the two rules above.
inline double datasheet_gemm_tflops(const GpuSpec& gpu, Dtype d) {
  const double mamf = gpu.mamf_tflops(d);
  return mamf > 0 ? mamf * kDatasheetGemmMamfFraction : gpu.peak_tflops(d) * kDatasheetGemmFraction;
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
// Those rates hold H100's exponentials (its peak is 256 × its exponential rate, 4,096 / 16 per
// clock per SM): what is left is the matmul part's share of the tensor peak, the figure that
// carries to other GPUs, whose exponentials cost what their own SMs and clock say.
constexpr double kHopperPeakFlopsPerExp = 4096 / kExpPerClockPerSm;
constexpr double matmul_fraction(double fraction_at_128, double flops_per_score_per_dim) {
  return 1 / (1 / fraction_at_128 - kHopperPeakFlopsPerExp / (flops_per_score_per_dim * 128));
}
// (forward 0.92, backward 0.61 of the tensor peak).
// FlashAttention-2 on Hopper: written for Ampere's mma.sync, it cannot use Hopper's warpgroup MMA
// and reaches about 35 % of H100's peak (FlashAttention-3 paper, abstract); its figures give
// forward 370 and backward 322 TFLOP/s (hdim 128, 16k), 0.374 and 0.326 of 989.4, isolated:
// matmul parts 0.46 and 0.35 of peak.
constexpr double kAmpereAttentionOnHopperFwdFraction = 0.374;
constexpr double kAmpereAttentionOnHopperBwdFraction = 0.326;

// Which attention kernels a datasheet table describes, and where they run.
struct AttentionFractions {
  double fwd_at_128, bwd_at_128;  // isolated rates at head dim 128 on H100, fractions of peak
};
constexpr AttentionFractions kHopperNativeAttention{kIsolatedAttentionFwdFraction, kIsolatedAttentionBwdFraction};
constexpr AttentionFractions kAmpereAttentionOnHopper{kAmpereAttentionOnHopperFwdFraction, kAmpereAttentionOnHopperBwdFraction};
// The datasheet attention table of `gpu` in 16-bit dtype `d`: with the GPU's exponential rate,
// matmul parts at the fractions' matmul share of peak plus the exponentials; without one, the
// head-dim-128 rates flat. `speed` is 1 alone on the GPU and 1 / kIsolatedOverInStep inside a
// training step, where attention, like the GEMMs, runs at 0.86 / 0.95 of its isolated rate (eight
// GPUs at their power cap, NCCL holding SMs; both terms slow): at head dim 128 on H100 forward
// 0.57, backward 0.49 of peak, 0.51 for forward + backward together.
AttentionTable datasheet_attention_table(const GpuSpec& gpu, Dtype d, double speed, AttentionFractions fractions = kHopperNativeAttention);
// The datasheet profile with GEMMs and attention at their isolated rates (× kIsolatedOverInStep):
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
constexpr double kKernelOverheadUs = 4.0;         // launch + tail of one kernel (CUDA launch ~2-5 µs)

}  // namespace llmc::detail
