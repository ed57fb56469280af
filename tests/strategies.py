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
from streamcodecs_gen.types import INTEGER_TYPES, WIRE_TYPES

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


_UNRESERVED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"
_SEGMENT = st.text(alphabet=_UNRESERVED + "!$&'()*+,;=:@", max_size=8)
_PATH = st.lists(_SEGMENT, max_size=3).map(lambda segments: "".join("/" + x for x in segments))
_HOST = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?(\.[a-z]{2,5}){0,2}", fullmatch=True)
_AFTER = st.tuples(st.none() | _SEGMENT.map(lambda q: "?" + q), st.none() | _SEGMENT.map(lambda f: "#" + f)).map(
    lambda parts: "".join(p or "" for p in parts)
)
_URI = st.builds(
    lambda scheme, host, path, after: f"{scheme}://{host}{path}{after}",
    st.sampled_from(["https", "http", "kafka", "s3", "x-y.z+w"]),
    _HOST,
    _PATH,
    _AFTER,
) | st.uuids().map(lambda u: f"urn:uuid:{u}")
_URI_REFERENCE = _URI | st.builds(lambda path, after: path + after, _PATH, _AFTER) | _SEGMENT
_TOKEN = st.from_regex(r"[a-z0-9][a-z0-9.+-]{0,10}", fullmatch=True)
_MEDIA_TYPE = st.builds(
    lambda kind, sub, params: f"{kind}/{sub}{params}",
    st.sampled_from(["application", "text", "image", "audio", "x-custom"]),
    _TOKEN | st.sampled_from(["json", "cloudevents+json", "vnd.example+json", "plain", "octet-stream"]),
    st.sampled_from(["", "; charset=utf-8", "; charset=UTF-8", '; a="b c"', "; q=1; v=2"]),
)
_ATTRIBUTE_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Cn")), max_size=20)
"""Kafka-family text: no control character, surrogate or noncharacter (the family's attribute rule)."""


def wire_strategy(name: str, text: st.SearchStrategy[str] = _TEXT) -> st.SearchStrategy[Any]:
    if name in INTEGER_TYPES:
        return st.integers(*WIRE_TYPES[name].range)
    return {
        "bool": st.booleans(),
        "float32": st.floats(width=32, allow_nan=False, allow_infinity=False),
        "float64": st.floats(allow_nan=False, allow_infinity=False),
        "uuid": st.uuids(),
        "string": text,
        "mutf8": st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20),
        "bytes": st.binary(max_size=40),
        "rest": st.binary(max_size=40),
        "padding": st.integers(0, 40),
        "base64": st.binary(max_size=40),
        "timestamp": st.datetimes(timezones=st.just(datetime.UTC)),
        "any": _JSON,
        # kafka: header-mapped attributes (CloudEvents' URI, media type and extension types) and the record value
        "uri": _URI,
        "uri_reference": _URI_REFERENCE,
        "media_type": _MEDIA_TYPE,
        "attribute_value": (
            st.booleans()
            | st.integers(-(2**31), 2**31 - 1)
            | _ATTRIBUTE_TEXT
            | st.binary(max_size=20)
            | st.datetimes(timezones=st.just(datetime.UTC))
        ),
        "payload": st.binary(max_size=40) | _ATTRIBUTE_TEXT | _JSON,
    }[name]


def type_strategy(ref: TypeRef, text: st.SearchStrategy[str] = _TEXT) -> st.SearchStrategy[Any]:
    """Plain values (as ``to_dict`` gives them) for a type (``text``: the strings of the family)."""
    match ref:
        case WireRef(wire=wire):
            return wire_strategy(wire.name, text)
        case EnumRef(enum=enum):
            known = st.sampled_from([v.value for v in enum.values])
            if enum.is_open and not enum.is_string:
                return known | wire_strategy(enum.wire, text)
            return known
        case ListRef(item=item):
            return st.lists(type_strategy(item, text), max_size=4)
        case MapRef(item=item):
            return st.dictionaries(text, type_strategy(item, text), max_size=3)
        case StructRef(struct=owner):
            return struct_strategy(owner, text=text)
    raise TypeError(f"no values for type {ref.text}")


def _field_strategy(
    f: Field, names: st.SearchStrategy[str] | None, text: st.SearchStrategy[str]
) -> st.SearchStrategy[Any]:
    if f.has_const:
        return st.just(f.const)
    value = type_strategy(f.type, text)
    if f.additional and names is not None and isinstance(f.type, MapRef):  # kafka: the attributes not declared
        value = st.dictionaries(names, type_strategy(f.type.item, text), max_size=3)
    if f.min_length:
        value = value.filter(lambda v, n=f.min_length: not isinstance(v, str) or len(v) >= n)
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


def struct_strategy(
    owner: Struct, names: st.SearchStrategy[str] | None = None, text: st.SearchStrategy[str] = _TEXT
) -> st.SearchStrategy[dict[str, Any]]:
    """``names``: the names a field holding every attribute not declared (``additional``) may have."""
    fields = {f.py: _field_strategy(f, names, text) for f in owner.fields if not f.removed}
    return st.fixed_dictionaries(fields).map(lambda values: _fix_conditionals(owner, values))


def _attribute_names(protocol: Protocol, owner: Struct) -> st.SearchStrategy[str] | None:
    """Names of attributes ``owner`` does not declare, as the protocol's framing allows them (kafka), else None."""
    rules = getattr(protocol.framing, "attribute_names", None)
    if rules is None:
        return None
    taken = {f.name for f in owner.fields} | set(rules.reserved)
    return st.from_regex(f"(?:{rules.pattern})", fullmatch=True).filter(lambda n: 0 < len(n) <= 20 and n not in taken)


def message_strategy(protocol: Protocol, message: Message) -> st.SearchStrategy[dict[str, Any]]:
    text = _ATTRIBUTE_TEXT if protocol.family == "kafka" else _TEXT
    values = struct_strategy(message, _attribute_names(protocol, message), text)
    if message.shape:  # shape-recognised messages carry the constants their shape matches on
        py_of = {f.name: f.py for f in message.fields}
        constants = {py_of[k]: v for k, v in message.shape.match.items() if k in py_of}
        values = values.map(lambda d: {**d, **constants})
    return values
