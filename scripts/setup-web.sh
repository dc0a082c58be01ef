#!/usr/bin/env bash
# Web dependencies for the llmcalc page, from Debian's archive only, cached outside the build tree:
#   1. Debian *source* packages `imgui` (1.86, with backends/) and `libsdl2` (2.26.5), fetched with a
#      private apt configuration (the machine's own apt setup is never touched), then unpacked with
#      dpkg-source (Debian patches applied);
#   2. SDL2 built with Debian's Emscripten into a static libSDL2.a (video + events + GL; no audio).
#      `-sUSE_SDL=2` cannot work with Debian's Emscripten (frozen port cache, no downloads);
#   3. `npm ci` in the checkout (playwright-core for tests/e2e) unless the locked version is there.
# Idempotent: every step leaves a stamp and is skipped when its stamp is present.
#
# Usage: scripts/setup-web.sh          (after `scripts/setup.sh web`, which installs emscripten)
#        LLMC_WEB_FORCE=1 scripts/setup-web.sh   rebuilds SDL2 even if stamped
# Layout (LLMC_WEB_DEPS, the CMake cache variable of cmake/web.cmake, points at the root):
#   ${XDG_CACHE_HOME:-$HOME/.cache}/llmcalc/
#     apt/{sources,lists,archives,cache}   private apt configuration and state
#     src/*.dsc *.tar.*                    downloaded Debian source packages
#     src/imgui/                           unpacked imgui sources (imgui.cpp, backends/, ...)
#     src/libsdl2/                         unpacked SDL2 sources
#     wasm/sdl2-build/                     SDL2's CMake build tree (Emscripten)
#     wasm/sdl2/{include/SDL2,lib/libSDL2.a}  installed wasm SDL2
#     stamps/                              what is done
set -euo pipefail

cache="${XDG_CACHE_HOME:-$HOME/.cache}/llmcalc"
apt_dir="$cache/apt"
src="$cache/src"
stamps="$cache/stamps"
sdl_build="$cache/wasm/sdl2-build"
sdl_prefix="$cache/wasm/sdl2"
toolchain=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake
# Debian's Emscripten runs acorn & co. from node's global modules (toolchain.md).
export NODE_PATH=/usr/share/nodejs

say() { printf 'setup-web: %s\n' "$*"; }
die() { printf 'setup-web: error: %s\n' "$*" >&2; exit 1; }

for tool in apt-get dpkg-source emcc cmake ninja node; do
  command -v "$tool" >/dev/null || die "'$tool' not found; run scripts/setup.sh web"
done
[[ -f $toolchain ]] || die "$toolchain missing; run scripts/setup.sh web (installs emscripten)"

mkdir -p "$apt_dir/sources" "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/cache" \
         "$src" "$stamps"

# One run at a time (a second run would delete the SDL2 build tree under the first one).
exec 9>"$cache/.setup-web.lock"
if ! flock -n 9; then
  say "another setup-web.sh is running; waiting for it"
  flock 9
fi

# --- 1. private apt configuration (deb-src for bookworm main) --------------------------------------
mirror=""
if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
  # First URIs line of a non-security stanza.
  mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
fi
if [[ -z $mirror && -f /etc/apt/sources.list ]]; then
  mirror=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' \
           /etc/apt/sources.list)
fi
mirror="${mirror:-http://deb.debian.org/debian}"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
sources_file="$apt_dir/sources/debian-src.sources"
want_sources="Types: deb-src
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: $keyring"
if [[ ! -f $sources_file ]] || [[ "$(cat "$sources_file")" != "$want_sources" ]]; then
  printf '%s\n' "$want_sources" >"$sources_file"
fi

apt_opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt_dir/sources"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
          -o "Dir::Cache::archives=$apt_dir/archives")
# As root, apt drops to the _apt user for downloads, which cannot enter a private $HOME.
if [[ $(id -u) -eq 0 ]]; then apt_opts+=(-o "APT::Sandbox::User=root"); fi

have_dsc() { compgen -G "$src/${1}_*.dsc" >/dev/null; }

# --- 2. download the source packages (only those missing) -----------------------------------------
need=()
for p in imgui libsdl2; do have_dsc "$p" || need+=("$p"); done
if ((${#need[@]})); then
  say "fetching Debian source lists (private apt state in $apt_dir)"
  apt-get -q "${apt_opts[@]}" update >/dev/null || die "apt-get update (private source lists) failed"
  say "downloading source packages: ${need[*]}"
  (cd "$src" && apt-get -q "${apt_opts[@]}" source --download-only "${need[@]}" >/dev/null) ||
    die "apt-get source --download-only ${need[*]} failed"
fi

# --- 3. unpack (dpkg-source applies Debian's patches) into stable names src/imgui, src/libsdl2 -----
unpack() {  # unpack PKG: src/PKG from the newest src/PKG_*.dsc
  local pkg=$1 dsc ver stamp
  dsc=$(ls -1 "$src/${pkg}"_*.dsc | sort -V | tail -1)
  ver=$(basename "$dsc" .dsc)
  stamp="$stamps/unpack-$ver"
  if [[ -f $stamp && -d $src/$pkg ]]; then return; fi
  say "unpacking $ver"
  rm -rf "${src:?}/$pkg" "$src/$pkg.tmp"
  dpkg-source -q -x "$dsc" "$src/$pkg.tmp" >/dev/null 2>&1 ||
    dpkg-source -x "$dsc" "$src/$pkg.tmp" || die "dpkg-source -x $dsc failed"
  mv "$src/$pkg.tmp" "$src/$pkg"
  rm -f "$stamps/unpack-${pkg}_"*
  touch "$stamp"
}
unpack imgui
unpack libsdl2
[[ -f $src/imgui/imgui.cpp && -f $src/imgui/backends/imgui_impl_sdl.cpp ]] ||
  die "$src/imgui lacks imgui.cpp or backends/imgui_impl_sdl.cpp (unexpected imgui source package)"

# --- 4. SDL2 for wasm ----------------------------------------------------------------------------
# Video + events + GL (WebGL via Emscripten's GL emulation of GLES); audio off, so the two JS
# helpers SDL's Emscripten audio needs ($autoResumeAudioContext, $dynCall) are not needed at link.
sdl_opts=(-G Ninja
  -DCMAKE_TOOLCHAIN_FILE="$toolchain"
  -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node
  -DCMAKE_BUILD_TYPE=MinSizeRel
  -DCMAKE_INSTALL_PREFIX="$sdl_prefix"
  -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL2_DISABLE_SDL2MAIN=ON
  -DSDL_AUDIO=OFF -DSDL_HAPTIC=OFF -DSDL_SENSOR=OFF -DSDL_POWER=OFF -DSDL_HIDAPI=OFF
  -DSDL_FILESYSTEM=OFF -DSDL_PTHREADS=OFF)
sdl_ver=$(basename "$(ls -1 "$src"/libsdl2_*.dsc | sort -V | tail -1)" .dsc)
emcc_ver=$(emcc --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p')
sdl_key=$(printf '%s\n' "$sdl_ver" "$emcc_ver" "${sdl_opts[@]}" | sha256sum | cut -c1-16)
sdl_stamp="$stamps/sdl2-wasm-$sdl_key"
if [[ -f $sdl_stamp && -f $sdl_prefix/lib/libSDL2.a && ${LLMC_WEB_FORCE:-0} != 1 ]]; then
  say "SDL2 for wasm already built ($sdl_ver, emcc $emcc_ver)"
else
  say "building SDL2 for wasm ($sdl_ver, emcc $emcc_ver): configure ≈300 checks, 2-7 min on 2 cores; build ~1 min"
  t0=$SECONDS
  rm -rf "$sdl_build" "$sdl_prefix"
  mkdir -p "$cache/wasm"
  rm -f "$stamps"/sdl2-wasm-*
  cmake -S "$src/libsdl2" -B "$sdl_build" "${sdl_opts[@]}" >"$cache/wasm/sdl2-configure.log" 2>&1 ||
    { tail -30 "$cache/wasm/sdl2-configure.log" >&2; die "SDL2 configure failed (log: $cache/wasm/sdl2-configure.log)"; }
  say "configured in $((SECONDS - t0)) s"
  cmake --build "$sdl_build" --target install >"$cache/wasm/sdl2-build.log" 2>&1 ||
    { tail -30 "$cache/wasm/sdl2-build.log" >&2; die "SDL2 build failed (log: $cache/wasm/sdl2-build.log)"; }
  [[ -f $sdl_prefix/lib/libSDL2.a ]] || die "SDL2 installed no $sdl_prefix/lib/libSDL2.a"
  touch "$sdl_stamp"
  say "SDL2 built in $((SECONDS - t0)) s"
fi

# --- 5. browser-test dependency (playwright-core; the browser is Debian's chromium) --------------
# Only for tests/e2e; a failure here (no npm registry) does not stop the web build.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -f $root/package-lock.json ]] && command -v npm >/dev/null; then
  want_pw=$(node -e 'console.log(require(process.argv[1]).packages["node_modules/playwright-core"].version)' \
            "$root/package-lock.json" 2>/dev/null || true)
  have_pw=$(node -e 'console.log(require(process.argv[1]).version)' \
            "$root/node_modules/playwright-core/package.json" 2>/dev/null || true)
  if [[ -n $want_pw && $want_pw == "$have_pw" ]]; then
    say "playwright-core $have_pw already installed (node_modules/)"
  elif (cd "$root" && npm ci --no-audit --no-fund --loglevel=error); then
    say "installed playwright-core $want_pw (npm ci) for tests/e2e"
  else
    say "warning: npm ci failed; browser tests (tests/e2e) need it, the page does not" >&2
  fi
fi

say "done. LLMC_WEB_DEPS=$cache"
say "  imgui sources : $src/imgui  ($(basename "$(ls -1 "$src"/imgui_*.dsc | sort -V | tail -1)" .dsc))"
say "  SDL2 (wasm)   : $sdl_prefix/lib/libSDL2.a ($(stat -c %s "$sdl_prefix/lib/libSDL2.a") bytes), headers $sdl_prefix/include/SDL2"
