#!/usr/bin/env python3
"""The project's benchmark runner: every protocol against its peers, in one run, with ratios.

Each ``bench_<name>.py`` module beside this file defines ``cases() -> list[Case]``.  Cases of the same ``group``
measure the same work; the runner times each over several repeats that take turns (a, b, c, a, b, c, ...), each
repeat auto-ranged, and prints the median time per operation, throughput, and the ratio of streamcodecs against
every other case of its group (the median of the per-repeat ratios), with the issue's target where one is set.
Each group's line states the machine's load average while it ran, as a shared machine's numbers need it. This is a
measurement, not a test: nothing here fails a build.

    ./dev bench                 # everything
    ./dev bench pravega kcl     # only these modules
    ./dev bench --quick         # fewer repeats
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the generator (streamcodecs_gen), for facts such as a family's stream suffix
sys.path.insert(0, str(HERE.parent / "output" / "py"))
sys.path.insert(0, str(HERE))

OURS = "streamcodecs"


@dataclass
class Case:
    group: str  # what is measured, e.g. "pravega decode SegmentRead 1 KiB"
    name: str  # who does it: "streamcodecs", "hand-written struct", "amazon-kclpy", ...
    fn: Callable[[], object]  # one call
    ops: int = 1  # operations per call (frames, lines, rows)
    target: tuple[str, float] | None = None  # on our case: (other case's name, minimum speed-up); on a ceiling: shown
    unit: str = "ops"


def calibrate(fn: Callable[[], object], min_time: float) -> tuple[int, float]:
    """How many calls take at least ``min_time``, and the seconds per call of that first run."""
    fn()  # warm up
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return calls, elapsed / calls
        calls *= 2 if elapsed == 0 else max(2, int(min_time / elapsed * 1.2))


def measure_group(fns: list[Callable[[], object]], repeats: int, min_time: float) -> list[list[float]]:
    """Seconds per call of each function in each of ``repeats`` runs, each of enough calls to take ``min_time``.

    The runs of a group's functions take turns (a, b, c, a, b, c, ...), so that a burst of load from other work on
    a shared machine falls on all of them rather than on one, and the ratio of runs side by side stays meaningful."""
    calibrated = [calibrate(fn, min_time) for fn in fns]
    runs: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for i, (fn, (calls, _)) in enumerate(zip(fns, calibrated, strict=True)):
            start = time.perf_counter()
            for _ in range(calls):
                fn()
            runs[i].append((time.perf_counter() - start) / calls)
    return runs


def speedup(per_op: dict[str, list[float]], slow: str, fast: str) -> float:
    """How many times faster ``fast`` ran than ``slow``: the median of the ratios of their runs side by side."""
    return statistics.median(s / f for s, f in zip(per_op[slow], per_op[fast], strict=True))


def _times(ratio: float) -> str:
    """A speed ratio as the issue states it: ``2.50x`` faster, or ``at most 1.30x slower`` as ``1/1.30x``."""
    return f"{ratio:.2f}x" if ratio >= 1 else f"1/{1 / ratio:.2f}x"


def human(rate: float) -> str:
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rate >= factor:
            return f"{rate / factor:.2f}{suffix}"
    return f"{rate:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modules", nargs="*", help="bench modules to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats")
    args = parser.parse_args(argv)
    repeats, min_time = (5, 0.05) if args.quick else (9, 0.2)
    names = args.modules or sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))
    misses = []
    for name in names:
        module = importlib.import_module(f"bench_{name}")
        cases: list[Case] = module.cases()
        groups: dict[str, list[Case]] = {}
        for case in cases:
            groups.setdefault(case.group, []).append(case)
        print(f"\n== {name} ==")
        print(f"{'group':<48} {'implementation':<26} {'throughput':>14} {'per op':>11}  ratio")
        for group, members in groups.items():
            load = os.getloadavg()[0]
            runs = measure_group([c.fn for c in members], repeats, min_time)
            per_op = {c.name: [t / c.ops for t in r] for c, r in zip(members, runs, strict=True)}
            timings = {name: statistics.median(r) for name, r in per_op.items()}

            ours = timings.get(OURS)
            for case in members:
                ratio = ""
                if ours and case.name != OURS:
                    times = speedup(per_op, case.name, OURS)
                    faster = times >= 1
                    ratio = f"streamcodecs {times if faster else 1 / times:.2f}x {'faster' if faster else 'slower'}"
                print(
                    f"{group:<48} {case.name:<26} {human(1 / timings[case.name]) + ' ' + case.unit + '/s':>14} "
                    f"{timings[case.name] * 1e6:>9.2f}µs  {ratio}"
                )
            for case in members:
                if case.name == OURS and case.target and ours:
                    other, minimum = case.target
                    achieved = speedup(per_op, other, OURS)
                    verdict = "meets" if achieved >= minimum else "MISSES"
                    line = f"   target: {_times(minimum)} {other} -> {_times(achieved)}, {verdict} the target"
                    print(line)
                    if achieved < minimum:
                        misses.append(f"{group}: {line.strip()}")
            for case in members:  # a ceiling (what the best conceivable implementation reaches) against the target
                if case.name != OURS and case.target:
                    other, minimum = case.target
                    achieved = speedup(per_op, other, case.name)
                    print(f"   bound: {case.name} -> {_times(achieved)} {other} (target {_times(minimum)})")
            after = os.getloadavg()[0]
            print(f"   ({repeats} runs each, medians; load average {load:.1f} -> {after:.1f} on {os.cpu_count()} CPUs)")
    if misses:
        print("\nTargets missed:")
        for miss in misses:
            print("  " + miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())
