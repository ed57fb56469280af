"""The Java codec's MessagePack framing variant (Storm's ``serializer="msgpack"``), called directly through py4j:
every MessagePack vector of every version decodes as the Python codec decodes it and re-encodes byte for byte as
the Python codec re-encodes it (the current version's: its own bytes), malformed values are refused in the Python
codec's words at the same byte, and encode refuses what the Python codec refuses, in its words.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from py4j.protocol import Py4JJavaError
from spark_checks import VECTORS

pytestmark = pytest.mark.spark

msgpack = pytest.importorskip("msgpack", reason="the reference MessagePack writer (requirements.txt)")

MP = "msgpack"


def packed_vectors(protocol: str) -> list[dict[str, Any]]:
    """Every MessagePack vector of every version: version, message, direction and the value's bytes as ``data``."""
    found = []
    for manifest_path in sorted((VECTORS / protocol).glob(f"*/{MP}/manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        blob = (manifest_path.parent / manifest["file"]).read_bytes()
        for entry in manifest["vectors"]:
            data = blob[entry["offset"] : entry["offset"] + entry["length"]]
            found.append({**entry, "version": manifest_path.parent.parent.name, "data": data})
    return found


def java_decode(java: Any, data: bytes, direction: str | None) -> tuple[str | None, str | None]:
    """(message name, None) or (None, the error's message)."""
    try:
        return java.Codec.decode(bytearray(data), direction, MP).messageName(), None
    except Py4JJavaError as exc:
        return None, str(exc.java_exception.getMessage())


def java_reencoded(java: Any, data: bytes, direction: str | None) -> bytes | str:
    message = java.Codec.decode(bytearray(data), direction, MP)
    try:
        return bytes(java.Codec.encode(message, MP))
    except Py4JJavaError as exc:
        return str(exc.java_exception.getMessage())


def python_decode(codec: Any, data: bytes, direction: str | None) -> tuple[str | None, str | None]:
    try:
        return type(codec.decode(data, direction=direction, serializer=MP)).__name__, None
    except codec.DecodeError as exc:
        return None, str(exc)


def python_reencoded(codec: Any, data: bytes, direction: str | None) -> bytes | str:
    try:
        return codec.encode(codec.decode(data, direction=direction, serializer=MP), serializer=MP)
    except codec.EncodeError as exc:
        return str(exc)


@pytest.fixture(scope="module")
def storm(spark: Any) -> tuple[Any, Any]:
    from streamcodecs import storm as codec

    return codec, spark._jvm.streamcodecs.storm


def test_every_vector_decodes_and_the_current_version_reencodes_byte_for_byte(storm: tuple[Any, Any]) -> None:
    codec, java = storm
    found = packed_vectors("storm")
    assert len(found) >= 9 * 10
    same = 0
    for vector in found:
        data, direction = vector["data"], vector["direction"]
        for given in (direction, None):
            name, error = java_decode(java, data, given)
            assert error is None, (vector["version"], data[:200], error)
            assert name == python_decode(codec, data, given)[0], (vector["version"], given, data[:200])
        assert name == vector["message"] or direction is not None
        again = java_reencoded(java, data, direction)
        assert again == python_reencoded(codec, data, direction), (vector["version"], data[:200])
        if vector["version"] == codec.VERSION:
            assert again == data
            same += 1
    assert same >= 10


TS = b"\xd6\xff\x00\x00\x00\x01"
SYNC = msgpack.packb({"command": "sync"})
# Values refused (or read) in the Python codec's words, at its byte: syntax, types, shapes, places.
WORDED: list[bytes] = [
    b"",
    b"\xc1",
    b"\x92\x01\xc1",
    SYNC[:-1],
    SYNC + b"\x00",
    b"\x91" * 100000 + b"\x90",
    b"\x91" * 999 + b"\x90",
    b"\x91" * 997 + b"\x90" + b"\x91" * 2000 + b"\x90",  # a value within the depth, then a deeper one: trailing
    b"\x81\xa7command\xa4sy\xffc",
    b"\x82\xa7command\xa4emit\xa5tuple\x91\xa2\xc3\x28",
    b"\x81\x80\x01",
    b"\x82\xa7command\xa3ack\xa2id" + TS,
    b"\x83\xa7command\xa3log\xa3msg\xa1x\xa5level" + TS,
    b"\x82\xa7command\xa3ack\xa2id\xd4\xff\x00",
    b"\x82\xa7command\xa3ack\xa2id\xd4\xfe\x00",
    b"\x83\xa7command\xa7metrics\xa4name\xa1x\xa6params" + TS,
    b"\x83\xa7command\xa7metrics\xa4name\xa1x\xa6params\xd7\xff" + b"\xff" * 8,
    b"\x82\xa7command\xa4emit\xa5tuple\x91\xca\x7f\xc0\x00\x00",
    b"\x82\xa7command\xa4emit\xa5tuple\x91\xca\x3f\xc0\x00\x01",
    b"\x82\xa7command\xa4emit\xa5tuple\x92\xcf\xff\xff\xff\xff\xff\xff\xff\xff\xd3\x80\x00\x00\x00\x00\x00\x00\x00",
    b"\x81\xa7command\xc4\x04sync",
    b"\x81\xc4\x07command\xa4sync",
    b"\x83\xa7command\xa4emit\xa5tuple\x91\x01\x01\x02",
    b"\x82\xa3pid\x05\x01\x02",
    b"\x81\x05\x05",
    b"\xc4\x01x",
    b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00",
    msgpack.packb({"id": "1", "comp": "c", "stream": "s", "task": "x", "tuple": []}),
    msgpack.packb({"id": "1", "comp": "c", "stream": "s", "task": 2**31, "tuple": []}),
    msgpack.packb({"id": 1, "comp": "c", "stream": "s", "task": 1, "tuple": []}),
    msgpack.packb({"id": b"1", "comp": "c", "stream": "s", "task": 1, "tuple": []}, use_bin_type=True),
    msgpack.packb({"command": "fail"}),
    msgpack.packb({"pidDir": "/p", "conf": {}, "context": {}}),
    msgpack.packb({"pidDir": "/p", "conf": {1: 2}, "context": {"task->component": {}}}),
    msgpack.packb({"pidDir": "/p", "conf": {}, "context": {"task->component": {1: "x"}}}),
    msgpack.packb({"pidDir": "/p", "conf": {}, "context": {"task->component": {}, 1: 2}}),
    msgpack.packb({"command": "next", "id": "x"}),
    msgpack.packb({"command": "bogus"}),
    msgpack.packb({"command": None, "x": 1}),
    msgpack.packb({"comp": "c"}),
    msgpack.packb({str(i): i for i in range(12)}),
    msgpack.packb({}),
    msgpack.packb("just a string"),
    msgpack.packb(5),
    msgpack.packb(1.5),
    msgpack.packb(None),
    msgpack.packb([1, "two"]),
    msgpack.packb([1, 2**40]),
    msgpack.packb({"command": "emit", "tuple": 1}),
    msgpack.packb({"command": "emit", "tuple": [1], "anchors": "a"}),
    msgpack.packb({"command": "emit", "tuple": [1], "anchors": 5}),
    b"\x84\xa7command\xa4emit\xa5tuple\x91\x01\xa7anchors\x90\xa7anchors\x05",  # a repeated key: its last value
    msgpack.packb({"command": "emit", "tuple": [1], "need_task_ids": None}),
    msgpack.packb({"command": "emit", "tuple": [1], "task": 1.0}),
    msgpack.packb({"command": "log", "msg": "x", "level": 99}),
    msgpack.packb({"command": "log", "msg": "x", "level": 2**64 - 1}),
    msgpack.packb({"command": "log", "msg": "x", "level": -(2**63)}),
    msgpack.packb({"command": "log", "msg": "x", "level": True}),
    msgpack.packb({"id": "1", "comp": "__system", "stream": "__tick", "task": 3, "tuple": []}),
    msgpack.packb({"id": "1", "comp": "c", "stream": "__heartbeat", "task": -1, "tuple": []}),
    msgpack.packb({"id": "1", "comp": "c", "stream": "__heartbeat", "task": -1, "tuple": [1]}),
    msgpack.packb({"id": "1", "comp": "c", "stream": "s", "task": 1, "tuple": [], "extra": b"x"}, use_bin_type=True),
    msgpack.packb({"command": "emit", "tuple": [b"\x00\xff", {"k": [1.5, None, True]}, 2**63, -1]}),
    msgpack.packb({"command": "emit", "tuple": [{"b": 1, "a": 2}]}),
    msgpack.packb({"command": "ack", "id": {"m": 1}}, use_bin_type=True),
    # what JSON has no form for: refused wherever it is, but under a message's own key that is not a string
    msgpack.packb({"command": "emit", "tuple": ["v", {1: "one"}]}),
    msgpack.packb({"command": "emit", "tuple": [{"k": {b"k": 1}}], "task": "x"}, use_bin_type=True),
    msgpack.packb({"command": "emit", "tuple": [{"k": {(1, 2): 1}}]}),
    msgpack.packb({"command": "ack", "id": msgpack.ExtType(5, b"ab")}),
    msgpack.packb({"command": "emit", "tuple": [1], "stream": msgpack.ExtType(5, b"ab")}),
    msgpack.packb({"command": "emit", "tuple": [1], 3: msgpack.ExtType(5, b""), 4: {1: 2}}),
    msgpack.packb({"id": "1", "comp": "c", "stream": "s", "task": 1, "tuple": [], 1.5: None}),
    msgpack.packb({5: 5}),
    msgpack.packb({"conf": {"a": [None, {2: 3}]}, "pidDir": "/p", "context": {"task->component": {}}}),
]


def test_values_are_refused_in_the_python_codecs_words_at_its_byte(storm: tuple[Any, Any]) -> None:
    codec, java = storm
    for data in WORDED:
        for direction in (None, *codec.DIRECTIONS):
            wanted_name, wanted = python_decode(codec, data, direction)
            name, error = java_decode(java, data, direction)
            assert (name, error) == (wanted_name, wanted), (data[:80], direction)


TIMESTAMPS = [
    (1_600_000_000, 123_456_789),
    (10, 499),
    (10, 500),
    (10, 2_500),
    (10, 999_999_500),  # rounded into the next second
    (-1, 999_999_500),
    (253_402_300_799, 999_999_499),
    (253_402_300_799, 999_999_500),  # rounded into the year 10000: refused
    (-62_135_596_801, 999_999_999),  # before the year 1, rounded into it: refused
]


def test_timestamps_keep_the_python_codecs_microseconds(storm: tuple[Any, Any]) -> None:
    """msgspec rounds a timestamp's nanoseconds to the nearest microsecond (a half up): the Java codec holds and
    writes back the same instant, and refuses what the bounds refuse alike."""
    codec, java = storm
    for seconds, nanos in TIMESTAMPS:
        data = msgpack.packb({"command": "emit", "tuple": [msgpack.Timestamp(seconds, nanos)]})
        assert java_decode(java, data, None) == python_decode(codec, data, None), (seconds, nanos)
        if python_decode(codec, data, None)[1] is None:
            assert java_reencoded(java, data, None) == python_reencoded(codec, data, None), (seconds, nanos)


def _java_encode(java: Any, codec: Any, message: Any) -> bytes | str:
    """The Java codec's MessagePack of a message the Python codec holds (built from its JSON framing)."""
    try:
        decoded = java.Codec.decode(bytearray(codec.encode(message)), None)
    except Py4JJavaError as exc:
        return "not JSON: " + str(exc.java_exception.getMessage())
    try:
        return bytes(java.Codec.encode(decoded, MP))
    except Py4JJavaError as exc:
        return str(exc.java_exception.getMessage())


def test_encode_writes_and_refuses_as_the_python_codec(storm: tuple[Any, Any]) -> None:
    codec, java = storm
    deep: list[Any] = []
    inner = deep
    for _ in range(996):  # the deepest both framings take (the message and its tuple around it)
        inner.append([])
        inner = inner[0]
    for values in ([[2**63, -(2**63)]], [[2**64 - 1]], [deep], [1, "x", None, True, 1.5, {"a": [1]}]):
        message = codec.Emit(values=values, anchors=["a"], need_task_ids=False)
        try:
            wanted: bytes | str = codec.encode(message, serializer=MP)
        except codec.EncodeError as exc:
            wanted = str(exc)
        assert _java_encode(java, codec, message) == wanted, str(values)[:80]


def test_an_unknown_serializer_is_refused_in_the_python_codecs_words(storm: tuple[Any, Any]) -> None:
    codec, java = storm
    with pytest.raises(ValueError) as python:
        codec.decode(SYNC, serializer="cbor")
    with pytest.raises(Exception) as jvm:  # (py4j gives an IllegalArgumentException as pyspark's)
        java.Codec.decode(bytearray(SYNC), None, "cbor")
    assert str(python.value) in str(jvm.value)
    assert list(java.Codec.SERIALIZERS) == list(codec.SERIALIZERS)
