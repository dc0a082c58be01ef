// Kernel times from the hardware profile (docs/formulas.md "Kernel times").
//
// Measured points are used through a correction to the fitted curve: the log of
// measured/fitted time at each point is spread to nearby shapes by inverse-square-distance
// weighting in log2 space of the shape (m, n, k; or seq_len, head_dim), fading to the fit an
// octave or two away. At a measured shape it returns the measurement exactly; between grid points
// it interpolates in log space; far from every point it is the fit. The fit is physical: a fixed
// launch/tail cost plus work at an asymptotic rate, never faster than HBM allows.
#include "estimate/kernel_time.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/detmath.h"

namespace llmc::detail {

const char* to_string(KernelBasis b) {
  switch (b) {
    case KernelBasis::table:
      return "table";
    case KernelBasis::fit:
      return "fit";
    case KernelBasis::spec:
      return "spec";
  }
  return "?";
}

namespace {

constexpr double kFitRelErr = 0.10;   // a fitted curve away from its points
constexpr double kSpecRelErr = 0.20;  // spec × flat efficiency
constexpr double kReach2 = 1.0;       // squared log2 distance at which a point's weight equals the fit's

// Weighted mean of log(measured/fitted) over points at squared log2 distance d2; the fit itself
// takes weight 1/kReach2. Returns the correction factor on time and the weight share of the table.
struct Correction {
  double factor = 1, table_share = 0, rel_err = 0;
};
template <class Points, class Dist, class LogRatio, class Cv>
Correction correct(const Points& pts, Dist dist2, LogRatio log_ratio, Cv cv) {
  double wsum = 1.0 / kReach2, lsum = 0, esum = 0;
  for (const auto& p : pts) {
    const double d2 = dist2(p);
    if (d2 < 1e-12) return {det_exp(log_ratio(p)), 1, cv(p)};  // a measured shape: the measurement
    const double w = 1 / d2;
    wsum += w;
    lsum += w * log_ratio(p);
    esum += w * cv(p);
  }
  const double share = 1 - (1.0 / kReach2) / wsum;
  return {det_exp(lsum / wsum), share, esum / wsum + (1 - share) * kFitRelErr};
}

double sq(double x) { return x * x; }

// The entry for `key` if the profile has it and `usable` accepts it, else null.
template <class Map, class Usable>
const typename Map::mapped_type* find_usable(const Map& tables, const char* key, Usable usable) {
  const auto it = tables.find(key);
  return it != tables.end() && usable(it->second) ? &it->second : nullptr;
}
const auto has_fit = [](const auto& table) { return table.fit.peak > 0; };

}  // namespace

KernelProfile::KernelProfile(const HardwareSpec& hw_) : hw(hw_) {
  const BandwidthTable* copy = memory(MemKernel::hbm_copy);
  hbm_gbps = copy ? copy->fit.peak : hw.gpu.hbm_bandwidth_gbps * kDatasheetHbmFraction;
}

const GemmTable* KernelProfile::gemm(Dtype d) const {
  return gemm_.get(int(d), [&] { return find_usable(hw.profile->gemm, to_string(d), has_fit); });
}

const BandwidthTable* KernelProfile::memory(MemKernel k) const {
  return memory_.get(int(k), [&] { return find_usable(hw.profile->memory_bound, to_string(k), has_fit); });
}

// Any attention table: whether its forward or backward fit is usable is up to attention_time.
const AttentionTable* KernelProfile::attention(Dtype d, AttentionBackend backend) const {
  return attention_.get(int(d) * kBackends + int(backend), [&]() -> const AttentionTable* {
    const auto& tables = hw.profile->attention;
    if (is_fused(backend))
      if (const auto it = tables.find(attention_table_key(d, backend)); it != tables.end()) return &it->second;
    const auto it = tables.find(to_string(d));
    return it != tables.end() ? &it->second : nullptr;
  });
}

// Wave quantization (NVIDIA, "Matrix Multiplication Background User's Guide"): a GEMM computes
// its m×n output in tiles, one tile per SM at a time, so a last wave of tiles that does not fill
// the SMs idles part of the GPU. cuBLAS picks among tile shapes and splits the k loop (split-K,
// Hopper's stream-K) to fill the waves when k is long, each of s chunks adding a work unit per
// tile. The busy share of the SMs for the best of the large tiles (128×128, 128×256, 256×128) and
// of the splits into chunks of at least 1024 (16 k-steps of 64, enough to amortise a chunk's
// pipeline fill). Partial tiles are not charged (libraries carry tile widths such as 64 or 192
// that fit the output), nor is the split partial sums' reduction. Large training GEMMs lose
// under 1 %; a 1024×2145×1024 GEMM keeps 55 % of 132 SMs busy.
namespace {
double tile_efficiency_uncached(double m, double n, double k, double batch, double sms) {
  double best = 0;
  for (const auto& [tm, tn] : {std::pair{128.0, 128.0}, {128.0, 256.0}, {256.0, 128.0}}) {
    const double tiles = std::ceil(m / tm) * std::ceil(n / tn) * batch;
    for (double split : {1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0}) {
      if (split > 1 && split * 1024 > k) break;
      const double units = tiles * split;
      best = std::max(best, units / (std::ceil(units / sms) * sms));
    }
  }
  return best;
}
}  // namespace

double tile_efficiency(double m, double n, double k, double batch, double sms) {
  if (sms <= 0) return 1;
  // Remembered per thread, 128 shapes in 32 sets of 4 (newest first): the search's layouts, the
  // micro-batch candidates and a re-estimate after an edit repeat a step's few GEMM shapes, and
  // the 24 divisions above were a sixth of an estimate's time (docs/benchmarks.md).
  struct Entry {
    double m, n, k, batch, sms, value;
    bool is(double m_, double n_, double k_, double b_, double s_) const {
      return sms == s_ && m == m_ && n == n_ && k == k_ && batch == b_;
    }
  };
  constexpr int kWays = 4, kSets = 32;
  thread_local Entry memo[kSets * kWays] = {};  // sms = 0 marks an empty slot (never stored)
  auto bits = [](double x) {
    uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  };
  // Whole numbers have zero low mantissa bits: mix (MurmurHash3's finaliser), index by the top bits.
  uint64_t h = bits(m) + bits(n) * 0x9E3779B97F4A7C15ull + bits(k) * 0xC2B2AE3D27D4EB4Full +
               bits(batch) * 0x165667B19E3779F9ull + bits(sms);
  h = (h ^ (h >> 33)) * 0xFF51AFD7ED558CCDull;
  h = (h ^ (h >> 33)) * 0xC4CEB9FE1A85EC53ull;
  Entry* set = &memo[(h >> 59) * kWays];
  for (int i = 0; i < kWays; ++i)
    if (set[i].is(m, n, k, batch, sms)) return set[i].value;
  for (int i = kWays - 1; i > 0; --i) set[i] = set[i - 1];
  set[0] = {m, n, k, batch, sms, tile_efficiency_uncached(m, n, k, batch, sms)};
  return set[0].value;
}

// Bytes a GEMM moves: its inputs in `dtype`, its output in 16 bits where the inputs are FP8
// (training's FP8 GEMMs write bf16: Transformer Engine, torch._scaled_mm's out_dtype). A GEMM
// with k of a few hundred is bound by writing its output; counted in FP8, such a GEMM on an H100
// was timed at half its measured time (gpu/measurements/2026-11-27-*/gemm_recipes.json).
namespace {
double gemm_bytes(Dtype dtype, double m, double n, double k, double batch) {
  const double out = bytes_of(dtype == Dtype::fp8 ? Dtype::bf16 : dtype);
  return ((m * k + k * n) * bytes_of(dtype) + m * n * out) * batch;
}
}  // namespace

KernelTime gemm_time(const KernelProfile& kp, Dtype dtype, double m, double n, double k, double batch) {
  const double flops = 2 * m * n * k * batch;
  const double bytes = gemm_bytes(dtype, m, n, k, batch);
  const double hbm_bytes_per_s = kp.hbm_gbps * 1e9;
  const double mem_s = bytes / hbm_bytes_per_s;
  const GemmTable* table = kp.gemm(dtype);
  if (!table) {
    const double peak =
        datasheet_gemm_tflops(kp.hw.gpu, dtype) * 1e12 * tile_efficiency(m, n, k, batch, double(kp.hw.gpu.sm_count));
    return {kKernelOverheadUs * 1e-6 + std::max(flops / peak, mem_s), kSpecRelErr, KernelBasis::spec};
  }
  const GemmTable& t = *table;
  auto fitted = [&](double mm, double nn, double kk, double b) {
    const double f = 2 * mm * nn * kk * b;
    const double by = gemm_bytes(dtype, mm, nn, kk, b);
    const double q = tile_efficiency(mm, nn, kk, b, double(kp.hw.gpu.sm_count));
    return t.fit.overhead_us * 1e-6 + std::max(f / (t.fit.peak * 1e12 * q), by / hbm_bytes_per_s);
  };
  const double fit_s = fitted(m, n, k, batch);
  if (t.points.empty()) return {fit_s, kFitRelErr, KernelBasis::fit};
  const double lm = det_log(m) / det_log(2.0), ln = det_log(n) / det_log(2.0), lk = det_log(k) / det_log(2.0);
  const Correction c = correct(
      t.points,
      [&](const GemmPoint& p) {
        return sq(det_log(p.m) / det_log(2.0) - lm) + sq(det_log(p.n) / det_log(2.0) - ln) +
               sq(det_log(p.k) / det_log(2.0) - lk);
      },
      [&](const GemmPoint& p) { return det_log((2 * p.m * p.n * p.k / (p.tflops * 1e12)) / fitted(p.m, p.n, p.k, 1)); },
      [](const GemmPoint& p) { return p.cv; });
  return {fit_s * c.factor, c.rel_err, c.table_share >= 0.5 ? KernelBasis::table : KernelBasis::fit};
}

namespace {
// ... and with its launch cost.
double attention_fit_s(const AttentionTable& t, bool backward, double flops, double exps) {
  return (backward ? t.bwd_fit : t.fwd_fit).overhead_us * 1e-6 + attention_work_s(t, backward, flops, exps);
}

// A fused attention kernel's floor: at short sequences (packed documents, 128-1024 tokens) its
// time stops falling with its FLOPs and is set per query row and head instead: a fixed part
// (softmax statistics, tile set-up, the row's share of the launch) and a part per head-dim element
// (moving Q, K, V, O and, backward, dO, dQ, dK, dV and an fp32 dQ accumulator). Measured on an
// H100 at 128-512 tokens over four head shapes; other GPUs in proportion to their HBM bandwidth
// (docs/formulas.md, "Attention floor"). Rows count queries and keys alike: (q + kv) / 2 per
// sequence and head.
double attention_floor_s(const GpuSpec& gpu, double batch, double q_len, double kv_len, double heads, double head_dim,
                         bool backward, AttentionBackend backend) {
  const bool cudnn = backend == AttentionBackend::cudnn;
  const AttentionFloor& f = backward ? (cudnn ? kAttentionFloorCudnnBwd : kAttentionFloorFlashBwd)
                                     : (cudnn ? kAttentionFloorCudnnFwd : kAttentionFloorFlashFwd);
  const double rows = batch * heads * (q_len + kv_len) / 2;
  return rows * (f.ns_per_row + f.ps_per_row_dim * 1e-3 * head_dim) * 1e-9 * kAttentionFloorHbmGbps /
         gpu.hbm_bandwidth_gbps;
}

KernelTime at_least(KernelTime t, double floor_s) {
  if (t.s >= floor_s) return t;
  return {floor_s, kSpecRelErr, KernelBasis::spec};
}
}  // namespace

KernelTime attention_time(const KernelProfile& kp, Dtype dtype, double batch, double q_len, double kv_len, double heads,
                          double kv_heads, double head_dim, bool causal, bool backward, AttentionBackend backend) {
  (void)kv_heads;  // GQA changes memory traffic, not FLOPs; the table is keyed by seq_len and head_dim
  const double scores = batch * q_len * kv_len * heads * (causal ? 0.5 : 1.0);  // one exponential each
  const double floor_s = attention_floor_s(kp.hw.gpu, batch, q_len, kv_len, heads, head_dim, backward, backend);
  const double flops_per_dim = attention_flops_per_score_per_dim(backward);
  auto flops_at = [&](double d) { return flops_per_dim * scores * d; };
  const AttentionTable* table = kp.attention(dtype, backend);
  if (!table || (backward ? table->bwd_fit.peak : table->fwd_fit.peak) <= 0) {
    const AttentionTable ds =
        datasheet_attention_table(kp.hw.gpu, dtype, gemm_mamf_fraction_of(kp.hw.gpu) / kIsolatedGemmMamfFraction,
                                  attention_fractions(kp.hw.gpu, backend));
    return at_least({attention_fit_s(ds, backward, flops_at(head_dim), scores), kSpecRelErr, KernelBasis::spec},
                    floor_s);
  }
  const AttentionTable& t = *table;
  const double fit_s = attention_fit_s(t, backward, flops_at(head_dim), scores);
  if (t.points.empty()) return at_least({fit_s, kFitRelErr, KernelBasis::fit}, floor_s);
  // The table is keyed by (seq_len, head_dim, mask), not by batch × heads, so the correction is
  // to the throughput, not to the time: a point measured on 16 heads × 8 sequences tells the rate
  // of one 16-head sequence of the same length, while its time would carry the fit's overhead
  // to a shape with a different amount of work. A point's ratio is taken at its own head dim (the
  // fit's rate for this shape's batch, heads and length at the point's head dim against the
  // point's), and carried to this head dim by the fit. (Rates fall once batch × heads no longer
  // fills the GPU; that occupancy effect is not modelled.)
  const double ls = det_log(kv_len) / det_log(2.0), ld = det_log(head_dim) / det_log(2.0);
  // Points of the other mask type are a poorer match: one octave further away.
  const Correction c = correct(
      t.points,
      [&](const AttentionPoint& p) {
        return sq(det_log(p.seq_len) / det_log(2.0) - ls) + sq(det_log(p.head_dim) / det_log(2.0) - ld) +
               (p.causal == causal ? 0 : 1);
      },
      // log(measured / fitted time) of this shape's work at the point's head dim
      [&](const AttentionPoint& p) {
        const double fit_rate = flops_at(p.head_dim) / attention_fit_s(t, backward, flops_at(p.head_dim), scores);
        return det_log(fit_rate / ((backward ? p.bwd_tflops : p.fwd_tflops) * 1e12));
      },
      [](const AttentionPoint& p) { return p.cv; });
  return at_least({fit_s * c.factor, c.rel_err, c.table_share >= 0.5 ? KernelBasis::table : KernelBasis::fit}, floor_s);
}

KernelTime memory_time(const KernelProfile& kp, MemKernel kernel, double bytes) {
  const BandwidthTable* table = kp.memory(kernel);
  if (!table) {
    // Unmeasured kernel: streaming copies run at the measured (or datasheet) copy bandwidth;
    // framework element-wise kernels at the element-wise fraction of spec.
    const bool streaming = kernel == MemKernel::hbm_copy || kernel == MemKernel::hbm_triad ||
                           kernel == MemKernel::adamw || kernel == MemKernel::cast;
    table = streaming ? kp.memory(MemKernel::hbm_copy) : nullptr;
    if (!table) {
      const double frac = streaming ? kDatasheetHbmFraction : kDatasheetElementwiseFraction;
      return {kKernelOverheadUs * 1e-6 + bytes / (kp.hw.gpu.hbm_bandwidth_gbps * frac * 1e9), kSpecRelErr,
              KernelBasis::spec};
    }
  }
  const BandwidthTable& t = *table;
  auto fitted = [&](double b) { return t.fit.overhead_us * 1e-6 + b / (t.fit.peak * 1e9); };
  const double fit_s = fitted(bytes);
  if (t.points.empty()) return {fit_s, kFitRelErr, KernelBasis::fit};
  const double lb = det_log(bytes) / det_log(2.0);
  const Correction c = correct(
      t.points, [&](const BandwidthPoint& p) { return sq(det_log(p.bytes) / det_log(2.0) - lb); },
      [&](const BandwidthPoint& p) { return det_log((p.bytes / (p.gbps * 1e9)) / fitted(p.bytes)); },
      [](const BandwidthPoint& p) { return p.cv; });
  return {fit_s * c.factor, c.rel_err, c.table_share >= 0.5 ? KernelBasis::table : KernelBasis::fit};
}

}  // namespace llmc::detail
