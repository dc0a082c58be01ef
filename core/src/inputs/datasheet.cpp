// The datasheet profile: the GPU catalog's peaks and bandwidths at the efficiencies of
// datasheet.h, and the softmax exponential rate from the SMs and clock.
#include "inputs/datasheet.h"

#include <cstdio>

namespace llmc::detail {

AttentionFractions attention_fractions(const GpuSpec& gpu, AttentionBackend backend) {
  const double cc = gpu.compute_capability;
  if (!is_fused(backend) || cc < 8.0) return kHopperNativeAttention;  // unnamed, AMD, pre-Ampere
  if (cc < 9.0)
    return backend == AttentionBackend::triton ? kTritonOnAmpere
           : backend == AttentionBackend::flex ? kFlexOnAmpere
                                               : kFa2OnAmpere;
  switch (backend) {
    case AttentionBackend::triton:
      return kTritonOnHopper;
    case AttentionBackend::flex:
      return kFlexOnHopper;
    case AttentionBackend::fa3:
      return kFa3OnHopper;
    case AttentionBackend::cudnn:
      return kCudnnOnHopper;
    default:
      return cc >= 10.0 && cc < 11.0 ? kFa2OnBlackwell : kFa2OnHopper;
  }
}

std::string attention_table_key(Dtype d, AttentionBackend backend) {
  return std::string(to_string(d)) + "." + to_string(backend);
}

AttentionTable datasheet_attention_table(const GpuSpec& gpu, Dtype d, double speed, AttentionFractions fractions) {
  AttentionTable t;
  const double peak = gpu.peak_tflops(d), exp_rate = gpu.exp_tera_per_s();
  const bool split = exp_rate > 0;
  const double fwd =
      split ? matmul_fraction(fractions.fwd_at_128, kAttentionFwdFlopsPerScorePerDim, fractions.peak_flops_per_exp)
            : fractions.fwd_at_128;
  const double bwd =
      split ? matmul_fraction(fractions.bwd_at_128, kAttentionBwdFlopsPerScorePerDim, fractions.peak_flops_per_exp)
            : fractions.bwd_at_128;
  t.fwd_fit = ThroughputFit{peak * fwd * speed * gpu.clock_ratio, kKernelOverheadUs};
  t.bwd_fit = ThroughputFit{peak * bwd * speed * gpu.clock_ratio, kKernelOverheadUs};
  t.exp_tera_per_s = exp_rate * speed;
  return t;
}

// The fit's time for the work of one attention kernel (launch left out): matmuls at the fit's
// rate, exponentials at the table's rate (none where it has none).
double attention_work_s(const AttentionTable& t, bool backward, double flops, double exps) {
  const ThroughputFit& f = backward ? t.bwd_fit : t.fwd_fit;
  return flops / (f.peak * 1e12) + (t.exp_tera_per_s > 0 ? exps / (t.exp_tera_per_s * 1e12) : 0);
}

}  // namespace llmc::detail

namespace llmc {

const char* GpuSpec::architecture() const {
  return compute_capability >= 10  ? "blackwell"
         : compute_capability >= 9 ? "hopper"
         : compute_capability >= 8 ? "ampere"
                                   : "";
}

double GpuSpec::exp_tera_per_s() const {
  // Compute capability 7.0-9.x: the programming guide's throughput table (kernel_time.h).
  if (compute_capability < 7.0 || compute_capability >= 10.0 || sm_count <= 0 || boost_clock_mhz <= 0) return 0;
  return double(sm_count) * detail::kExpPerClockPerSm * boost_clock_mhz * clock_ratio * 1e-6;
}

double attention_tflops(const AttentionTable& t, bool backward, double head_dim) {
  const ThroughputFit& f = backward ? t.bwd_fit : t.fwd_fit;
  if (f.peak <= 0 || head_dim <= 0) return 0;
  const double flops_per_score = detail::attention_flops_per_score_per_dim(backward) * head_dim;
  return flops_per_score / detail::attention_work_s(t, backward, flops_per_score, 1) / 1e12;
}

namespace {

// The datasheet profile, its tensor-core kernels at their in-step rates or alone on the GPU.
std::string fraction_text(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", f);
  return buf;
}

HardwareProfile datasheet_profile_at(const GpuSpec& gpu, bool isolated, double gemm_mamf_fraction) {
  HardwareProfile p;
  p.gpu_id = gpu.id;
  p.source = "datasheet";
  p.description = "datasheet peaks and bandwidths of " + gpu.name + " with stated efficiencies";
  // End-to-end kernel efficiency of dense transformer training: Megatron-LM sustains 44-52% of
  // A100 peak counting recompute FLOPs (Narayanan et al. 2021, Table 1) and Llama 3 405B 38-43%
  // of H100 peak (Dubey et al. 2024, Table 4); 0.5 is the round figure between them. The
  // calibration bench replaces it with measured per-op efficiencies.
  p.compute_efficiency = 0.5;
  p.compute_efficiency_source =
      "assumed 0.5 of dense peak (Narayanan 2021 Table 1: 0.44-0.52; Llama 3 Table 4: 0.38-0.43)";
  // Latency: ~20 µs inside a node, ~30 µs across (nccl-tests small sizes).
  p.intra_node = AlphaBeta{20e-6, intra_node_busbw_gbps(gpu.intra_node_bandwidth_gbps)};
  p.inter_node = AlphaBeta{30e-6, inter_node_busbw_gbps(gpu.inter_node_bandwidth_gbps)};
  // Kernel-level fits (docs/formulas.md "Kernel times"): GEMMs from the GPU's published maximum
  // achievable matmul rate where there is one, else from its peak; the other kernels from the
  // peaks at fractions measured on A100 and H100 by published benchmarks; a fixed launch cost.
  if (gpu.has_mamf()) p.description += "; GEMMs from its published maximum achievable matmul TFLOP/s";
  // A kernel benchmarked alone runs kIsolatedOverInStep × its in-step rate.
  const double isolated_over_in_step = detail::kIsolatedGemmMamfFraction / gemm_mamf_fraction;
  const double alone = isolated ? isolated_over_in_step : 1.0;
  if (isolated)
    p.description +=
        "; GEMMs and attention at their isolated rates (GEMMs 0.95 of the maximum achievable, not the in-step " +
        fraction_text(gemm_mamf_fraction) + ")";
  else if (gemm_mamf_fraction != detail::gemm_mamf_fraction_of(gpu))
    p.description += "; GEMMs at " + fraction_text(gemm_mamf_fraction) + " of the maximum achievable in a step";
  const struct {
    const char* key;
    Dtype d;
  } gemm_dtypes[] = {
      {"fp32", Dtype::fp32}, {"tf32", Dtype::tf32}, {"bf16", Dtype::bf16}, {"fp16", Dtype::fp16}, {"fp8", Dtype::fp8}};
  for (const auto& [key, d] : gemm_dtypes) {
    if (gpu.peak_tflops(d) <= 0) continue;
    p.gemm[key].fit =
        ThroughputFit{detail::datasheet_gemm_tflops(gpu, d, gemm_mamf_fraction) * alone, detail::kKernelOverheadUs};
    p.gemm[key].max_tflops = p.gemm[key].fit.peak;
    if (d != Dtype::bf16 && d != Dtype::fp16) continue;  // fused attention runs in 16-bit
    p.attention[key] = detail::datasheet_attention_table(gpu, d, alone / isolated_over_in_step);
    // One table per backend the GPU runs (training.attention_backend).
    if (gpu.compute_capability < 8.0) continue;
    for (AttentionBackend b : kFusedAttentionBackends) {
      if (b == AttentionBackend::fa3 && !gpu.is_hopper()) continue;
      p.attention[detail::attention_table_key(d, b)] =
          detail::datasheet_attention_table(gpu, d, alone / isolated_over_in_step, detail::attention_fractions(gpu, b));
    }
  }
  if (gpu.hbm_bandwidth_gbps > 0)
    p.memory_bound["hbm_copy"].fit =
        ThroughputFit{gpu.hbm_bandwidth_gbps * detail::kDatasheetHbmFraction, detail::kKernelOverheadUs};
  p.comm_source =
      "busbw = 0.78 × NVLink one-way (nccl-tests 8×A100 235/300, 8×H100 ring 367/450), 0.9 × NIC; alpha 20/30 µs";
  return p;
}

}  // namespace

HardwareProfile datasheet_profile(const GpuSpec& gpu) {
  return datasheet_profile_at(gpu, false, detail::gemm_mamf_fraction_of(gpu));
}
double datasheet_gemm_mamf_fraction(const GpuSpec& gpu) { return detail::gemm_mamf_fraction_of(gpu); }
HardwareProfile datasheet_profile(const GpuSpec& gpu, double in_step_gemm_mamf_fraction) {
  return datasheet_profile_at(gpu, false, in_step_gemm_mamf_fraction);
}
HardwareProfile detail::datasheet_profile_isolated(const GpuSpec& gpu) {
  return datasheet_profile_at(gpu, true, detail::gemm_mamf_fraction_of(gpu));
}

std::shared_ptr<const HardwareProfile> shared_datasheet_profile(const GpuSpec& gpu) {
  // The last one built, per thread (estimates run on worker threads in the CLI's search and
  // validate): callers alternate between few GPUs, so one entry is enough to skip the rebuild.
  struct Last {
    GpuSpec gpu;
    std::shared_ptr<const HardwareProfile> profile;
  };
  thread_local Last last;
  if (!last.profile || !(last.gpu == gpu))
    last = {gpu, std::make_shared<const HardwareProfile>(datasheet_profile(gpu))};
  return last.profile;
}

}  // namespace llmc
