"""encode's guarantee, for every message of every protocol: ``encode(m)`` succeeds if and only if what it writes
decodes, and then it decodes as ``m``.

Encode checks each value with generated code instead of decoding what it wrote (issue 30); this proves the checks
exact. The JSON family has a serializer without checks (msgspec's encoder, the same framing), so both directions of
the "if and only if" are tested there: for each message, valid (hypothesis, from the definitions; and every vector
of every version, in each framing) or made malformed (each field, list item, map value and nested struct field
given wrong types, out-of-range numbers, bad enum values, lone surrogates, NaN and infinity, tuples, sets, naive
and odd datetimes, huge and deeply nested values, other messages...; and the values other shapes match on), the
unchecked bytes are decoded in each of the message's directions: ``encode`` must succeed exactly when they decode
as the message, and then write the same bytes. "As the message": equal (NaN equal to NaN, which MessagePack
carries), except that a free-form (``any``) value is written as msgspec writes it and read back in that form (a
tuple as a list, a datetime as its text; JSON has no form for NaN); a list or map field must hold a list or map.
The one deliberate refusal is a removed field holding a value (decoded from older peers, never encoded). For the
binary and Kafka families, whose writers are their checks (``struct``, the attribute rules), every success must
decode as the message (binary) or re-encode as the same record (Kafka, whose binary mode carries extension values
as text), and every refusal must be the protocol's EncodeError.

The suite runs a sample (``ENCODE_EXAMPLES``, default 30 per message and framing); the long run is one command:

    ENCODE_EXAMPLES=3000 .venv/bin/python -m pytest tests/test_encode_guarantee.py -q -p no:randomly
"""

from __future__ import annotations

import copy as copy_
import dataclasses
import datetime
import decimal
import enum
import importlib
import json
import math
import os
import reprlib
import uuid
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import message_strategy
from streamcodecs._runtime import jsonchecks
from streamcodecs._runtime import messages as _m
from streamcodecs._runtime.jsonwire import roomy
from test_storm_nesting import at, depth_of

from streamcodecs_gen.model import EnumRef, Field, ListRef, Message, Protocol, Struct, StructRef, WireRef
from streamcodecs_gen.pipeline import load_protocols

REPO = Path(__file__).resolve().parent.parent
VECTORS = REPO / "output" / "py" / "vectors"
PROTOCOLS = load_protocols(REPO / "protocol-definitions", REPO)
EXAMPLES = int(os.environ.get("ENCODE_EXAMPLES", "30"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 30, suppress_health_check=list(HealthCheck)
)


class Color(enum.Enum):
    RED = 1


class Text(str):
    pass


class Number(int):
    pass


class Items(list[Any]):
    pass


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


UTC = datetime.UTC
HOSTILE: list[Any] = [
    None, msgspec.UNSET, True, False, 0, -1, 7, 2**31, -(2**31) - 1, 2**63, -(2**63) - 1, 2**64, 10**30,
    1.5, -0.0, math.nan, math.inf, -math.inf, 2**53 + 1, "", "x", "\ud800", "a\udfffb", "é😀\x00",
    b"bytes", bytearray(b"array"), memoryview(b"view"), (1, 2), (), [1, 2], ["a"], [], {"k": 1}, {}, {1: 2},
    {(1, 2): 3}, {b"k": 1}, {1, 2}, frozenset(), object(), uuid.UUID(int=5), "00000000-0000-0000-0000-000000000005",
    datetime.datetime(2020, 1, 2, 3, 4, 5), datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
    datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone(datetime.timedelta(hours=-3, minutes=-30))),
    datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone(datetime.timedelta(seconds=30))), datetime.date(2020, 1, 2),
    decimal.Decimal("1.5"), Color.RED, Text("subclass"), Number(5), Items([1, "a"]), [1.5, math.nan], {"k": [math.inf]},
    "__heartbeat", "__system", "__tick",
    "TERMINATE", "FIELDS", "nope", msgspec.msgpack.Ext(1, b"x"), msgspec.Raw(b"1"),
]  # fmt: skip
"""Values of every kind a caller may put where they do not belong (or where they do, but only just)."""
LARGE: list[Any] = [_nested(200), _nested(3000), list(range(20000)), ["x" * 100] * 2000]
"""Hostile by their size: in every place of every vector, not drawn by hypothesis (which shows what it draws)."""

HOSTILE_DEEP = st.recursive(
    st.sampled_from(HOSTILE),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["k", "\ud800", 1]), inner, max_size=2),
    max_leaves=6,
)


def same(a: Any, b: Any) -> bool:
    """Equal as ``==`` says, except that NaN equals NaN (MessagePack carries it; ``==`` never holds for it)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, msgspec.Struct) or isinstance(b, msgspec.Struct):
        return type(a) is type(b) and all(
            same(getattr(a, f), getattr(b, f))
            for f in a.__struct_fields__  # type: ignore[union-attr]
        )
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return a == b or (type(a) is type(b) and len(a) == len(b) and all(map(same, a, b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a == b or (a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items()))
    return bool(a == b)


def _codec(protocol: Protocol) -> Any:
    return importlib.import_module(f"streamcodecs.{protocol.name}")


def _serializers(protocol: Protocol) -> list[str]:
    return list(_codec(protocol).SERIALIZERS)


def _vectors(protocol: Protocol) -> Iterator[tuple[str, str, bytes]]:
    """Every vector of every version, in every framing: (serializer, direction, bytes)."""
    for version_dir in sorted((VECTORS / protocol.name).iterdir()):
        for where, serializer in [(version_dir, "json"), *((d, d.name) for d in version_dir.iterdir() if d.is_dir())]:
            manifest = json.loads((where / "manifest.json").read_text(encoding="utf-8"))
            blob = (where / manifest["file"]).read_bytes()
            for entry in manifest["vectors"]:
                yield serializer, entry["direction"], blob[entry["offset"] : entry["offset"] + entry["length"]]


def _fields(message: Any) -> list[str]:
    return list(message.__struct_fields__) if isinstance(message, msgspec.Struct) else list(message.__slots__)


def _replaced(message: Any, name: str, value: Any) -> Any:
    copy = msgspec.structs.replace(message) if isinstance(message, msgspec.Struct) else _copy_slots(message)
    setattr(copy, name, value)
    return copy


def _copy_slots(message: Any) -> Any:
    copy = object.__new__(type(message))
    for name in message.__slots__:
        setattr(copy, name, getattr(message, name))
    return copy


def _is_struct(value: Any) -> bool:
    """A message or struct: a msgspec Struct (the JSON and Kafka families) or a dataclass (the binary family)."""
    return isinstance(value, msgspec.Struct) or (dataclasses.is_dataclass(value) and not isinstance(value, type))


def mutations(message: Any, hostile: Any) -> Iterator[Any]:
    """``message`` with ``hostile`` in each place: each field, an item of each list, a value of each map, each field
    of a struct it holds (one level down, in a list's first item too), and appended to each list."""
    for name in _fields(message):
        yield _replaced(message, name, hostile)
        value = getattr(message, name)
        if isinstance(value, list):
            yield _replaced(message, name, [*value, hostile])
            if value:
                yield _replaced(message, name, [hostile, *value[1:]])
                if _is_struct(value[0]):
                    yield from (_replaced(message, name, [m, *value[1:]]) for m in mutations(value[0], hostile))
        elif isinstance(value, dict) and value:
            first = next(iter(value))
            yield _replaced(message, name, {**value, first: hostile})
        elif _is_struct(value):
            for inner in _fields(value):
                yield _replaced(message, name, _replaced(value, inner, hostile))


def lookalikes(protocol: Protocol, message: Any) -> Iterator[Any]:
    """``message`` given the values each other shape of its protocol matches on, all at once: a message whose JSON
    an earlier shape takes is read as that other message (and must be refused)."""
    model = next(m for m in protocol.messages if m.name == type(message).__name__)
    py_of = {f.name: f.py for f in model.fields}
    for other in protocol.messages:
        if other.shape and other.shape.match and all(k in py_of for k in other.shape.match):
            mutated = message
            for key, value in other.shape.match.items():
                mutated = _replaced(mutated, py_of[key], value)
            yield mutated


# ------------------------------------------------------------------------------------------------ the JSON family
JSON = [p for p in PROTOCOLS if p.family == "json"]


def unchecked(protocol: Protocol, codec: Any, message: Any, serializer: str) -> bytes:
    """What encode writes, written without its checks: msgspec's encoder and the framing."""
    packed = serializer != "json"
    encoder = msgspec.msgpack.Encoder() if packed else msgspec.json.Encoder()
    module = importlib.import_module(f"streamcodecs.{protocol.name}.messages")  # its framing's own constants
    array = getattr(module, "_ARRAY_FIELD", {})
    data = encoder.encode(getattr(message, array[type(message)][1]) if type(message) in array else message)
    if packed:
        return data
    if protocol.framing.escape_hex == "upper" and b"\\u00" in data:  # KCL: Jackson's upper-case hex
        data = jsonchecks.upper_hex_escapes(data)
    return data + module._TERMINATOR  # type: ignore[no-any-return]


def round_trips(protocol: Protocol, codec: Any, message: Any, serializer: str) -> tuple[bool, bytes | None, str]:
    """Whether the message, written without checks, decodes as itself in each of its directions."""
    if any(getattr(message, f, msgspec.UNSET) is not msgspec.UNSET for f in _removed(protocol, type(message))):
        return False, None, "a removed field is set (decoded from older peers, never encoded)"
    try:
        data = unchecked(protocol, codec, message, serializer)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        return False, None, f"the serializer refuses it: {exc}"
    try:
        wanted = written_form(protocol, message, serializer)
    except NoForm as exc:
        return False, data, str(exc)
    for direction in message.DIRECTIONS:
        try:
            back = codec.decode(data, direction=direction, serializer=serializer)
        except codec.DecodeError as exc:
            return False, data, f"decode refuses it: {exc}"
        if not same(back, wanted):
            return False, data, f"it decodes as {_repr(back)}"
    return True, data, "it round-trips"


class NoForm(Exception):
    """A free-form value JSON has no form for (NaN or infinity: msgspec would write null)."""


def written_form(protocol: Protocol, message: Any, serializer: str) -> Any:
    """The message as decode should give it back: itself, with each free-form (``any``) value in its written form
    (what msgspec's decoder reads from what its encoder writes: a tuple as a list, a datetime as its text), in lists
    and maps that are lists and maps (a tuple where a list belongs is not a list)."""
    model = next((m for m in [*protocol.messages, *protocol.structs] if m.name == type(message).__name__), None)
    if model is None or not isinstance(message, msgspec.Struct):
        return message
    copy = copy_.copy(message)  # (a removed field the message lacks stays UNSET)
    for f in model.fields:
        value = getattr(message, f.py)
        if value is not msgspec.UNSET:
            setattr(copy, f.py, _form(protocol, f.type, value, serializer))
    return copy


def _form(protocol: Protocol, ref: Any, value: Any, serializer: str) -> Any:
    from streamcodecs_gen.model import ListRef, MapRef, StructRef, WireRef

    if isinstance(ref, WireRef) and ref.wire.check == "any":
        if serializer == "json" and jsonchecks._has_non_finite(value):  # (the walk: finite's fast path is tested)
            raise NoForm("JSON has no form for NaN or infinity")
        coder = msgspec.json if serializer == "json" else msgspec.msgpack
        try:
            return coder.decode(coder.encode(value))
        except (TypeError, ValueError, OverflowError, RecursionError, msgspec.DecodeError) as exc:
            raise NoForm(f"no written form: {exc}") from None
    if isinstance(ref, ListRef) and isinstance(value, list):
        return [_form(protocol, ref.item, item, serializer) for item in value]
    if isinstance(ref, MapRef) and isinstance(value, dict):
        return {k: _form(protocol, ref.item, item, serializer) for k, item in value.items()}
    if isinstance(ref, StructRef):
        return written_form(protocol, value, serializer)
    return value


def test_finite_decides_as_the_walk() -> None:
    """``jsonchecks.finite`` settles most free-form values by a scan of their MessagePack bytes: it must decide
    every value as the walk does (a NaN or infinity anywhere, at any depth, in any container or struct, either sign;
    bytes and strings that look like one; what MessagePack cannot carry)."""
    odd_bytes = b"\xcb\x7f\xf8" + b"\x00" * 6
    leaves = [
        *HOSTILE,
        math.nan,
        -math.nan,
        math.inf,
        -math.inf,
        1e308,
        -1e308,
        5e-324,
        odd_bytes,
        odd_bytes.decode("latin-1"),
        2**70,
        Color.RED,
        msgspec.UNSET,
        Number(5),
    ]
    found = {True: 0, False: 0}
    for leaf in leaves:
        for value in (
            leaf,
            [1, "a", leaf],
            (leaf,),
            {"k": [{"j": leaf}]},
            {1: leaf},
            [[[[leaf]]]],
            {leaf} if _hashable(leaf) else [],
            _Holder(leaf),
            [_Holder([leaf])],
        ):
            expected = not jsonchecks._has_non_finite(value)
            assert jsonchecks.finite(value) == expected, _repr(value)
            found[expected] += 1
    assert found[True] > 100 and found[False] > 20, found


class _Holder(msgspec.Struct):
    value: Any


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _removed(protocol: Protocol, cls: type) -> list[str]:
    found = next((m for m in protocol.messages if m.name == cls.__name__), None)
    return [f.py for f in found.fields if f.removed] if found else []


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxstring, _REPR.maxother = 4, 8, 60, 200


def _repr(value: Any) -> str:
    if isinstance(value, msgspec.Struct):
        fields = ", ".join(f"{f}={_REPR.repr(getattr(value, f))}" for f in value.__struct_fields__)
        return f"{type(value).__name__}({fields})"
    return _REPR.repr(value)


def assert_guarantee(protocol: Protocol, message: Any, serializer: str) -> bool:
    """encode succeeds exactly when the unchecked bytes decode as the message, and then writes those bytes."""
    codec = _codec(protocol)
    expected, data, why = round_trips(protocol, codec, message, serializer)
    try:
        written = codec.encode(message, serializer=serializer)
    except codec.EncodeError as exc:
        assert not expected, f"refused ({exc}) although {why}: {_repr(message)}"
        assert exc.field and exc.field.split(".")[0].split("[")[0] == type(message).__name__, exc
        return False
    assert expected, f"written although {why}: {_repr(message)}"
    assert written == data
    return True


def _json_cases() -> list[Any]:
    return [
        pytest.param(p, m, s, id=f"{p.name}.{m.name}.{s}") for p in JSON for m in p.messages for s in _serializers(p)
    ]


@pytest.mark.parametrize("protocol", JSON, ids=lambda p: p.name)
def test_every_vector_and_every_mutation_of_it(protocol: Protocol) -> None:
    """Every vector of every version, decoded, then given each hostile value in each place."""
    codec = _codec(protocol)
    written = refused = 0
    seen: set[tuple[str, str]] = set()
    for serializer, direction, data in _vectors(protocol):
        message = codec.decode(data, direction=direction, serializer=serializer)
        written += assert_guarantee(protocol, message, serializer)
        if (type(message).__name__, serializer) in seen:
            continue  # each message's mutations once per framing (its vectors differ little)
        seen.add((type(message).__name__, serializer))
        for mutated in lookalikes(protocol, message):
            assert_guarantee(protocol, mutated, serializer)
        for hostile in HOSTILE + LARGE:
            for mutated in mutations(message, hostile):
                if assert_guarantee(protocol, mutated, serializer):
                    written += 1
                else:
                    refused += 1
    assert written > 100 and refused > 1000, (written, refused)


@pytest.mark.parametrize(("protocol", "message", "serializer"), _json_cases())
@SETTINGS
@given(data=st.data())
def test_valid_and_malformed_messages(protocol: Protocol, message: Message, serializer: str, data: Any) -> None:
    """Hypothesis-drawn messages of the definitions, as they are and with a hostile value (nested, at random) in a
    random place."""
    codec = _codec(protocol)
    original = codec.MESSAGES[message.name].from_dict(data.draw(message_strategy(protocol, message)))
    assert_guarantee(protocol, original, serializer)
    for mutated in lookalikes(protocol, original):
        assert_guarantee(protocol, mutated, serializer)
    hostile = data.draw(HOSTILE_DEEP)
    places = list(mutations(original, hostile))
    if places:
        assert_guarantee(protocol, data.draw(st.sampled_from(places)), serializer)


@pytest.mark.parametrize("protocol", JSON, ids=lambda p: p.name)
def test_nesting_at_the_one_limit_in_every_place(protocol: Protocol) -> None:
    """Each place of one vector of each message, in each framing, given a value nested so that the message is just
    within, at and just beyond the one limit (MAX_NESTING, whatever the stack): encode writes exactly what decode
    reads, at the top of the stack and 600 frames down (where msgspec alone stops near 400 levels), and refuses the
    rest (when nesting is what is wrong) in decode's words for the framing. The oracle (the unchecked bytes
    decoded) runs with room on the stack."""
    codec = _codec(protocol)
    limit = jsonchecks.MAX_NESTING

    def read_back_as(back: Any, message: Any, serializer: str) -> bool:
        return same(back, written_form(protocol, message, serializer))

    deep = {"json": "malformed JSON: nested too deeply", "msgpack": "malformed MessagePack: nested too deeply"}
    seen: set[tuple[str, str]] = set()
    counts = {"at the limit": 0, "beyond": 0}
    for serializer, direction, data in _vectors(protocol):
        message = codec.decode(data, direction=direction, serializer=serializer)
        if (type(message).__name__, serializer) in seen:
            continue
        seen.add((type(message).__name__, serializer))
        for levels in range(limit - 4, limit + 2):
            for mutated in mutations(message, _nested(levels)):
                expected, unchecked_data, why = roomy(partial(round_trips, protocol, codec, mutated, serializer))
                written_levels = 0
                if unchecked_data is not None:
                    reader = msgspec.msgpack if serializer != "json" else msgspec.json
                    body = unchecked_data if serializer != "json" else unchecked_data.split(b"\n")[0]
                    written_levels = depth_of(roomy(partial(reader.decode, body)))  # type: ignore[attr-defined]
                for depth in (0, 600):
                    try:
                        written = at(depth, partial(codec.encode, mutated, serializer=serializer))
                    except codec.EncodeError as exc:
                        assert not expected, f"refused ({exc}) at stack {depth} although {why}: {_repr(mutated)}"
                        if exc.reason == deep[serializer]:  # (another refusal may come first)
                            assert written_levels > limit, (exc, written_levels)
                            counts["beyond"] += depth == 0
                        continue
                    assert expected, f"written at stack {depth} although {why}: {_repr(mutated)}"
                    assert written == unchecked_data and written_levels <= limit
                    for direction_ in mutated.DIRECTIONS:
                        back = at(depth, partial(codec.decode, written, direction=direction_, serializer=serializer))
                        assert roomy(partial(read_back_as, back, mutated, serializer))
                counts["at the limit"] += written_levels == limit and expected
    from streamcodecs_gen.model import WireRef

    owners = [*protocol.messages, *protocol.structs]
    if any(isinstance(f.type, WireRef) and f.type.wire.check == "any" for m in owners for f in m.fields):
        assert counts["at the limit"] > 5 and counts["beyond"] > 5, counts  # (only free-form values nest that deep)


def test_the_checks_are_generated_from_the_definitions_not_listed_by_hand() -> None:
    """Each message has a check function in its module, and encode refuses through it (a wrong type named by the
    wire path, in decode's words)."""
    storm, kcl = (importlib.import_module(f"streamcodecs.{n}") for n in ("storm", "kcl"))
    for codec in (storm, kcl):
        checks = importlib.import_module(f"{codec.__name__}.messages").message_writers()
        assert set(checks) == set(codec.MESSAGES.values())
    with pytest.raises(kcl.EncodeError) as info:
        kcl.encode(kcl.ProcessRecords(records=[kcl.Record(data=b"", partition_key="p", sequence_number=5)]))
    assert (info.value.field, info.value.reason) == (
        "ProcessRecords.records[0].sequenceNumber",
        "Expected `str`, got `int`",
    )
    with pytest.raises(storm.EncodeError) as info:
        storm.encode(storm.BoltTuple(id="1", comp=None, stream="__heartbeat", task=-1, values=[]))
    assert info.value.field == "BoltTuple.stream" and "Heartbeat" in info.value.reason
    with pytest.raises(storm.EncodeError) as info:
        storm.encode(storm.Emit(values=(1, 2)))  # (read back as a list, which does not equal it)
    assert (info.value.field, info.value.reason) == ("Emit.tuple", "Expected `array`, got `tuple`")
    # A free-form value is what msgspec writes, as it writes it: a tuple in it is an array, read back as a list
    assert storm.decode(storm.encode(storm.Emit(values=[1, (2, 3)])), direction="to_storm") == storm.Emit(
        values=[1, [2, 3]]
    )
    with pytest.raises(storm.EncodeError) as info:
        storm.encode(storm.Emit(values=[1, object()]))  # what msgspec cannot write at all: named where it is
    assert info.value.field == "Emit.tuple[1]" and "unsupported" in info.value.reason
    assert storm.encode(storm.Emit(values=[math.nan]), serializer="msgpack")  # MessagePack carries NaN
    with pytest.raises(storm.EncodeError, match="Expected `float`, got `NaN`"):
        storm.encode(storm.Emit(values=[math.nan]))  # JSON does not


# ---------------------------------------------------------------------------------------------- the binary family
BINARY = [p for p in PROTOCOLS if p.family == "binary"]


def assert_binary(protocol: Protocol, message: Any) -> bool:
    """A message encode writes decodes as itself; one it refuses is refused with the protocol's EncodeError."""
    codec = _codec(protocol)
    inline = type(message).__name__ in {m.name for m in protocol.messages if m.inline_only}
    try:
        frame = codec.encode_inline(message) if inline else codec.encode(message)
    except codec.EncodeError as exc:
        owners = {type(message).__name__, *(s.name for s in protocol.structs), *(m.name for m in protocol.messages)}
        # (a struct's writer names its field; a list's item writer says "list item", as the Java codec does)
        assert exc.field in (None, "list item") or exc.field.split(".")[0] in owners, exc
        return False
    module = importlib.import_module(f"streamcodecs.{protocol.name}.messages")
    back = module._CODEC.decode_inline(frame, 0, len(frame)) if inline else codec.decode(frame)
    assert same(back, message), f"written as {frame[:80]!r}, read back as {_repr(back)}: {_repr(message)}"
    return True


def _binary_vectors(protocol: Protocol) -> Iterator[Any]:
    codec = _codec(protocol)
    inline = {m.code for m in protocol.messages if m.inline_only}
    module = importlib.import_module(f"streamcodecs.{protocol.name}.messages")
    for version_dir in sorted((VECTORS / protocol.name).iterdir()):
        manifest = json.loads((version_dir / "manifest.json").read_text(encoding="utf-8"))
        blob = (version_dir / manifest["file"]).read_bytes()
        for entry in manifest["vectors"]:
            data = blob[entry["offset"] : entry["offset"] + entry["length"]]
            code = int.from_bytes(data[:4], "big", signed=True)
            yield module._CODEC.decode_inline(data, 0, len(data)) if code in inline else codec.decode(data)


@pytest.mark.parametrize("protocol", BINARY, ids=lambda p: p.name)
def test_binary_every_vector_and_every_mutation_of_it(protocol: Protocol) -> None:
    written = refused = 0
    seen: set[str] = set()
    for message in _binary_vectors(protocol):
        written += assert_binary(protocol, message)
        if type(message).__name__ in seen:
            continue
        seen.add(type(message).__name__)
        for hostile in HOSTILE:
            for mutated in mutations(message, hostile):
                if assert_binary(protocol, mutated):
                    written += 1
                else:
                    refused += 1
    assert written > 100 and refused > 1000, (written, refused)


@pytest.mark.parametrize("protocol", BINARY, ids=lambda p: p.name)
def test_a_binary_refusal_names_the_field_at_fault(protocol: Protocol) -> None:
    """A wrong value in one field is refused naming that field, also inside a fixed run packed by one struct call
    (the Java codec checks a run field by field and names the same one); a struct-typed field's own writer names
    the struct, a list's item writer "list item"."""
    codec = _codec(protocol)
    inline = {m.name for m in protocol.messages if m.inline_only}
    model = {s.name: s for s in [*protocol.messages, *protocol.structs]}
    named = 0
    seen: set[str] = set()
    for message in _binary_vectors(protocol):
        name = type(message).__name__
        if name in seen:
            continue
        seen.add(name)
        for f in model[name].fields:
            ref = getattr(f.type, "item", f.type)  # (a list's item)
            held = {ref.struct.name} if hasattr(ref, "struct") else set()
            for hostile in (None, "x", object(), 2**70, -(2**70), 1.5):
                try:
                    mutated = _replaced(message, f.py, hostile)
                    codec.encode_inline(mutated) if name in inline else codec.encode(mutated)
                except codec.EncodeError as exc:
                    assert exc.field in {f"{name}.{f.py}", "list item", *held}, (name, f.py, hostile, str(exc))
                    named += 1
    assert named > 500, named


def _binary_places(protocol: Protocol, message: Any) -> Iterator[tuple[str, Field, Callable[[Any], Any]]]:
    """Every field of ``message`` and of each struct it holds (a list's first item too), from the definition:
    (its owner's name, the field's model, a function giving ``message`` with a value in that field)."""
    model = {s.name: s for s in [*protocol.messages, *protocol.structs]}
    for f in model[type(message).__name__].fields:
        yield type(message).__name__, f, lambda v, f=f: _replaced(message, f.py, v)
        value = getattr(message, f.py)
        if value == [] and isinstance(f.type, ListRef) and isinstance(f.type.item, StructRef):
            value = [_struct_example(protocol, f.type.item.struct)]  # (a vector's empty list: one made up)
        held = value[0] if isinstance(value, list) and value else value
        if _is_struct(held) and type(held).__name__ in model:
            for inner in model[type(held).__name__].fields:

                def put(v: Any, f: Field = f, inner: Field = inner, held: Any = held, value: Any = value) -> Any:
                    changed = _replaced(held, inner.py, v)
                    return _replaced(message, f.py, [changed, *value[1:]] if isinstance(value, list) else changed)

                yield type(held).__name__, inner, put


def _struct_example(protocol: Protocol, struct: Struct) -> Any:
    """A struct of the definition with each field's reference value (``types.py``), its first enum member, an empty
    list or a struct made alike."""
    codec = _codec(protocol)
    values: dict[str, Any] = {}
    for f in struct.fields:
        match f.type:
            case _ if f.has_const:
                values[f.py] = f.const
            case WireRef(wire=wire):
                values[f.py] = wire.reference(0)
            case EnumRef(enum=enum):
                values[f.py] = next(iter(getattr(codec, enum.name)))
            case ListRef():
                values[f.py] = []
            case StructRef(struct=held):
                values[f.py] = _struct_example(protocol, held)
    return getattr(codec, struct.name)(**values)


def _integer_range(f: Field) -> tuple[int, int] | None:
    """The range of an integer field's wire type (a list's items'; an open enum's), or None: not an integer field."""
    ref = f.type.item if isinstance(f.type, ListRef) else f.type
    if isinstance(ref, WireRef) and ref.wire.bits and ref.wire.struct:
        return ref.wire.range
    if isinstance(ref, EnumRef) and ref.enum.is_open and ref.enum.wire_type.bits:
        return ref.enum.wire_type.range
    return None


def _encode_binary(protocol: Protocol, message: Any) -> bytes:
    codec = _codec(protocol)
    inline = type(message).__name__ in {m.name for m in protocol.messages if m.inline_only}
    return codec.encode_inline(message) if inline else codec.encode(message)  # type: ignore[no-any-return]


@pytest.mark.parametrize("protocol", BINARY, ids=lambda p: p.name)
def test_binary_ranges_and_constants_refused_in_the_families_words(protocol: Protocol) -> None:
    """Every integer field of every message and of every struct it holds (from the definition, on each message's
    vectors): one past either end of its wire type's range is refused naming the field in the words the JSON
    families and the Java codec give a number out of range (the catalog's ``int_at_most``/``int_at_least``, not
    ``struct``'s); True is written as 1 and reads back equal (the binary family's rule: a value is refused when it
    would not read back equal, and True == 1; the JSON families refuse it because JSON would write ``true``).
    Every constant: another value of its type is refused naming the field in the words the JSON families give a
    constant (``jsonchecks.check_const``'s), where the frame would carry the constant and decode would give it back
    instead of the value; the constant itself is written."""
    codec = _codec(protocol)
    ranged: set[str] = set()
    constants: set[str] = set()
    seen: set[str] = set()
    for message in _binary_vectors(protocol):
        if type(message).__name__ in seen:
            continue
        seen.add(type(message).__name__)
        for owner, f, put in _binary_places(protocol, message):
            where = f"{owner}.{f.py}"
            listed = isinstance(f.type, ListRef)
            bounds = _integer_range(f)
            if bounds is not None and not f.has_const:
                low, high = bounds
                for value, reason in ((high + 1, _m.int_at_most(high=high)), (low - 1, _m.int_at_least(low=low))):
                    with pytest.raises(codec.EncodeError) as refused:
                        _encode_binary(protocol, put([value] if listed else value))
                    assert (refused.value.field, refused.value.reason) == (where, reason), where
                assert assert_binary(protocol, put([True] if listed else True)), where
                ranged.add(where)
            if f.has_const:
                other = (not f.const) if isinstance(f.const, bool) else f.const + 1
                with pytest.raises(jsonchecks.Refusal) as words:
                    jsonchecks.check_const(other, None, f.const)
                with pytest.raises(codec.EncodeError) as refused:
                    _encode_binary(protocol, put(other))
                assert (refused.value.field, refused.value.reason) == (where, words.value.reason), where
                assert assert_binary(protocol, put(f.const)), where
                constants.add(where)
    model = [*protocol.messages, *protocol.structs]
    every_integer = {f"{s.name}.{f.py}" for s in model for f in s.fields if _integer_range(f) and not f.has_const}
    every_constant = {f"{s.name}.{f.py}" for s in model for f in s.fields if f.has_const}
    assert ranged == every_integer, ranged ^ every_integer  # (each met in a vector, or held by one)
    assert constants == every_constant, constants ^ every_constant


@pytest.mark.parametrize(
    ("protocol", "message"), [(p, m) for p in BINARY for m in p.messages], ids=lambda v: getattr(v, "name", "")
)
@SETTINGS
@given(data=st.data())
def test_binary_valid_and_malformed_messages(protocol: Protocol, message: Message, data: Any) -> None:
    codec = _codec(protocol)
    original = codec.MESSAGES[message.name].from_dict(data.draw(message_strategy(protocol, message)))
    assert_binary(protocol, original)
    places = list(mutations(original, data.draw(HOSTILE_DEEP)))
    if places:
        assert_binary(protocol, data.draw(st.sampled_from(places)))


# ----------------------------------------------------------------------------------------------- the Kafka family
KAFKA = [p for p in PROTOCOLS if p.family == "kafka"]


def assert_kafka(protocol: Protocol, event: Any, mode: str) -> bool:
    """An event ``to_kafka`` writes is read back by ``from_kafka`` as an event that writes the same record (binary
    mode carries extension values as text, so the second event may hold "1" where the first held 1); one it refuses
    is refused with the protocol's EncodeError. The same for the JSON event format (``encode``/``decode``)."""
    codec = _codec(protocol)
    try:
        record = codec.to_kafka(event, mode)
    except codec.EncodeError:
        if mode == "structured":
            with pytest.raises(codec.EncodeError):  # (the JSON event format checks the same attributes)
                codec.encode(event)
        return False
    try:
        back = codec.from_kafka(record)
    except codec.DecodeError as exc:
        raise AssertionError(f"written as {record!r}, refused by from_kafka ({exc}): {_repr(event)}") from None
    assert codec.to_kafka(back, mode) == record, f"{_repr(event)} read back as {_repr(back)}"
    if mode == "structured":
        assert codec.encode(codec.decode(codec.encode(event))) == codec.encode(event)
    return True


def _kafka_events(protocol: Protocol) -> Iterator[Any]:
    codec = _codec(protocol)
    for version_dir in sorted((VECTORS / protocol.name).iterdir()):
        manifest = json.loads((version_dir / "manifest.json").read_text(encoding="utf-8"))
        for entry in manifest["records"]:
            headers = [(name, None if v is None else bytes.fromhex(v)) for name, v in entry["headers"]]
            value = None if entry["value"] is None else bytes.fromhex(entry["value"])
            yield codec.from_kafka(codec.KafkaRecord(key=None, value=value, headers=headers))


@pytest.mark.parametrize("protocol", KAFKA, ids=lambda p: p.name)
def test_kafka_every_vector_and_every_mutation_of_it(protocol: Protocol) -> None:
    """Every record vector, read, then given each hostile value in each attribute (extensions: as a value and as a
    name), in both content modes."""
    written = refused = 0
    events = list(_kafka_events(protocol))
    assert events
    for event in events:
        for mode in ("binary", "structured"):
            written += assert_kafka(protocol, event, mode)
    for event in events[:4]:
        for hostile in HOSTILE:
            named: list[Any] = []
            if isinstance(event.extensions, dict) and getattr(hostile, "__hash__", None) is not None:
                named.append(_replaced(event, "extensions", {**event.extensions, hostile: "x"}))
            for mutated in [*mutations(event, hostile), *named]:
                for mode in ("binary", "structured"):
                    if assert_kafka(protocol, mutated, mode):
                        written += 1
                    else:
                        refused += 1
    assert written > 50 and refused > 500, (written, refused)


def _reads_as_structured(protocol: Protocol, event: Any) -> bool:
    """Whether an event's ``datacontenttype`` starts with the structured-mode prefix (ASCII case-insensitive): in
    binary mode it becomes the ``content-type`` header, so the record reads back as a structured one."""
    prefix = protocol.framing.detection.structured_prefix  # type: ignore[union-attr]
    content_type = getattr(event, "datacontenttype", None)
    return isinstance(content_type, str) and content_type[: len(prefix)].lower() == prefix


@pytest.mark.parametrize(
    ("protocol", "message"), [(p, m) for p in KAFKA for m in p.messages], ids=lambda v: getattr(v, "name", "")
)
@SETTINGS
@given(data=st.data())
def test_kafka_valid_and_malformed_events(protocol: Protocol, message: Message, data: Any) -> None:
    """Events drawn from the definition (tests/strategies.py: URIs, media types, extension names as the framing
    allows them, extension values of every type, payloads of every kind), then one hostile value in one place: in
    both content modes, what to_kafka writes reads back as an event that writes the same record, or it is refused.
    A binary-mode event whose datacontenttype starts with the structured prefix is refused (the test below)."""
    codec = _codec(protocol)
    event = codec.MESSAGES[message.name].from_dict(data.draw(message_strategy(protocol, message)))
    places = list(mutations(event, data.draw(HOSTILE_DEEP)))
    for candidate in [event, *([data.draw(st.sampled_from(places))] if places else [])]:
        for mode in ("binary", "structured"):
            assert_kafka(protocol, candidate, mode)


@pytest.mark.parametrize("protocol", KAFKA, ids=lambda p: p.name)
def test_kafka_binary_mode_with_a_structured_content_type(protocol: Protocol) -> None:
    """A content type starting with the structured prefix, as binary mode's content-type header, would make the
    record read as structured mode (the spec's Kafka binding tells the modes apart by that header): binary mode
    refuses it, naming the attribute; structured mode writes it."""
    event = next(_kafka_events(protocol))
    prefix = protocol.framing.detection.structured_prefix  # type: ignore[union-attr]
    for content_type in (prefix + "+json", prefix.upper() + "+json; charset=utf-8"):
        event = _replaced(event, "datacontenttype", content_type)
        assert _reads_as_structured(protocol, event)
        assert not assert_kafka(protocol, event, "binary")  # refused: the record would read as structured mode
        with pytest.raises(_codec(protocol).EncodeError) as caught:
            _codec(protocol).to_kafka(event, "binary")
        assert caught.value.field == "datacontenttype" and "structured content mode" in caught.value.reason
        assert assert_kafka(protocol, event, "structured")  # which carries it
