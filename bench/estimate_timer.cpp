// estimate_timer: how long one llmc::estimate() takes, with nothing but the standard clock, so
// the same source runs natively and as WebAssembly under node (V8, the engine of Chromium).
// Goal: <= 5 us native, <= 10 us wasm (docs/benchmarks.md). Google Benchmark
// (bench_core) does not build for wasm; this is the wasm side of the same five scenarios.
// Prints, per scenario, the median and the fastest of the repetitions in us per estimate; it
// asserts nothing (a benchmark, not a test). Results: docs/benchmarks.md.
//
// Usage: estimate_timer [repetitions] [calls per repetition]   (default 15 × 2000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "llmc/estimate.h"

#include "bench_scenarios.h"

namespace {

// Keeps the optimizer from dropping the estimates: every result feeds this sum.
volatile double g_sink = 0;

double us_per_call(const llmc::Scenario& s, int calls) {
  const auto t0 = std::chrono::steady_clock::now();
  double sum = 0;
  for (int i = 0; i < calls; ++i) {
    llmc::Result<llmc::Estimate> r = llmc::estimate(s);
    sum += r ? r->time.step_s : 1;
  }
  const auto t1 = std::chrono::steady_clock::now();
  g_sink = g_sink + sum;
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / calls;
}

int positive_arg(int argc, char** argv, int i, int fallback) {
  if (argc <= i) return fallback;
  const int v = std::atoi(argv[i]);
  if (v <= 0) {
    std::fprintf(stderr, "estimate_timer: argument %d must be a positive integer; got '%s'\n", i, argv[i]);
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = positive_arg(argc, argv, 1, 15);
  const int calls = positive_arg(argc, argv, 2, 2000);
#ifdef __EMSCRIPTEN__
  const char* where = "wasm (node)";
  const double goal_us = 10;
#else
  const char* where = "native";
  const double goal_us = 5;
#endif
  std::printf("estimate_timer, %s: %d repetitions of %d estimates each; goal <= %g us per estimate\n", where, reps,
              calls, goal_us);
  for (const auto& [name, build] : llmc::bench_scenarios::estimate_scenarios()) {
    const llmc::Scenario s = build();
    us_per_call(s, calls / 4 + 1);  // warm-up: caches, the JIT's tiers under node
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) t.push_back(us_per_call(s, calls));
    std::sort(t.begin(), t.end());
    const size_t n = t.size();
    const double median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    std::printf("  %s median %7.2f us  min %7.2f us  %s\n", median <= goal_us ? "ok  " : "OVER", median, t.front(),
                name);
  }
  return 0;
}
