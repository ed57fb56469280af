"""Every public Spark function on a streaming DataFrame gives what it gives on a batch one.

Each test drops rows into a directory in several files, one file per micro-batch, and reads the directory as a
file-source stream (``processAllAvailable`` between drops, so each file arrives while the query runs); the query
writes to the memory sink, and what it wrote is compared with the same function on the same files read as a batch.
The rows are the bundled example sample (Kafka-shaped CloudEvents records, KCL lines, Pravega SegmentRead frames,
each with some malformed rows) and the Storm vectors; ``fail_on_error`` stops a stream at a bad row it sees, and
only then. ``pravega.explode_inline`` on a stream (state kept across micro-batches) is tested in
``test_spark_pravega_streaming.py``. Every test runs on both paths (``spark_path``: the Java UDFs, and the fallback
with ``spark.streamcodecs.jvm=false``), the stream and the batch on the same one.
"""

from __future__ import annotations

import base64
import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import functions as F
from spark_checks import plain, vectors
from streamcodecs.spark import cloudevents, fail_on_error, kcl, pravega, storm

pytestmark = [pytest.mark.spark, pytest.mark.usefixtures("spark_path")]  # each test on both paths

DATA = Path(__file__).resolve().parent.parent / "examples" / "data"
DROPS = 3
KAFKA_JSON = (
    "key string, value string, topic string, partition int, offset long, timestamp string, timestampType int,"
    " headers array<struct<key:string,value:string>>"
)
_names = (f"streamcodecs_stream_{i}" for i in itertools.count())


def _drop(directory: Path, index: int, lines: list[str]) -> None:
    """One file of lines, written under a hidden name and renamed, so the source never sees it half-written."""
    hidden = directory / f".part-{index}.tmp"
    hidden.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    hidden.rename(directory / f"part-{index}.txt")


def _sorted(rows: list[Any]) -> list[Any]:
    return sorted((plain(r) for r in rows), key=repr)


def stream_vs_batch(
    spark: Any, tmp_path: Path, lines: list[str], fmt: str, schema: str, query: Callable[[Any], Any]
) -> list[Any]:
    """``query`` over ``lines`` as a stream (``DROPS`` files, one micro-batch each) and as a batch: the rows, which
    must be the same."""
    source = tmp_path / "in"
    source.mkdir()
    size = -(-len(lines) // DROPS)
    chunks = [lines[i : i + size] for i in range(0, len(lines), size)]
    _drop(source, 0, chunks[0])
    stream = spark.readStream.format(fmt).schema(schema).option("maxFilesPerTrigger", 1).load(str(source))
    assert stream.isStreaming
    name = next(_names)
    running = query(stream).writeStream.format("memory").queryName(name).outputMode("append").start()
    try:
        running.processAllAvailable()
        for i, chunk in enumerate(chunks[1:], 1):
            _drop(source, i, chunk)
            running.processAllAvailable()
        batches = [p for p in running.recentProgress if p["numInputRows"] > 0]
        assert running.exception() is None
    finally:
        running.stop()
    assert len(batches) == len(chunks)  # one micro-batch per file: the rows arrived while the query ran
    streamed = spark.table(name).collect()
    batch = query(spark.read.format(fmt).schema(schema).load(str(source))).collect()
    assert _sorted(streamed) == _sorted(batch)
    assert len(batch) > 0
    return batch


def _kafka_shaped(raw: Any) -> Any:
    """The Kafka source's columns from the sample's JSON lines (binary key, value and header values)."""
    return raw.select(
        F.unbase64("key").alias("key"),
        F.unbase64("value").alias("value"),
        "topic",
        "partition",
        "offset",
        F.to_timestamp("timestamp").alias("timestamp"),
        "timestampType",
        F.transform("headers", lambda h: F.struct(h["key"].alias("key"), F.unbase64(h["value"]).alias("value"))).alias(
            "headers"
        ),
    )


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").splitlines()


def test_kcl_decode_and_encode_on_a_stream(spark: Any, tmp_path: Path) -> None:
    lines = _lines("kcl-process-records.jsonl") + ['{"action": "processRecords", "records": 5}', "not json"]

    def query(df: Any) -> Any:
        decoded = df.select("value", kcl.decode("value", direction="to_child").alias("d"))
        return decoded.select(
            "value", "d", kcl.encode(F.when(F.col("d.error").isNull(), F.col("d")))["data"].alias("again")
        )

    rows = stream_vs_batch(spark, tmp_path, lines, "text", "value string", query)
    assert sum(r["d"]["error"] is not None for r in rows) == 2
    assert all(r["again"] is not None for r in rows if r["d"]["error"] is None)


def test_storm_decode_and_encode_on_a_stream(spark: Any, tmp_path: Path) -> None:
    found = vectors("storm")
    lines = [json.dumps({"i": i, "data": v["data"].decode(), "direction": v["direction"]}) for i, v in enumerate(found)]
    lines.append(json.dumps({"i": len(found), "data": '{"command": 7}\nend\n', "direction": "to_component"}))

    def query(df: Any) -> Any:
        decoded = df.select("i", storm.decode("data").alias("d"))
        return decoded.select(
            "i", "d", storm.encode(F.when(F.col("d.error").isNull(), F.col("d")))["data"].alias("again")
        )

    rows = stream_vs_batch(spark, tmp_path, lines, "json", "i long, data string, direction string", query)
    assert len(rows) == len(found) + 1
    assert any(r["d"]["error"] is not None for r in rows)


def test_pravega_decode_encode_and_split_on_a_stream(spark: Any, tmp_path: Path) -> None:
    lines = _lines("pravega-segment-reads.jsonl")
    lines.append(json.dumps({"frame": base64.b64encode(b"\x00\x00\x00\x0a\x00\x00\x00\xff").decode()}))

    def query(df: Any) -> Any:
        decoded = df.select("frame", pravega.decode(F.unbase64("frame")).alias("d"))
        return decoded.select(
            "frame",
            "d",
            pravega.encode(F.when(F.col("d.error").isNull(), F.col("d")))["data"].alias("again"),
            pravega.split_inline("d.segment_read.data").alias("inline"),
        )

    rows = stream_vs_batch(spark, tmp_path, lines, "json", "frame string", query)
    assert any(r["d"]["error"] is not None for r in rows)
    assert all(bytes(r["again"]) == base64.b64decode(r["frame"]) for r in rows if r["d"]["error"] is None)


def test_cloudevents_from_kafka_and_decode_on_a_stream(spark: Any, tmp_path: Path) -> None:
    def query(df: Any) -> Any:
        records = _kafka_shaped(df).withColumn("record_value", F.col("value"))
        events = cloudevents.from_kafka(records.withColumn("mode", cloudevents.content_mode("headers")))
        return events.select(
            "offset",
            "content_mode",
            "mode",
            "cloud_event",
            "data_text",
            cloudevents.data_text("cloud_event").alias("text"),
            "error",
            cloudevents.decode("record_value").alias("structured"),
            cloudevents.encode(F.struct("message", "cloud_event")).alias("encoded"),
        )

    rows = stream_vs_batch(spark, tmp_path, _lines("kafka-cloudevents.jsonl"), "json", KAFKA_JSON, query)
    assert sum(r["error"] is not None for r in rows) == 2  # the sample's two broken records
    assert {r["content_mode"] for r in rows} == {"binary", "structured"}
    assert all(r["mode"] == r["content_mode"] for r in rows)  # content_mode alone reads what from_kafka read
    assert all(r["text"] == r["data_text"] for r in rows) and any(r["text"] for r in rows)


@pytest.mark.parametrize("kept", ["error IS NULL", "true"])
def test_fail_on_error_on_a_stream_fails_only_for_a_bad_row_it_sees(spark: Any, tmp_path: Path, kept: str) -> None:
    lines = _lines("kcl-process-records.jsonl") + ["not json"]

    def query(df: Any) -> Any:
        decoded = df.select(kcl.decode("value", direction="to_child").alias("d")).select("d.*")
        return fail_on_error(decoded.where(kept), "error")

    if kept == "true":  # the bad line reaches the check: the stream stops with the line's problem
        with pytest.raises(Exception, match="STREAM_FAILED.*malformed JSON"):
            stream_vs_batch(spark, tmp_path, lines, "text", "value string", query)
    else:
        rows = stream_vs_batch(spark, tmp_path, lines, "text", "value string", query)
        assert len(rows) == len(lines) - 1


@pytest.mark.parametrize("mode", ["binary", "structured"])
def test_cloudevents_to_kafka_on_a_stream(spark: Any, tmp_path: Path, mode: str) -> None:
    def query(df: Any) -> Any:
        return cloudevents.to_kafka(cloudevents.from_kafka(_kafka_shaped(df)), mode)

    rows = stream_vs_batch(spark, tmp_path, _lines("kafka-cloudevents.jsonl"), "json", KAFKA_JSON, query)
    refused = [r for r in rows if r["error"] is not None]
    assert len(refused) == 2 and all(r["value"] is None and r["headers"] is None for r in refused)
