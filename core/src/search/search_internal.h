// Internal pieces of the layout search (search.cpp): applying a layout to a resolved scenario with
// resolve()'s rules, and the lower bound on step time the search prunes with.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "llmc/estimate.h"
#include "llmc/search.h"

namespace llmc::detail {

struct Layout {
  int64_t gpus = 1, tp = 1, pp = 1, cp = 1, ep = 1, v = 1, b = 1;
  Recompute rec = Recompute::none;
  int zero = 0;
  int64_t recompute_layers = 0;
};

// What a layout does not change, taken from the user's scenario: the schedule used when v = 1,
// expert tensor parallelism (0: tp), the ZeRO shard group, and the fixed global batch.
struct LayoutBase {
  Schedule schedule_v1 = Schedule::one_f_one_b;
  int64_t etp = 0, zero_shard_group = 0, global_batch_seqs = 0;
  // What a selective layout recomputes: the user's modules when the scenario is selective, else
  // Megatron-core's default (core_attn).
  uint32_t selective_modules = kRecomputeCoreAttn;
};

// Writes the layout into r (a resolve()d scenario) and re-derives what resolve() derives from it
// (dp, gpu count, etp, micro-batches, layers per stage). Returns false exactly when resolve()
// would reject the scenario with this layout; tests/test_search.cpp checks the two agree.
bool apply_layout(Resolved& r, const LayoutBase& base, const Layout& l);

// A lower bound on time_per_step(r, f, ...).step_s for every valid r: the search skips a layout
// whose bound cannot beat what it keeps. Owned by the search (core/src/search_bound.cpp); it must
// stay below the time model's step time, which the search also checks on every layout it times.
double step_time_lower_bound(const Resolved& r, const FlopCounts& f);

// A search spec's checks (search_spec.cpp): each field named with its range; a spec without a
// GPU count takes the base's.
Status check_search_spec(SearchSpec& spec);

}  // namespace llmc::detail
