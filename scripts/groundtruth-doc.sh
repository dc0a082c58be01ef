#!/usr/bin/env bash
# Regenerates docs/measurements/<run>/comparison<suffix>.md for every ground-truth file of a
# measured run (gpu/measurements/<run>/train_llama<suffix>.json, e.g. train_llama_heldout.json):
# llmcalc's predictions, from this build, with that run's own profile (the measured
# site/profiles/ file whose metadata names the run; for a run that measured no profile, the
# measured profile of the same device), beside
# what was measured. scripts/test.sh fails when a committed comparison differs from what this
# writes, so the tables always show the current model's errors. Needs python3 and the CLI:
#   LLMCALC=build/native/native/cli/llmcalc bash scripts/groundtruth-doc.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${LLMCALC:-build/native/native/cli/llmcalc}
found=0
for measured in gpu/measurements/*/train_llama*.json; do
  [[ -f $measured ]] || continue
  run=$(basename "$(dirname "$measured")")
  suffix=$(basename "$measured" .json)
  suffix=${suffix#train_llama}
  profile=$(python3 -c '
import glob, json, sys
device = json.load(open(sys.argv[2])).get("device")
measured = [(p, d) for p in sorted(glob.glob("site/profiles/*.json")) for d in [json.load(open(p))]
            if isinstance(d, dict) and d.get("source") == "measured"]
own = [p for p, d in measured if sys.argv[1] in json.dumps(d.get("metadata"))]
same = [p for p, d in measured if (d.get("metadata") or {}).get("device") == device]
print((own or same or [""])[0])' "$run" "$measured")
  [[ -n $profile ]] || { echo "groundtruth-doc.sh: no site/profiles/*.json cites $run" >&2; exit 1; }
  gpu=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpu"])' "$profile")
  mkdir -p "docs/measurements/$run"
  python3 gpu/groundtruth/compare.py "$measured" --out "docs/measurements/$run/comparison$suffix.md" --llmcalc "$cli" --gpu "$gpu" \
    --profile "$profile" >/dev/null
  echo "groundtruth-doc.sh: docs/measurements/$run/comparison$suffix.md ($gpu, $profile)"
  found=$((found + 1))
done
((found > 0)) || { echo "groundtruth-doc.sh: no gpu/measurements/*/train_llama*.json" >&2; exit 1; }
