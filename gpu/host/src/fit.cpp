#include "llmc_bench/fit.h"

#include <cmath>
#include <set>

namespace llmc::bench {

Result<ThroughputFit> fit_throughput(const std::vector<WorkTime>& pts, double rate_unit) {
  std::set<double> sizes;
  for (const WorkTime& p : pts) {
    if (!(p.seconds > 0) || !std::isfinite(p.seconds))
      return make_error("fit", "every time must be positive and finite; got " + std::to_string(p.seconds) + " s");
    if (!(p.work > 0)) return make_error("fit", "every work size must be positive; got " + std::to_string(p.work));
    sizes.insert(p.work);
  }
  if (sizes.size() < 2)
    return make_error("fit", "needs at least two distinct sizes; got " + std::to_string(sizes.size()));
  // Weighted normal equations for t = a + b·w with weights 1/t².
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const WorkTime& p : pts) {
    const double w = 1 / (p.seconds * p.seconds);
    sw += w;
    sx += w * p.work;
    sy += w * p.seconds;
    sxx += w * p.work * p.work;
    sxy += w * p.work * p.seconds;
  }
  const double det = sw * sxx - sx * sx;
  double a = (sxx * sy - sx * sxy) / det;
  double b = (sw * sxy - sx * sy) / det;
  if (a < 0) {  // through the origin: minimise Σ w (t − b·x)²
    a = 0;
    b = sxy / sxx;
  }
  if (!(b > 0) || !std::isfinite(b))
    return make_error("fit", "fitted time per unit of work is not positive (times do not grow with size)");
  ThroughputFit f;
  f.peak = 1 / (b * rate_unit);
  f.overhead_us = a * 1e6;
  return f;
}

double busbw_factor(const std::string& op, int64_t n) {
  if (n < 1) return 0;
  const double r = double(n);
  if (op == "all_reduce") return 2 * (r - 1) / r;
  if (op == "all_gather" || op == "reduce_scatter" || op == "all_to_all") return (r - 1) / r;
  if (op == "send_recv") return 1;
  return 0;
}

double busbw_gbps(const std::string& op, int64_t ranks, double bytes, double seconds) {
  if (!(seconds > 0)) return 0;
  return busbw_factor(op, ranks) * bytes / seconds / 1e9;
}

Result<AlphaBeta> fit_alpha_beta(const std::string& op, int64_t ranks, const std::vector<WorkTime>& pts) {
  const double factor = busbw_factor(op, ranks);
  if (!(factor > 0))
    return make_error("fit", "no bus-bandwidth factor for op '" + op + "' on " + std::to_string(ranks) + " ranks");
  std::vector<WorkTime> scaled;
  for (const WorkTime& p : pts) scaled.push_back({factor * p.work, p.seconds});
  Result<ThroughputFit> f = fit_throughput(scaled, 1e9);
  if (!f) return f.error();
  return AlphaBeta{f->overhead_us * 1e-6, f->peak};
}

}  // namespace llmc::bench
