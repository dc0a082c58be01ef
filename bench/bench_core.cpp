// bench_core: how long one estimate takes, natively. Goal: <= 5 us per llmc::estimate().
// Scenarios are built once outside the timed loop (parsing is timed separately), and each is
// checked to estimate successfully before it is timed. Results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <string>

#include "llmc/catalog.h"
#include "llmc/estimate.h"
#include "llmc/fields.h"
#include "llmc/report.h"
#include "llmc/scenario.h"
#include "llmc/search.h"

#include "bench_scenarios.h"

namespace {

using namespace llmc::bench_scenarios;

void BM_estimate(benchmark::State& state, llmc::Scenario (*build)()) {
  const llmc::Scenario s = build();
  for (auto _ : state) {
    llmc::Result<llmc::Estimate> r = llmc::estimate(s);
    benchmark::DoNotOptimize(r);
  }
}

// resolve() alone: defaults + cross-field checks (the first step of estimate()).
void BM_resolve(benchmark::State& state, llmc::Scenario (*build)()) {
  const llmc::Scenario s = build();
  for (auto _ : state) {
    llmc::Result<llmc::Resolved> r = llmc::resolve(s);
    benchmark::DoNotOptimize(r);
  }
}

// Copying a Scenario / an Estimate (strings, vectors): what every by-value pass costs.
void BM_copy_scenario(benchmark::State& state) {
  const llmc::Scenario s = llama8b_8gpu();
  for (auto _ : state) {
    llmc::Scenario c = s;
    benchmark::DoNotOptimize(c);
  }
}

void BM_estimate_to_json(benchmark::State& state, bool include_terms) {
  const llmc::Result<llmc::Estimate> e = llmc::estimate(llama8b_8gpu());
  size_t bytes = 0;
  for (auto _ : state) {
    std::string j = llmc::estimate_to_json(*e, include_terms);
    bytes = j.size();
    benchmark::DoNotOptimize(j);
  }
  state.counters["json_bytes"] = static_cast<double>(bytes);
}

// A scenario file as a user writes it: the model by preset id (loads and parses the preset).
const char* kScenarioPreset = R"({
  "model": "llama3.1-8b",
  "training": {"seq_len": 8192, "global_batch_seqs": 512, "tokens": 15e12, "precision": "bf16_mixed",
               "zero_stage": 1, "recompute": "full"},
  "parallel": {"tp": 1, "pp": 1},
  "hardware": {"gpu": "h100-sxm", "gpu_count": 8}
})";

// The same with the model shape inline (no preset lookup).
const char* kScenarioInline = R"({
  "model": {"name": "llama-like 8B", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "head_dim": 128,
            "ffn_hidden": 14336, "mlp": "swiglu", "vocab": 128256, "seq_len": 8192},
  "training": {"seq_len": 8192, "global_batch_seqs": 512, "tokens": 15e12, "zero_stage": 1},
  "parallel": {"tp": 1, "pp": 1},
  "hardware": {"gpu": "h100-sxm", "gpu_count": 8}
})";

void BM_apply_scenario_json(benchmark::State& state, const char* text) {
  const std::string doc = text;
  {
    llmc::Scenario s = llmc::default_scenario();
    llmc::Status st = llmc::apply_scenario_json(s, doc);
    if (!st) {
      state.SkipWithError(st.error().text().c_str());
      return;
    }
  }
  for (auto _ : state) {
    llmc::Scenario s = llmc::default_scenario();
    llmc::Status st = llmc::apply_scenario_json(s, doc);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(s);
  }
}

void BM_default_scenario(benchmark::State& state) {
  for (auto _ : state) {
    llmc::Scenario s = llmc::default_scenario();
    benchmark::DoNotOptimize(s);
  }
}

void BM_find_model_preset(benchmark::State& state) {
  for (auto _ : state) {
    auto p = llmc::find_model_preset("llama3.1-8b");
    benchmark::DoNotOptimize(p);
  }
}

// End to end as the CLI / UI does it: parse a scenario file, estimate, write the JSON.
void BM_parse_estimate_json(benchmark::State& state) {
  const std::string doc = kScenarioPreset;
  for (auto _ : state) {
    llmc::Scenario s = llmc::default_scenario();
    llmc::Status st = llmc::apply_scenario_json(s, doc);
    benchmark::DoNotOptimize(st);
    llmc::Result<llmc::Estimate> e = llmc::estimate(s);
    std::string j = llmc::estimate_to_json(*e, false);
    benchmark::DoNotOptimize(j);
  }
}

void BM_search(benchmark::State& state, llmc::SearchSpec (*build)()) {
  const llmc::SearchSpec spec = build();
  llmc::SearchCounts c;
  for (auto _ : state) {
    llmc::Result<llmc::SearchResult> r = llmc::search_layouts(spec);
    if (!r) {
      state.SkipWithError(r.error().text().c_str());
      return;
    }
    c = r->counts;
    benchmark::DoNotOptimize(r);
  }
  state.counters["candidates"] = double(c.candidates);
  state.counters["valid"] = double(c.valid);
  state.counters["fit"] = double(c.valid - c.does_not_fit);
  state.counters["timed"] = double(c.evaluated);
}

}  // namespace

BENCHMARK_CAPTURE(BM_search, megatron_22b_64xh100, search_22b_64)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_search, llama3_1_405b_16384xh100, search_405b_16k)->Unit(benchmark::kMillisecond);
// The five estimates, from the one list estimate_timer times too (bench_scenarios.cpp).
[[maybe_unused]] const bool kEstimatesRegistered = [] {
  for (const NamedScenario& n : estimate_scenarios())
    benchmark::RegisterBenchmark((std::string("BM_estimate/") + n.name).c_str(), BM_estimate, n.build)
        ->Unit(benchmark::kMicrosecond);
  return true;
}();
BENCHMARK_CAPTURE(BM_resolve, llama3_1_8b_8xh100, llama8b_8gpu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_resolve, mixtral_8x7b_64_tp2_ep8, mixtral_ep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_copy_scenario)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_estimate_to_json, llama3_1_8b, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_estimate_to_json, llama3_1_8b_terms, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_apply_scenario_json, preset_id, kScenarioPreset)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_apply_scenario_json, inline_model, kScenarioInline)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_default_scenario)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_find_model_preset)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_parse_estimate_json)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
