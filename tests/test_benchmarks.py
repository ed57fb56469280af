"""The Spark benchmark keeps working: each group builds its cases on a few rows in the suite's session (which runs
the group's own checks: every case gives the same values on a sample, the native ceiling included, and runs the
path it names) and runs each case once. Nothing here is timed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_spark  # noqa: E402


@pytest.mark.spark
@pytest.mark.parametrize("group", list(bench_spark.GROUPS))
def test_a_spark_benchmark_group_checks_and_runs_its_cases(spark: Any, group: str) -> None:
    cases = bench_spark.GROUPS[group].cases(spark, 1200)
    targeted = {case.group for case in cases if case.name == "streamcodecs" and case.target}
    assert targeted, "the module states the issue's target for the JVM path"
    for measured in targeted:  # each targeted group sets the JVM path beside its fallback, the ceiling and the scan
        names = {case.name for case in cases if case.group == measured}
        assert {"streamcodecs Arrow fallback", "native, no checks", "scan only"} <= names, (measured, names)
    for case in cases:
        case.fn()
