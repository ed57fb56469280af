"""Field types: they resolve, trailing types come last, options suit the type, defaults and constants fit it."""

from __future__ import annotations

import math
from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import Enum, EnumRef, Field, ListRef, MapRef, Struct, StructRef, TypeRef, WireRef
from ..origin import Origin
from ..problems import Problem, suggest
from ..resolve import TypeScope
from ..types import CONTAINERS, MAP_KEY, WIRE_TYPES
from .context import Context


def check_types(ctx: Context) -> Iterator[Problem]:
    """Type references resolve; trailing types come last; defaults and consts fit their types."""
    for kind, owner in ctx.containers():
        seen_presence = False
        for index, f in enumerate(owner.fields):
            where = f"{owner.name}.{f.name}"
            problem, hint = _resolve(ctx, f.type)
            if problem:
                yield ctx.problem(f, "type", f"{where}: {problem}", hint or "")
                continue
            yield from _trailing_type_problems(ctx, kind, f, where, is_last=index == len(owner.fields) - 1)
            if ctx.wire_family.presence_rules:
                yield from _binary_presence_problems(ctx, kind, owner, f, where, follows_optional=seen_presence)
                seen_presence = seen_presence or f.presence is not None
            elif f.presence is not None or f.when_nonempty is not None:
                yield ctx.problem(
                    f,
                    "presence" if f.presence is not None else "when_nonempty",
                    f"{where}: presence rules are for the binary family",
                    "use optional/nullable",
                )
            if f.when_nonempty is not None:
                yield from _when_nonempty_problems(ctx, f, where, owner.fields[:index])
            yield from _field_option_problems(ctx, kind, f, where)
            yield from _value_problems(ctx, f, where)


def check_no_type_holds_itself(ctx: Context) -> Iterator[Problem]:
    """No struct holds itself, directly or through others, in a list or a map: its Spark schema, its Java record's
    Spark row and its vectors would have no end (it was a RecursionError making the vectors). Reported at each field
    of the struct that leads back to it."""
    for kind, owner in ctx.containers():
        if kind != "type":
            continue
        for f in owner.fields:
            path = _path_back(f.type, owner, [])
            if path is not None:
                held = " → ".join([f"{owner.name}.{f.name}", *path])
                yield ctx.problem(
                    f,
                    "type",
                    f"type {owner.name!r} holds itself ({held})",
                    "a type cannot hold itself, however deep: use `any` (JSON) for a value of any depth, or end the "
                    "chain",
                )


def _path_back(ref: TypeRef, owner: Struct, seen: list[str]) -> list[str] | None:
    """The struct names from ``ref`` down to ``owner`` (``owner``'s name last) when ``ref`` holds it, else None;
    ``seen`` are the structs on the way (another cycle, not through ``owner``, is that struct's to report)."""
    if isinstance(ref, ListRef | MapRef):
        return _path_back(ref.item, owner, seen)
    if not isinstance(ref, StructRef):
        return None
    if ref.struct is owner:
        return [owner.name]
    if ref.struct.name in seen:
        return None
    for f in ref.struct.fields:
        path = _path_back(f.type, owner, [*seen, ref.struct.name])
        if path is not None:
            return [f"{ref.struct.name}.{f.name}", *path]
    return None


def _resolve(ctx: Context, ref: TypeRef) -> tuple[str | None, str | None]:
    """Return (problem, hint) for a type, or (None, None) if it resolves."""
    head, args, text = ref.head, ref.args, ref.text
    if head in CONTAINERS:
        if len(args) != CONTAINERS[head]:
            return (
                f"{head} takes {CONTAINERS[head]} type argument(s), got {len(args)} in {text!r}",
                "write list<T> or map<string,T>",
            )
        if head == "map" and args[0].text != MAP_KEY:
            return f"map keys must be string in {text!r}", "write map<string,T>"
        for arg in args:
            problem, hint = _resolve(ctx, arg)
            if problem:
                return problem, hint
        return None, None
    if args:
        return f"{head!r} takes no type arguments", "remove the <...>"
    if isinstance(ref, WireRef):
        if ctx.family is not None and ctx.family not in ref.wire.families:  # (None: of any family)
            allowed = [n for n, t in WIRE_TYPES.items() if ctx.family in t.families]
            hint = ref.wire.elsewhere or "use one of: " + ", ".join(allowed)
            return f"type {head!r} is not available in the {ctx.family} family", hint
        return None, None
    if isinstance(ref, StructRef | EnumRef):
        return None, None
    if head in ctx.elsewhere:
        return (
            f"type {head!r} is {ctx.elsewhere[head]}, which protocol {ctx.protocol.name!r} cannot name",
            "to share it between protocols, define it in the definitions' custom/*.yaml (customTypes: or enums:)",
        )
    if head in ctx.unread:
        return None, None
    return f"unknown type {head!r}", suggest(head, ctx.scope.known)


@dataclass(frozen=True)
class _AnyFamily:
    """What :func:`_resolve` reads of a context, for a shared custom type no protocol uses: no family (a wire type
    of any will do), no protocol, the shared types and enums only."""

    scope: TypeScope
    unread: Container[str]
    family: None = None
    elsewhere: Mapping[str, str] = field(default_factory=dict)


def check_unused_shared_types(
    structs: Mapping[str, Any], enums: Mapping[str, Any], used: Container[str], unread: Container[str]
) -> Iterator[Problem]:
    """The field types of the shared custom types that no protocol uses (``structs``, ``enums``: the custom/ files'
    nodes, by name), which no protocol's checks read (:func:`check_types` reads one in each protocol using it, in its
    family's terms): each resolves among the wire types of any family and the shared types and enums, so a typo is
    reported before a protocol comes to use the type."""
    placeholders = {
        name: Struct(name, "", "", [], Origin.of(node), None, shared=True) for name, node in structs.items()
    }  # (to resolve names to: their fields are not read here)
    shared_enums = {
        name: Enum(name, "string", [], None, "", Origin.of(node), shared=True) for name, node in enums.items()
    }
    ctx = _AnyFamily(TypeScope([], [], shared_enums, placeholders), unread)
    for name, node in structs.items():
        if name in used:
            continue
        for item in node.get("fields", []):
            if not isinstance(item.get("type"), str):  # (a value the schema refused: its problem is said)
                continue
            problem, hint = _resolve(ctx, ctx.scope.ref(item["type"]))  # type: ignore[arg-type]
            if problem:
                at = Origin.of(item)
                yield Problem(at.file, at.line_of("type"), f"{name}.{item.get('name')}: {problem}", hint or "")


def _trailing_type_problems(ctx: Context, kind: str, f: Field, where: str, *, is_last: bool) -> Iterator[Problem]:
    """A type that reads to the end of the frame (``rest``, ``payload``) is a binary message's last field."""
    if not (isinstance(f.type, WireRef) and f.type.wire.trailing):
        return
    wire = f.type.wire
    if not is_last and ctx.wire_family.positional:
        yield ctx.problem(
            f,
            "type",
            f"{where}: {wire.name} reads to the end of the frame, so it must be the last field",
            "move it last",
        )
    if kind == "type":
        yield ctx.problem(
            f, "type", f"{where}: {wire.name} cannot be used inside a struct", "use bytes (length-prefixed)"
        )


def _binary_presence_problems(
    ctx: Context, kind: str, owner: Struct, f: Field, where: str, *, follows_optional: bool
) -> Iterator[Problem]:
    """Binary fields after an optional trailing one, or added in a later version, are read only when present."""
    if f.presence is None and follows_optional and not f.when_nonempty:
        yield ctx.problem(
            f,
            "name",
            f"{where}: a mandatory field follows an optional trailing one",
            "give it a presence rule too",
        )
    # A field without `since` has its owner's: only a later version written on the field is added later.
    if f.added_later and f.presence is None and f.when_nonempty is None and f.since in ctx.versions:
        yield ctx.problem(
            f,
            "since",
            f"{where}: added after its {kind} but read unconditionally, so older frames cannot be decoded",
            "give it a presence rule (e.g. presence: {remaining: 8})",
        )
    if f.presence is not None and not f.has_default:
        yield ctx.problem(
            f,
            "presence",
            f"{where}: a field with a presence rule needs a default",
            "add the default the reference decoder fills",
        )


def _when_nonempty_problems(ctx: Context, f: Field, where: str, earlier_fields: list[Field]) -> Iterator[Problem]:
    """``when_nonempty`` names an earlier bytes or string field, and the conditional field has a default."""
    target = f.when_nonempty or ""
    earlier = {g.name: g for g in earlier_fields}
    if target not in earlier:
        if ctx.may_lack("messages/fields", "types/fields", "customTypes/fields"):
            return  # (the field it names may be one the schema left out: its problem is said there)
        yield ctx.problem(
            f,
            "when_nonempty",
            f"{where}: when_nonempty names {target!r}, not an earlier field",
            suggest(target, [g.name for g in earlier_fields]),
        )
    elif not ((wire := WIRE_TYPES.get(earlier[target].type.text)) and wire.sized):
        yield ctx.problem(
            f,
            "when_nonempty",
            f"{where}: when_nonempty needs a bytes or string field",
            "point it at a bytes field",
        )
    if not f.has_default:
        yield ctx.problem(
            f,
            "when_nonempty",
            f"{where}: a conditional field needs a default",
            "add the value used when it is absent",
        )


def _field_option_problems(ctx: Context, kind: str, f: Field, where: str) -> Iterator[Problem]:
    """Options that only some types, owners or families take: negative, min_length, additional, accept_scalar."""
    wire = f.type.wire if isinstance(f.type, WireRef) else None
    takes_negative = isinstance(f.type, ListRef) or (wire is not None and wire.negative_length)
    if f.negative is not None and (not ctx.wire_family.negative_lengths or not takes_negative):
        yield ctx.problem(f, "negative", f"{where}: `negative` is for binary bytes and list fields", "remove it")
    if f.min_length is not None and not (wire and wire.is_text):
        yield ctx.problem(f, "min_length", f"{where}: min_length is for text fields", "remove it")
    if f.additional and (not isinstance(f.type, MapRef) or kind != "message" or not ctx.wire_family.additional_map):
        yield ctx.problem(
            f,
            "additional",
            f"{where}: `additional` is for a map<string,T> field of a kafka message",
            "remove it",
        )
    if f.accept_scalar and not isinstance(f.type, ListRef):
        yield ctx.problem(f, "accept_scalar", f"{where}: accept_scalar is for lists", "remove it")


def _value_problems(ctx: Context, f: Field, where: str) -> Iterator[Problem]:
    for key, written, value in (("default", f.has_default, f.default), ("const", f.has_const, f.const)):
        if not written:
            continue
        if why := _value_problem(f, value, members_known=not ctx.may_lack("enums/values")):
            yield ctx.problem(f, key, f"{where}: {key} {value!r} {why}", f"give a value of type {f.type.text}")
        elif isinstance(value, float) and not math.isfinite(value) and not ctx.wire_family.nonfinite_floats:
            yield ctx.problem(
                f,
                key,
                f"{where}: {key} {value!r} is not a finite number, which the {ctx.family} family does not carry"
                " (JSON has no NaN or infinity)",
                "give a finite number",
            )


def _value_problem(f: Field, value: Any, *, members_known: bool) -> str | None:
    """Why ``value`` is not one of ``f``'s type; of an enum, not a member's name only when its members are all known
    (``members_known``: the schema left none out, ``Context.may_lack``)."""
    ref = f.type
    if value is None:
        return None if f.nullable or f.optional else "is null but the field is not nullable"
    if isinstance(ref, WireRef):
        return ref.wire.value_problem(value)
    if isinstance(ref, ListRef) and value != []:
        return "list defaults can only be []"
    if isinstance(ref, EnumRef) and members_known and value not in [v.name for v in ref.enum.values]:
        return "is not a member name of " + ref.head
    return None
