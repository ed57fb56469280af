"""The Spark benchmark's Pravega groups (run through ``bench_spark.py``).

``decode`` of frames, a mix in equal shares of the control frames a client and a segment store exchange (Hello,
KeepAlive, SetupAppend, AppendSetup, DataAppended, ReadSegment, WrongHost) and SegmentRead replies carrying 1 KiB of
events, cached in the session:

- ``streamcodecs``: ``streamcodecs.spark.pravega.decode`` with the jar (the generated Java codec as a Java UDF);
- ``streamcodecs Arrow fallback``: the same function with ``spark.streamcodecs.jvm=false`` (an ``arrow_udf`` calling
  the Python codec on Arrow batches);
- ``pickled row UDF``: ``udf(..., useArrow=False)`` calling ``streamcodecs.pravega.decode`` once per row and returning
  the same ``DECODED`` row (the same value conversions): what a user writes by hand. Issue target: the JVM path at
  least 10x this;
- ``native, no checks``: the same values extracted with Spark's own expressions (``substring``, ``conv``, ``hex``,
  ``decode``), for the eight messages of the mix only and checking nothing (no lengths, no bounds, no codes beyond
  those eight): the ceiling of a native decoder, which the JVM path should match;
- ``scan only``: the frames themselves written out.

Then ``explode_inline`` (batch) of segment reads cut every 1,000 bytes, on both paths. Before timing, every decode is
checked to give the same rows on a sample.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bench_pravega
from run import Case
from spark_common import OURS, PY_FALLBACK, compared, fallback_path, plan, run
from streamcodecs import pravega as pv

BASELINE = "pickled row UDF"
SEGMENT = bench_pravega.SEGMENT


def _messages() -> list[Any]:
    """The Python benchmark's seven control frames (``bench_pravega``), then a SegmentRead of 1 KiB of events."""
    events = b"".join(pv.encode_inline(pv.Event(data=b"x" * (20 + i % 40))) for i in range(40))[:1024]
    read = pv.SegmentRead(
        segment=SEGMENT, offset=1 << 20, at_tail=False, end_of_segment=False, data=events, request_id=7
    )
    return [*bench_pravega._control()[0], read]


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


# ---------------------------------------------------------------- the native ceiling

# The mix's messages as a native decoder would hard-code them: (code, name, DECODED column, fields in wire order).
_LAYOUTS: tuple[tuple[int, str, str, tuple[tuple[str, str], ...]], ...] = (
    (-127, "Hello", "hello", (("high_version", "i32"), ("low_version", "i32"))),
    (100, "KeepAlive", "keep_alive", ()),
    (1, "SetupAppend", "setup_append", (("request_id", "i64"), ("writer_id", "uuid"), ("segment", "str"),
                                        ("delegation_token", "str"))),
    (2, "AppendSetup", "append_setup", (("request_id", "i64"), ("segment", "str"), ("writer_id", "uuid"),
                                        ("last_event_number", "i64"))),
    (7, "DataAppended", "data_appended", (("writer_id", "uuid"), ("event_number", "i64"),
                                          ("previous_event_number", "i64"), ("request_id", "i64"),
                                          ("current_segment_write_offset", "i64"))),
    (9, "ReadSegment", "read_segment", (("segment", "str"), ("offset", "i64"), ("suggested_length", "i32"),
                                        ("delegation_token", "str"), ("request_id", "i64"))),
    (50, "WrongHost", "wrong_host", (("request_id", "i64"), ("segment", "str"), ("correct_host", "str"),
                                     ("server_stack_trace", "str"))),
    (10, "SegmentRead", "segment_read", (("segment", "str"), ("offset", "i64"), ("at_tail", "bool"),
                                         ("end_of_segment", "bool"), ("data", "bytes"), ("request_id", "i64"))),
)  # fmt: skip


def _native_decode(frame: Any) -> Any:
    """The mix's values out of each frame with Spark expressions alone (big-endian integers through ``conv`` of
    their hex, strings and byte strings through their length prefix), checking nothing."""
    from pyspark.sql import functions as F

    def at(position: Any, size: Any) -> Any:
        return F.substring(frame, position, size)

    def i64(position: Any) -> Any:
        return F.conv(F.hex(at(position, 8)), 16, -10).cast("bigint")

    def u(position: Any, size: int) -> Any:
        return F.conv(F.hex(at(position, size)), 16, 10).cast("bigint")

    def i32(position: Any) -> Any:
        return ((u(position, 4) + 2**31) % 2**32 - 2**31).cast("int")

    def uuid_text(position: Any) -> Any:
        digits = F.lower(F.hex(at(position, 16)))
        return F.concat_ws("-", *(F.substring(digits, s, n) for s, n in ((1, 8), (9, 4), (13, 4), (17, 4), (21, 12))))

    readers: dict[str, Callable[[Any], tuple[Any, Any]]] = {
        "i64": lambda p: (i64(p), p + 8),
        "i32": lambda p: (i32(p), p + 4),
        "bool": lambda p: (at(p, 1) != F.lit(b"\x00"), p + 1),
        "uuid": lambda p: (uuid_text(p), p + 16),
        "str": lambda p: (F.decode(F.substring(frame, p + 2, u(p, 2).cast("int")), "UTF-8"), p + 2 + u(p, 2)),
        "bytes": lambda p: (F.substring(frame, p + 4, i32(p)), p + 4 + i32(p)),
    }
    code = i32(F.lit(1))
    name = F.lit(None).cast("string")
    columns = []
    for number, message, column, fields in _LAYOUTS:
        name = F.when(code == number, F.lit(message)).otherwise(name)
        position: Any = F.lit(9)  # after the type code and the payload length
        values = []
        for field, kind in fields:
            value, position = readers[kind](position)
            values.append(value.alias(field))
        columns.append(F.when(code == number, F.struct(*values) if values else F.lit(True)).alias(column))
    return F.struct(name.alias("message"), *columns)


# ---------------------------------------------------------------- the groups


def cases(spark: Any, rows: int) -> list[Case]:
    from pyspark.sql import functions as F
    from streamcodecs.spark import pravega as spv

    frames = [pv.encode(m) for m in _messages()]
    table = spark.createDataFrame(list(enumerate(frames)), "k long, frame binary")
    data = (
        spark.range(rows)
        .select((F.col("id") % len(frames)).alias("k"))
        .join(F.broadcast(table), "k")
        .select("frame")
        .repartition(2)
        .cache()
    )
    assert data.count() == rows
    decode = spv.decode("frame").alias("d")
    with fallback_path(spark):  # the path is chosen when the column is built
        decode_fallback = spv.decode("frame").alias("d")
    decode_theirs = _row_udf()("frame").alias("d")
    decode_native = _native_decode(F.col("frame")).alias("d")
    _check_same(data.limit(len(frames) * 4), decode, decode_fallback, decode_theirs, decode_native)
    ours, fallback = data.select(decode), data.select(decode_fallback)
    theirs, native = data.select(decode_theirs), data.select(decode_native)
    assert "streamcodecs_pravega_decode(" in plan(ours) and "EvalPython" not in plan(ours), plan(ours)
    assert "ArrowEvalPython" in plan(fallback) and "BatchEvalPython" not in plan(fallback), plan(fallback)
    assert "BatchEvalPython" in plan(theirs)
    group = f"spark pravega decode {rows:,} frames"
    decodes = compared(
        group, rows, BASELINE, 10.0, ours=ours, fallback=fallback, theirs=theirs, native=native, scan=data
    )
    return [*decodes, *_explode_cases(spark, rows)]


def _check_same(sample: Any, ours: Any, fallback: Any, theirs: Any, native: Any) -> None:
    """On ``sample`` (a few rows of each frame), the three decoders give the same rows, and the native extraction
    the same values of the mix's columns."""
    from pyspark.sql import functions as F

    expected = sample.select(theirs).collect()
    assert sample.select(ours).collect() == expected
    assert sample.select(fallback).collect() == expected
    mix = [F.col(f"d.{c}") for c in ("message", *(column for _, _, column, _ in _LAYOUTS))]
    assert sample.select(native).select(*mix).collect() == sample.select(ours).select(*mix).collect()


def _explode_cases(spark: Any, rows: int) -> list[Case]:
    """``explode_inline`` (batch) of segment reads: segments of the same 2,000 events (20 to 59 bytes) read in pieces
    of 1,000 bytes (so most pieces cut an event), about ``rows`` events in all; the JVM path (Python gathers each
    event's bytes, Java decodes them) against the Python fallback (Python does both)."""
    from streamcodecs.spark import pravega as spv

    blob = b"".join(pv.encode_inline(pv.Event(data=b"e" * (20 + i % 40))) for i in range(2000))
    events_per_segment = 2000
    segments = max(1, rows // events_per_segment)
    pieces = [(blob[at : at + 1000], at) for at in range(0, len(blob), 1000)]
    table = spark.createDataFrame(
        [(f"scope/stream/{s}", at, data) for s in range(segments) for data, at in pieces],
        "segment string, offset long, data binary",
    )
    reads = table.repartition(2).cache()
    reads.count()
    events = segments * events_per_segment

    def explode() -> Any:
        return spv.explode_inline(reads, data="data", offset="offset", stream="segment")

    ours = explode()
    with fallback_path(spark):
        fallback = explode()
    assert ours.where("error IS NOT NULL").count() == 0 and ours.count() == events
    assert fallback.where("error IS NOT NULL").count() == 0 and fallback.count() == events
    group = f"spark pravega explode_inline {events:,} events"
    return [
        Case(group, OURS, lambda: run(ours), events, None, "events"),
        Case(group, PY_FALLBACK, lambda: run(fallback), events, None, "events"),
    ]
