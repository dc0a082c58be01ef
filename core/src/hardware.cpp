#include "llmc/hardware.h"

#include "kernel_time.h"

namespace llmc {

const char* to_string(Dtype d) {
  switch (d) {
    case Dtype::fp32: return "fp32";
    case Dtype::tf32: return "tf32";
    case Dtype::bf16: return "bf16";
    case Dtype::fp16: return "fp16";
    case Dtype::fp8: return "fp8";
    case Dtype::fp4: return "fp4";
    case Dtype::int8: return "int8";
  }
  return "?";
}

const char* to_string(MemKernel k) {
  switch (k) {
    case MemKernel::hbm_copy: return "hbm_copy";
    case MemKernel::hbm_triad: return "hbm_triad";
    case MemKernel::rmsnorm: return "rmsnorm";
    case MemKernel::layernorm: return "layernorm";
    case MemKernel::softmax: return "softmax";
    case MemKernel::swiglu: return "swiglu";
    case MemKernel::gelu: return "gelu";
    case MemKernel::rotary: return "rotary";
    case MemKernel::adamw: return "adamw";
    case MemKernel::cast: return "cast";
    case MemKernel::dropout: return "dropout";
    case MemKernel::cross_entropy: return "cross_entropy";
  }
  return "?";
}

double bytes_of(Dtype d) {
  switch (d) {
    case Dtype::fp32:
    case Dtype::tf32: return 4;
    case Dtype::bf16:
    case Dtype::fp16: return 2;
    case Dtype::fp8:
    case Dtype::int8: return 1;
    case Dtype::fp4: return 0.5;
  }
  return 0;
}

double GpuSpec::peak_tflops(Dtype d) const {
  switch (d) {
    case Dtype::fp32: return peak_fp32_tflops;
    case Dtype::tf32: return peak_tf32_tflops;
    case Dtype::bf16: return peak_bf16_tflops;
    case Dtype::fp16: return peak_fp16_tflops;
    case Dtype::fp8: return peak_fp8_tflops;
    case Dtype::fp4: return peak_fp4_tflops;
    case Dtype::int8: return peak_int8_tflops;
  }
  return 0;
}

double GpuSpec::mamf_tflops(Dtype d) const {
  switch (d) {
    case Dtype::bf16:
    case Dtype::fp16: return mamf_bf16_tflops;
    case Dtype::fp8: return mamf_fp8_tflops;
    default: return 0;
  }
}

double intra_node_busbw_gbps(double link_gbps) { return 0.78 * link_gbps; }
double inter_node_busbw_gbps(double nic_gbps) { return 0.9 * nic_gbps; }

namespace {

// The datasheet profile, its tensor-core kernels at their in-step rates or alone on the GPU.
HardwareProfile datasheet_profile_at(const GpuSpec& gpu, bool isolated) {
  HardwareProfile p;
  p.gpu_id = gpu.id;
  p.source = "datasheet";
  p.description = "datasheet peaks and bandwidths of " + gpu.name + " with stated efficiencies";
  // End-to-end kernel efficiency of dense transformer training: Megatron-LM sustains 44-52% of
  // A100 peak counting recompute FLOPs (Narayanan et al. 2021, Table 1) and Llama 3 405B 38-43%
  // of H100 peak (Dubey et al. 2024, Table 4); 0.5 is the round figure between them. The
  // calibration bench replaces it with measured per-op efficiencies.
  p.compute_efficiency = 0.5;
  p.compute_efficiency_source = "assumed 0.5 of dense peak (Narayanan 2021 Table 1: 0.44-0.52; Llama 3 Table 4: 0.38-0.43)";
  // Latency: ~20 µs inside a node, ~30 µs across (nccl-tests small sizes).
  p.intra_node = AlphaBeta{20e-6, intra_node_busbw_gbps(gpu.intra_node_bandwidth_gbps)};
  p.inter_node = AlphaBeta{30e-6, inter_node_busbw_gbps(gpu.inter_node_bandwidth_gbps)};
  // Kernel-level fits (docs/formulas.md "Kernel times"): GEMMs from the GPU's published maximum
  // achievable matmul rate where there is one, else from its peak; the other kernels from the
  // peaks at fractions measured on A100 and H100 by published benchmarks; a fixed launch cost.
  if (gpu.has_mamf()) p.description += "; GEMMs from its published maximum achievable matmul TFLOP/s";
  // A kernel benchmarked alone runs kIsolatedOverInStep × its in-step rate.
  const double alone = isolated ? detail::kIsolatedOverInStep : 1.0;
  if (isolated)
    p.description += "; GEMMs and attention at their isolated rates (GEMMs 0.95 of the maximum achievable, not the in-step 0.86)";
  const struct { const char* key; Dtype d; } gemm_dtypes[] = {{"fp32", Dtype::fp32}, {"tf32", Dtype::tf32}, {"bf16", Dtype::bf16}, {"fp16", Dtype::fp16}, {"fp8", Dtype::fp8}};
  for (const auto& [key, d] : gemm_dtypes) {
    if (gpu.peak_tflops(d) <= 0) continue;
    p.gemm[key].fit = ThroughputFit{detail::datasheet_gemm_tflops(gpu, d) * alone, detail::kKernelOverheadUs};
    p.gemm[key].max_tflops = p.gemm[key].fit.peak;
    if (d == Dtype::bf16 || d == Dtype::fp16)  // fused attention runs in 16-bit
      p.attention[key] = detail::datasheet_attention_table(gpu, d, alone / detail::kIsolatedOverInStep);
  }
  if (gpu.hbm_bandwidth_gbps > 0) p.memory_bound["hbm_copy"].fit = ThroughputFit{gpu.hbm_bandwidth_gbps * detail::kDatasheetHbmFraction, detail::kKernelOverheadUs};
  p.comm_source = "busbw = 0.78 × NVLink one-way (nccl-tests 8×A100 235/300, 8×H100 ring 367/450), 0.9 × NIC; alpha 20/30 µs";
  return p;
}

}  // namespace

HardwareProfile datasheet_profile(const GpuSpec& gpu) { return datasheet_profile_at(gpu, false); }
HardwareProfile detail::datasheet_profile_isolated(const GpuSpec& gpu) { return datasheet_profile_at(gpu, true); }

std::shared_ptr<const HardwareProfile> shared_datasheet_profile(const GpuSpec& gpu) {
  // The last one built, per thread (estimates run on worker threads in the CLI's search and
  // validate): callers alternate between few GPUs, so one entry is enough to skip the rebuild.
  struct Last {
    GpuSpec gpu;
    std::shared_ptr<const HardwareProfile> profile;
  };
  thread_local Last last;
  if (!last.profile || !(last.gpu == gpu)) last = {gpu, std::make_shared<const HardwareProfile>(datasheet_profile(gpu))};
  return last.profile;
}

}  // namespace llmc
