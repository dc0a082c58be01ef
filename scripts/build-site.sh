#!/usr/bin/env bash
# Builds the web page and assembles build/site/:
#   site/ (copied recursively: index.html, embed.html, shell.js, app.css, and whatever else lives
#   there, e.g. docs/, profiles/) + llmcalc_app.js + llmcalc_app.wasm from the wasm preset
#   + llmcalc_embed.js/.wasm (web/embed_api, the embind module site/llmcalc-embed.js loads) when
#   that target exists.
# Needs scripts/setup-web.sh once (ImGui + SDL2 for wasm, cached); scripts/setup.sh web does both.
# Usage: scripts/build-site.sh        Output: build/site/ (replaced as a whole), sizes printed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# Debian's Emscripten runs acorn & co. from node's global modules (toolchain.md).
export NODE_PATH=/usr/share/nodejs

for tool in cmake ninja em++; do
  command -v "$tool" >/dev/null || { echo "build-site: '$tool' not found; run scripts/setup.sh web" >&2; exit 1; }
done

t0=$SECONDS
mkdir -p build
# Configure is cheap when nothing changed; LLMC_BUILD_WEB=ON in case the cache has it off.
cmake --preset wasm -DLLMC_BUILD_WEB=ON >build/.build-site-configure.log 2>&1 || {
  cat build/.build-site-configure.log >&2
  echo "build-site: configure failed (missing web dependencies? run scripts/setup-web.sh)" >&2
  exit 1
}
targets=(llmcalc_app)
if [[ -f web/embed_api/CMakeLists.txt ]]; then targets+=(llmcalc_embed); fi
cmake --build --preset wasm --target "${targets[@]}"
app=build/wasm/web
out=build/site
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp -R site/. "$out.tmp/"
cp "$app/llmcalc_app.js" "$app/llmcalc_app.wasm" "$out.tmp/"
if [[ " ${targets[*]} " == *" llmcalc_embed "* ]]; then
  cp "$app/embed_api/llmcalc_embed.js" "$app/embed_api/llmcalc_embed.wasm" "$out.tmp/"
fi
rm -rf "$out"
mv "$out.tmp" "$out"

js=$(stat -c %s "$out/llmcalc_app.js")
wasm=$(stat -c %s "$out/llmcalc_app.wasm")
js_gz=$(gzip -9c "$out/llmcalc_app.js" | wc -c)
wasm_gz=$(gzip -9c "$out/llmcalc_app.wasm" | wc -c)
echo "build-site: $out/ ready in $((SECONDS - t0)) s ($(find "$out" -type f | wc -l) files)"
printf 'build-site:   llmcalc_app.wasm %9d B  (gzip -9: %d B)\n' "$wasm" "$wasm_gz"
printf 'build-site:   llmcalc_app.js   %9d B  (gzip -9: %d B)\n' "$js" "$js_gz"
printf 'build-site:   total gzipped    %9d B  (budget 1048576 B)\n' $((js_gz + wasm_gz))
if [[ -f $out/llmcalc_embed.wasm ]]; then
  embed_gz=$(( $(gzip -9c "$out/llmcalc_embed.js" | wc -c) + $(gzip -9c "$out/llmcalc_embed.wasm" | wc -c) ))
  printf 'build-site:   llmcalc_embed.js + .wasm gzipped %d B  (budget 100000 B)\n' "$embed_gz"
  if ((embed_gz > 100000)); then echo "build-site: warning: the embed module is over its 100 KB gzipped budget" >&2; fi
fi
if ((js_gz + wasm_gz > 1048576)); then
  echo "build-site: warning: the app is over its 1 MB gzipped budget" >&2
fi
