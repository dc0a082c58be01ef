// Deterministic log/exp/pow from + − × ÷ only, so native and wasm give the same bits.
// glibc picks FMA-based pow/exp/log variants at run time on CPUs that have FMA while
// Emscripten's musl does not; both are within 0.54 ULP but round ~1 in 1,600 hard cases
// differently (measured by tests/golden). det_log is within 2 ULP; det_pow within ~1e-13
// relative (the rounding of y·ln x is amplified by |y·ln x|), plenty for scaling laws, and
// identical everywhere because core compiles with -ffp-contract=off.
#pragma once
#include <cmath>

namespace llmc::detail {

// ln x for finite x > 0: x = m·2^e with m in [√½, √2), ln m = 2·atanh(s), s = (m−1)/(m+1).
inline double det_log(double x) {
  if (!(x > 0) || !std::isfinite(x)) return x == 0 ? -HUGE_VAL : (x > 0 ? x : NAN);
  int e = 0;
  double m = std::frexp(x, &e);  // exact: m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2;
    --e;
  }
  const double s = (m - 1) / (m + 1), s2 = s * s;
  // |s| ≤ 0.1716: the series to s^25 leaves < 1e-21 relative.
  double sum = 0;
  for (int k = 25; k >= 3; k -= 2) sum = (sum + 1.0 / k) * s2;
  const double ln_m = 2 * s * (1 + sum);
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  return (e * ln2_hi + ln_m) + e * ln2_lo;
}

// e^x: x = k·ln2 + r with |r| ≤ ½ln2, e^r by Taylor to r^17, then scale by 2^k (exact).
inline double det_exp(double x) {
  if (x > 709.78) return HUGE_VAL;
  if (x < -745.2) return 0;
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double k = std::nearbyint(x * 1.44269504088896338700);
  const double r = (x - k * ln2_hi) - k * ln2_lo;
  double term = 1, sum = 1;
  for (int n = 1; n <= 17; ++n) {
    term = term * r / n;
    sum += term;
  }
  return std::ldexp(sum, static_cast<int>(k));
}

inline double det_pow(double x, double y) { return det_exp(y * det_log(x)); }

}  // namespace llmc::detail
