#!/usr/bin/env python3
"""Compare llmcalc's predictions with train_llama.py's measurements; writes a markdown table.

For each measured configuration it runs `llmcalc estimate --json` with the same model shape,
micro-batch, sequence length, recompute mode, attention kernel (flash or not) and precision recipe
(fp32 params and grads, no separate master copy, fp32 AdamW states in torch's fused kernel, bf16
compute; eager element-wise kernels, or fused ones for torch.compile; one GPU, one micro-batch per
step) and compares:
  - peak memory: llmcalc memory.per_gpu.total_bytes vs PyTorch max_memory_reserved + the
    CUDA context measured at start-up;
  - allocated memory: total − cuda_context − fragmentation − comm_buffers vs max_memory_allocated;
  - step time: llmcalc time.step_s (with --profile when given) vs the median measured step;
  - where it comes from: model states vs the memory allocated before a step, forward + backward
    and the optimizer step vs their CUDA-event medians.
scripts/groundtruth-doc.sh runs it for every gpu/measurements/*/train_llama*.json.

Usage: python3 gpu/groundtruth/compare.py MEASURED.json --out docs/measurements/<dir>/comparison.md
           [--llmcalc build/native/native/cli/llmcalc] [--gpu h100-sxm] [--profile site/profiles/h100-sxm.json]
"""
import argparse
import functools
import json
import os
import subprocess
import sys


SETS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "llmcalc_sets.json")


@functools.lru_cache(maxsize=None)
def sets_rules():
    with open(SETS_FILE) as f:
        return json.load(f)


def llmcalc_sets(cfg, gpu):
    """The --set flags of one configuration, from llmcalc_sets.json (shared with tests/test_groundtruth.cpp).
    attention math is PyTorch's math SDPA with TF32 matmuls (train_llama.py allows TF32);
    elementwise compiled is torch.compile's fused kernels."""
    rules = sets_rules()
    sets = {k: cfg["model"][v] for k, v in rules["from_model"].items()}
    sets.update({k: cfg[v] for k, v in rules["from_config"].items()})
    sets.update(rules["by_attention"][cfg.get("attention", "flash")])
    sets.update(rules["by_elementwise"][cfg.get("elementwise", "eager")])
    sets.update(rules["fixed"])
    sets["hardware.gpu"] = gpu
    return [f"{k}={v}" for k, v in sets.items()]


def predict(cli, cfg, gpu, profile):
    cmd = [cli, "estimate", "--json"]
    for s in llmcalc_sets(cfg, gpu):
        cmd += ["--set", s]
    if profile:
        cmd += ["--profile", profile]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"llmcalc failed ({r.returncode}): {r.stderr.strip()}\n  command: {' '.join(cmd)}")
    return json.loads(r.stdout)


def err_pct(pred, meas):
    return 100.0 * (pred - meas) / meas if meas else float("nan")


def gib(b):
    return b / 2**30


def config_name(cfg):
    return (f'{cfg["size"]} mb{cfg["micro_batch"]} s{cfg["seq_len"]} recompute={cfg["recompute"]}'
            f' attention={cfg.get("attention", "flash")} {cfg.get("elementwise", "eager")}')


def breakdown_rows(doc, predictions):
    """Where the difference comes from: the model states (parameters, gradients, AdamW states) held
    before a step, and the step's three phases, beside llmcalc's matching terms."""
    rows = []
    for cfg, e in zip(doc["configs"], predictions):
        if e is None or "static_allocated_bytes" not in cfg:
            continue
        mem, t = e["memory"]["per_gpu"], e["time"]
        fb = t["compute_s"] - t["optimizer_s"]
        meas_fb = cfg["median_forward_s"] + cfg["median_backward_s"]
        rows.append(f"| {config_name(cfg)} | {gib(mem['model_states_bytes']):.2f} | {gib(cfg['static_allocated_bytes']):.2f} | "
                    f"{err_pct(mem['model_states_bytes'], cfg['static_allocated_bytes']):+.1f}% | "
                    f"{fb * 1e3:.1f} | {meas_fb * 1e3:.1f} | {err_pct(fb, meas_fb):+.1f}% | "
                    f"{t['optimizer_s'] * 1e3:.1f} | {cfg['median_optimizer_s'] * 1e3:.1f} | "
                    f"{err_pct(t['optimizer_s'], cfg['median_optimizer_s']):+.1f}% |")
    if not rows:
        return []
    return ["", "Where it comes from: model states (weights, gradients, optimizer) allocated before a step, and the step's phases "
            "timed with CUDA events (forward + backward; optimizer step + zero_grad).", "",
            "| config | model states GiB (llmcalc) | (measured) | error | fwd+bwd ms (llmcalc) | (measured) | error | "
            "optimizer ms (llmcalc) | (measured) | error |", "|---|---|---|---|---|---|---|---|---|---|"] + rows


def table(doc, cli, gpu, profile):
    context = doc.get("context_bytes", 0)
    rows, predictions = [], []
    errs = {"peak": [], "alloc": [], "time": []}
    for cfg in doc["configs"]:
        name = config_name(cfg)
        e = predict(cli, cfg, gpu, profile) if "model" in cfg else None
        predictions.append(None if cfg.get("oom") else e)
        if cfg.get("oom"):
            verdict = "" if e is None else (f"{gib(e['memory']['per_gpu']['total_bytes']):.2f} "
                                              f"({'fits' if e['memory']['fits'] else 'does not fit'})")
            rows.append(f"| {name} | {verdict} | out of memory (measured) | | | | | | | |")
            continue
        mem = e["memory"]["per_gpu"]
        pred_peak = mem["total_bytes"]
        pred_alloc = pred_peak - mem["cuda_context_bytes"] - mem["fragmentation_bytes"] - mem["comm_buffers_bytes"]
        meas_peak = cfg["peak_reserved_bytes"] + context
        meas_alloc = cfg["peak_allocated_bytes"]
        pred_t, meas_t = e["time"]["step_s"], cfg["median_step_s"]
        ep, ea, et = err_pct(pred_peak, meas_peak), err_pct(pred_alloc, meas_alloc), err_pct(pred_t, meas_t)
        errs["peak"].append(abs(ep))
        errs["alloc"].append(abs(ea))
        errs["time"].append(abs(et))
        rows.append(f"| {name} | {gib(pred_peak):.2f} | {gib(meas_peak):.2f} | {ep:+.1f}% | {gib(pred_alloc):.2f} | "
                    f"{gib(meas_alloc):.2f} | {ea:+.1f}% | {pred_t * 1e3:.1f} | {meas_t * 1e3:.1f} | {et:+.1f}% |")
    head = [
        f"# llmcalc vs measured: {doc.get('device', '?')}",
        "",
        f"Measured {doc.get('date', '?')} with {doc.get('tool', 'train_llama.py')} (torch {doc.get('torch', '?')}, "
        f"CUDA {doc.get('cuda', '?')}, cuDNN {doc.get('cudnn', '?')}); CUDA context {gib(context):.2f} GiB. "
        f"Predicted by `llmcalc estimate --json` for GPU `{gpu}`" + (f" with profile `{profile}`." if profile else " (datasheet profile)."),
        "",
        "Recipe: " + ", ".join(f"{k} {v}" for k, v in doc.get("recipe", {}).items()) + ".",
        "",
        "| config | peak GiB (llmcalc) | peak GiB (measured) | error | allocated GiB (llmcalc) | allocated GiB (measured) | error | "
        "step ms (llmcalc) | step ms (measured) | error |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    summary = [""]
    for k, label in (("peak", "peak memory"), ("alloc", "allocated memory"), ("time", "step time")):
        v = errs[k]
        if v:
            summary.append(f"- {label}: mean |error| {sum(v) / len(v):.1f}%, max {max(v):.1f}% over {len(v)} configs")
    return "\n".join(head + rows + summary + breakdown_rows(doc, predictions)) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("measured")
    ap.add_argument("--out", required=True)
    ap.add_argument("--llmcalc", default="build/native/native/cli/llmcalc")
    ap.add_argument("--gpu", default="h100-sxm")
    ap.add_argument("--profile", default="")
    a = ap.parse_args()
    with open(a.measured) as f:
        doc = json.load(f)
    md = table(doc, a.llmcalc, a.gpu, a.profile)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out + ".tmp", "w") as f:
        f.write(md)
    os.replace(a.out + ".tmp", a.out)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
