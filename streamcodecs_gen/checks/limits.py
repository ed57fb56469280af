"""Integers a target writes into code as a type of its own fit that type.

A frame or message limit, a presence rule's byte count and a text's minimum length become Java ``int`` constants and
comparisons (the Python target takes any integer), so each must lie in Java's ``int``, which is ``int32``'s range in
the type registry; an integer constant becomes an ``int`` or a ``long``, so it lies in ``int64``'s. An enum member's
value, a default, a constant field, a shape's matched value and a message code are checked against their own wire
types where those are checked (``names.py``, ``field_types.py``, the families' rules).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..origin import HasOrigin, Origin
from ..problems import Problem
from ..types import WIRE_TYPES, WireType
from .context import Context

JAVA_INT = WIRE_TYPES["int32"]
"""The wire type whose range is Java's ``int``: what the Java target declares limits, lengths and counts as."""
JAVA_LONG = WIRE_TYPES["int64"]
"""The wire type whose range is Java's ``long``: the largest integer a protocol constant can be."""

FRAMING_LIMITS = ("max_frame", "max_message")
"""The framing keys (of whichever family declares them) that the generated codecs hold as an ``int`` constant."""


def check_limits(ctx: Context) -> Iterator[Problem]:
    """Framing limits, presence byte counts and minimum lengths fit Java's ``int``; integer constants its ``long``."""
    for const in ctx.protocol.constants:
        if isinstance(const.value, int) and not isinstance(const.value, bool):
            yield from _fits(ctx, const, "value", const.value, f"constant {const.name}", JAVA_LONG)
    framing = ctx.framing
    for key in FRAMING_LIMITS:
        value = getattr(framing, key, None)
        if value is not None:
            yield from _fits(ctx, framing.origin, key, value, f"framing {key}")
    for _kind, owner in ctx.containers():
        for f in owner.fields:
            where = f"{owner.name}.{f.name}"
            if f.presence is not None:
                yield from _fits(ctx, f.origin.within("presence"), "remaining", f.presence, f"{where}: presence")
            if f.min_length is not None:
                yield from _fits(ctx, f, "min_length", f.min_length, f"{where}: min_length")


def _fits(
    ctx: Context, at: HasOrigin | Origin, key: str, value: int, what: str, holder: WireType = JAVA_INT
) -> Iterator[Problem]:
    low, high = holder.range
    if not low <= value <= high:
        low = low if holder is JAVA_LONG else 0  # a limit, count or length is not negative (the schema says so too)
        yield ctx.problem(
            at,
            key,
            f"{what} {value} does not fit {holder.name}, which the generated code holds it in",
            f"use a value from {low} to {high}",
        )
