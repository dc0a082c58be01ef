#!/usr/bin/env bash
# Rebuilds site/profiles/<gpu>.published.json from the published kernel records in
# validation/sources/public.json, the raw transcriptions (gpu/host/tools/published_profiles.cpp; docs/profile-schema.md
# "Published profiles"). Run after changing the records or the tool; commit the result.
# Env: BUILD_DIR (default build/native).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build/native}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" --target llmc-published-profiles -j"$(nproc)" >/dev/null
"$build_dir/gpu/host/llmc-published-profiles" validation/sources/public.json site/profiles
