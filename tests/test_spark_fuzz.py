"""PERMISSIVE mode never fails a job on garbage rows: fuzzed frames through every protocol's Spark decode.

The Pravega suite fuzzes its own frames (tests/test_spark_pravega.py); this covers the JSON protocols and
CloudEvents records, using the project fuzzer's mutations of the compatibility vectors, on both paths (the Java
UDFs and the fallback).
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "fuzz"))

import fuzz  # noqa: E402

pytestmark = pytest.mark.spark
ROWS = 1500


def _seeds(protocol: str) -> list[bytes]:
    seeds = []
    for path in sorted((REPO / "output" / "py" / "vectors" / protocol).glob("*/manifest.json")):
        manifest = json.loads(path.read_text())
        blob = (path.parent / manifest["file"]).read_bytes()
        seeds += [blob[v["offset"] : v["offset"] + v["length"]] for v in manifest["vectors"]]
    return seeds


def _garbage(protocol: str, family: str, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    seeds = _seeds(protocol)
    return [fuzz.mutations(rng, rng.choice(seeds), family)() for _ in range(ROWS)]


@pytest.mark.parametrize("protocol", ["kcl", "storm"])
def test_fuzzed_json_rows_never_fail_a_permissive_job(spark: Any, spark_path: str, protocol: str) -> None:
    module = importlib.import_module(f"streamcodecs.spark.{protocol}")
    rows = _garbage(protocol, "json", 11)
    frame = spark.createDataFrame([(i, data) for i, data in enumerate(rows)], "i int, data binary")
    out = frame.select("i", module.decode("data").alias("d")).orderBy("i").collect()
    assert len(out) == ROWS
    codec = importlib.import_module(f"streamcodecs.{protocol}")
    for row, data in zip(out, rows, strict=True):
        decoded = row["d"]
        assert decoded is not None
        assert (decoded["message"] is None) != (decoded["error"] is None), row
        try:
            expected = type(codec.decode(data)).__name__
        except codec.DecodeError:
            expected = None
        assert decoded["message"] == expected, (data, decoded)  # the codec's verdict, on either path


def test_fuzzed_kafka_records_never_fail_a_permissive_job(spark: Any, spark_path: str) -> None:
    module = importlib.import_module("streamcodecs.spark.cloudevents")
    rng = random.Random(12)
    values = _garbage("cloudevents", "kafka", 12)
    structured = [("content-type", b"application/cloudevents+json; charset=UTF-8")]
    rows = []
    for i, value in enumerate(values):
        headers: list[tuple[str, bytes]] | None
        if i % 3 == 0:
            headers = structured
        elif i % 3 == 1:
            headers = [
                ("ce_" + rng.choice(["id", "source", "type", "specversion", "time", "x"]), value[:8])
                for _ in range(rng.randint(0, 6))
            ]
        else:
            headers = None
        rows.append((None, value if i % 7 else None, "t", 0, i, None, 0, headers))
    frame = spark.createDataFrame(rows, module.KAFKA_SOURCE_SCHEMA)
    out = module.from_kafka(frame).orderBy("offset").collect()
    assert len(out) == ROWS
    codec = importlib.import_module("streamcodecs.cloudevents")
    for row, record in zip(out, rows, strict=True):
        assert (row["message"] is None) != (row["error"] is None), row
        try:
            codec.from_kafka(codec.KafkaRecord(value=record[1], headers=record[7] or []))
            accepted = True
        except codec.DecodeError:
            accepted = False
        assert (row["message"] is not None) == accepted, (record, row)  # the codec's verdict, on either path
