#!/usr/bin/env bash
# Writes docs/validation.md: docs/validation.md.in (prose) with its {{section FILE...}} lines
# filled by `llmcalc validate --template` from the records in validation/. Rerun after any change
# to the time model, the profiles or the records; commit the result (scripts/test.sh fails when
# the committed file is stale).
# Usage: scripts/validation-doc.sh    Env: LLMCALC (an llmcalc binary; default: build it in build/native).
set -euo pipefail
cd "$(dirname "$0")/.."
cli="${LLMCALC:-}"
if [[ -z "$cli" ]]; then
  cmake --preset native >/dev/null && cmake --build --preset native --target llmcalc >/dev/null
  cli=build/native/native/cli/llmcalc
fi
"$cli" validate --template docs/validation.md.in >docs/validation.md.tmp && mv docs/validation.md.tmp docs/validation.md
echo "wrote docs/validation.md"
