#!/usr/bin/env bash
# Builds everything and runs every test: native doctest suite, CLI checks, the suite again under
# AddressSanitizer + UBSan, the wasm build under node with the native/wasm bit-identity check,
# the embed module under node, the web site in headless Chromium, the desktop app under Xvfb
# (driven with xdotool), the profile registry (SIGKILL durability, serve.sh, load benchmark), a
# fuzzing smoke run, and the core benchmark (which prints numbers; it asserts nothing).
# Usage: scripts/test.sh            FUZZ_SECONDS=600 scripts/test.sh   (longer fuzzing)
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs

bash scripts/setup.sh all || { echo "test.sh: setup failed"; exit 1; }

passed=0
failed=0
failures=()
stage() {  # stage NAME CMD...: run a stage, count it
  local name=$1; shift
  printf '\n==== %s\n' "$name"
  local t0=$SECONDS
  if "$@"; then
    passed=$((passed + 1)); printf -- '---- %s: ok (%ds)\n' "$name" $((SECONDS - t0))
  else
    failed=$((failed + 1)); failures+=("$name"); printf -- '---- %s: FAILED (%ds)\n' "$name" $((SECONDS - t0))
  fi
}

native() {
  cmake --preset native >/dev/null && cmake --build --preset native -j"$(nproc)" && ctest --preset native
}

cli_checks() {
  local cli=build/native/native/cli/llmcalc
  "$cli" estimate examples/llama3.1-405b-16k-h100.json >/dev/null || return 1
  "$cli" estimate examples/seed000-405b-on-16k-h100.json --json >/dev/null || return 1
  "$cli" validate examples/validate-my-run.json >/dev/null || return 1
  # Bad input: exit code 2 and one line naming the field.
  local err
  err=$("$cli" estimate --model llama3.1-8b --set parallel.tp=3 2>&1 >/dev/null)
  local rc=$?
  [[ $rc -eq 2 && $err == "llmcalc: error: parallel.tp: "* && $(printf '%s\n' "$err" | wc -l) -eq 1 ]] || { echo "bad-input check: rc=$rc err=$err"; return 1; }
  echo "CLI: examples run, bad input exits 2 with: $err"
  # The GPU ground-truth scripts' host-side logic, without PyTorch (tests/groundtruth/).
  local out
  out=$(python3 tests/groundtruth/test_host_logic.py 2>&1) || { printf '%s\n' "$out"; return 1; }
  echo "CLI: gpu/groundtruth's host-side logic passes without PyTorch"
  # Generated documents: regenerating them from this build must not change them.
  regenerates_unchanged "$cli" scripts/error-bars.sh core/src/estimate/error_bars_data.cpp || return 1
  regenerates_unchanged "$cli" scripts/validation-doc.sh docs/validation.md || return 1
  regenerates_unchanged "$cli" scripts/groundtruth-doc.sh docs/measurements/*/comparison*.md
}

# regenerates_unchanged CLI SCRIPT FILE...: run SCRIPT with this build's CLI; FILEs must not change.
regenerates_unchanged() {
  local cli=$1 script=$2 before after
  shift 2
  before=$(cat "$@")
  LLMCALC="$cli" bash "$script" >/dev/null || return 1
  after=$(cat "$@")
  [[ "$before" == "$after" ]] || { echo "$* stale: rerun $script and commit"; git diff --stat -- "$@"; return 1; }
  echo "CLI: $* are what $script writes"
}

asan() {  # the registry's server runs under ASan + UBSan in the fuzz smoke (fuzz_registry_http): not built here
  cmake --preset debug-asan -DLLMC_BUILD_REGISTRY=OFF -DLLMC_BUILD_DESKTOP=OFF >/dev/null && cmake --build --preset debug-asan -j"$(nproc)" --target llmc_tests && \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ./build/asan/tests/llmc_tests
}

stage "native build + doctest (ctest)" native
stage "CLI checks" cli_checks
stage "doctest under ASan + UBSan" asan
stage "wasm build, native/wasm bit-identity, doctest under node" bash scripts/wasm-test.sh
web() {
  bash scripts/build-site.sh && node tests/e2e/run.mjs
}
stage "embed module under node (node --test)" node --test tests/embed/
stage "web: build the site, browser tests (Playwright + Chromium)" web
desktop() {  # llmcalc-desktop driven with real X11 input under Xvfb (tests/desktop/run.sh)
  cmake --preset native -DLLMC_BUILD_DESKTOP=ON >/dev/null &&
    cmake --build --preset native -j"$(nproc)" --target llmcalc-desktop llmcalc && bash tests/desktop/run.sh build/native
}
stage "desktop app under Xvfb" desktop
registry() {  # llmcalc serve: SIGKILL during uploads, the README's serve.sh, load (prints numbers; docs/registry.md)
  python3 tests/registry/durability.py build/native/native/cli/llmcalc 24 &&
    python3 tests/registry/serve_check.py && bash scripts/bench-registry.sh
}
stage "registry: durability under SIGKILL, serve.sh, load benchmark" registry
# 35 s per target keeps the whole command inside 60 minutes on a 2-core VM (docs/benchmarks.md).
stage "fuzz smoke (${FUZZ_SECONDS:-35} s per target)" bash scripts/fuzz.sh "${FUZZ_SECONDS:-35}"
gpu_preset() {  # CUDA build with no GPU: the bench must say so and exit 3, never crash
  [[ -x /usr/local/cuda/bin/nvcc ]] || { echo "no CUDA toolkit at /usr/local/cuda: stage skipped"; return 0; }
  cmake --preset gpu -DLLMC_BENCH_MPI=OFF >/dev/null && cmake --build --preset gpu -j"$(nproc)" || return 1
  if nvidia-smi -L >/dev/null 2>&1; then echo "a GPU is visible: the no-GPU check does not apply"; return 0; fi
  local err rc
  err=$(./build/gpu/gpu/llmcalc-bench --quick 2>&1 >/dev/null); rc=$?
  [[ $rc -eq 3 && $err == "llmcalc-bench: no usable GPU: "* && $(printf '%s\n' "$err" | wc -l) -eq 1 ]] ||
    { echo "no-GPU check: rc=$rc err=$err"; return 1; }
  echo "llmcalc-bench without a GPU exits 3 with: $err"
  err=$(./build/gpu/gpu/llmcalc-bench --mpi 2>&1 >/dev/null); rc=$?
  [[ $rc -eq 2 && $err == "llmcalc-bench: error: --mpi: this llmcalc-bench was built without MPI"* ]] ||
    { echo "--mpi without MPI: rc=$rc err=$err"; return 1; }
  # The --mpi build (OpenMPI from scripts/setup.sh): what the gpu-mpi preset sets (LLMC_BENCH_MPI=ON),
  # here in the same build directory, so that only the bench's own sources compile again and not
  # core a third time (about 2 minutes on a 2-core VM). It compiles, knows it has MPI, and with no
  # GPU still exits 3 through MPI_Init/MPI_Finalize (a singleton run, no mpirun).
  cmake --preset gpu -DLLMC_BENCH_MPI=ON >/dev/null && cmake --build --preset gpu -j"$(nproc)" || return 1
  ./build/gpu/gpu/llmcalc-bench --version | grep -q "with MPI" || { echo "LLMC_BENCH_MPI=ON: --version does not say 'with MPI'"; return 1; }
  err=$(./build/gpu/gpu/llmcalc-bench --mpi --quick 2>&1 >/dev/null); rc=$?
  [[ $rc -eq 3 && $err == *"llmcalc-bench: no usable GPU: "* ]] || { echo "MPI build no-GPU check: rc=$rc err=$err"; return 1; }
  echo "llmcalc-bench exits 2 on --mpi when built without MPI; built with it (LLMC_BENCH_MPI=ON), it exits 3 without a GPU"
}
stage "gpu preset build (CUDA, no GPU)" gpu_preset
stage "bench_core" bash scripts/bench.sh

printf '\n'
((failed)) && printf 'failed stages: %s\n' "${failures[*]}"
echo "test.sh: $passed passed, $failed failed"
((failed == 0))
