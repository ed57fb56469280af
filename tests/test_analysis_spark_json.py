"""What the Spark JSON functions read plainly and check (streamcodecs_gen.analysis.spark_json)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from streamcodecs_gen.analysis.json import field_mode
from streamcodecs_gen.analysis.spark_json import (
    SparkJsonPlan,
    drops_nulls,
    encode_rule,
    has_struct,
    passes_omits,
    read_ddl,
    spark_json_plan,
    wire_plain,
)
from streamcodecs_gen.model import Enum, EnumValue, Field, Origin, Protocol, Struct, TypeRef
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.types import WIRE_TYPES

REPO = Path(__file__).resolve().parents[1]
EMPTY = SparkJsonPlan({}, [], [], [], {"json": [], "variant": []}, {"json": [], "variant": []}, [], [])


def wire(name: str) -> TypeRef:
    return TypeRef(name, "wire", wire=WIRE_TYPES[name])


def list_of(item: TypeRef) -> TypeRef:
    return TypeRef(f"list<{item.text}>", "list", item=item)


def enum(unknown: str | None) -> TypeRef:
    values = [EnumValue("A", "a", "")]
    return TypeRef("E", "enum", enum=Enum("E", "string", values, unknown, "", Origin("p.yaml", 1)))


def struct(name: str) -> TypeRef:
    return TypeRef(name, "struct", struct=Struct(name, "1.0", "", [], Origin("p.yaml", 1)))


@pytest.mark.parametrize(
    ("ref", "json_plain", "variant_plain", "problem"),
    [
        (wire("string"), True, True, False),
        (wire("int32"), True, True, False),
        (wire("int8"), False, False, True),  # read as int, range-checked
        (wire("uuid"), False, False, True),
        (wire("timestamp"), False, False, True),  # read as text
        (wire("base64"), True, False, False),  # from a VARIANT it is text: a problem only there
        (wire("any"), True, True, False),
        (enum("keep"), True, True, False),
        (enum(None), True, True, True),  # closed: an unknown value is a problem
        (list_of(wire("string")), True, True, True),  # a null item is a problem
        (list_of(wire("any")), True, True, False),  # ... except of free-form JSON
        (list_of(wire("uuid")), False, False, True),
        (struct("S"), False, False, False),  # neither plain nor checked in an empty plan
    ],
)
def test_values(ref: TypeRef, json_plain: bool, variant_plain: bool, problem: bool) -> None:
    assert EMPTY.plain(ref, "json") == json_plain
    assert EMPTY.plain(ref, "variant") == variant_plain
    assert EMPTY.has_problem(ref, "json") == problem


def test_struct_values_follow_the_plan() -> None:
    plan = SparkJsonPlan({}, [], [], [], {"json": ["S"], "variant": []}, {"json": [], "variant": ["S"]}, [], [])
    assert plan.plain(list_of(struct("S")), "json") and not plan.plain(struct("S"), "variant")
    assert plan.has_problem(struct("S"), "variant") and not plan.has_problem(struct("S"), "json")


@pytest.fixture(scope="module", params=["kcl", "storm"])
def protocol(request: pytest.FixtureRequest) -> Protocol:
    (found,) = [p for p in load_protocols(REPO / "protocol-definitions", REPO) if p.name == request.param]
    assert found.family == "json"
    return found


def test_keys_read_as_variant_have_a_reason(protocol: Protocol) -> None:
    plan = spark_json_plan(protocol)
    assert set(plan.keys) == {
        f.name for m in protocol.messages if m.shape is None or m.shape.json == "object" for f in m.fields
    }
    for key, uses in plan.keys.items():
        reasons = [
            any(f.accept_scalar for _, f in uses),
            any(f.type.kind == "wire" and read_ddl(f.type) == "variant" for _, f in uses),
            any(f.nullable and (key in plan.shape_keys or field_mode(m, f) == "required") for m, f in uses),
        ]
        texts = {f.type.text for _, f in uses}
        if key in plan.variant_keys:
            assert any(reasons) or len(texts) > 1, key
        else:
            assert not any(reasons) and len(texts) == 1, key


def test_structs(protocol: Protocol) -> None:
    plan = spark_json_plan(protocol)
    names = [s.name for s in protocol.structs]
    for src in ("json", "variant"):
        for s in protocol.structs:
            plain = all(not f.has_const and f.default is None and plan.plain(f.type, src) for f in s.fields)
            assert (s.name in plan.plain_structs[src]) == plain, (src, s.name)
            checked = any(
                f.has_const or (field_mode(s, f) == "required" and not f.nullable) or plan.has_problem(f.type, src)
                for f in s.fields
            )
            assert (s.name in plan.checked_structs[src]) == checked, (src, s.name)
    assert set(plan.quick_structs) <= set(plan.checked_structs["json"])
    assert set(plan.zipped_structs) >= set(plan.plain_structs["json"]) & {s.name for s in protocol.structs if s.fields}
    reached = {f.type.struct.name for key in plan.variant_keys for _, f in plan.keys[key] for t in [f.type] if t.struct}
    assert reached <= set(plan.via_variant) <= set(names)


def test_shipped_plans() -> None:
    """Pinned to the definitions, so a change to the analysis that changes a decision is seen."""
    plans = {
        p.name: spark_json_plan(p) for p in load_protocols(REPO / "protocol-definitions", REPO) if p.family == "json"
    }
    assert plans["storm"].plain_structs["json"] == ["Grouping"]
    assert plans["storm"].checked_structs["json"] == ["Grouping", "TopologyContext"]
    assert plans["kcl"].quick_structs == ["Record"]


def field(name: str, ref: TypeRef, **kwargs: Any) -> Field:
    return Field(name, name, ref, "1.0", None, "", Origin("p.yaml", 1), **kwargs)


def owner(name: str, *fields: Field) -> Struct:
    return Struct(name, "1.0", "", list(fields), Origin("p.yaml", 1))


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
    removed = Field("g", "g", wire("string"), "1.0", "2.0", "", Origin("p.yaml", 1))
    assert encode_rule(owner("A", removed), removed) == "skip"


def test_wire_forms() -> None:
    assert wire_plain(list_of(wire("string"))) and wire_plain(wire("any"))
    assert not wire_plain(list_of(wire("base64"))) and not wire_plain(wire("timestamp"))
    assert not wire_plain(struct("S")) and has_struct(list_of(struct("S"))) and not has_struct(wire("string"))


def test_omits_pass_on_and_nulls_dropped() -> None:
    inner = owner("Inner", field("o", wire("string"), optional=True))
    inner_ref = TypeRef("Inner", "struct", struct=inner)
    outer = owner("Outer", field("items", list_of(inner_ref)))
    assert passes_omits(outer)  # a struct inside
    assert drops_nulls(outer) and drops_nulls(inner)  # the inner optional field, through the list
    flat = owner("Flat", field("r", wire("string")), field("n", wire("string"), nullable=True))
    assert passes_omits(flat) and not drops_nulls(flat)  # a null is written, none dropped
    assert not passes_omits(owner("Plain", field("r", wire("string"))))
    cyclic = owner("Node", field("r", wire("string")))
    cyclic.fields.append(field("next", list_of(TypeRef("Node", "struct", struct=cyclic))))
    assert not drops_nulls(cyclic)  # terminates on a recursive struct
