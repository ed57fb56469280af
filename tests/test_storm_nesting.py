"""Storm's one nesting limit, in both framings: a message may nest its maps (objects) and arrays
``jsonwire.MAX_DEPTH`` (1000) levels deep, its own map counting, whatever the interpreter's stack.

msgspec's own limit is the stack left (Python's recursion limit less the frames in use), so each check here runs at
the top of the stack, 600 frames down (where msgspec alone would stop near 400 levels) and with the recursion limit
raised (where msgspec alone would read deeper than the limit). decode, the ``Reader`` (its one-pass run of common
messages and its one-by-one path) and encode must take one decision at 999, 1000 and 1001 levels, in the same words
(naming the format refused), and encode must never write what decode refuses.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

import msgspec
import pytest
from streamcodecs import storm
from streamcodecs._runtime import jsonchecks, jsonpaths, jsonwire
from streamcodecs._runtime.jsonpacked import packed_end, too_deep
from streamcodecs.storm import component

T = TypeVar("T")
LIMIT = jsonwire.MAX_DEPTH
WORDS = {"json": "malformed JSON: nested too deeply", "msgpack": "malformed MessagePack: nested too deeply"}
LEVELS = (LIMIT - 1, LIMIT, LIMIT + 1)


def test_one_limit_for_both_framings_and_both_ways() -> None:
    assert LIMIT == jsonchecks.MAX_NESTING == 1000
    assert (jsonwire.TOO_DEEP, jsonwire.PACKED_TOO_DEEP) == (WORDS["json"], WORDS["msgpack"])


def at(depth: int, call: Callable[[], T]) -> T:
    """``call()`` with ``depth`` more frames on the stack (as a user's recursive code would call us)."""
    return at(depth - 1, call) if depth else call()


@contextmanager
def stack(where: str) -> Iterator[Callable[[Callable[[], T]], T]]:
    """Calls made at the top of the stack, 600 frames down, or with the interpreter's recursion limit raised."""
    limit = sys.getrecursionlimit()
    if where == "raised limit":
        sys.setrecursionlimit(20000)
    try:
        yield (lambda call: at(600, call)) if where == "600 frames down" else (lambda call: call())
    finally:
        sys.setrecursionlimit(limit)


STACKS = ("top", "600 frames down", "raised limit")


def nested(levels: int) -> list[Any]:
    """A list ``levels`` deep (``[]`` is one level)."""
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def tuple_frame(levels: int, serializer: str, task: int = 1) -> bytes:
    """A BoltTuple whose message nests ``levels`` deep (its map, then its tuple), as the peer writes it."""
    inner = levels - 1  # the tuple's levels
    if serializer == "json":
        head = b'{"id":"1","comp":"c","stream":"s","task":%d,"tuple":' % task
        return head + b"[" * inner + b"]" * inner + b"}\nend\n"
    head = b"\x85\xa2id\xa11\xa4comp\xa1c\xa6stream\xa1s\xa4task" + msgspec.msgpack.encode(task) + b"\xa5tuple"
    return head + b"\x91" * (inner - 1) + b"\x90"


def tuple_message(levels: int, task: int = 1) -> storm.BoltTuple:
    return storm.BoltTuple(id="1", comp="c", stream="s", task=task, values=nested(levels - 1))


def equal(a: Any, b: Any) -> bool:
    """``a == b`` for values this deep (comparing them recurses)."""
    return jsonwire.roomy(lambda: bool(a == b))


def depth_of(value: Any) -> int:
    """How deep a decoded value nests its lists and dicts, a struct counting as a level (without recursion)."""
    deepest = 0
    todo = [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, msgspec.Struct):
            item = [getattr(item, name) for name in item.__struct_fields__]
        if isinstance(item, dict):
            item = [*item.keys(), *item.values()]
        if isinstance(item, list):
            deepest = max(deepest, level)
            todo += [(x, level + 1) for x in item]
    return deepest


@pytest.mark.parametrize("serializer", ["json", "msgpack"])
@pytest.mark.parametrize("where", STACKS)
def test_decode_reads_the_limit_and_refuses_one_level_more(serializer: str, where: str) -> None:
    with stack(where) as call:
        for levels in LEVELS:
            frame = tuple_frame(levels, serializer)
            if levels <= LIMIT:
                message = call(partial(storm.decode, frame, direction="to_component", serializer=serializer))
                assert equal(message, tuple_message(levels)) and depth_of(message) == levels
                continue
            with pytest.raises(storm.DecodeError) as info:
                call(partial(storm.decode, frame, direction="to_component", serializer=serializer))
            assert info.value.reason == WORDS[serializer], (levels, info.value)
            # without a direction: the same refusal
            with pytest.raises(storm.DecodeError, match=WORDS[serializer]):
                call(partial(storm.decode, frame, serializer=serializer))
            assert f"storm: {WORDS[serializer]}" in str(info.value)


@pytest.mark.parametrize("where", STACKS)
def test_far_deeper_messages_are_refused_in_the_same_words(where: str) -> None:
    with stack(where) as call:
        for serializer in ("json", "msgpack"):
            for levels in (LIMIT + 2, 3000, 100000):
                with pytest.raises(storm.DecodeError) as info:
                    call(partial(storm.decode, tuple_frame(levels, serializer), serializer=serializer))
                assert info.value.reason == WORDS[serializer], (serializer, levels)


def read(serializer: str, data: bytes, pieces: int) -> tuple[list[Any], list[storm.DecodeError]]:
    """Every message and every error a Reader gives for ``data`` fed in ``pieces`` about equal parts, then drained."""
    reader = storm.Reader(direction="to_component", serializer=serializer)
    size = -(-len(data) // pieces)
    messages: list[Any] = []
    errors: list[storm.DecodeError] = []
    for chunk in [data[i : i + size] for i in range(0, len(data), size)] + [b"", b""]:
        try:
            messages += reader.feed(chunk)
        except storm.DecodeError as exc:
            messages += exc.decoded
            errors.append(exc)
    assert reader.buffered == 0
    return messages, errors


@pytest.mark.parametrize("serializer", ["json", "msgpack"])
@pytest.mark.parametrize("where", STACKS)
@pytest.mark.parametrize("pieces", [1, 3, 200])
def test_the_reader_takes_the_same_decision_and_reads_on_after_a_refusal(
    serializer: str, where: str, pieces: int
) -> None:
    """A deep message between common ones (which MessagePack reads in one pass while it can), the stream whole or
    cut: read when within the limit, else refused by its place (its line, its byte offset) and reading goes on."""
    common = [tuple_frame(2, serializer, task=t) for t in range(40)]
    with stack(where) as call:
        for levels in LEVELS:
            frames = [*common[:20], tuple_frame(levels, serializer, task=99), *common[20:]]
            messages, errors = call(partial(read, serializer, b"".join(frames), pieces))
            expected = [tuple_message(2, task=t) for t in range(40)]
            if levels <= LIMIT:
                assert errors == [] and equal(
                    messages, [*expected[:20], tuple_message(levels, task=99), *expected[20:]]
                )
                continue
            assert messages == expected and len(errors) == 1, (levels, errors)
            assert errors[0].reason == WORDS[serializer]
            if serializer == "json":
                assert errors[0].line == 1 + sum(frame.count(b"\n") for frame in frames[:20])
            else:
                assert errors[0].offset == sum(map(len, frames[:20]))


@pytest.mark.parametrize("where", STACKS)
def test_a_stream_of_values_far_too_deep_is_still_cut_where_they_end(where: str) -> None:
    """MessagePack too deep for msgspec to follow even with room on the stack: its end is found all the same (it is
    well-formed), so it is refused alone, like a JSON message, where it used to end the stream."""
    deep = tuple_frame(100000, "msgpack")
    ok = tuple_frame(2, "msgpack")
    with stack(where) as call:
        for pieces in (1, 7):
            messages, errors = call(partial(read, "msgpack", ok + deep + ok + deep + ok, pieces))
            assert messages == [tuple_message(2)] * 3
            assert [(e.reason, e.offset) for e in errors] == [
                (WORDS["msgpack"], len(ok)),
                (WORDS["msgpack"], 2 * len(ok) + len(deep)),
            ]


@pytest.mark.parametrize("serializer", ["json", "msgpack"])
@pytest.mark.parametrize("where", STACKS)
def test_encode_writes_the_limit_and_refuses_one_level_more(serializer: str, where: str) -> None:
    """An Emit (its map, then its tuple) nested 999, 1000 and 1001 levels: written exactly when decode reads it, at
    any stack, and refused in decode's words for the framing."""
    with stack(where) as call:
        for levels in LEVELS:
            emit = storm.Emit(values=nested(levels - 1), need_task_ids=False)
            if levels > LIMIT:
                with pytest.raises(storm.EncodeError) as info:
                    call(partial(storm.encode, emit, serializer=serializer))
                assert (info.value.field, info.value.reason) == ("Emit", WORDS[serializer]), levels
                continue
            data = call(partial(storm.encode, emit, serializer=serializer))
            for reading in STACKS:
                with stack(reading) as read_call:
                    back = read_call(partial(storm.decode, data, direction="to_storm", serializer=serializer))
                    assert equal(back, emit) and depth_of(back) == levels, (levels, reading)
                    assert equal(
                        read_call(partial(storm.Reader(direction="to_storm", serializer=serializer).feed, data)), [emit]
                    )


@pytest.mark.parametrize("serializer", ["json", "msgpack"])
def test_a_bolt_emits_what_encode_writes_and_refuses_in_its_words(serializer: str) -> None:
    bolt = storm.Bolt(serializer=serializer)
    out = io.BytesIO()
    bolt._channel = component._Channel(io.BytesIO(), out, bolt.max_message, serializer, bolt.max_queued)
    with pytest.raises(storm.EncodeError) as info:
        at(600, lambda: bolt.emit(nested(LIMIT), need_task_ids=False))
    assert (info.value.field, info.value.reason) == ("Emit", WORDS[serializer])
    assert out.getvalue() == b""
    at(600, lambda: bolt.emit(nested(LIMIT - 1), need_task_ids=False))
    back = storm.decode(out.getvalue(), direction="to_storm", serializer=serializer)
    assert isinstance(back, storm.Emit) and equal(back.values, nested(LIMIT - 1)) and depth_of(back) == LIMIT


@pytest.mark.parametrize("levels", [0, 1, 2, 5, LIMIT, LIMIT + 1, 5000])
def test_packed_end_follows_every_kind_of_container_without_recursion(levels: int) -> None:
    """packed_end (what measures MessagePack nesting where msgspec cannot) against msgspec's own reading, with
    maps and arrays of each size class, strings, binaries and extensions between."""

    def value(depth: int) -> Any:
        inner: Any = [b"bin", "text", msgspec.msgpack.Ext(1, b"x" * 20), 1.5, -(2**40), None]
        for i in range(depth):
            kind = i % 4
            if kind == 0:
                inner = [inner]
            elif kind == 1:
                inner = {"k": inner}
            elif kind == 2:
                inner = [*range(20), inner]  # array 16
            else:
                inner = {**{str(n): n for n in range(20)}, "z": inner}  # map 16
        return inner

    data = msgspec.msgpack.encode(value(levels)) if levels <= 900 else None
    if data is None:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(levels + 2000)
        try:
            data = msgspec.msgpack.encode(value(levels))
        finally:
            sys.setrecursionlimit(limit)
    expected = levels + 1  # (the innermost list)
    assert packed_end(data) == (len(data), expected)
    assert packed_end(data + b"\x90\x91", 0) == (len(data), expected)  # one value only
    assert packed_end(data[:-1])[0] == len(data)  # cut short: past the end
    assert packed_end(b"\x91\x92\xc1", 0) == (-1 - 2, 2)  # not MessagePack at byte 2
    assert packed_end(b"\xdc\x00\x00") == (3, 1) and packed_end(b"\x80") == (1, 1) and packed_end(b"\x05") == (1, 0)
    assert too_deep(data) == (expected > LIMIT)


class _Tagged(msgspec.Struct, tag_field="command", tag="t"):
    value: Any


@pytest.mark.parametrize("where", STACKS)
def test_the_typed_path_takes_the_same_decision(where: str) -> None:
    """The typed path of MessagePack (a protocol whose every direction is a union of tagged messages; Storm takes
    the general one) under the same limit: read up to it, refused beyond in the same words, at the value's offset."""
    decode = jsonpaths.typed_packed({"d": msgspec.msgpack.Decoder(_Tagged)}, storm.DecodeError)
    with stack(where) as call:
        for levels in (*LEVELS, 100000):
            data = b"\x82\xa7command\xa1t\xa5value" + b"\x91" * (levels - 2) + b"\x90"
            for direction in ("d", None):
                if levels <= LIMIT:
                    assert depth_of(call(partial(decode, direction, data, None))) == levels
                    continue
                with pytest.raises(storm.DecodeError) as info:
                    call(partial(decode, direction, data, 7))
                assert (info.value.reason, info.value.offset) == (WORDS["msgpack"], 7)


def test_a_reader_cut_anywhere_decides_as_decode_does_value_by_value() -> None:
    """Streams of values within, at and beyond the limit (and far beyond it), cut at random places: the Reader
    gives each value decode's message or decode's refusal, at the value's offset."""
    rng = random.Random(20261129)
    frames = [
        tuple_frame(rng.choice([2, 3, LIMIT - 2, LIMIT - 1, LIMIT, LIMIT + 1, LIMIT + 2, 3000]), "msgpack", task=i)
        for i in range(40)
    ]
    expected: list[Any] = []
    offset = 0
    for frame in frames:
        try:
            expected.append(storm.decode(frame, direction="to_component", serializer="msgpack"))
        except storm.DecodeError as exc:
            expected.append((exc.reason, offset))
        offset += len(frame)
    assert {type(x) for x in expected} == {storm.BoltTuple, tuple}
    data = b"".join(frames)
    for _ in range(4):
        cuts = sorted(rng.sample(range(1, len(data)), 30))
        reader = storm.Reader(direction="to_component", serializer="msgpack")
        got: list[Any] = []
        for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True):
            chunk = data[start:end]
            while True:  # after a refusal, feed(b"") goes on with the rest
                try:
                    got += reader.feed(chunk)
                    break
                except storm.DecodeError as exc:
                    got += [*exc.decoded, (exc.reason, exc.offset)]
                chunk = b""
        assert len(got) == len(expected) and equal(got, expected)
