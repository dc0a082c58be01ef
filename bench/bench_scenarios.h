// The scenarios the estimator benchmarks time (bench_core natively, estimate_timer natively and
// as wasm under node), built once outside any timed loop. Each is checked to estimate
// successfully before it is timed (a bench on a broken scenario would time the error path).
// Results: docs/benchmarks.md.
#pragma once

#include <vector>

#include "llmc/scenario.h"
#include "llmc/search.h"

namespace llmc::bench_scenarios {

Scenario llama8b_8gpu();
Scenario llama8b_8gpu_nofit();
Scenario llama405b_16k();
Scenario mixtral_ep();
Scenario size_only_6nd();

// The five above with the names the benchmarks print, in that order.
struct NamedScenario {
  const char* name;
  Scenario (*build)();
};
const std::vector<NamedScenario>& estimate_scenarios();

SearchSpec search_22b_64();
SearchSpec search_405b_16k();

}  // namespace llmc::bench_scenarios
