"""The JSON family's field modes: how a field is declared, decoded and encoded (decided once, here).

``field_mode(owner, field)`` is one of:

- ``"required"``: no default; decoding fails without it.
- ``"const"``: a fixed value, declared as a ``Literal`` with that default.
- ``"default"``: decoded as its default when absent; always written (an optional field without a default, i.e.
  None, is omitted when None by the owner's ``omit_defaults``).
- ``"unset_default"``: held as ``msgspec.UNSET`` while decoding and filled in after, so that the owner's
  ``omit_defaults`` (which drops a value equal to the declared default) still writes it once set.
- ``"unset"``: a removed field, decoded from older peers and never encoded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import Protocol as Interface

from ..model import Field, Message, Protocol


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
        return "default" if f.default is None else "unset_default"
    if f.added_later and f.nullable and not f.has_default:
        return "default"
    if f.has_default:
        return "unset_default" if omit_defaults(owner) else "default"
    return "required"


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
    objects = [m for m in messages if m.shape and m.shape.json == "object"]
    array = next((m for m in messages if m.shape and m.shape.json == "array"), None)
    plain = [m for m in objects if m.shape and not m.shape.match]
    base = plain[-1] if plain else None
    checks: list[tuple[Message, dict[str, Any]]] = []
    if base is not None and base.shape is not None:
        names = [f.name for f in base.fields]
        required = [f.name for f in base.fields if field_mode(base, f) == "required"]
        eligible = protocol.framing.tag_key not in names and all(k in required for k in base.shape.keys)
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


def unset_default_fields(owner: Owner) -> list[Field]:
    """The fields held as UNSET while decoding and given their default by ``__post_init__``."""
    return [f for f in owner.fields if field_mode(owner, f) == "unset_default"]


def removed_fields(protocol: Protocol) -> list[tuple[Message, list[Field]]]:
    """Each message that has removed fields, with them (decoded from older peers, refused on encode)."""
    found = [(m, [f for f in m.fields if f.removed]) for m in protocol.messages]
    return [(m, gone) for m, gone in found if gone]


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
