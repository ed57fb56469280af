"""The binary family: big-endian frames of a type code, a payload length and the fields in order (Pravega)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..naming import java_safe
from ..problems import Problem
from ..types import CONTAINERS, WIRE_TYPES
from .base import CheckContext, Family, discriminator_keys
from .framing import BinaryFraming

if TYPE_CHECKING:
    from ..model import Field, Struct
    from ..resolve import TypeScope

JAVA_MESSAGE_METHODS = frozenset({"wireCode", "wireName"})
"""The Java Message interface's methods: a record component may not take their names."""


def java_identifier(name: str) -> str:
    """A binary field's Java name: its wire name as written (``Field`` appended to a Java keyword or a method of
    the Message interface)."""
    return java_safe(name, JAVA_MESSAGE_METHODS)


class Binary(Family):
    """Fields are read by position: new ones go last with a presence rule, none is ever removed."""

    name = "binary"
    framing_type = BinaryFraming
    positional = True
    presence_rules = True
    open_enums = True
    negative_lengths = True
    nonfinite_floats = True
    java_rename = "rename one of them (the Java name is the wire name)"

    def java_name(self, f: Field) -> str:
        return java_identifier(f.name)

    def discriminators(self, ctx: CheckContext) -> Iterator[Problem]:
        yield from _binary_codes(ctx)

    def protocol_rules(self, ctx: CheckContext) -> Iterator[Problem]:
        yield from _binary_code_ranges(ctx)

    def field_rules(self, ctx: CheckContext, owner: Struct, f: Field) -> Iterator[Problem]:
        """Binary fields are never removed, take constants of integer and bool types only, and have an encoding."""
        head = f.type.head
        if f.removed:
            yield ctx.problem(
                f,
                "removed",
                f"{owner.name}.{f.name}: binary fields are never removed "
                "(their position carries the fields after them)",
                "keep the field",
            )
        if f.has_const and not (head in WIRE_TYPES and WIRE_TYPES[head].constant):
            yield ctx.problem(
                f,
                "const",
                f"{owner.name}.{f.name}: binary constants are for integer and bool fields",
                "drop `const` or use an integer type",
            )
        yield from _binary_field_type(ctx, owner, f)


BINARY = Binary()


def _binary_codes(ctx: CheckContext) -> Iterator[Problem]:
    """Every binary message has a code, unique and (unless --no-id-check) ascending."""
    codes: dict[int, str] = {}
    previous_code: int | None = None
    for message in ctx.protocol.messages:
        name = message.name
        code = message.code
        if code is None or discriminator_keys(message) != {"code"}:
            yield ctx.problem(
                message,
                "name",
                f"binary message {name!r} needs a `code` and no tag/shape",
                "give its numeric type code",
            )
            continue
        if code in codes:
            yield ctx.problem(
                message,
                "code",
                f"code {code} of {name!r} is already used by {codes[code]!r}",
                "codes must be unique",
            )
        codes[code] = name
        if ctx.id_check and previous_code is not None and code <= previous_code:
            yield ctx.problem(
                message,
                "code",
                f"code {code} of {name!r} is not above the previous message's code {previous_code}",
                "list messages in ascending code order (or pass --no-id-check)",
            )
        previous_code = code


def _binary_code_ranges(ctx: CheckContext) -> Iterator[Problem]:
    code_type = ctx.framing.code_type
    low, high = WIRE_TYPES[code_type].range
    for message in ctx.protocol.messages:
        if not low <= (message.code or 0) <= high:
            yield ctx.problem(
                message,
                "code",
                f"code {message.code} of {message.name!r} does not fit the framing's {code_type}",
                "choose a code in range",
            )


def _binary_field_type(ctx: CheckContext, owner: Struct, f: Field) -> Iterator[Problem]:
    """A binary field's type has an encoding, and a list's count is bounded by the frame."""
    head, args = f.type.head, f.type.args
    item = args[0].head if head == "list" and args else None  # a bare `list` is check_types' problem
    if head == "map" or item in CONTAINERS:
        yield ctx.problem(
            f,
            "type",
            f"{owner.name}.{f.name}: {f.type.text} has no binary encoding",
            "use a list of a struct",
        )
    elif item is not None and item in ctx.scope.structs and _zero_size(ctx.scope, item, set()):
        yield ctx.problem(
            f,
            "type",
            f"{owner.name}.{f.name}: list items of {args[0].text} can take "
            "no bytes, so a count could not be bounded by the frame",
            "give the struct a mandatory field",
        )


def _zero_size(types: TypeScope, name: str, seen: set[str]) -> bool:
    """True when every field of the struct is conditional, or itself a zero-size struct (and no size prefix)."""
    struct = types.structs[name]
    if struct.size_prefix or name in seen:
        return False
    for f in struct.fields:
        if f.presence is not None or f.when_nonempty is not None:
            continue
        head = f.type.head
        if head in types.structs and _zero_size(types, head, seen | {name}):
            continue
        if head in WIRE_TYPES and WIRE_TYPES[head].min_size == 0:  # rest, padding: nothing left, nothing read
            continue
        return False
    return True
