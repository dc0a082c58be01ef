#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan, core instrumented too) in build/fuzz and
# runs each for the given number of seconds, one after another. The seed corpus in
# tests/fuzz/corpus/<target>/ is read, never written: new inputs go to build/fuzz/corpus-work/.
# Prints libFuzzer's final stats line of each target; exits non-zero if any target found a
# crash, a sanitizer report, a timeout or an out-of-memory (reproducers: build/fuzz/artifacts/).
# Usage: scripts/fuzz.sh [seconds-per-target] [target...]   (default 600; all targets)
#        scripts/fuzz.sh --replay [target...]   runs every saved reproducer in
#        tests/fuzz/crashes/<target>/ once (FUZZ_TIMEOUT each) and says which still fail.
# Env:   FUZZ_TIMEOUT (seconds one input may take, default 10), FUZZ_RSS_MB (default 2048),
#        BUILD_DIR (default build/fuzz), FUZZ_CC / FUZZ_CXX (default clang / clang++).
# Docs: docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

replay=0
if [[ "${1:-}" == --replay ]]; then
  replay=1
  shift
  seconds=0
else
  seconds="${1:-600}"
  shift || true
fi
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(fuzz_scenario_json fuzz_hf_config fuzz_set_field fuzz_url_state fuzz_validate fuzz_profile fuzz_number_input fuzz_registry_list fuzz_registry_http); fi
build_dir="${BUILD_DIR:-build/fuzz}"
timeout_s="${FUZZ_TIMEOUT:-10}"
rss_mb="${FUZZ_RSS_MB:-2048}"

cc="${FUZZ_CC:-$(command -v clang || command -v clang-14 || true)}"
cxx="${FUZZ_CXX:-$(command -v clang++ || command -v clang++-14 || true)}"
if [[ -z "$cxx" ]]; then
  echo "fuzz: clang++ not found (scripts/setup.sh core installs clang and libclang-rt-14-dev)" >&2
  exit 2
fi

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DLLMC_BUILD_FUZZ=ON -DLLMC_BUILD_TESTS=OFF -DLLMC_BUILD_CLI=OFF -DLLMC_BUILD_BENCH=OFF >/dev/null
cmake --build "$build_dir" --target "${targets[@]}"

if ((replay)); then
  status=0
  for t in "${targets[@]}"; do
    for f in tests/fuzz/crashes/"$t"/*; do
      [[ -f "$f" ]] || continue
      rc=0
      env -u LLMC_FUZZ_SKIP_KNOWN timeout "$timeout_s" "$build_dir/tests/fuzz/$t" "$f" >"$build_dir/replay.log" 2>&1 || rc=$?
      if ((rc == 0)); then
        echo "fixed      $t $f"
      else
        status=1
        why="$(grep -E 'llmc fuzz check failed|what\(\)|runtime error:|ERROR: AddressSanitizer' "$build_dir/replay.log" | head -1 || true)"
        ((rc == 124)) && why="took over ${timeout_s}s"
        echo "REPRODUCES $t $f (rc $rc): $why"
      fi
    done
  done
  exit "$status"
fi

artifacts="$build_dir/artifacts"
mkdir -p "$artifacts"
status=0
summary=()
for t in "${targets[@]}"; do
  exe="$build_dir/tests/fuzz/$t"
  seed="tests/fuzz/corpus/$t"
  work="$build_dir/corpus-work/$t"
  log="$build_dir/$t.log"
  dict="tests/fuzz/${t#fuzz_}.dict"
  mkdir -p "$work" "$artifacts/$t"
  args=(-max_total_time="$seconds" -rss_limit_mb="$rss_mb" -timeout="$timeout_s"
        -print_final_stats=1 -artifact_prefix="$artifacts/$t/")
  [[ -f "$dict" ]] && args+=(-dict="$dict")
  echo "fuzz: $t for ${seconds}s (log: $log)"
  rc=0
  # The first corpus directory is the one libFuzzer writes to: the work corpus, then the seeds.
  "$exe" "${args[@]}" "$work" "$seed" >"$log" 2>&1 || rc=$?
  # The last coverage line ("#N DONE cov: ... ft: ... corp: ...") or the last progress line.
  final="$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 || true)"
  execs="$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}' || true)"
  corpus_files="$(find "$work" -type f | wc -l)"
  line="$t: rc=$rc execs=${execs:-?} work-corpus=${corpus_files} files | ${final:-no stats line}"
  if ((rc != 0)); then
    status=1
    crash="$(grep -E 'ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:|llmc fuzz check failed|Test unit written to' "$log" | head -5 || true)"
    line+=$'\n'"  FAILED: $crash"
  fi
  summary+=("$line")
  echo "$line"
done

echo
echo "fuzz summary (${seconds}s per target, $(date -u +%Y-%m-%dT%H:%MZ)):"
printf '  %s\n' "${summary[@]}"
if ((status != 0)); then
  echo "fuzz: FAILED: reproducers in $artifacts/<target>/; rerun one with: $build_dir/tests/fuzz/<target> <file>" >&2
fi
exit "$status"
