// The lower bound the layout search prunes with. Contract with the time model (time.cpp): for
// every valid resolved scenario r, step_time_lower_bound(r, f) <= time_per_step(r, f, ...).step_s.
// The search checks the contract on every layout it times and, if it ever fails, reruns without
// pruning (SearchResult::pruning_disabled), so a time model change can slow the search, never
// change its answer. When the time model changes, this is the one function to revisit.
#include "estimate/estimate_parts.h"
#include "estimate/schedule.h"
#include "search/search_internal.h"

namespace llmc::detail {

double step_time_lower_bound(const Resolved& r, const FlopCounts& f) {
  const HardwareSpec& hw = r.s.hardware;
  const double tokens_step = r.s.training.global_batch_tokens;
  if (hw.mfu > 0 || hw.achieved_tflops > 0) {
    // End-to-end rate given: the step time is model FLOPs / (gpus × rate) whatever the layout.
    const double peak = hw.gpu.peak_tflops(r.compute_dtype) * 1e12;
    const double rate = hw.mfu > 0 ? hw.mfu * peak : hw.achieved_tflops * 1e12;
    return f.model_per_token * tokens_step / (double(r.gpu_count) * rate);
  }
  // The profile basis with timed kernels has no cheap bound yet (it would need the kernel times,
  // which cost what the step time costs): 0 prunes nothing, so the answer stays exact.
  if (hw.compute_efficiency <= 0) return 0;
  // Flat efficiency: compute + bubble + exposed communication, with communication taken as zero.
  return compute_seconds(r, f) * (1 + bubble_fraction(r));
}

}  // namespace llmc::detail
