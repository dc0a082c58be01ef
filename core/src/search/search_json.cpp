// search_to_json(): the search result as JSON (docs/search.md "JSON").
#include "common/json_util.h"
#include "llmc/search.h"

namespace llmc {
namespace {

detail::json layout_json(const SearchLayout& l) {
  return detail::json{{"gpus", l.gpus},
                      {"tp", l.tp},
                      {"pp", l.pp},
                      {"dp", l.dp},
                      {"cp", l.cp},
                      {"ep", l.ep},
                      {"virtual_stages", l.virtual_stages},
                      {"micro_batch", l.micro_batch},
                      {"micro_batches", l.micro_batches},
                      {"recompute", to_string(l.recompute)},
                      {"zero_stage", l.zero_stage},
                      {"schedule", to_string(l.schedule)},
                      {"step_s", l.step_s},
                      {"compute_s", l.compute_s},
                      {"bubble_s", l.bubble_s},
                      {"comm_exposed_s", l.comm_exposed_s},
                      {"total_days", l.total_days},
                      {"cost_usd", l.cost_usd},
                      {"mfu", l.mfu},
                      {"memory_bytes", l.memory_bytes},
                      {"capacity_bytes", l.capacity_bytes},
                      {"headroom_bytes", l.headroom_bytes}};
}

}  // namespace

std::string search_to_json(const SearchSpec& spec, const SearchResult& r) {
  detail::json j;
  j["objective"] = to_string(spec.objective);
  j["gpus"] = {{"min", spec.gpus_min ? spec.gpus_min : spec.base.hardware.gpu_count},
               {"max", spec.gpus_max ? spec.gpus_max : spec.base.hardware.gpu_count},
               {"step", spec.gpus_step}};
  if (spec.deadline_days > 0) j["deadline_days"] = spec.deadline_days;
  if (spec.budget_usd > 0) j["budget_usd"] = spec.budget_usd;
  const SearchCounts& c = r.counts;
  j["counts"] = {{"candidates", c.candidates},
                 {"invalid", c.invalid},
                 {"valid", c.valid},
                 {"does_not_fit", c.does_not_fit},
                 {"pruned_by_bound", c.pruned_by_bound},
                 {"evaluated", c.evaluated},
                 {"misses_constraint", c.misses_constraint}};
  j["pruning_disabled"] = r.pruning_disabled;
  auto top = detail::json::array();
  for (const SearchLayout& l : r.top) {
    detail::json row = layout_json(l);
    row["step_low_s"] = l.step_low_s;  // the top layouts were fully estimated: they have a range
    row["step_high_s"] = l.step_high_s;
    row["regime"] = l.regime;
    row["regime_validated"] = l.regime_validated;
    top.push_back(row);
  }
  j["top"] = top;
  auto front = detail::json::array();
  for (const ParetoPoint& p : r.pareto) {
    detail::json pj = layout_json(p.layout);
    pj["meets_constraints"] = p.meets_constraints;
    front.push_back(pj);
  }
  j["pareto"] = front;
  j["why"] = r.why;
  return detail::safe_dump(j, 2);
}

}  // namespace llmc
