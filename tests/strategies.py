"""Hypothesis strategies built from the protocol definitions: one per message, valid by construction.

Used by the property tests (encode → decode round trip for every message of every protocol) and by the fuzzer as
a source of valid frames to mutate.
"""

from __future__ import annotations

import datetime
from typing import Any

from hypothesis import strategies as st

from streamcodecs_gen.model import (
    EnumRef,
    Field,
    ListRef,
    MapRef,
    Message,
    Protocol,
    Struct,
    StructRef,
    TypeRef,
    WireRef,
)

_INT_BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}
_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20)
_JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | _TEXT
    | st.floats(allow_nan=False, allow_infinity=False)
)
_JSON = st.recursive(
    _JSON_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3), max_leaves=8
)


def wire_strategy(name: str) -> st.SearchStrategy[Any]:
    if name in _INT_BITS:
        bits = _INT_BITS[name]
        return st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return {
        "bool": st.booleans(),
        "float32": st.floats(width=32, allow_nan=False, allow_infinity=False),
        "float64": st.floats(allow_nan=False, allow_infinity=False),
        "uuid": st.uuids(),
        "string": _TEXT,
        "mutf8": st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20),
        "bytes": st.binary(max_size=40),
        "rest": st.binary(max_size=40),
        "padding": st.integers(0, 40),
        "base64": st.binary(max_size=40),
        "timestamp": st.datetimes(timezones=st.just(datetime.UTC)),
        "any": _JSON,
    }[name]


def type_strategy(ref: TypeRef) -> st.SearchStrategy[Any]:
    """Plain values (as ``to_dict`` gives them) for a type."""
    match ref:
        case WireRef(wire=wire):
            return wire_strategy(wire.name)
        case EnumRef(enum=enum):
            known = st.sampled_from([v.value for v in enum.values])
            if enum.is_open and not enum.is_string:
                return known | wire_strategy(enum.wire)
            return known
        case ListRef(item=item):
            return st.lists(type_strategy(item), max_size=4)
        case MapRef(item=item):
            return st.dictionaries(_TEXT, type_strategy(item), max_size=3)
        case StructRef(struct=owner):
            return struct_strategy(owner)
    raise TypeError(f"no values for type {ref.text}")


def _field_strategy(f: Field) -> st.SearchStrategy[Any]:
    if f.has_const:
        return st.just(f.const)
    value = type_strategy(f.type)
    if f.nullable or (f.optional and f.default is None):
        value = st.none() | value
    return value


def _fix_conditionals(owner: Struct, values: dict[str, Any]) -> dict[str, Any]:
    by_name = {f.name: f for f in owner.fields}
    for f in owner.fields:
        if f.when_nonempty and not values[by_name[f.when_nonempty].py]:
            values[f.py] = f.default  # absent on the wire when its condition is empty
        if f.removed:
            values.pop(f.py, None)  # decoded from older peers, never written
    return values


def struct_strategy(owner: Struct) -> st.SearchStrategy[dict[str, Any]]:
    fields = {f.py: _field_strategy(f) for f in owner.fields if not f.removed}
    return st.fixed_dictionaries(fields).map(lambda values: _fix_conditionals(owner, values))


def message_strategy(protocol: Protocol, message: Message) -> st.SearchStrategy[dict[str, Any]]:
    values = struct_strategy(message)
    if message.shape:  # shape-recognised messages carry the constants their shape matches on
        py_of = {f.name: f.py for f in message.fields}
        constants = {py_of[k]: v for k, v in message.shape.match.items() if k in py_of}
        values = values.map(lambda d: {**d, **constants})
    return values
