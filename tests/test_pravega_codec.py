"""Pravega codec: every command round-trips; older layouts and truncated, corrupt or hostile frames decode as Java's
WireCommands/CommandDecoder do (Java's defaults, or the module's DecodeError and never another exception).

Values are derived from the definition's model (every field gets its own value, of its own wire type), and the
layout oracle used for older and truncated frames reads the definition's presence rules, not the generated code.
The facts about Java checked one by one cite ``WireCommands.java`` (W) at pravega/pravega 3142a01075.
"""

from __future__ import annotations

import itertools
import random
import shutil
import struct
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamcodecs import pravega as pv

from streamcodecs_gen.model import EnumRef, Field, ListRef, Message, Protocol, StructRef, TypeRef, WireRef
from streamcodecs_gen.pipeline import load_protocols

REPO = Path(__file__).resolve().parent.parent
W = uuid.UUID("00000000-0000-0001-0000-000000000002")
HEADER = struct.Struct(">ii")


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Protocol:
    folder = tmp_path_factory.mktemp("defs")  # only this definition: others may be mid-edit
    shutil.copy(REPO / "protocol-definitions" / "pravega.yaml", folder)
    (protocol,) = load_protocols(folder, folder, only=["pravega"])
    return protocol


def frame(code: int, payload: bytes) -> bytes:
    return HEADER.pack(code, len(payload)) + payload


def utf(text: str) -> bytes:
    data = text.encode("ascii")  # ASCII is the same in modified UTF-8
    return struct.pack(">H", len(data)) + data


def i64(v: int) -> bytes:
    return struct.pack(">q", v)


def i32(v: int) -> bytes:
    return struct.pack(">i", v)


# -- values from the model ------------------------------------------------------------------------------------------


class Sampler:
    """A distinct value for every field, of the field's own wire type (the type registry's reference values)."""

    def __init__(self, seed: int = 0) -> None:
        self.i = seed

    def field_value(self, f: Field) -> Any:
        if f.has_const:
            return f.const
        self.i += 1
        return self.value(f.type, f)

    def value(self, ref: TypeRef, f: Field | None = None) -> Any:
        i = self.i
        match ref:
            case WireRef(wire=wire):
                return wire.reference(i)
            case EnumRef(enum=enum):
                if enum.is_open and i % 2:
                    return 100 + i % 27  # not a member: an open enum keeps it
                members = [m for m in getattr(pv, enum.name) if f is None or m.name != f.default]
                return members[i % len(members)]
            case ListRef(item=item):
                items = []
                for _ in range(2):
                    self.i += 1
                    items.append(self.value(item))
                return items
            case StructRef(struct=owner):
                return getattr(pv, owner.name)(**{g.py: self.field_value(g) for g in owner.fields})
        raise TypeError(f"no sample of type {ref.text}")


def sample(m: Message, seed: int = 0) -> Any:
    sampler = Sampler(seed)
    return getattr(pv, m.name)(**{f.py: sampler.field_value(f) for f in m.fields})


def default_of(f: Field) -> Any:
    if isinstance(f.type, EnumRef):
        return getattr(getattr(pv, f.type.enum.name), f.default)
    if isinstance(f.type, WireRef) and f.type.wire.py == "bytes":
        return f.default.encode()
    return f.default


def top_level(model: Protocol) -> list[Message]:
    return [m for m in model.messages if not m.inline_only]


MESSAGE_NAMES = sorted(name for name, cls in pv.MESSAGES.items() if cls is not pv.Event)


def message_of(model: Protocol, name: str) -> Message:
    return next(m for m in model.messages if m.name == name)


# -- a layout oracle from the definition ------------------------------------------------------------------------------


def java_utf_length(text: str) -> int:
    """DataOutputStream.writeUTF's byte count: per UTF-16 unit, 1 for U+0001..U+007F, 3 above U+07FF, else 2."""
    units = text.encode("utf-16-be", "surrogatepass")
    total = 0
    for k in range(0, len(units), 2):
        c = units[k] << 8 | units[k + 1]
        total += 1 if 1 <= c <= 0x7F else 3 if c > 0x7FF else 2
    return total


def wire_size(ref: TypeRef, value: Any) -> int:
    match ref:
        case EnumRef(enum=enum):
            return struct.calcsize(">" + {"int8": "b", "int16": "h", "int32": "i", "int64": "q"}[enum.wire])
        case ListRef(item=item):
            return 4 + sum(wire_size(item, v) for v in value)
        case StructRef(struct=owner):
            size = 4 if owner.size_prefix else 0
            for f in owner.fields:
                if f.when_nonempty and not getattr(
                    value, next(g.py for g in owner.fields if g.name == f.when_nonempty)
                ):
                    continue
                size += wire_size(f.type, getattr(value, f.py))
            return size
        case WireRef(wire=wire):
            if wire.size:
                return wire.size
            return {"mutf8": lambda v: 2 + java_utf_length(v), "bytes": lambda v: 4 + len(v)}[wire.name](value)
    raise TypeError(f"no size of type {ref.text}")


def flat(fields: list[Field], value: Any) -> Iterator[tuple[Field, Any]]:
    """Fields in wire order, with the fields of unprefixed structs inlined (their trailing rules apply in place)."""
    for f in fields:
        v = getattr(value, f.py)
        if isinstance(f.type, StructRef) and not f.type.struct.size_prefix:
            yield from flat(f.type.struct.fields, v)
        else:
            assert f.when_nonempty is None
            yield f, v


def expected_after_cut(m: Message, message: Any, length: int) -> list[Any] | None:
    """What Java reads from the first ``length`` payload bytes of ``message``: the values (defaults for trailing
    fields it skips), or None where it fails (a field cut short, or a presence check passed with too few bytes)."""
    pos, values = 0, []
    for f, v in flat(m.fields, message):
        left = length - pos
        if f.presence is not None and left < f.presence:
            values.append(default_of(f))
            continue
        if isinstance(f.type, WireRef) and f.type.wire.trailing:
            values.append(v[:left] if isinstance(v, bytes) else left)
            pos = length
            continue
        size = wire_size(f.type, v)
        if left < size:
            return None
        values.append(v)
        pos += size
    return values


# -- round trips ----------------------------------------------------------------------------------------------------


def test_the_package_has_every_command_of_the_definition(model: Protocol) -> None:
    assert sorted(m.name for m in model.messages) == sorted(pv.MESSAGES)
    assert {m.name: m.code for m in model.messages} == {n: c.CODE for n, c in pv.MESSAGES.items()}
    assert len(pv.MESSAGES) == 70 and pv.VERSION == "17" and pv.WIRE_VERSION == 17
    assert pv.OLDEST_COMPATIBLE_VERSION == 5 and pv.MAX_FRAME == pv.MAX_WIRECOMMAND_SIZE == 0xFFFFFF


@pytest.mark.parametrize("name", MESSAGE_NAMES)
def test_round_trip_with_a_distinct_value_in_every_field(model: Protocol, name: str) -> None:
    m = message_of(model, name)
    message = sample(m)
    data = pv.encode(message)
    code, length = HEADER.unpack_from(data)
    assert code == m.code and length == len(data) - 8
    decoded = pv.decode(data)
    assert decoded == message and type(decoded) is type(message)
    assert pv.encode(decoded) == data
    assert type(message).from_dict(message.to_dict()) == message
    for direction in pv.DIRECTIONS:
        if direction in m.directions:
            assert pv.decode(data, direction=direction) == message
        else:
            with pytest.raises(pv.DecodeError, match="direction"):
                pv.decode(data, direction=direction)
    # A second sample with other values gives other bytes wherever the message has fields.
    if m.fields and not all(f.has_const for f in m.fields):
        assert pv.encode(sample(m, seed=1)) != data


def test_distinct_values_catch_swapped_fields(model: Protocol) -> None:
    """The sampler gives fields of one message different values, so a field written in the wrong slot shows."""
    for m in top_level(model):
        values = [
            v
            for f, v in flat(m.fields, sample(m))
            if isinstance(f.type, WireRef) and f.type.wire.name in ("int32", "int64", "uuid", "mutf8", "bytes")
        ]
        assert len({repr(v) for v in values}) == len(values), m.name


def test_event_is_never_a_top_level_frame() -> None:
    event = pv.Event(data=b"abc")
    with pytest.raises(pv.EncodeError):
        pv.encode(event)
    inline = pv.encode_inline(event)
    assert inline == bytes.fromhex("0000000000000003616263")
    with pytest.raises(pv.DecodeError, match="never a top-level frame"):
        pv.decode(inline)
    with pytest.raises(pv.DecodeError, match="never a top-level frame"):
        pv.Reader().feed(inline)


# -- older layouts and truncation (the oracle from the definition) ---------------------------------------------------


@pytest.mark.parametrize("name", MESSAGE_NAMES)
def test_every_cut_of_the_payload_decodes_as_java_reads_it(model: Protocol, name: str) -> None:
    """A frame whose header is consistent but whose payload stops early is an older peer's layout where Java fills
    defaults, and a DecodeError where Java fails; the oracle reads the definition's presence rules."""
    m = message_of(model, name)
    message = sample(m)
    payload = pv.encode(message)[8:]
    successes = 0
    for length in range(len(payload) + 1):
        cut = frame(m.code, payload[:length])
        expected = expected_after_cut(m, message, length)
        if expected is None:
            with pytest.raises(pv.DecodeError):
                pv.decode(cut)
        else:
            decoded = pv.decode(cut)
            assert [v for _, v in flat(m.fields, decoded)] == expected, (name, length)
            successes += 1
    assert successes >= 1  # at least the whole frame


@pytest.mark.parametrize("name", MESSAGE_NAMES)
def test_unknown_trailing_bytes_are_skipped(model: Protocol, name: str) -> None:
    m = message_of(model, name)
    message = sample(m)
    extra = b"\x00newer-field\xff"
    decoded = pv.decode(frame(m.code, pv.encode(message)[8:] + extra))
    last = m.fields[-1] if m.fields else None
    if last and isinstance(last.type, WireRef) and last.type.wire.trailing:
        # A field that takes the rest of the frame takes the extra bytes too (AppendBlock, PartialEvent, Padding).
        grown = getattr(message, last.py) + (extra if last.type.wire.py == "bytes" else len(extra))
        setattr(message, last.py, grown)
    assert decoded == message


def test_each_version_decodes_with_javas_defaults(model: Protocol) -> None:
    """For every version, the layout of that version (the fields it had) decodes with the newer fields' defaults."""
    checked = 0
    for m in top_level(model):
        message = sample(m)
        for version in pv.VERSIONS:
            if int(version) < int(m.since):
                continue
            old = [f for f in m.fields if int(f.since) <= int(version)]
            if len(old) == len(m.fields):
                continue
            size = sum(wire_size(f.type, getattr(message, f.py)) for f in old)
            decoded = pv.decode(frame(m.code, pv.encode(message)[8 : 8 + size]))
            for f in m.fields:
                want = getattr(message, f.py) if f in old else default_of(f)
                assert getattr(decoded, f.py) == want, (m.name, version, f.name)
            checked += 1
    assert checked >= 20


# -- Java facts, one by one -------------------------------------------------------------------------------------------


def test_invalid_event_number_before_16_decodes_as_java_does() -> None:
    """v16 put requestId where eventNumber was; Java (testCompatibilityInvalidEventNumberV15) reads an old frame's
    eventNumber as requestId and eventNumber = -1 (W L382-386)."""
    v15 = pv.decode(frame(55, W.bytes + i64(42) + utf("trace")))
    assert (v15.writer_id, v15.request_id, v15.server_stack_trace, v15.event_number) == (W, 42, "trace", -1)
    v5 = pv.decode(frame(55, W.bytes + i64(42)))
    assert (v5.request_id, v5.server_stack_trace, v5.event_number) == (42, "", -1)


def test_append_block_end_before_8_has_an_unused_slot() -> None:
    """v5-v7 wrote an unused int64 (0) where requestId is now; requestId is read if 8 bytes remain (W L620)."""
    body = W.bytes + i32(11) + i32(0) + i32(1) + i64(0)
    assert pv.decode(frame(4, body + i64(0))).request_id == 0
    assert pv.decode(frame(4, body)).request_id == -1


def test_old_data_appended_and_stream_segment_info() -> None:
    """DataAppended's three trailing int64 default to -1 (W L747-749); StreamSegmentInfo.startOffset to 0."""
    d = pv.decode(frame(7, W.bytes + i64(5)))
    assert (d.previous_event_number, d.request_id, d.current_segment_write_offset) == (-1, -1, -1)
    info = pv.decode(frame(12, i64(1) + utf("s") + b"\x01\x00\x00" + i64(2) + i64(3)))
    assert info.start_offset == 0 and info.exists and not info.is_sealed


def test_create_table_segment_checks_each_trailing_field_in_turn() -> None:
    """sorted if >= 1 byte, keyLength if >= 4, rollover if >= 8, each checked on what is left (W L1358-1366)."""
    head = i64(1) + utf("t") + utf("")
    three = pv.decode(frame(70, head + b"\x01\x00\x07"))
    assert (three.sorted_deprecated, three.key_length, three.rollover_size_bytes) == (True, 0, 0)
    five = pv.decode(frame(70, head + b"\x00" + i32(16)))
    assert (five.sorted_deprecated, five.key_length, five.rollover_size_bytes) == (False, 16, 0)


def test_greater_than_zero_presence_fails_on_a_partial_int64() -> None:
    """SegmentsMerged.newTargetWriteOffset and tableSegmentOffset are read when any byte remains (W L1628, L2126)."""
    body = i64(1) + utf("a") + utf("b")
    assert pv.decode(frame(59, body)).new_target_write_offset == -1
    for extra in range(1, 8):
        with pytest.raises(pv.DecodeError):
            pv.decode(frame(59, body + bytes(extra)))


def test_auth_token_check_failed_error_codes() -> None:
    """Absent code: UNSPECIFIED (-1); unknown code: TOKEN_CHECK_FAILED (ErrorCode.valueOf, W L2001-2003)."""
    only_id = pv.decode(frame(60, i64(6)))
    assert (only_id.server_stack_trace, only_id.error_code) == ("", pv.AuthTokenCheckFailedErrorCode.UNSPECIFIED)
    unknown = pv.decode(frame(60, i64(6) + utf("") + i32(42)))
    assert unknown.error_code is pv.AuthTokenCheckFailedErrorCode.TOKEN_CHECK_FAILED
    error = pv.decode(frame(61, i64(1) + utf("s") + utf("m") + i32(99)))
    assert error.error_code is pv.ErrorMessageErrorCode.UNSPECIFIED


def test_open_enums_keep_unknown_values() -> None:
    """Java's wire decoder keeps the raw ScaleType/AttributeUpdateType byte (W L1245, L2911)."""
    body = i64(3) + utf("s") + i32(5) + b"\x07" + utf("") + i64(0)
    created = pv.decode(frame(20, body))
    assert created.scale_type == 7 and not isinstance(created.scale_type, pv.ScaleType)
    assert pv.encode(created) == frame(20, body)
    update = W.bytes + b"\x09" + i64(1) + i64(2)
    merge = pv.decode(frame(58, i64(1) + utf("t") + utf("s") + utf("") + i32(1) + update))
    assert merge.attribute_updates[0].attribute_update_type == 9
    assert pv.decode(frame(20, body.replace(b"\x07", b"\x01"))).scale_type is pv.ScaleType.THROUGHPUT


def test_negative_lengths_read_as_empty_where_java_does() -> None:
    """AppendBlockEnd/ConditionalBlockEnd data (W L613, L2826), the TableEntries count (L2544) and the MergeSegments
    list (L1590-1596) read a negative length as empty; everywhere else a negative length is an error."""
    end = pv.decode(frame(4, W.bytes + i32(0) + i32(-5) + i32(1) + i64(3) + i64(9)))
    assert (end.data, end.num_events, end.last_event_number, end.request_id) == (b"", 1, 3, 9)
    cond = pv.decode(frame(89, W.bytes + i64(1) + i64(2) + i32(-1) + i64(7)))
    assert (cond.data, cond.request_id) == (b"", 7)
    table = pv.decode(frame(74, i64(1) + utf("t") + utf("") + i32(-3) + i64(4)))
    assert table.table_entries.entries == [] and table.table_segment_offset == 4
    merge = pv.decode(frame(58, i64(1) + utf("t") + utf("s") + utf("") + i32(-2)))
    assert merge.attribute_updates == []
    with pytest.raises(pv.DecodeError, match="length -1"):
        pv.decode(frame(10, utf("s") + i64(0) + b"\x00\x00" + i32(-1) + i64(2)))
    with pytest.raises(pv.DecodeError, match="count -1"):
        pv.decode(frame(75, i64(1) + i32(-1)))


def test_table_key_and_value_size_prefixes() -> None:
    """An empty key is written 0000000C 00000000 (the prefix counts the absent version, W L2573) and read back
    without a version; a non-empty key fails when the bytes left before the prefix are fewer than the prefix
    (L2581-2594), and a prefix that is too small is accepted.  TableValue likewise (L2612-2632)."""
    empty = pv.encode(pv.TableKeysRead(request_id=1, segment="t", keys=[pv.TableKey(data=b"")], continuation_token=b""))
    assert empty.endswith(i32(1) + bytes.fromhex("0000000c00000000") + i32(0))
    assert pv.decode(empty).keys == [pv.TableKey(data=b"", key_version=pv.TABLE_KEY_NO_VERSION)]
    head = i64(1) + utf("t") + i32(1)
    key = b"k" + i64(5)
    for prefix, ok in ((4 + 1 + 8, True), (0, True), (4 + 1 + 8 + 4 + 4, True), (4 + 1 + 8 + 4 + 5, False)):
        data = frame(84, head + i32(prefix) + i32(1) + key + i32(0))  # 8 bytes left after the key: the token
        if ok:
            assert pv.decode(data).keys == [pv.TableKey(data=b"k", key_version=5)]
        else:
            with pytest.raises(pv.DecodeError, match="TableKey size"):
                pv.decode(data)
    value = pv.encode(
        pv.TableRead(
            request_id=1,
            segment="t",
            entries=pv.TableEntries(entries=[pv.TableEntry(key=pv.TableKey(data=b""), value=pv.TableValue(data=b""))]),
        )
    )
    assert value.endswith(bytes.fromhex("0000000c000000000000000400000000"))


def test_segments_batch_merged_pairs_are_interleaved() -> None:
    message = pv.SegmentsBatchMerged(
        request_id=1,
        target="t",
        merged_sources=[
            pv.MergedSegment(source="a", new_target_write_offset=10),
            pv.MergedSegment(source="b", new_target_write_offset=20),
        ],
    )
    assert pv.encode(message) == frame(91, i64(1) + utf("t") + i32(2) + utf("a") + i64(10) + utf("b") + i64(20))


def test_conditional_append_inline_event_checks() -> None:
    """The inner event must be type 0 (W L662) and fit the frame (L666)."""
    head = W.bytes + i64(1) + i64(2)
    good = pv.decode(frame(5, head + i32(0) + i32(3) + b"abc" + i64(9)))
    assert good.event.data == b"abc" and good.request_id == 9
    with pytest.raises(pv.DecodeError):
        pv.decode(frame(5, head + i32(3) + i32(3) + b"abc" + i64(9)))
    with pytest.raises(pv.DecodeError):
        pv.decode(frame(5, head + i32(0) + i32(30) + b"abc" + i64(9)))


def test_padding_bytes_are_not_checked_and_bool_is_any_non_zero() -> None:
    assert pv.decode(frame(-1, b"\x01\x02\x03")) == pv.Padding(length=3)
    assert pv.encode(pv.Padding(length=3)) == frame(-1, bytes(3))
    read = pv.decode(frame(10, utf("s") + i64(0) + b"\x07\x80" + i32(0) + i64(1)))
    assert read.at_tail is True and read.end_of_segment is True


def test_modified_utf8_as_java_reads_and_writes_it() -> None:
    """DataInputStream.readUTF: C0 80 and a raw 00 are NUL, overlong forms are accepted, 4-byte UTF-8, stray
    continuation bytes and cut sequences are rejected; writeUTF writes NUL as C0 80 and astral characters as two
    3-byte surrogates."""

    def created(raw: bytes) -> pv.SegmentCreated:
        return pv.decode(frame(21, i64(1) + struct.pack(">H", len(raw)) + raw))

    assert created(b"a\xc0\x80b").segment == "a\x00b"
    assert created(b"a\x00b").segment == "a\x00b"
    assert created(b"\xc1\x81").segment == "A"  # overlong 2-byte
    assert created(b"\xe0\x81\x81").segment == "A"  # overlong 3-byte
    assert created(b"\xed\xa0\xbd\xed\xb8\x80").segment == "\U0001f600"  # a surrogate pair joins
    assert created(b"\xed\xa0\xbd").segment == "\ud83d"  # an unpaired surrogate stays, as in a Java String
    for bad in (b"\xf0\x9f\x98\x80", b"\x80", b"a\xc3", b"\xe2\x82", b"\xc3\x28", b"\xff"):
        with pytest.raises(pv.DecodeError, match="modified UTF-8"):
            created(bad)
    encoded = pv.encode(pv.SegmentCreated(request_id=1, segment="\x00\U0001f600"))
    assert encoded.endswith(b"\x00\x08\xc0\x80\xed\xa0\xbd\xed\xb8\x80")
    with pytest.raises(pv.EncodeError):
        pv.encode(pv.SegmentCreated(request_id=1, segment="x" * 65536))
    assert len(pv.encode(pv.SegmentCreated(request_id=1, segment="x" * 65535))) == 8 + 8 + 2 + 65535


def test_max_wirecommand_size_applies_to_the_whole_frame() -> None:
    fixed = 8 + 2 + 1 + 8 + 2 + 4 + 8  # header, segment "s", offset, two bools, data length, requestId
    biggest = pv.SegmentRead(
        segment="s",
        offset=0,
        at_tail=False,
        end_of_segment=False,
        data=bytes(pv.MAX_WIRECOMMAND_SIZE - fixed),
        request_id=1,
    )
    data = pv.encode(biggest)
    assert len(data) == pv.MAX_WIRECOMMAND_SIZE and pv.decode(data) == biggest
    biggest.data += b"\x00"
    with pytest.raises(pv.EncodeError, match="MAX_FRAME"):
        pv.encode(biggest)
    too_long = HEADER.pack(10, pv.MAX_WIRECOMMAND_SIZE - 7)
    with pytest.raises(pv.DecodeError, match="outside"):
        pv.decode(too_long + bytes(pv.MAX_WIRECOMMAND_SIZE - 7))
    reader = pv.Reader()
    with pytest.raises(pv.DecodeError, match="outside"):
        reader.feed(too_long)  # refused at the header, without waiting for 16 MiB
    with pytest.raises(pv.DecodeError):
        reader.feed(b"")  # the stream stays unreadable


@pytest.mark.parametrize("code", [6, 13, 22, 43, 54, 72, 73, 99, 101, -7, -126, 1 << 20])
def test_unknown_type_codes(code: int) -> None:
    with pytest.raises(pv.DecodeError, match="unknown type code"):
        pv.decode(frame(code, b""))


def test_header_errors() -> None:
    keep_alive = frame(100, b"")
    for data in (b"", keep_alive[:7], HEADER.pack(100, -1), HEADER.pack(100, 1), keep_alive + b"\x00"):
        with pytest.raises(pv.DecodeError):
            pv.decode(data)
    with pytest.raises(ValueError, match="direction"):
        pv.decode(keep_alive, direction="sideways")


def test_strings_lists_and_bytes_past_the_frame() -> None:
    with pytest.raises(pv.DecodeError, match="runs past"):
        pv.decode(frame(21, i64(1) + b"\xff\xff" + b"abc"))
    with pytest.raises(pv.DecodeError, match="count"):
        pv.decode(frame(75, i64(1) + i32(0x7FFFFFFF)))
    with pytest.raises(pv.DecodeError, match="length"):
        pv.decode(frame(10, utf("s") + i64(0) + b"\x00\x00" + i32(100) + b"abc"))


# -- corrupt frames ---------------------------------------------------------------------------------------------------


def all_frames(model: Protocol) -> list[bytes]:
    return [pv.encode(sample(m, seed)) for m in top_level(model) for seed in (0, 7)]


def decode_or_error(data: bytes) -> None:
    try:
        message = pv.decode(data)
    except pv.DecodeError:
        return
    pv.encode(message)  # whatever decodes also encodes


def test_every_truncation_of_every_frame_raises_decode_error(model: Protocol) -> None:
    count = 0
    for data in all_frames(model):
        for length in range(len(data)):
            with pytest.raises(pv.DecodeError):
                pv.decode(data[:length])
            count += 1
    assert count > 1000


def test_flipped_bytes_raise_only_decode_error(model: Protocol) -> None:
    for data in all_frames(model):
        for index, mask in itertools.product(range(len(data)), (0xFF, 0x80, 0x01)):
            corrupt = bytearray(data)
            corrupt[index] ^= mask
            decode_or_error(bytes(corrupt))


@settings(max_examples=400, deadline=None)
@given(code=st.sampled_from(sorted(c.CODE for c in pv.MESSAGES.values())), payload=st.binary(max_size=120))
def test_random_payloads_raise_only_decode_error(code: int, payload: bytes) -> None:
    decode_or_error(frame(code, payload))


# -- Reader -----------------------------------------------------------------------------------------------------------


def stream_of(model: Protocol) -> tuple[bytes, list[Any]]:
    messages = [sample(m, seed) for m in top_level(model) for seed in (0, 3)]
    return b"".join(pv.encode(m) for m in messages), messages


def test_reader_at_every_cut(model: Protocol) -> None:
    data, messages = stream_of(model)
    for cut in range(len(data) + 1):
        reader = pv.Reader()
        assert reader.feed(data[:cut]) + reader.feed(data[cut:]) == messages
        assert reader.buffered == 0 and reader.offset == len(data)


def test_reader_byte_by_byte_buffers_only_the_cut_frame(model: Protocol) -> None:
    data, messages = stream_of(model)
    ends = list(itertools.accumulate(len(pv.encode(m)) for m in messages))
    reader, got = pv.Reader(), []
    for pos in range(len(data)):
        got += reader.feed(data[pos : pos + 1])
        done = sum(1 for e in ends if e <= pos + 1)
        assert len(got) == done
        start = ends[done - 1] if done else 0
        assert reader.buffered == pos + 1 - start  # only the frame being cut is held
        assert reader.offset == start
    assert got == messages


def test_reader_random_chunks_and_buffer_types(model: Protocol) -> None:
    data, messages = stream_of(model)
    rng = random.Random(5)
    for kind in (bytes, bytearray, memoryview):
        reader, got, pos = pv.Reader(), [], 0
        while pos < len(data):
            step = rng.choice((1, 2, 7, 8, 9, 50, 333, 4096))
            chunk = bytearray(data[pos : pos + step])
            got += reader.feed(kind(chunk) if kind is not bytearray else chunk)
            chunk[:] = b"\xee" * len(chunk)  # the caller reuses its buffer: decoded messages must not change
            pos += step
        assert got == messages


def test_reader_goes_on_after_a_bad_payload(model: Protocol) -> None:
    first = pv.encode(pv.KeepAlive())
    bad = frame(21, i64(1) + b"\xff\xff")  # a string running past its frame
    after = pv.encode(pv.Hello(high_version=17, low_version=5))
    reader = pv.Reader()
    with pytest.raises(pv.DecodeError) as info:
        reader.feed(first + bad + after[:3])
    assert info.value.decoded == [pv.KeepAlive()] and info.value.offset == len(first) + 16
    assert reader.feed(after[3:]) == [pv.Hello(high_version=17, low_version=5)]
    # The same when the bad frame was cut across feeds.
    reader = pv.Reader()
    assert reader.feed(bad[:5]) == []
    with pytest.raises(pv.DecodeError):
        reader.feed(bad[5:] + after)
    assert reader.feed(b"") == [pv.Hello(high_version=17, low_version=5)]


def test_reader_directions_and_limits() -> None:
    setup = pv.encode(pv.AppendSetup(request_id=1, segment="s", writer_id=W, last_event_number=0))
    with pytest.raises(pv.DecodeError, match="direction"):
        pv.Reader(direction="request").feed(setup)
    assert pv.Reader(direction="reply").feed(setup)[0].segment == "s"
    with pytest.raises(pv.DecodeError, match="outside"):
        pv.Reader(max_frame=16).feed(setup[:8])
    with pytest.raises(pv.DecodeError, match="outside"):
        pv.Reader().feed(HEADER.pack(100, -1))


def test_a_null_in_a_field_not_written_is_refused_as_the_java_codec_refuses_it() -> None:
    # A constant (InlineEvent.type_code) or a field an empty key leaves out (TableKey.key_version) is not written
    # from the value, but a null there is refused, naming the field, as when it is written and as on the JVM path
    # (issue 28: one rule on both paths; the definition gives a null no meaning).
    inline = pv.InlineEvent(type_code=None, data=b"x")  # type: ignore[arg-type]
    appended = pv.ConditionalAppend(writer_id=uuid.UUID(int=1), event_number=1, expected_offset=0, event=inline)
    with pytest.raises(pv.EncodeError, match="required argument is not an integer") as refused:
        pv.encode(appended)
    assert refused.value.field == "InlineEvent.type_code"
    key = pv.TableKey(data=b"", key_version=None)  # type: ignore[arg-type]
    removed = pv.RemoveTableKeys(request_id=1, segment="s", delegation_token="", keys=[key])
    with pytest.raises(pv.EncodeError, match="required argument is not an integer") as refused:
        pv.encode(removed)
    assert refused.value.field == "TableKey.key_version"
    key.key_version = -9223372036854775808  # the default, which an empty key decodes as
    assert pv.decode(pv.encode(removed)) == removed
