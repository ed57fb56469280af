"""What the Spark functions of a JSON-family protocol read plainly, and what they must check: decided here, once.

``from_json`` reads every top-level key of the object messages with one schema. A key is read as VARIANT when one
Spark type cannot read it for every message that has it (its types differ, it is free-form JSON, it accepts a
scalar, or a null must be told from an absent key). Values are then decoded from that read ("json") or from the
VARIANT ("variant"); a struct reached through a VARIANT key needs readers of the second kind too.

For each source, a struct is *plain* when what Spark reads already is its decoded value (no constants, no
defaults, every field plain), and *checked* when reading it can find a problem. A struct counts as plain or
checked through the structs before it only (the model lists a struct after those it uses).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model import Field, Message, Protocol, Struct, TypeRef
from .json import field_mode, omit_defaults

SOURCES = ("json", "variant")
RANGES = {"tinyint": (-128, 127), "smallint": (-32768, 32767)}  # read as int, then range-checked
QUICK = ("string", "binary", "int", "bigint", "float", "double")  # read types a column-wide check handles


def ddl(ref: TypeRef) -> str:
    """The Spark type (DDL) of a decoded value."""
    if ref.kind == "wire":
        assert ref.wire
        return ref.wire.spark_json or ref.wire.spark
    return ref.spark_type


def read_ddl(ref: TypeRef) -> str:
    """What ``from_json`` reads a wire or enum value as: text for timestamps, int for small integers."""
    d = ddl(ref)
    return "string" if d == "timestamp" else ("int" if d in RANGES else d)


def is_variant(ref: TypeRef) -> bool:
    """Whether the value is free-form JSON, decoded as VARIANT."""
    return ref.kind == "wire" and ddl(ref) == "variant"


def _read_type(ref: TypeRef) -> str:
    """Equal for two types exactly when ``from_json`` reads them with the same Spark type."""
    if ref.kind in ("list", "map"):
        assert ref.item
        return f"{ref.kind}<{_read_type(ref.item)}>"
    if ref.kind == "struct":
        assert ref.struct
        return f"struct {ref.struct.snake}"
    return read_ddl(ref)


@dataclass(frozen=True)
class SparkJsonPlan:
    keys: dict[str, list[tuple[Message, Field]]]  # each top-level key of the object messages -> its uses, in order
    shape_keys: list[str]  # keys and match keys that recognise a message by its shape (repeats kept)
    variant_keys: list[str]  # the keys read as VARIANT
    via_variant: list[str]  # structs reached through a VARIANT key (they need "variant" readers)
    plain_structs: dict[str, list[str]]  # source -> the structs read plainly from it
    checked_structs: dict[str, list[str]]  # source -> the structs whose reading can find a problem
    zipped_structs: list[str]  # lists of these are decoded field by field (arrays_zip)
    quick_structs: list[str]  # lists of these are checked field by field first, item by item only on a problem

    def plain(self, ref: TypeRef, src: str) -> bool:
        """Whether a cast (or nothing) turns the value read from ``src`` into the decoded one."""
        return _plain(ref, src, self.plain_structs[src])

    def has_problem(self, ref: TypeRef, src: str) -> bool:
        """Whether reading a (non-null) value of this type from ``src`` can find a problem."""
        return _has_problem(ref, src, self.checked_structs[src])


def _plain(ref: TypeRef, src: str, plain_structs: list[str]) -> bool:
    if ref.kind == "wire":
        assert ref.wire
        return not (ref.wire.spark_checked or read_ddl(ref) != ddl(ref) or (src == "variant" and ddl(ref) == "binary"))
    if ref.kind == "enum":
        assert ref.enum
        return not (ref.enum.unknown and not ref.enum.is_open) and read_ddl(ref) == ddl(ref)
    if ref.kind in ("list", "map"):
        assert ref.item
        return _plain(ref.item, src, plain_structs)
    assert ref.struct
    return ref.struct.name in plain_structs


def _has_problem(ref: TypeRef, src: str, checked_structs: list[str]) -> bool:
    if ref.kind == "wire":
        assert ref.wire
        return ref.wire.spark_checked or ddl(ref) in ("timestamp", *RANGES) or (src, ddl(ref)) == ("variant", "binary")
    if ref.kind == "enum":
        assert ref.enum
        return not ref.enum.unknown and not ref.enum.is_open
    if ref.kind in ("list", "map"):
        assert ref.item
        return _has_problem(ref.item, src, checked_structs) or not is_variant(ref.item)  # or a null item
    assert ref.struct
    return ref.struct.name in checked_structs


def _struct_checked(s: Struct, src: str, checked_structs: list[str]) -> bool:
    """Whether a struct's fields have a check: a required non-null field, a constant, or a problem of its type."""
    return any(
        (field_mode(s, f) == "required" and not f.nullable) or f.has_const or _has_problem(f.type, src, checked_structs)
        for f in s.fields
    )


def _variant_keys(keys: dict[str, list[tuple[Message, Field]]], shape_keys: list[str]) -> list[str]:
    found = []
    for key, uses in keys.items():
        types = {_read_type(f.type) for _, f in uses}
        presence = any(f.nullable and (key in shape_keys or field_mode(m, f) == "required") for m, f in uses)
        free_form = any(f.type.kind == "wire" and read_ddl(f.type) == "variant" for _, f in uses)
        if len(types) > 1 or free_form or any(f.accept_scalar for _, f in uses) or presence:
            found.append(key)
    return found


def _reached(refs: list[TypeRef]) -> list[str]:
    """The structs reachable from ``refs``, in the order a depth-first walk from the last one finds them."""
    todo, seen = list(refs), []
    while todo:
        ref = todo.pop()
        if ref.kind in ("list", "map"):
            assert ref.item
            todo.append(ref.item)
        elif ref.kind == "struct" and ref.struct and ref.struct.name not in seen:
            seen.append(ref.struct.name)
            todo.extend(f.type for f in ref.struct.fields)
    return seen


def _quick(s: Struct, checked_structs: list[str]) -> bool:
    """Every check of the struct is a required field of a simple type, a constant or a closed enum, and one
    required field tells null items."""
    nulls = False
    for f in s.fields:
        simple = f.type.kind in ("wire", "enum") and read_ddl(f.type) in QUICK
        if field_mode(s, f) == "required" and not f.nullable:
            if not simple:
                return False
            nulls = True
        if f.has_const and not simple:
            return False
        if not f.has_const and _has_problem(f.type, "json", checked_structs) and not (f.type.kind == "enum" and simple):
            return False
    return nulls


def spark_json_plan(protocol: Protocol) -> SparkJsonPlan:
    """The plan of a JSON-family protocol's Spark functions."""
    keys: dict[str, list[tuple[Message, Field]]] = {}
    shape_keys: list[str] = []
    for m in protocol.messages:
        if m.shape and m.shape.json == "array":
            continue
        if m.shape:
            shape_keys += [*m.shape.keys, *m.shape.match]
        for f in m.fields:
            keys.setdefault(f.name, []).append((m, f))
    variant_keys = _variant_keys(keys, shape_keys)
    plain_structs: dict[str, list[str]] = {src: [] for src in SOURCES}
    checked_structs: dict[str, list[str]] = {src: [] for src in SOURCES}
    for src in SOURCES:
        for s in protocol.structs:
            if all(
                not f.has_const
                and not (f.has_default and f.default is not None)
                and _plain(f.type, src, plain_structs[src])
                for f in s.fields
            ):
                plain_structs[src].append(s.name)
            if _struct_checked(s, src, checked_structs[src]):
                checked_structs[src].append(s.name)
    zipped = [
        s.name
        for s in protocol.structs
        if s.fields
        and all(
            not (f.has_default and f.default is not None) and _plain(f.type, "json", plain_structs["json"])
            for f in s.fields
            if not f.has_const
        )
    ]
    checked = checked_structs["json"]
    return SparkJsonPlan(
        keys=keys,
        shape_keys=shape_keys,
        variant_keys=variant_keys,
        via_variant=_reached([f.type for key in variant_keys for _, f in keys[key]]),
        plain_structs=plain_structs,
        checked_structs=checked_structs,
        zipped_structs=zipped,
        quick_structs=[s.name for s in protocol.structs if s.name in checked and _quick(s, checked)],
    )


# ---------------------------------------------------------------- encoding


def encode_rule(owner: Struct, f: Field) -> str:
    """How encode writes a field: ``"skip"``, ``"if_set"`` (dropped when null) or ``"always"`` (a null is written)."""
    mode = field_mode(owner, f)
    if mode == "unset" or (mode == "const" and omit_defaults(owner)):
        return "skip"
    if mode == "default" and omit_defaults(owner):
        return "if_set"
    return "always"


def has_struct(ref: TypeRef) -> bool:
    """Whether a struct is inside the type (or is it)."""
    return any(t.kind == "struct" for t in ref.walk())


def wire_plain(ref: TypeRef) -> bool:
    """Whether a decoded value is already its wire form (no bytes, timestamps or structs inside)."""
    if ref.kind in ("list", "map"):
        assert ref.item
        return wire_plain(ref.item)
    return ref.kind != "struct" and ddl(ref) not in ("binary", "timestamp")


def passes_omits(owner: Struct) -> bool:
    """Whether writing the owner passes ``omits`` on: a field written holds a struct, or a null is written."""
    return any(
        (f.nullable and encode_rule(owner, f) == "always") or (not f.has_const and has_struct(f.type))
        for f in owner.fields
        if encode_rule(owner, f) != "skip"
    )


def drops_nulls(owner: Struct, seen: tuple[str, ...] = ()) -> bool:
    """Whether writing the owner drops some null field, in it or in a struct inside (so to_json must be told)."""
    return any(encode_rule(owner, f) == "if_set" or _drops_in(f.type, (*seen, owner.name)) for f in owner.fields)


def _drops_in(ref: TypeRef, seen: tuple[str, ...]) -> bool:
    if ref.kind in ("list", "map"):
        assert ref.item
        return _drops_in(ref.item, seen)
    return (
        ref.kind == "struct"
        and ref.struct is not None
        and ref.struct.name not in seen
        and drops_nulls(ref.struct, seen)
    )


def spark_context(protocol: Protocol) -> dict[str, Any]:
    """What the Spark JSON template reads on top of the JSON context: the plan, and the Spark types of values."""
    return {
        "plan": spark_json_plan(protocol),
        "ddl": ddl,
        "read_ddl": read_ddl,
        "is_variant": is_variant,
        "RANGES": RANGES,
        "rule": encode_rule,
        "has_struct": has_struct,
        "wire_plain": wire_plain,
        "passes_omits": passes_omits,
        "drops_nulls": drops_nulls,
    }
