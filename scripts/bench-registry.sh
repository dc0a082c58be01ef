#!/usr/bin/env bash
# Load benchmark of the profile registry (docs/benchmarks.md, "Profile registry"): starts
# `llmcalc serve` on 127.0.0.1 (ephemeral port, a fresh data directory seeded with the bundled
# profiles) and runs bench/registry_load against it twice: CLIENTS concurrent keep-alive clients
# listing and fetching for SECONDS, first closed-loop (the most it serves), then each at RATE
# requests/s (latency at a steady load); then UPLOADS single uploads of the ~110 KB measured H100
# profile. Stops the server. Prints numbers; asserts nothing but that every request succeeded.
# Loopback only, bounded.
# Usage: scripts/bench-registry.sh   Env: CLIENTS (50), SECONDS_LOAD (5), RATE (40), UPLOADS (40), BUILD_DIR (build/native)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build/native}"
cmake --preset native >/dev/null
cmake --build "$build_dir" --target llmcalc registry_load
cli="$build_dir/native/cli/llmcalc"
tmp="$(mktemp -d)"
server=""
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
"$cli" serve token add bench --data "$tmp/data" >"$tmp/token" 2>/dev/null
bundled=()
for f in site/profiles/*.json; do [[ $(basename "$f") == index.json ]] || bundled+=("$f"); done
"$cli" serve import "${bundled[@]}" --label bundled --data "$tmp/data" >/dev/null
"$cli" serve --data "$tmp/data" --port 0 --port-file "$tmp/port" --quiet &
server=$!
for _ in $(seq 100); do [[ -s $tmp/port ]] && break; sleep 0.05; done
[[ -s $tmp/port ]] || { echo "bench-registry: the server did not start" >&2; exit 1; }
echo "bench-registry: $(nproc) CPU(s), $(uname -m); data directory on $(df -P "$tmp" | awk 'NR==2 {print $1}')"
load=("$build_dir/bench/registry_load" --url "http://127.0.0.1:$(cat "$tmp/port")" --token-file "$tmp/token"
      --upload site/profiles/h100-sxm.json --clients "${CLIENTS:-50}" --seconds "${SECONDS_LOAD:-5}")
"${load[@]}" --uploads 0
"${load[@]}" --rate "${RATE:-40}" --uploads "${UPLOADS:-40}"
