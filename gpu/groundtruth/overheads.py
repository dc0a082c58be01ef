#!/usr/bin/env python3
"""Fixed host-side overheads of a training step on one GPU (never run in CI; needs PyTorch and a
CUDA GPU). A step whose kernels are short is bound by the host issuing them, not by the GPU: this
measures what issuing costs, on a model too small for its GPU time to matter.

0. blocking: per step of train_llama.py's eager 125M at one and four sequences, the CUDA runtime
   calls that can make the host wait for the GPU (synchronisations, copies, allocations).
1. launch: host seconds per call of one eager element-wise op on a one-element tensor, no
   autograd (the floor of PyTorch's dispatch + a CUDA launch).
2. steps: a tiny Llama (train_llama.py's layer: hidden 256, 4 heads of 64, ffn 512, vocab 1024,
   seq 256, one sequence) at two depths, element-wise ops eager or compiled (torch.compile per
   layer and for the head + loss), AdamW fused or foreach. Per phase (forward incl. loss,
   backward, optimizer step + zero_grad): the host seconds until the call returns (no
   synchronisation; the GPU keeps up, so the host is the bottleneck), the GPU work items it issued
   (kernels, memsets, copies: torch.profiler's device events) and their summed GPU time; and the
   synchronised wall time of a whole step. Differences between the depths give the host cost per
   layer and per issued kernel; what is left at zero depth is the per-step cost.

Usage: python3 gpu/groundtruth/overheads.py --out overheads.json [--steps 20]
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_llama import Llama  # noqa: E402  (the same layer as the ground-truth runs)

TINY = dict(hidden=256, heads=4, kv_heads=4, ffn_hidden=512, vocab=1024)
SEQ_LEN = 256
DEPTHS = (2, 10)
MODES = (("eager", "fused"), ("eager", "foreach"), ("compiled", "fused"))


def launch_floor(n=4000):
    x = torch.zeros(1, device="cuda")
    for _ in range(200):
        x.add_(1)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        x.add_(1)
    host = time.perf_counter() - t0
    torch.cuda.synchronize()
    wall = time.perf_counter() - t0
    return dict(ops=n, host_s_per_op=host / n, wall_s_per_op=wall / n)


def device_work(fn):
    """Run fn under torch.profiler: (device events issued, their summed GPU seconds)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        out = fn()
        torch.cuda.synchronize()
    n, busy_us = 0, 0.0
    for e in prof.events():
        if str(e.device_type).endswith("CUDA"):
            n += 1
            busy_us += e.time_range.elapsed_us()
    return out, n, busy_us * 1e-6


def training_step(c, elementwise, optimizer, micro_batch, seq_len):
    """A Llama of shape c (train_llama.py's layer) with AdamW on random tokens: (model, forward,
    optimizer_step); forward returns the loss under bf16 autocast, optimizer_step also zeroes the
    gradients (kept allocated, as frameworks do)."""
    dev = torch.device("cuda")
    with dev:
        model = Llama(c, "none", "flash")
    if elementwise == "compiled":
        for layer in model.layers:
            layer.compile()
        model.head_loss = torch.compile(model.head_loss)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1,
                            **({"fused": True} if optimizer == "fused" else {"foreach": True}))
    gen = torch.Generator(device=dev).manual_seed(0)
    tokens = torch.randint(0, c["vocab"], (micro_batch, seq_len + 1), device=dev, generator=gen)
    x, y = tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()

    def forward():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return model(x, y)

    def optimizer_step():
        opt.step()
        opt.zero_grad(set_to_none=False)

    return model, forward, optimizer_step


def measure(layers, elementwise, optimizer, steps, warmup=4):
    model, forward, optimizer_step = training_step(dict(TINY, layers=layers), elementwise, optimizer, 1, SEQ_LEN)
    host = {"forward": [], "backward": [], "optimizer": []}
    wall = []
    for step in range(warmup + steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        loss = forward()
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        optimizer_step()
        t3 = time.perf_counter()
        torch.cuda.synchronize()
        t4 = time.perf_counter()
        if step >= warmup:
            host["forward"].append(t1 - t0)
            host["backward"].append(t2 - t1)
            host["optimizer"].append(t3 - t2)
            wall.append(t4 - t0)
    med = {k: statistics.median(v) for k, v in host.items()}
    try:
        loss, n_fwd, gpu_fwd = device_work(forward)
        _, n_bwd, gpu_bwd = device_work(loss.backward)
        _, n_opt, gpu_opt = device_work(optimizer_step)
    except Exception as e:  # keep the host times: the counts are what derived() needs beside them
        print(f"overheads.py: profiler failed: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
        n_fwd = n_bwd = n_opt = gpu_fwd = gpu_bwd = gpu_opt = None
    out = dict(layers=layers, elementwise=elementwise, optimizer=optimizer,
               params=sum(p.numel() for p in model.parameters()),
               param_tensors=sum(1 for _ in model.parameters()),
               host_s=med, host_step_s=sum(med.values()), wall_step_s=statistics.median(wall),
               device_items={"forward": n_fwd, "backward": n_bwd, "optimizer": n_opt},
               device_busy_s={"forward": gpu_fwd, "backward": gpu_bwd, "optimizer": gpu_opt})
    del model, forward, optimizer_step
    torch._dynamo.reset()
    torch.cuda.empty_cache()
    return out


# CUDA runtime calls that make the host wait for the GPU (or for a copy back).
BLOCKING = ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy",
            "cudaMemcpyAsync", "cudaStreamWaitEvent", "cudaMalloc", "cudaFree")


def blocking_calls(size, micro_batch, seq_len, steps=3):
    """train_llama.py's eager configuration under torch.profiler with CPU activity: per step, how
    often and how long the host sat in CUDA runtime calls that can wait for the GPU. A step between
    host- and GPU-bound lasts longer than either where such a call splits it."""
    from torch.profiler import ProfilerActivity, profile
    from train_llama import SIZES
    model, forward, optimizer_step = training_step(SIZES[size], "eager", "fused", micro_batch, seq_len)

    def step():
        forward().backward()
        optimizer_step()

    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    calls = {}
    for e in prof.key_averages():
        if any(e.key.startswith(b) for b in BLOCKING):
            calls[e.key] = dict(count_per_step=e.count / steps, host_s_per_step=e.cpu_time_total * 1e-6 / steps)
    del model, forward, optimizer_step
    torch.cuda.empty_cache()
    return dict(size=size, micro_batch=micro_batch, seq_len=seq_len, steps=steps, calls=calls)


def derived(runs):
    """Per mode: host seconds per layer and per issued item between the two depths, and the
    per-step rest extrapolated to zero layers."""
    res = []
    for el, opt in MODES:
        r = {x["layers"]: x for x in runs if x["elementwise"] == el and x["optimizer"] == opt}
        if len(r) < 2 or any(x["device_items"]["forward"] is None for x in r.values()):
            continue
        a, b = r[DEPTHS[0]], r[DEPTHS[1]]
        dl = b["layers"] - a["layers"]
        row = dict(elementwise=el, optimizer_kernel=opt, phases={})
        for ph in ("forward", "backward", "optimizer"):
            dh = b["host_s"][ph] - a["host_s"][ph]
            dn = b["device_items"][ph] - a["device_items"][ph]
            row["phases"][ph] = dict(host_s_per_layer=dh / dl, items_per_layer=dn / dl,
                           host_s_per_item=(dh / dn) if dn else None,
                           host_s_at_zero_layers=a["host_s"][ph] - a["layers"] * dh / dl,
                           items_at_zero_layers=a["device_items"][ph] - a["layers"] * dn / dl)
        res.append(row)
    return res


def run_header(tool):
    """What a host-cost measurement depends on: the GPU, the software and the host's CPU."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return dict(tool=tool, date=datetime.datetime.now(datetime.timezone.utc).isoformat(),
                device=torch.cuda.get_device_properties(0).name, torch=torch.__version__, cuda=torch.version.cuda,
                python=platform.python_version(), cpu=cpu, cpu_count=os.cpu_count())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--blocking-only", action="store_true",
                    help="only the blocking CUDA calls of train_llama.py's 125M at 1 and 4 sequences")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("overheads.py: no CUDA GPU visible", file=sys.stderr)
        return 3
    doc = dict(run_header("gpu/groundtruth/overheads.py"), model=dict(TINY, seq_len=SEQ_LEN, micro_batch=1),
               depths=list(DEPTHS))
    doc["blocking"] = []
    for mb in (1, 4):
        try:
            doc["blocking"].append(blocking_calls("llama-125m", mb, 1024))
        except Exception as e:
            print(f"overheads.py: blocking calls failed: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
    if a.blocking_only:
        with open(a.out, "w") as f:
            json.dump(doc, f, indent=1)
        print(json.dumps(doc["blocking"], indent=1), file=sys.stderr)
        return 0
    doc["launch"] = launch_floor()
    print(f"overheads.py: launch floor {doc['launch']['host_s_per_op'] * 1e6:.2f} µs/op", file=sys.stderr, flush=True)
    runs = []
    for el, opt in MODES:
        for layers in DEPTHS:
            try:
                r = measure(layers, el, opt, a.steps)
            except Exception as e:  # e.g. torch.compile unavailable: say so, keep the rest
                print(f"overheads.py: {el}/{opt}/{layers} failed: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
                continue
            runs.append(r)
            print(f"overheads.py: {el}/{opt} layers={layers} host {r['host_step_s'] * 1e3:.2f} ms "
                  f"wall {r['wall_step_s'] * 1e3:.2f} ms items {r['device_items']}", file=sys.stderr, flush=True)
    doc["runs"] = runs
    doc["derived"] = derived(runs)
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"overheads.py: wrote {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
