// From timed samples to an llmcalc HardwareProfile (docs/profile-schema.md): per-point
// statistics, fits, the headline numbers, spec sanity checks, and the run's metadata.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/result.h"
#include "llmc_bench/grids.h"

namespace llmc::bench {

// Points from raw sample times (seconds). Statistics are taken over the per-sample throughput,
// so p10 ≤ median ≤ p90 holds in the profile's unit.
GemmPoint gemm_point(const GemmShape& shape, const std::vector<double>& seconds);
BandwidthPoint bandwidth_point(double bytes, const std::vector<double>& seconds);
// Collective point: gbps is the bus bandwidth (nccl-tests factor for `op` on `ranks`).
BandwidthPoint collective_point(const std::string& op, int64_t ranks, double bytes, const std::vector<double>& seconds);
// Score elements of fused attention, b·s²·h, halved when causal: one softmax exponential each in
// the forward pass (and one in the backward's recomputed P).
double attention_score_elements(int64_t batch, int64_t seq_len, int64_t heads, bool causal);
// FLOPs of fused attention (FlashAttention's convention, the profile's): fwd 4·head_dim per score
// element (QKᵀ and PV, 2 FLOPs per multiply-add), i.e. 4·b·s²·h·d, halved when causal.
double attention_fwd_flops(int64_t batch, int64_t seq_len, int64_t heads, int64_t head_dim, bool causal);
AttentionPoint attention_point(int64_t batch, int64_t seq_len, int64_t heads, int64_t kv_heads, int64_t head_dim,
                               bool causal, const std::vector<double>& fwd_seconds,
                               const std::vector<double>& bwd_seconds);

// The catalog GPU id for a CUDA device name ("NVIDIA H100 80GB HBM3" → h100-sxm); memory
// separates A100 40/80 GB. An error says to pass --gpu when the name is not recognised.
Result<std::string> gpu_id_for_device(const std::string& device_name, double memory_bytes);

// What the run was: written under "metadata" (free-form in schema v1).
struct Telemetry {  // NVML reading just after a measurement; valid=false when NVML is absent
  bool valid = false;
  double sm_clock_mhz = 0, mem_clock_mhz = 0, power_w = 0, temperature_c = 0;
  uint64_t throttle_reasons = 0;  // nvmlClocksEventReasons bit mask
};
struct TelemetryRecord {
  std::string suite, label;
  Telemetry t;
};
struct RunMetadata {
  std::string tool_version, git_sha, date_utc;  // date as ISO 8601
  std::vector<std::string> argv;
  std::string device_name;
  int64_t sm_count = 0, compute_capability = 0;  // e.g. 90
  double memory_bytes = 0, l2_bytes = 0;
  std::string driver, cuda_runtime, cuda_driver_api, cublas, cudnn, nccl;
  std::string clock_policy;  // e.g. "default application clocks, not locked; persistence mode on"
  int64_t gpu_count = 0;
  bool quick = false;
  std::string model_shapes;        // "llama3.1-8b tp1 mb1 seq8192"
  std::vector<std::string> notes;  // skipped suites and their reasons, dropped points
  std::vector<TelemetryRecord> telemetry;
};
std::string metadata_to_json(const RunMetadata& m);

// Names of throttle-reason bits set in an NVML clocks-event mask ("sw_power_cap", "hw_slowdown", ...).
std::vector<std::string> throttle_reason_names(uint64_t mask);

// Fills the fits and headline numbers of a profile whose tables hold measured points:
//  - gemm.<dtype>.max_tflops and fit; attention fwd/bwd fits; memory_bound fits;
//  - collectives[].fit; intra_node = the all_reduce fit of the largest group measured
//    (inter_node keeps the datasheet value unless an inter_node table was measured);
//  - compute_efficiency = bf16 GEMM FLOP-weighted efficiency over `model_shapes` (the shapes a
//    training step of the chosen model runs), against the spec's dense bf16 peak;
//  - points above the spec (L2-resident sizes, boost clocks beyond the datasheet) are dropped and
//    p90 above spec is clamped, each with a note in `notes`, so the profile passes validation.
// Starts from datasheet_profile(gpu) for everything not measured.
HardwareProfile finalize_profile(HardwareProfile measured, const GpuSpec& gpu,
                                 const std::vector<GemmShape>& model_shapes, std::vector<std::string>& notes);

}  // namespace llmc::bench
