// The step time of one layout, composed exactly as estimate() composes it (comm, then time), so
// the search ranks with estimate()'s own figures. The time model is being reworked into timed
// kernels (step_ops.h); while both shapes of the API exist this follows whichever is present.
// Hook wanted from the time model: one detail:: function that estimate() and this both call.
#include "formulas.h"
#include "search_internal.h"
#if __has_include("step_ops.h")
#include "step_ops.h"
#define LLMC_SEARCH_KERNEL_TIMES 1
#endif

namespace llmc::detail {

TimeEstimate layout_step_time(const Resolved& r, const ParamCounts& p, const FlopCounts& f, double tokens, std::vector<std::string>& warnings) {
#ifdef LLMC_SEARCH_KERNEL_TIMES
  const ComputeTimes ct = compute_times(r, p);
  const std::vector<CommItem> comm = comm_per_step(r, p, f, ct, nullptr);
  return time_per_step(r, f, ct, comm, tokens, nullptr, warnings);
#else
  const std::vector<CommItem> comm = comm_per_step(r, p, f, nullptr);
  return time_per_step(r, f, comm, tokens, nullptr, warnings);
#endif
}

bool time_model_has_kernel_times() {
#ifdef LLMC_SEARCH_KERNEL_TIMES
  return true;
#else
  return false;
#endif
}

}  // namespace llmc::detail
