// Fits of measured times to the two cost models the estimator uses.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/result.h"

namespace llmc::bench {

// One measurement: `work` (FLOPs, or bytes) done in `seconds` (the median).
struct WorkTime {
  double work = 0;
  double seconds = 0;
};

// Least squares of seconds = overhead + work / rate, weighted by 1/seconds² so the fit minimises
// relative error: an unweighted fit would let the largest sizes decide both terms and leave the
// overhead meaningless. A negative overhead (noise at small sizes) is clamped to 0 and the rate
// refitted through the origin. `rate_unit` converts the rate: 1e12 → peak in TFLOP/s, 1e9 → GB/s.
// Errors: fewer than two distinct work sizes, non-positive times, a non-positive fitted rate.
Result<ThroughputFit> fit_throughput(const std::vector<WorkTime>& points, double rate_unit);

// nccl-tests bus-bandwidth factor: 2(n−1)/n all-reduce; (n−1)/n all-gather, reduce-scatter,
// all-to-all; 1 send/recv. `op` as in the profile schema (all_reduce, ...). 0 for an unknown op.
double busbw_factor(const std::string& op, int64_t ranks);

// Bus bandwidth in GB/s of one collective: factor × bytes / seconds / 1e9. `bytes` is the size
// nccl-tests reports for the op (the per-rank buffer: all-reduce's buffer, all-gather's output,
// reduce-scatter's input, all-to-all's send buffer, send/recv's message).
double busbw_gbps(const std::string& op, int64_t ranks, double bytes, double seconds);

// Fit of seconds = alpha + factor·bytes / busbw over (bytes, seconds) points of one op and group
// size (the same relative least squares as fit_throughput, with work = factor·bytes).
Result<AlphaBeta> fit_alpha_beta(const std::string& op, int64_t ranks, const std::vector<WorkTime>& bytes_seconds);

}  // namespace llmc::bench
