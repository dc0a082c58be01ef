// Size grids the bench sweeps: log-spaced so every decade of problem size gets the same number
// of points (launch overhead dominates small sizes, the asymptotic rate large ones).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace llmc::bench {

// lo, lo·factor, lo·factor², ... up to and including hi (hi is appended when the last power
// falls short of it, so both endpoints are always measured). Requires 1 ≤ lo ≤ hi, factor ≥ 2.
std::vector<int64_t> log_grid(int64_t lo, int64_t hi, int64_t factor);

// One GEMM C[m×n] = A[m×k]·B[k×n]; `label` says where the shape comes from ("grid", "qkv fwd"...).
struct GemmShape {
  int64_t m = 0, n = 0, k = 0;
  std::string label;
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
  bool operator==(const GemmShape& o) const { return m == o.m && n == o.n && k == o.k; }
};

// Square GEMMs m = n = k over a log grid (256..16384, ×2; quick: 1024..8192, ×2), plus skinny
// shapes where one side is small (the weight-gradient and small-batch cases).
std::vector<GemmShape> gemm_grid(bool quick);

// Collective message sizes in bytes: 1 KiB .. 8 GiB (×4; quick: ×16 up to 1 GiB), capped at
// `max_bytes` (a GPU's free memory bounds the largest buffer).
std::vector<int64_t> message_sizes_bytes(bool quick, int64_t max_bytes);

// Attention sequence lengths: 512 .. 16384 (×2; quick: 1024 .. 8192, ×4 → 1024, 4096, 8192).
std::vector<int64_t> seq_len_grid(bool quick);

// Memory-bound kernel sizes in bytes moved: 1 MiB .. 4 GiB (×4; quick: ×16 → 1 MiB .. 1 GiB).
std::vector<int64_t> bandwidth_sizes_bytes(bool quick);

}  // namespace llmc::bench
