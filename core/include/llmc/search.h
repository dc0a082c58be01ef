// Layout search: every tp × pp × dp × cp × ep × virtual stages × micro-batch × recompute × ZeRO
// layout of a scenario on a GPU count (or a range of them), the ones that divide and fit, ranked
// exactly (docs/search.md). Pruning skips only candidates that provably cannot enter the answer.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "llmc/estimate.h"
#include "llmc/scenario.h"

namespace llmc {

enum class SearchObjective {
  step_time,  // fastest step (fixed GPU count), or fastest run (range: total time)
  cost,       // cheapest run (USD)
  gpus,       // fewest GPUs that meet the deadline (then fastest); needs deadline_days
};
const char* to_string(SearchObjective o);
// "step_time", "cost", "gpus" (alias "gpus_for_deadline"); false for anything else.
bool parse_search_objective(const std::string& text, SearchObjective& out);

struct SearchSpec {
  Scenario base;  // model, batch, tokens, GPU type, precision, optimizer...; its layout fields are ignored
  // GPU counts: every count in [gpus_min, gpus_max] stepping by gpus_step. 0/0: the base's hardware.gpu_count.
  int64_t gpus_min = 0, gpus_max = 0, gpus_step = 1;
  double deadline_days = 0;  // > 0: drop layouts whose total time exceeds it
  double budget_usd = 0;     // > 0: drop layouts whose cost exceeds it
  SearchObjective objective = SearchObjective::step_time;
  int top_n = 10;
  // Dimensions varied; a dimension not varied keeps the base's value.
  bool vary_tp = true, vary_pp = true, vary_cp = true, vary_ep = true, vary_virtual_stages = true,
       vary_micro_batch = true, vary_recompute = true, vary_zero = true;
  // Explicit limits (defaults cover every layout resolve() accepts except where noted).
  int64_t max_tp = 0;              // 0: no limit (tp across nodes is allowed, and slow)
  int64_t max_virtual_stages = 8;  // interleaving deeper than 8 chunks per rank is not enumerated
  bool prune = true;               // false: evaluate every feasible candidate (tests compare both)
};

// One layout and its figures. The top layouts' figures come from a full estimate().
struct SearchLayout {
  int64_t gpus = 0, tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, virtual_stages = 1, micro_batch = 1, micro_batches = 1;
  int64_t global_batch_seqs = 0, recompute_layers = 0;
  Recompute recompute = Recompute::none;
  int zero_stage = 0;
  Schedule schedule = Schedule::one_f_one_b;
  double step_s = 0, compute_s = 0, bubble_s = 0, comm_exposed_s = 0;
  double total_days = 0, cost_usd = 0, mfu = 0;
  double memory_bytes = 0, capacity_bytes = 0, headroom_bytes = 0;
  double step_low_s = 0, step_high_s = 0;  // the step's 68 % range (top layouts only; 0 elsewhere)
  // Top layouts only: the kind of run (llmc/error_bars.h) and whether enough published runs of
  // that kind were validated for its range to be its own (else a broader kind's is borrowed).
  std::string regime;
  bool regime_validated = true;
};

// The base scenario with a layout applied: estimate() it to see every figure of the layout.
Scenario apply_search_layout(const Scenario& base, const SearchLayout& l);

struct SearchCounts {
  int64_t candidates = 0;         // layouts enumerated from the allowed values of each dimension
  int64_t invalid = 0;            // rejected by resolve()'s rules (divisibility, batch, schedule)
  int64_t valid = 0;              // candidates − invalid
  int64_t does_not_fit = 0;       // valid but over GPU memory
  int64_t pruned_by_bound = 0;    // fit, skipped: their lower bound cannot beat what is kept
  int64_t evaluated = 0;          // fit and fully timed
  int64_t misses_constraint = 0;  // timed, but over the deadline or budget
};

// A point of the Pareto front: the fastest layout at one GPU count, not beaten on time, GPUs and
// cost together by any other count's.
struct ParetoPoint {
  int64_t gpus = 0;
  double step_s = 0, total_days = 0, cost_usd = 0;
  bool meets_constraints = true;
  SearchLayout layout;  // figures from the search's own evaluation (the same formulas as estimate())
};

struct SearchResult {
  std::vector<SearchLayout> top;    // best first
  std::vector<ParetoPoint> pareto;  // ascending GPUs
  SearchCounts counts;
  std::vector<std::string> why;   // why the best wins, one line each
  bool pruning_disabled = false;  // the lower bound failed a check, so the search ran without it
};

// Runs the search. Errors: a bad spec (field named), or no layout that fits / meets the constraints.
Result<SearchResult> search_layouts(const SearchSpec& spec);

// "tp 8 · pp 2 · dp 4 · cp 1 · ep 1 · v 1 · micro-batch 1 (128 per step) · recompute none · ZeRO 1 · 1f1b"
std::string describe_layout(const SearchLayout& l);

// JSON (docs/search.md "JSON"). Deterministic key order.
std::string search_to_json(const SearchSpec& spec, const SearchResult& r);

}  // namespace llmc
