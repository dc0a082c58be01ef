#!/usr/bin/env python3
"""Attention over packed documents (never run in CI; needs PyTorch and a CUDA GPU). 16,384 tokens,
by default Llama 3 8B's heads (32 query, 8 key/value, head dim 128), causal, bf16, cut into documents of
--docs tokens each, three ways: as a batch of tokens/L sequences through SDPA's cuDNN and
FlashAttention-2 kernels (what llmcalc's training.document_tokens times), and as packed sequences
with the documents' boundaries in cu_seqlens through PyTorch's varlen attention (what NeMo's THD
format and FlashAttention's varlen kernels run), where this PyTorch has it. The SDPA kernels run
twice, with grouped-query attention (enable_gqa) and with K and V repeated to every head
beforehand ("_mha"), which varlen also takes. CUDA events, an L2
flush between samples, forward and backward timed apart. Output: {"tokens", "heads", "kv_heads",
"head_dim", "points": [{doc_tokens, method, batch, seq_len, fwd_seconds: [...], bwd_seconds: [...]}],
"skipped": [...]}.

Usage: python3 gpu/groundtruth/packed_attention_bench.py --out packed_attention.json
           [--docs 128,256,512,1024,2048,4096] [--reps 15] [--heads 32 --kv-heads 8 --head-dim 128]
"""
import argparse
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

try:  # PyTorch >= 2.9: FlashAttention's varlen kernel over cu_seqlens
    from torch.nn.attention.varlen import varlen_attn
except ImportError:
    varlen_attn = None

TOKENS = 16384
SDPA = {"sdpa_cudnn": SDPBackend.CUDNN_ATTENTION, "sdpa_flash": SDPBackend.FLASH_ATTENTION}


def timed(fn, grad, flush, reps):
    """Forward and backward seconds of `fn`, `reps` samples each, after three warm-up runs."""
    for _ in range(3):
        fn().backward(grad)
    fwd, bwd = [], []
    for _ in range(reps):
        flush.zero_()
        a, b, c = (torch.cuda.Event(enable_timing=True) for _ in range(3))
        a.record()
        out = fn()
        b.record()
        out.backward(grad)
        c.record()
        c.synchronize()
        fwd.append(a.elapsed_time(b) / 1e3)
        bwd.append(b.elapsed_time(c) / 1e3)
    return fwd, bwd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--docs", default="128,256,512,1024,2048,4096")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--kv-heads", type=int, default=8)
    ap.add_argument("--head-dim", type=int, default=128)
    a = ap.parse_args()
    HEADS, KV_HEADS, HEAD_DIM = a.heads, a.kv_heads, a.head_dim
    if not torch.cuda.is_available():
        print("packed_attention_bench.py: no CUDA GPU visible", file=sys.stderr)
        return 3
    docs = [int(x) for x in a.docs.split(",") if x]
    if not docs or any(d <= 0 or TOKENS % d for d in docs):
        print(f"packed_attention_bench.py: --docs must divide {TOKENS}; got {a.docs!r}", file=sys.stderr)
        return 2
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    points, skipped = [], []
    for L in docs:
        b = TOKENS // L
        q = torch.randn(b, HEADS, L, HEAD_DIM, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        k = torch.randn(b, KV_HEADS, L, HEAD_DIM, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        v = torch.randn(b, KV_HEADS, L, HEAD_DIM, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        # K and V repeated out to every query head beforehand (outside the timing): the kernels
        # without grouped-query attention, to tell its cost apart.
        rep = HEADS // KV_HEADS
        km = k.detach().repeat_interleave(rep, 1).requires_grad_()
        vm = v.detach().repeat_interleave(rep, 1).requires_grad_()
        ref = None
        for name, backend, kk, vv in [(n, be, kv_k, kv_v) for n, be in SDPA.items()
                                      for kv_k, kv_v in ((k, v), (km, vm))]:
            name = name if kk is k else name + "_mha"
            def fn(backend=backend, kk=kk, vv=vv):
                with sdpa_kernel([backend]):
                    return F.scaled_dot_product_attention(q, kk, vv, is_causal=True, enable_gqa=kk is k)
            try:
                out = fn()
            except RuntimeError as e:
                skipped.append({"doc_tokens": L, "method": name, "why": str(e).splitlines()[0]})
                continue
            ref = out.detach() if ref is None else ref
            fwd, bwd = timed(fn, torch.randn_like(out), flush, a.reps)
            points.append({"doc_tokens": L, "method": name, "batch": b, "seq_len": L,
                           "fwd_seconds": fwd, "bwd_seconds": bwd})
        if varlen_attn is None:
            skipped.append({"doc_tokens": L, "method": "varlen", "why": "torch.nn.attention.varlen not in this PyTorch"})
            continue
        # The same documents packed: (tokens, heads, dim) with boundaries every L tokens; varlen
        # takes equal query and key/value head counts, so K and V are repeated out (GQA).
        qp = q.detach().transpose(1, 2).reshape(TOKENS, HEADS, HEAD_DIM).contiguous().requires_grad_()
        kp = km.detach().transpose(1, 2).reshape(TOKENS, HEADS, HEAD_DIM).contiguous()
        vp = vm.detach().transpose(1, 2).reshape(TOKENS, HEADS, HEAD_DIM).contiguous()
        kp.requires_grad_()
        vp.requires_grad_()
        cu = torch.arange(0, TOKENS + 1, L, device="cuda", dtype=torch.int32)
        try:
            def vfn():
                return varlen_attn(qp, kp, vp, cu, cu, L, L, window_size=(-1, 0))  # causal
            out = vfn()
            if ref is not None:
                err = (out.detach().reshape(b, L, HEADS, HEAD_DIM).transpose(1, 2).float() - ref.float()).abs().max()
                if err.item() > 3e-2:
                    raise RuntimeError(f"varlen differs from SDPA by {err.item():.3g}")
            fwd, bwd = timed(vfn, torch.randn_like(out), flush, a.reps)
            points.append({"doc_tokens": L, "method": "varlen", "batch": b, "seq_len": L,
                           "fwd_seconds": fwd, "bwd_seconds": bwd})
        except (RuntimeError, TypeError) as e:
            skipped.append({"doc_tokens": L, "method": "varlen", "why": str(e).splitlines()[0]})
        del q, k, v, km, vm, qp, kp, vp
        torch.cuda.empty_cache()
    with open(a.out, "w") as f:
        json.dump({"tokens": TOKENS, "heads": HEADS, "kv_heads": KV_HEADS, "head_dim": HEAD_DIM,
                   "torch": torch.__version__, "device": torch.cuda.get_device_name(),
                   "points": points, "skipped": skipped}, f, indent=1)
    for p in points:
        fs, bs = sorted(p["fwd_seconds"]), sorted(p["bwd_seconds"])
        print(f"L={p['doc_tokens']:5d} {p['method']:11s} fwd {fs[len(fs) // 2] * 1e6:9.1f} us  bwd {bs[len(bs) // 2] * 1e6:9.1f} us")
    for s in skipped:
        print(f"skipped L={s['doc_tokens']} {s['method']}: {s['why']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
