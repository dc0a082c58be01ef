// choose_unpublished_knobs(): the fastest layout that fits, by search_layouts() over the knobs a
// record lists as unpublished. The search varies every layout knob but sequence parallelism,
// which is searched by running it once with it off and once on.
#include "llmc_validate/unpublished.h"

#include <algorithm>
#include <optional>

#include "llmc/search.h"

namespace llmc::validate {
namespace {

int64_t divisor_count(int64_t n) {
  int64_t c = 0;
  for (int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) c += d * d == n ? 1 : 2;
  return c;
}

// An upper bound on the layouts search_layouts() enumerates for `spec` (its loops, before
// resolve()'s rules reject any), counted before it runs.
double layouts_bound(const SearchSpec& spec, int64_t gpus, int64_t global_batch_seqs, int sp_values) {
  double n = sp_values;
  if (spec.vary_tp) n *= double(std::min(divisor_count(gpus), spec.max_tp > 0 ? spec.max_tp : gpus));
  if (spec.vary_cp) n *= double(divisor_count(gpus));
  if (spec.vary_pp) n *= double(divisor_count(gpus));
  if (spec.vary_ep) n *= double(std::max<int64_t>(1, divisor_count(std::max<int64_t>(1, spec.base.model.experts))));
  if (spec.vary_virtual_stages) n *= double(spec.max_virtual_stages);
  if (spec.vary_micro_batch) n *= double(divisor_count(std::max<int64_t>(1, global_batch_seqs)));
  if (spec.vary_recompute) n *= 3;
  if (spec.vary_zero) n *= 4;
  return n;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

Result<UnpublishedChoice> choose_unpublished_knobs(const Scenario& record_scenario,
                                                   const std::vector<std::string>& unpublished, int64_t max_layouts) {
  UnpublishedChoice out;
  out.scenario = record_scenario;
  if (unpublished.empty()) return out;
  out.searched = true;
  auto listed = [&](const char* key) {
    return std::find(unpublished.begin(), unpublished.end(), key) != unpublished.end();
  };

  const Scenario& s = record_scenario;
  if (s.hardware.gpu_count < 1)
    return make_error("scenario.hardware.gpu_count",
                      "needed to choose the unpublished knobs (the search keeps the GPU count)");
  SearchSpec spec;
  spec.base = s;
  spec.top_n = 1;
  spec.vary_tp = listed("parallel.tp");
  spec.vary_pp = listed("parallel.pp");
  spec.vary_cp = listed("parallel.cp");
  spec.vary_ep = listed("parallel.ep");
  spec.vary_virtual_stages = listed("parallel.virtual_stages");
  spec.vary_micro_batch = listed("training.micro_batch");
  spec.vary_recompute = listed("training.recompute");
  spec.vary_zero = listed("training.zero_stage");
  // Tensor parallelism inside one node: across nodes it is never the tuned choice.
  spec.max_tp = s.hardware.gpus_per_node.value_or(s.hardware.gpu.gpus_per_node);
  const std::vector<bool> sp_values = listed("training.sequence_parallel")
                                          ? std::vector<bool>{false, true}
                                          : std::vector<bool>{s.training.sequence_parallel};

  const int64_t gbs = s.training.global_batch_seqs > 0 ? s.training.global_batch_seqs
                      : s.training.seq_len > 0 ? int64_t(s.training.global_batch_tokens / double(s.training.seq_len))
                                               : 0;
  const double bound = layouts_bound(spec, s.hardware.gpu_count, gbs, int(sp_values.size()));
  if (bound > double(max_layouts))
    return make_error("unpublished", "up to " + std::to_string(int64_t(bound)) + " layouts over " +
                                         joined(unpublished) + " on " + std::to_string(s.hardware.gpu_count) +
                                         " GPUs, more than the " + std::to_string(max_layouts) +
                                         " searched per record: give some of these knobs in the scenario");

  // The fastest layout over both sequence-parallel settings (off first: it wins a tie).
  std::optional<SearchLayout> best;
  Scenario best_base;
  std::optional<Error> no_fit, other;
  for (bool sp : sp_values) {
    spec.base.training.sequence_parallel = sp;
    Result<SearchResult> r = search_layouts(spec);
    if (!r) {
      const bool fits_nowhere = r.error().field == "search" && r.error().message.rfind("no layout fits", 0) == 0;
      (fits_nowhere ? no_fit : other) = r.error();
      continue;
    }
    out.candidates += r->counts.candidates;
    if (!best || r->top.front().step_s < best->step_s) best = r->top.front(), best_base = spec.base;
  }
  const std::string knobs = joined(unpublished);
  if (!best && other) {
    // A bad scenario or batch names its field; a space where nothing divides is the list's fault.
    if (other->field != "search") return make_error("scenario." + other->field, other->message);
    return make_error("unpublished", other->message);
  }
  if (!best) {
    out.fits = false;
    out.note =
        "unpublished (" + knobs + "): no layout fits (" + no_fit->message + "); timed at the scenario's own values";
    return out;
  }
  out.scenario = apply_search_layout(best_base, *best);
  out.note = "unpublished (" + knobs + "): the fastest layout that fits, of " + std::to_string(out.candidates) +
             " candidates (search_layouts)";
  return out;
}

}  // namespace llmc::validate
