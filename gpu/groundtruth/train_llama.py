#!/usr/bin/env python3
"""Ground truth for llmcalc: train a Llama-style model for a few steps on one GPU and record the
peak memory and the median step time of each configuration (never run in CI; needs PyTorch and
a CUDA GPU).

Recipe (what compare.py tells llmcalc): fp32 parameters and gradients, torch.autocast bf16 for
compute, fused AdamW with fp32 states (4 + 4 + 8 bytes per parameter), F.scaled_dot_product_attention
(causal, GQA; SDPA's fused kernels, cuDNN or FlashAttention-2, or its unfused math kernel), RMSNorm,
SwiGLU, rotary, untied embeddings, optional full recompute (torch.utils.checkpoint around every
layer); element-wise ops eager or fused by torch.compile.

Each configuration also records the model states allocated before a step (parameters, gradients,
AdamW states) and the medians of its three phases (forward, backward, optimizer) from CUDA events;
--kernels FILE writes the top GPU kernels of one more step per configuration (torch.profiler).

Usage: python3 gpu/groundtruth/train_llama.py --out measurements.json [--quick | --configs full|quick|heldout|small]
           [--steps 8] [--kernels FILE]
"""
import argparse
import datetime
import gc
import json
import math
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as ckpt
from torch.nn.attention import SDPBackend, sdpa_kernel

# flash: cuDNN's fused SDPA or FlashAttention-2, whichever PyTorch picks; math: the unfused kernel.
ATTENTION_BACKENDS = {"flash": [SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION], "math": [SDPBackend.MATH]}

# Llama-3.2-like shapes small enough for one 80 GB GPU with fp32 master states (16 B/param).
SIZES = {
    "llama-1b": dict(layers=16, hidden=2048, heads=32, kv_heads=8, ffn_hidden=8192, vocab=128256),
    "llama-3b": dict(layers=28, hidden=3072, heads=24, kv_heads=8, ffn_hidden=8192, vocab=128256),
    # Qwen3-0.6B's shape (head_dim 64, a 152K vocabulary), written as this script's Llama layer.
    "small-0.6b": dict(layers=28, hidden=1024, heads=16, kv_heads=8, ffn_hidden=3072, vocab=151936),
    # GPT-3 Small and Medium's depth and width (Brown et al. 2020, table 2.1) as this Llama layer:
    # steps short enough for the host issuing kernels to matter.
    "llama-125m": dict(layers=12, hidden=768, heads=12, kv_heads=12, ffn_hidden=2048, vocab=32000),
    "llama-350m": dict(layers=24, hidden=1024, heads=16, kv_heads=16, ffn_hidden=2816, vocab=32000),
}

# (size, micro_batch, seq_len, recompute, attention, elementwise): each chosen to fit in 80 GB by
# llmcalc's estimate, so a measured out-of-memory is a finding. attention "math" is SDPA's unfused kernel
# (scores materialised); elementwise "eager" runs every element-wise op as its own kernel, "compiled"
# fuses them with torch.compile (each layer, and the output layer with the loss), as fused
# frameworks do; "blocks" compiles the layers and leaves the output layer and loss eager (an fp32
# copy of the logits), as torchtitan does without compiling its loss.
FULL_CONFIGS = [
    ("llama-1b", 1, 2048, "none", "flash", "eager"), ("llama-1b", 4, 2048, "none", "flash", "eager"),
    ("llama-1b", 2, 8192, "none", "flash", "eager"), ("llama-1b", 4, 4096, "full", "flash", "eager"),
    ("llama-1b", 1, 2048, "none", "math", "eager"), ("llama-1b", 2, 2048, "full", "math", "eager"),
    ("llama-3b", 1, 2048, "none", "flash", "eager"), ("llama-3b", 2, 4096, "full", "flash", "eager"),
    ("llama-3b", 1, 8192, "full", "flash", "eager"),
    ("llama-1b", 4, 2048, "none", "flash", "compiled"), ("llama-3b", 1, 2048, "none", "flash", "compiled"),
]
QUICK_CONFIGS = [("llama-1b", 1, 2048, "none", "flash", "eager"), ("llama-1b", 2, 4096, "full", "flash", "eager")]
# Held out: measured after llmcalc's model was changed to fit FULL_CONFIGS (gpu/measurements/
# README.md), to see whether those changes carry to shapes and settings they were not made on.
HELDOUT_CONFIGS = [
    ("small-0.6b", 8, 2048, "none", "flash", "eager"), ("small-0.6b", 4, 4096, "full", "flash", "eager"),
    ("small-0.6b", 8, 2048, "none", "flash", "compiled"), ("small-0.6b", 2, 2048, "none", "math", "eager"),
    ("llama-1b", 8, 1024, "none", "flash", "eager"), ("llama-1b", 1, 16384, "full", "flash", "eager"),
    ("llama-3b", 4, 2048, "full", "flash", "eager"), ("llama-3b", 2, 2048, "none", "flash", "compiled"),
]
# Small models, measured before llmcalc modelled the host's cost of issuing kernels (the first look
# of gpu/measurements/README.md), from host-bound to GPU-bound by micro-batch; and the eager loss
# beside compiled blocks.
SMALL_CONFIGS = [
    ("llama-125m", 1, 1024, "none", "flash", "eager"), ("llama-125m", 4, 1024, "none", "flash", "eager"),
    ("llama-125m", 16, 1024, "none", "flash", "eager"), ("llama-125m", 8, 1024, "none", "flash", "compiled"),
    ("llama-350m", 1, 2048, "none", "flash", "eager"), ("llama-350m", 8, 2048, "none", "flash", "eager"),
    ("llama-350m", 4, 2048, "none", "flash", "compiled"), ("llama-1b", 4, 2048, "none", "flash", "blocks"),
]
CONFIG_SETS = {"full": FULL_CONFIGS, "quick": QUICK_CONFIGS, "heldout": HELDOUT_CONFIGS, "small": SMALL_CONFIGS}


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return F.rms_norm(x, (x.shape[-1],), self.weight, self.eps)


def rotary_tables(seq_len, head_dim, device, theta=500000.0):
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2, device=device, dtype=torch.float32) / head_dim))
    ang = torch.outer(torch.arange(seq_len, device=device, dtype=torch.float32), inv)
    return ang.cos(), ang.sin()


def apply_rotary(x, cos, sin):  # x: [b, h, s, d], Llama's half-split pairing
    half = x.shape[-1] // 2
    a, b = x[..., :half], x[..., half:]
    cos, sin = cos.to(x.dtype), sin.to(x.dtype)
    return torch.cat((a * cos - b * sin, b * cos + a * sin), dim=-1)


class Layer(nn.Module):
    def __init__(self, c, attention):
        super().__init__()
        self.attention = attention
        self.heads, self.kv_heads = c["heads"], c["kv_heads"]
        self.head_dim = c["hidden"] // c["heads"]
        self.attn_norm, self.mlp_norm = RMSNorm(c["hidden"]), RMSNorm(c["hidden"])
        self.qkv = nn.Linear(c["hidden"], (self.heads + 2 * self.kv_heads) * self.head_dim, bias=False)
        self.out = nn.Linear(self.heads * self.head_dim, c["hidden"], bias=False)
        self.up_gate = nn.Linear(c["hidden"], 2 * c["ffn_hidden"], bias=False)
        self.down = nn.Linear(c["ffn_hidden"], c["hidden"], bias=False)

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        q, k, v = self.qkv(self.attn_norm(x)).split(
            [self.heads * self.head_dim, self.kv_heads * self.head_dim, self.kv_heads * self.head_dim], dim=-1)
        q = apply_rotary(q.view(b, s, self.heads, self.head_dim).transpose(1, 2), cos, sin)
        k = apply_rotary(k.view(b, s, self.kv_heads, self.head_dim).transpose(1, 2), cos, sin)
        v = v.view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        with sdpa_kernel(ATTENTION_BACKENDS[self.attention]):
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.out(a.transpose(1, 2).reshape(b, s, -1))
        g, u = self.up_gate(self.mlp_norm(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(g) * u)


class Llama(nn.Module):
    def __init__(self, c, recompute, attention):
        super().__init__()
        self.embed = nn.Embedding(c["vocab"], c["hidden"])
        self.layers = nn.ModuleList(Layer(c, attention) for _ in range(c["layers"]))
        self.norm = RMSNorm(c["hidden"])
        self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)
        self.recompute = recompute
        self.head_dim = c["hidden"] // c["heads"]

    def forward(self, tokens, targets):
        x = self.embed(tokens)
        cos, sin = rotary_tables(tokens.shape[1], self.head_dim, tokens.device)
        for layer in self.layers:
            if self.recompute == "full":
                x = ckpt.checkpoint(layer, x, cos, sin, use_reentrant=False)
            else:
                x = layer(x, cos, sin)
        return self.head_loss(x, targets)

    def head_loss(self, x, targets):
        logits = self.lm_head(self.norm(x))
        return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), targets.view(-1))


def kernel_table(step_fn, title):
    """One more step under torch.profiler: the GPU kernels by self time, to see where a step goes."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        step_fn()
        torch.cuda.synchronize()
    avg = prof.key_averages()
    try:
        text = avg.table(sort_by="self_device_time_total", row_limit=30)
    except (KeyError, AttributeError):  # older torch names it after CUDA
        text = avg.table(sort_by="self_cuda_time_total", row_limit=30)
    return f"## {title}\n{text}\n"


def run_config(size, micro_batch, seq_len, recompute, attention, elementwise, steps, warmup, kernels=None):
    c = SIZES[size]
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    dev = torch.device("cuda")
    with dev:  # build on the GPU: initialising 3.6B fp32 parameters on the CPU takes minutes
        model = Llama(c, recompute, attention)
    if elementwise in ("compiled", "blocks"):  # compiled in the warm-up steps
        for layer in model.layers:
            layer.compile()
    if elementwise == "compiled":
        model.head_loss = torch.compile(model.head_loss)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, betas=(0.9, 0.95), weight_decay=0.1, fused=True)
    gen = torch.Generator(device=dev).manual_seed(0)
    tokens = torch.randint(0, c["vocab"], (micro_batch, seq_len + 1), device=dev, generator=gen)
    x, y = tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()
    times, host_times, phases, static = [], [], [], 0

    def one_step(ev=None):
        """One training step; with `ev` (4 CUDA events), recorded around forward, backward and
        the optimizer."""
        mark = (lambda i: ev[i].record()) if ev else (lambda i: None)
        mark(0)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(x, y)
        mark(1)
        loss.backward()
        mark(2)
        opt.step()
        opt.zero_grad(set_to_none=False)  # keep gradient buffers allocated, as frameworks do
        mark(3)
        return loss

    for step in range(warmup + steps):
        if step == warmup:  # optimizer states exist now; measure the steady state
            torch.cuda.reset_peak_memory_stats()
            static = torch.cuda.memory_allocated()  # parameters + gradients + optimizer states
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(4)]
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        loss = one_step(ev)
        t_host = time.perf_counter() - t0  # the host has issued the whole step
        torch.cuda.synchronize()
        if step >= warmup:
            times.append(time.perf_counter() - t0)
            host_times.append(t_host)
            phases.append([ev[i].elapsed_time(ev[i + 1]) / 1e3 for i in range(3)])
    if not math.isfinite(loss.item()):
        raise RuntimeError(f"{size}: loss is {loss.item()}")
    if kernels is not None:
        kernels.append(kernel_table(one_step, f"{size} mb{micro_batch} s{seq_len} recompute={recompute} attention={attention} "
                                              f"elementwise={elementwise}"))
    median = lambda i: statistics.median(p[i] for p in phases)
    out = dict(size=size, micro_batch=micro_batch, seq_len=seq_len, recompute=recompute, attention=attention,
               elementwise=elementwise,
               params=params, model=c, static_allocated_bytes=static,
               peak_allocated_bytes=torch.cuda.max_memory_allocated(),
               peak_reserved_bytes=torch.cuda.max_memory_reserved(), step_times_s=times,
               median_step_s=statistics.median(times), median_host_s=statistics.median(host_times),
               median_forward_s=median(0), median_backward_s=median(1),
               median_optimizer_s=median(2), loss=loss.item())
    del model, opt
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true", help="the quick set (same as --configs quick)")
    ap.add_argument("--configs", choices=sorted(CONFIG_SETS), default="full", help="which configurations to run")
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--kernels", default="", help="also write each config's top GPU kernels (torch.profiler) to this file")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("train_llama.py: no CUDA GPU visible", file=sys.stderr)
        return 3
    torch.backends.cuda.matmul.allow_tf32 = True
    # CUDA context + allocator bookkeeping, before any model memory: what llmcalc calls cuda_context.
    torch.zeros(1, device="cuda")
    free, total = torch.cuda.mem_get_info()
    context_bytes = total - free - torch.cuda.memory_reserved()
    results, kernels = [], ([] if a.kernels else None)
    for cfg in CONFIG_SETS["quick" if a.quick else a.configs]:
        print(f"train_llama.py: {cfg}", file=sys.stderr, flush=True)
        try:
            results.append(run_config(*cfg, steps=a.steps, warmup=a.warmup, kernels=kernels))
        except torch.cuda.OutOfMemoryError as e:
            results.append(dict(size=cfg[0], micro_batch=cfg[1], seq_len=cfg[2], recompute=cfg[3], attention=cfg[4],
                                elementwise=cfg[5], model=SIZES[cfg[0]], oom=True, error=str(e)[:300]))
        except Exception as e:  # e.g. torch.compile unavailable: say so, keep the other configs
            print(f"train_llama.py: {cfg} failed: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
        # torch.compile's caches keep a compiled configuration's tensors alive: a first held-out
        # run measured 5 GiB too much "model state" in the two configurations after one.
        torch._dynamo.reset()
        gc.collect()
        torch.cuda.empty_cache()
    props = torch.cuda.get_device_properties(0)
    doc = dict(tool="gpu/groundtruth/train_llama.py", date=datetime.datetime.now(datetime.timezone.utc).isoformat(),
               device=props.name, memory_bytes=props.total_memory, torch=torch.__version__, cuda=torch.version.cuda,
               cudnn=torch.backends.cudnn.version(), context_bytes=context_bytes,
               recipe=dict(params="fp32", grads="fp32", optimizer="AdamW fp32 states (fused)", compute="autocast bf16",
                           attention="F.scaled_dot_product_attention causal: flash (cuDNN or FlashAttention-2) or math",
                           phases="CUDA events: forward (incl. loss), backward, optimizer step + zero_grad"),
               configs=results)
    with open(a.out + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
    import os
    os.replace(a.out + ".tmp", a.out)
    if a.kernels:
        with open(a.kernels, "w") as f:
            f.write("".join(kernels))
    print(f"train_llama.py: wrote {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
