"""The wire families, registered once: each family's object carries its typed framing configuration.

A definition's ``family`` names one of :data:`FAMILIES`; every stage that depends on the wire asks the family object
(``family(name)``) rather than comparing names. See docs/architecture.md for what each family object carries.
"""

from __future__ import annotations

from .base import Family
from .binary import BINARY
from .json import JSON
from .kafka import KAFKA

FAMILIES: dict[str, Family] = {f.name: f for f in (BINARY, JSON, KAFKA)}


def family(name: str) -> Family:
    return FAMILIES[name]


__all__ = ["FAMILIES", "Family", "family"]
