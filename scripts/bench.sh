#!/usr/bin/env bash
# Builds Release natively and runs bench_core (Google Benchmark), printing the numbers and how
# each full estimate compares with the goal of <= 5 us (docs/benchmarks.md); then estimate_timer,
# the standard-clock timer of the same five estimates that scripts/wasm-test.sh runs as wasm.
# Usage: scripts/bench.sh [google-benchmark flags...]
#   default flags: --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
#   e.g. scripts/bench.sh --benchmark_filter=BM_estimate
# Env: BUILD_DIR (default build/native), GOAL_US (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${BUILD_DIR:-build/native}"
goal_us="${GOAL_US:-5}"

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLMC_BUILD_BENCH=ON >/dev/null
cmake --build "$build_dir" --target bench_core estimate_timer
exe="$build_dir/bench/bench_core"
if [[ ! -x "$exe" ]]; then
  echo "bench: $exe was not built (is libbenchmark-dev installed? scripts/setup.sh core)" >&2
  exit 1
fi

args=("$@")
if ((${#args[@]} == 0)); then
  args=(--benchmark_repetitions=5 --benchmark_display_aggregates_only=true)
fi
out_json="$build_dir/bench/bench_core.json"

echo "bench: $(${CXX:-c++} --version 2>/dev/null | head -1 || true); $(nproc) CPU(s); $(uname -m)"
"$exe" "${args[@]}" --benchmark_out="$out_json" --benchmark_out_format=json

# Goal check on the full estimates: CPU time per estimate, the median and the fastest of the
# repetitions (the fastest is the least disturbed by other load on a small VM).
python3 - "$out_json" "$goal_us" <<'PY'
import json, statistics, sys
path, goal = sys.argv[1], float(sys.argv[2])
scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
runs = {}
for b in json.load(open(path))["benchmarks"]:
    name = b.get("run_name", b["name"])
    if b.get("run_type", "iteration") != "iteration" or not name.startswith("BM_estimate/"):
        continue
    runs.setdefault(name, []).append(b["cpu_time"] * scale[b.get("time_unit", "ns")])
print()
print(f"goal: one llmc::estimate() <= {goal:g} us (CPU time per estimate; median and fastest of the repetitions)")
for name, t in runs.items():
    med = statistics.median(t)
    print(f"  {'ok  ' if med <= goal else 'OVER'} median {med:7.2f} us  min {min(t):7.2f} us  ({len(t)} runs)  {name[len('BM_estimate/'):]}")
PY

# The same five estimates timed with the standard clock only: the harness that also runs as wasm
# (scripts/wasm-test.sh), so native and wasm figures come from one method.
echo
"$build_dir/bench/estimate_timer"
