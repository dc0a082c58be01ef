// The measured tables of hardware profiles as curves to compare side by side (the Hardware tab's
// profile comparison): GEMM TFLOP/s against the GEMM's FLOPs per dtype, memory-bound kernels' GB/s
// against bytes moved, collectives' bus bandwidth against the per-rank message size. Each curve is
// the profile's own points (medians), sorted by x, with the key they come from.
#pragma once
#include <string>
#include <vector>

#include "llmc/hardware.h"

namespace llmc {

struct CurvePoint {
  double x = 0, y = 0;      // x: FLOPs per GEMM or bytes; y: TFLOP/s or GB/s
  double p10 = 0, p90 = 0;  // the point's spread (same unit as y; 0 when the profile has none)
  std::string shape;        // "m×n×k" for a GEMM, "" otherwise
};

struct ProfileCurve {
  std::string key;              // "gemm.bf16", "memory_bound.hbm_copy", "collectives.all_reduce.intra_node.8"
  std::string title;            // "GEMM bf16", "HBM copy", "all-reduce, 8 GPUs, intra-node"
  std::string x_label, y_unit;  // "FLOPs per GEMM" / "bytes moved" / "bytes per rank"; "TFLOP/s" or "GB/s"
  std::string source;           // the profile key the points are read from
  std::vector<CurvePoint> points;
};

// Every measured table of `p` with at least one point whose x and y are finite and positive
// (others are left out), in a fixed order: GEMMs (bf16, fp16, fp8, tf32, then others), memory-bound
// kernels (hbm_copy first), collectives (by op, tier, group). Empty for a datasheet profile.
std::vector<ProfileCurve> profile_curves(const HardwareProfile& p);

}  // namespace llmc
