"""Shared test set-up: the generated package on the path, and one local Spark session for the Spark suite.

Spark's log goes to a file for the whole session (a log4j2 file appender, see ``_log4j2_properties``); every test
that uses the ``spark`` fixture fails when Spark logged a code-generation failure while it ran (``Failed to
compile``, ``grows beyond 64 KB``): Spark then falls back to slower interpreted code and prints a long Java stack
trace that a user takes for a crash. ``spark_log`` gives a test the lines Spark logged since it started.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from streamcodecs_gen.analysis.runtime import wiretypes_at_source

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "output" / "py"

# The committed generated package is what the tests exercise (and what --check proves current).
sys.path.insert(0, str(GENERATED))
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(GENERATED), os.environ.get("PYTHONPATH")) if p)

# The hand-written Python runtime also runs at its source (its own tests import it there): the module the generator
# renders beside it (``_runtime/wiretypes``) is put there first.
wiretypes_at_source()

CODEGEN_FAILURES = ("Failed to compile", "grows beyond 64 KB")
"""Lines of Spark's log that fail a test: the generated Java code did not compile (or was too large)."""

_LOG_DIR = Path(tempfile.mkdtemp(prefix="streamcodecs-spark-log-"))
SPARK_LOG = _LOG_DIR / "spark.log"


def _log4j2_properties(log_file: Path) -> str:
    """Everything at WARN and above to ``log_file``; only errors to the console (as the tests had it before).
    The code generator's loggers are pinned at WARN so that ``setLogLevel`` on the root cannot hide them."""
    return "\n".join(
        [
            "rootLogger.level = warn",
            "rootLogger.appenderRef.file.ref = file",
            "rootLogger.appenderRef.console.ref = console",
            "appender.file.type = File",
            "appender.file.name = file",
            f"appender.file.fileName = {log_file.as_posix()}",
            "appender.file.immediateFlush = true",
            "appender.file.layout.type = PatternLayout",
            "appender.file.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n%ex",
            "appender.console.type = Console",
            "appender.console.name = console",
            "appender.console.target = SYSTEM_ERR",
            "appender.console.layout.type = PatternLayout",
            "appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n",
            "appender.console.filter.threshold.type = ThresholdFilter",
            "appender.console.filter.threshold.level = error",
            "logger.codegen.name = org.apache.spark.sql.catalyst.expressions.codegen",
            "logger.codegen.level = warn",
            "logger.wholestage.name = org.apache.spark.sql.execution.WholeStageCodegenExec",
            "logger.wholestage.level = warn",
            "",
        ]
    )


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    """One local Spark session for the whole run (UI off, workers on this interpreter, log in ``SPARK_LOG``)."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    properties = _LOG_DIR / "log4j2.properties"
    properties.write_text(_log4j2_properties(SPARK_LOG), encoding="utf-8")
    # A larger code cache: the suite compiles many generated classes, and a full cache turns the JIT off mid-run.
    java_options = (
        "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=256m "
        f"-Dlog4j2.configurationFile={properties.as_uri()}"
    )
    from streamcodecs.spark import configure

    session = (
        # the jar of the Java codecs (the JVM path of every Spark function) and its SQL functions
        configure(SparkSession.builder, sql=True)
        .master("local[2]")
        .appName("streamcodecs-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")  # where executors fetch spark.jars from
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.extraJavaOptions", java_options)
        .config("spark.executorEnv.PYTHONPATH", os.environ["PYTHONPATH"])
        .getOrCreate()
    )
    yield session
    session.stop()


def _log_size() -> int:
    return SPARK_LOG.stat().st_size if SPARK_LOG.exists() else 0


def _log_since(start: int) -> str:
    if not SPARK_LOG.exists():
        return ""
    with SPARK_LOG.open("rb") as f:
        f.seek(start)
        return f.read().decode("utf-8", "replace")


@pytest.fixture
def spark_log() -> Callable[[], str]:
    """A function giving the text Spark logged (WARN and above) since the test started."""
    start = _log_size()
    return lambda: _log_since(start)


@pytest.fixture(autouse=True)
def _no_codegen_failure(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails a test using Spark when Spark logged a code-generation failure while it ran (its set-up included)."""
    if "spark" not in request.fixturenames:
        yield
        return
    start = _log_size()
    yield
    logged = _log_since(start)
    failures = [line for line in logged.splitlines() if any(f in line for f in CODEGEN_FAILURES)]
    if failures:
        pytest.fail(
            f"Spark logged {len(failures)} code-generation failure(s) (full log: {SPARK_LOG}):\n"
            + "\n".join(failures[:5]),
            pytrace=False,
        )


SPARK_PATHS = ("jvm", "fallback")
"""The two paths of every Spark function: the Java codecs of the package's jar (the session's default), and the
fallback (``spark.streamcodecs.jvm`` = ``"false"``), whatever that is for the protocol. A test taking
``spark_path`` runs on each; it asserts behaviour, never which path's operators the plan holds."""


@pytest.fixture(params=SPARK_PATHS)
def spark_path(spark: Any, request: pytest.FixtureRequest) -> Iterator[str]:
    """The test builds its queries on this path (read when a function builds its column); the JVM path after."""
    from streamcodecs.spark import _jvm

    spark.conf.set(_jvm.CONF, "true" if request.param == "jvm" else "false")
    try:
        yield request.param
    finally:
        spark.conf.set(_jvm.CONF, "true")
