#!/usr/bin/env bash
# Sets up (scripts/setup.sh web), builds the site (scripts/build-site.sh) and the command-line tool
# (target llmcalc only), and serves build/site/ at http://127.0.0.1:PORT/ with `llmcalc serve`: the
# page plus the profile registry API under /api/v1 (docs/registry.md). The registry lives in
# build/registry/ (or $LLMC_REGISTRY_DIR) and is seeded with the bundled profiles (site/profiles/;
# importing one already there changes nothing). Bound to 127.0.0.1 only.
# Usage: scripts/serve.sh [port]     (default 8080; Ctrl+C stops)
#        LLMC_SERVE_NO_BUILD=1 scripts/serve.sh   serves build/site/ as it is, with the llmcalc already built
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port="${1:-8080}"
[[ $port =~ ^[0-9]+$ ]] || { echo "usage: scripts/serve.sh [port]" >&2; exit 2; }
cli=build/native/native/cli/llmcalc
data="${LLMC_REGISTRY_DIR:-build/registry}"

if [[ ${LLMC_SERVE_NO_BUILD:-0} != 1 ]]; then
  bash scripts/setup.sh web  # idempotent: apt packages, then ImGui + SDL2 for wasm (cached)
  bash scripts/build-site.sh
  cmake --preset native >build/.serve-configure.log 2>&1 || { cat build/.serve-configure.log >&2; exit 1; }
  cmake --build --preset native --target llmcalc
fi
[[ -f build/site/index.html ]] || { echo "serve: build/site/index.html missing; run scripts/build-site.sh" >&2; exit 1; }
[[ -x $cli ]] || { echo "serve: $cli missing; run scripts/serve.sh once without LLMC_SERVE_NO_BUILD" >&2; exit 1; }
"$cli" serve --help >/dev/null 2>&1 ||
  { echo "serve: $cli was built without the registry (scripts/setup.sh core installs libcpp-httplib-dev, libsqlite3-dev)" >&2; exit 1; }

bundled=()
for f in site/profiles/*.json; do
  [[ $(basename "$f") == index.json ]] || bundled+=("$f")
done
"$cli" serve import "${bundled[@]}" --label bundled --data "$data" >/dev/null
echo "serve: http://127.0.0.1:$port/  (embed: http://127.0.0.1:$port/embed.html; registry: http://127.0.0.1:$port/api/v1/profiles, data in $data)"
exec "$cli" serve --data "$data" --site build/site --host 127.0.0.1 --port "$port"
