"""Pravega in Spark: the generated Arrow decode against a pickled row UDF that calls the same codec, same rows.

One group: ``decode`` of 1,000,000 frames (``BENCH_SPARK_ROWS`` to change it) cached in a local Spark session, a
mix of the control frames a client and a segment store exchange (Hello, KeepAlive, SetupAppend, AppendSetup,
DataAppended, ReadSegment, WrongHost) and SegmentRead replies carrying 1 KiB of events, in equal shares.

- ``streamcodecs``: ``streamcodecs.spark.pravega.decode`` (an ``arrow_udf``: one Arrow batch per call, the
  decoded rows built column by column);
- ``pickled row UDF``: ``udf(..., useArrow=False)`` calling ``streamcodecs.pravega.decode`` once per row and
  returning the same ``DECODED`` row (the same value conversions), so only the execution model differs.

Each call writes the decoded struct to Spark's ``noop`` sink, so every row is decoded and handed back to the JVM.
Issue target: at least 3x. Before timing, both are checked to give the same rows on a sample.
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
BASELINE = "pickled row UDF"
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
    decode_frame = pv.decode

    def decode_row(data: bytes | None) -> dict[str, Any] | None:
        if data is None:
            return None
        try:
            message = decode_frame(data)
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
    ours = rows.select(spv.decode("frame").alias("d"))
    theirs = rows.select(_row_udf()("frame").alias("d"))
    plan = ours._jdf.queryExecution().executedPlan().toString()
    assert "ArrowEvalPython" in plan and "BatchEvalPython" not in plan, plan
    assert "BatchEvalPython" in theirs._jdf.queryExecution().executedPlan().toString()
    sample = rows.limit(len(frames) * 4)
    assert (
        sample.select(spv.decode("frame").alias("d")).collect()
        == sample.select(_row_udf()("frame").alias("d")).collect()
    )

    def run(frame: Any) -> None:
        frame.write.format("noop").mode("overwrite").save()

    group = f"spark pravega decode {ROWS:,} rows"
    return [
        Case(group, OURS, lambda: run(ours), ROWS, (BASELINE, 3.0), "rows"),
        Case(group, BASELINE, lambda: run(theirs), ROWS, None, "rows"),
    ]
