"""The kafka family: one event per Kafka record, in binary or structured content mode (CloudEvents)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..problems import Problem, suggest
from ..types import WIRE_TYPES
from .base import CheckContext, Family, discriminator_keys
from .framing import KafkaFraming

if TYPE_CHECKING:
    from ..model import Field, Message, Struct
    from ..origin import HasOrigin, Origin

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Kafka(Family):
    """Attributes are told apart by name, not position: a later attribute is simply absent from older events."""

    name = "kafka"
    framing_type = KafkaFraming
    reader_suffix = b"\n"  # one JSON event per line
    late_fields_need_default = False
    additional_map = True

    def discriminators(self, ctx: CheckContext) -> Iterator[Problem]:
        for message in ctx.protocol.messages:
            if discriminator_keys(message):
                yield ctx.problem(
                    message,
                    "name",
                    f"kafka message {message.name!r} takes no code/tag/shape",
                    "remove them: records are told apart by their headers",
                )

    def field_rules(self, ctx: CheckContext, owner: Struct, f: Field) -> Iterator[Problem]:
        if not f.additional and not _IDENT.fullmatch(f.name):
            yield ctx.problem(
                f,
                "name",
                f"kafka field name {f.name!r} must be an identifier",
                "use letters, digits and underscores",
            )

    def definition_rules(self, ctx: CheckContext) -> Iterator[Problem]:
        yield from _event(ctx)


KAFKA = Kafka()


def _event(ctx: CheckContext) -> Iterator[Problem]:
    """A kafka definition is one event message whose fields the framing's references name.

    The framing names fields (the payload, its content-type attribute, header-mapped attributes, key mappers);
    each must exist with the right type, and every field name must be a valid attribute name.
    """
    framing = ctx.framing
    messages = ctx.protocol.messages
    if len(messages) != 1 and not (ctx.may_lack("messages") and not messages):
        yield ctx.problem(
            ctx.protocol,
            "messages",
            "a kafka protocol defines exactly one message (the event)",
            "describe one event; attributes it does not declare go to its `additional` map",
        )
        return
    try:
        pattern = re.compile(framing.attribute_names.pattern)
    except re.error as exc:
        yield ctx.problem(
            framing.attribute_names,
            "pattern",
            f"attribute name pattern is not a regular expression: {exc}",
            "fix the pattern",
        )
        return
    yield from _kafka_attributes(ctx, messages[0], pattern)
    yield from _kafka_framing_references(ctx, messages[0])


def _record_value(f: Field) -> bool:
    """Whether field ``f`` is of the type that carries the record value (the payload), not an attribute."""
    wire = WIRE_TYPES.get(f.type.text)
    return wire is not None and wire.record_value


def _kafka_attributes(ctx: CheckContext, message: Message, pattern: re.Pattern[str]) -> Iterator[Problem]:
    """Declared attributes: valid attribute names of wire types, and at most one `additional` map."""
    reserved = set(ctx.framing.attribute_names.reserved)
    additional = [f for f in message.fields if f.additional]
    for f in message.fields:
        if f.additional:
            continue
        if not (pattern.fullmatch(f.name) and f.name not in reserved) and not _record_value(f):
            yield ctx.problem(
                f,
                "name",
                f"{message.name}.{f.name}: not a valid attribute name (framing.attribute_names)",
                "rename it",
            )
        if f.type.head not in WIRE_TYPES:
            yield ctx.problem(
                f,
                "type",
                f"{message.name}.{f.name}: kafka attributes have wire types",
                "use a wire type such as string",
            )
    if len(additional) > 1:
        yield ctx.problem(
            additional[1],
            "additional",
            f"{message.name}: more than one `additional` field",
            "keep one map for the undeclared attributes",
        )


def _kafka_framing_references(ctx: CheckContext, message: Message) -> Iterator[Problem]:
    """The payload field, the attributes the framing maps to headers and keys, and the detection header exist."""
    framing = ctx.framing
    if ctx.may_lack("messages/fields"):
        return
    fields = {f.name: f for f in message.fields}
    payloads = [f.name for f in message.fields if _record_value(f)]
    payload = framing.payload
    if payloads != [payload.field]:
        yield ctx.problem(
            framing,
            "payload",
            f"framing.payload.field {payload.field!r} must name the one "
            f"field of type payload (found: {', '.join(payloads) or 'none'})",
            "declare one payload field and name it here",
        )
    headers = framing.binary.attribute_headers
    named: list[tuple[HasOrigin | Origin, str, str]] = [
        (payload, "content_type_attribute", payload.content_type_attribute)
    ]
    named += [(framing.binary.origin.within("attribute_headers"), key, key) for key in headers]
    named += [(m, "attribute", m.attribute) for m in framing.key.mappers]
    for node, key, name in named:
        if name not in fields or _record_value(fields[name]) or fields[name].additional:
            yield ctx.problem(
                node,
                key,
                f"framing names attribute {name!r}, which is not a declared attribute",
                suggest(name, [n for n in fields if n not in payloads]),
            )
    yield from _json_format_members(ctx, fields, payload.field)
    if headers.get(payload.content_type_attribute) != framing.detection.header:
        yield ctx.problem(
            framing.detection,
            "header",
            "framing.detection.header must be the binary-mode header of the content-type attribute",
            "map that attribute to this header in binary.attribute_headers",
        )


def _json_format_members(ctx: CheckContext, fields: dict[str, Field], payload: str) -> Iterator[Problem]:
    """The JSON format's data members are two members of their own: the data member may be the payload field's
    name, but no other attribute's, and the base64 member is neither (each would write two values under one key, or
    read one attribute as the data)."""
    json_format = ctx.framing.json_format
    taken = {name: f"attribute {name!r}" for name, f in fields.items() if name != payload and not f.additional}
    members = [("data_member", json_format.data_member, taken)]
    base64_taken = {**taken, payload: f"the payload field {payload!r}"}
    base64_taken[json_format.data_member] = "framing.json_format.data_member"
    members.append(("data_base64_member", json_format.data_base64_member, base64_taken))
    for key, member, others in members:
        if member in others:
            yield ctx.problem(
                json_format,
                key,
                f"framing.json_format.{key} {member!r} is also the name of {others[member]}",
                "give the JSON format's data members names no attribute has, and two different ones",
            )
