"""Where each field of a binary vector lies: byte spans for the annotated hex dumps of the reference docs.

A walker beside the reference encoder (``binary_ref``): it visits the fields in the order the reference encoder
writes them and asks that encoder for the bytes of every scalar, so the spans describe exactly the reference
bytes.  ``frame_spans`` checks the bytes it assembled against ``BinaryReference.frame`` and raises if the two ever
disagree, so a change to the encoder cannot silently mislabel the docs.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from ..families.framing import BinaryFraming
from ..model import ListRef, Message, Protocol, Struct, StructRef, TypeRef
from .binary_ref import _FORMATS, BinaryReference
from .values import exists_at


@dataclass(frozen=True)
class Span:
    """One labelled run of bytes in a frame: a header part, a prefix, or a scalar field value."""

    start: int
    end: int
    label: str  # "requestId", "entries[1].key.data", "type code", "entries (count)"
    ref: TypeRef | None  # the field's type (None for header parts and prefixes)
    value: Any  # the plain value written there (for prefixes: the number written)
    depth: int  # nesting level, for indentation


message_size_label = "payload"


class SpanWalker:
    def __init__(self, protocol: Protocol) -> None:
        self.ref = BinaryReference(protocol)
        self.protocol = protocol
        self.data = bytearray()
        self.spans: list[Span] = []

    def _add(self, data: bytes, label: str, ref: TypeRef | None, value: Any, depth: int) -> None:
        start = len(self.data)
        self.data += data
        self.spans.append(Span(start, len(self.data), label, ref, value, depth))

    def value(self, ref: TypeRef, value: Any, label: str, depth: int) -> None:
        match ref:
            case ListRef(item=item_type):
                count = struct.pack(self.ref.order + self.ref.count, len(value))
                self._add(count, f"{label} (count)", None, len(value), depth)
                for i, item in enumerate(value):
                    self.value(item_type, item, f"{label}[{i}]", depth + 1)
            case StructRef(struct=owner):
                self.struct(owner, value, None, label, depth)
            case _:
                self._add(self.ref.scalar(ref, value), label, ref, value, depth)

    def struct(self, owner: Struct, values: dict[str, Any], version: str | None, label: str, depth: int) -> None:
        prefix = owner.size_prefix
        if prefix is not None:
            whole = self.ref.struct(owner, values, version)
            fmt = self.ref.order + _FORMATS[prefix.type]
            size = struct.calcsize(fmt)
            self._add(
                whole[:size], f"{label or message_size_label} (size)", None, struct.unpack(fmt, whole[:size])[0], depth
            )
        for f in owner.fields:
            if version is not None and not exists_at(f, version):
                continue
            if f.name not in values:
                continue  # absent: nothing on the wire (a size prefix may still count it, see counts_absent)
            name = f"{label}.{f.name}" if label else f.name
            self.value(f.type, values[f.name], name, depth + (1 if label else 0))


def frame_spans(protocol: Protocol, message: Message, values: dict[str, Any], version: str) -> tuple[bytes, list[Span]]:
    """The reference frame of ``message`` with ``values`` and the span of every header part and scalar in it."""
    walker = SpanWalker(protocol)
    reference = walker.ref
    payload = reference.struct(message, values, version)
    code_format = reference.order + _FORMATS[protocol.framing_as(BinaryFraming).code_type]
    length_format = reference.order + _FORMATS[protocol.framing_as(BinaryFraming).length_type]
    walker._add(struct.pack(code_format, message.code), "type code", None, message.code, 0)
    walker._add(struct.pack(length_format, len(payload)), "payload length", None, len(payload), 0)
    walker.struct(message, values, version, "", 0)
    expected = reference.frame(message, values, version)
    if bytes(walker.data) != expected:
        raise AssertionError(
            f"the span walker and the reference encoder disagree on {protocol.name}.{message.name}: "
            f"{bytes(walker.data).hex()} != {expected.hex()}"
        )
    return expected, walker.spans
