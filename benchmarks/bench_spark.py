"""The Spark paths against what a PySpark user would write without streamcodecs, on the same rows, in one run.

Four groups, ``--rows`` rows each (default 1,000,000, or ``BENCH_SPARK_ROWS``), in one local[2] session; every case
writes its rows to Spark's ``noop`` sink, so every row is computed and handed back to the JVM. Each group times:

- ``streamcodecs``: the function on the JVM path (the generated Java codec as a Java UDF, the package's jar on
  ``spark.jars``);
- ``streamcodecs Arrow fallback``: the same function on its Python path (``spark.streamcodecs.jvm=false``: the Python
  codec on Arrow batches);
- the row UDF a PySpark user would write by hand (the issue's baseline, against which the target is set);
- ``native, no checks``: the fewest Spark expressions that extract (or build) the same values and check nothing, the
  ceiling of a native decoder: not a decoder (it accepts anything), it shows how far native Spark can get at all;
- ``scan only``: the input read and written, nothing decoded.

The groups, their rows and their baselines are described in ``spark_kcl.py``, ``spark_storm.py``,
``spark_cloudevents.py`` and ``spark_pravega.py``: KCL ``processRecords`` with real 56-digit sequence numbers
(target 5x a ``json.loads`` + base64 row UDF), Storm bolt tuples (5x a ``json.loads`` row UDF), CloudEvents
``from_kafka`` of records half binary, half structured with a ``traceparent`` extension (10x a row UDF calling the
CloudEvents SDK) and ``to_kafka`` in each mode (10x the SDK's ``to_binary_event``/``to_structured_event``), Pravega
``decode`` of control frames and 1 KiB SegmentReads (10x a pickled row UDF calling the Python codec) and
``explode_inline``. Before timing, each group checks that its cases give the same values on a sample and run the
path they name. Rows are built once in the JVM (a range joined with a broadcast table of distinct inputs), so the
input costs the same on every side.

    python benchmarks/bench_spark.py [--rows N] [--repeats R] [kcl|storm|cloudevents|pravega ...]

or through the project's runner (``./dev bench spark``), which times the same cases its own way.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import spark_cloudevents
import spark_kcl
import spark_pravega
import spark_storm
from run import Case
from spark_common import ROWS, session

GROUPS = {"kcl": spark_kcl, "storm": spark_storm, "cloudevents": spark_cloudevents, "pravega": spark_pravega}


def cases(rows: int = ROWS, groups: list[str] | None = None) -> list[Case]:
    spark: Any = session()
    return [case for name in groups or GROUPS for case in GROUPS[name].cases(spark, rows)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=ROWS, help=f"rows per case (default {ROWS:,})")
    parser.add_argument("--repeats", type=int, default=2, help="timed runs per case after a warm-up (best counts)")
    parser.add_argument("groups", nargs="*", help=f"groups to run: {', '.join(GROUPS)} (default: all)")
    args = parser.parse_args(argv)
    if unknown := sorted(set(args.groups) - set(GROUPS)):
        parser.error(f"unknown group(s) {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    all_cases = cases(args.rows, args.groups)
    seconds: dict[tuple[str, str], float] = {}
    for case in all_cases:
        case.fn()  # warm-up: JIT, Python workers
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            case.fn()
            times.append(time.perf_counter() - start)
        seconds[case.group, case.name] = min(times)
        print(
            f"{case.group:<52} {case.name:<28} {case.ops / min(times):>12,.0f} {case.unit}/s  "
            f"({', '.join(f'{t:.1f}s' for t in times)})",
            flush=True,
        )
    print()
    for case in all_cases:
        if case.target:
            other, minimum = case.target
            ratio = seconds[case.group, other] / seconds[case.group, case.name]
            verdict = ("meets" if ratio >= minimum else "MISSES") if case.name == "streamcodecs" else "bound"
            print(f"{case.group}: {case.name} {ratio:.2f}x {other} (target {minimum:g}x: {verdict})")
    for group in dict.fromkeys(case.group for case in all_cases):
        ours = seconds.get((group, "streamcodecs"))
        scan = seconds.get((group, "scan only"))
        native = seconds.get((group, "native, no checks"))
        if ours and scan:
            against = f", {native / ours:.2f}x the native ceiling" if native else ""
            print(f"{group}: the JVM path runs at {scan / ours:.0%} of the scan{against}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
