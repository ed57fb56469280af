"""Every DecodeError of the JSON family names its offset (the guide: bad input gets "the codec's own DecodeError
naming offset and field"): a text cut short is refused where more input was needed, its end (in a MessagePack
Reader, as a stream offset). The Java codec gives the same offsets (tests/test_java_json.py, and the differential
fuzzer, which compares truncations word for word)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from streamcodecs import cloudevents, kcl, storm

KCL_LINE = b'{"action":"initialize","shardId":"shard-\\u00e9","sequenceNumber":"12","subSequenceNumber":3}'
STORM_TEXT = b'{"command":"emit","id":"1","stream":"s","task":9,"tuple":[1,"a",{"k":[true,null,1.5]}]}'
EVENT = (
    b'{"specversion":"1.0","id":"1","source":"/s","type":"t","datacontenttype":"application/json",'
    b'"data":{"a":[1,"\\ud83d\\ude00",false]}}'
)


def _cut_short(text: bytes) -> list[bytes]:
    """The prefixes of ``text`` msgspec calls truncated (not merely malformed)."""
    found = []
    for end in range(len(text) + 1):
        try:
            msgspec.json.decode(text[:end])
        except msgspec.DecodeError as exc:
            if str(exc) == "Input data was truncated":
                found.append(text[:end])
    return found


@pytest.mark.parametrize("cut", _cut_short(KCL_LINE))
def test_a_kcl_line_cut_short_is_refused_at_its_end(cut: bytes) -> None:
    _truncated_at(kcl, cut, len(cut))
    if not cut.strip():
        return  # a blank line, which a Reader skips
    reader = kcl.Reader()
    with pytest.raises(kcl.DecodeError) as caught:
        reader.feed(b"\n" + cut + b"\n")
    assert (caught.value.line, caught.value.offset) == (2, len(cut))  # in a Reader: the offset in its line


@pytest.mark.parametrize("cut", _cut_short(STORM_TEXT))
def test_a_storm_message_cut_short_is_refused_at_its_end(cut: bytes) -> None:
    if not cut.strip() or cut + b"\n" not in _cut_short(cut + b"\n"):
        return  # the empty message; or a string or literal that its line's end makes malformed, not cut short
    _truncated_at(storm, cut + b"\nend\n", len(cut))  # the JSON text stops before the line end of its end line


# Frames whose refusal is at the end of the JSON text, or after a CRLF line end (which a Reader reads as LF)
STORM_FRAMES = [
    b'{"command":"emit","tuple":[1,\nend\n',
    b'{"command":"emit","tuple":[1,\r\nend\r\n',
    b'{"command":"emit",\r\n"tuple":[1,\r\n\r\nend\r\n',
    b'{"command":"emit",\r\n"tuple":[1],\r\n"task":x}\r\nend\r\n',
    b'{"command":"emit",\r\n"tuple":[1],\r\n"task":"x"}\r\nend\r\n',
    b'{"command":"emit",\r\r\n"tuple":[1],"task":"x"}\nend\n',
    b"\nend\n",
    b"\r\nend\r\n",
    b"end\n",
]


@pytest.mark.parametrize("frame", STORM_FRAMES)
def test_storm_decode_refuses_a_frame_where_a_reader_refuses_it(frame: bytes) -> None:
    """decode() reads a frame's text as a Reader cuts it out of a stream: the same words, at the same offset."""
    with pytest.raises(storm.DecodeError) as decoded:
        storm.decode(frame)
    with pytest.raises(storm.DecodeError) as read:
        storm.Reader().feed(frame)
    assert (decoded.value.reason, decoded.value.offset) == (read.value.reason, read.value.offset)


@pytest.mark.parametrize("cut", _cut_short(EVENT))
def test_an_event_cut_short_is_refused_at_its_end(cut: bytes) -> None:
    _truncated_at(cloudevents, cut, len(cut))


def _truncated_at(codec: Any, data: bytes, offset: int) -> None:
    """``codec.decode(data)`` refuses a JSON text cut short, at ``offset``."""
    with pytest.raises(codec.DecodeError) as caught:
        codec.decode(data)
    assert caught.value.reason == "malformed JSON: Input data was truncated"
    assert caught.value.offset == offset


def test_a_messagepack_value_cut_short_is_refused_at_its_end() -> None:
    whole = storm.encode(storm.Emit(values=[1, "a", {"k": [True, None]}], stream="s"), serializer="msgpack")
    for end in range(len(whole)):
        with pytest.raises(storm.DecodeError) as caught:
            storm.decode(whole[:end], serializer="msgpack")
        assert caught.value.reason == "malformed MessagePack: Input data was truncated"
        assert caught.value.offset == end


def test_the_text_names_the_offset() -> None:
    with pytest.raises(kcl.DecodeError, match=r"^kcl: malformed JSON: Input data was truncated \(offset 3\)$"):
        kcl.decode(b'{"a')


# ---------------------------------------------------------------- a refused value, a missing field, no message
# msgspec names the field but no offset: the offset is the field's value (a missing field: the object lacking it; no
# message: the value itself), found again in the text, as the Java codec finds it.
REFUSED = [
    (kcl, b'{"foo":1}', 0, "action"),
    (kcl, b'  {"foo":1}', 2, "action"),
    (kcl, b'{"action":"bogus"}', 10, "action"),
    (kcl, b" [1]", 1, None),
    (kcl, b'{"action":"processRecords","records":[ {"sequenceNumber":"1"}]}', 39, "records[0].data"),
    (kcl, b'{"action":"processRecords","records":[{"data":"QQ","partitionKey":"p","sequenceNumber":"1"}]}', 46, None),
    (kcl, b'{"action":"initialize","shardId":5,"shardId":"a"}', 33, "shardId"),  # the typed path: the first
    # a repeated key: the typed path reads each in turn and refuses the first it cannot take, not the first there is
    (kcl, b'{"action":"checkpoint","checkpoint":"1","checkpoint":5}', 53, "checkpoint"),
    (kcl, b'{"action":"checkpoint","checkpoint":"1","checkpoint":"2","checkpoint":5,"checkpoint":6}', 70, "checkpoint"),
    (kcl, b'{"checkpoint":"1", "che\\u0063kpoint" : 5,"action":"checkpoint"}', 39, "checkpoint"),
    (kcl, b'{"action":"processRecords","records":[],"records":[{"data":"QQ==","data":5}]}', 73, "records[0].data"),
    (
        kcl,
        b'{"action":"processRecords","records":[{"data":"QQ==","partitionKey":"p","sequenceNumber":"1"}],'
        b'"records":[{"data":"QQ==","partitionKey":"p","sequenceNumber":"1"},{"data":"QQ==","partitionKey":"p"}]}',
        162,  # the object that lacks it, in the second records
        "records[1].sequenceNumber",
    ),
    # a repeated tag: the first picks the message, the first other value is the one refused
    (kcl, b'{"action":"status","action":"x"}', 28, "action"),
    (kcl, b'{"action":"status","action":5}', 28, "action"),
    (kcl, b'{"action":"status", "action":"st\\u0061tus", "action":"y"}', 53, "action"),
    (kcl, b'{"action":"bogus","action":"status"}', 10, "action"),  # the first is no message's: refused itself
    (kcl, b'{"action":"shutdown","reason":"SOMETIMES"}', 30, "reason"),
    (kcl, b'{"act\\u0069on":"initialize","shardId":5}', 38, "shardId"),
    (storm, b'{"foo":1}\nend\n', 0, None),
    (storm, b'\n {"foo":1}\nend\n', 2, None),
    (storm, b'{"command":"emit"}\nend\n', 0, "tuple"),
    (storm, b'{"command":"emit","tuple":[1],"anchors":[],"anchors":5}\nend\n', 53, "anchors[0]"),  # the last, as read
    (storm, b'{"command":"emit","tuple":[1],"anchors":["a", 7]}\nend\n', 46, "anchors[1]"),
    (storm, b'[1, "x"]\nend\n', 4, "taskIds[1]"),  # the array is the message's one field
    (storm, b'{"conf":{},"pidDir":"/tmp","context":{}}\nend\n', 37, "context.task->component"),
    (
        storm,
        b'{"pidDir":"/p","conf":{},"context":{"task->component":{},'
        b'"stream->target->grouping":{"s":{"t":{"type":"RANDOM"}}}}}\nend\n',
        84,  # a map's entries are not named: the map
        "context.stream->target->grouping[...][...].type",
    ),
    (storm, b'{"command":"emit","tuple":[],"anchors":1e400}\nend\n', 39, "anchors[0]"),  # a lone scalar for a list
]


@pytest.mark.parametrize(("codec", "frame", "offset", "field"), REFUSED)
def test_a_refused_value_is_named_where_it_is(codec: object, frame: bytes, offset: int, field: str | None) -> None:
    with pytest.raises(codec.DecodeError) as caught:  # type: ignore[attr-defined]
        codec.decode(frame)  # type: ignore[attr-defined]
    assert caught.value.offset == offset, str(caught.value)
    if field is not None:
        assert caught.value.field == field
    reader = codec.Reader()  # type: ignore[attr-defined]
    with pytest.raises(codec.DecodeError) as caught:  # type: ignore[attr-defined]
        reader.feed(frame if codec is storm else frame + b"\n")
    assert caught.value.offset == offset  # in a Reader: the offset in the message's text


PACKED = [
    ({"command": "emit", "tuple": [1], "anchors": 5}, b"\x05", "anchors[0]"),
    ([1, "x"], b"\xa1x", "taskIds[1]"),
    ({"command": "emit"}, b"\x81", "tuple"),
    ({"conf": {}, "pidDir": "/tmp", "context": {}}, b"\x80", "context.task->component"),
    ({"foo": 1}, b"\x81", None),
]


@pytest.mark.parametrize(("value", "there", "field"), PACKED)
def test_a_refused_messagepack_value_is_named_where_it_is(value: object, there: bytes, field: str | None) -> None:
    data = msgspec.msgpack.encode(value)
    with pytest.raises(storm.DecodeError) as caught:
        storm.decode(data, serializer="msgpack")
    assert data[caught.value.offset :].startswith(there)
    assert caught.value.field == field
    first = storm.encode(storm.Sync(), serializer="msgpack")
    with pytest.raises(storm.DecodeError) as caught:
        storm.Reader(serializer="msgpack").feed(first + data)
    assert (first + data)[caught.value.offset :].startswith(there)  # in a Reader: the offset in the stream


# ---------------------------------------------------------------- a text refused whole
def test_json_nested_too_deeply_is_refused_at_the_bracket_that_opens_one_level_too_many() -> None:
    deep = b'{"command":"emit","tuple":["[[[",' + b"[" * 1000 + b"]" * 1000 + b"]}"
    at = deep.index(b"[" * 1000) + 998  # levels 1 and 2 are the object and its tuple
    for codec, frame in ((storm, deep + b"\nend\n"), (kcl, b" " + b"[" * 1001 + b"]" * 1001), (cloudevents, deep)):
        with pytest.raises(codec.DecodeError) as caught:  # type: ignore[attr-defined]
            codec.decode(frame)  # type: ignore[attr-defined]
        assert caught.value.reason == "malformed JSON: nested too deeply"
        assert caught.value.offset == (1001 if codec is kcl else at)


def test_an_empty_message_is_refused_where_its_json_was_needed() -> None:
    for frame, offset in ((b"end\n", 0), (b"\nend\n", 0), (b" \n \nend\n", 3)):  # where a Reader says
        with pytest.raises(storm.DecodeError) as caught:
            storm.decode(frame)
        assert caught.value.offset == offset
    reader = storm.Reader()
    errors = []
    for data in (b"end\n \n\nend\n", b""):
        try:
            reader.feed(data)
        except storm.DecodeError as exc:
            errors.append((exc.line, exc.offset))
    assert errors == [(1, 0), (2, 2)]  # in a Reader: the offset in the message's text


@pytest.mark.parametrize(
    ("codec", "text"), [(kcl, b'"' + b"x" * 300 + b'"\n'), (storm, b"[" + b"1," * 150 + b"1]\nend\n")]
)
def test_a_message_too_long_is_refused_where_it_passes_the_limit(codec: object, text: bytes) -> None:
    reader = codec.Reader(max_message=200)  # type: ignore[attr-defined]
    with pytest.raises(codec.DecodeError) as caught:  # type: ignore[attr-defined]
        reader.feed(text)
    assert (caught.value.line, caught.value.offset) == (1, 200)


def test_messagepack_nested_too_deeply_is_refused_at_its_start() -> None:
    deep = b"\x82\xa7command\xa4emit\xa5tuple" + b"\x91" * 1000 + b"\x90"
    with pytest.raises(storm.DecodeError) as caught:
        storm.decode(deep, serializer="msgpack")
    assert (caught.value.reason, caught.value.offset) == ("malformed MessagePack: nested too deeply", 0)
    sync = storm.encode(storm.Sync(), serializer="msgpack")
    with pytest.raises(storm.DecodeError) as caught:
        storm.Reader(serializer="msgpack").feed(sync + deep)
    assert caught.value.offset == len(sync)


def test_a_syntax_error_before_the_nesting_limit_is_the_one_named() -> None:
    """The Java codec's parser reads in the text's order and stops at what it meets first: a syntax error before the
    bracket that opens one level too many is named, not the nesting (and one after it is not)."""
    before = b"[" * 500 + b"1 " + b"[" * 600 + b"]" * 600 + b"]" * 500
    after = b"[" * 1001 + b"1 2" + b"]" * 1001
    for codec, end in ((kcl, b""), (storm, b"\nend\n")):
        with pytest.raises(codec.DecodeError) as caught:  # type: ignore[attr-defined]
            codec.decode(before + end)  # type: ignore[attr-defined]
        assert caught.value.reason.startswith("malformed JSON: JSON is malformed")
        assert caught.value.offset == 502
        with pytest.raises(codec.DecodeError) as caught:  # type: ignore[attr-defined]
            codec.decode(after + end)  # type: ignore[attr-defined]
        assert (caught.value.reason, caught.value.offset) == ("malformed JSON: nested too deeply", 1000)
    with pytest.raises(cloudevents.DecodeError) as caught:
        cloudevents.decode(before)
    assert caught.value.reason.startswith("malformed JSON") and caught.value.offset == 502


@pytest.mark.parametrize(
    ("data", "bad"),
    [
        (b"\x82\xa7command\xa4fail\xa2id\xa3a|\xa9", 20),  # a value's string
        (b"\x82\xa7\xe3ommand\xa4next\xa2id\xe0", 2),  # a key
        (b"\x83\xa7command\xa7metrics\xa4name\xa1n\xa6param\xc2\xc0", 30),  # cut inside a character
    ],
)
def test_a_messagepack_string_that_is_not_utf8_is_refused_at_its_bad_byte(data: bytes, bad: int) -> None:
    with pytest.raises(storm.DecodeError) as caught:
        storm.decode(data, serializer="msgpack")
    assert caught.value.reason.startswith("malformed MessagePack: a string is not valid UTF-8")
    assert caught.value.offset == bad
    sync = storm.encode(storm.Sync(), serializer="msgpack")
    with pytest.raises(storm.DecodeError) as caught:
        storm.Reader(serializer="msgpack").feed(sync + data)
    assert caught.value.offset == len(sync) + bad
