#!/usr/bin/env python3
"""Attention fwd/bwd timings for llmcalc-bench --attention-json (never run in CI; needs PyTorch
and a CUDA GPU). Times F.scaled_dot_product_attention in bf16 over seq_len, head_dim, heads, GQA
ratio and causal, with CUDA events and an L2 flush between samples, once per kernel in --backends
that takes the shape: cuDNN's fused flash SDPA (cudnn), SDPA's FlashAttention-2 (flash), its
memory-efficient attention (efficient), FlashAttention-3 (fa3) where the flash_attn_interface
package (Hopper) is installed, and PyTorch's FlexAttention (flex, torch >= 2.5: flex_attention
compiled, with a causal block mask). --first keeps only the first kernel that takes each shape. Output:
{"dtype", "backend", "points": [{batch, seq_len, heads, kv_heads, head_dim, causal, backend,
fwd_seconds: [...], bwd_seconds: [...]}]}; gpu/host/src/attention_import.cpp files each point
under its kernel's table (bf16.cudnn, bf16.fa2, bf16.fa3, bf16.flex; efficient in the unnamed one), which
training.attention_backend selects.

Usage: python3 gpu/groundtruth/attention_bench.py --out attention.json [--quick] [--first]
           [--backends cudnn,flash,fa3,efficient,flex]
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

BACKENDS = {"cudnn": "CUDNN_ATTENTION", "flash": "FLASH_ATTENTION", "efficient": "EFFICIENT_ATTENTION", "fa3": None,
            "flex": None}

try:  # FlashAttention-3 (Dao-AILab/flash-attention, hopper/): q, k, v as (batch, seq, heads, dim)
    import flash_attn_interface
except ImportError:
    flash_attn_interface = None

try:  # FlexAttention (torch >= 2.5): Inductor's Triton kernels, timed compiled as frameworks run it
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    flex_compiled = torch.compile(flex_attention, dynamic=False)
except ImportError:
    flex_compiled = None


def causal_mask(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def attention_fn(name, q, k, v, causal, gqa):
    """A callable running this kernel on the shape (SDPA layout: batch, heads, seq, dim), or None
    when the kernel is not available here or does not take the shape (forward and backward)."""
    if name == "fa3":
        if flash_attn_interface is None:
            return None
        qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))

        def fn():
            out = flash_attn_interface.flash_attn_func(qt, kt, vt, causal=causal)
            return out[0] if isinstance(out, tuple) else out
    elif name == "flex":
        if flex_compiled is None:
            return None
        mask = create_block_mask(causal_mask, None, None, q.shape[2], k.shape[2], device=q.device) if causal else None

        def fn():
            return flex_compiled(q, k, v, block_mask=mask, enable_gqa=gqa)
    elif sdpa_kernel is None:
        if name != "flash":
            return None

        def fn():  # this torch cannot pin a kernel: whatever SDPA picks
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=gqa)
    else:
        member = getattr(SDPBackend, BACKENDS[name], None)
        if member is None:  # e.g. CUDNN_ATTENTION before torch 2.5
            return None

        def fn():
            with sdpa_kernel([member]):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=gqa)
    try:
        fn().sum().backward()
        torch.cuda.synchronize()
    except (RuntimeError, TypeError):  # "No available kernel": the kernel does not take the shape
        return None
    finally:
        q.grad = k.grad = v.grad = None
    return fn


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
    ap.add_argument("--backends", default="cudnn,flash,fa3,efficient,flex",
                    help="kernels to time per shape (cudnn, flash, fa3, efficient, flex)")
    ap.add_argument("--first", action="store_true", help="only the first kernel of --backends that takes each shape")
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
        ran = 0
        for backend in names:
            fwd = attention_fn(backend, q, k, v, causal, kv != h)
            if fwd is None:
                continue
            o = fwd()
            g = torch.randn_like(o)
            # Correctness before timing: the kernel on a 256-token slice against the fp32 math reference.
            qs, ks, vs = (t[:1, :, :256].detach().clone().requires_grad_() for t in (q, k, v))
            check = attention_fn(backend, qs, ks, vs, causal, kv != h)
            if check is None:
                raise RuntimeError(f"{backend} takes b={b} s={s} but not its 256-token slice")
            with torch.no_grad():
                ref = F.scaled_dot_product_attention(qs.float(), ks.float(), vs.float(), is_causal=causal, enable_gqa=kv != h)
                got = check().float()
                if got.shape != ref.shape:
                    got = got.transpose(1, 2)  # FlashAttention-3's (batch, seq, heads, dim)
                if (got - ref).abs().max().item() > 3e-2:
                    raise RuntimeError(f"{backend} mismatch at b={b} s={s} h={h} kv={kv} d={d}")
            del qs, ks, vs, check, ref, got
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
            q.grad = k.grad = v.grad = None
            points.append(dict(batch=b, seq_len=s, heads=h, kv_heads=kv, head_dim=d, causal=causal, backend=backend,
                               fwd_seconds=fwd_s, bwd_seconds=bwd_s))
            print(f"attention_bench.py: b={b} s={s} h={h}/{kv} d={d} causal={causal} [{backend}] "
                  f"fwd {sorted(fwd_s)[len(fwd_s)//2]*1e3:.3f} ms", file=sys.stderr, flush=True)
            ran += 1
            del o, g
            if a.first:
                break
        if not ran:
            raise RuntimeError(f"none of the kernels {names} runs b={b} s={s} h={h} kv={kv} d={d} causal={causal}")
        del q, k, v
    used = sorted({p["backend"] for p in points})
    doc = dict(dtype="bf16", backend=f"torch {torch.__version__} SDPA [{', '.join(used)}] (cudnn {torch.backends.cudnn.version()})",
               points=points)
    with open(a.out + ".tmp", "w") as f:
        json.dump(doc, f)
    os.replace(a.out + ".tmp", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
