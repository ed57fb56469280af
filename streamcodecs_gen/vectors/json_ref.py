"""An independent reference encoder for the JSON family: the standard library's json, key order from the model."""

from __future__ import annotations

import base64
import datetime
import json
import re
import uuid
from typing import Any

from ..families.framing import JsonFraming
from ..model import ListRef, MapRef, Message, Protocol, Struct, StructRef, TypeRef, WireRef
from .values import exists_at


def _rfc3339(value: datetime.datetime) -> str:
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    if value.microsecond:
        text += f".{value.microsecond:06d}"
    offset = value.utcoffset() or datetime.timedelta(0)
    if offset == datetime.timedelta(0):
        return text + "Z"
    sign = "+" if offset >= datetime.timedelta(0) else "-"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"{text}{sign}{minutes // 60:02d}:{minutes % 60:02d}"


class JsonReference:
    def __init__(self, protocol: Protocol) -> None:
        framing = protocol.framing_as(JsonFraming)
        self.tag_key = framing.tag_key
        self.terminator = "\n" if framing.delimiter == "line" else "\nend\n"
        self.upper_hex = framing.escape_hex == "upper"

    def value(self, ref: TypeRef, value: Any) -> Any:
        if value is None:
            return None
        match ref:
            case ListRef(item=item):
                return [self.value(item, v) for v in value]
            case MapRef(item=item):
                return {k: self.value(item, v) for k, v in value.items()}
            case StructRef(struct=owner):
                return self.obj(owner, value, None)
            case WireRef(wire=wire) if wire.name == "base64":
                return base64.b64encode(bytes(value)).decode("ascii")
            case WireRef(wire=wire) if wire.name == "timestamp":
                return _rfc3339(value)
            case WireRef(wire=wire) if wire.name == "uuid":
                return str(uuid.UUID(str(value)))
        return value

    def obj(self, owner: Struct, values: dict[str, Any], version: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in owner.fields:
            if version is not None and not exists_at(f, version):
                continue
            if f.name in values:
                out[f.name] = self.value(f.type, values[f.name])
        return out

    def frame(self, message: Message, values: dict[str, Any], version: str) -> bytes:
        if message.array_shaped:
            document: Any = self.value(message.fields[0].type, values[message.fields[0].name])
        else:
            body = self.obj(message, values, version)
            document = {self.tag_key: message.tag, **body} if message.tag else body
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        if self.upper_hex:
            text = re.sub(
                r"(?<!\\)((?:\\\\)*)\\u00([0-9a-f]{2})", lambda m: m.group(1) + "\\u00" + m.group(2).upper(), text
            )
        return (text + self.terminator).encode("utf-8")
