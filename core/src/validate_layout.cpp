// The one rule for knobs a source does not publish: llmcalc's own best choice, i.e. the layout
// with the smallest predicted step time among those that fit in memory, enumerated over the
// unpublished knobs only (published ones are single-valued). It stands for "the authors tuned
// their run", which is what a published benchmark is; it is the same rule for every record and
// contains no per-record constant. When none fits, the one needing the least memory (the nearest
// to what the authors ran) is timed, and the row says it does not fit.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "validate_internal.h"

namespace llmc::detail::validation {

std::string layout_text(const Estimate& e) {
  const Scenario& s = e.r.s;
  char buf[256];
  std::snprintf(buf, sizeof buf, "tp%lld pp%lld v%lld cp%lld dp%lld mb%lld gbs%lld zero%d rec=%s sp=%d %s", (long long)s.parallel.tp,
                (long long)s.parallel.pp, (long long)s.parallel.virtual_stages, (long long)s.parallel.cp, (long long)s.parallel.dp,
                (long long)s.training.micro_batch, (long long)s.training.global_batch_seqs, s.training.zero_stage, to_string(s.training.recompute),
                s.training.sequence_parallel ? 1 : 0, to_string(s.parallel.schedule));
  std::string text = buf;
  if (!s.training.recompute_modules.empty()) text.insert(text.find(" sp="), "(" + s.training.recompute_modules + ")");
  return text;
}

namespace {

// The global batch a layout runs when the printed one is not whole micro-batches on each of its
// replicas: the nearest multiple of micro-batch × dp, if within kBatchRoundingMax of the printed
// batch (sources print batches rounded, "2M tokens", or give the batch of one layout for a
// table of them). A batch's size moves per-token throughput only through the micro-batches per
// step (the pipeline bubble, per-step costs), so 10 % moves it by about a tenth of those; the
// rows of step-time metrics are scaled back to the printed batch (validate.cpp). 0: keep it.
constexpr double kBatchRoundingMax = 0.10;
int64_t whole_batch(const Scenario& s) {
  const int64_t gbs = s.training.global_batch_seqs, per_replica = s.parallel.tp * s.parallel.pp * s.parallel.cp;
  const int64_t gpus = s.hardware.gpu_count;
  if (gbs <= 0 || gpus <= 0 || per_replica <= 0 || gpus % per_replica != 0) return 0;
  const int64_t unit = s.training.micro_batch * (gpus / per_replica);
  if (unit <= 0 || gbs % unit == 0) return 0;
  const int64_t nearest = std::max<int64_t>(unit, (gbs + unit / 2) / unit * unit);
  return std::fabs(double(nearest) / double(gbs) - 1) <= kBatchRoundingMax ? nearest : 0;
}

}  // namespace

Result<LayoutChoice> best_layout(const Mapped& m, int64_t max_candidates) {
  const KnobSpace& k = m.space;
  std::optional<LayoutChoice> best_fit, best_least;
  std::optional<Error> first_error;
  int64_t tried = 0;
  // Candidates are ranked by their step at the printed batch: one that rounds it is scaled back.
  // Where no batch is printed each candidate's step is one micro-batch per replica, so this
  // favours the smallest micro-batch (docs/validation.md, "Global batch unpublished").
  const int64_t printed_gbs = m.base.training.global_batch_seqs;
  auto printed_step = [&](const Estimate& x) { return step_at_printed_batch(x, printed_gbs); };
  for (int64_t tp : k.tp)
    for (int64_t pp : k.pp)
      for (int64_t v : k.virtual_stages)
        for (int64_t mb : k.micro_batch)
          for (int z : k.zero_stage)
            for (Recompute rc : k.recompute)
              for (bool sp : k.sequence_parallel) {
                if (v > 1 && pp < 2) continue;        // interleaving needs a pipeline
                if (sp && tp < 2) continue;           // sequence parallelism rides on tp
                if (tried >= max_candidates) goto done;
                ++tried;
                Scenario s = m.base;
                s.parallel.tp = tp;
                s.parallel.pp = pp;
                s.parallel.virtual_stages = v;
                s.parallel.schedule = k.schedule ? *k.schedule : v > 1 ? Schedule::interleaved : Schedule::one_f_one_b;
                s.training.micro_batch = mb;
                s.training.zero_stage = z;
                s.training.recompute = rc;
                if (rc != Recompute::selective) s.training.recompute_modules.clear();
                s.training.sequence_parallel = sp;
                if (k.gbs_follows_micro_batch) s.training.global_batch_seqs = 0;  // resolve(): micro_batch × dp
                else if (const int64_t whole = whole_batch(s); whole > 0) s.training.global_batch_seqs = whole;
                Result<Estimate> e = estimate(s);
                if (!e) {
                  if (!first_error) first_error = e.error();
                  continue;
                }
                auto faster = [&](const std::optional<LayoutChoice>& b) { return !b || printed_step(*e) < printed_step(b->estimate); };
                auto smaller = [&](const std::optional<LayoutChoice>& b) {
                  if (!b) return true;
                  const double mine = e->mem.total_bytes, theirs = b->estimate.mem.total_bytes;
                  return mine < theirs || (mine == theirs && printed_step(*e) < printed_step(b->estimate));
                };
                const int64_t printed = s.training.global_batch_seqs == printed_gbs ? 0 : printed_gbs;
                if (e->fits && faster(best_fit)) best_fit = LayoutChoice{s, *e, 0, false, true, printed};
                if (smaller(best_least)) best_least = LayoutChoice{s, *e, 0, false, false, printed};
              }
done:
  if (!best_least) {
    if (first_error) return *first_error;
    return make_error("training", "no layout to try (the candidate lists are empty)");
  }
  LayoutChoice out = best_fit ? *best_fit : *best_least;
  out.candidates = tried;
  out.searched = tried > 1;
  out.fits = best_fit.has_value();
  return out;
}

}  // namespace llmc::detail::validation
