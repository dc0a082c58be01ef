#!/usr/bin/env bash
# Writes core/src/estimate/error_bars_data.cpp: the time model's error bars per regime, from the
# leave-one-family-out predictions of every record in validation/ (`llmcalc validate --lofo`,
# docs/validation.md "Leave one family out"). Rerun after any change to the time model or the
# records, rebuild, then rerun scripts/validation-doc.sh; commit the results (scripts/test.sh
# fails when the committed table is stale).
# Usage: scripts/error-bars.sh    Env: LLMCALC (an llmcalc binary; default: build it in build/native).
set -euo pipefail
cd "$(dirname "$0")/.."
cli="${LLMCALC:-}"
if [[ -z "$cli" ]]; then
  cmake --preset native >/dev/null && cmake --build --preset native --target llmcalc >/dev/null
  cli=build/native/native/cli/llmcalc
fi
files=()
for f in validation/*.json; do
  [[ "$f" == validation/first-look*.json ]] || files+=("$f")
done
"$cli" validate "${files[@]}" --lofo --write-error-bars core/src/estimate/error_bars_data.cpp.tmp >/dev/null
mv core/src/estimate/error_bars_data.cpp.tmp core/src/estimate/error_bars_data.cpp
echo "wrote core/src/estimate/error_bars_data.cpp"
