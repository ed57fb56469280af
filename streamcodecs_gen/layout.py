"""Binary layout: how the fields of a struct or message are read and written, step by step.

Consecutive fixed-size, unconditional fields become one ``struct.Struct`` call (one bounds check, one unpack);
everything else is a step of its own.  Templates render the steps; they make no layout decisions themselves.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from .model import Field, Protocol, Struct, TypeRef
from .types import WIRE_TYPES


@dataclass
class Step:
    fields: list[Field]
    fmt: str | None = None  # struct format (with byte order) for a fixed run
    struct_name: str | None = None  # module-level constant holding the compiled Struct
    guard_remaining: int | None = None  # read only if this many bytes remain
    guard_nonempty: str | None = None  # read only if this earlier field is non-empty

    @property
    def fixed(self) -> bool:
        return self.fmt is not None

    @property
    def size(self) -> int:
        return struct.calcsize(self.fmt) if self.fmt else 0

    @property
    def field(self) -> Field:
        return self.fields[0]


def fixed_code(ref: TypeRef) -> str | None:
    """The struct code of a fixed-size type (enums use their integer wire type)."""
    if ref.kind == "wire" and ref.wire and ref.wire.struct:
        return ref.wire.struct
    if ref.kind == "enum" and ref.enum and not ref.enum.is_string:
        return WIRE_TYPES[ref.enum.wire].struct
    return None


def min_size(ref: TypeRef) -> int:
    """The fewest bytes an encoded value of this type takes (bounds a list count before reading)."""
    code = fixed_code(ref)
    if code:
        return struct.calcsize(">" + code)
    if ref.kind == "wire" and ref.wire:
        return ref.wire.min_size
    if ref.kind == "list":
        return 4
    if ref.kind == "struct" and ref.struct:
        prefix = ref.struct.size_prefix
        prefix_size = struct.calcsize(">" + (WIRE_TYPES[prefix.type].struct or "")) if prefix else 0
        return prefix_size + sum(min_size(f.type) for f in ref.struct.fields if not _conditional(f))
    return 0


def _conditional(f: Field) -> bool:
    return f.presence is not None or f.when_nonempty is not None


@dataclass
class Layout:
    """Steps per struct and message, plus the distinct Struct constants they need."""

    steps: dict[str, list[Step]] = field(default_factory=dict)
    structs: dict[str, str] = field(default_factory=dict)  # format -> constant name

    def constant(self, fmt: str) -> str:
        if fmt not in self.structs:
            self.structs[fmt] = "_S_" + fmt[1:].replace("?", "B_").upper()
        return self.structs[fmt]


def _steps(owner: Struct, layout: Layout, order: str) -> list[Step]:
    steps: list[Step] = []
    run: list[Field] = []

    def flush() -> None:
        if run:
            fmt = order + "".join(fixed_code(f.type) or "" for f in run)
            steps.append(Step(list(run), fmt, layout.constant(fmt)))
            run.clear()

    for f in owner.fields:
        code = fixed_code(f.type)
        if code and not _conditional(f) and not f.has_const:
            run.append(f)
            continue
        flush()
        fmt = order + code if code else None
        steps.append(Step([f], fmt, layout.constant(fmt) if fmt else None, f.presence, f.when_nonempty))
    flush()
    return steps


def binary_layout(protocol: Protocol) -> Layout:
    order = ">" if protocol.framing.get("byte_order", "big") == "big" else "<"
    layout = Layout()
    for owner in [*protocol.structs, *protocol.messages]:
        layout.steps[owner.name] = _steps(owner, layout, order)
    return layout
