"""The wire families, registered once: ``family(name)`` is the object every stage asks instead of comparing names.

A definition's ``family`` names one of :data:`FAMILIES`. The registry is a module of its own, not the package's
``__init__``, so that the model can import the typed framing (``framing.py``) without loading the family objects,
whose hooks read the model: the family layer has no import cycle with the model below it or the checks above it.
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
