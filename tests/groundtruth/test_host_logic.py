#!/usr/bin/env python3
"""Host-side logic of the GPU ground-truth scripts (gpu/groundtruth/), checked without PyTorch or a
GPU: every script compiles; overheads.py's derived() turns the H100 runs committed under
gpu/measurements/ into the per-layer and per-kernel host costs that run's own derived() wrote;
moe_host_bench.py's line fit is exact on a line; and both host-cost scripts exit 3 with one line
when no CUDA GPU is visible. PyTorch is replaced by an inert stand-in (below), so only the code
that does not touch a tensor runs.

Usage: python3 tests/groundtruth/test_host_logic.py   (scripts/test.sh, CLI checks)
"""
import contextlib
import io
import json
import math
import os
import py_compile
import sys
import tempfile
import types
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GROUNDTRUTH = os.path.join(ROOT, "gpu", "groundtruth")
H100_OVERHEADS = os.path.join(ROOT, "gpu", "measurements", "2026-11-27-nvidia-h100-80gb-hbm3", "overheads.json")


class _AnyMeta(type):
    def __getattr__(cls, name):
        return cls


class Anything(metaclass=_AnyMeta):
    """Stands for every torch class, function, constant and decorator: subclassable, callable,
    any attribute. Nothing here computes."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return self

    def __getattr__(self, name):
        return self


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        return Anything


def install_torch_stub():
    for name in ("torch", "torch.nn", "torch.nn.functional", "torch.nn.attention", "torch.utils",
                 "torch.utils.checkpoint", "torch.cuda", "torch.profiler"):  # parents before children
        sys.modules[name] = _StubModule(name)
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, sys.modules[name])
    sys.modules["torch.cuda"].is_available = lambda: False  # the one answer the scripts act on before any tensor exists


install_torch_stub()
sys.path.insert(0, GROUNDTRUTH)
import moe_host_bench  # noqa: E402
import overheads  # noqa: E402


class Compiles(unittest.TestCase):
    def test_every_script_compiles(self):
        scripts = sorted(f for f in os.listdir(GROUNDTRUTH) if f.endswith(".py"))
        self.assertGreaterEqual(len(scripts), 7)
        with tempfile.TemporaryDirectory() as tmp:
            for f in scripts:
                with self.subTest(script=f):
                    py_compile.compile(os.path.join(GROUNDTRUTH, f), cfile=os.path.join(tmp, f + "c"), doraise=True)


class OverheadsDerived(unittest.TestCase):
    """derived() on the runs of the 2026-11-27 H100 measurement gives the numbers that run wrote.
    That file predates the fix that keeps the optimizer kernel's name beside the optimizer phase
    (its rows lost the name: the phase overwrote it), so rows are matched in MODES order."""

    @classmethod
    def setUpClass(cls):
        with open(H100_OVERHEADS) as f:
            cls.doc = json.load(f)
        cls.rows = overheads.derived(cls.doc["runs"])

    def test_one_row_per_mode_measured(self):
        self.assertEqual([(r["elementwise"], r["optimizer_kernel"]) for r in self.rows], list(overheads.MODES))
        self.assertEqual(len(self.doc["derived"]), len(self.rows))

    def test_matches_what_the_gpu_run_wrote(self):
        for row, written in zip(self.rows, self.doc["derived"]):
            self.assertEqual(row["elementwise"], written["elementwise"])
            for phase in ("forward", "backward", "optimizer"):
                for key, value in written[phase].items():
                    with self.subTest(mode=row["elementwise"], phase=phase, key=key):
                        self.assertTrue(math.isclose(row["phases"][phase][key], value, rel_tol=1e-12, abs_tol=1e-15))

    def test_eager_forward_by_hand(self):
        # eager + fused AdamW, 2 and 10 layers: host 3.444 ms and 15.501 ms, 92 and 388 kernels.
        fwd = self.rows[0]["phases"]["forward"]
        self.assertAlmostEqual(fwd["host_s_per_layer"], (0.015500628999998156 - 0.0034442940000012356) / 8, places=15)
        self.assertEqual(fwd["items_per_layer"], 37.0)
        self.assertAlmostEqual(fwd["host_s_per_item"] * 1e6, 40.73, places=2)  # µs per issued kernel
        self.assertEqual(fwd["items_at_zero_layers"], 18.0)

    def test_incomplete_modes_are_left_out(self):
        runs = [r for r in self.doc["runs"] if not (r["elementwise"] == "compiled" and r["layers"] == 10)]
        self.assertEqual([r["elementwise"] for r in overheads.derived(runs)], ["eager", "eager"])
        unprofiled = json.loads(json.dumps(self.doc["runs"]))
        unprofiled[0]["device_items"]["forward"] = None  # torch.profiler saw no device events
        self.assertEqual([r["optimizer_kernel"] for r in overheads.derived(unprofiled)], ["foreach", "fused"])


class MoeSlope(unittest.TestCase):
    def test_exact_on_a_line(self):
        per, base = moe_host_bench.slope([(e, 2e-4 + 3e-5 * e) for e in moe_host_bench.EXPERT_COUNTS])
        self.assertAlmostEqual(per, 3e-5, places=15)
        self.assertAlmostEqual(base, 2e-4, places=15)

    def test_least_squares_through_scatter(self):
        # (1, 1), (2, 3), (3, 2): mean x 2, mean y 2, Sxy 1, Sxx 2: slope 0.5, intercept 1.
        self.assertEqual(moe_host_bench.slope([(1, 1.0), (2, 3.0), (3, 2.0)]), (0.5, 1.0))


class NoGpu(unittest.TestCase):
    def run_main(self, module):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.json")
            argv, sys.argv = sys.argv, [module.__name__ + ".py", "--out", out]
            err = io.StringIO()
            try:
                with contextlib.redirect_stderr(err):
                    rc = module.main()
            finally:
                sys.argv = argv
            return rc, err.getvalue(), os.path.exists(out)

    def test_exit_3_with_one_line(self):
        for module in (overheads, moe_host_bench):
            with self.subTest(script=module.__name__):
                rc, err, wrote = self.run_main(module)
                self.assertEqual(rc, 3)
                self.assertEqual(err, f"{module.__name__}.py: no CUDA GPU visible\n")
                self.assertFalse(wrote)


if __name__ == "__main__":
    unittest.main(verbosity=1)
