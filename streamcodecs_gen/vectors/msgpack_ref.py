"""An independent reference encoder for the MessagePack framing variant of the JSON family.

The document is the JSON reference's (same keys, same order, same values), and the bytes are written here from
the MessagePack specification (https://github.com/msgpack/msgpack/blob/master/spec.md), with the smallest
encoding of each value, as every mainstream packer does: integers in the fewest bytes (positive ones unsigned),
floats as float 64, strings as the str family, bytes as bin, timestamps as extension type -1. It shares no code
with the generated codecs (msgspec) or with the peers (the msgpack package).
"""

from __future__ import annotations

import datetime
import struct
import uuid
from typing import Any

from ..model import TypeRef, WireRef
from .json_ref import JsonReference

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def _sized(size: int, fix: int | None, fix_limit: int, codes: tuple[int, int, int]) -> bytes:
    """The header of a str, bin, array or map of ``size`` items: fix form, then 8-, 16- and 32-bit lengths."""
    if fix is not None and size < fix_limit:
        return bytes([fix | size])
    code8, code16, code32 = codes
    if code8 and size < 2**8:
        return bytes([code8, size])
    if size < 2**16:
        return bytes([code16]) + struct.pack(">H", size)
    if size < 2**32:
        return bytes([code32]) + struct.pack(">I", size)
    raise ValueError(f"{size} items do not fit MessagePack")


def _timestamp(value: datetime.datetime) -> bytes:
    delta = value - _EPOCH
    seconds = delta.days * 86400 + delta.seconds
    nanoseconds = delta.microseconds * 1000
    if nanoseconds == 0 and 0 <= seconds < 2**32:
        return b"\xd6\xff" + struct.pack(">I", seconds)
    if 0 <= seconds < 2**34:
        return b"\xd7\xff" + struct.pack(">Q", nanoseconds << 34 | seconds)
    return b"\xc7\x0c\xff" + struct.pack(">Iq", nanoseconds, seconds)


def pack(value: Any) -> bytes:
    """One value as MessagePack."""
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 2**7:
            return bytes([value])
        if -(2**5) <= value < 0:
            return struct.pack(">b", value)
        if value > 0:
            for code, fmt, bits in ((0xCC, ">B", 8), (0xCD, ">H", 16), (0xCE, ">I", 32), (0xCF, ">Q", 64)):
                if value < 2**bits:
                    return bytes([code]) + struct.pack(fmt, value)
        else:
            for code, fmt, bits in ((0xD0, ">b", 8), (0xD1, ">h", 16), (0xD2, ">i", 32), (0xD3, ">q", 64)):
                if value >= -(2 ** (bits - 1)):
                    return bytes([code]) + struct.pack(fmt, value)
        raise ValueError(f"{value} does not fit a MessagePack integer")
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        return _sized(len(data), 0xA0, 32, (0xD9, 0xDA, 0xDB)) + data
    if isinstance(value, bytes | bytearray):
        return _sized(len(value), None, 0, (0xC4, 0xC5, 0xC6)) + bytes(value)
    if isinstance(value, datetime.datetime):
        return _timestamp(value)
    if isinstance(value, list | tuple):
        return _sized(len(value), 0x90, 16, (0, 0xDC, 0xDD)) + b"".join(pack(v) for v in value)
    if isinstance(value, dict):
        head = _sized(len(value), 0x80, 16, (0, 0xDE, 0xDF))
        return head + b"".join(pack(k) + pack(v) for k, v in value.items())
    raise TypeError(f"no MessagePack form for {type(value).__name__}")


class MsgpackReference(JsonReference):
    """The JSON reference's documents, packed as MessagePack values written back to back (no delimiter)."""

    def value(self, ref: TypeRef, value: Any) -> Any:
        if value is not None and isinstance(ref, WireRef):
            if ref.wire.name == "base64":  # MessagePack has a binary type: the bytes themselves
                return bytes(value)
            if ref.wire.name == "timestamp":
                return value
            if ref.wire.name == "uuid":
                return str(uuid.UUID(str(value)))
        return super().value(ref, value)

    def frame(self, message: Any, values: dict[str, Any], version: str) -> bytes:
        if message.array_shaped:
            document: Any = self.value(message.fields[0].type, values[message.fields[0].name])
        else:
            body = self.obj(message, values, version)
            document = {self.tag_key: message.tag, **body} if message.tag else body
        return pack(document)
