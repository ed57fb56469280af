"""Pravega (binary family) in Spark: decode and encode against the Python codec, and inline frames (events).

Each comparison runs on both paths: the JVM path (the Java codec's UDFs, the default in a session with the jar) and
the Python fallback (Arrow UDFs calling the Python codec, ``spark.streamcodecs.jvm`` = ``"false"``). One DataFrame
holds every compatibility vector of every version, hand-made malformed frames and seeded fuzzed frames; one query
decodes it with no direction and with each direction, encodes, and decodes again, and every row is compared with
the codec. A second DataFrame holds SegmentRead replies of several segments, cut at random bytes and shuffled;
one query decodes them and reassembles the events, compared with the codec's own EventReader.
"""

from __future__ import annotations

import dataclasses
import random
import re
import sys
import uuid
from typing import Any

import pytest
from pyspark.sql import functions as F
from spark_checks import PYTHON_NODES, plain, plan_nodes, plan_text, python_decode, spark_decoded, vectors
from streamcodecs import pravega as pv
from streamcodecs.spark import _jvm
from streamcodecs.spark import pravega as spv

pytestmark = pytest.mark.spark

WRITER = uuid.UUID("00000000-0000-0001-0000-000000000002")


def _frame(code: int, payload: bytes, length: int | None = None) -> bytes:
    return (
        code.to_bytes(4, "big", signed=True)
        + (len(payload) if length is None else length).to_bytes(4, "big", signed=True)
        + payload
    )


KEEP_ALIVE = pv.encode(pv.KeepAlive())
SETUP = pv.encode(pv.SetupAppend(request_id=1, writer_id=WRITER, segment="s/t/0", delegation_token=""))

# A SetupAppend whose segment name is an unpaired surrogate (ED A0 80): the codec keeps it, as Java does.
UNFIT = pv.encode(pv.SetupAppend(request_id=1, writer_id=WRITER, segment="\ud800", delegation_token=""))

# Malformed frames and a word the error must contain; the codec refuses each one too.
MALFORMED: list[tuple[bytes, str]] = [
    (b"", "shorter than the 8-byte header"),
    (b"\x00\x00\x00", "shorter than the 8-byte header"),
    (_frame(999_999, b""), "unknown type code 999999"),
    (_frame(0, b"event"), "never a top-level frame"),
    (_frame(100, b"", length=-5), "payload length -5"),
    (_frame(100, b"", length=1 << 30), "payload length"),
    (SETUP[:-3], "runs past"),
    (KEEP_ALIVE + b"\x00", "follow the frame"),
    (SETUP[: 8 + 8 + 16] + b"\xff\xff" + SETUP[8 + 8 + 16 + 2 :], "string"),
    (b"garbage garbage garbage", "payload length"),
]


def _fuzzed(count: int, seed: int = 7) -> list[bytes]:
    """Frames broken at random: truncated, bytes flipped, lengths rewritten, junk appended, or plain noise."""
    rng = random.Random(seed)
    frames = [v["data"] for v in vectors("pravega")]
    out = []
    for _ in range(count):
        data = bytearray(rng.choice(frames))
        how = rng.randrange(5)
        if how == 0 and data:
            del data[rng.randrange(len(data)) :]
        elif how == 1:
            for _ in range(rng.randint(1, 4)):
                if data:
                    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif how == 2 and len(data) >= 8:
            data[4:8] = rng.randrange(-(2**31), 2**31).to_bytes(4, "big", signed=True)
        elif how == 3:
            data += bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        else:
            data = bytearray(rng.randrange(256) for _ in range(rng.randint(0, 64)))
        out.append(bytes(data))
    return out


def _codec_error(data: bytes, direction: str | None) -> str | None:
    return python_decode(pv, data, direction)[2]


def _lone_surrogate(value: Any) -> bool:
    """Text holding an unpaired surrogate (Java modified UTF-8 allows it; a Spark string, UTF-8, cannot hold it)."""
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(_lone_surrogate(v) for v in value.values())
    if isinstance(value, list):
        return any(_lone_surrogate(v) for v in value)
    return False


def _same_as_codec(row: Any, data: bytes, direction: str | None) -> None:
    """Spark's decoded row is what the codec decodes: the same message and values, or the same DecodeError text;
    a message with text Spark cannot hold is a row error naming the field."""
    name, fields, error = python_decode(pv, data, direction)
    got = spark_decoded(spv, row)
    if name is not None and _lone_surrogate(fields):
        assert got[0] is None and f"`{name}." in got[2] and "not representable in Spark" in got[2], got
        return
    assert got[:2] == (name, fields), (direction, data[:64])
    assert (None if got[2] is None else f"pravega: {got[2]}") == error, (direction, data[:64])
    if name is None:
        assert [row[kind.column] for kind in spv._KINDS.values()] == [None] * len(spv._KINDS)


PATHS = ["jvm", "python"]


def _choose(spark: Any, path: str) -> None:
    spark.conf.set(_jvm.CONF, "true" if path == "jvm" else "false")


@pytest.fixture(params=PATHS)
def path(spark: Any, request: pytest.FixtureRequest) -> Any:
    """The test builds its query on this path (the JVM, or the Python fallback)."""
    _choose(spark, request.param)
    try:
        yield request.param
    finally:
        _choose(spark, "jvm")


@pytest.fixture(scope="module", params=PATHS)
def decoded(spark: Any, request: pytest.FixtureRequest) -> dict[str, Any]:
    """Every vector, the malformed frames and the fuzzed ones, decoded (no direction and each direction), encoded
    and decoded again in one query, on one path."""
    _choose(spark, request.param)
    try:
        return _decoded(spark) | {"path": request.param}
    finally:
        _choose(spark, "jvm")


def _decoded(spark: Any) -> dict[str, Any]:
    rows: list[tuple[str, str | None, bytes | None]] = [
        ("vector", v["direction"], v["data"]) for v in vectors("pravega")
    ]
    rows += [("malformed", None, data) for data, _ in MALFORMED]
    rows += [("fuzzed", None, data) for data in _fuzzed(3000)]
    rows += [("unfit", None, UNFIT), ("null", None, None)]
    frame = spark.createDataFrame(
        [(i, *row) for i, row in enumerate(rows)], "i int, kind string, direction string, data binary"
    )
    once = spv.decode("data")
    wire = spv.encode(once)["data"]
    columns = [once.alias("any"), wire.alias("wire"), spv.decode(wire).alias("again")]
    columns += [spv.decode("data", direction=d).alias(d) for d in spv.DIRECTIONS]
    query = frame.select("i", *columns)
    out = query.orderBy("i").collect()
    return {"rows": rows, "out": out, "frame": frame, "query": query}


def test_every_vector_decodes_as_the_codec_decodes(decoded: dict[str, Any]) -> None:
    checked = 0
    for (kind, direction, data), row in zip(decoded["rows"], decoded["out"], strict=True):
        if kind != "vector":
            continue
        for label, given in [("any", None), *[(d, d) for d in spv.DIRECTIONS]]:
            _same_as_codec(row[label], data, given)
            checked += 1
        assert row[direction]["error"] is None and row[direction]["message"] is not None  # its own direction
    assert checked == len(vectors("pravega")) * (1 + len(spv.DIRECTIONS))
    messages = {
        row["any"]["message"]
        for (kind, _, _), row in zip(decoded["rows"], decoded["out"], strict=True)
        if kind == "vector"
    }
    assert messages == set(spv._KINDS)  # every message kind of the protocol came through


def test_encode_writes_what_the_codec_writes(decoded: dict[str, Any]) -> None:
    encoded = 0
    for (_, _, data), row in zip(decoded["rows"], decoded["out"], strict=True):
        if row["any"] is None or row["any"]["message"] is None:
            assert row["wire"] is None  # nothing to encode for a malformed (or null) row
            continue
        assert bytes(row["wire"]) == pv.encode(pv.decode(data)), data[:64]
        assert spark_decoded(spv, row["again"]) == spark_decoded(spv, row["any"])
        encoded += 1
    assert encoded >= len(vectors("pravega"))


def test_malformed_rows_in_permissive_mode(decoded: dict[str, Any]) -> None:
    malformed = [
        (data, row) for (kind, _, data), row in zip(decoded["rows"], decoded["out"], strict=True) if kind == "malformed"
    ]
    assert len(malformed) == len(MALFORMED)
    for (data, row), (_, word) in zip(malformed, MALFORMED, strict=True):
        assert _codec_error(data, None) is not None, data  # the codec refuses it too
        assert row["any"]["message"] is None
        assert word in row["any"]["error"], (data, row["any"]["error"])
        _same_as_codec(row["any"], data, None)


def test_fuzzed_rows_decode_as_the_codec_decodes(decoded: dict[str, Any]) -> None:
    fuzzed = [
        (data, row) for (kind, _, data), row in zip(decoded["rows"], decoded["out"], strict=True) if kind == "fuzzed"
    ]
    assert len(fuzzed) == 3000
    for data, row in fuzzed:
        for label, given in [("any", None), *[(d, d) for d in spv.DIRECTIONS]]:
            _same_as_codec(row[label], data, given)
    bad = sum(row["any"]["message"] is None for _, row in fuzzed)
    assert 1000 < bad < 3000  # most are refused, some still decode (the job went on either way)


def test_text_spark_cannot_hold_is_a_row_error(decoded: dict[str, Any]) -> None:
    (row,) = [row for (kind, _, _), row in zip(decoded["rows"], decoded["out"], strict=True) if kind == "unfit"]
    assert pv.decode(UNFIT).segment == "\ud800"  # the codec keeps it
    assert row["any"]["message"] is None and row["any"]["setup_append"] is None
    assert row["any"]["error"].startswith("`SetupAppend.segment`: not representable in Spark")
    _same_as_codec(row["any"], UNFIT, None)


def test_a_null_frame_gives_a_null_row(decoded: dict[str, Any]) -> None:
    (row,) = [row for (kind, _, _), row in zip(decoded["rows"], decoded["out"], strict=True) if kind == "null"]
    assert row["any"] is None and row["wire"] is None


def test_failfast_fails_with_the_rows_problem(spark: Any, decoded: dict[str, Any]) -> None:
    _choose(spark, decoded["path"])
    try:
        _failfast(spark, decoded)
    finally:
        _choose(spark, "jvm")


def _failfast(spark: Any, decoded: dict[str, Any]) -> None:
    frame = decoded["frame"]
    good = frame.where("kind = 'vector'")
    assert good.select(spv.decode("data", mode="FAILFAST").alias("d")).where("d.error IS NOT NULL").count() == 0
    bad_data = SETUP[:-3]
    bad = good.unionByName(spark.createDataFrame([(10**6, "bad", None, bad_data)], frame.schema))
    with pytest.raises(Exception, match="runs past") as failure:
        bad.select(spv.decode("data", mode="FAILFAST").alias("d")).collect()
    assert "pravega: " in str(failure.value) and bad_data[:8].hex() in str(failure.value)


def test_decoded_rows_have_the_declared_schema(decoded: dict[str, Any]) -> None:
    schema = decoded["frame"].select(spv.decode("data").alias("d")).schema["d"].dataType
    assert schema == spv.DECODED
    names = [f.name for f in spv.DECODED.fields]
    assert names[0] == "message" and names[-1] == "error"
    assert names[1:-1] == [kind.column for kind in spv._KINDS.values()]
    for name, kind in spv._KINDS.items():
        wanted = spv.SCHEMAS[name] if spv.SCHEMAS[name].fields else spv.DECODED[kind.column].dataType
        assert spv.DECODED[kind.column].dataType == wanted
    assert set(spv.SCHEMAS) == set(pv.MESSAGES)  # every message of the codec has its schema
    for name, schema in spv.SCHEMAS.items():
        assert schema.names == [f.name for f in dataclasses.fields(pv.MESSAGES[name])]
    assert "Event" in spv.SCHEMAS and "Event" not in spv._KINDS  # inline only: never a decoded frame


def test_the_plan_runs_the_java_udfs_or_is_vectorised(decoded: dict[str, Any]) -> None:
    plan = plan_text(decoded["query"])
    if decoded["path"] == "jvm":
        assert not set(plan_nodes(decoded["query"])) & set(PYTHON_NODES)  # no Python worker at all
        assert "streamcodecs_pravega_decode(" in plan and "streamcodecs_pravega_encode(" in plan
    else:
        assert "ArrowEvalPython" in plan
        assert "BatchEvalPython" not in plan  # no pickled row UDF


def test_encode_refuses_what_the_codec_refuses(spark: Any, path: str) -> None:
    """Null data and an error naming the field by default; with on_error=FAILFAST the query fails."""
    row = spark.createDataFrame([(SETUP,)], "data binary").select(spv.decode("data").alias("d"))
    cases = [
        ("setup_append.writer_id", F.lit("not-a-uuid"), "`SetupAppend.writer_id`: not a UUID: 'not-a-uuid'"),
        ("message", F.lit("Bogus"), "unknown message Bogus"),
        ("setup_append.request_id", F.lit(None).cast("bigint"), "`SetupAppend.request_id`"),
        ("setup_append", F.lit(None).cast(spv.SETUP_APPEND_SCHEMA), "`setup_append`: null for message SetupAppend"),
    ]
    for field, value, error in cases:
        changed = row.select(F.col("d").withField(field, value).alias("d"))
        ((got,),) = changed.select(spv.encode("d")).collect()
        assert got["data"] is None and got["error"].startswith(error), (field, got["error"])
        with pytest.raises(Exception, match="pravega: cannot encode: " + re.escape(error)):
            changed.select(spv.encode("d", on_error="FAILFAST")).collect()
    ((fine,),) = row.select(spv.encode("d")).collect()
    assert (bytes(fine["data"]), fine["error"]) == (SETUP, None)


def _refusal(message: Any) -> str:
    with pytest.raises(pv.EncodeError) as refused:
        pv.encode(message)
    return f"`{refused.value.field}`: {refused.value.reason}"


def test_encode_refuses_a_constant_and_a_range_in_the_codecs_words(spark: Any, path: str) -> None:
    """A constant holding another value (the frame would carry the constant) and an integer outside its wire type
    (a bigint column where an int32 belongs) are refused as the codec refuses them, in the JSON families' words."""
    event = pv.InlineEvent(type_code=0, data=b"x")
    append = pv.ConditionalAppend(writer_id=WRITER, event_number=1, expected_offset=2, event=event, request_id=3)
    hello = pv.Hello(high_version=5, low_version=4)
    cases = [  # the message, the column changed, the value given, the message as the codec is given it
        (
            append,
            "conditional_append.event.type_code",
            1,
            dataclasses.replace(append, event=pv.InlineEvent(type_code=1, data=b"x")),
        ),
        (hello, "hello.high_version", 2**31, dataclasses.replace(hello, high_version=2**31)),
        (hello, "hello.low_version", -(2**31) - 1, dataclasses.replace(hello, low_version=-(2**31) - 1)),
    ]
    for message, field, value, changed in cases:
        error = _refusal(changed)
        row = spark.createDataFrame([(pv.encode(message),)], "data binary").select(spv.decode("data").alias("d"))
        ((got,),) = row.select(spv.encode(F.col("d").withField(field, F.lit(value)))).collect()
        assert (got["data"], got["error"]) == (None, error), field
    assert "Invalid enum value 1" in _refusal(
        dataclasses.replace(append, event=dataclasses.replace(event, type_code=1))
    )
    assert "Expected `int` <= 2147483647" in _refusal(dataclasses.replace(hello, high_version=2**31))


def test_unknown_direction_and_mode_are_refused() -> None:
    with pytest.raises(ValueError, match="direction"):
        spv.decode("data", direction="sideways")
    with pytest.raises(ValueError, match="mode"):
        spv.decode("data", mode="DROPMALFORMED")
    with pytest.raises(ValueError, match="mode"):
        spv.split_inline("data", mode="DROPMALFORMED")
    assert plain([1, bytearray(b"x")]) == [1, b"x"]


# ---------------------------------------------------------------- events in segment data

BASE = {"scope/a/0": 0, "scope/a/1": 4096, "scope/b/0": 1 << 40}


def _events(rng: random.Random, count: int) -> list[bytes]:
    sizes = [0, 1, 7, 8, 9, 100, 3000]
    return [bytes(rng.randrange(256) for _ in range(rng.choice(sizes))) for _ in range(count)]


def _reads(segment: str, blob: bytes, rng: random.Random, pieces: int) -> list[pv.SegmentRead]:
    """The segment's bytes as SegmentRead replies cut at random bytes (some inside headers, some empty)."""
    cuts = sorted(rng.choices(range(len(blob) + 1), k=pieces - 1))
    bounds = [0, *cuts, len(blob)]
    return [
        pv.SegmentRead(
            segment=segment,
            offset=BASE[segment] + a,
            at_tail=b == len(blob),
            end_of_segment=False,
            data=blob[a:b],
            request_id=i,
        )
        for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False))
    ]


@pytest.fixture(scope="module", params=PATHS)
def segments(spark: Any, request: pytest.FixtureRequest) -> dict[str, Any]:
    """Three good segments; their replies shuffled among control frames; events reassembled in one query."""
    _choose(spark, request.param)
    try:
        return _segments(spark) | {"path": request.param}
    finally:
        _choose(spark, "jvm")


def _segments(spark: Any) -> dict[str, Any]:
    rng = random.Random(11)
    events = {name: _events(rng, 60) for name in BASE}
    reads = {
        name: _reads(name, b"".join(pv.encode_inline(pv.Event(data=e)) for e in evs), rng, 40)
        for name, evs in events.items()
    }
    frames = [pv.encode(r) for rs in reads.values() for r in rs] + [KEEP_ALIVE, SETUP] * 5
    rng.shuffle(frames)
    frame = spark.createDataFrame([(f,) for f in frames], "frame binary")
    replies = frame.select(spv.decode("frame").alias("d")).where("d.message = 'SegmentRead'").select("d.segment_read.*")
    exploded = spv.explode_inline(replies, data="data", offset="offset", stream="segment")
    return {"events": events, "reads": reads, "exploded": exploded, "rows": exploded.collect()}


def test_explode_gives_the_events_the_codec_reader_gives(segments: dict[str, Any]) -> None:
    rows = segments["rows"]
    assert [r for r in rows if r["error"] is not None] == []
    for name, replies in segments["reads"].items():
        reader = pv.EventReader(segment=name, offset=BASE[name])
        expected = [bytes(e) for reply in replies for e in reader.feed(reply)]
        assert expected == segments["events"][name]  # the codec's reader agrees with what was written
        got = sorted((r for r in rows if r["segment"] == name), key=lambda r: r["offset"])
        assert [r["message"] for r in got] == ["Event"] * len(expected)
        assert [bytes(r["event"]["data"]) for r in got] == expected
        offsets = [BASE[name]]
        for e in expected[:-1]:
            offsets.append(offsets[-1] + 8 + len(e))
        assert [r["offset"] for r in got] == offsets


def test_explode_schema_and_plan(segments: dict[str, Any]) -> None:
    exploded = segments["exploded"]
    assert exploded.columns == ["segment", "offset", *[f.name for f in spv.INLINE.fields[1:]]]
    assert exploded.schema["event"].dataType == spv.EVENT_SCHEMA
    plan = plan_text(exploded)
    assert "MapInArrow" in plan  # the stream's state machine, in Python
    if segments["path"] == "jvm":
        assert "streamcodecs_pravega_decode(" in plan and "streamcodecs_pravega_splitinline(" in plan
        assert "ArrowEvalPython" not in plan  # the replies and the events decoded on the JVM
    else:
        assert "ArrowEvalPython" in plan
    assert "BatchEvalPython" not in plan


def _blob(*payloads: bytes) -> bytes:
    return b"".join(pv.encode_inline(pv.Event(data=p)) for p in payloads)


def test_explode_reports_broken_streams(spark: Any, path: str) -> None:
    good = _blob(b"one", b"two", b"three")
    pieces = [
        ("gap", 0, good[:13]),  # event "one" whole, then 2 bytes of the next header
        ("gap", 22, good[22:]),  # bytes 13..21 never read: the next read starts at the third event
        ("bad", 0, good[:11] + _frame(7, b"xyz")),  # a frame that is not an event, after a whole event
        ("bad", 22, good[11:]),  # read after the bad header: not readable
        ("cut", 0, good[:-2]),  # the stream ends two bytes early
        ("fine", 5, good),
    ]
    frame = spark.createDataFrame(pieces, "s string, at int, bytes binary")
    rows = spv.explode_inline(frame, data="bytes", offset="at", stream="s").collect()
    by = {
        name: sorted((r for r in rows if r["s"] == name), key=lambda r: r["at"])
        for name in ("gap", "bad", "cut", "fine")
    }
    assert [(r["at"], r["message"]) for r in by["fine"]] == [(5, "Event"), (16, "Event"), (27, "Event")]
    assert [bytes(r["event"]["data"]) for r in by["fine"]] == [b"one", b"two", b"three"]
    gap = [(r["at"], r["message"], r["error"]) for r in by["gap"]]
    assert gap[0] == (0, "Event", None)
    assert gap[1] == (22, None, "data for offset 22, expected 13, losing the 2 bytes of a cut frame")
    assert [(r["at"], r["message"]) for r in by["gap"][2:]] == [(22, "Event")]  # starts over at the new read
    bad = [(r["at"], r["error"]) for r in by["bad"]]
    assert bad[0] == (0, None)
    assert bad[1] == (11, "type code 7 is not an inline frame (Event) (offset 11)")
    assert bad[2][1].startswith("not read: the stream is unreadable after the bad frame header at offset 11")
    assert [r["error"] for r in by["cut"]][-1] == "the data ends inside a frame (11 of 13 bytes) (offset 22)"
    with pytest.raises(Exception, match="data for offset 22, expected 13"):
        spv.explode_inline(frame.where("s = 'gap'"), data="bytes", offset="at", stream="s", mode="FAILFAST").collect()


def test_split_matches_the_codec_split(spark: Any, path: str) -> None:
    rng = random.Random(5)
    blob = _blob(*_events(rng, 30))
    values = [blob, blob[: len(blob) // 2], b"", _frame(3, b"x") + blob, None]
    frame = spark.createDataFrame([(i, v) for i, v in enumerate(values)], "i int, v binary")
    out = frame.select("i", spv.split_inline("v").alias("f")).orderBy("i").collect()
    for value, row in zip(values, out, strict=True):
        if value is None:
            assert row["f"] is None
            continue
        try:
            events, used = pv.split_events(value)
        except pv.DecodeError as exc:  # the codec's rule for inline frames, in the same words
            assert [e["message"] for e in row["f"]] == [None]
            assert row["f"][0]["error"] == "type code 3 is not an inline frame (Event) (offset 0)"
            assert str(exc) == "pravega: type code 3 is not an inline frame (Event) (offset 0, field SegmentRead.data)"
            continue
        whole = [e for e in row["f"] if e["message"] == "Event"]
        assert [bytes(e["event"]["data"]) for e in whole] == events
        problems = [e["error"] for e in row["f"] if e["error"] is not None]
        assert len(problems) == (0 if used == len(value) else 1)
        if problems:
            assert problems[0].startswith("the data ends inside a frame") and f"(offset {used})" in problems[0]
    with pytest.raises(Exception, match="ends inside a frame"):
        frame.where("i = 1").select(spv.split_inline("v", mode="FAILFAST")).collect()


# ---------------------------------------------------------------- the template knows no protocol

SIBLING = """\
protocol: blip
title: Blip
family: binary
versions: ["1"]
directions: [{name: up}, {name: down}]
framing:
  {byte_order: big, code_type: int32, length_type: int32, list_count: int32, bytes_length: int32, max_frame: 4096}
enums:
  - name: Mood
    type: int16
    values: [{name: CALM, value: 0}, {name: LOUD, value: 7}]
    unknown: keep
types:
  - name: Tag
    fields:
      - {name: id, type: uuid}
      - {name: weight, type: float64}
messages:
  - name: Note
    code: 5
    directions: [up]
    fields:
      - {name: who, type: uuid}
      - {name: mood, type: Mood}
      - {name: tags, type: list<Tag>}
      - {name: text, type: string}
  - name: Ping
    code: 6
    directions: [up, down]
    fields: []
  - name: Chunk
    code: 9
    directions: [down]
    inline_only: true
    fields:
      - {name: seq, type: int16}
      - {name: body, type: rest}
"""


@pytest.fixture(scope="module")
def sibling(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Another binary protocol through the same template, shipped to the workers as a zip (addPyFile)."""
    import importlib
    import shutil
    import subprocess
    import sys

    from streamcodecs_gen.cli import main as generate

    root = tmp_path_factory.mktemp("blip")
    (root / "defs").mkdir()
    (root / "defs" / "blip.yaml").write_text(SIBLING, encoding="utf-8")
    out = root / "out"
    assert generate(["-p", str(root / "defs"), "-r", str(out), "-n", "blip_codecs", "--no-binary", "-q"]) == 0
    spark_module = out / "blip_codecs" / "spark" / "blip.py"
    text = spark_module.read_text(encoding="utf-8")
    for word in ("pravega", "Pravega", "Segment", "Event"):
        assert word not in text, word
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(spark_module)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=out,
    )
    assert lint.returncode == 0, lint.stdout
    spark.sparkContext.addPyFile(shutil.make_archive(str(root / "blip_codecs"), "zip", out, "blip_codecs"))
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("blip_codecs.blip"), importlib.import_module("blip_codecs.spark.blip")
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m.split(".")[0] == "blip_codecs"]:
            del sys.modules[name]  # another test generates a package of its own from another definition


def test_a_sibling_protocol_decodes_encodes_and_splits(spark: Any, sibling: Any) -> None:
    codec, module = sibling
    assert "Chunk" in module.SCHEMAS and "Chunk" not in module._KINDS
    note = codec.Note(who=WRITER, mood=7, tags=[codec.Tag(id=uuid.UUID(int=5), weight=0.5)], text="hé")
    strange = codec.Note(who=WRITER, mood=3, tags=[], text="")  # an open enum keeps an unknown value
    frames = [
        codec.encode(note),
        codec.encode(strange),
        codec.encode(codec.Ping()),
        b"\x00\x00\x00\x09\x00\x00\x00\x00",
    ]
    chunks = b"".join(codec.encode_inline(codec.Chunk(seq=i, body=bytes([i]) * i)) for i in range(4))
    frame = spark.createDataFrame([(f, chunks) for f in frames], "f binary, c binary")
    spark_package = sys.modules[module.__name__.rpartition(".")[0]]
    # The shared session has streamcodecs' jar, not the sibling's: its functions say so once and take the Python path.
    with pytest.warns(spark_package.JvmPathWarning, match="has no streamcodecs-spark.jar"):
        d = module.decode("f")
    rows = frame.select(
        d.alias("d"), module.encode(d)["data"].alias("w"), module.split_inline("c").alias("s")
    ).collect()
    for data, row in zip(frames, rows, strict=True):
        name, fields, error = python_decode(codec, data, None)
        got = spark_decoded(module, row["d"])
        assert got[:2] == (name, fields)
        assert (None if got[2] is None else f"blip: {got[2]}") == error
        assert (bytes(row["w"]) if row["w"] is not None else None) == (
            codec.encode(codec.decode(data)) if name else None
        )
        assert [(e["offset"], e["chunk"]["seq"], bytes(e["chunk"]["body"])) for e in row["s"]] == [
            (sum(10 + j for j in range(i)), i, bytes([i]) * i) for i in range(4)
        ]
    assert rows[0]["d"]["note"]["tags"][0]["id"] == str(uuid.UUID(int=5))
    assert rows[3]["d"]["error"].startswith("Chunk (type 9) is never a top-level frame")
