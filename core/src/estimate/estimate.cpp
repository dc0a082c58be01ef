// estimate(): resolve the scenario, then params → placement → FLOPs → memory → time (kernels,
// communication, schedule), each recording its explanation terms; data flows one way. No
// formula lives here.
#include <cmath>

#include "estimate/estimate_parts.h"
#include "estimate/layer_plan.h"
#include "estimate/placement.h"
#include "inputs/resolve_into.h"

namespace llmc {

namespace {

Status estimate_into(const Scenario& s, Estimate& e) {
  if (Status st = detail::resolve_into(s, e.r); !st) return st;
  e.trace.reserve(96);
  Resolved& r = e.r;
  e.warnings = r.warnings;

  e.params = detail::count_params(r, &e.trace);
  if (r.tokens_defaulted) {
    r.s.training.tokens =
        e.trace.add("training.tokens", "20 × N (training.tokens not set)", "tokens",
                    "compute-optimal D ≈ 20N (Hoffmann et al. 2022)", 20 * e.params.total, {{"N", e.params.total}});
    e.warnings.push_back("training.tokens not set: using the compute-optimal 20 × params = " +
                         format_value(r.s.training.tokens, "tokens"));
  }
  const double tokens = r.s.training.tokens;
  if (r.s.training.flops_formula == FlopsFormula::detailed && !r.m.has_shape())
    e.warnings.push_back("training.flops_formula=detailed needs the model shape; using 6ND for a size-only model");
  // The step's ops, built once and read as FLOPs, memory and kernel times.
  detail::StepPlan plan;  // ~160 KB of fixed arrays, on the stack: no allocation
  detail::build_step_plan(plan, r, e.params, detail::plan_shape(r));
  e.flops = detail::count_flops(r, e.params, plan, tokens, &e.trace);

  const detail::LayerActivations act = detail::layer_activations(r, plan, r.s.training.micro_batch);
  int64_t peak_stage = 0;
  e.mem = detail::memory_per_gpu(r, e.params, act, &e.trace, &peak_stage);
  // The parameters of the most loaded GPU: what its optimizer step updates and its data-parallel
  // group reduces.
  const detail::StageParams held = detail::stage_params(r, e.params, peak_stage);
  e.params.per_gpu = held.all();
  e.params.per_gpu_linear = held.linear;
  e.fits = e.mem.headroom_bytes >= 0;
  if (!r.m.has_shape())
    e.warnings.push_back(
        "activation memory needs the model shape (model.layers, hidden, heads, vocab); only model states are counted");
  if (!e.fits)
    e.warnings.push_back("does not fit: needs " + format_value(e.mem.total_bytes, "bytes") + " per GPU of " +
                         format_value(e.mem.capacity_bytes, "bytes") + "; time is still estimated");
  e.max_micro_batch = detail::max_micro_batch_that_fits(r, e.params, act, e.fits);
  e.min_gpus = detail::min_gpus_that_fit(r, e.params, act, e.mem);

  e.time =
      detail::step_time(r, e.params, plan, {held.all(), held.linear}, e.flops, tokens, &e.trace, e.warnings, &e.comm);
  e.dataset_bytes = e.trace.add("data.dataset_bytes", "D × bytes_per_token_on_disk", "bytes",
                                "assumption: ~4 bytes of text per token (training.bytes_per_token_on_disk)",
                                tokens * r.s.training.bytes_per_token_on_disk,
                                {{"D", tokens}, {"bytes_per_token", r.s.training.bytes_per_token_on_disk}});
  // Safety net: extreme but in-range inputs must give an error, never a NaN or infinity.
  for (const Term& t : e.trace.terms())
    if (!std::isfinite(t.value))
      return make_error(t.key, std::string("the inputs give a non-finite ") + t.key +
                                   "; check the sizes, tokens and rates for extreme values");
  return ok_status();
}

}  // namespace

Result<Estimate> estimate(const Scenario& s) {
  // Built where the caller receives it: an Estimate (trace, comm items, scenario) costs about a
  // thousand instructions to move, a sixth of the simplest estimate (docs/benchmarks.md).
  Result<Estimate> out{std::in_place};
  if (Status st = estimate_into(s, out.value()); !st) out = st.error();
  return out;
}

}  // namespace llmc
