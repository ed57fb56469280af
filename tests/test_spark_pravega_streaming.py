"""Pravega ``explode_inline`` on a streaming DataFrame: events cut across micro-batches, kept in Spark's state store.

The pieces of each stream (as consecutive reads of a segment return them, cut at any byte) arrive as JSON lines in
files dropped one per micro-batch into a directory read as a file-source stream; the query writes to a Parquet sink
with a checkpoint. Each micro-batch here ends inside an event, and the events that come out are compared with the
codec's own reader and with ``explode_inline`` on the same pieces read as a batch. The Spark tests run on both
paths (``spark_path``): the state kept by a Python step either way, the frames then decoded by the Java codec (the
JVM path) or by the Python codec (the fallback).
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import functions as F
from pyspark.sql.types import LongType, StringType, StructField, StructType
from streamcodecs import pravega as pv
from streamcodecs.spark import pravega as spv

pytestmark = pytest.mark.spark

SCHEMA = "s string, at long, bytes string"


def _events(rng: random.Random, count: int, stream: str) -> list[bytes]:
    return [f"{stream}-{i}:".encode() + rng.randbytes(rng.randrange(0, 40)) for i in range(count)]


def _pieces(blob: bytes, cuts: list[int]) -> list[tuple[int, bytes]]:
    """``blob`` cut at ``cuts``: (offset, piece) each."""
    edges = [0, *cuts, len(blob)]
    return [(a, blob[a:b]) for a, b in zip(edges, edges[1:], strict=False) if b > a]


def _line(stream: str, at: int | None, data: bytes) -> str:
    return json.dumps({"s": stream, "at": at, "bytes": base64.b64encode(data).decode()})


def _drop(directory: Path, index: int, lines: list[str]) -> None:
    hidden = directory / f".part-{index}.tmp"
    hidden.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    hidden.rename(directory / f"part-{index:03d}.json")


def _exploded(df: Any, **options: Any) -> Any:
    pieces = df.select("s", "at", F.unbase64("bytes").alias("bytes"))
    return spv.explode_inline(pieces, data="bytes", offset="at", stream="s", **options)


def _start(spark: Any, source: Path, sink: Path, checkpoint: Path, trigger: str | None = None, **options: Any) -> Any:
    stream = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(source))
    query = _exploded(stream, **options).writeStream.format("parquet").option("path", str(sink))
    if trigger is not None:
        query = query.trigger(processingTime=trigger)
    return query.option("checkpointLocation", str(checkpoint)).outputMode("append").start()


def _wait_for(query: Any, done: Any, seconds: float = 600) -> None:
    """Until ``done()`` (a query with a timeout runs a micro-batch at every trigger, so it is never idle); the
    deadline only ends a test that would otherwise hang, nothing is asserted about how long it takes."""
    deadline = time.monotonic() + seconds
    while not done():
        assert query.exception() is None
        assert time.monotonic() < deadline, "the stream did not get there in time"
        time.sleep(0.5)


def _rows(spark: Any, sink: Path) -> list[Any]:
    return sorted(spark.read.parquet(str(sink)).collect(), key=lambda r: (r["s"], r["at"]))


def _plan(query: Any) -> str:
    """The physical plan of a running query's last micro-batch."""
    return str(query._jsq.streamingQuery().lastExecution().executedPlan().toString())


def test_events_cut_across_micro_batches_come_out_once_whole_after_a_restart(
    spark: Any, spark_path: str, tmp_path: Path
) -> None:
    rng = random.Random(14)
    events = {name: _events(rng, 12, name) for name in ("a", "b")}
    blobs = {name: b"".join(pv.encode_inline(pv.Event(data=e)) for e in found) for name, found in events.items()}
    base = {"a": 0, "b": 1000}
    # Every stream cut into four reads, each cut inside an event (the 1st in a header, the others in payloads).
    batches: list[list[str]] = [[] for _ in range(4)]
    for name, blob in blobs.items():
        first = len(pv.encode_inline(pv.Event(data=events[name][0])))
        cuts = [first + 3, len(blob) // 3 + 5, 2 * len(blob) // 3 + 1]
        for i, (at, piece) in enumerate(_pieces(blob, cuts)):
            batches[i].append(_line(name, base[name] + at, piece))
    for lines in batches:
        rng.shuffle(lines)
    source, sink, checkpoint = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoint"
    source.mkdir()
    _drop(source, 0, batches[0])
    query = _start(spark, source, sink, checkpoint)
    try:
        query.processAllAvailable()
        assert query.exception() is None
        plan = _plan(query)
        schema = _exploded(spark.readStream.schema(SCHEMA).json(str(source))).schema
    finally:
        query.stop()
    assert [(r["s"], r["message"]) for r in _rows(spark, sink)] == [("a", "Event"), ("b", "Event")]
    # The schema the Python path declares, on either path: the stream, its offset column, then INLINE's fields.
    assert schema == StructType([StructField("s", StringType()), StructField("at", LongType()), *spv.INLINE.fields[1:]])
    assert "FlatMapGroupsInPandasWithState" in plan  # the pieces gathered in Python, with the state store
    if spark_path == "jvm":  # then each whole frame decoded by the Java codec, no second Python step
        assert "streamcodecs_pravega_splitinline(" in plan and "MapInArrow" not in plan, plan
    # What the state store keeps per stream: where the cut frame starts, and its bytes so far (not the stream's).
    state = spark.read.format("statestore").load(str(checkpoint)).collect()
    kept = {r["key"]["s"]: r["value"]["groupState"] for r in state}
    assert set(kept) == {"a", "b"}
    for name, blob in blobs.items():
        first = len(pv.encode_inline(pv.Event(data=events[name][0])))
        assert (kept[name]["offset"], bytes(kept[name]["pending"]), kept[name]["broken"]) == (
            base[name] + first,
            blob[first : first + 3],
            None,
        )
    # The first micro-batch ended inside the 2nd event of each stream; start again on the same checkpoint.
    query = _start(spark, source, sink, checkpoint)
    try:
        for i, lines in enumerate(batches[1:], 1):
            _drop(source, i, lines)
            query.processAllAvailable()
        assert query.exception() is None
        batches_run = [p for p in query.recentProgress if p["numInputRows"] > 0]
    finally:
        query.stop()
    assert len(batches_run) == 3  # one micro-batch per file, each ending inside an event
    rows = _rows(spark, sink)
    assert [r for r in rows if r["error"] is not None] == []
    for name, blob in blobs.items():
        got = [r for r in rows if r["s"] == name]
        assert [bytes(r["event"]["data"]) for r in got] == events[name]  # each event once, whole, in order
        assert [bytes(e) for e in pv.split_events(blob)[0]] == events[name]  # the codec splits them alike
        offsets = [base[name]]
        for e in events[name][:-1]:
            offsets.append(offsets[-1] + 8 + len(e))
        assert [r["at"] for r in got] == offsets
    batch = _exploded(spark.read.schema(SCHEMA).json(str(source))).collect()
    assert sorted(map(repr, batch)) == sorted(map(repr, rows))  # a batch over the same pieces agrees


@pytest.mark.usefixtures("spark_path")
def test_a_piece_before_where_the_stream_stopped_is_a_problem_row_or_fails(spark: Any, tmp_path: Path) -> None:
    blob = b"".join(pv.encode_inline(pv.Event(data=p)) for p in (b"one", b"two", b"three"))
    source, sink = tmp_path / "in", tmp_path / "out"
    source.mkdir()
    _drop(source, 0, [_line("a", 0, blob[:13])])  # the 2nd event cut after 2 bytes
    query = _start(spark, source, sink, tmp_path / "checkpoint")
    try:
        query.processAllAvailable()
        _drop(source, 1, [_line("a", 11, blob[11:])])  # read again from the start of the 2nd event
        query.processAllAvailable()
        assert query.exception() is None
    finally:
        query.stop()
    got = [(r["at"], r["message"], r["error"]) for r in _rows(spark, sink)]
    assert got == [
        (0, "Event", None),
        (11, None, "data for offset 11, expected 13, losing the 2 bytes of a cut frame"),
        (11, "Event", None),  # the stream starts over where the piece starts
        (22, "Event", None),
    ]
    strict_source = tmp_path / "strict"
    strict_source.mkdir()
    _drop(strict_source, 0, [_line("a", 0, blob[:13])])
    strict = _start(spark, strict_source, tmp_path / "out2", tmp_path / "checkpoint2", mode="FAILFAST")
    try:
        strict.processAllAvailable()
        _drop(strict_source, 1, [_line("a", 11, blob[11:])])
        with pytest.raises(Exception, match="data for offset 11, expected 13"):
            strict.processAllAvailable()
    finally:
        strict.stop()


def _drop_in_order(directory: Path, files: list[list[str]], order: list[int]) -> None:
    """``files`` dropped at once, the file source to read them in ``order`` (of their indexes): it takes files by
    modification time, and files written within one millisecond in the directory's listing order."""
    for index, lines in enumerate(files):
        _drop(directory, index, lines)
    for rank, index in enumerate(order):
        os.utime(directory / f"part-{index:03d}.json", ns=(0, (1_700_000_000 + rank) * 1_000_000_000))


@pytest.mark.usefixtures("spark_path")
def test_pieces_read_out_of_order_wait_for_the_missing_one(spark: Any, tmp_path: Path) -> None:
    """Both pieces of an event already in the directory when the query starts, the later piece read in the first
    micro-batch: it waits in the state store, and the event comes out whole once the earlier piece arrives (this
    came out as ``data for offset 0, expected 22`` before: the first piece seen started the stream)."""
    blob = b"".join(pv.encode_inline(pv.Event(data=p)) for p in (b"one", b"two"))
    source, sink = tmp_path / "in", tmp_path / "out"
    source.mkdir()
    _drop_in_order(source, [[_line("a", 0, blob[:15])], [_line("a", 15, blob[15:])]], order=[1, 0])
    query = _start(spark, source, sink, tmp_path / "checkpoint", start=0)
    try:
        query.processAllAvailable()
        assert query.exception() is None
        batches_run = [p for p in query.recentProgress if p["numInputRows"] > 0]
    finally:
        query.stop()
    assert len(batches_run) == 2  # the piece at 15 alone first, then the one at 0
    rows = _rows(spark, sink)
    assert [(r["at"], bytes(r["event"]["data"]), r["error"]) for r in rows] == [(0, b"one", None), (11, b"two", None)]


@pytest.mark.usefixtures("spark_path")
def test_every_event_comes_out_once_whole_however_the_pieces_are_spread(spark: Any, tmp_path: Path) -> None:
    """Three streams cut at random bytes, the pieces shuffled over six files read one per micro-batch in a random
    order: each event once, whole, in order, as a batch over the same pieces gives them."""
    rng = random.Random(1414)
    events = {name: _events(rng, 10, name) for name in ("a", "b", "c")}
    pieces: list[str] = []
    for name, found in events.items():
        blob = b"".join(pv.encode_inline(pv.Event(data=e)) for e in found)
        cuts = sorted(rng.sample(range(1, len(blob)), 7))
        pieces += [_line(name, at, piece) for at, piece in _pieces(blob, cuts)]
    rng.shuffle(pieces)
    files = [pieces[i::6] for i in range(6)]
    order = list(range(6))
    rng.shuffle(order)
    source, sink = tmp_path / "in", tmp_path / "out"
    source.mkdir()
    _drop_in_order(source, files, order)
    query = _start(spark, source, sink, tmp_path / "checkpoint", start=0)
    try:
        query.processAllAvailable()
        assert query.exception() is None
        assert len([p for p in query.recentProgress if p["numInputRows"] > 0]) == 6
    finally:
        query.stop()
    rows = _rows(spark, sink)
    assert [r for r in rows if r["error"] is not None] == []
    for name, found in events.items():
        assert [bytes(r["event"]["data"]) for r in rows if r["s"] == name] == found
    batch = _exploded(spark.read.schema(SCHEMA).json(str(source)), start=0).collect()
    assert sorted(map(repr, batch)) == sorted(map(repr, rows))


@pytest.mark.usefixtures("spark_path")
def test_a_quiet_stream_is_closed_after_the_timeout(spark: Any, tmp_path: Path) -> None:
    """What comes out does not depend on when the timeout fires: the test waits for each outcome, however long
    the machine takes, and the streams are cut so that closing one earlier or later changes nothing."""
    blob = b"".join(pv.encode_inline(pv.Event(data=p)) for p in (b"one", b"two"))
    gapped = b"".join(pv.encode_inline(pv.Event(data=p)) for p in (b"one", b"two", b"three"))
    source, sink = tmp_path / "in", tmp_path / "out"
    source.mkdir()
    first = [
        _line("quiet", 0, blob[:15]),  # ends inside the 2nd event: its close is a problem
        _line("calm", 0, blob[:11]),  # ends at a frame: its close loses nothing
        _line("gap", 0, gapped[:13]),  # the 2nd event cut, the rest of it never comes ...
        _line("gap", 22, gapped[22:]),  # ... so the 3rd waits behind the gap until the close
    ]
    _drop(source, 0, first)
    timeout = datetime.timedelta(seconds=1)
    query = _start(spark, source, sink, tmp_path / "checkpoint", trigger="500 milliseconds", timeout=timeout)

    schema = _exploded(spark.read.schema(SCHEMA).json(str(source))).schema

    def count(stream: str, errors: bool = False) -> int:
        rows = [r for r in spark.read.schema(schema).parquet(str(sink)).collect() if r["s"] == stream]
        return sum(r["error"] is not None for r in rows) if errors else len(rows)

    try:
        _wait_for(query, lambda: count("quiet", errors=True) == 1 and count("gap", errors=True) == 1)  # closed
        # After the close, a piece starting at a frame starts "quiet" anew; "calm" goes on (closed or not).
        _drop(source, 1, [_line("quiet", 0, blob[11:]), _line("calm", 11, blob[11:])])
        _wait_for(query, lambda: count("quiet") == 3 and count("calm") == 2)
    finally:
        query.stop()
    rows = _rows(spark, sink)
    quiet = [(r["at"], r["event"] and bytes(r["event"]["data"]), r["error"]) for r in rows if r["s"] == "quiet"]
    assert sorted(quiet, key=repr) == sorted(
        [
            (0, b"one", None),
            (11, None, "the data ends inside a frame (4 of 8 bytes) (offset 11)"),  # closed by the timeout
            (0, b"two", None),  # a new stream after the close
        ],
        key=repr,
    )
    calm = [(r["at"], bytes(r["event"]["data"])) for r in rows if r["s"] == "calm"]
    assert calm == [(0, b"one"), (11, b"two")]
    gap = [(r["at"], r["event"] and bytes(r["event"]["data"]), r["error"]) for r in rows if r["s"] == "gap"]
    assert sorted(gap, key=repr) == sorted(
        [
            (0, b"one", None),
            (22, None, "data for offset 22, expected 13, losing the 2 bytes of a cut frame"),  # at the close
            (22, b"three", None),
        ],
        key=repr,
    )


def test_timeout_must_be_positive(spark: Any) -> None:
    frame = spark.createDataFrame([("a", 0, b"")], "s string, at long, bytes binary")
    with pytest.raises(ValueError, match="timeout"):
        spv.explode_inline(frame, data="bytes", offset="at", stream="s", timeout=datetime.timedelta(0))


def test_without_a_stream_column_all_pieces_are_one_stream(spark: Any, spark_path: str, tmp_path: Path) -> None:
    blob = b"".join(pv.encode_inline(pv.Event(data=p)) for p in (b"one", b"two", b"three"))
    source = tmp_path / "in"
    source.mkdir()
    _drop(source, 0, [_line("x", 0, blob[:5]), _line("y", 5, blob[5:14])])  # cut in the 1st and 2nd events
    stream = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(source))
    pieces = stream.select("at", F.unbase64("bytes").alias("bytes"))
    exploded = spv.explode_inline(pieces, data="bytes", offset="at")
    assert exploded.columns == ["at", *[f.name for f in spv.INLINE.fields[1:]]]
    name = f"streamcodecs_unkeyed_{spark_path}"
    query = exploded.writeStream.format("memory").queryName(name).outputMode("append").start()
    try:
        query.processAllAvailable()
        _drop(source, 1, [_line("z", 14, blob[14:])])
        query.processAllAvailable()
        assert query.exception() is None
    finally:
        query.stop()
    rows = sorted(spark.table(name).collect(), key=lambda r: r["at"])
    assert [(r["at"], bytes(r["event"]["data"]), r["error"]) for r in rows] == [
        (0, b"one", None),
        (11, b"two", None),
        (22, b"three", None),
    ]
