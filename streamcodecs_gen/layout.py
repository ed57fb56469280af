"""Binary layout: how the fields of a struct or message are read and written, step by step.

Consecutive fixed-size, unconditional fields become one ``struct.Struct`` call (one bounds check, one unpack);
everything else is a step of its own.  Templates render the steps; they make no layout decisions themselves.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from .families.framing import BinaryFraming
from .model import Field, ListRef, Message, Protocol, Struct, StructRef, TypeRef, WireRef
from .types import WIRE_TYPES


@dataclass
class Step:
    fields: list[Field]
    fmt: str | None = None  # struct format (with byte order) for a fixed run
    struct_name: str | None = None  # module-level constant holding the compiled Struct
    guard_remaining: int | None = None  # read only if this many bytes remain
    guard_nonempty: str | None = None  # read only if this earlier field is non-empty
    guarded: list[Step] = field(default_factory=list)  # trailing guarded fixed fields, read at once when all are there
    lead: Step | None = None  # an unconditional fixed run just before the guarded fields, read in the same unpack

    @property
    def fixed(self) -> bool:
        return self.fmt is not None

    @property
    def size(self) -> int:
        return struct.calcsize(self.fmt) if self.fmt else 0

    @property
    def field(self) -> Field:
        return self.fields[0]


def min_size(ref: TypeRef) -> int:
    """The fewest bytes an encoded value of this type takes (bounds a list count before reading)."""
    code = ref.struct_code
    if code:
        return struct.calcsize(">" + code)
    match ref:
        case WireRef(wire=wire):
            return wire.min_size
        case ListRef():
            return 4  # the item count
        case StructRef(struct=owner):
            prefix = owner.size_prefix
            prefix_size = struct.calcsize(">" + (WIRE_TYPES[prefix.type].struct or "")) if prefix else 0
            return prefix_size + sum(min_size(f.type) for f in owner.fields if not _conditional(f))
    return 0


def _conditional(f: Field) -> bool:
    return f.presence is not None or f.when_nonempty is not None


@dataclass
class Layout:
    """Steps per struct and message, plus the distinct Struct constants they need."""

    steps: dict[str, list[Step]] = field(default_factory=dict)
    write_steps: dict[str, list[Step]] = field(default_factory=dict)  # encoders write every field: longer runs
    structs: dict[str, str] = field(default_factory=dict)  # format -> constant name
    views: set[str] = field(default_factory=set)  # structs and messages with a payload field (decoded as a view)
    holds_views: set[str] = field(default_factory=set)  # ... or with one in a struct they hold, however deep
    # Top-level messages whose every field has a fixed size: the Struct of the whole frame (header included) and its
    # payload length, so that encode packs the frame at once (no list of parts, no join).
    frames: dict[str, tuple[str, int]] = field(default_factory=dict)
    # Messages whose fields are a fixed-size run (or none) and then a payload to the frame's end: the Struct of the
    # header and the run, and the run's length, so that a frame whose payload is bytes is one pack and one
    # concatenation (any other case is left to the message's writer).
    tails: dict[str, tuple[str, int]] = field(default_factory=dict)

    def constant(self, fmt: str) -> str:
        if fmt not in self.structs:
            self.structs[fmt] = struct_constant(fmt)
        return self.structs[fmt]


_BY_CODE = {t.struct: t.name for t in WIRE_TYPES.values() if t.struct}
_CODES = re.compile(r"\d*[a-zA-Z?]")


def struct_constant(fmt: str) -> str:
    """The module-level name of a run's ``struct.Struct``: its values' wire types in order, a repeat counted, as
    ``_STRUCT_UUID_INT8_INT64X2`` for ``>16sbqq`` (a format code of no wire type is spelled as it is)."""
    words: list[str] = []
    counts: list[int] = []
    for code in _CODES.findall(fmt[1:]):
        word = _BY_CODE.get(code, code).upper()
        if words and words[-1] == word:
            counts[-1] += 1
        else:
            words.append(word)
            counts.append(1)
    return "_STRUCT_" + "_".join(w + (f"X{n}" if n > 1 else "") for w, n in zip(words, counts, strict=True))


def _steps(owner: Struct, layout: Layout, order: str, *, write: bool = False) -> list[Step]:
    """Read steps, or with ``write`` the encoder's steps (presence rules do not apply: every field is written)."""
    steps: list[Step] = []
    run: list[Field] = []

    def flush() -> None:
        if run:
            fmt = order + "".join(f.type.struct_code or "" for f in run)
            steps.append(Step(list(run), fmt, layout.constant(fmt)))
            run.clear()

    for f in owner.fields:
        code = f.type.struct_code
        if code and not f.has_const and not f.when_nonempty and (write or f.presence is None):
            run.append(f)
            continue
        flush()
        fmt = order + code if code else None
        steps.append(Step([f], fmt, layout.constant(fmt) if fmt else None, f.presence, f.when_nonempty))
    flush()
    if write:
        return steps
    grouped = _guarded_runs(steps, layout, order)
    return grouped if owner.size_prefix else _with_leads(grouped, layout, order)


def _guarded_runs(steps: list[Step], layout: Layout, order: str) -> list[Step]:
    """Group consecutive fixed-size fields each read "if N bytes remain" with N <= its size.  When the bytes for all
    of them remain, every guard passes and every read fits, so one unpack reads them (the newest layout); otherwise
    the template falls back to the guards one by one (an older peer's frame)."""
    grouped: list[Step] = []
    for step in steps:
        if _guarded_fixed(step) and grouped and (grouped[-1].guarded or _guarded_fixed(grouped[-1])):
            last = grouped[-1]
            if not last.guarded:
                last = grouped[-1] = Step(list(last.fields), guard_remaining=last.guard_remaining, guarded=[last])
            last.fields.extend(step.fields)
            last.guarded.append(step)
        else:
            grouped.append(step)
    for step in grouped:
        if step.guarded:
            step.fmt = order + "".join((s.fmt or "")[1:] for s in step.guarded)
            step.struct_name = layout.constant(step.fmt)
    return grouped


def _with_leads(steps: list[Step], layout: Layout, order: str) -> list[Step]:
    """Fold an unconditional fixed run into the guarded group right after it: the newest layout (every field there)
    is then one bounds check and one unpack; an older peer's frame reads the run, then the guards one by one."""
    out: list[Step] = []
    for step in steps:
        last = out[-1] if out else None
        if step.guarded and last and last.fixed and not (last.guarded or last.guard_remaining or last.guard_nonempty):
            fmt = order + (last.fmt or "")[1:] + (step.fmt or "")[1:]
            out[-1] = Step([*last.fields, *step.fields], fmt, layout.constant(fmt), guarded=step.guarded, lead=last)
        else:
            out.append(step)
    return out


def _guarded_fixed(step: Step) -> bool:
    return step.fixed and step.guard_remaining is not None and step.guard_remaining <= step.size


def binary_layout(protocol: Protocol) -> Layout:
    framing = protocol.framing_as(BinaryFraming)
    order = ">" if framing.byte_order == "big" else "<"
    layout = Layout()
    header = order + "".join(WIRE_TYPES[t].struct or "" for t in (framing.code_type, framing.length_type))
    for owner in [*protocol.structs, *protocol.messages]:
        layout.steps[owner.name] = _steps(owner, layout, order)
        layout.write_steps[owner.name] = _steps(owner, layout, order, write=True)
        if any(f.type.holds_view for f in owner.fields):
            layout.views.add(owner.name)
        steps = layout.write_steps[owner.name]
        if isinstance(owner, Message) and not owner.inline_only and _all_fixed(steps):
            layout.frames[owner.name] = _packed_at_once(layout, header, steps)
        elif isinstance(owner, Message) and steps and _all_fixed(steps[:-1]) and _trailing(steps[-1]):
            layout.tails[owner.name] = _packed_at_once(layout, header, steps[:-1])
    layout.holds_views = set(layout.views)
    changed = True
    while changed:  # structs holding structs that hold payloads
        changed = False
        for owner in [*protocol.structs, *protocol.messages]:
            if owner.name not in layout.holds_views and any(
                (held := f.type.held_struct) and held.name in layout.holds_views for f in owner.fields
            ):
                layout.holds_views.add(owner.name)
                changed = True
    return layout


def _packed_at_once(layout: Layout, header: str, steps: list[Step]) -> tuple[str, int]:
    """The Struct constant of the frame header and the fixed runs ``steps``, and the runs' length in bytes."""
    fmt = header + "".join((step.fmt or "")[1:] for step in steps)
    return layout.constant(fmt), struct.calcsize(fmt) - struct.calcsize(header)


def _all_fixed(steps: list[Step]) -> bool:
    return all(step.fixed and not step.guard_nonempty for step in steps)


def _trailing(step: Step) -> bool:
    """A step writing one payload of bytes that runs to the frame's end, with nothing deciding whether it is there."""
    f = step.field
    return (
        len(step.fields) == 1
        and isinstance(f.type, WireRef)
        and f.type.wire.trailing
        and f.type.wire.view  # a payload of bytes (not a padding count)
        and not (f.has_const or f.presence or f.when_nonempty)
    )
