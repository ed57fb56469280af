"""The wire-type registry answers what callers used to hard-code, and TypeRef is a closed set of classes."""

from __future__ import annotations

import struct
import typing

import pytest

from streamcodecs_gen.model import EnumRef, ListRef, MapRef, StructRef, TypeRef, UnknownRef, WireRef
from streamcodecs_gen.types import INTEGER_TYPES, SPARK_CLASSES, WIRE_TYPES


@pytest.mark.parametrize("name", INTEGER_TYPES)
def test_integer_ranges_match_their_struct_code(name: str) -> None:
    wire = WIRE_TYPES[name]
    low, high = wire.range
    code = ">" + (wire.struct or "")
    assert struct.unpack(code, struct.pack(code, low))[0] == low
    assert struct.unpack(code, struct.pack(code, high))[0] == high
    for outside in (low - 1, high + 1):
        with pytest.raises(struct.error):
            struct.pack(code, outside)
        assert wire.value_problem(outside) == f"does not fit {name}"
    assert wire.value_problem(high) is None
    assert wire.value_problem(True) == "is not an integer"


def test_every_type_has_a_spark_class_and_a_value_rule() -> None:
    for wire in WIRE_TYPES.values():
        assert wire.spark_class in SPARK_CLASSES.values()
        if wire.spark_json:
            assert wire.spark_json in SPARK_CLASSES
        # Arrow conversions come in pairs (to Arrow a value or a shape, not both); a struct conversion has an inverse
        # (to_struct alone may be a check).
        assert wire.to_arrow is None or wire.arrow_shape is None, wire.name
        assert (wire.to_arrow is None and wire.arrow_shape is None) == (wire.from_arrow is None), wire.name
        assert not wire.struct_converts or wire.to_struct != "{}", wire.name
        if wire.struct_converts:
            assert wire.struct and wire.binary_imports, wire.name


def test_default_rules() -> None:
    assert WIRE_TYPES["uuid"].value_problem("not-a-uuid") == "is not a UUID"
    assert WIRE_TYPES["uuid"].value_problem("12345678-1234-5678-1234-567812345678") is None
    assert WIRE_TYPES["bytes"].value_problem("x") == 'bytes defaults can only be "" (empty)'
    assert WIRE_TYPES["float64"].value_problem(False) == "is not a number"
    assert WIRE_TYPES["timestamp"].value_problem("anything") is None  # checked by the JSON schema's format


def test_binary_helpers_follow_the_framing() -> None:
    assert WIRE_TYPES["bytes"].helper_for("int32") == "bytes_int32"
    assert WIRE_TYPES["string"].helper_for("int32") == "string"
    assert WIRE_TYPES["rest"].writer_for("int32") == "payload_part"
    assert WIRE_TYPES["mutf8"].writer_for("int32") == "write_mutf8"


def test_typeref_is_a_closed_set_of_classes_each_answering_for_its_type() -> None:
    assert set(typing.get_args(TypeRef)) == {WireRef, ListRef, MapRef, EnumRef, StructRef, UnknownRef}
    uuid_ref = WireRef("uuid", WIRE_TYPES["uuid"])
    assert uuid_ref.arrow_converts and uuid_ref.head == "uuid" and uuid_ref.args == ()
    listed = ListRef("list<uuid>", uuid_ref)
    assert listed.arrow_converts and listed.spark_type == "array<string>" and listed.args == (uuid_ref,)
    mapped = MapRef("map<string,bytes>", WireRef("bytes", WIRE_TYPES["bytes"]))
    assert not mapped.arrow_converts and mapped.item.python_literal("") == "b''"
    assert [a.head for a in mapped.args] == ["string", "bytes"]
    assert listed.python_literal([]) == "[]" and listed.python_literal(None) == "None"
    unknown = UnknownRef("Nope<int32>", spelled="Nope", spelled_args=(WireRef("int32", WIRE_TYPES["int32"]),))
    assert unknown.head == "Nope" and [a.head for a in unknown.args] == ["int32"]
    with pytest.raises(TypeError, match="does not resolve"):
        unknown.unresolved()


def test_plain_conversions_nest() -> None:
    from streamcodecs_gen.model import Enum, EnumValue, Origin, Struct

    values = [EnumValue("A", 1, "")]
    closed = EnumRef("E", Enum("E", "int8", values, None, "", Origin("p.yaml", 1)))
    opened = EnumRef("O", Enum("O", "string", values, "keep", "", Origin("p.yaml", 1)))
    point = StructRef("Point", Struct("Point", "1.0", "", [], Origin("p.yaml", 1)))
    payload = WireRef("bytes", WIRE_TYPES["bytes"])
    text = WireRef("string", WIRE_TYPES["string"])
    assert ListRef("list<E>", closed).to_plain("x") == "[int(v) for v in x]"
    assert ListRef("list<E>", closed).from_plain("x") == "[E(v) for v in x]"
    assert opened.to_plain("x") == "str(x)" and opened.from_plain("x") == "O._value2member_map_.get(x, x)"
    assert MapRef("map<string,Point>", point).from_plain("x") == "{k: Point.from_dict(v) for k, v in x.items()}"
    assert ListRef("list<bytes>", payload).to_plain("x") == "[bytes(v) for v in x]"
    assert ListRef("list<bytes>", payload).from_plain("x") == "list(x)"
    assert MapRef("map<string,string>", text).to_plain("x") == "dict(x)"
    assert not text.converts_plain and point.converts_plain and closed.converts_plain


def test_the_definition_format_lists_every_wire_type() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "definition-format.md").read_text(encoding="utf-8")
    table = doc[doc.index("## Types") : doc.index("## Enums")]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    listed = {name.strip("` ") for row in rows for name in row.split()}
    assert set(WIRE_TYPES) <= listed, set(WIRE_TYPES) - listed
