"""The binary family: big-endian frames of a type code, a payload length and the fields in order (Pravega)."""

from __future__ import annotations

from .base import Family
from .framing import BinaryFraming


class Binary(Family):
    name = "binary"
    framing_type = BinaryFraming


BINARY = Binary()
