"""Every DecodeError of the JSON family names its offset (the guide: bad input gets "the codec's own DecodeError
naming offset and field"): a text cut short is refused where more input was needed, its end (in a MessagePack
Reader, as a stream offset). The Java codec gives the same offsets (tests/test_java_json.py, and the differential
fuzzer, which compares truncations word for word)."""

from __future__ import annotations

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
    with pytest.raises(kcl.DecodeError) as caught:
        kcl.decode(cut)
    assert caught.value.reason == "malformed JSON: Input data was truncated"
    assert caught.value.offset == len(cut)
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
    with pytest.raises(storm.DecodeError) as caught:
        storm.decode(cut + b"\nend\n")
    assert caught.value.reason == "malformed JSON: Input data was truncated"
    assert caught.value.offset == len(cut) + 1  # the JSON text ends with its line's end, before the end line


@pytest.mark.parametrize("cut", _cut_short(EVENT))
def test_an_event_cut_short_is_refused_at_its_end(cut: bytes) -> None:
    with pytest.raises(cloudevents.DecodeError) as caught:
        cloudevents.decode(cut)
    assert caught.value.reason == "malformed JSON: Input data was truncated"
    assert caught.value.offset == len(cut)


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
