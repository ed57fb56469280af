"""What every group of the Spark benchmark shares: the session, the rows, how a case runs and what it checks first.

``bench_spark.py`` is the entry point; each protocol's group is a module beside it (``spark_<protocol>.py``, not
``bench_*``, so that the project's runner does not run a group on its own).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from run import Case

HERE = Path(__file__).resolve().parent
GENERATED = HERE.parent / "output" / "py"
sys.path.insert(0, str(GENERATED))

ROWS = int(os.environ.get("BENCH_SPARK_ROWS", "1000000"))
DISTINCT = 1000
"""Distinct inputs per group; the rows cycle through them."""
OURS = "streamcodecs"
PY_FALLBACK = "streamcodecs Arrow fallback"
CEILING = "native, no checks"
SCAN = "scan only"


def session() -> Any:
    """One local session for every group: the package's jar on ``spark.jars`` (the JVM path), UI off, local[2]."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    path = os.pathsep.join(p for p in (str(GENERATED), os.environ.get("PYTHONPATH")) if p)
    os.environ["PYTHONPATH"] = path
    from pyspark.sql import SparkSession
    from streamcodecs.spark import configure

    spark = (
        configure(SparkSession.builder)
        .master(os.environ.get("BENCH_SPARK_MASTER", "local[2]"))
        .appName("streamcodecs-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.executorEnv.PYTHONPATH", path)
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def cycled(spark: Any, table: Any, rows: int) -> Any:
    """``rows`` rows cycling through the distinct ones of ``table`` (column ``k`` numbers them from 0)."""
    from pyspark.sql import functions as F

    keys = spark.range(rows).select((F.col("id") % DISTINCT).alias("k")).repartition(2)
    return keys.join(F.broadcast(table), "k").drop("k")


def run(frame: Any) -> None:
    """One case: every row computed and handed to Spark's ``noop`` sink."""
    frame.write.format("noop").mode("overwrite").save()


@contextmanager
def fallback_path(spark: Any) -> Iterator[None]:
    """Spark functions called inside build their Python fallback (``spark.streamcodecs.jvm=false``)."""
    spark.conf.set("spark.streamcodecs.jvm", "false")
    try:
        yield
    finally:
        spark.conf.set("spark.streamcodecs.jvm", "true")


def plan(frame: Any) -> str:
    return frame._jdf.queryExecution().executedPlan().toString()


def on_jvm(ours: Any, fallback: Any) -> None:
    """``ours`` runs the Java UDF and ``fallback`` the Arrow UDF (so each case times what it says)."""
    assert "EvalPython" not in plan(ours), plan(ours)
    assert "ArrowEvalPython" in plan(fallback), plan(fallback)


def same(ours: Any, theirs: Any, column: str = "d") -> None:
    """Both sides give the same values on a sample (so that the comparison is of equal work)."""
    mine = [r[0] for r in ours.select(column).limit(50).collect()]
    other = [r[0] for r in theirs.select(column).limit(50).collect()]
    assert mine == other, (mine[:1], other[:1])


def compared(
    group: str,
    rows: int,
    baseline: str,
    target: float,
    *,
    ours: Any,
    fallback: Any,
    theirs: Any,
    native: Any,
    scan: Any,
) -> list[Case]:
    """A group's five cases, each running one DataFrame of ``rows`` rows: the JVM path (``ours``), its Python fallback,
    the row UDF a user would write (``theirs``, named ``baseline``), the native ceiling and the scan. The JVM path is
    set the issue's target, ``target`` times the baseline's speed, and the ceiling and the scan the same bound, shown
    beside it."""
    against = (baseline, target)
    return [
        Case(group, OURS, lambda: run(ours), rows, against, "rows"),
        Case(group, PY_FALLBACK, lambda: run(fallback), rows, None, "rows"),
        Case(group, baseline, lambda: run(theirs), rows, None, "rows"),
        Case(group, CEILING, lambda: run(native), rows, against, "rows"),
        Case(group, SCAN, lambda: run(scan), rows, against, "rows"),
    ]
