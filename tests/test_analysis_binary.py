"""How the binary family's Python codec reads, converts and writes each field (streamcodecs_gen.analysis.binary)."""

from __future__ import annotations

from pathlib import Path

import pytest

from streamcodecs_gen.analysis.binary import PythonBinary, python_context
from streamcodecs_gen.analysis.exports import CONTRACT
from streamcodecs_gen.model import EnumRef, Field, Protocol, Struct, WireRef
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.types import WIRE_TYPES

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def fixture() -> Protocol:
    protocols = load_protocols(REPO / "tests" / "fixtures" / "defs", REPO, id_check=False)
    (found,) = [p for p in protocols if p.name == "fixture"]
    return found


@pytest.fixture(scope="module")
def py(fixture: Protocol) -> PythonBinary:
    found = python_context(fixture)["py"]
    assert isinstance(found, PythonBinary)
    return found


def owner_field(protocol: Protocol, owner: str, name: str) -> tuple[Struct, Field]:
    found = next(s for s in [*protocol.structs, *protocol.messages] if s.name == owner)
    return found, next(f for f in found.fields if f.name == name)


def test_struct_unpacked_values_convert_by_their_type(py: PythonBinary) -> None:
    uuid = WireRef("uuid", WIRE_TYPES["uuid"])
    assert py.converted(uuid, "v") == WIRE_TYPES["uuid"].from_struct.format("v")
    assert py.converted(WireRef("int64", WIRE_TYPES["int64"]), "v") is None
    enum = next(e for e in py.protocol.enums if e.name == "Color")
    assert py.converted(EnumRef("Color", enum), "v") == "_to_Color(v, pos)"


def test_fields_of_variable_size_are_read_by_their_class(fixture: Protocol, py: PythonBinary) -> None:
    owner, blob = owner_field(fixture, "Everything", "blob")
    assert py.read(owner, blob) == (
        '_rt.read_bytes_int32(buf, pos, end, "Everything.blob", DecodeError, negative_empty=True)'
    )
    owner, pairs = owner_field(fixture, "Everything", "pairs")
    assert py.read(owner, pairs) == '_rt.read_list(buf, pos, end, "Everything.pairs", _read_item_pair, 14, DecodeError)'
    owner, inline = owner_field(fixture, "Everything", "inline")
    assert py.read(owner, inline) == "_read_inline(buf, pos, end)"


def test_writes_by_class(fixture: Protocol, py: PythonBinary) -> None:
    owner, numbers = owner_field(fixture, "Everything", "numbers")
    assert py.write(owner, numbers, "value.numbers").splitlines() == [
        "parts.append(_rt.I32.pack(len(value.numbers if type(value.numbers) is list"
        " else _rt.strict_list(value.numbers))))",
        "for item in value.numbers:",
        "    parts.append(_STRUCT_INT64.pack(item))",
    ]
    owner, color = owner_field(fixture, "Everything", "color")
    assert py.write(owner, color, "value.color") == (  # a closed enum: a member, or an int equal to one
        "parts.append(_STRUCT_INT8.pack(value.color if type(value.color) is Color"
        " else _rt.strict_enum(value.color, Color, 'expected a member of Color, got {value}')))"
    )
    owner, inline = owner_field(fixture, "Everything", "inline")
    assert py.write(owner, inline, "value.inline") == "_write_inline(value.inline, parts)"
    owner, kind = owner_field(fixture, "Inline", "kind")
    assert py.written(kind, "value") == "0"  # a constant is written as itself


def test_one_item_reader_per_item_type(py: PythonBinary) -> None:
    readers = {r.name: r for r in py.item_readers}
    assert sorted(readers) == ["_read_item_int64", "_read_item_key", "_read_item_mutf8", "_read_item_pair"]
    assert readers["_read_item_int64"].call is None and readers["_read_item_int64"].size == 8
    assert readers["_read_item_pair"].call == "_read_pair(buf, pos, end)"
    assert readers["_read_item_mutf8"].call == '_rt.read_mutf8(buf, pos, end, "list item", DecodeError)'


def test_exports_are_the_contract_then_the_protocol_names(py: PythonBinary) -> None:
    assert py.exports[:13] == [
        "DIRECTIONS",
        "MAX_FRAME",
        "MESSAGES",
        "VERSION",
        "VERSIONS",
        "DecodeError",
        "EncodeError",
        "Message",
        "Reader",
        "decode",
        "encode",
        "encode_inline",
        "owned",
    ]
    assert set(CONTRACT) <= set(py.exports[:13])
    assert py.exports[13:16] == ["MAGIC", "Color", "Open"]


def test_a_runs_struct_is_named_after_its_values_wire_types() -> None:
    from streamcodecs_gen.layout import struct_constant

    assert struct_constant(">16sbqq") == "_STRUCT_UUID_INT8_INT64X2"
    assert struct_constant(">???qq") == "_STRUCT_BOOLX3_INT64X2"
    assert struct_constant(">b") != struct_constant(">?")  # int8 and bool: distinct names
    assert struct_constant(">iiq?") == "_STRUCT_INT32X2_INT64_BOOL"
