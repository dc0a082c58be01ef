#!/usr/bin/env bash
# What a change to core moves: every figure of tests/golden/broad_scenarios.json (400 scenarios
# across models, recipes, recompute rules, kernels and layouts, and 40 that resolve() rejects)
# from golden_dump at a base revision and at the working tree, compared figure by figure.
# Usage: scripts/compare-estimates.sh [BASE_REV]   (default HEAD; the working tree is "after")
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
base="${1:-HEAD}"
scenarios=tests/golden/broad_scenarios.json
out=build/compare
mkdir -p "$out"
rev=$(git rev-parse --short "$base")
if [[ ! -d "$out/base-$rev" ]]; then
  git worktree add -q --detach "$out/base-$rev" "$rev"
fi
cmake -S "$out/base-$rev" -B "$out/base-$rev/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLMC_BUILD_DESKTOP=OFF -DLLMC_BUILD_BENCH=OFF >/dev/null
cmake --build "$out/base-$rev/build" --target golden_dump -j"$(nproc)" >/dev/null
cmake --preset native >/dev/null
cmake --build --preset native --target golden_dump -j"$(nproc)" >/dev/null
"$out/base-$rev/build/tests/golden_dump" "$root/$scenarios" >"$out/before.txt"
build/native/tests/golden_dump "$scenarios" >"$out/after.txt"
python3 scripts/compare-estimates.py "$out/before.txt" "$out/after.txt" "$scenarios"
