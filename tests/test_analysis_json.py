"""The JSON family's field modes and fast paths (streamcodecs_gen.analysis.json)."""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from streamcodecs_gen.analysis.json import (
    common_annotation,
    common_type,
    factory_default_fields,
    fast_path,
    fast_paths,
    field_mode,
    omit_defaults,
    packed_batch,
    strict_shape,
)
from streamcodecs_gen.model import Field, ListRef, Origin, Protocol, Struct, StructRef, WireRef
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.types import WIRE_TYPES

REPO = Path(__file__).resolve().parents[1]


def field(name: str = "f", removed: str | None = None, **kwargs: Any) -> Field:
    ref = WireRef("string", WIRE_TYPES["string"])
    return Field(name, name, ref, "1.0", removed, "", Origin("p.yaml", 1), **kwargs)


@dataclass
class Owner:
    fields: list[Field]


def test_omit_defaults_when_a_field_is_optional() -> None:
    assert omit_defaults(Owner([field(), field("g", optional=True)]))
    assert not omit_defaults(Owner([field(), field("g", has_default=True, default="x")]))


@pytest.mark.parametrize(
    ("kwargs", "with_optional_sibling", "expected"),
    [
        ({}, False, "required"),
        ({"has_const": True, "const": "x", "removed": "2.0"}, False, "const"),  # const wins over removed
        ({"removed": "2.0", "has_default": True}, False, "unset"),
        ({"optional": True}, False, "default"),  # default None: omitted by omit_defaults
        ({"optional": True, "has_default": True, "default": "x"}, False, "factory_default"),
        ({"added_later": True, "nullable": True}, False, "default"),
        # beside an optional field too: None while an older peer left it out, written as null once set (kclpy
        # requires Initialize.sequenceNumber's key; omit_defaults would drop a None default)
        ({"added_later": True, "nullable": True}, True, "factory_default"),
        ({"added_later": True, "nullable": True, "has_default": True, "default": "x"}, True, "factory_default"),
        ({"has_default": True, "default": "x"}, False, "default"),
        ({"has_default": True, "default": "x"}, True, "factory_default"),  # else omit_defaults would drop "x"
        ({"nullable": True}, True, "required"),
    ],
)
def test_field_mode(kwargs: dict[str, Any], with_optional_sibling: bool, expected: str) -> None:
    f = field(**kwargs)
    owner = Owner([f, field("sibling", optional=True)] if with_optional_sibling else [f])
    assert field_mode(owner, f) == expected


@pytest.fixture(scope="module")
def storm() -> Protocol:
    (found,) = [p for p in load_protocols(REPO / "protocol-definitions", REPO) if p.name == "storm"]
    return found


def test_fast_path_of_storm(storm: Protocol) -> None:
    """Storm's components receive tagged commands, tuples (the catch-all), heartbeats and ticks (tuples told apart
    by their stream) and task ids (an array)."""
    fast = fast_path(storm, "to_component")
    assert fast.base is not None and fast.base.name == "BoltTuple"
    assert [m.name for m, _ in fast.checks] == ["Heartbeat", "Tick"]
    assert all(m.shape and match == m.shape.match for m, match in fast.checks)
    assert fast.array is not None and fast.array.name == "TaskIds"
    assert [m.name for m in fast.tagged] == [m.name for m in storm.messages_for("to_component") if m.tag]


def test_fast_path_drops_a_catch_all_whose_shape_key_is_not_required(storm: Protocol) -> None:
    fast = fast_path(storm, "to_component")
    assert fast.base is not None and fast.base.shape is not None
    key = fast.base.shape.keys[0]
    loosened = copy.copy(fast.base)
    loosened.fields = [dataclasses.replace(f, optional=True) if f.name == key else f for f in fast.base.fields]
    changed = dataclasses.replace(storm, messages=[loosened if m is fast.base else m for m in storm.messages])
    assert fast_path(changed, "to_component").base is None
    assert fast_path(changed, "to_component").checks == []


def test_packed_runs_of_storm_are_guarded_by_one_field(storm: Protocol) -> None:
    """A MessagePack run decoded as BoltTuples is all BoltTuples when no value's stream is a heartbeat's or a tick's
    (both matches name `stream`, so one pass over the decoded values tells); the tag and the handshake's keys are
    refused by the strict Struct, so nothing is looked for in the bytes."""
    fasts = fast_paths(storm)
    batch = packed_batch(fasts["to_component"])
    assert batch["base"] == "BoltTuple"
    assert batch["guards"] == [("stream", ["__heartbeat", "__tick"])]
    to_storm = packed_batch(fasts["to_storm"])
    assert {k: to_storm[k] for k in ("tagged", "base", "guards")} == {
        "tagged": [m.name for m in storm.messages_for("to_storm") if m.tag],
        "base": "PidReply",
        "guards": [],
    }
    strict = [m.name for m in storm.messages if strict_shape(fasts, m)]
    assert strict == ["BoltTuple", "PidReply"]


def test_one_tagged_message_is_left_to_the_general_path(storm: Protocol) -> None:
    direction = storm.messages_for("to_component")
    tagged = [m for m in direction if m.tag]
    only_one = [m for m in storm.messages if m not in tagged[1:]]
    assert fast_path(dataclasses.replace(storm, messages=only_one), "to_component").tagged == []


def test_factory_default_fields_in_definition_order() -> None:
    a = field("a", has_default=True, default="x")
    b = field("b", optional=True, has_default=True, default="y")
    c = field("c", optional=True)
    assert factory_default_fields(Owner([a, c, b])) == [a, b]
    assert factory_default_fields(Owner([a])) == []  # no omit_defaults: the default is written as any value


def test_common_twins_narrow_the_free_form_values_of_a_message_s_own_fields(storm: Protocol) -> None:
    """A MessagePack run is tried first as the messages' common twins: each free-form value narrowed to the
    runtime's Scalar (alone, or as a list's or a map's items), the rest as the message declares it. A message whose
    free-form values sit inside a struct has none (a twin reaches no further than its own fields)."""
    fasts = fast_paths(storm)
    to_component, to_storm = packed_batch(fasts["to_component"]), packed_batch(fasts["to_storm"])
    assert [m.name for m in to_component["tagged_twins"]] == ["SpoutAck", "SpoutFail"]
    assert to_component["base_twin"] is not None and to_component["base_twin"].name == "BoltTuple"
    assert [m.name for m in to_storm["tagged_twins"]] == ["Emit", "Metrics"]
    assert to_storm["common_tagged"] == ["_EmitCommon", "Ack", "Fail", "Log", "Error", "_MetricsCommon", "Sync"]
    assert to_storm["base_twin"] is None  # PidReply holds no free-form value
    emit = next(m for m in storm.messages if m.name == "Emit")
    assert [common_type(f) for f in emit.fields] == [
        "list[_jk.Scalar]", "list[str] | None", "_jk.Scalar | None", "str | None", "Int32 | None", "bool",
    ]  # fmt: skip
    handshake = next(m for m in storm.messages if m.name == "Handshake")
    conf = next(f for f in handshake.fields if f.name == "conf")
    assert common_annotation(conf.type) == "dict[str, _jk.Scalar]"
    holder = Struct(name="Holder", since="0.1", doc="", fields=[conf], origin=handshake.origin)
    assert common_annotation(StructRef("Holder", holder)) is None
    assert common_annotation(ListRef("list<Holder>", StructRef("Holder", holder))) is None
