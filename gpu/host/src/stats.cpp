#include "llmc_bench/stats.h"

#include <algorithm>
#include <cmath>

namespace llmc::bench {

double percentile_sorted(const std::vector<double>& s, double q) {
  if (s.empty()) return 0;
  const double pos = std::clamp(q, 0.0, 1.0) * double(s.size() - 1);
  const std::size_t i = std::size_t(std::floor(pos));
  if (i + 1 >= s.size()) return s.back();
  const double frac = pos - double(i);
  return s[i] + frac * (s[i + 1] - s[i]);
}

SampleStats summarize(std::vector<double> v) {
  SampleStats st;
  st.n = v.size();
  if (v.empty()) return st;
  std::sort(v.begin(), v.end());
  st.min = v.front();
  st.max = v.back();
  st.median = percentile_sorted(v, 0.5);
  st.p10 = percentile_sorted(v, 0.1);
  st.p90 = percentile_sorted(v, 0.9);
  double sum = 0;
  for (double x : v) sum += x;
  st.mean = sum / double(v.size());
  if (v.size() > 1) {
    double ss = 0;
    for (double x : v) ss += (x - st.mean) * (x - st.mean);
    st.stddev = std::sqrt(ss / double(v.size() - 1));
    st.cv = st.mean != 0 ? st.stddev / std::fabs(st.mean) : 0;
  }
  return st;
}

Interval median_ci95(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  const double n = double(v.size());
  const double half = 0.98 * std::sqrt(n);  // 1.96/2 · √n
  // 1-based ranks floor(n/2 − half) and ceil(n/2 + 1 + half), clamped to the sample.
  const long lo = std::max(1L, long(std::floor(n / 2 - half)));
  const long hi = std::min(long(v.size()), long(std::ceil(n / 2 + 1 + half)));
  return {v[std::size_t(lo - 1)], v[std::size_t(hi - 1)]};
}

bool median_is_stable(const std::vector<double>& samples, double rel_halfwidth, std::size_t min_samples) {
  if (samples.size() < std::max<std::size_t>(min_samples, 2)) return false;
  const SampleStats st = summarize(samples);
  if (st.median == 0) return false;
  const Interval ci = median_ci95(samples);
  return (ci.hi - ci.lo) / 2 <= rel_halfwidth * std::fabs(st.median);
}

}  // namespace llmc::bench
