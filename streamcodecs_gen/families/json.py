"""The JSON family: one JSON value per message, told apart by a tag key or by its shape (KCL, Storm)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..model import EnumRef
from ..naming import java_camel, java_safe
from ..problems import Problem, suggest
from ..types import WIRE_TYPES
from .base import CheckContext, Family, discriminator_keys
from .framing import FramingVariant, JsonFraming

if TYPE_CHECKING:
    from ..model import Field, Message, Shape, Struct

JAVA_TAKEN = frozenset(
    # the generated methods' own variables, and the methods every record has
    "p t key strict e w m r v o x messageName hashCode toString equals getClass notify notifyAll wait".split()
)
"""Names the JSON family's Java codec uses itself: a field's Java name takes ``Field`` after them."""


def java_field_name(py_name: str) -> str:
    """``shard_id`` -> ``shardId``: a record component and its local variable (``Field`` appended to a Java
    keyword or a name the generated code uses itself)."""
    return java_safe(java_camel(py_name), JAVA_TAKEN)


class Json(Family):
    """Field names are JSON keys written unescaped; a tagged message's tag sits in the framing's tag key."""

    name = "json"
    framing_type = JsonFraming
    plain_keys = True

    def java_name(self, f: Field) -> str:
        return java_field_name(f.py)

    def variants(self, framing: JsonFraming) -> list[FramingVariant]:
        return framing.variants

    def discriminators(self, ctx: CheckContext) -> Iterator[Problem]:
        yield from _json_discriminators(ctx)

    def protocol_rules(self, ctx: CheckContext) -> Iterator[Problem]:
        yield from _repeated_variants(ctx)

    def field_rules(self, ctx: CheckContext, owner: Struct, f: Field) -> Iterator[Problem]:
        if (tag_key := ctx.framing.tag_key) and f.name == tag_key and "tag" in discriminator_keys(owner):
            yield ctx.problem(
                f,
                "name",
                f"{owner.name}: field {f.name!r} is the framing's tag_key",
                "the tag is written by the codec; remove the field",
            )
        wire = WIRE_TYPES.get(f.type.head)
        if f.has_const and not (wire is not None and wire.json_constant):
            yield ctx.problem(
                f,
                "const",
                f"{owner.name}.{f.name}: JSON constants are for string and integer fields",
                "drop `const` or use a string or integer type",
            )


JSON = Json()


def _json_discriminators(ctx: CheckContext) -> Iterator[Problem]:
    """Every JSON message has a tag (unique per direction, with a tag_key to carry it) or a shape of its fields."""
    tags: dict[tuple[str, str], str] = {}
    for message in ctx.protocol.messages:
        name = message.name
        has = discriminator_keys(message)
        if len(has) != 1 or "code" in has:
            yield ctx.problem(
                message,
                "name",
                f"JSON message {name!r} needs exactly one of `tag` or `shape`",
                "tag for messages carrying the discriminator key, shape for the others",
            )
            continue
        tag = message.tag
        if tag is None:
            yield from _shape_keys(ctx, message)
            continue
        if not ctx.framing.tag_key:
            yield ctx.problem(
                message, "tag", f"message {name!r} has a tag but framing has no tag_key", "set framing.tag_key"
            )
        for direction in message.directions:
            key = (direction, tag)
            if key in tags:
                yield ctx.problem(
                    message,
                    "tag",
                    f"tag {tag!r} is used twice in direction {direction!r} ({tags[key]!r} and {name!r})",
                    "tags must be unique per direction",
                )
            tags[key] = name
    yield from _unreachable_shapes(ctx)


def _unreachable_shapes(ctx: CheckContext) -> Iterator[Problem]:
    """A shape message can be matched: no shape before it in one of its directions matches every value it matches
    (shapes are tried in declaration order). One that could not was generated without a word, and never decoded."""
    if ctx.may_lack("messages/shape/keys"):  # (an earlier shape short of a key would look broader than it is)
        return
    before: dict[str, list[Message]] = {}
    for message in ctx.protocol.messages:
        shape = message.shape
        if shape is None or message.tag is not None:
            continue
        for direction in message.directions:
            earlier = next((m for m in before.get(direction, []) if _covers(m.shape, shape)), None)
            if earlier is not None:
                yield ctx.problem(
                    message,
                    "shape",
                    f"shape of {message.name!r} can never match in direction {direction!r}: every value it matches "
                    f"matches {earlier.name!r} (line {earlier.origin.line}) first",
                    "list the more specific shape first (shapes are tried in declaration order)",
                )
            before.setdefault(direction, []).append(message)


def _covers(first: Shape | None, then: Shape) -> bool:
    """Whether every value shape ``then`` matches is matched by shape ``first``: both arrays, or both objects where
    ``first``'s keys are among the keys ``then`` requires and its matched values are ``then``'s too."""
    if first is None or first.is_array or then.is_array:
        return first is not None and first.is_array and then.is_array
    present = {*then.keys, *then.match}
    same = all(
        key in then.match and then.match[key] == value and type(then.match[key]) is type(value)
        for key, value in first.match.items()
    )
    return set(first.keys) <= present and same


def _shape_keys(ctx: CheckContext, message: Message) -> Iterator[Problem]:
    """An object shape's keys and matched keys are fields of the message, and a matched value is one of its field's
    (the codecs compare it as the field's type: an integer out of the type's range has no Java literal)."""
    fields = {f.name: f for f in message.fields}
    shape = message.shape
    if shape is None or ctx.may_lack("messages/fields"):
        return
    for key in [*shape.keys, *shape.match]:
        if key not in fields and shape.json == "object":
            yield ctx.problem(
                message,
                "shape",
                f"shape of {message.name!r} names key {key!r} that is not a field",
                suggest(key, fields),
            )
    for key, value in shape.match.items():
        kind = fields[key].type if key in fields else None
        if isinstance(kind, EnumRef) and not kind.enum.is_open:
            if ctx.may_lack("enums/values"):
                continue  # (the member it names may be one the schema left out)
            # a value no member has would match the shape, then be refused (or read as another member) by the field
            members = [member.value for member in kind.enum.values]
            if value not in members or isinstance(value, bool):
                yield ctx.problem(
                    message,
                    "shape",
                    f"shape of {message.name!r}: the value {value!r} matched on key {key!r} is not a value of enum "
                    f"{kind.enum.name}",
                    "match one of its wire values: " + ", ".join(repr(member) for member in members),
                )
            continue
        wire = kind.enum.wire_type if isinstance(kind, EnumRef) else WIRE_TYPES.get(kind.text) if kind else None
        if wire is not None and (why := wire.value_problem(value)):
            yield ctx.problem(
                message,
                "shape",
                f"shape of {message.name!r}: the value {value!r} matched on key {key!r} {why}",
                f"match a value of type {wire.name}",
            )


def _repeated_variants(ctx: CheckContext) -> Iterator[Problem]:
    seen_variants: set[str] = set()
    for variant in ctx.framing.variants:
        if variant.name in seen_variants:
            yield ctx.problem(
                variant,
                "name",
                f"framing variant {variant.name!r} is declared twice",
                "give each variant its own name (it is what `serializer=` takes)",
            )
        seen_variants.add(variant.name)
