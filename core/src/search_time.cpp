// The step time of one layout: estimate()'s own composition (detail::step_time), so the search
// ranks with estimate()'s figures and the two cannot drift apart.
#include "formulas.h"
#include "search_internal.h"

namespace llmc::detail {

TimeEstimate layout_step_time(const Resolved& r, const ParamCounts& p, const FlopCounts& f, double tokens, std::vector<std::string>& warnings) {
  return step_time(r, p, f, tokens, nullptr, warnings);
}

}  // namespace llmc::detail
