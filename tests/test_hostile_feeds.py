"""Readers and decode fed the bytes of a stream in any object with the buffer protocol: a view of other items than
unsigned bytes (int32, signed bytes) or a non-contiguous one reads as the bytes ``bytes(view)`` gives, in every
protocol alike. They read the view's items instead, or could not take it: a Pravega Reader fed a view of int32 raised
struct.error and IndexError (not a DecodeError), a non-contiguous view gave BufferError (Pravega, Storm's MessagePack)
or "can't concat memoryview to bytearray" (KCL, Storm's JSON)."""

from __future__ import annotations

import array
from collections.abc import Callable
from typing import Any

import pytest
from spark_checks import vectors
from streamcodecs import kcl, pravega, storm

# (protocol, codec, options, what pads a stream without adding a message: a frame cut short, a blank line)
READERS = [
    ("pravega", pravega, {}, b"\x00"),
    ("kcl", kcl, {}, b"\n"),
    ("storm", storm, {}, b"\n"),
    ("storm", storm, {"serializer": "msgpack"}, b"\x91"),
]


def _views(stream: bytes, pad: bytes) -> dict[str, Callable[[], Any]]:
    padded = stream + pad * (-len(stream) % 4)
    return {
        "int32": lambda: memoryview(padded).cast("i"),
        "int32 array": lambda: _int_array(padded),
        "signed bytes": lambda: memoryview(stream).cast("b"),
        "non-contiguous": lambda: memoryview(bytes(x for b in stream for x in (b, 0)))[::2],
    }


def _int_array(data: bytes) -> array.array[int]:
    items = array.array("i")
    items.frombytes(data)
    return items


@pytest.mark.parametrize(
    ("protocol", "codec", "options", "pad"), READERS, ids=["pravega", "kcl", "storm", "storm-msgpack"]
)
def test_a_reader_reads_any_buffer_as_its_bytes(protocol: str, codec: Any, options: dict[str, str], pad: bytes) -> None:
    cases = vectors(protocol)
    for direction in sorted({c.get("direction") for c in cases}):
        frames = [c["data"] for c in cases if c.get("direction") == direction]
        if options:  # the same messages in the MessagePack framing
            frames = [codec.encode(codec.decode(f, direction=direction), **options) for f in frames]
        want = [codec.decode(f, direction=direction, **options) for f in frames]
        stream = b"".join(frames)
        for name, view in _views(stream, pad).items():
            reader = codec.Reader(direction=direction, **options)
            assert reader.feed(view()) == want, (direction, name)
            assert reader.feed(b"") == []


def test_pravega_decode_reads_any_buffer_as_its_bytes() -> None:
    for case in vectors("pravega")[:200]:
        frame, direction = case["data"], case.get("direction")
        want = pravega.decode(frame, direction=direction)
        for view in (memoryview(frame).cast("b"), memoryview(bytes(x for b in frame for x in (b, 0)))[::2]):
            assert pravega.decode(view, direction=direction) == want
        if len(frame) % 4 == 0:
            assert pravega.decode(memoryview(frame).cast("i"), direction=direction) == want


@pytest.mark.parametrize("value", ["text", 5, None, [1, 2]])
def test_what_has_no_bytes_is_a_type_error_naming_feed(value: Any) -> None:
    for _, codec, options, _ in READERS:
        with pytest.raises(TypeError, match="feed takes bytes"):
            codec.Reader(**options).feed(value)


def test_cloudevents_reads_a_structured_value_in_any_buffer_as_its_bytes() -> None:
    """A structured record's value, or decode's frame, in a non-contiguous view: msgspec raised BufferError (not a
    DecodeError) where a binary record's value, KCL's decode and every Reader read its bytes."""
    from streamcodecs import cloudevents

    text = b'{"specversion":"1.0","id":"1","source":"/s","type":"t","data":{"a":[1,"\\u00e9"]}}'
    spread = memoryview(bytes(x for b in text for x in (b, 0)))[::2]
    structured = [("content-type", b"application/cloudevents+json")]
    want = cloudevents.decode(text)
    assert cloudevents.decode(spread) == want
    assert cloudevents.from_json(spread) == want
    assert cloudevents.from_kafka(cloudevents.KafkaRecord(None, spread, structured)) == want
    assert cloudevents.from_json(memoryview(text).cast("b")) == want


def _header_views(value: bytes) -> dict[str, Any]:
    """A header value's bytes in other buffers than bytes (each ``bytes(view)`` gives them back)."""
    views = {
        "bytearray": bytearray(value),
        "memoryview": memoryview(value),
        "signed bytes": memoryview(value).cast("b"),
        "non-contiguous": memoryview(bytes(x for b in value for x in (b, 0)))[::2],
    }
    if len(value) % 4 == 0:
        views["int32"] = memoryview(value).cast("i")
        views["int32 array"] = _int_array(value)
    return views


def _outcome(codec: Any, record: Any) -> Any:
    try:
        return codec.from_kafka(record)
    except codec.DecodeError as exc:
        return ("refused", exc.reason, exc.field)


def test_cloudevents_reads_binary_mode_header_values_in_any_buffer_as_their_bytes() -> None:
    """A binary-mode header value in a memoryview (or any other buffer) reads as its bytes: decoded, or refused,
    as the same bytes are. A memoryview was refused ("headers must be (str, bytes or None) pairs") where a bytearray
    was read. The Java codec takes a header value as a byte[], those bytes (test_cloudevents_java.py compares it
    with the Python codec on every record here)."""
    from streamcodecs import cloudevents
    from test_cloudevents_conformance import CASES, record_of
    from test_spark_cloudevents import MALFORMED

    records = [record_of(c) for c in CASES]
    records += [cloudevents.KafkaRecord(None, value, headers or []) for _, headers, value, _ in MALFORMED]
    records += [  # ids of four bytes (an int32 view holds them): text, and not UTF-8
        cloudevents.KafkaRecord(None, b"x", [("ce_specversion", b"1.0"), ("ce_id", v), ("ce_source", b"/s")])
        for v in (b"1234", b"\xff\xfe\x00\x01")
    ]
    tried = 0
    for record in records:
        want = _outcome(cloudevents, record)
        headers = list(record.headers)
        for i, (name, value) in enumerate(headers):
            if value is None:
                continue
            for kind, view in _header_views(value).items():
                given = [*headers[:i], (name, view), *headers[i + 1 :]]
                got = _outcome(cloudevents, cloudevents.KafkaRecord(record.key, record.value, given))
                assert got == want, (name, value, kind)
                assert cloudevents.content_mode(cloudevents.KafkaRecord(None, None, given)) == (
                    cloudevents.content_mode(record)
                ), (name, value, kind)
                tried += 1
    assert tried > 100
