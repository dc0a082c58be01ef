// GPU specs (data, from core/data/gpus/*.json) and the HardwareProfile that time estimates use.
#pragma once
#include <cstdint>
#include <string>

namespace llmc {

enum class Dtype { fp32, tf32, bf16, fp16, fp8, fp4, int8 };
const char* to_string(Dtype d);
double bytes_of(Dtype d);  // storage bytes per element (tf32 is stored as fp32)

struct GpuSpec {
  std::string id;
  std::string name;
  // Dense (non-sparse) peak tensor throughput, TFLOP/s; 0 where the GPU lacks the dtype.
  double peak_fp32_tflops = 0, peak_tf32_tflops = 0, peak_bf16_tflops = 0, peak_fp16_tflops = 0,
         peak_fp8_tflops = 0, peak_fp4_tflops = 0, peak_int8_tflops = 0;
  double memory_gib = 0;
  double hbm_bandwidth_gbps = 0;        // GB/s (10^9 B/s)
  double scale_up_bandwidth_gbps = 0;   // datasheet NVLink / Infinity Fabric aggregate, bidirectional
  double tdp_w = 0;
  int64_t gpus_per_node = 8;
  double intra_node_bandwidth_gbps = 0; // per GPU, one direction
  double inter_node_bandwidth_gbps = 0; // per GPU, one direction (NIC share)
  double price_per_gpu_hour_usd = 0;
  std::string source_peaks, source_memory, source_interconnect, source_price;

  double peak_tflops(Dtype d) const;
};

// A collective's cost on one tier: t = alpha_s + bytes_on_the_wire / (busbw_gbps · 1e9).
struct AlphaBeta {
  double alpha_s = 0;
  double busbw_gbps = 0;
};

// Schema v1 (docs/profile-schema.md). For now: a flat compute efficiency and one alpha-beta per
// tier; measured tables arrive with the calibration bench.
struct HardwareProfile {
  int schema_version = 1;
  std::string gpu_id;
  std::string source = "datasheet";   // datasheet | published | measured
  std::string description;            // "measured on <device>, <date>" or the citations
  double compute_efficiency = 0;      // fraction of dense peak sustained by compute kernels
  std::string compute_efficiency_source;
  AlphaBeta intra_node;               // NVLink / scale-up domain
  AlphaBeta inter_node;               // network
  std::string comm_source;
};

// Bus bandwidth NCCL reaches on a link of `link_gbps` one-way: ~78% of NVLink inside a node
// (nccl-tests 8×A100: 235 GB/s of 300; 8×H100 ring: 367 of 450) and ~90% of the NIC across nodes.
// Used by the datasheet profile and when the user overrides a link's bandwidth.
double intra_node_busbw_gbps(double link_gbps);
double inter_node_busbw_gbps(double nic_gbps);

// The profile llmcalc uses when none is loaded: datasheet bandwidths with stated efficiencies.
HardwareProfile datasheet_profile(const GpuSpec& gpu);

}  // namespace llmc
