"""The Kafka family's event model: what the Python codec and the Spark functions both read off the one message.

A Kafka protocol carries one event message. Its fields are the payload (``framing.payload.field``), at most one
``additional`` map holding every undeclared attribute, and the declared attributes; ``framing.binary`` says which
record header carries each attribute. :func:`kafka_event` derives that once from the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import takewhile
from typing import Any

from ..model import Field, Message, Protocol
from ..types import JSON_BYTES, WireType


@dataclass(frozen=True)
class KafkaEvent:
    message: Message
    payload: Field
    extra: Field | None  # the map of undeclared attributes, if the event has one
    attributes: list[Field]  # the declared attributes, in definition order (neither payload nor extra)
    content_type: Field | None  # the attribute that names the payload's media type
    headers: dict[str, str]  # field name -> its record header in binary mode (prefix + name unless named)
    leading: list[Field]  # the leading run of const and required attributes (checked, then written at once)
    wire_types: list[WireType]  # the wire types of the attributes, then of the extra map's values; each once
    not_extensions: list[str]  # sorted: names an undeclared attribute may not take (reserved, declared, JSON members)

    @property
    def wire_names(self) -> list[str]:
        return [w.name for w in self.wire_types]

    @property
    def codec_wire_names(self) -> list[str]:
        """The wire types whose converters the Python codec imports: those used, plus the one JSON carries bytes as
        (the structured format's binary payload)."""
        return self.wire_names if JSON_BYTES in self.wire_names else [*self.wire_names, JSON_BYTES]

    def header(self, f: Field) -> str:
        """The record header of attribute ``f`` in binary mode."""
        return self.headers[f.name]

    @staticmethod
    def required(f: Field) -> bool:
        """Whether an event without attribute ``f`` is refused (no default fills it)."""
        return not f.optional and not f.has_default


def _checked_first(f: Field) -> bool:
    """Whether ``f`` may be in the leading run: a const or required attribute of a wire type (not the payload)."""
    return (
        (f.has_const or KafkaEvent.required(f))
        and not f.additional
        and f.type.wire is not None
        and not f.type.wire.record_value
    )


def kafka_event(protocol: Protocol) -> KafkaEvent:
    """The event model of a Kafka-family protocol (its first message)."""
    framing = protocol.framing
    event = protocol.messages[0]
    payload = next(f for f in event.fields if f.name == framing.payload.field)
    extra = next((f for f in event.fields if f.additional), None)
    attributes = [f for f in event.fields if not f.additional and f.name != payload.name]
    content_type = next((f for f in attributes if f.name == framing.payload.content_type_attribute), None)
    binary = framing.binary
    headers = {f.name: binary.attribute_headers.get(f.name, binary.attribute_prefix + f.name) for f in event.fields}
    wire_types: list[WireType] = []
    for ref in [f.type for f in attributes] + ([extra.type.item] if extra and extra.type.item else []):
        assert ref.wire, f"attribute type {ref.text} is not a wire type"
        if ref.wire.name not in [w.name for w in wire_types]:
            wire_types.append(ref.wire)
    return KafkaEvent(
        message=event,
        payload=payload,
        extra=extra,
        attributes=attributes,
        content_type=content_type,
        headers=headers,
        leading=list(takewhile(_checked_first, event.fields)),
        wire_types=wire_types,
        not_extensions=sorted(
            {
                *framing.attribute_names.reserved,
                *(f.name for f in event.fields if not f.additional),
                framing.json_format.data_member,
                framing.json_format.data_base64_member,
            }
        ),
    )


def python_context(protocol: Protocol) -> dict[str, Any]:
    """What the Kafka templates read: the event model."""
    return {"kafka": kafka_event(protocol)}
