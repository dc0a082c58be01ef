#include "llmc_bench/grids.h"

#include <algorithm>

namespace llmc::bench {

std::vector<int64_t> log_grid(int64_t lo, int64_t hi, int64_t factor) {
  std::vector<int64_t> out;
  if (lo < 1 || hi < lo || factor < 2) return out;
  int64_t v = lo;
  while (v <= hi) {
    out.push_back(v);
    if (v > hi / factor) break;  // the next power would pass hi (and could overflow)
    v *= factor;
  }
  if (out.back() != hi) out.push_back(hi);
  return out;
}

std::vector<GemmShape> gemm_grid(bool quick) {
  std::vector<GemmShape> out;
  for (int64_t s : quick ? log_grid(1024, 8192, 2) : log_grid(256, 16384, 2)) out.push_back({s, s, s, "grid square"});
  // Skinny shapes: few tokens (m small) and a long reduction (k large, as in weight gradients).
  const int64_t big = 8192;
  for (int64_t small : quick ? std::vector<int64_t>{256} : std::vector<int64_t>{64, 256, 1024}) {
    out.push_back({small, big, big, "grid small m"});
    out.push_back({big, big, small, "grid small k"});
  }
  return out;
}

std::vector<int64_t> message_sizes_bytes(bool quick, int64_t max_bytes) {
  const int64_t kib = 1024, gib = int64_t(1) << 30;
  std::vector<int64_t> all = quick ? log_grid(kib, gib, 16) : log_grid(kib, 8 * gib, 4);
  std::vector<int64_t> out;
  for (int64_t b : all)
    if (b <= max_bytes) out.push_back(b);
  return out;
}

std::vector<int64_t> seq_len_grid(bool quick) {
  return quick ? std::vector<int64_t>{1024, 4096, 8192} : log_grid(512, 16384, 2);
}

std::vector<int64_t> bandwidth_sizes_bytes(bool quick) {
  const int64_t mib = int64_t(1) << 20;
  return quick ? log_grid(mib, 1024 * mib, 16) : log_grid(mib, 4096 * mib, 4);
}

}  // namespace llmc::bench
