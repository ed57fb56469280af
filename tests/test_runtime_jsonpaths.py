"""The JSON family's decoding paths (``_runtime/jsonpaths.py``) at their source, on a toy protocol.

The generated codecs' tests (Storm, KCL, the fixture protocols) exercise them through real messages; these pin the
rules themselves: recognition by tag, then by shape in order; a lone scalar for a list; a bare array; which failure
the typed path names; the fast path answering first.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from streamcodecs_gen.py_package._runtime import jsonpaths
from streamcodecs_gen.py_package._runtime.errors import DecodeError


class ToyError(DecodeError):
    protocol = "toy"


class Ping(msgspec.Struct, tag_field="op", tag="ping"):
    n: int


class Emit(msgspec.Struct, tag_field="op", tag="emit"):
    anchors: list[str]


class Hello(msgspec.Struct):
    pid: int


class Ids(msgspec.Struct):
    ids: list[int]


RECOGNISE = jsonpaths.recogniser(
    tag_key="op",
    by_tag={"up": {"ping": Ping, "emit": Emit}, "down": {"ping": Ping}},
    by_shape={
        "up": ((lambda v: isinstance(v, list), Ids),),
        "down": ((lambda v: isinstance(v, dict) and "pid" in v, Hello),),
    },
    scalar_lists={Emit: ("anchors",)},
    array_field={Ids: ("ids", "ids")},
    directions=("up", "down"),
    error=ToyError,
)
GENERAL = jsonpaths.general_text(RECOGNISE, ToyError)


def test_recognised_by_tag_then_by_shape_in_each_direction() -> None:
    assert GENERAL("up", b'{"op": "ping", "n": 1}', None) == Ping(1)
    assert GENERAL(None, b'{"pid": 7}', None) == Hello(7)  # no direction: each in turn
    assert GENERAL("up", b"[1, 2]", None) == Ids([1, 2])  # a bare array is its one field
    assert GENERAL("up", b'{"op": "emit", "anchors": "a"}', None) == Emit(["a"])  # a scalar for a list


def test_what_matches_nothing_is_named() -> None:
    with pytest.raises(ToyError, match=r"no message matches this op: 'pong' in direction 'down'"):
        GENERAL("down", b'{"op": "pong"}', 3)
    with pytest.raises(ToyError, match=r"no message matches this int \(offset 1\)$"):
        GENERAL(None, b" 5", None)  # where the value starts
    with pytest.raises(ToyError, match=r"no message has the keys 'x', 'y' in direction 'down' \(offset 0\)$"):
        GENERAL("down", b'{"x": 1, "y": null}', None)
    with pytest.raises(ToyError) as raised:
        GENERAL("up", b"  ", 4)
    assert raised.value.line == 4


def test_the_typed_path_names_the_failure_of_the_direction_with_the_tag() -> None:
    decoders: dict[str, msgspec.json.Decoder[Any]] = {
        "up": msgspec.json.Decoder(Ping | Emit),
        "down": msgspec.json.Decoder(Ping),
    }
    decode = jsonpaths.typed_text(decoders, ToyError, "op", {"ping": ("up", "down"), "emit": ("up",)})
    assert decode(None, b'{"op": "ping", "n": 2}', None) == Ping(2)
    with pytest.raises(ToyError) as raised:
        decode(None, b'{"op": "emit", "anchors": 3}', None)
    assert raised.value.field == "anchors"  # the "up" failure, not "down"'s unknown tag


def test_the_fast_path_answers_first_and_the_general_one_otherwise() -> None:
    seen: list[bool] = []

    def fast(items: list[Any], index: int, out: list[Any], hint: bool) -> tuple[int, bool]:
        seen.append(hint)
        if items[0] == b"fast":
            out.append("fast")
            return 1, hint
        return 0, hint

    decode = jsonpaths.fast_text({"up": fast, "down": fast}, GENERAL, ("up", "down"), "op", ToyError)
    assert decode(None, b"fast", None) == "fast"
    assert decode("up", b'{"op": "ping", "n": 3}', None) == Ping(3)
    assert seen == [False, True]  # the tag key in the text: try tagged messages first


def test_a_packed_value_read_from_a_stream_names_its_offset() -> None:
    def none(items: list[Any], index: int, out: list[Any], hint: bool) -> tuple[int, bool]:
        return index, hint

    decode = jsonpaths.general_packed({"up": none, "down": none}, RECOGNISE, ("up", "down"), ToyError)
    assert decode("down", msgspec.msgpack.encode({"pid": 1}), None) == Hello(1)
    with pytest.raises(ToyError) as raised:
        decode("down", msgspec.msgpack.encode({"op": "pong"}), 40)
    assert (raised.value.offset, raised.value.field) == (40 + 1 + 3, "op")  # at the tag's value (after map, key)
