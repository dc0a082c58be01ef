#!/usr/bin/env python3
"""Attention fwd/bwd timings for llmcalc-bench --attention-json (never run in CI; needs PyTorch
and a CUDA GPU). Times F.scaled_dot_product_attention in bf16 over seq_len, head_dim, heads, GQA
ratio and causal, with CUDA events and an L2 flush between samples. The kernel is chosen, per
shape, as the first of --backends that accepts it: cuDNN's fused flash SDPA first (the kernel the
bench's attention suite is specified on), then FlashAttention-2, then memory-efficient attention;
each point records the one that ran. Output: {"dtype", "backend", "points": [{batch, seq_len,
heads, kv_heads, head_dim, causal, backend, fwd_seconds: [...], bwd_seconds: [...]}]}
(gpu/host/src/attention_import.cpp reads it; the per-point backend is informational).

Usage: python3 gpu/groundtruth/attention_bench.py --out attention.json [--quick]
           [--backends cudnn,flash,efficient]
"""
import argparse
import contextlib
import json
import os
import sys

import torch
import torch.nn.functional as F

try:  # torch >= 2.3
    from torch.nn.attention import SDPBackend, sdpa_kernel
except ImportError:  # older torch: let PyTorch choose, and say so
    SDPBackend = sdpa_kernel = None

BACKENDS = {"cudnn": "CUDNN_ATTENTION", "flash": "FLASH_ATTENTION", "efficient": "EFFICIENT_ATTENTION"}


def pick_backend(names, q, k, v, causal, gqa):
    """The first backend in `names` that runs this shape forward and backward, as (name, context
    factory); ("auto", None) when this torch cannot pin one."""
    if sdpa_kernel is None:
        return "auto", None
    for name in names:
        member = getattr(SDPBackend, BACKENDS[name], None)
        if member is None:  # e.g. CUDNN_ATTENTION before torch 2.5
            continue
        try:
            with sdpa_kernel([member]):
                F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=gqa).sum().backward()
            torch.cuda.synchronize()
            return name, lambda m=member: sdpa_kernel([m])
        except RuntimeError:  # "No available kernel": this backend does not take the shape
            continue
        finally:
            q.grad = k.grad = v.grad = None
    raise RuntimeError(f"none of the backends {names} runs q={tuple(q.shape)} k={tuple(k.shape)} causal={causal}")


def grid(quick):
    seqs = [1024, 4096, 8192] if quick else [512, 1024, 2048, 4096, 8192, 16384]
    shapes = [(32, 8, 128), (32, 32, 128)] if quick else [(32, 8, 128), (32, 32, 128), (64, 8, 128), (16, 16, 64), (8, 1, 128)]
    for s in seqs:
        for heads, kv, d in shapes:
            for causal in ([True] if quick else [True, False]):
                yield max(1, 16384 // s), s, heads, kv, d, causal


def time_ms(fn, flush, reps):
    out = []
    for _ in range(reps):
        flush.zero_()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) / 1e3)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--backends", default="cudnn,flash,efficient",
                    help="SDPA backends to try per shape, in order (cudnn, flash, efficient)")
    a = ap.parse_args()
    names = [n for n in a.backends.split(",") if n]
    if not names or any(n not in BACKENDS for n in names):
        print(f"attention_bench.py: --backends must list some of {', '.join(BACKENDS)}; got {a.backends!r}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("attention_bench.py: no CUDA GPU visible", file=sys.stderr)
        return 3
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")  # > any L2 so far
    reps = 5 if a.quick else 15
    points = []
    for b, s, h, kv, d, causal in grid(a.quick):
        q = torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        k = torch.randn(b, kv, s, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        v = torch.randn(b, kv, s, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        backend, pinned = pick_backend(names, q, k, v, causal, kv != h)

        def fwd():
            if pinned is None:
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=kv != h)
            with pinned():
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=kv != h)

        o = fwd()
        g = torch.randn_like(o)
        # Correctness before timing: the chosen kernel on a small slice against the fp32 math reference.
        with torch.no_grad():
            qs, ks, vs = (t[:1, :, :256].contiguous() for t in (q, k, v))
            ref = F.scaled_dot_product_attention(qs.float(), ks.float(), vs.float(), is_causal=causal, enable_gqa=kv != h)
            with (pinned() if pinned is not None else contextlib.nullcontext()):
                got = F.scaled_dot_product_attention(qs, ks, vs, is_causal=causal, enable_gqa=kv != h).float()
            if (got - ref).abs().max().item() > 3e-2:
                raise RuntimeError(f"SDPA mismatch at b={b} s={s} h={h} kv={kv} d={d}")
        for _ in range(3):
            fwd().backward(g)
        fwd_s = time_ms(fwd, flush, reps)
        bwd_s = []
        for _ in range(reps):  # backward alone: build the graph outside the timed region
            o = fwd()
            flush.zero_()
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            o.backward(g)
            e1.record()
            e1.synchronize()
            bwd_s.append(e0.elapsed_time(e1) / 1e3)
        points.append(dict(batch=b, seq_len=s, heads=h, kv_heads=kv, head_dim=d, causal=causal, backend=backend,
                           fwd_seconds=fwd_s, bwd_seconds=bwd_s))
        print(f"attention_bench.py: b={b} s={s} h={h}/{kv} d={d} causal={causal} [{backend}] "
              f"fwd {sorted(fwd_s)[len(fwd_s)//2]*1e3:.3f} ms",
              file=sys.stderr, flush=True)
        del q, k, v, o, g
    used = sorted({p["backend"] for p in points})
    doc = dict(dtype="bf16", backend=f"torch {torch.__version__} SDPA [{', '.join(used)}] (cudnn {torch.backends.cudnn.version()})",
               points=points)
    with open(a.out + ".tmp", "w") as f:
        json.dump(doc, f)
    os.replace(a.out + ".tmp", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
