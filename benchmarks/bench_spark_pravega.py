"""Pravega in Spark: the JVM path and the Arrow fallback of decode against a pickled row UDF calling the codec.

One group: ``decode`` of 1,000,000 frames (``BENCH_SPARK_ROWS`` to change it) cached in a local Spark session, a
mix of the control frames a client and a segment store exchange (Hello, KeepAlive, SetupAppend, AppendSetup,
DataAppended, ReadSegment, WrongHost) and SegmentRead replies carrying 1 KiB of events, in equal shares.

- ``streamcodecs``: ``streamcodecs.spark.pravega.decode`` in a session with the jar: the Java UDF running the
  generated Java codec (no Python worker);
- ``streamcodecs, Arrow fallback``: the same function with ``spark.streamcodecs.jvm`` = ``"false"`` (an
  ``arrow_udf`` calling the Python codec, one Arrow batch per call, the decoded rows built column by column);
- ``pickled row UDF``: ``udf(..., useArrow=False)`` calling ``streamcodecs.pravega.decode`` once per row and
  returning the same ``DECODED`` row (the same value conversions): what a user writes by hand;
- ``scan, no decoding``: the frames themselves written out, the ceiling of any decode.

Each call writes its result to Spark's ``noop`` sink, so every row is decoded and handed back to the JVM.
Issue target: the JVM path at least 10x the row UDF. Before timing, all three decodes are checked to give the same
rows on a sample.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

from run import Case
from streamcodecs import pravega as pv

GENERATED = Path(__file__).resolve().parent.parent / "output" / "py"
ROWS = int(os.environ.get("BENCH_SPARK_ROWS", "1000000"))
OURS = "streamcodecs"
FALLBACK = "streamcodecs, Arrow fallback"
BASELINE = "pickled row UDF"
CEILING = "scan, no decoding"
WRITER = uuid.UUID("00000000-0000-0001-0000-000000000002")
SEGMENT = "scope/stream/0.#epoch.0"


def _frames() -> list[bytes]:
    events = b"".join(pv.encode_inline(pv.Event(data=b"x" * (20 + i % 40))) for i in range(40))[:1024]
    messages: list[Any] = [
        pv.Hello(high_version=17, low_version=5),
        pv.KeepAlive(),
        pv.SetupAppend(request_id=1, writer_id=WRITER, segment=SEGMENT, delegation_token="token"),
        pv.AppendSetup(request_id=1, segment=SEGMENT, writer_id=WRITER, last_event_number=-(2**63)),
        pv.DataAppended(
            writer_id=WRITER, event_number=41, previous_event_number=40, request_id=1, current_segment_write_offset=9000
        ),
        pv.ReadSegment(segment=SEGMENT, offset=4096, suggested_length=1024, delegation_token="", request_id=2),
        pv.WrongHost(request_id=4, segment=SEGMENT, correct_host="", server_stack_trace=""),
        pv.SegmentRead(segment=SEGMENT, offset=1 << 20, at_tail=False, end_of_segment=False, data=events, request_id=7),
    ]
    return [pv.encode(m) for m in messages]


def _session() -> Any:
    from bench_spark import _session as spark_session  # one session set-up for every Spark benchmark

    return spark_session()


def _row_udf() -> Any:
    """The baseline: a pickled UDF, one codec call per row, returning the DECODED row as a dict."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import pravega as spv

    kinds = {kind.cls: kind for kind in spv._KINDS.values()}  # the same value conversions as the Arrow path

    def decode_row(data: bytes | None) -> dict[str, Any] | None:
        if data is None:
            return None
        try:
            message = pv.decode(data)  # through the module (pickled by reference; the function is a closure)
        except pv.DecodeError as exc:
            return {"message": None, "error": str(exc).removeprefix("pravega: ")}
        kind = kinds[type(message)]
        value: Any = True
        if kind.fields:
            value = {a: getattr(message, a) if c is None else c(getattr(message, a)) for a, c in kind.fields}
        return {"message": kind.name, kind.column: value, "error": None}

    return F.udf(decode_row, spv.DECODED, useArrow=False)


def cases() -> list[Case]:
    from pyspark.sql import functions as F
    from streamcodecs.spark import pravega as spv

    spark = _session()
    frames = _frames()
    table = spark.createDataFrame(list(enumerate(frames)), "k long, frame binary")
    rows = (
        spark.range(ROWS)
        .select((F.col("id") % len(frames)).alias("k"))
        .join(F.broadcast(table), "k")
        .select("frame")
        .repartition(2)
        .cache()
    )
    assert rows.count() == ROWS
    from streamcodecs.spark import _jvm

    ours = rows.select(spv.decode("frame").alias("d"))
    spark.conf.set(_jvm.CONF, "false")  # the path is chosen when the column is built
    try:
        fallback = rows.select(spv.decode("frame").alias("d"))
        sample_fallback = rows.limit(len(frames) * 4).select(spv.decode("frame").alias("d"))
    finally:
        spark.conf.set(_jvm.CONF, "true")
    theirs = rows.select(_row_udf()("frame").alias("d"))
    ceiling = rows.select(F.col("frame").alias("d"))
    plans = {
        name: frame._jdf.queryExecution().executedPlan().toString()
        for name, frame in (("ours", ours), ("fallback", fallback), ("theirs", theirs))
    }
    assert "streamcodecs_pravega_decode(" in plans["ours"] and "EvalPython" not in plans["ours"], plans["ours"]
    assert "ArrowEvalPython" in plans["fallback"] and "BatchEvalPython" not in plans["fallback"], plans["fallback"]
    assert "BatchEvalPython" in plans["theirs"]
    sample = rows.limit(len(frames) * 4)
    expected = sample.select(_row_udf()("frame").alias("d")).collect()
    assert sample.select(spv.decode("frame").alias("d")).collect() == expected
    assert sample_fallback.collect() == expected

    def run(frame: Any) -> None:
        frame.write.format("noop").mode("overwrite").save()

    group = f"spark pravega decode {ROWS:,} rows"
    return [
        Case(group, OURS, lambda: run(ours), ROWS, (BASELINE, 10.0), "rows"),
        Case(group, FALLBACK, lambda: run(fallback), ROWS, None, "rows"),
        Case(group, BASELINE, lambda: run(theirs), ROWS, None, "rows"),
        Case(group, CEILING, lambda: run(ceiling), ROWS, None, "rows"),
        *_explode_cases(spark, run),
    ]


def _explode_cases(spark: Any, run: Any) -> list[Case]:
    """``explode_inline`` (batch) of segment reads: 64 segments, each the same events (20 to 59 bytes) read in
    pieces of 1,000 bytes (so most pieces cut an event), about ``ROWS`` events in all; the JVM path (Python gathers
    each event's bytes, Java decodes them) against the Python fallback (Python does both)."""
    from streamcodecs.spark import _jvm
    from streamcodecs.spark import pravega as spv

    blob = b"".join(pv.encode_inline(pv.Event(data=b"e" * (20 + i % 40))) for i in range(2000))
    events_per_segment = 2000
    segments = max(1, ROWS // events_per_segment)
    pieces = [(blob[at : at + 1000], at) for at in range(0, len(blob), 1000)]
    table = spark.createDataFrame(
        [(f"scope/stream/{s}", at, data) for s in range(segments) for data, at in pieces],
        "segment string, offset long, data binary",
    )
    rows = table.repartition(2).cache()
    rows.count()
    events = segments * events_per_segment

    def explode() -> Any:
        return spv.explode_inline(rows, data="data", offset="offset", stream="segment")

    ours = explode()
    spark.conf.set(_jvm.CONF, "false")
    try:
        fallback = explode()
    finally:
        spark.conf.set(_jvm.CONF, "true")
    assert ours.where("error IS NOT NULL").count() == 0 and ours.count() == events
    assert sorted(ours.limit(0).columns) == sorted(fallback.limit(0).columns)
    group = f"spark pravega explode_inline {events:,} events"
    return [
        Case(group, OURS, lambda: run(ours), events, None, "events"),
        Case(group, FALLBACK, lambda: run(fallback), events, None, "events"),
    ]
