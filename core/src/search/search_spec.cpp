// The search's public helpers beside search_layouts(): objective names, a spec's checks, and a
// found layout written back into a scenario.
#include <cmath>
#include <string>

#include "llmc/search.h"
#include "search/search_internal.h"

namespace llmc {

const char* to_string(SearchObjective o) {
  switch (o) {
    case SearchObjective::step_time:
      return "step_time";
    case SearchObjective::cost:
      return "cost";
    case SearchObjective::gpus:
      return "gpus";
  }
  return "?";
}

bool parse_search_objective(const std::string& text, SearchObjective& out) {
  if (text == "step_time" || text == "time")
    out = SearchObjective::step_time;
  else if (text == "cost")
    out = SearchObjective::cost;
  else if (text == "gpus" || text == "gpus_for_deadline")
    out = SearchObjective::gpus;
  else
    return false;
  return true;
}

Scenario apply_search_layout(const Scenario& base, const SearchLayout& l) {
  Scenario s = base;
  ParallelSpec& p = s.parallel;
  p.tp = l.tp;
  p.pp = l.pp;
  p.cp = l.cp;
  p.ep = l.ep;
  p.dp = 0;
  p.virtual_stages = l.virtual_stages;
  p.schedule = l.schedule;
  s.training.micro_batch = l.micro_batch;
  // The scenario's own modules stay with its own selective recompute; any other is the default.
  if (l.recompute != Recompute::selective || base.training.recompute != Recompute::selective)
    s.training.recompute_modules.clear();
  s.training.recompute = l.recompute;
  s.training.recompute_layers = l.recompute_layers;
  s.training.zero_stage = l.zero_stage;
  // FSDP2 is ZeRO-3's implementation: a layout of another stage runs the framework's DDP/ZeRO path.
  if (l.zero_stage != 3) s.training.fsdp_impl = FsdpImpl::flat;
  s.training.global_batch_seqs = l.global_batch_seqs;
  s.hardware.gpu_count = l.gpus;
  return s;
}

namespace detail {

Status check_search_spec(SearchSpec& spec) {
  if (spec.gpus_min == 0 && spec.gpus_max == 0) spec.gpus_min = spec.gpus_max = spec.base.hardware.gpu_count;
  if (spec.gpus_min < 1)
    return make_error(
        "gpus", "give a GPU count (hardware.gpu_count, or --gpus N or MIN:MAX); got " + std::to_string(spec.gpus_min));
  if (spec.gpus_max < spec.gpus_min)
    return make_error("gpus", "the range's maximum (" + std::to_string(spec.gpus_max) + ") is below its minimum (" +
                                  std::to_string(spec.gpus_min) + ")");
  if (spec.gpus_max > (int64_t(1) << 24))
    return make_error("gpus", "must be at most 16,777,216; got " + std::to_string(spec.gpus_max));
  if (spec.gpus_step < 1)
    return make_error("gpus", "the step must be at least 1; got " + std::to_string(spec.gpus_step));
  if ((spec.gpus_max - spec.gpus_min) / spec.gpus_step > 4096)
    return make_error("gpus", "a range of more than 4,097 GPU counts; give a step (MIN:MAX:STEP)");
  if (spec.top_n < 1 || spec.top_n > 1000)
    return make_error("top", "must be in [1, 1000]; got " + std::to_string(spec.top_n));
  if (spec.max_virtual_stages < 1 || spec.max_virtual_stages > 64)
    return make_error("max_virtual_stages", "must be in [1, 64]; got " + std::to_string(spec.max_virtual_stages));
  if (spec.deadline_days < 0 || !std::isfinite(spec.deadline_days))
    return make_error("deadline_days", "must be a positive number of days");
  if (spec.budget_usd < 0 || !std::isfinite(spec.budget_usd))
    return make_error("budget_usd", "must be a positive amount of USD");
  if (spec.objective == SearchObjective::gpus && spec.deadline_days <= 0)
    return make_error("objective", "gpus (fewest GPUs for a deadline) needs a deadline (deadline_days)");
  const TrainingSpec& bt = spec.base.training;
  if (bt.global_batch_seqs == 0 && bt.global_batch_tokens <= 0)
    return make_error(
        "training.global_batch_seqs",
        "the search keeps the global batch fixed: set training.global_batch_seqs or training.global_batch_tokens");
  return ok_status();
}

}  // namespace detail
}  // namespace llmc
