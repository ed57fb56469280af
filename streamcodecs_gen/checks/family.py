"""What each family's codecs support: the shared family rules, and the family object's own hooks in their places."""

from __future__ import annotations

from collections.abc import Iterator

from ..problems import Problem
from .context import Context
from .versions import version_ref_problems


def check_discriminators(ctx: Context) -> Iterator[Problem]:
    """Each family's way of telling messages apart is present, and unique."""
    yield from ctx.wire_family.discriminators(ctx)


def check_family_rules(ctx: Context) -> Iterator[Problem]:
    """What each family's codecs support, so that an accepted definition always produces working code."""
    yield from _unused_directions(ctx)
    yield from _enum_family_rules(ctx)
    wire = ctx.wire_family
    yield from wire.protocol_rules(ctx)
    for _kind, owner in ctx.containers():
        for f in owner.fields:
            yield from wire.field_rules(ctx, owner, f)
        yield from wire.owner_rules(ctx, owner)
    yield from _array_shapes(ctx)


def _unused_directions(ctx: Context) -> Iterator[Problem]:
    if ctx.may_lack("messages", "messages/directions"):
        return
    used = {d for m in ctx.protocol.messages for d in m.directions}
    for index, direction in enumerate(ctx.protocol.directions):
        if direction.name not in used:
            yield ctx.problem(
                ctx.protocol.origin.within("directions"),
                index,
                f"direction {direction.name!r} has no message",
                "remove it or give it its messages",
            )


def _enum_family_rules(ctx: Context) -> Iterator[Problem]:
    for enum in ctx.scope.own_enums:
        if enum.unknown == "keep" and not ctx.wire_family.open_enums:
            yield ctx.problem(
                enum,
                "unknown",
                f"enum {enum.name}: open enums (`unknown: keep`) are for the binary family",
                "name the member unknown values decode as",
            )
        for value in enum.values:
            yield from version_ref_problems(ctx, value, "since", value.since)


def _array_shapes(ctx: Context) -> Iterator[Problem]:
    for message in ctx.protocol.messages:
        if message.array_shaped and not ctx.may_lack("messages/fields"):
            fields = message.fields
            if len(fields) != 1 or fields[0].type.head != "list":
                yield ctx.problem(
                    message,
                    "shape",
                    f"array-shaped message {message.name!r} needs exactly one field, a list (the array itself)",
                    "declare one list field",
                )


def check_family_definition(ctx: Context) -> Iterator[Problem]:
    """The family's rules on the whole definition (e.g. a kafka event and its framing's references), run last."""
    yield from ctx.wire_family.definition_rules(ctx)
