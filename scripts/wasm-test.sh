#!/usr/bin/env bash
# Native vs WebAssembly parity check, then the doctest suite under node.
#
#   1. configure + build golden_dump with the `native` and `wasm` presets (CMakePresets.json)
#   2. run both (wasm under node) on tests/golden/scenarios.json and cmp the outputs byte for byte;
#      on a difference, print which lines/terms differ (values are hex floats, so any bit counts)
#   3. build the whole wasm preset and run `ctest --preset wasm --output-on-failure`
#   4. print how long one estimate() takes as wasm (bench/estimate_timer.cpp; docs/benchmarks.md)
#
# Usage: scripts/wasm-test.sh            (after scripts/setup.sh; from anywhere in the checkout)
# Exit status: 0 when outputs are identical, ctest passes and the estimate benchmark ran; 1 otherwise
# (the benchmark's times never fail it).
# LLMC_WASM_TEST_ACCEPT_LIBM=1: pass when the only differences vanish with glibc's FMA libm
# variants disabled (see below), i.e. the compiled code is bit-identical and only libm rounds apart.
# Outputs are kept in build/golden/{native,wasm}.txt.
#
# Known cause of last-bit differences: libm. core's estimate() uses only + − × ÷, sqrt, floor and
# ceil (correctly rounded everywhere; -ffp-contract=off keeps FMA out of compiled code), but the
# compute-optimal law (core/src/estimate/scaling.cpp) calls std::pow. glibc (x86-64) dispatches pow/exp/log
# to FMA builds on CPUs that have FMA; Emscripten's musl compiles the same ARM optimized-routines
# source without FMA, and about 1 pow result in 1,600 then differs by 1 ULP. The lasting fix is a
# pow that core compiles itself (e.g. musl's pow.c, MIT), so both builds run identical code.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# Debian's Emscripten runs acorn & co. from node's global modules; without this every -O1+ link
# fails with "Cannot find module 'acorn'".
export NODE_PATH=/usr/share/nodejs
NODE="${NODE:-/usr/bin/node}"

failures=()
step() { printf '\n== %s\n' "$*"; }
timed() {  # timed LABEL CMD...: run, print the wall time, return its status
  local label=$1; shift
  local t0=$SECONDS
  "$@"
  local rc=$?
  printf -- '-- %s: %ds (exit %d)\n' "$label" $((SECONDS - t0)) "$rc"
  return $rc
}
quiet() { "$@" >/dev/null; }  # stdout off, errors still shown

for tool in cmake ninja em++ "$NODE"; do
  if ! command -v "$tool" >/dev/null; then
    echo "wasm-test: '$tool' not found; run scripts/setup.sh" >&2
    exit 1
  fi
done

# --- 1. build golden_dump for both targets --------------------------------------------------
step "configure + build golden_dump (native)"
native_ok=1
timed "native configure" quiet cmake --preset native || native_ok=0
((native_ok)) && { timed "native build golden_dump" cmake --build --preset native --target golden_dump || native_ok=0; }
((native_ok)) || failures+=("native golden_dump build")

step "configure + build golden_dump (wasm, Emscripten $(em++ --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p'))"
wasm_ok=1
timed "wasm configure" quiet cmake --preset wasm || wasm_ok=0
((wasm_ok)) && { timed "wasm build golden_dump" cmake --build --preset wasm --target golden_dump || wasm_ok=0; }
((wasm_ok)) || failures+=("wasm golden_dump build")

# --- 2. run both and compare -----------------------------------------------------------------
out="build/golden"
mkdir -p "$out"
scenarios="$root/tests/golden/scenarios.json"
if ((native_ok && wasm_ok)); then
  step "run golden_dump (native and node) on tests/golden/scenarios.json"
  run_ok=1
  ./build/native/tests/golden_dump "$scenarios" >"$out/native.txt" || { echo "native golden_dump exited $?"; run_ok=0; }
  "$NODE" build/wasm/tests/golden_dump.js "$scenarios" >"$out/wasm.txt" || { echo "wasm golden_dump exited $?"; run_ok=0; }
  n_native=$(wc -l <"$out/native.txt")
  n_wasm=$(wc -l <"$out/wasm.txt")
  if ((run_ok == 0)); then
    failures+=("golden_dump run")
  elif ((n_native == 0)); then
    echo "native golden_dump printed nothing"
    failures+=("golden_dump empty output")
  elif cmp -s "$out/native.txt" "$out/wasm.txt"; then
    n_err=$(grep -c '^[0-9]* error ' "$out/native.txt")
    n_scen=$(grep -c '^[0-9]* scenario ' "$out/native.txt")
    echo "IDENTICAL: $n_native lines ($n_scen scenarios estimated, $n_err rejected as expected," \
         "$(grep -c '^optimal\.' "$out/native.txt") compute-optimal lines), native == wasm byte for byte"
  else
    echo "DIFFERENT: native $n_native lines, wasm $n_wasm lines"
    # Line by line (both files list the same items in the same order unless a count differs).
    paste -d '\t' "$out/native.txt" "$out/wasm.txt" | awk -F '\t' '
      $1 != $2 {
        n++
        split($1, a, " "); split($2, b, " ")
        key = (a[2] != "" ? a[2] : b[2]); bykey[key]++
        if (n <= 25) printf "  line %d: %-48s native %-26s wasm %s\n", NR, a[1] " " a[2], a[3], b[3]
      }
      END {
        printf "%d of %d lines differ", n, NR
        if (n > 25) printf " (first 25 shown)"
        printf "\nby key (count of scenarios/sweep points where it differs):\n"
        for (k in bykey) printf "  %5d  %s\n", bykey[k], k
      }'
    if ((n_native != n_wasm)); then
      echo "line counts differ; unified diff (first 40 lines):"
      diff -u "$out/native.txt" "$out/wasm.txt" | head -40
    fi
    # Diagnosis: glibc picks FMA builds of pow/exp/log at run time (ifunc) on CPUs with FMA;
    # Emscripten's musl runs the same ARM optimized-routines code without FMA. Both are within
    # 0.54 ULP but round a few hard cases differently. Rerun native with those variants off.
    GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4 \
      ./build/native/tests/golden_dump "$scenarios" >"$out/native-nofma.txt" 2>/dev/null
    if cmp -s "$out/native-nofma.txt" "$out/wasm.txt"; then
      echo "diagnosis: native with glibc's FMA libm variants disabled" \
           "(GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4) == wasm byte for byte:" \
           "every difference is glibc's FMA pow/exp/log vs musl's non-FMA one (last-bit rounding)," \
           "not the compiled code. Fix: core compiles its own pow (see the header of this script)."
      libm_only=1
    else
      echo "diagnosis: differences remain with glibc's FMA libm variants disabled" \
           "($(paste -d '\t' "$out/native-nofma.txt" "$out/wasm.txt" | awk -F '\t' '$1 != $2' | wc -l) lines):" \
           "compiled code differs (FMA contraction, fast-math, x87, library code?)"
    fi
    if [[ ${libm_only:-0} == 1 && ${LLMC_WASM_TEST_ACCEPT_LIBM:-0} == 1 ]]; then
      echo "LLMC_WASM_TEST_ACCEPT_LIBM=1: accepted (compiled code is bit-identical; only libm differs)"
    else
      failures+=("native/wasm golden outputs differ")
    fi
  fi
fi

# --- 3. the doctest suite under node -----------------------------------------------------------
if ((wasm_ok)); then
  step "build the whole wasm preset (llmc_core, llmc_tests, golden_dump, llmcalc)"
  if timed "wasm build all" cmake --build --preset wasm; then
    step "ctest --preset wasm --output-on-failure"
    timed "wasm ctest" ctest --preset wasm --output-on-failure || failures+=("ctest --preset wasm")
    # ctest keeps passing tests' output in its log: show doctest's summary from there.
    grep -a 'test cases:\|assertions:\|Status:' build/wasm/Testing/Temporary/LastTest.log 2>/dev/null |
      sed 's/\x1b\[[0-9;]*m//g; s/^/   /'
  else
    failures+=("wasm build (all targets)")
  fi
  for f in build/wasm/tests/golden_dump build/wasm/tests/llmc_tests build/wasm/native/cli/llmcalc; do
    [[ -f $f.wasm ]] && printf '   %-36s %9d B wasm  %8d B js\n' "$f" "$(stat -c %s "$f.wasm")" "$(stat -c %s "$f.js")"
  done
  # --- 4. a benchmark, not a test: one estimate() as wasm under node (goal <= 10 us) -----------
  step "benchmark: estimate() as wasm under node (prints; asserts nothing)"
  "$NODE" build/wasm/bench/estimate_timer.js || failures+=("estimate_timer (wasm) did not run")
fi

echo
if ((${#failures[@]})); then
  printf 'wasm-test: FAILED: %s\n' "${failures[@]}"
  exit 1
fi
if [[ ${libm_only:-0} == 1 ]]; then
  echo "wasm-test: OK (compiled code bit-identical; libm last-bit differences accepted; wasm doctest suite passed)"
else
  echo "wasm-test: OK (native and wasm outputs bit-identical; wasm doctest suite passed)"
fi
