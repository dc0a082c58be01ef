// Sample statistics of repeated timings and the rule that decides when there are enough.
#pragma once
#include <cstddef>
#include <vector>

namespace llmc::bench {

struct SampleStats {
  std::size_t n = 0;
  double median = 0, p10 = 0, p90 = 0;  // percentiles with linear interpolation (numpy's default)
  double mean = 0, stddev = 0;          // stddev with n−1 (sample standard deviation)
  double cv = 0;                        // stddev / mean; 0 when n < 2
  double min = 0, max = 0;
};

// Percentile q in [0, 1] of sorted data, interpolating between closest ranks (type 7).
double percentile_sorted(const std::vector<double>& sorted, double q);

SampleStats summarize(std::vector<double> samples);

// Distribution-free 95% confidence interval of the median from order statistics
// (ranks n/2 ∓ 0.98·√n, the normal approximation to the binomial).
struct Interval {
  double lo = 0, hi = 0;
};
Interval median_ci95(std::vector<double> samples);

// Enough samples for a stable median: at least `min_samples`, and the 95% confidence interval
// of the median lies within ±rel_halfwidth of the median. A noisy measurement keeps sampling
// until the caller's maximum count or time budget stops it.
bool median_is_stable(const std::vector<double>& samples, double rel_halfwidth = 0.01, std::size_t min_samples = 5);

}  // namespace llmc::bench
