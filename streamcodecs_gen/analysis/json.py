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
from typing import Protocol

from ..model import Field


class Owner(Protocol):
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
