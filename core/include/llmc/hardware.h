// GPU specs (data, from core/data/gpus/*.json) and the HardwareProfile that time estimates use.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llmc {

enum class Dtype { fp32, tf32, bf16, fp16, fp8, fp4, int8 };
const char* to_string(Dtype d);
// Storage bytes per element (tf32 is stored as fp32). Inline: an estimate asks it ~100 times.
inline double bytes_of(Dtype d) {
  switch (d) {
    case Dtype::fp32:
    case Dtype::tf32:
      return 4;
    case Dtype::bf16:
    case Dtype::fp16:
      return 2;
    case Dtype::fp8:
    case Dtype::int8:
      return 1;
    case Dtype::fp4:
      return 0.5;
  }
  return 0;
}

// The memory-bound kernels the time model uses and a profile may measure; a profile's
// memory_bound keys are these names (docs/profile-schema.md).
enum class MemKernel {
  hbm_copy,
  hbm_triad,
  rmsnorm,
  layernorm,
  softmax,
  swiglu,
  gelu,
  rotary,
  adamw,
  cast,
  dropout,
  cross_entropy
};
constexpr int kMemKernels = int(MemKernel::cross_entropy) + 1;
const char* to_string(MemKernel k);

struct GpuSpec {
  std::string id;
  std::string name;
  // Dense (non-sparse) peak tensor throughput, TFLOP/s; 0 where the GPU lacks the dtype.
  double peak_fp32_tflops = 0, peak_tf32_tflops = 0, peak_bf16_tflops = 0, peak_fp16_tflops = 0, peak_fp8_tflops = 0,
         peak_fp4_tflops = 0, peak_int8_tflops = 0;
  double memory_gib = 0;
  double hbm_bandwidth_gbps = 0;       // GB/s (10^9 B/s)
  double scale_up_bandwidth_gbps = 0;  // datasheet NVLink / Infinity Fabric aggregate, bidirectional
  double tdp_w = 0;
  int64_t gpus_per_node = 8;
  double intra_node_bandwidth_gbps = 0;  // per GPU, one direction
  double inter_node_bandwidth_gbps = 0;  // per GPU, one direction (NIC share)
  double price_per_gpu_hour_usd = 0;
  // Maximum achievable matmul TFLOP/s (the best shape of a published mamf-finder sweep); 0 where
  // none is published. The datasheet profile times GEMMs from it (docs/formulas.md, Kernel times).
  double mamf_bf16_tflops = 0, mamf_fp8_tflops = 0;
  // Streaming multiprocessors (AMD: compute units); 0 where unknown (then NCCL's share of them
  // is not modelled: docs/formulas.md, Communication, "Overlap is not free").
  int64_t sm_count = 0;
  // NVIDIA compute capability (8.0 Ampere A100, 9.0 Hopper, 10.0 Blackwell); 0 for AMD and where
  // unknown. Hopper's tensor cores run at full rate only through warpgroup MMA (wgmma), which
  // kernels written for Ampere (FlashAttention-2) do not use: docs/formulas.md, Kernel times.
  double compute_capability = 0;
  // The boost clock the datasheet's tensor peaks are quoted at (MHz; NVIDIA GPUs with sm_count
  // only, 0 elsewhere): with sm_count it sets the rate of softmax exponentials (docs/formulas.md,
  // Kernel times, "Head dimension").
  double boost_clock_mhz = 0;
  // The host link's datasheet rate per direction, GB/s (PCIe x16: Gen3 16, Gen4 32, Gen5 64;
  // GB200's NVLink-C2C, 225 per GPU); 0 where unknown. Activation offloading's copies cross it.
  double host_link_gbps = 0;
  // Sustained SM clock ÷ the boost clock the tensor peaks are quoted at: 1, or lower under a lowered
  // power limit (hardware.power_limit_w). The datasheet profile's compute-bound rates (GEMMs,
  // attention, exponentials) scale with it; peak_tflops() stays the datasheet's (the MFU basis).
  double clock_ratio = 1;
  // The citations are not kept here (every Scenario copies its GpuSpec): gpu_sources(id).

  double peak_tflops(Dtype d) const;
  // The measured maximum for a dtype: bf16's for fp16 too (the same tensor-core rate), 0 for the
  // dtypes no sweep covers.
  double mamf_tflops(Dtype d) const;
  bool has_mamf() const { return mamf_bf16_tflops > 0 || mamf_fp8_tflops > 0; }
  // FlashAttention-2/3 and cuDNN's fused flash attention need NVIDIA compute capability 8.0
  // (Ampere) or newer, the generation that brought bf16 tensor cores; AMD's Instinct GPUs with
  // bf16 run CK's flash attention. The one catalog GPU without bf16 (V100, sm70) has neither.
  bool has_fused_attention() const { return peak_bf16_tflops > 0; }
  bool is_hopper() const { return compute_capability >= 9.0 && compute_capability < 10.0; }
  // The architecture the datasheet's in-step GEMM efficiency is fitted per (datasheet_profile):
  // "ampere" (compute capability 8.x, Ada with it), "hopper" (9.x), "blackwell" (10.x); "" for
  // the others, which take the fit over every architecture.
  const char* architecture() const;
  // Softmax exponentials per second ÷ 1e12: SMs × 16 exp2 per clock per SM × boost clock on
  // NVIDIA compute capability 7.x-9.x; 0 where the catalog lacks a figure (docs/formulas.md,
  // Kernel times, "Head dimension").
  double exp_tera_per_s() const;
  // The 16-bit tensor dtype a GPU is quoted in: bf16, or fp16 where it has no bf16 (V100).
  Dtype half_dtype() const { return peak_bf16_tflops > 0 ? Dtype::bf16 : Dtype::fp16; }
  bool operator==(const GpuSpec&) const = default;
};

// A collective's cost on one tier: t = alpha_s + bytes_on_the_wire / (busbw_gbps · 1e9).
struct AlphaBeta {
  double alpha_s = 0;
  double busbw_gbps = 0;
};

// Measured tables (schema v1 optional keys, docs/profile-schema.md). Each point is a median over
// samples with its p10/p90 (same unit) and coefficient of variation; the time model interpolates
// the points in log space, falls back to the fit, then to spec peaks, and says which it used.

// time = overhead_us + work / peak: work in FLOPs (peak in TFLOP/s) or bytes (peak in GB/s).
// Physical: a fixed launch/tail cost plus an asymptotic rate (fitted by least squares on time).
struct ThroughputFit {
  double peak = 0;  // TFLOP/s or GB/s; 0 = no fit
  double overhead_us = 0;
};

struct GemmPoint {
  double m = 0, n = 0, k = 0;  // C[m×n] = A[m×k] · B[k×n]
  double tflops = 0, p10 = 0, p90 = 0, cv = 0;
};
struct GemmTable {
  double max_tflops = 0;  // best over all shapes (the "maximum achievable")
  ThroughputFit fit;      // peak in TFLOP/s
  std::vector<GemmPoint> points;
};

// Fused (flash) attention. FLOPs convention of FlashAttention's benchmarks: fwd = 4·b·s²·h·d
// (halved when causal), bwd = 2.5 × fwd.
struct AttentionPoint {
  double batch = 0, seq_len = 0, heads = 0, kv_heads = 0, head_dim = 0;
  bool causal = true;
  double fwd_tflops = 0, bwd_tflops = 0, cv = 0;
};
struct AttentionTable {
  // Time = overhead + FLOPs / peak + score elements / exp rate: the matmuls at `peak` TFLOP/s and
  // one softmax exponential per score element (forward, and backward's recomputed P) at
  // exp_tera_per_s × 1e12 per second. 0 (profiles written before the term, GPUs without an SFU
  // figure) leaves a flat rate: the fit's peak then holds the exponentials' cost too.
  ThroughputFit fwd_fit, bwd_fit;  // peak in TFLOP/s
  double exp_tera_per_s = 0;
  std::vector<AttentionPoint> points;
};
// The rate (TFLOP/s) of a large attention kernel of head dim `head_dim` by this table's fit
// (launch cost left out): FLOPs over matmul time plus exponential time.
double attention_tflops(const AttentionTable& t, bool backward, double head_dim);

// A memory-bound kernel: bytes moved (read + written) against achieved GB/s.
struct BandwidthPoint {
  double bytes = 0, gbps = 0, p10 = 0, p90 = 0, cv = 0;
};
struct BandwidthTable {
  ThroughputFit fit;  // peak in GB/s
  std::vector<BandwidthPoint> points;
};

// One collective on one group size and tier: fitted alpha-beta plus its measured points
// (busbw as nccl-tests defines it).
struct CollectiveTable {
  std::string op;  // all_reduce | all_gather | reduce_scatter | all_to_all | send_recv
  int64_t group = 0;
  std::string tier;  // intra_node | inter_node
  AlphaBeta fit;
  std::vector<BandwidthPoint> points;  // bytes = per-rank payload, gbps = busbw
};

// Host microseconds to issue one GPU kernel (docs/formulas.md, "Host issue"): what a step costs
// when its kernels are shorter than issuing them. By how the host issues them: PyTorch eager ops
// (Python, the dispatcher and autograd), fused modules (torch.compile's graphs, Transformer
// Engine), and a native C++/CUDA loop. 0 = not in the profile: the datasheet's measured values.
struct HostIssue {
  double python_eager_us = 0, python_fused_us = 0, native_us = 0;
  bool operator==(const HostIssue&) const = default;
};
constexpr double kMaxHostIssueUs = 10000;  // a profile's bound: no host takes 10 ms per kernel

// Schema v1 (docs/profile-schema.md): a flat compute efficiency and one alpha-beta per tier
// (required), plus the optional measured tables the calibration bench writes.
struct HardwareProfile {
  int schema_version = 1;
  std::string gpu_id;
  std::string source = "datasheet";  // datasheet | published | measured
  std::string description;           // "measured on <device>, <date>" or the citations
  std::vector<std::string> citations;
  std::string metadata_json;      // free-form object, kept verbatim ("" = none)
  double compute_efficiency = 0;  // fraction of dense peak sustained by compute kernels
  std::string compute_efficiency_source;
  AlphaBeta intra_node;  // NVLink / scale-up domain
  AlphaBeta inter_node;  // network
  std::string comm_source;
  // Optional measured tables; empty when absent. std::less<> lets the time model look them up
  // by a C string without building a std::string per kernel.
  std::map<std::string, GemmTable, std::less<>> gemm;               // by dtype: bf16, fp16, tf32, fp8
  std::map<std::string, AttentionTable, std::less<>> attention;     // by dtype
  std::map<std::string, BandwidthTable, std::less<>> memory_bound;  // by to_string(MemKernel)
  std::vector<CollectiveTable> collectives;
  double h2d_gbps = 0, d2h_gbps = 0;  // pinned host <-> device copies; 0 = not measured
  double usable_memory_bytes = 0;     // what cudaMemGetInfo left free on an idle GPU; 0 = not measured
  HostIssue host_issue;
};

// Bus bandwidth NCCL reaches on a link of `link_gbps` one-way: ~78% of NVLink inside a node
// (nccl-tests 8×A100: 235 GB/s of 300; 8×H100 ring: 367 of 450) and ~90% of the NIC across nodes.
// Used by the datasheet profile and when the user overrides a link's bandwidth.
double intra_node_busbw_gbps(double link_gbps);
double inter_node_busbw_gbps(double nic_gbps);

// Pinned host <-> device copies reach about 0.85 of the host link's datasheet rate (PCIe's
// 128b/130b encoding and packet headers; NVIDIA's nvbandwidth reports 55.6 GB/s host to device
// on PCIe Gen5 x16, 0.87 of 64): what activation offloading's copies get without a profile.
constexpr double kHostCopyShare = 0.85;
// The rates activation offloading copies at, GB/s each way: a profile's measured pinned copies
// when it has both, else kHostCopyShare of the GPU's host link; 0 where neither is known.
struct HostCopyRates {
  double d2h_gbps = 0, h2d_gbps = 0;
  bool measured = false;
};
inline HostCopyRates host_copy_rates(const GpuSpec& gpu, const HardwareProfile* profile) {
  if (profile && profile->h2d_gbps > 0 && profile->d2h_gbps > 0) return {profile->d2h_gbps, profile->h2d_gbps, true};
  return {gpu.host_link_gbps * kHostCopyShare, gpu.host_link_gbps * kHostCopyShare, false};
}

// The profile llmcalc uses when none is loaded: datasheet bandwidths with stated efficiencies, its
// kernels at their rates inside a training step (alone on the GPU: llmc/kernel_timing.h).
HardwareProfile datasheet_profile(const GpuSpec& gpu);
// The same with the one efficiency `llmcalc validate --lofo` fits: what GEMMs reach inside a
// training step as a fraction of the GPU's maximum achievable matmul rate (fused attention
// scales with it; kernels benchmarked alone do not). datasheet_profile() uses the value fitted
// for the GPU's architecture (datasheet_gemm_mamf_fraction).
HardwareProfile datasheet_profile(const GpuSpec& gpu, double in_step_gemm_mamf_fraction);
double datasheet_gemm_mamf_fraction(const GpuSpec& gpu);
// The same, built once per GPU spec and shared: resolve() needs it on every estimate, and
// rebuilding its tables was an eighth of an estimate's time (docs/benchmarks.md).
std::shared_ptr<const HardwareProfile> shared_datasheet_profile(const GpuSpec& gpu);

}  // namespace llmc
