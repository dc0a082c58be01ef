#!/usr/bin/env python3
"""GEMM timings of the layer shapes behind two of llmcalc's open modelling questions (never run in
CI; needs PyTorch and a Hopper GPU):

  fp8   the linear layers of Llama 3 8B and 70B under tensor parallelism (torchtitan's separate
        wq, wk, wv, wo, w1, w3, w2), each GEMM of a training step (forward, dX, dW) in bf16
        (torch.mm: cuBLAS), FP8 with one scale per tensor (torch._scaled_mm: cuBLAS) with and
        without fast accumulation, and FP8 with a scale per row (torch._scaled_mm: CUTLASS) with
        and without it. torchao's float8 recipes run the forward with fast accumulation and both
        backward GEMMs without (Float8LinearConfig's gemm configs); for rowwise scaling the
        backward runs the per-tensor kernel and scales the output after (addmm_float8_unwrapped).
        Also the forward at the async-TP chunk (M / tp rows) and, under torch.compile, the casts
        to FP8 (tensorwise; rowwise by rows; rowwise by columns, as a transposed copy).
  moe   the expert GEMMs of Qwen3-30B-A3B, DeepSeek-V3 and gpt-oss-120b at a given number of local
        experts: one torch.mm per expert (cuBLAS, as a loop), torch._grouped_mm (one grouped
        kernel) and a single GEMM over all routed rows (the ideal llmcalc times).

Each kernel is timed twice after warm-up: `--reps` launches each between two CUDA events (host
issue included where it is the longer), and the same launches replayed as one CUDA graph (device
time alone); the medians are median_s and graph_median_s.
Output: {"device", "torch", "cuda", "points": [{suite, model, ..., m, n, k, kernel, seconds, graph_seconds,
median_s, graph_median_s}]}.

Usage: python3 gpu/groundtruth/gemm_recipes_bench.py --out gemm_recipes.json [--reps 20] [--no-compile]
"""
import argparse
import json
import statistics
import sys
import time

import torch

E4M3_MAX = 448.0
DEV = "cuda"

# (hidden, ffn, heads, kv_heads, head_dim)
LLAMA = {"llama3-8b": (4096, 14336, 32, 8, 128), "llama3-70b": (8192, 28672, 64, 8, 128)}
# (hidden, expert ffn, experts, top-k, tokens per GPU, local expert counts)
MOE = {
    "qwen3-30b-a3b": (2048, 768, 128, 8, 4096, (8, 16)),
    "deepseek-v3": (7168, 2048, 256, 8, 4096, (4, 8, 32)),
    "gpt-oss-120b": (2880, 2880, 128, 4, 4096, (8, 16)),
}


def time_fn(fn, reps):
    """{"seconds": per launch, one launch between two events, so a kernel shorter than the host's
    issue time reads as the host's; "graph_seconds": per launch of `reps` launches replayed as
    one CUDA graph (the device's time alone)}."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for s, e in zip(starts, ends):
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    out = {"seconds": [s.elapsed_time(e) * 1e-3 for s, e in zip(starts, ends)]}
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            for _ in range(reps):
                fn()
        graph.replay()
    except RuntimeError as e:  # a kernel that cannot be captured keeps its event timings alone
        print(f"graph capture failed: {e}", file=sys.stderr)
        torch.cuda.synchronize()
        return out
    replays = []
    for _ in range(5):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        graph.replay()
        e.record()
        torch.cuda.synchronize()
        replays.append(s.elapsed_time(e) * 1e-3 / reps)
    out["graph_seconds"] = replays
    del graph
    return out


def fp8(rows, cols):
    return (torch.randn(rows, cols, device=DEV) * 0.5).to(torch.float8_e4m3fn)


def gemm_kernels(m, n, k):
    """name -> callable computing C[m×n] = A[m×k]·B[k×n] (B column-major, as cuBLAS's TN)."""
    a16 = torch.randn(m, k, device=DEV, dtype=torch.bfloat16)
    b16 = torch.randn(n, k, device=DEV, dtype=torch.bfloat16).t()
    a8, b8 = fp8(m, k), fp8(n, k).t()
    one = torch.ones((), device=DEV)
    sa, sb = torch.rand(m, 1, device=DEV) + 0.5, torch.rand(1, n, device=DEV) + 0.5

    def scaled(scale_a, scale_b, fast):
        return lambda: torch._scaled_mm(a8, b8, scale_a=scale_a, scale_b=scale_b, out_dtype=torch.bfloat16,
                                        use_fast_accum=fast)

    kernels = {"bf16": lambda: torch.mm(a16, b16)}
    if torch.cuda.get_device_capability() < (8, 9):  # FP8 tensor cores: Ada, Hopper and later
        return kernels
    return kernels | {
        "fp8_tensorwise_fast": scaled(one, one, True),
        "fp8_tensorwise": scaled(one, one, False),
        "fp8_rowwise_fast": scaled(sa, sb, True),
        "fp8_rowwise": scaled(sa, sb, False),
    }


def llama_linears(hidden, ffn, heads, kv, hd, tp):
    """(name, k, n) of each linear on one tensor-parallel rank (torchtitan's module names)."""
    return [("wq", hidden, heads * hd // tp), ("wk", hidden, kv * hd // tp), ("wo", heads * hd // tp, hidden),
            ("w1", hidden, ffn // tp), ("w2", ffn // tp, hidden)]  # wv as wk, w3 as w1


def fp8_suite(points, reps, tokens):
    configs = [("llama3-8b", tp) for tp in (1, 2, 4, 8)] + [("llama3-70b", tp) for tp in (4, 8)]
    for model, tp in configs:
        for lin, k, n in llama_linears(*LLAMA[model], tp):
            shapes = [("fwd", tokens, n, k), ("dx", tokens, k, n), ("dw", n, k, tokens)]
            if tp > 1:
                shapes.append(("fwd_chunk", tokens // tp, n, k))
            for gemm, m, nn, kk in shapes:
                for name, fn in gemm_kernels(m, nn, kk).items():
                    try:
                        sec = time_fn(fn, reps)
                    except RuntimeError as e:  # a kernel this build lacks, or a shape it refuses
                        print(f"{model} tp{tp} {lin} {gemm} {name}: {e}", file=sys.stderr)
                        continue
                    points.append({"suite": "fp8", "model": model, "tp": tp, "linear": lin, "gemm": gemm, "m": m,
                                   "n": nn, "k": kk, "kernel": name, **sec})
                torch.cuda.empty_cache()


def cast_suite(points, reps, tokens):
    """torch.compile'd casts to FP8 as torchao writes them (amax, scale, saturate, cast)."""
    if torch.cuda.get_device_capability() < (8, 9):
        return

    def tensorwise(x):
        s = E4M3_MAX / x.abs().amax().float().clamp(min=1e-12)
        return (x.float() * s).clamp(-E4M3_MAX, E4M3_MAX).to(torch.float8_e4m3fn), s

    def by_rows(x):
        s = E4M3_MAX / x.abs().amax(dim=1, keepdim=True).float().clamp(min=1e-12)
        return (x.float() * s).clamp(-E4M3_MAX, E4M3_MAX).to(torch.float8_e4m3fn), s

    def by_columns(x):  # scale per column, written transposed (row-major x.t()) for the next GEMM
        s = E4M3_MAX / x.abs().amax(dim=0, keepdim=True).float().clamp(min=1e-12)
        y = (x.float() * s).clamp(-E4M3_MAX, E4M3_MAX).to(torch.float8_e4m3fn)
        return y.t().contiguous(), s

    for name, f in (("cast_tensorwise", tensorwise), ("cast_rows", by_rows), ("cast_columns", by_columns)):
        cf = torch.compile(f, dynamic=False)
        for rows, cols in ((tokens, 4096), (tokens, 14336 // 8)):
            x = torch.randn(rows, cols, device=DEV, dtype=torch.bfloat16)
            try:
                sec = time_fn(lambda: cf(x), reps)
            except Exception as e:  # torch.compile failing here is a finding, not a reason to lose the rest
                print(f"{name} {rows}x{cols}: {e}", file=sys.stderr)
                continue
            points.append({"suite": "cast", "kernel": name, "m": rows, "n": cols, "bytes_in": x.numel() * 2,
                           "bytes_out": x.numel(), **sec})


def moe_suite(points, reps):
    for model, (hidden, ffn, experts, topk, tokens, locals_) in MOE.items():
        for local in locals_:
            rows = tokens * topk  # routed rows on one GPU, whatever the expert-parallel size
            per = rows // local
            for gemm, k, n in (("fc1", hidden, 2 * ffn), ("fc2", ffn, hidden)):
                xs = [torch.randn(per, k, device=DEV, dtype=torch.bfloat16) for _ in range(local)]
                ws = [torch.randn(n, k, device=DEV, dtype=torch.bfloat16).t() for _ in range(local)]
                x_all = torch.cat(xs)
                w_all = torch.stack([w.t() for w in ws]).transpose(-2, -1)  # (local, k, n), column-major
                offs = torch.arange(per, rows + 1, per, device=DEV, dtype=torch.int32)
                kernels = {"loop": lambda: [torch.mm(x, w) for x, w in zip(xs, ws)],
                           "single": lambda: torch.mm(x_all, ws[0])}
                if hasattr(torch, "_grouped_mm"):
                    kernels["grouped"] = lambda: torch._grouped_mm(x_all, w_all, offs=offs, out_dtype=torch.bfloat16)
                for name, fn in kernels.items():
                    try:
                        sec = time_fn(fn, reps)
                    except RuntimeError as e:  # e.g. a grouped kernel this build lacks
                        print(f"{model} {gemm} {name}: {e}", file=sys.stderr)
                        continue
                    points.append({"suite": "moe", "model": model, "local_experts": local, "gemm": gemm, "m": per,
                                   "n": n, "k": k, "experts": local, "kernel": name, **sec})
                del xs, ws, x_all, w_all
                torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--tokens", type=int, default=8192, help="rows of a micro-batch (batch × sequence)")
    ap.add_argument("--no-compile", action="store_true", help="skip the torch.compile'd casts")
    args = ap.parse_args()
    points = []
    t0 = time.time()
    for name, suite in (("fp8", lambda: fp8_suite(points, args.reps, args.tokens)),
                        ("moe", lambda: moe_suite(points, args.reps)),
                        ("cast", None if args.no_compile else lambda: cast_suite(points, args.reps, args.tokens))):
        if suite:
            suite()
            with open(args.out + ".partial", "w") as f:  # kept if a later suite runs out of time
                json.dump(points, f)
            print(f"{name}: {len(points)} points, {time.time() - t0:.0f} s", flush=True)
    for p in points:
        p["median_s"] = statistics.median(p["seconds"])
        if "graph_seconds" in p:
            p["graph_median_s"] = statistics.median(p["graph_seconds"])
    out = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cuda": torch.version.cuda,
           "reps": args.reps, "tokens": args.tokens, "points": points}
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
