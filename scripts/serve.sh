#!/usr/bin/env bash
# Sets up (scripts/setup.sh web), builds the site (scripts/build-site.sh) and serves build/site/ at http://127.0.0.1:PORT/
# (python3's http.server, bound to 127.0.0.1 only; it serves .wasm as application/wasm).
# Usage: scripts/serve.sh [port]     (default 8080; Ctrl+C stops)
#        LLMC_SERVE_NO_BUILD=1 scripts/serve.sh   serves build/site/ as it is
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port="${1:-8080}"
[[ $port =~ ^[0-9]+$ ]] || { echo "usage: scripts/serve.sh [port]" >&2; exit 2; }

if [[ ${LLMC_SERVE_NO_BUILD:-0} != 1 ]]; then
  bash scripts/setup.sh web  # idempotent: apt packages, then ImGui + SDL2 for wasm (cached)
  bash scripts/build-site.sh
fi
[[ -f build/site/index.html ]] || { echo "serve: build/site/index.html missing; run scripts/build-site.sh" >&2; exit 1; }
echo "serve: http://127.0.0.1:$port/  (embed: http://127.0.0.1:$port/embed.html)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$root/build/site"
