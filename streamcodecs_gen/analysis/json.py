"""The JSON family's field modes: how a field is declared, decoded and encoded (decided once, here).

``field_mode(owner, field)`` is one of:

- ``"required"``: no default; decoding fails without it.
- ``"const"``: a fixed value, declared as a ``Literal`` with that default.
- ``"default"``: decoded as its default when absent; always written (an optional field without a default, i.e.
  None, is omitted when None by the owner's ``omit_defaults``).
- ``"factory_default"``: decoded as its default when absent, which a factory gives (``repeat(value).__next__``,
  a call in C), so that the owner's ``omit_defaults`` (which drops a value equal to a plain declared default) still
  writes it.
- ``"unset"``: a removed field, decoded from older peers and never encoded.

``python_context(protocol)`` gathers these and the rest of what the JSON templates read (shapes, fast paths, the
MessagePack batch plan) into the names the templates use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from typing import Protocol as Interface

from ..families.framing import JsonFraming
from ..filters import pystr
from ..model import Field, ListRef, MapRef, Message, Protocol, Shape, StructRef, TypeRef, WireRef
from .exports import exports

MODULE_NAMES = ("MAX_MESSAGE", "SERIALIZERS")
"""What a JSON protocol's module exports besides the module contract (``exports.CONTRACT``) and its types."""


class Owner(Interface):
    """A message or a struct: whatever has fields."""

    @property
    def fields(self) -> Sequence[Field]: ...


def omit_defaults(owner: Owner) -> bool:
    """Whether the owner's msgspec Struct drops fields equal to their default (it does when one is optional)."""
    return any(f.optional for f in owner.fields)


def field_mode(owner: Owner, f: Field) -> str:
    """The mode of ``f`` in ``owner`` (see the module docstring)."""
    if f.has_const:
        return "const"
    if f.removed:
        return "unset"
    if f.optional:
        # An optional field is omitted only when None: one with another default is always written.
        return "default" if f.default is None else "factory_default"
    if f.added_later and f.nullable and not f.has_default:
        # (None where an older peer left it out; written as null once set, also beside an optional field)
        return "factory_default" if omit_defaults(owner) else "default"
    if f.has_default:
        return "factory_default" if omit_defaults(owner) else "default"
    return "required"


def encode_rule(owner: Owner, f: Field) -> str:
    """How encode writes a field: ``"skip"``, ``"if_set"`` (dropped when null) or ``"always"`` (a null is written)."""
    mode = field_mode(owner, f)
    if mode == "unset" or (mode == "const" and omit_defaults(owner)):
        return "skip"
    if mode == "default" and omit_defaults(owner):
        return "if_set"
    return "always"


@dataclass(frozen=True)
class FastPath:
    """What a direction's fast path decodes in one typed pass (the general path decides everything else).

    ``tagged``: the tagged messages, decoded as one msgspec union (none when there is only one: a union of one
    Struct does not require its tag, so the general path, which does, takes it). ``base``: the catch-all shape (the
    last object shape without ``match``) when a probe with its fields and no other key can only ever hold that
    message, else None; ``checks``: the earlier shapes that the probe can hold too, told apart by their ``match``
    values. ``array``: the message recognised as a JSON array, if any.
    """

    tagged: list[Message]
    base: Message | None
    checks: list[tuple[Message, dict[str, Any]]]
    array: Message | None


def fast_path(protocol: Protocol, direction: str) -> FastPath:
    messages = protocol.messages_for(direction)
    tagged = [m for m in messages if m.tag is not None]
    objects = [m for m in messages if m.object_shaped]
    array = next((m for m in messages if m.array_shaped), None)
    plain = [m for m in objects if m.shape and not m.shape.match]
    base = plain[-1] if plain else None
    checks: list[tuple[Message, dict[str, Any]]] = []
    if base is not None and base.shape is not None:
        names = [f.name for f in base.fields]
        required = [f.name for f in base.fields if field_mode(base, f) == "required"]
        eligible = protocol.framing_as(JsonFraming).tag_key not in names and all(k in required for k in base.shape.keys)
        for m in objects[: objects.index(base)]:
            assert m.shape
            keys = [*m.shape.keys, *m.shape.match]
            if any(k not in names for k in keys):
                continue  # needs a key the catch-all does not have: the probe refuses such objects
            if any(k not in required for k in keys) or not m.shape.match:
                eligible = False
            else:
                checks.append((m, m.shape.match))
        if not eligible:
            base, checks = None, []
    return FastPath(tagged if len(tagged) > 1 else [], base, checks, array)


def fast_paths(protocol: Protocol) -> dict[str, FastPath]:
    """Each direction's :func:`fast_path`, by direction name: what the Python context works out once for everything
    that reads it."""
    return {d.name: fast_path(protocol, d.name) for d in protocol.directions}


def factory_default_fields(owner: Owner) -> list[Field]:
    """The fields whose default a factory gives (see ``"factory_default"``)."""
    return [f for f in owner.fields if field_mode(owner, f) == "factory_default"]


def field_doc(f: Field) -> str:
    """A field's docstring: its doc, then when it was added (and what older peers' messages decode as) or removed."""
    text = f.doc
    if f.added_later:
        text += f" Added in {f.since}; absent from older peers (decoded as "
        text += f"{f.const_literal if f.has_const else f.default_literal})."
    if f.removed:
        text += f" Removed in {f.removed}: decoded when an older peer sends it, never encoded."
    return text.strip()


def _shape(message: Message) -> Shape:
    """The message's JSON shape (for messages known to have one)."""
    assert message.shape is not None, message.name
    return message.shape


def absent_fields(owner: Owner) -> list[str]:
    """Python names of the fields that hold ``msgspec.UNSET`` when a message lacks them (to_dict omits them)."""
    return [f.py for f in owner.fields if field_mode(owner, f) == "unset"]


def wire_keys(framing: JsonFraming, m: Message) -> list[str]:
    """The JSON keys the current version of a message carries: its tag key, then its fields not removed."""
    tag = [framing.tag_key] if m.tag is not None else []
    return tag + [f.name for f in m.fields if not f.removed]


def tag_owners(protocol: Protocol) -> dict[str, list[str]]:
    """Each message tag -> the names of the directions that have a message with it, in direction order."""
    owners: dict[str, list[str]] = {}
    for d in protocol.directions:
        for m in protocol.messages_for(d.name):
            if m.tag is not None and d.name not in owners.setdefault(m.tag, []):
                owners[m.tag].append(d.name)
    return owners


def tag_directions(protocol: Protocol) -> str:
    """:func:`tag_owners` as a Python literal (directions as tuples)."""
    return repr({tag: tuple(names) for tag, names in tag_owners(protocol).items()})


def json_type(f: Field) -> str:
    """A field's annotation: its type's, with ``| None`` when it may hold None."""
    base = f.type.json_annotation
    return f"{base} | None" if f.may_be_none else base


def default_arg(f: Field) -> str:
    """A field's default in its ``msgspec.field(...)`` call."""
    factory = f.type.default_factory
    if factory and f.default in ([], {}):  # an empty list or map: a new one for each message
        return f"default_factory={factory}"
    return f"default={f.default_literal}"


def factory_default_arg(f: Field) -> str:
    """A ``"factory_default"`` field's default in its ``msgspec.field(...)`` call: a factory that ``omit_defaults``
    never takes for a default (it drops a plain default, and an empty list or map from ``list`` or ``dict``)."""
    if f.default in ([], {}):  # a new one for each message
        return f"default_factory=lambda: {f.default_literal}"
    return f"default_factory=repeat({f.default_literal}).__next__"  # the one immutable value, from a call in C


def shape_test(m: Message) -> str:
    """A lambda (as source) that tells whether a decoded JSON value has the message's shape."""
    shape = _shape(m)
    if shape.is_array:
        return "lambda v: isinstance(v, list)"
    tests = ["isinstance(v, dict)"]
    tests += [f"{pystr(k)} in v" for k in shape.keys]
    tests += [f"v.get({pystr(k)}) == {pystr(v)}" for k, v in shape.match.items()]
    return "lambda v: " + " and ".join(tests)


def shape_text(m: Message) -> str:
    """The message's shape in words, for error messages and docstrings."""
    shape = _shape(m)
    if shape.is_array:
        return "a JSON array"
    parts = [f"an object with {', '.join(shape.keys)}"] if shape.keys else ["an object"]
    parts += [f"{k} = {v!r}" for k, v in shape.match.items()]
    return ", ".join(parts)


def packed_batch(fast: FastPath) -> dict[str, Any]:
    """What a run of MessagePack values of a direction may be decoded as in one pass, exactly as one by one, given
    the direction's fast path.

    ``tagged``: the tagged messages (a union msgspec tells apart by the tag; none when there is only one, as in
    :class:`FastPath`). ``base``: the fast path's catch-all shape, whose Struct refuses unknown keys
    (:func:`strict_shape`), so no tag and no key of another shape can hide in a run decoded as it; or None.
    ``guards``: for the earlier shapes that have only its keys, told apart by their ``match`` values, one field each
    and the values it must not hold, as ``(Python name, literals)``; a run whose decoded values hold none of them is
    all ``base`` (a run that holds one is read one by one, where the whole match decides). ``tagged_twins``: the
    tagged messages that have a common twin (:func:`common_twin`), ``common_tagged`` the union's classes with
    theirs, ``base_twin``: the base when it has one; a run tries them first. ``common_shaped``: the union of the
    fast path's shapes, the base's twin in its place, for one value.
    """
    base = fast.base
    guards: dict[str, list[Any]] = {}
    if base is not None:
        for _, match in fast.checks:
            # One item of the match rules the shape out; a field already guarded costs nothing more.
            key = next((k for k in match if base.py_of(k) in guards), next(iter(match)))
            values = guards.setdefault(base.py_of(key), [])
            if match[key] not in values:
                values.append(match[key])
    tagged_twins = [m for m in fast.tagged if common_twin(m)]
    return {
        "tagged": [m.name for m in fast.tagged],
        "base": base.name if base else None,
        "guards": sorted(guards.items()),
        "tagged_twins": tagged_twins,
        "common_tagged": [f"_{m.name}Common" if m in tagged_twins else m.name for m in fast.tagged],
        "base_twin": base if base is not None and common_twin(base) else None,
        "shaped": base is not None or fast.array is not None,  # (whether the fast path decodes shapes)
        # One value (a pipe read at a low rate): the fast path's shapes with the base's twin (None: it has none)
        "common_shaped": (
            " | ".join([f"_{base.name}Common", *([json_type(fast.array.fields[0])] if fast.array else [])])
            if base is not None and common_twin(base)
            else None
        ),
    }


def common_annotation(ref: TypeRef, seen: frozenset[str] = frozenset()) -> str | None:
    """The annotation of a value of ``ref`` in a message's common twin: its ``json_annotation`` with each wire type's
    ``packed_common`` (a free-form value: the runtime's ``Scalar``), alone or as a list's or a map's items; None when
    it is, or holds, a struct whose values would narrow (a twin reaches no further than its message's own fields)."""
    if isinstance(ref, WireRef):
        return ref.wire.packed_common or ref.json_annotation
    if isinstance(ref, ListRef | MapRef):
        item = common_annotation(ref.item, seen)
        if item is None:
            return None
        return f"list[{item}]" if isinstance(ref, ListRef) else f"dict[str, {item}]"
    if isinstance(ref, StructRef):
        struct = ref.struct
        if struct.name in seen:
            return ref.json_annotation
        inner = seen | {struct.name}
        narrows = any(common_annotation(f.type, inner) != f.type.json_annotation for f in struct.fields)
        return None if narrows else ref.json_annotation
    return ref.json_annotation


def common_type(f: Field) -> str:
    """A field's annotation in its message's common twin (:func:`common_annotation`, with ``| None`` as
    :func:`json_type`)."""
    base = common_annotation(f.type)
    assert base is not None, f"{f.name}: no common twin"
    return f"{base} | None" if f.may_be_none else base


def common_twin(m: Message) -> bool:
    """Whether ``m`` has a common twin for MessagePack runs: some field's annotation narrows, and none holds a struct
    whose values would (:func:`common_annotation`)."""
    narrowed = [common_annotation(f.type) for f in m.fields]
    return None not in narrowed and narrowed != [f.type.json_annotation for f in m.fields]


def strict_shape(fast_paths: Mapping[str, FastPath], message: Message, packed: bool = False) -> bool:
    """Whether ``message``'s Struct refuses unknown keys: the catch-all shape of a direction's fast path
    (``fast_paths``: each direction's, from :func:`fast_paths`), decoded directly by the fast path and by
    MessagePack runs, so that an object with another key (a tag, a key of an earlier shape) is left to the general
    path; and with a MessagePack framing variant (``packed``), the fast path's tagged messages too: msgspec's typed
    decoding skips an unknown key's MessagePack value unread (its strings' UTF-8, its map keys, its extensions), which
    the general path reads and refuses, so a value with a key the message does not have is the general path's. The
    general path drops unknown keys before it validates, so the message still takes them (``jsonpaths.recogniser``)."""
    return any(fast.base is message or (packed and message in fast.tagged) for fast in fast_paths.values())


def python_context(protocol: Protocol) -> dict[str, Any]:
    """Decisions the JSON template needs, made here so the template only shows shape. Each direction's fast path is
    worked out once, here: the fast path's decoders, the MessagePack runs and the strict Structs all read it."""
    framing = protocol.framing_as(JsonFraming)
    fasts = fast_paths(protocol)
    batches = {direction: packed_batch(fast) for direction, fast in fasts.items()}
    typed = typed_path(protocol)
    variants = [v for v in framing.variants if v.encoding == "msgpack"]
    return {
        "exports": exports(protocol, MODULE_NAMES, [s.name for s in [*protocol.structs, *protocol.messages]]),
        "framing": framing,
        "omit_defaults": omit_defaults,
        "absent_fields": absent_fields,
        "tag_directions": tag_directions,
        "wire_keys": lambda m: wire_keys(framing, m),
        "fast_path": fasts.__getitem__,
        "repeats_defaults": any(  # whether a factory_default_arg uses itertools.repeat
            f.default not in ([], {})
            for owner in [*protocol.structs, *protocol.messages]
            for f in factory_default_fields(owner)
        ),
        "field_mode": field_mode,
        "field_doc": field_doc,
        "json_type": json_type,
        "default_arg": default_arg,
        "factory_default_arg": factory_default_arg,
        "shape_test": shape_test,
        "shape_text": shape_text,
        "typed_path": typed,
        "variants": variants,
        "packed_batch": batches.__getitem__,
        "packed_twins": [
            m for m in protocol.messages if any(m in b["tagged_twins"] or m is b["base_twin"] for b in batches.values())
        ],
        "common_type": common_type,
        "strict_shape": lambda message: strict_shape(fasts, message, bool(variants)),
        "packed_guards": bool(variants) and not typed and any(batch["guards"] for batch in batches.values()),
        "wire_aliases": wire_aliases(protocol),
    }


def wire_aliases(protocol: Protocol) -> list[str]:
    """The runtime's msgspec-annotated aliases (``_runtime/wiretypes``: ``Int32``, ``Timestamp``) that the
    protocol's field annotations use."""
    return sorted({r.wire.json for r in protocol.all_types() if isinstance(r, WireRef) and r.wire.json})


def spark_packed(protocol: Protocol) -> list[str]:
    """The MessagePack framing variants (``framing.variants``) the Spark functions take as ``serializer=``, by name:
    those the Java codec has too (it reads them on the general path, so a typed protocol has none there), as the
    Java ``DecodePacked``/``EncodePacked`` UDFs are rendered for them (``plan.packed and not plan.typed``)."""
    if typed_path(protocol):
        return []
    return [v.name for v in protocol.framing_as(JsonFraming).variants if v.encoding == "msgpack"]


def typed_path(protocol: Protocol) -> bool:
    """Whether each direction decodes as a union of its tagged messages (the codec's typed path).

    A union of one tagged message is that message, whose tag msgspec does not require: a direction of one message,
    a message recognised by its shape or a list that takes a scalar leaves the protocol to the general path.
    """
    return (
        not any(m.shape for m in protocol.messages)
        and not any(f.accept_scalar for m in protocol.messages for f in m.fields)
        and all(len(protocol.messages_for(d.name)) > 1 for d in protocol.directions)
    )
