"""An independent reference encoder for the kafka family, written from the YAML framing (e.g. CloudEvents).

It writes each sample three ways: in the JSON event format (what the module's ``encode`` writes), as a binary-mode
record and as a structured-mode record.  The standard library's json and base64 do the encoding; nothing is shared
with the templates.
"""

from __future__ import annotations

import base64
import datetime
import json
from typing import Any

from ..families.framing import KafkaFraming
from ..model import Message, Protocol
from .json_ref import _rfc3339
from .values import Sample

# Payload variants: (content type or None, data).  The content type decides how the payload is read, so the
# reference pairs them: a JSON value under a JSON type, text under a text type, bytes under an opaque type.
_PAYLOADS = {
    "full": ("application/json", {"ok": True, "reading": [21.5, "°C"]}),  # keys sorted, as the manifest keeps them
    "one": ("text/plain; charset=utf-8", "héllo wörld"),
    "bytes": ("application/octet-stream", b"\x00\x01\xfe\xff"),
}


class KafkaReference:
    def __init__(self, protocol: Protocol) -> None:
        framing = protocol.framing_as(KafkaFraming)
        self.framing = framing
        self.payload_field = framing.payload.field
        self.content_type_attribute = framing.payload.content_type_attribute
        self.prefix = framing.binary.attribute_prefix
        self.own_headers = framing.binary.attribute_headers
        self.data_member = framing.json_format.data_member
        self.base64_member = framing.json_format.data_base64_member
        self.structured_content_type = framing.structured.formats[0].content_type
        self.detection_header = framing.detection.header
        self.message: Message = protocol.messages[0]
        self.additional = next((f.name for f in self.message.fields if f.additional), None)

    # -- samples --------------------------------------------------------------------------------------------------

    def adjust(self, sample: Sample, index: int) -> Sample:
        """Make a generic sample valid for the binding: paired payloads, extension names and JSON-native values."""
        values = dict(sample.values)
        if self.additional and self.additional in values:
            # Names that follow the naming rule; values of the kinds the JSON format carries natively.
            kinds = (lambda n: n % 2 == 0, lambda n: 1000 + n, lambda n: f"v{n}-é")
            values[self.additional] = {
                f"ext{index}x{number}": kinds[(index + number) % 3](number)
                for number in range(len(values[self.additional]))
            }
        variant = sample.variant if sample.variant in _PAYLOADS else None
        if variant:
            content_type, data = _PAYLOADS[variant]
            values[self.content_type_attribute] = content_type
            values[self.payload_field] = data
        else:
            values.pop(self.content_type_attribute, None)
            values.pop(self.payload_field, None)
        return Sample(sample.message, sample.version, sample.variant, values)

    def with_payload_variants(self, found: list[Sample]) -> list[Sample]:
        """Add a "bytes" variant of each full sample: opaque data (data_base64 in the JSON format)."""
        extra = [Sample(s.message, s.version, "bytes", dict(s.values)) for s in found if s.variant == "full"]
        return found + extra

    # -- canonical forms ------------------------------------------------------------------------------------------

    @staticmethod
    def canonical(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, bytes):
            return base64.b64encode(value).decode("ascii")
        if isinstance(value, datetime.datetime):
            return _rfc3339(value)
        return str(value)

    @staticmethod
    def json_value(value: Any) -> Any:
        if isinstance(value, datetime.datetime):
            return _rfc3339(value)
        return value

    @staticmethod
    def json_text(document: Any) -> bytes:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")

    # -- the three encodings --------------------------------------------------------------------------------------

    def attributes(self, values: dict[str, Any]) -> list[tuple[str, Any]]:
        """Attributes in declared order, extensions expanded where their map is declared."""
        found: list[tuple[str, Any]] = []
        for f in self.message.fields:
            if f.name == self.payload_field or f.name not in values or values[f.name] is None:
                continue
            if f.additional:
                found += list(values[f.name].items())
            else:
                found.append((f.name, values[f.name]))
        return found

    def event_json(self, values: dict[str, Any]) -> bytes:
        document: dict[str, Any] = {name: self.json_value(v) for name, v in self.attributes(values)}
        if self.payload_field in values:
            data = values[self.payload_field]
            if isinstance(data, bytes):
                document[self.base64_member] = base64.b64encode(data).decode("ascii")
            else:
                document[self.data_member] = data
        return self.json_text(document)

    def binary_record(self, values: dict[str, Any]) -> dict[str, Any]:
        headers = []
        for name, value in self.attributes(values):
            header = self.own_headers.get(name, self.prefix + name)
            headers.append([header, self.canonical(value).encode("utf-8").hex()])
        data = values.get(self.payload_field)
        if self.payload_field not in values:
            value = None
        elif isinstance(data, bytes):
            value = data
        elif isinstance(data, str):
            value = data.encode("utf-8")
        else:
            value = self.json_text(data)
        return {"mode": "binary", "key": None, "value": None if value is None else value.hex(), "headers": headers}

    def structured_record(self, values: dict[str, Any]) -> dict[str, Any]:
        header = [self.detection_header, self.structured_content_type.encode("utf-8").hex()]
        return {"mode": "structured", "key": None, "value": self.event_json(values).hex(), "headers": [header]}

    def frame(self, message: Message, values: dict[str, Any], version: str) -> bytes:
        return self.event_json(values)  # what the module's encode() writes; a Reader reads such lines

    def binary_decoded(self, values: dict[str, Any]) -> dict[str, Any]:
        """What a binary-mode record decodes to: header values are text, the payload stays bytes."""
        decoded = dict(values)
        if self.additional and self.additional in decoded:
            decoded[self.additional] = {k: self.canonical(v) for k, v in decoded[self.additional].items()}
        if self.payload_field in decoded:
            record = self.binary_record(values)
            decoded[self.payload_field] = bytes.fromhex(record["value"])
        return decoded
