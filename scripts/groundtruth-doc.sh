#!/usr/bin/env bash
# Regenerates docs/measurements/<run>/comparison<suffix>.md for every ground-truth file of a
# measured run (train_llama<suffix>.json, e.g. train_llama_heldout.json): llmcalc's predictions, from this build, with that run's own profile, beside
# what was measured. scripts/test.sh fails when a committed comparison differs from what this
# writes, so the tables always show the current model's errors. Needs python3 and the CLI:
#   LLMCALC=build/native/native/cli/llmcalc bash scripts/groundtruth-doc.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${LLMCALC:-build/native/native/cli/llmcalc}
found=0
for measured in docs/measurements/*/train_llama*.json; do
  [[ -f $measured ]] || continue
  dir=$(dirname "$measured")
  suffix=$(basename "$measured" .json)
  suffix=${suffix#train_llama}
  profile=$dir/profile.json
  gpu=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpu"])' "$profile")
  python3 gpu/groundtruth/compare.py "$measured" --out "$dir/comparison$suffix.md" --llmcalc "$cli" --gpu "$gpu" \
    --profile "$profile" >/dev/null
  echo "groundtruth-doc.sh: $dir/comparison$suffix.md ($gpu)"
  found=$((found + 1))
done
((found > 0)) || { echo "groundtruth-doc.sh: no docs/measurements/*/train_llama*.json" >&2; exit 1; }
