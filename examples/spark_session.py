"""The examples' Spark session: on the fast path (the package's Java codecs), with the Python fallback one flag away.

``streamcodecs.spark.configure(builder)`` puts the package's jar on ``spark.jars``, so every ``streamcodecs.spark``
function runs the protocol's Java codec on the JVM; ``--python`` sets ``spark.streamcodecs.jvm`` to ``false``, so
they run the Python codec in Arrow batches instead (the same rows, slower). The session says which path its
functions run, and why, before any work starts.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

PYTHON_FLAG = "--python"


def count(text: str) -> int:
    """An ``argparse`` type: a whole number of 1 or more (``--files 0`` divided by zero after the output was made)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def add_path_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        PYTHON_FLAG,
        action="store_true",
        help="run the Python fallback (the Python codec in Arrow batches) instead of the Java codecs on the JVM",
    )


def start(app: str, master: str, python: bool, **conf: str) -> Any:
    """A session on ``master`` with the package's jar, and the Python path when ``python``; prints which path runs."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    import streamcodecs.spark
    from pyspark.sql import SparkSession

    builder = streamcodecs.spark.configure(SparkSession.builder).master(master).appName(app)
    for key, value in {"spark.ui.showConsoleProgress": "false", "spark.sql.session.timeZone": "UTC", **conf}.items():
        builder = builder.config(key, value)
    if python:
        builder = builder.config("spark.streamcodecs.jvm", "false")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    path = streamcodecs.spark.path(spark)
    print(f"streamcodecs.spark runs on the {path}{f' ({PYTHON_FLAG})' if python else ''}", flush=True)
    return spark
