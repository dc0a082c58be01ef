#!/usr/bin/env bash
# Writes validation/first-look.json: every compared row of the given records files as this
# llmcalc predicts them now, with the commit and the date. Issue 28's protocol records the error
# of new records before the model is changed for them; docs/validation.md's "First look" section
# is generated from this file (`{{first-look ...}}`), so it stays as recorded when the model moves.
# Usage: scripts/first-look.sh DATE FILE...   (DATE as YYYY-MM-DD; run on a clean checkout)
# Env: LLMCALC (an llmcalc binary; default: build it in build/native); OUT (the file to write;
# default validation/first-look.json, the 2026-11-25 records; a later batch gets its own file);
# ONLY (an id prefix: only those records, when the batch was added to an existing file).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { echo "usage: scripts/first-look.sh DATE FILE..." >&2; exit 2; }
date="$1"; shift
out="${OUT:-validation/first-look.json}"
[[ -z "$(git status --porcelain -- core validate native "$@")" ]] || { echo "first-look: commit the model and the records first (the file names the commit)" >&2; exit 2; }
cli="${LLMCALC:-}"
if [[ -z "$cli" ]]; then
  cmake --preset native >/dev/null && cmake --build --preset native --target llmcalc >/dev/null
  cli=build/native/native/cli/llmcalc
fi
commit=$(git rev-parse --short=12 HEAD)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
only=()
[[ -n "${ONLY:-}" ]] && only=(--only "$ONLY")
for f in "$@"; do "$cli" validate "$f" --json "${only[@]}" >"$tmp/$(basename "$f")"; done
python3 - "$commit" "$date" "$tmp" "$@" >"$out" <<'PY'
import json, os, sys
commit, date, tmp, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
out = []
for f in files:
    for r in json.load(open(os.path.join(tmp, os.path.basename(f))))["rows"]:
        if r["status"] == "skipped":
            continue
        out.append({"id": r["id"], "family": r["family"], "convention": r["convention"], "metric": r["metric"], "measured": r["measured"],
                    "predicted": round(r["predicted"], 6), "error": round(r["error"], 6), "llmcalc_commit": commit, "date": date})
print(json.dumps(out, indent=1))
PY
echo "wrote $out ($(grep -c '"id"' "$out") rows, llmcalc $commit)"
