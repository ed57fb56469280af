"""What a protocol's generated ``messages`` module exports (``__all__``), for every family.

The module contract (what every protocol module has, whatever its family), the family's own names, sorted as ruff
sorts an ``__all__`` (constants, then classes, then functions), then the protocol's constants and types in
definition order.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model import Protocol

CONTRACT = (
    "DIRECTIONS",
    "MESSAGES",
    "VERSION",
    "VERSIONS",
    "DecodeError",
    "EncodeError",
    "Message",
    "Reader",
    "decode",
    "encode",
)
"""The names every protocol's module exports."""


def _sorted(name: str) -> tuple[int, str]:
    return (0 if name.isupper() else 1 if name[0].isupper() else 2), name


def exports(protocol: Protocol, family_names: Iterable[str], types: Iterable[str]) -> list[str]:
    """``__all__`` of a protocol's module: the contract and ``family_names``, then its constants, its enums and
    ``types`` (the classes its family generates besides the enums)."""
    contract = sorted({*CONTRACT, *family_names}, key=_sorted)
    return [*contract, *(c.name for c in protocol.constants), *(e.name for e in protocol.enums), *types]
