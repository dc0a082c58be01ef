#!/usr/bin/env python3
"""Host cost of a mixture-of-experts layer on one GPU (never run in CI; needs PyTorch and a CUDA
GPU). llmcalc counts a layer's experts as one batched GEMM; frameworks that loop over the local
experts issue each expert's GEMMs one by one, and dropless routing reads the per-expert token
counts back to the host (a sync) before it can split the tokens. This measures both, with a
PyTorch-native layer (router softmax + top-k, a permutation by expert, SwiGLU experts), forward
and backward, parameters and activations in bf16:

1. per expert: the host seconds of one layer's forward + backward at a size whose GPU work is
   negligible (hidden 256, expert width 128, 256 tokens, top-2), for 1-32 local experts, with the
   experts as a Python loop of matmuls (the split sizes read with .tolist(): a sync) and, where
   PyTorch has it, as torch._grouped_mm over offsets kept on the GPU (no sync). The slope over
   the expert count is the host cost per local expert; the intercept the layer's own.
2. the sync's exposure: the synchronised wall time of the same layer at a GPU-bound size (hidden
   2048, expert width 768, 4,096 tokens, top-8, 16 experts: one Qwen3-30B-A3B rank at EP 8) with
   the loop (which waits for the counts) and with the grouped kernel (which does not).

Usage: python3 gpu/groundtruth/moe_host_bench.py --out moe_host.json [--steps 20]
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from overheads import run_header  # noqa: E402  (GPU, software and host CPU, as overheads.py records them)

EXPERT_COUNTS = (1, 2, 4, 8, 16, 32)
TINY = dict(hidden=256, width=128, tokens=256, top_k=2)
RANK = dict(hidden=2048, width=768, tokens=4096, top_k=8, experts=16)


class Moe(torch.nn.Module):
    def __init__(self, hidden, width, experts, top_k, grouped):
        super().__init__()
        self.top_k, self.experts, self.grouped = top_k, experts, grouped
        self.router = torch.nn.Linear(hidden, experts, bias=False)
        self.w_up = torch.nn.Parameter(torch.randn(experts, hidden, 2 * width) * hidden**-0.5)
        self.w_down = torch.nn.Parameter(torch.randn(experts, width, hidden) * width**-0.5)

    def forward(self, x):
        probs, idx = torch.topk(F.softmax(self.router(x).float(), dim=-1), self.top_k, dim=-1)
        flat = idx.flatten()
        order = torch.argsort(flat, stable=True)
        rows = x[order // self.top_k]
        counts = torch.bincount(flat, minlength=self.experts)
        if self.grouped:  # offsets stay on the GPU: no sync
            offs = torch.cumsum(counts, 0).to(torch.int32)
            g, u = torch._grouped_mm(rows, self.w_up, offs=offs).chunk(2, dim=-1)
            out = torch._grouped_mm((F.silu(g) * u).contiguous(), self.w_down, offs=offs)
        else:  # the split sizes on the host: waits for the GPU
            outs = []
            for e, part in enumerate(torch.split(rows, counts.tolist())):
                g, u = (part @ self.w_up[e]).chunk(2, dim=-1)
                outs.append((F.silu(g) * u) @ self.w_down[e])
            out = torch.cat(outs)
        y = torch.empty_like(out).index_copy_(0, order, out)
        return (y.view(-1, self.top_k, y.shape[-1]) * probs.unsqueeze(-1).to(y.dtype)).sum(1)


def step_fn(c, experts, grouped):
    dev = torch.device("cuda")
    torch.manual_seed(0)
    layer = Moe(c["hidden"], c["width"], experts, c["top_k"], grouped).to(dev, torch.bfloat16)
    x = torch.randn(c["tokens"], c["hidden"], device=dev, dtype=torch.bfloat16, requires_grad=True)

    def step():
        layer(x).float().square().mean().backward()

    return step


def host_per_layer(c, experts, grouped, steps, warmup=5):
    """Median host seconds of forward + backward (no synchronisation inside the timed region: with
    GPU work this small, the host is the bottleneck) and the synchronised wall seconds."""
    step = step_fn(c, experts, grouped)
    host, wall = [], []
    for i in range(warmup + steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        if i >= warmup:
            host.append(t1 - t0)
            wall.append(t2 - t0)
    return statistics.median(host), statistics.median(wall)


def slope(points):
    """Least-squares line through (experts, seconds): (seconds per expert, intercept)."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    b = sum((p[0] - mx) * (p[1] - my) for p in points) / sxx
    return b, my - b * mx


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=20)
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("moe_host_bench.py: no CUDA GPU visible", file=sys.stderr)
        return 3
    doc = dict(run_header("gpu/groundtruth/moe_host_bench.py"), tiny=TINY, rank=RANK, per_expert={}, sync={})
    modes = ["loop"] + (["grouped"] if hasattr(torch, "_grouped_mm") else [])
    for mode in modes:
        pts = []
        for e in EXPERT_COUNTS:
            try:
                h, w = host_per_layer(TINY, e, mode == "grouped", a.steps)
            except Exception as ex:  # e.g. no grouped kernel for this GPU: say so, keep the rest
                print(f"moe_host_bench.py: {mode} experts={e} failed: {type(ex).__name__}: {str(ex)[:300]}",
                      file=sys.stderr)
                continue
            pts.append((e, h))
            doc["per_expert"].setdefault(mode, {"points": []})["points"].append(dict(experts=e, host_s=h, wall_s=w))
            print(f"moe_host_bench.py: {mode} experts={e} host {h * 1e3:.3f} ms wall {w * 1e3:.3f} ms",
                  file=sys.stderr, flush=True)
        if len(pts) >= 2:
            per, base = slope(pts)
            doc["per_expert"][mode].update(host_s_per_expert=per, host_s_per_layer=base)
        try:
            h, w = host_per_layer(RANK, RANK["experts"], mode == "grouped", a.steps)
            doc["sync"][mode] = dict(host_s=h, wall_s=w)
            print(f"moe_host_bench.py: rank-sized {mode}: host {h * 1e3:.3f} ms wall {w * 1e3:.3f} ms",
                  file=sys.stderr, flush=True)
        except Exception as ex:
            print(f"moe_host_bench.py: rank-sized {mode} failed: {type(ex).__name__}: {str(ex)[:300]}", file=sys.stderr)
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"moe_host_bench.py: wrote {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
