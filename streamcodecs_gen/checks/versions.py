"""Versions: declared once each in ascending order, named by every since/removed, never going back in time."""

from __future__ import annotations

from collections.abc import Iterator

from ..model import Field, Message, Struct
from ..origin import HasOrigin
from ..problems import Problem, suggest
from ..versions import version_key
from .context import Context


def check_versions(ctx: Context) -> Iterator[Problem]:
    keys = [version_key(v) for v in ctx.versions]
    if len(set(keys)) != len(keys):
        yield ctx.problem(ctx.protocol, "versions", "versions are not unique", "list each version once")
    if keys != sorted(keys):
        yield ctx.problem(ctx.protocol, "versions", "versions are not in ascending order", "list them oldest first")


def version_ref_problems(ctx: Context, node: HasOrigin, key: str, value: str | None) -> Iterator[Problem]:
    """A version the node's ``key`` names (``since``, ``removed``), if any, is a declared one."""
    if value is not None and value not in ctx.versions and not ctx.may_lack("versions"):
        yield ctx.problem(
            node,
            key,
            f"{key} {value!r} is not a declared version",
            suggest(value, ctx.versions) + " (or add it to `versions`)",
        )


def check_since(ctx: Context) -> Iterator[Problem]:
    """Every since/removed names a declared version; fields never go back in time (new fields go at the end).

    A field without ``since`` has its owner's, which is checked first (a field of an owner of an undeclared version
    is not looked at)."""
    for kind, owner in ctx.containers():
        yield from version_ref_problems(ctx, owner, "since", owner.since)
        if isinstance(owner, Message):
            yield from version_ref_problems(ctx, owner, "removed", owner.removed)
        if owner.since not in ctx.versions:
            continue
        previous = owner.since  # the newest version among the fields so far
        for f in owner.fields:
            yield from version_ref_problems(ctx, f, "since", f.since)
            yield from version_ref_problems(ctx, f, "removed", f.removed)
            if f.since in ctx.versions:
                yield from _field_versions(ctx, kind, owner, f, previous)
                previous = max(previous, f.since, key=version_key)
    for message in ctx.protocol.messages:
        removed = message.removed
        if (
            removed is not None
            and removed in ctx.versions
            and message.since in ctx.versions
            and version_key(removed) <= version_key(message.since)
        ):
            yield ctx.problem(
                message,
                "removed",
                f"message {message.name!r} is removed before it is added",
                "removed must be later than since",
            )


def _field_versions(ctx: Context, kind: str, owner: Struct, f: Field, previous: str) -> Iterator[Problem]:
    """A field (of a declared version) is not older than its owner, nor than the fields before it (binary); it is
    removed after it is added; added later than its owner, it has a default."""
    since = f.since
    if version_key(since) < version_key(owner.since):
        yield ctx.problem(
            f,
            "since",
            f"field {f.name!r} is older ({since}) than its {kind} {owner.name!r} ({owner.since})",
            f"set since to {owner.since!r} or later",
        )
    elif version_key(since) < version_key(previous) and ctx.wire_family.positional:
        # Position carries meaning only in binary frames; JSON fields are listed in the peer's write order.
        yield ctx.problem(
            f,
            "since",
            f"field {f.name!r} (since {since}) follows a field added in {previous}",
            "new fields go at the end: move it after the newer fields",
        )
    if f.removed is not None and f.removed in ctx.versions and version_key(f.removed) <= version_key(since):
        yield ctx.problem(
            f,
            "removed",
            f"field {f.name!r} is removed ({f.removed}) before or when it is added ({since})",
            "removed must be a later version than since",
        )
    if (
        f.added_later
        and not (f.has_default or f.has_const or f.nullable or f.optional)
        and ctx.wire_family.late_fields_need_default
    ):
        yield ctx.problem(
            f,
            "name",
            f"field {f.name!r} was added in {since}, after its {kind}, but has no default",
            "give the value a decoder uses when an older peer omits it",
        )
