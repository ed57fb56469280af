"""Shared test set-up: the generated package on the path, and one local Spark session for the Spark suite."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "output" / "py"

# The committed generated package is what the tests exercise (and what --check proves current).
sys.path.insert(0, str(GENERATED))
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(GENERATED), os.environ.get("PYTHONPATH")) if p)


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    """One local Spark session for the whole run (UI off, workers on this interpreter)."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("streamcodecs-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
        .config("spark.executorEnv.PYTHONPATH", os.environ["PYTHONPATH"])
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
