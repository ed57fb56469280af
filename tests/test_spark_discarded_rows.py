"""No function fails a query because of a row that a later ``limit``, ``filter``, ``sample`` or join removes.

By default every function reports a row's problem as a column (``error``; ``encode`` and ``to_kafka`` included),
so nothing fails at all; these tests run the strict modes, which must fail for a bad row that reaches the result
and only for such a row. The input holds good rows first and bad rows last; each query puts the operation that
removes the bad rows after the function. The first test is the case that failed before:
``to_kafka(from_kafka(df.limit(2)))`` with garbage in the third record.

``mode="FAILFAST"`` (``on_error="FAILFAST"``) raises in the projection that decodes (encodes); Spark evaluates that
projection on every row reaching it, so it holds under a later ``limit`` or ``filter`` (Spark pushes the filter
below it) but not under a later ``sample`` or a join (Spark never moves a projection, nor a filter, past those: a
strict check inside the function, projection or filter, runs before them, as measured). The strict check that
holds everywhere is the one applied last: ``streamcodecs.spark.fail_on_error``, a filter after the ``limit``,
``filter``, ``sample`` or join. Every test runs on both paths (``spark_path``: the Java UDFs, and the fallback with
``spark.streamcodecs.jvm=false``).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import functions as F
from spark_checks import vectors
from streamcodecs.spark import cloudevents, fail_on_error, kcl, pravega, storm

pytestmark = [pytest.mark.spark, pytest.mark.usefixtures("spark_path")]  # each test on both paths

DATA = Path(__file__).resolve().parent.parent / "examples" / "data"
GOOD = 6


def _kafka_records(spark: Any) -> Any:
    """Six good Kafka-shaped records of the sample, then two garbage ones (offsets 6 and 7)."""
    good = []
    for line in (DATA / "kafka-cloudevents.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        headers = [(h["key"], base64.b64decode(h["value"])) for h in row["headers"] or []]
        event = (base64.b64decode(row["key"]), base64.b64decode(row["value"]), headers)
        if b"cloudevents" in json.dumps(row).encode() or headers:
            good.append(event)
    records = [(k, v, "orders", 0, i, None, 0, h) for i, (k, v, h) in enumerate(good[:GOOD])]
    records += [(None, b"garbage", "orders", 0, GOOD + i, None, 0, None) for i in range(2)]
    return spark.createDataFrame(records, cloudevents.KAFKA_SOURCE_SCHEMA).withColumn("id", F.col("offset"))


def _frames(spark: Any, protocol: str) -> tuple[Any, Callable[[Any, str], Any]]:
    """(DataFrame of ``id``, ``data``: GOOD good frames then two bad ones; the decode of ``data`` in a mode)."""
    module = {"kcl": kcl, "storm": storm, "pravega": pravega}[protocol]
    good = [v["data"] for v in vectors(protocol)][:GOOD]
    bad = [b"\x00\x00\x00\x0a\x00\x00\x00\xff", b"\xff"] if protocol == "pravega" else [b"{", b"[1, 2]\nend\n"]
    frame = spark.createDataFrame(list(enumerate(good + bad)), "id long, data binary")
    return frame, lambda df, mode: df.select("id", module.decode("data", mode=mode).alias("d"))


def _seed_keeping_only_good(frame: Any) -> int:
    """A seed for which ``sample(0.5, seed)`` keeps some good rows and no bad one."""
    for seed in range(200):
        kept = {r["id"] for r in frame.select("id").sample(fraction=0.5, seed=seed).collect()}
        if kept and max(kept) < GOOD:
            return seed
    raise AssertionError("no seed keeps only good rows")


def _removals(frame: Any) -> dict[str, Callable[[Any], Any]]:
    seed = _seed_keeping_only_good(frame)
    good = frame.sparkSession.range(GOOD)  # the ids of the good rows, column ``id``
    return {
        "limit": lambda df: df.limit(2),
        "filter": lambda df: df.where(F.col("id") < GOOD),
        "sample": lambda df: df.sample(fraction=0.5, seed=seed),
        "join": lambda df: df.join(good, "id"),
    }


def test_to_kafka_of_from_kafka_under_a_limit(spark: Any) -> None:
    records = _kafka_records(spark).drop("id")
    rows = cloudevents.to_kafka(cloudevents.from_kafka(records.limit(2))).collect()
    assert len(rows) == 2 and all(r["error"] is None and r["value"] is not None for r in rows)
    strict = cloudevents.from_kafka(records.limit(2), mode="FAILFAST")
    assert len(cloudevents.to_kafka(strict, "structured", on_error="FAILFAST").collect()) == 2


def test_from_kafka_failfast_fails_only_for_rows_that_reach_the_result(spark: Any) -> None:
    records = _kafka_records(spark)
    decode = lambda df: cloudevents.from_kafka(df, mode="FAILFAST")  # noqa: E731
    removals = _removals(records)
    for name in ("limit", "filter"):
        rows = removals[name](decode(records)).collect()
        assert rows and all(r["error"] is None and r["id"] < GOOD for r in rows), name
        encoded = cloudevents.to_kafka(removals[name](decode(records)), "structured", on_error="FAILFAST").collect()
        assert len(encoded) == len(rows), name
    for name, remove in removals.items():
        rows = fail_on_error(remove(cloudevents.from_kafka(records))).collect()
        assert rows and all(r["id"] < GOOD for r in rows), name
        encoded = fail_on_error(cloudevents.to_kafka(remove(cloudevents.from_kafka(records)), "structured"))
        assert len(encoded.collect()) == len(rows), name
    with pytest.raises(Exception, match="cloudevents"):
        decode(records).collect()  # the bad rows reach the result: the query fails


@pytest.mark.parametrize("protocol", ["kcl", "storm", "pravega"])
def test_decode_failfast_fails_only_for_rows_that_reach_the_result(spark: Any, protocol: str) -> None:
    """``mode="FAILFAST"`` under a later limit or filter; ``fail_on_error`` last under limit, filter, sample and a
    join."""
    frame, decode = _frames(spark, protocol)
    removals = _removals(frame)
    for name in ("limit", "filter"):
        rows = removals[name](decode(frame, "FAILFAST")).collect()
        assert rows and all(r["d"]["error"] is None and r["id"] < GOOD for r in rows), name
    for name, remove in removals.items():
        rows = fail_on_error(remove(decode(frame, "PERMISSIVE")), F.col("d.error")).select("id").collect()
        assert rows and all(r["id"] < GOOD for r in rows), name
    with pytest.raises(Exception, match=protocol):
        decode(frame, "FAILFAST").collect()  # the bad rows reach the result: the query fails
    with pytest.raises(Exception, match="malformed JSON|runs past"):  # the first bad row's error
        fail_on_error(decode(frame, "PERMISSIVE"), "d.error").select("id").collect()


def test_fail_on_error_names_the_rows_problem(spark: Any) -> None:
    frame, decode = _frames(spark, "kcl")
    with pytest.raises(Exception, match="malformed JSON"):
        fail_on_error(decode(frame, "PERMISSIVE"), "d.error").collect()


def _bogus_after_good(message: Any) -> Any:
    """The decoded rows' message name, but for the bad rows (id >= GOOD) one no codec encodes."""
    return F.when(F.col("id") < GOOD, message).otherwise(F.lit("Bogus"))


@pytest.mark.parametrize("protocol", ["kcl", "storm", "pravega", "cloudevents"])
def test_encode_fails_only_for_rows_that_reach_the_result(spark: Any, protocol: str) -> None:
    """By default a row ``encode`` cannot encode is an error in the column; ``on_error="FAILFAST"`` under a later
    limit or filter, and ``fail_on_error`` last under limit, filter, sample and a join, fail only for rows kept."""
    if protocol == "cloudevents":
        frame, module = cloudevents.from_kafka(_kafka_records(spark)), cloudevents
        row = F.struct(_bogus_after_good(F.col("message")).alias("message"), F.col("cloud_event"))
    else:
        frame, decode = _frames(spark, protocol)
        frame, module = decode(frame, "PERMISSIVE"), {"kcl": kcl, "storm": storm, "pravega": pravega}[protocol]
        row = F.col("d").withField("message", _bogus_after_good(F.col("d.message")))

    def encode(df: Any, on_error: str) -> Any:
        return df.select("id", module.encode(row, on_error=on_error).alias("e"))

    everything = encode(frame, "PERMISSIVE").collect()
    assert {r["id"] for r in everything if r["e"]["error"] is not None} == {GOOD, GOOD + 1}
    assert all(r["e"]["error"] == "unknown message Bogus" and r["e"]["data"] is None for r in everything[GOOD:])
    assert all(r["e"]["data"] is not None for r in everything[:GOOD])
    removals = _removals(frame)
    for name in ("limit", "filter"):
        rows = removals[name](encode(frame, "FAILFAST")).collect()
        assert rows and all(r["e"]["data"] is not None and r["id"] < GOOD for r in rows), name
    for name, remove in removals.items():
        rows = fail_on_error(remove(encode(frame, "PERMISSIVE")), "e.error").collect()
        assert rows and all(r["id"] < GOOD for r in rows), name
    with pytest.raises(Exception, match=f"{protocol}: cannot encode: unknown message Bogus"):
        encode(frame, "FAILFAST").collect()
    with pytest.raises(Exception, match="unknown message Bogus"):
        fail_on_error(encode(frame, "PERMISSIVE"), "e.error").collect()
