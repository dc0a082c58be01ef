#!/bin/sh
# A stand-in for llmcalc-bench in the desktop test (there is no GPU): prints the bench's progress
# lines (gpu/host/src/progress.cpp's format, one line per step as to a pipe) on stderr, writes a
# valid measured profile to --out, and exits 0, as a passing run does.
out=""
while [ $# -gt 0 ]; do
  [ "$1" = "--out" ] && out="$2"
  shift
done
[ -n "$out" ] || { echo "fake bench: no --out" >&2; exit 2; }
echo "llmcalc-bench: stand-in (tests/desktop/fake_bench.sh), 4 measurements, planned about 2s" >&2
for step in "[..............................]   0% gemm bf16 4096x4096x4096 grid square       ETA 2s" \
            "[#######.......................]  25% gemm bf16 8192x8192x8192 grid square       ETA 2s" \
            "[###############...............]  50% membound hbm_copy 1073741824 B             ETA 1s" \
            "[######################........]  75% h2d pinned 1073741824 B                    ETA 1s"; do
  echo "$step" >&2
  sleep 0.4
done
echo "[##############################] 100% done in 2s" >&2
sed -e 's/"source": *"published"/"source": "measured"/' \
    -e 's/"description": *"[^"]*"/"description": "stand-in calibration"/' \
    "$(dirname "$0")/../../site/profiles/h100-sxm.published.json" >"$out"
echo "llmcalc-bench: profile written: $out" >&2
