"""An independent reference encoder for the binary family, written straight from the definition format.

Deliberately simple and slow: it walks the model and appends bytes, with its own modified-UTF-8 encoder (Java's
DataOutput.writeUTF algorithm, character by character).  It shares nothing with the templates or the runtime.
"""

from __future__ import annotations

import struct
import uuid
from typing import Any

from ..families.framing import BinaryFraming
from ..model import EnumRef, Field, ListRef, Message, Protocol, Struct, StructRef, TypeRef, WireRef
from .values import exists_at

_FORMATS = {"bool": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "q", "float32": "f", "float64": "d"}


def java_write_utf(text: str) -> bytes:
    """DataOutputStream.writeUTF: every UTF-16 unit as 1, 2 or 3 bytes; U+0000 as two bytes."""
    units = text.encode("utf-16-be", "surrogatepass")
    out = bytearray()
    for i in range(0, len(units), 2):
        c = (units[i] << 8) | units[i + 1]
        if 0x0001 <= c <= 0x007F:
            out.append(c)
        elif c <= 0x07FF:  # includes U+0000
            out += bytes((0xC0 | (c >> 6), 0x80 | (c & 0x3F)))
        else:
            out += bytes((0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F)))
    if len(out) > 0xFFFF:
        raise ValueError("string too long for writeUTF")
    return struct.pack(">H", len(out)) + bytes(out)


class BinaryReference:
    def __init__(self, protocol: Protocol) -> None:
        framing = protocol.framing_as(BinaryFraming)
        self.order = ">"
        self.count = _FORMATS[framing.list_count]
        self.length = _FORMATS[framing.bytes_length]
        self.header = self.order + _FORMATS[framing.code_type] + _FORMATS[framing.length_type]

    def scalar(self, ref: TypeRef, value: Any) -> bytes:
        if isinstance(ref, EnumRef):
            return struct.pack(self.order + _FORMATS[ref.enum.wire], value)
        assert isinstance(ref, WireRef), ref.text
        name = ref.wire.name
        if name in _FORMATS:
            return struct.pack(self.order + _FORMATS[name], value)
        if name == "uuid":
            return uuid.UUID(str(value)).bytes
        if name == "string":
            data = value.encode("utf-8")
            return struct.pack(">H", len(data)) + data
        if name == "mutf8":
            return java_write_utf(value)
        if name == "bytes":
            return struct.pack(self.order + self.length, len(value)) + bytes(value)
        if name == "rest":
            return bytes(value)
        if name == "padding":
            return bytes(value)
        raise ValueError(f"type {name} has no binary encoding")

    def value(self, ref: TypeRef, value: Any) -> bytes:
        match ref:
            case ListRef(item=item):
                return struct.pack(self.order + self.count, len(value)) + b"".join(self.value(item, v) for v in value)
            case StructRef(struct=owner):
                return self.struct(owner, value, None)
        return self.scalar(ref, value)

    def struct(self, owner: Struct, values: dict[str, Any], version: str | None) -> bytes:
        body = b""
        absent_size = 0
        for f in owner.fields:
            if version is not None and not exists_at(f, version):
                continue
            if f.name not in values:
                if f.when_nonempty and isinstance(f.type, WireRef | EnumRef):
                    absent_size += len(self.scalar(f.type, _zero(f)))
                continue
            body += self.value(f.type, values[f.name])
        prefix = owner.size_prefix
        if prefix is None:
            return body
        size = len(body) + (absent_size if prefix.counts_absent else 0)
        return struct.pack(self.order + _FORMATS[prefix.type], size) + body

    def frame(self, message: Message, values: dict[str, Any], version: str) -> bytes:
        payload = self.struct(message, values, version)
        return struct.pack(self.header, message.code, len(payload)) + payload


def _zero(f: Field) -> Any:
    name = f.type.wire.name if isinstance(f.type, WireRef) else "int64"
    return {"uuid": uuid.UUID(int=0), "bool": False}.get(name, 0)
