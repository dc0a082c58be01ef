#!/usr/bin/env python3
"""Compares two golden_dump outputs (hexadecimal floats, one figure per line) and says which
figures moved, by how much, in which scenarios. Used by scripts/compare-estimates.sh.

Usage: compare-estimates.py BEFORE.txt AFTER.txt [SCENARIOS.json]
Prints: identical scenarios, those that differ only at floating-point rounding (relative
difference <= 1e-12: summation order), and for the others the figures that moved most.
"""
import json
import re
import sys
from collections import defaultdict

ROUNDING = 1e-12


def parse(path):
    """{scenario: {key: value}}, repeated keys numbered."""
    out = defaultdict(dict)
    for line in open(path, encoding="utf-8"):
        parts = line.rstrip("\n").split(" ", 2)
        if len(parts) < 3:
            continue
        scenario, key, value = parts
        while key in out[scenario]:
            key += "'"
        out[scenario][key] = value
    return out


def number(text):
    try:
        return float.fromhex(text)
    except ValueError:
        return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = parse(sys.argv[1]), parse(sys.argv[2])
    names = {}
    if len(sys.argv) > 3:
        for i, s in enumerate(json.load(open(sys.argv[3], encoding="utf-8"))):
            names[str(i)] = s.get("comment", "")
    identical, rounding, moved = [], [], {}
    for scenario in sorted(set(before) | set(after), key=lambda s: (not s.isdigit(), int(s) if s.isdigit() else 0, s)):
        a, b = before.get(scenario, {}), after.get(scenario, {})
        worst, changes = 0.0, []
        for key in sorted(set(a) | set(b)):
            if key.startswith("json.") or a.get(key) == b.get(key):
                continue  # the JSON hash differs whenever any figure does
            x, y = number(a.get(key, "")), number(b.get(key, ""))
            if x is None or y is None:
                changes.append((float("inf"), key, a.get(key), b.get(key)))
                continue
            rel = abs(x - y) / max(abs(x), abs(y), 1e-300)
            worst = max(worst, rel)
            changes.append((rel, key, x, y))
        if not changes:
            identical.append(scenario)
        elif worst <= ROUNDING:
            rounding.append(scenario)
        else:
            moved[scenario] = sorted(changes, key=lambda c: -c[0])
    print(f"identical: {len(identical)}; rounding only (<= {ROUNDING:g} relative): {len(rounding)}; moved: {len(moved)}")
    for scenario, changes in moved.items():
        print(f"\nscenario {scenario} {names.get(scenario, '')}")
        for rel, key, x, y in changes[:8]:
            print(f"  {key}: {x} -> {y}" + ("" if rel == float("inf") else f"  ({rel:.2e})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
