"""How fields cross between the codec and Arrow on the Spark modules' Python path (streamcodecs_gen.analysis.arrow),
and how the JSON family's encode writes a field (analysis.json.encode_rule, which the Java target follows)."""

from __future__ import annotations

import uuid
from typing import Any

from streamcodecs_gen.analysis.arrow import ArrowField, arrow_plan, field_shape, shape
from streamcodecs_gen.analysis.json import encode_rule
from streamcodecs_gen.model import Field, ListRef, MapRef, Origin, Struct, StructRef, TypeRef, WireRef
from streamcodecs_gen.types import WIRE_TYPES


def wire(name: str) -> TypeRef:
    return WireRef(name, WIRE_TYPES[name])


def list_of(item: TypeRef) -> TypeRef:
    return ListRef(f"list<{item.text}>", item)


def map_of(item: TypeRef) -> TypeRef:
    return MapRef(f"map<string,{item.text}>", item)


def field(name: str, ref: TypeRef, removed: str | None = None, **kwargs: Any) -> Field:
    return Field(name, name, ref, "1.0", removed, "", Origin("p.yaml", 1), **kwargs)


def owner(name: str, *fields: Field) -> Struct:
    return Struct(name, "1.0", "", list(fields), Origin("p.yaml", 1))


def struct(s: Struct) -> TypeRef:
    return StructRef(s.name, s)


def test_values_arrow_takes_need_no_shape() -> None:
    for ref in (wire("string"), wire("int64"), wire("base64"), list_of(wire("string")), map_of(wire("int32"))):
        assert shape(ref) == "None", ref.text


def test_shapes_follow_the_type() -> None:
    assert shape(wire("uuid")) == "lambda v: None if v is None else str(v)"
    assert shape(list_of(wire("uuid"))) == "_arrow.Items(lambda v: None if v is None else str(v))"
    assert shape(map_of(wire("any"))) == "_arrow.Entries(_arrow.FREE)"  # JSON text or a VARIANT, by the Arrow type
    inner = owner("Inner", field("a", wire("string")))
    assert shape(list_of(struct(inner))) == "_arrow.Items(_INNER_SHAPE)"
    assert field_shape(field("gone", wire("string"), removed="2.0")) == "_arrow.Absent(None)"


def test_shapes_run() -> None:
    """The shape's source is Python that converts: a UUID to its text, None left alone."""
    convert = eval(shape(wire("uuid")), {"_arrow": None})  # noqa: S307 - the generator's own output
    value = uuid.UUID(int=5)
    assert convert(value) == str(value) and convert(None) is None


def test_from_arrow() -> None:
    inner = owner("Inner", field("a", wire("string")))
    outer = owner(
        "Outer",
        field("id", wire("uuid")),
        field("maybe", wire("uuid"), nullable=True),
        field("items", list_of(struct(inner))),
        field("gone", wire("string"), removed="2.0"),
        field("plain", wire("string")),
    )
    back = {f.py: f.from_arrow("v") for f in arrow_plan_of(outer)}
    assert back["id"] == "_arrow.uuid_of(v['id'], 'Outer.id')"
    assert back["maybe"] == "None if v['maybe'] is None else _arrow.uuid_of(v['maybe'], 'Outer.maybe')"
    assert back["items"] == "[_inner_of(x0) for x0 in v['items']]"
    assert back["gone"] == "_arrow.UNSET if v['gone'] is None else v['gone']"
    assert back["plain"] == "v['plain']"


def arrow_plan_of(s: Struct) -> list[ArrowField]:
    return [ArrowField(s, f) for f in s.fields]


def test_plan_covers_every_struct_and_message() -> None:
    from pathlib import Path

    from streamcodecs_gen.pipeline import load_protocols

    repo = Path(__file__).resolve().parents[1]
    for protocol in load_protocols(repo / "protocol-definitions", repo):
        plan = arrow_plan(protocol)
        assert set(plan.fields) == {s.name for s in [*protocol.structs, *protocol.messages]}


def test_encode_rule() -> None:
    const = field("c", wire("string"), has_const=True, const="x")
    optional = field("o", wire("string"), optional=True)
    with_default = field("d", wire("string"), has_default=True, default="x")
    required = field("r", wire("string"))
    assert encode_rule(owner("A", const, required), const) == "always"
    assert encode_rule(owner("A", const, optional), const) == "skip"  # omit_defaults drops it: never written
    assert encode_rule(owner("A", optional), optional) == "if_set"
    assert encode_rule(owner("A", with_default), with_default) == "always"
    assert encode_rule(owner("A", required), required) == "always"
    removed = field("g", wire("string"), removed="2.0")
    assert encode_rule(owner("A", removed), removed) == "skip"
