"""The JSON family: one JSON value per message, told apart by a tag key or by its shape (KCL, Storm)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..problems import Problem, suggest
from .base import Family, Templates, discriminator_keys
from .framing import FramingVariant, JsonFraming

if TYPE_CHECKING:
    from ..checks import Context
    from ..model import Field, Message, Protocol, Struct
    from ..render import Options
    from ..target_md import Example


class Json(Family):
    """Field names are JSON keys written unescaped; a tagged message's tag sits in the framing's tag key."""

    name = "json"
    framing_type = JsonFraming
    templates = Templates(
        "py/json/messages.py.j2",
        "spark/json.py.j2",
        "md/json/family.md.j2",
        java=tuple(f"java/json/{name}.java.j2" for name in ("Messages", "Codec", "Reader", "Decode", "Encode", "Sql")),
    )
    plain_keys = True

    def variants(self, framing: JsonFraming) -> list[FramingVariant]:
        return framing.variants

    def discriminators(self, ctx: Context) -> Iterator[Problem]:
        yield from _json_discriminators(ctx)

    def protocol_rules(self, ctx: Context) -> Iterator[Problem]:
        yield from _repeated_variants(ctx)

    def field_rules(self, ctx: Context, owner: Struct, f: Field) -> Iterator[Problem]:
        if (tag_key := ctx.framing.tag_key) and f.name == tag_key and "tag" in discriminator_keys(owner):
            yield ctx.problem(
                f,
                "name",
                f"{owner.name}: field {f.name!r} is the framing's tag_key",
                "the tag is written by the codec; remove the field",
            )

    def python_context(self, protocol: Protocol) -> dict[str, Any]:
        from ..analysis.json import python_context

        return python_context(protocol)

    def spark_context(self, protocol: Protocol) -> dict[str, Any]:
        from ..analysis.spark import spark_context

        framing = protocol.framing_as(JsonFraming)
        return {
            **spark_context(protocol, reserved=_RESERVED, variant=True),  # free-form JSON: a VARIANT
            "terminator": framing.terminator_words,  # what ends a message
        }

    def java_context(self, protocol: Protocol) -> dict[str, Any]:
        from ..analysis.java_json import java_context
        from ..analysis.spark import spark_plan
        from ..analysis.sql import codec_sql

        sql = codec_sql(protocol, spark_plan(protocol, reserved=_RESERVED, variant=True), variant=True)
        return {**java_context(protocol), "sql": sql}

    def encoder(self) -> type:
        from ..vectors.json_ref import JsonReference

        return JsonReference

    def examples(self, protocol: Protocol, options: Options) -> dict[str, Example]:
        from ..target_md import json_examples

        return json_examples(protocol, options)


JSON = Json()
_RESERVED = ("message", "error")
"""The decoded row's own columns, which a kind's column is never named."""


def _json_discriminators(ctx: Context) -> Iterator[Problem]:
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


def _shape_keys(ctx: Context, message: Message) -> Iterator[Problem]:
    """An object shape's keys and matched keys are fields of the message."""
    field_names = {f.name for f in message.fields}
    shape = message.shape
    if shape is None:
        return
    for key in [*shape.keys, *shape.match]:
        if key not in field_names and shape.json == "object":
            yield ctx.problem(
                message,
                "shape",
                f"shape of {message.name!r} names key {key!r} that is not a field",
                suggest(key, field_names),
            )


def _repeated_variants(ctx: Context) -> Iterator[Problem]:
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
