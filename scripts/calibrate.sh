#!/usr/bin/env bash
# One command on a GPU box (CUDA toolkit, CMake, ninja, a compiler; PyTorch optional; no network):
# builds llmcalc-bench (gpu preset), measures this machine into site/profiles/<gpu>.json, and
# keeps the evidence in gpu/measurements/<date>-<gpu>/ (raw samples, nvidia-smi -q, versions,
# the log, and, when PyTorch is importable, attention timings, PyTorch's host cost per kernel and
# the ground-truth training runs compared with llmcalc's predictions, and GEMM timings by recipe). Usage: scripts/calibrate.sh [--quick] [bench options...]
# Headers: the build needs nlohmann/json.hpp (Debian nlohmann-json3-dev). Without it in
# /usr/include, set LLMC_HEADER_ROOT to a directory holding nlohmann/ (docs/bench.md).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=()
[[ " $* " == *" --quick "* ]] && quick=(--quick)
header_root=${LLMC_HEADER_ROOT:-/usr/include}
if [[ -z ${LLMC_BENCH:-} && ! -f $header_root/nlohmann/json.hpp ]]; then
  echo "calibrate.sh: $header_root/nlohmann/json.hpp not found; set LLMC_HEADER_ROOT (docs/bench.md, 'headers')" >&2
  exit 2
fi

# LLMC_BENCH names an llmcalc-bench built elsewhere (same CUDA major version): no build here.
bench=${LLMC_BENCH:-}
if [[ -z $bench ]]; then
  echo "calibrate.sh: configure + build (gpu preset)" >&2
  # LLMC_BENCH_MPI pinned: scripts/test.sh also builds the MPI variant in build/gpu.
  cmake --preset gpu -DLLMC_BENCH_MPI=OFF -DLLMC_HEADER_ROOT="$header_root" >/dev/null
  cmake --build --preset gpu -j"$(nproc)"
  bench=build/gpu/gpu/llmcalc-bench
fi

name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -c 'A-Za-z0-9\n' '-' | tr 'A-Z' 'a-z' | sed 's/--*/-/g; s/-$//')
name=${name:-unknown-gpu}
run=$(date -u +%Y-%m-%d)-$name
dir=gpu/measurements/$run
mkdir -p "$dir" "docs/measurements/$run" site/profiles
nvidia-smi -q > "$dir/nvidia-smi-q.txt" 2>&1 || true
nvidia-smi topo -m > "$dir/nvidia-smi-topo.txt" 2>&1 || true
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "git: $(git rev-parse HEAD 2>/dev/null || echo unknown) $(git status --porcelain 2>/dev/null | wc -l) changed files"
  echo "host: $(uname -a)"
  /usr/local/cuda/bin/nvcc --version | tail -2
  cmake --version | head -1
  c++ --version | head -1
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())' 2>/dev/null || echo "torch: not importable"
} > "$dir/versions.txt"

have_torch=0
python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null && have_torch=1
imports=()  # measurements from PyTorch the bench files into the profile
if ((have_torch)); then
  echo "calibrate.sh: attention timings through PyTorch SDPA" >&2
  python3 gpu/groundtruth/attention_bench.py --out "$dir/attention.json" "${quick[@]}" 2>&1 | tee "$dir/attention.log" >&2 &&
    imports=(--attention-json "$dir/attention.json")
  echo "calibrate.sh: PyTorch's host cost per kernel (overheads.py)" >&2
  python3 gpu/groundtruth/overheads.py --out "$dir/overheads.json" 2>&1 | tee "$dir/overheads.log" >&2 &&
    imports+=(--overheads-json "$dir/overheads.json")
fi

# The GPU id follows from the device name inside the bench; the profile lands in site/profiles/.
set +e
# The profile is written once, to site/profiles/<gpu>.json; its raw samples stay with the evidence.
profile=$dir/profile.json
"$bench" "$@" "${imports[@]}" --out "$profile" --raw "$dir/profile.raw.json" 2> >(tee "$dir/bench.log" >&2)
rc=$?
set -e
if [[ -s $profile ]]; then
  gpu=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpu"])' "$profile")
  mv "$profile" "site/profiles/$gpu.json"
  profile=site/profiles/$gpu.json
  echo "calibrate.sh: profile $profile (evidence in $dir)" >&2
else
  profile=
fi

if ((have_torch)); then
  echo "calibrate.sh: ground truth (train_llama.py)" >&2
  python3 gpu/groundtruth/train_llama.py --out "$dir/train_llama.json" --kernels "$dir/kernels.txt" "${quick[@]}" 2>&1 | tee "$dir/train_llama.log" >&2 || true
  if ((${#quick[@]} == 0)); then
    echo "calibrate.sh: layer and expert GEMMs by recipe (gemm_recipes_bench.py)" >&2
    python3 gpu/groundtruth/gemm_recipes_bench.py --out "$dir/gemm_recipes.json" 2>&1 | tee "$dir/gemm_recipes.log" >&2 || true
    echo "calibrate.sh: attention over packed documents (packed_attention_bench.py)" >&2
    python3 gpu/groundtruth/packed_attention_bench.py --out "$dir/packed_attention.json" 2>&1 | tee "$dir/packed_attention.log" >&2 || true
    echo "calibrate.sh: a MoE layer's host cost per local expert (moe_host_bench.py)" >&2
    python3 gpu/groundtruth/moe_host_bench.py --out "$dir/moe_host.json" 2>&1 | tee "$dir/moe_host.log" >&2 || true
  fi
  cli=build/native/native/cli/llmcalc
  if [[ ! -x $cli ]] && [[ -f /usr/include/CLI/CLI.hpp || -f $header_root/CLI/CLI.hpp ]]; then
    cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLMC_BUILD_TESTS=OFF -DLLMC_BUILD_BENCH=OFF \
      -DLLMC_HEADER_ROOT="$header_root" >/dev/null && cmake --build build/native --target llmcalc -j"$(nproc)" >/dev/null || true
  fi
  if [[ -x $cli && -f $dir/train_llama.json ]]; then
    prof=()
    [[ -n $profile ]] && prof=(--profile "$profile")
    python3 gpu/groundtruth/compare.py "$dir/train_llama.json" --out "docs/measurements/$run/comparison.md" --llmcalc "$cli" \
      --gpu "${gpu:-h100-sxm}" "${prof[@]}" || true
  else
    echo "calibrate.sh: llmcalc CLI not built (needs CLI11 headers); run compare.py later on a dev machine" >&2
  fi
fi
exit $rc
