#!/usr/bin/env bash
# Main job (until the web calculator lands): set up, build the llmcalc CLI, and run it on a
# worked example: Llama 3.1 405B on 16,384 H100s, then the derivation of its headline numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh core
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLMC_BUILD_BENCH=OFF >/dev/null
cmake --build build/native --target llmcalc -j"$(nproc)"
cli=build/native/native/cli/llmcalc
echo
"$cli" estimate examples/llama3.1-405b-16k-h100.json
echo
echo "How the step time and memory were derived (llmcalc explain):"
"$cli" explain examples/llama3.1-405b-16k-h100.json --key time.step_s --key memory.per_gpu.total_bytes
echo
echo "More: $cli --help | $cli presets | $cli estimate --model llama3.1-8b --gpu a100-sxm-80gb --set hardware.gpu_count=8 --json"
