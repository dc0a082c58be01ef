#!/usr/bin/env bash
# Installs everything llmcalc needs on a fresh Debian 12 machine, from Debian's archive only.
# Idempotent: packages already present are skipped by apt; safe to run on every build.
# Usage: scripts/setup.sh [core|wasm|web|desktop|mpi|all]   (default: all = every group)
#   web: the wasm packages plus chromium (headless browser tests), then scripts/setup-web.sh
#        (ImGui + SDL2 sources from Debian source packages, SDL2 built for wasm, cached;
#        npm ci for playwright-core).
#   desktop: SDL2, Dear ImGui (libimgui.a with its SDL2/OpenGL3 backends), OpenGL headers and Mesa's
#        software renderer for llmcalc-desktop; the UI font (web too: DejaVu Sans + fontTools' pyftsubset); Xvfb, xdotool and ImageMagick for its test
#        (tests/desktop/run.sh). docs/desktop.md.
#   mpi: OpenMPI, for llmcalc-bench --mpi (preset gpu-mpi; collectives across nodes, docs/bench.md).
#        The CUDA toolkit itself is not from Debian and not installed here (docs/bench.md).
set -euo pipefail

want="${1:-all}"
core_pkgs=(build-essential cmake ninja-build pkg-config git python3
           doctest-dev nlohmann-json3-dev libcli11-dev libbenchmark-dev
           clang libclang-rt-14-dev
           libcpp-httplib-dev libsqlite3-dev)  # llmcalc serve and the registry client (docs/registry.md)
wasm_pkgs=(emscripten nodejs)
# The UI font (both UIs): DejaVu Sans, subset at build time by pyftsubset to the glyphs used (ui/font/).
font_pkgs=(fonts-dejavu-core python3-fonttools fonttools)  # fonttools: the pyftsubset command
web_pkgs=(chromium "${font_pkgs[@]}")
desktop_pkgs=(libsdl2-dev libimgui-dev libgl-dev libgl1-mesa-dri xvfb xdotool imagemagick "${font_pkgs[@]}")
mpi_pkgs=(libopenmpi-dev openmpi-bin)

pkgs=("${core_pkgs[@]}")
if [[ "$want" == wasm || "$want" == web || "$want" == all ]]; then pkgs+=("${wasm_pkgs[@]}"); fi
if [[ "$want" == web || "$want" == all ]]; then
  pkgs+=("${web_pkgs[@]}")
  # npm (for playwright-core): bundled with a nodejs from another repository; Debian's otherwise.
  command -v npm >/dev/null || pkgs+=(npm)
fi
if [[ "$want" == desktop || "$want" == all ]]; then pkgs+=("${desktop_pkgs[@]}"); fi
if [[ "$want" == mpi || "$want" == all ]]; then pkgs+=("${mpi_pkgs[@]}"); fi

missing=()
for p in "${pkgs[@]}"; do
  # nodejs may come from another repository (a newer node); any installed version will do.
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  # Wait for another apt run's lock (up to 10 min) instead of failing on it.
  lock=(-o DPkg::Lock::Timeout=600)
  "${sudo_cmd[@]}" apt-get "${lock[@]}" update -qq
  "${sudo_cmd[@]}" apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

if [[ "$want" == web || "$want" == all ]]; then
  "$(dirname "${BASH_SOURCE[0]}")/setup-web.sh"
fi
