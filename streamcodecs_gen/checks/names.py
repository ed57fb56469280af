"""Names: unique where they must be, valid identifiers for everything that becomes Python or a module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..model import Enum, EnumValue, Field, Struct
from ..naming import (
    JAVA_CLASS_NAMES,
    PYTHON_MODULE_CONSTANTS,
    PYTHON_MODULE_NAMES,
    RESERVED_ATTRIBUTES,
    SHADOWING,
    identifier_problem,
)
from ..problems import Problem, suggest
from ..types import JAVA_PRIMITIVES, WIRE_TYPES
from .context import Context


def check_names(ctx: Context) -> Iterator[Problem]:
    """Unique names everywhere, valid identifiers for everything that becomes Python."""
    yield from _definition_names(ctx)
    for _kind, owner in ctx.containers():
        yield from _field_names(ctx, owner)
    for enum in ctx.enums():
        yield from _enum_members(ctx, enum)
    shared: list[Struct | Enum] = [ctx.scope.shared_structs[name] for name in ctx.used_shared_structs()]
    shared += [enum for enum in ctx.enums() if enum.shared]
    for node in shared:  # custom/'s types, rendered into this protocol's code
        if why := _generated_name(node.name):
            yield ctx.problem(node, "name", why, "rename it")
    yield from _constant_names(ctx)


def _constant_names(ctx: Context) -> Iterator[Problem]:
    """Constants: one name each, a valid identifier, none the generated module defines itself."""
    seen: dict[str, int] = {}
    for const in ctx.protocol.constants:
        if why := identifier_problem(const.name):
            yield ctx.problem(const, "name", why, "rename it")
        elif const.name in PYTHON_MODULE_CONSTANTS:
            yield ctx.problem(
                const, "name", f"constant {const.name!r} is a name the generated module defines itself", "rename it"
            )
        elif const.name in seen:
            yield ctx.problem(
                const,
                "name",
                f"constant {const.name!r} is repeated (first at line {seen[const.name]})",
                "give each constant a distinct name",
            )
        seen.setdefault(const.name, const.origin.line)


def _definition_names(ctx: Context) -> Iterator[Problem]:
    """Enums, types and messages: one name each, none taken from custom/, each a valid identifier."""
    seen: dict[str, tuple[str, int]] = {}
    sections: list[tuple[str, list[Any]]] = [
        ("enum", ctx.scope.own_enums),
        ("type", ctx.scope.own_structs),
        ("message", ctx.protocol.messages),
    ]
    for section, nodes in sections:
        shared = ctx.scope.shared_enums if section == "enum" else ctx.scope.shared_structs
        for node in nodes:
            name = node.name
            if name in seen:
                yield ctx.problem(
                    node,
                    "name",
                    f"name {name!r} is already used ({seen[name][0]} at line {seen[name][1]})",
                    "choose a distinct name",
                )
            elif name in shared:
                yield ctx.problem(
                    node, "name", f"type {name!r} is already defined in custom/", "rename it or use the shared type"
                )
            else:
                seen[name] = (section, node.origin.line)
            if why := identifier_problem(name) or _generated_name(name):
                yield ctx.problem(node, "name", why, "rename it")


JAVA_TYPES = JAVA_CLASS_NAMES | {t.java for t in WIRE_TYPES.values() if t.java} | set(JAVA_PRIMITIVES)
"""Every Java class name a definition's class would shadow: the generated code's own, and the wire types'."""


def _generated_name(name: str) -> str | None:
    """Why a message, type or enum cannot be called ``name``: the generated code uses that name for something else."""
    if name in PYTHON_MODULE_NAMES:
        return f"{name!r} is a name the generated Python module uses itself"
    if name in JAVA_TYPES:
        return f"{name!r} is a Java class the generated Java code uses (a class of that name would hide it)"
    return None


def _field_names(ctx: Context, owner: Struct) -> Iterator[Problem]:
    """An owner's fields: distinct wire names, Python names and Java names, each usable as a key and as an
    attribute."""
    wire: dict[str, int] = {}
    python: dict[str, int] = {}
    java: dict[str, Field] = {}
    for f in owner.fields:
        java_name = ctx.wire_family.java_name(f)
        other = java.setdefault(java_name, f)
        if other is not f and other.name != f.name and other.py != f.py:  # else reported as a wire or Python clash
            yield ctx.problem(
                f,
                "py" if f.py_explicit else "name",
                f"fields {other.name!r} (line {other.origin.line}) and {f.name!r} of {owner.name!r} have one Java "
                f"name, {java_name!r}",
                ctx.wire_family.java_rename,
            )
        if f.name in wire:
            yield ctx.problem(
                f, "name", f"field {f.name!r} appears twice in {owner.name!r}", f"the first is at line {wire[f.name]}"
            )
        wire.setdefault(f.name, f.origin.line)
        if f.py in python:
            yield ctx.problem(
                f,
                "name",
                f"Python name {f.py!r} of field {f.name!r} clashes in {owner.name!r} (line {python[f.py]})",
                "set a distinct `py:` name",
            )
        python.setdefault(f.py, f.origin.line)
        yield from _field_name_usable(ctx, f)


def _field_name_usable(ctx: Context, f: Field) -> Iterator[Problem]:
    quoted = ctx.wire_family.plain_keys and any(c in f.name for c in '\\"')
    if quoted or any(ord(c) < 0x20 for c in f.name):
        yield ctx.problem(
            f,
            "name",
            f"field name {f.name!r} contains a quote, backslash or control "
            "character, which the JSON codec cannot use as a key",
            "rename the key",
        )
    py = f.py
    why = (
        identifier_problem(py)
        or (f"{py!r} is reserved for the generated class" if py in RESERVED_ATTRIBUTES else None)
        or (f"{py!r} would shadow a name the generated annotations use" if py in SHADOWING else None)
    )
    if why:
        yield ctx.problem(
            f, "py" if f.py_explicit else "name", f"field {f.name!r}: {why}", "set `py:` to a valid snake_case name"
        )


def _enum_members(ctx: Context, enum: Enum) -> Iterator[Problem]:
    """Distinct member names and values of the enum's wire type; `unknown` names a member (or is `keep`)."""
    members: dict[str, EnumValue] = {}
    values: dict[Any, EnumValue] = {}
    wants_str = enum.wire_type.is_text
    for value in enum.values:
        if (first := members.setdefault(value.name, value)) is not value:
            yield ctx.problem(
                value,
                "name",
                f"enum {enum.name}: member {value.name} is repeated (first at line {first.origin.line})",
                "give each member a distinct name",
            )
        elif (first := values.setdefault(value.value, value)) is not value:
            yield ctx.problem(
                value,
                "value",
                f"enum {enum.name}: {value.name}'s value {value.value!r} is also {first.name}'s "
                f"(line {first.origin.line})",
                "give each member a distinct value",
            )
        if isinstance(value.value, str) != wants_str:
            yield ctx.problem(
                value,
                "value",
                f"enum {enum.name}: value {value.value!r} does not fit type {enum.wire}",
                "use a string" if wants_str else "use an integer",
            )
        elif not wants_str and (why := enum.wire_type.value_problem(value.value)):
            yield ctx.problem(
                value,
                "value",
                f"enum {enum.name}: member {value.name}'s value {value.value!r} {why}",
                "use a value from {} to {}".format(*enum.wire_type.range),
            )
    unknown = enum.unknown
    if unknown is not None and unknown != "keep" and unknown not in members and not ctx.may_lack("enums/values"):
        yield ctx.problem(
            enum,
            "unknown",
            f"enum {enum.name}: unknown={unknown!r} is not a member",
            suggest(unknown, members) + " (or `keep` for an open enum)",
        )


def check_directions(ctx: Context) -> Iterator[Problem]:
    declared = [d.name for d in ctx.protocol.directions]
    if len(set(declared)) != len(declared):
        yield ctx.problem(ctx.protocol, "directions", "direction names repeat", "name each direction once")
    for message in ctx.protocol.messages:
        for i, direction in enumerate(message.directions):
            if direction not in declared and not ctx.may_lack("directions"):
                yield ctx.problem(
                    message.origin.within("directions"),
                    i,
                    f"message {message.name!r}: unknown direction {direction!r}",
                    suggest(direction, declared),
                )


RESERVED_MODULES = frozenset({"_runtime", "spark", "messages", "tests", "vectors"})


def check_module_names(ctx: Context) -> Iterator[Problem]:
    """Protocol and companion names become module paths: identifiers, not keywords, not the package's own."""
    name = ctx.protocol.name
    if why := identifier_problem(name):
        yield ctx.problem(ctx.protocol, "protocol", f"protocol name: {why}", "use a lower_snake_case name")
    elif name in RESERVED_MODULES or name.startswith("_"):
        yield ctx.problem(
            ctx.protocol,
            "protocol",
            f"protocol name {name!r} is used by the generated package itself",
            "choose another name",
        )
    for index, companion in enumerate(ctx.protocol.companions):
        if identifier_problem(companion) or companion in RESERVED_MODULES | {"__init__"}:
            yield ctx.problem(
                ctx.protocol.origin.within("companions"),
                index,
                f"companion {companion!r} cannot be a module of the protocol package",
                "choose another identifier (not 'messages')",
            )
