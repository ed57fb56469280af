"""Storm's MessagePack framing in Spark (``storm.decode``/``storm.encode`` with ``serializer="msgpack"``), on both
paths: the Java codec's ``DecodePacked``/``EncodePacked`` UDFs and the Arrow fallback calling the Python codec.

One DataFrame holds every MessagePack vector of every version, values whose free-form fields hold what JSON cannot
(bytes, NaN and infinities, timestamps, integers beyond a long) and malformed values. Both paths must give the same
rows, VARIANTs byte for byte (the fallback builds their binary form in Python), the Python codec's values and
words, and encode what the codec encodes; a streaming DataFrame gives what a batch one gives.
"""

from __future__ import annotations

import decimal
import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.sql.types import VariantVal
from spark_checks import VECTORS, on_path, plain
from streamcodecs import storm as codec
from streamcodecs._runtime.messages import instant_out_of_range
from streamcodecs.spark import storm

pytestmark = pytest.mark.spark

msgpack = pytest.importorskip("msgpack", reason="the reference MessagePack writer (requirements.txt)")

MP = "msgpack"
PATHS = ("jvm", "fallback")
_names = (f"streamcodecs_storm_msgpack_{i}" for i in itertools.count())


def packed_vectors() -> list[tuple[str, bytes]]:
    """(direction, value) of every MessagePack vector of every version."""
    found = []
    for manifest_path in sorted((VECTORS / "storm").glob(f"*/{MP}/manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        blob = (manifest_path.parent / manifest["file"]).read_bytes()
        for entry in manifest["vectors"]:
            found.append((entry["direction"], blob[entry["offset"] : entry["offset"] + entry["length"]]))
    return found


def _packed(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


_ODD = [
    b"\x00\xff",
    b"",
    float("nan"),
    float("inf"),
    float("-inf"),
    -0.0,
    1.5,
    msgpack.Timestamp(1_600_000_000, 123_456_000),
    msgpack.Timestamp(1_600_000_000, 123_456_789),  # nanoseconds: the codec keeps microseconds, rounded
    msgpack.Timestamp(10, 500),
    msgpack.Timestamp(10, 2_499),
    msgpack.Timestamp(10, 999_999_500),  # rounded into the next second
    msgpack.Timestamp(253_402_300_799, 999_999_499),  # the last microsecond of 9999
    msgpack.Timestamp(-62_135_596_800, 0),  # the first second of the year 1
    msgpack.Timestamp(-1, 999_999_000),
    2**64 - 1,
    2**63,
    -(2**63),
    127,
    -129,
    70_000,
    2**40,
    "x" * 100,
    "é☃",
    None,
    True,
    {"b": 1, "a": [None, b"\x01", {"z": float("nan")}], "é": {}, "\uffff": 5, "😀": 4},  # sorted as Java sorts
    list(range(300)),
    {f"k{i:03}": i for i in range(300)},
]
"""Free-form values that JSON text cannot carry, or that a VARIANT lays out in more than one way."""

EXTRA: list[tuple[str, bytes]] = [
    ("to_storm", _packed({"command": "emit", "tuple": _ODD, "id": b"\x07", "stream": "s"})),
    ("to_storm", _packed({"command": "emit", "tuple": [[[[[b"deep"]]]]], "id": msgpack.Timestamp(0, 0)})),
    ("to_storm", _packed({"command": "metrics", "name": "m", "params": {"b": b"\x00", "n": float("nan")}})),
    ("to_component", _packed({"id": "1", "comp": "c", "stream": "s", "task": 3, "tuple": _ODD})),
    ("to_component", _packed({"command": "ack", "id": 2**64 - 1})),
    ("to_component", _packed({"command": "fail", "id": float("-inf")})),
    (
        "to_component",
        _packed(
            {
                "conf": {"t": msgpack.Timestamp(5, 0), "b": b"z"},
                "pidDir": "/p",
                "context": {"task->component": {"1": "c"}},
            }
        ),
    ),
]
"""Messages whose free-form fields hold the values above (each a whole MessagePack value)."""

MALFORMED: list[bytes] = [
    b"",
    b"\xc1",
    b"\x81\xa7command",  # cut short
    _packed({"command": "sync"}) + b"\x00",  # trailing bytes
    _packed({"command": "emit"}),  # no tuple
    _packed({"command": "emit", "tuple": [{1: 2}]}),  # a map key that is not a string
    _packed({"command": "emit", "tuple": [msgpack.ExtType(5, b"xy")]}),  # an extension other than the timestamp
    b"\x82\xa7command\xa4emit\xa5tuple\x91\xa2\xff\xfe",  # not UTF-8
    _packed({"command": "emit", "tuple": [1]})[:-1] + b"\xdd\xff\xff\xff\xff",  # a huge array, cut short
    _packed({"command": "log", "msg": "x", "level": "high"}),
    _packed({"command": "next", "id": 5}),
    _packed({"command": 5}),
    _packed([1, "x"]),
    _packed(7),
    b"\x91" * 1001 + b"\xc0",  # nested too deeply
    _packed({"command": "emit", "tuple": [msgpack.Timestamp(253_402_300_799, 999_999_500)]}),  # rounded into 10000
    _packed({"command": "emit", "tuple": [msgpack.Timestamp(253_402_300_800, 0)]}),
    _packed({"command": "emit", "tuple": [msgpack.Timestamp(-62_135_596_801, 999_999_999)]}),
    _packed({"command": "emit", "tuple": [0]})[:-1] + b"\x91" * 999 + b"\xc0",  # 1001 deep with the message's map
]
"""Values the codec refuses: both paths must refuse each in its words."""


def exact(value: Any) -> Any:
    """A Spark value with each VARIANT as its bytes (value and metadata), rows as dicts: equal only if equal in
    every byte."""
    if isinstance(value, Row):
        return {k: exact(v) for k, v in value.asDict().items()}
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [exact(v) for v in value]
    if isinstance(value, VariantVal):
        return ("VARIANT", bytes(value.value), bytes(value.metadata))
    if isinstance(value, bytearray):
        return bytes(value)
    return value


def _integral(value: Any) -> Any:
    """A plain value with a VARIANT's decimal without a fraction (an integer beyond a long) as the integer it is."""
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, decimal.Decimal) and value == value.to_integral_value():
        return int(value)
    return value


def canonical(value: Any) -> str:
    """A plain value as text that NaN equals itself in, and that ignores the order of a map's keys."""
    return json.dumps(_integral(plain(value)), sort_keys=True, default=repr)


def codec_decoded(data: bytes, direction: str | None) -> tuple[str | None, str | None, str | None]:
    """(message name, canonical fields, None) or (None, None, the error as a row words it), as the codec decodes."""
    try:
        message = codec.decode(data, direction=direction, serializer=MP)
    except codec.DecodeError as exc:
        return None, None, str(exc).removeprefix("storm: ")
    return type(message).__name__, canonical_message(message), None


def canonical_message(message: Any) -> str:
    fields = message.to_dict()
    for name in message.__struct_fields__:  # to_dict leaves out a removed field the peer did not send
        fields.setdefault(name, None)  # (Spark reads it as null)
    return canonical(fields)


def spark_row(row: Any) -> tuple[str | None, str | None, str | None]:
    if row["message"] is None:
        return None, None, row["error"]
    fields = plain(row[storm._KINDS[row["message"]].column])
    return row["message"], canonical({} if fields is True else fields), row["error"]


def _rows() -> list[tuple[str | None, bytes]]:
    return packed_vectors() + EXTRA + [(None, data) for data in MALFORMED]


@pytest.fixture(scope="module")
def decoded(spark: Any) -> dict[str, list[Any]]:
    """Per path, in one query: decode without direction, with each direction, the encoded wire and its decode."""
    rows = _rows()
    frame = spark.createDataFrame(
        [(i, d, data) for i, (d, data) in enumerate(rows)], "i int, direction string, data binary"
    )
    out = {}
    for path in PATHS:
        with on_path(spark, path):
            once = storm.decode("data", serializer=MP)
            wire = storm.encode(once, serializer=MP)
            columns = [once.alias("any"), wire.alias("wire")]
            columns += [storm.decode("data", direction=d, serializer=MP).alias(d) for d in storm.DIRECTIONS]
            columns += [storm.decode(wire["data"], serializer=MP).alias("again")]
            out[path] = frame.select("i", *columns).orderBy("i").collect()
    return out


def test_both_paths_give_the_same_rows_byte_for_byte(decoded: dict[str, list[Any]]) -> None:
    jvm, fallback = decoded["jvm"], decoded["fallback"]
    assert len(jvm) == len(fallback) == len(_rows())
    for (_, data), a, b in zip(_rows(), jvm, fallback, strict=True):
        assert exact(a) == exact(b), data[:200]


def test_every_value_decodes_as_the_codec_decodes_it(decoded: dict[str, list[Any]]) -> None:
    checked = 0
    for path in PATHS:
        for (direction, data), row in zip(_rows(), decoded[path], strict=True):
            for label, given in [("any", None), *[(d, d) for d in storm.DIRECTIONS]]:
                assert spark_row(row[label]) == codec_decoded(data, given), (path, label, data[:200])
                checked += 1
            if direction is not None:
                assert row[direction]["message"] is not None, data[:200]
    assert checked == 2 * len(_rows()) * (1 + len(storm.DIRECTIONS))


@pytest.mark.parametrize("path", PATHS)
def test_the_odd_values_keep_their_types(decoded: dict[str, list[Any]], path: str) -> None:
    emit = decoded[path][len(packed_vectors())]["any"]["emit"]
    values = [None if v is None else v.toPython() for v in emit["values"]]
    assert values[0] == b"\x00\xff" and values[1] == b""
    assert math.isnan(values[2]) and values[3] == math.inf and values[4] == -math.inf
    times = [str(values[_ODD.index(t)]) for t in _ODD if isinstance(t, msgpack.Timestamp)]
    assert times[:5] == [
        "2020-09-13 12:26:40.123456+00:00",
        "2020-09-13 12:26:40.123457+00:00",
        "1970-01-01 00:00:10.000001+00:00",
        "1970-01-01 00:00:10.000002+00:00",
        "1970-01-01 00:00:11+00:00",
    ]
    assert values[_ODD.index(2**64 - 1)] == 2**64 - 1
    assert values[_ODD.index(None)] is None  # a nil in an array: a SQL null, as the JSON framing's null
    assert emit["id"].toPython() == b"\x07"


def test_malformed_values_get_the_same_words_on_both_paths(decoded: dict[str, list[Any]]) -> None:
    first = len(_rows()) - len(MALFORMED)
    for path in PATHS:
        for data, row in zip(MALFORMED, decoded[path][first:], strict=True):
            words = codec_decoded(data, None)[2]
            assert words is not None, data[:200]
            assert row["any"]["message"] is None
            assert row["any"]["error"] == words, (path, data[:200])
            assert row["wire"]["data"] is None and row["wire"]["error"] is None


def test_encode_writes_what_the_codec_writes(decoded: dict[str, list[Any]]) -> None:
    """The wire decodes to the message decoded; a vector's wire is the codec's own bytes (a VARIANT keeps an object's
    keys sorted, so a map written in another order comes back sorted)."""
    written = 0
    for path in PATHS:
        for i, ((direction, data), row) in enumerate(zip(_rows(), decoded[path], strict=True)):
            try:
                message = codec.decode(data, direction=direction, serializer=MP)
            except codec.DecodeError:
                continue
            try:
                wanted = codec.encode(message, serializer=MP)
            except codec.EncodeError as exc:
                assert row["wire"]["error"] == str(exc).removeprefix("storm: "), (path, data[:200])
                continue
            assert row["wire"]["error"] is None, (path, data[:200])
            wire = bytes(row["wire"]["data"])
            again = codec.decode(wire, direction=direction, serializer=MP)
            assert canonical_message(again) == canonical_message(message), (path, data[:200])
            if i < len(packed_vectors()):
                assert wire == wanted, (path, data[:200])
                assert exact(row["again"]) == exact(row["any"]), (path, data[:200])
            assert spark_row(row["again"]) == spark_row(row["any"]), (path, data[:200])
            written += 1
    assert written >= 2 * (len(packed_vectors()) + len(EXTRA)) - 4


def _decoded_row(message: str, column: str, value: Any) -> Any:
    """A DECODED row (as ``encode`` reads it) naming ``message``, ``value`` in ``column``, nulls elsewhere."""
    fields = []
    for f in storm._ENCODED_FROM.fields:
        if f.name == "message":
            fields.append(F.lit(message).alias(f.name))
        elif f.name == column:
            fields.append(
                value.cast(f.dataType).alias(f.name)
                if value is not None
                else F.lit(None).cast(f.dataType).alias(f.name)
            )
        else:
            fields.append(F.lit(None).cast(f.dataType).alias(f.name))
    return F.struct(*fields)


def _emit(values: str) -> Any:
    """An Emit row (as ``encode`` reads it) whose tuple is the SQL array ``values`` of VARIANTs."""
    return F.expr(
        f"named_struct('values', {values}, 'anchors', array('a'), 'id', parse_json('1'), 'stream', 's', 'task', 1,"
        " 'need_task_ids', true)"
    )


# VARIANT timestamps Spark holds beyond the years a Python datetime (and the codec's MessagePack decode) holds: the
# first microsecond of 10000, the last before 0001, and the largest and smallest Spark TIMESTAMP
_TIMES_BEYOND = [253_402_300_800_000_000, -62_135_596_800_000_001, 2**63 - 1, -(2**63)]


def test_encode_refuses_alike_on_both_paths(spark: Any) -> None:
    """Rows the codec cannot encode in MessagePack: a VARIANT integer beyond 64 bits, a null message column, a
    VARIANT timestamp outside the years 0001 to 9999 (which the codec could not decode again), deep in an object."""
    beyond = f"cast(timestamp_micros({_TIMES_BEYOND[0]}) as variant)"
    rows = [
        _decoded_row("Emit", "emit", _emit("array(parse_json('123456789012345678901234567890'))")),
        _decoded_row("Ack", "ack", None),
        *[_decoded_row("Emit", "emit", _emit(f"array(cast(timestamp_micros({m}) as variant))")) for m in _TIMES_BEYOND],
        _decoded_row(
            "Emit",
            "emit",
            _emit(f"array(to_variant_object(named_struct('t', array(cast(1 as variant), {beyond}))))"),
        ),
    ]
    got = {}
    for path in PATHS:
        with on_path(spark, path):
            frame = spark.range(1).select(*[storm.encode(r, serializer=MP).alias(f"r{i}") for i, r in enumerate(rows)])
            got[path] = exact(frame.first())
    assert got["jvm"] == got["fallback"]
    assert all(r["data"] is None and r["error"] for r in got["jvm"].values()), got
    for i, micros in enumerate(_TIMES_BEYOND, start=2):
        assert got["jvm"][f"r{i}"]["error"] == f"Emit.tuple[0]: {instant_out_of_range(micros=micros)}"
    nested = f"Emit.tuple[0][...][1]: {instant_out_of_range(micros=_TIMES_BEYOND[0])}"  # (a map's value: [...])
    assert got["jvm"][f"r{2 + len(_TIMES_BEYOND)}"]["error"] == nested


def test_an_unknown_serializer_is_refused_in_the_codecs_words() -> None:
    with pytest.raises(ValueError) as theirs:
        codec.decode(b"", serializer="pickle")
    for call in (lambda: storm.decode("data", serializer="pickle"), lambda: storm.encode("d", serializer="pickle")):
        with pytest.raises(ValueError) as ours:
            call()
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("path", PATHS)
def test_a_streaming_dataframe_gives_what_a_batch_one_gives(spark: Any, tmp_path: Path, path: str) -> None:
    rows = _rows()
    source = tmp_path / "in"
    source.mkdir()
    schema = "i int, data binary"
    chunks = [rows[: len(rows) // 2], rows[len(rows) // 2 :]]
    offset = 0
    for n, chunk in enumerate(chunks):
        part = spark.createDataFrame([(offset + i, data) for i, (_, data) in enumerate(chunk)], schema)
        part.coalesce(1).write.parquet(str(tmp_path / f"part{n}"))
        offset += len(chunk)

    def query(df: Any) -> Any:
        d = storm.decode("data", serializer=MP)
        return df.select("i", d.alias("d"), storm.encode(d, serializer=MP)["data"].alias("wire"))

    with on_path(spark, path):
        stream = spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).parquet(str(source))
        name = next(_names)
        running = query(stream).writeStream.format("memory").queryName(name).outputMode("append").start()
        try:
            for n in range(len(chunks)):
                for f in (tmp_path / f"part{n}").glob("*.parquet"):
                    f.rename(source / f"part{n}.parquet")
                running.processAllAvailable()
            assert running.exception() is None
        finally:
            running.stop()
        streamed = sorted((exact(r) for r in spark.table(name).collect()), key=lambda r: r["i"])
        batch = sorted(
            (exact(r) for r in query(spark.read.schema(schema).parquet(str(source))).collect()), key=lambda r: r["i"]
        )
    assert streamed == batch
    assert len(batch) == len(rows)
    assert sum(r["d"]["error"] is not None for r in batch) == len(MALFORMED)


def test_the_sql_functions_take_the_serializer(spark: Any, decoded: dict[str, list[Any]]) -> None:
    """``storm_decode(data, direction, mode, serializer)`` and ``storm_encode(message, on_error, serializer)``: the
    Python functions' rows; an unknown serializer is refused in the codec's words."""
    rows = _rows()
    frame = spark.createDataFrame([(i, data) for i, (_, data) in enumerate(rows)], "i int, data binary")
    frame.createOrReplaceTempView("storm_msgpack_rows")
    out = spark.sql(
        "SELECT i, storm_decode(data, NULL, 'PERMISSIVE', 'msgpack') AS any,"
        " storm_encode(storm_decode(data, NULL, 'permissive', 'msgpack'), 'PERMISSIVE', 'msgpack') AS wire,"
        " storm_decode(data, 'to_storm', 'PERMISSIVE', 'json') AS json"
        " FROM storm_msgpack_rows ORDER BY i"
    ).collect()
    for row, python in zip(out, decoded["jvm"], strict=True):
        assert exact(row["any"]) == exact(python["any"])
        assert exact(row["wire"]) == exact(python["wire"])
        assert row["json"]["message"] is None or row["json"]["message"] == "Sync"  # as JSON, hardly ever a message
    with pytest.raises(ValueError) as theirs:
        codec.decode(b"", serializer="cbor")
    for call in (
        "storm_decode(data, NULL, 'PERMISSIVE', 'cbor')",
        "storm_encode(storm_decode(data), 'PERMISSIVE', 'cbor')",
    ):
        with pytest.raises(Exception, match=re.escape(str(theirs.value))):
            spark.sql(f"SELECT {call} FROM storm_msgpack_rows").collect()


@pytest.mark.parametrize("path", PATHS)
def test_failfast_fails_with_the_rows_problem(spark: Any, path: str) -> None:
    good = [data for _, data in packed_vectors()[:20]]
    bad = _packed({"command": "log", "msg": "x", "level": "high"})
    words = codec_decoded(bad, None)[2]
    assert words is not None
    with on_path(spark, path):
        frame = spark.createDataFrame([(d,) for d in good], "data binary")
        strict = storm.decode("data", mode="FAILFAST", serializer=MP).alias("d")
        assert frame.select(strict).where("d.error IS NOT NULL").count() == 0
        with pytest.raises(Exception, match=re.escape(words)):
            frame.union(spark.createDataFrame([(bad,)], "data binary")).select(strict).collect()
