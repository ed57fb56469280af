"""Reference values for every field of every message, at every declared version.

Each scalar gets a value of its own (a running index into the type registry's reference values), so swapping two
fields of the same type changes the bytes.  Variants cover collections of several, one and zero elements, and
null/absent optional fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model import EnumRef, Field, ListRef, MapRef, Message, Protocol, Struct, StructRef, TypeRef, UnknownRef, WireRef
from ..versions import version_key

VARIANTS = ("full", "one", "empty")


@dataclass
class Sample:
    """One message's field values (Python plain values, keyed by wire name) at one version."""

    message: Message
    version: str
    variant: str
    values: dict[str, Any]  # wire name -> value; absent optional fields are not keys


def exists_at(f: Field, version: str) -> bool:
    key = version_key(version)
    return version_key(f.since) <= key and (f.removed is None or key < version_key(f.removed))


class ValueMaker:
    def __init__(self) -> None:
        self.counter = 0

    def next_index(self) -> int:
        self.counter += 1
        return self.counter

    def value(self, ref: TypeRef, variant: str) -> Any:
        match ref:
            case WireRef(wire=wire):
                return wire.reference(self.next_index())
            case EnumRef(enum=enum):
                return enum.values[self.next_index() % len(enum.values)].value
            case ListRef(item=item):
                count = {"full": 3, "one": 1, "empty": 0}[variant]
                return [self.value(item, variant) for _ in range(count)]
            case MapRef(item=item):
                count = {"full": 2, "one": 1, "empty": 0}[variant]
                return {f"key-{self.next_index()}-ü": self.value(item, variant) for _ in range(count)}
            case StructRef(struct=owner):
                return self.struct(owner, variant, None)
            case UnknownRef():
                ref.unresolved()

    def struct(self, owner: Struct, variant: str, version: str | None) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for f in owner.fields:
            if version is not None and not exists_at(f, version):
                continue
            if f.has_const:
                values[f.name] = f.const
                continue
            if f.when_nonempty and not values.get(f.when_nonempty):
                continue  # absent: its condition is empty
            if variant == "empty" and (f.optional or f.nullable):
                if f.optional and f.default is not None:
                    default = f.default
                    if isinstance(f.type, EnumRef):  # enum defaults are member names; the wire carries the value
                        default = next(v.value for v in f.type.enum.values if v.name == default)
                    values[f.name] = default  # absent means the default, and encoders always write it
                    continue
                if f.optional:
                    continue
                values[f.name] = None
                continue
            values[f.name] = self.value(f.type, variant)
        return values


def _shape_values(message: Message, values: dict[str, Any]) -> None:
    """Shape-recognised messages carry the constants their shape matches on."""
    if message.shape:
        for key, constant in message.shape.match.items():
            if key in values:
                values[key] = constant


def has_variants(message: Message) -> set[str]:
    """Which variants differ from "full" for this message."""
    found = {"full"}

    def walk(ref: TypeRef) -> None:
        match ref:
            case ListRef(item=item) | MapRef(item=item):
                found.update({"one", "empty"})
                walk(item)
            case StructRef(struct=owner):
                for f in owner.fields:
                    if f.optional or f.nullable:
                        found.add("empty")
                    walk(f.type)

    for f in message.fields:
        if f.optional or f.nullable:
            found.add("empty")
        walk(f.type)
    return found


def samples(protocol: Protocol, version: str) -> list[Sample]:
    """Every message that exists at ``version``, in every variant that applies, with distinct values."""
    maker = ValueMaker()
    result = []
    for message in protocol.messages_at(version):
        if message.inline_only:
            continue  # never a frame of its own; covered inside the messages that carry it
        wanted = has_variants(message)
        for variant in VARIANTS:
            if variant not in wanted:
                continue
            values = maker.struct(message, variant, version)
            _shape_values(message, values)
            result.append(Sample(message, version, variant, values))
    return result
