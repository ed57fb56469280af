"""The Arrow path of the Spark modules: how each field of a message travels between the codec and Arrow.

The binary and JSON families' Spark modules run the generated Python codec on Arrow batches (``spark/_arrow.py``)
when the session has no JVM path. A codec value is not always what Arrow takes: a UUID travels as its text, a
free-form JSON value as its JSON text or its VARIANT's binary form (``_arrow.FREE``), a struct as its
fields, a removed field that the peer did not send as null (the codec holds ``msgspec.UNSET``). This module writes,
once, the Python source of both directions: to Arrow, a *shape* per field (``_arrow.Struct``, ``Items``,
``Entries``, ``Absent``, a function for a single value, or None when the values already are Arrow values), which
``_arrow.to_array`` follows to convert a whole column at once; from Arrow, an expression per field. The templates
only lay them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..families.registry import family
from ..filters import pystr
from ..model import EnumRef, Field, ListRef, MapRef, Protocol, Struct, StructRef, TypeRef, WireRef


def shape_name(s: Struct) -> str:
    """The module-level name of a struct's shape."""
    return f"_{s.snake.upper()}_SHAPE"


def shape(ref: TypeRef) -> str:
    """Python source: how codec values of the type become Arrow values (``_arrow.Shape``)."""
    match ref:
        case WireRef(wire=wire) if wire.arrow_shape is not None:
            return wire.arrow_shape
        case WireRef(wire=wire) if wire.to_arrow is not None:
            return f"lambda v: None if v is None else {wire.to_arrow.format(v='v')}"
        case StructRef(struct=struct):
            return shape_name(struct)
        case ListRef(item=item) if item.arrow_converts:
            return f"_arrow.Items({shape(item)})"
        case MapRef(item=item) if item.arrow_converts:
            return f"_arrow.Entries({shape(item)})"
    return "None"


def field_shape(f: Field) -> str:
    """Python source: the shape of a field's values (a removed field's values may be ``UNSET``)."""
    return f"_arrow.Absent({shape(f.type)})" if f.removed else shape(f.type)


def from_arrow(ref: TypeRef, v: str, path: str, d: int = 0, nulls: bool = False) -> str:
    """Python source: the codec value of Arrow's ``v`` (never None); ``path`` names the field in errors. With
    ``nulls`` (a codec that refuses a null where it cannot be, in its own words, as its Java twin does: the JSON
    family's), a null inside (a list's item, a map's value) stays None for the codec to refuse, and an enum whose
    unknown values read as one of its members takes that member, as decoding the value would."""
    if not nulls:
        return _plain_from_arrow(ref, v, path, d)
    match ref:
        case WireRef(wire=wire) if wire.from_arrow is not None:
            return wire.from_arrow.format(v=v, path=pystr(path))
        case EnumRef(enum=enum) if enum.unknown is not None and not enum.is_open:
            return f"_codec.{enum.name}({v})"
        case StructRef(struct=struct):
            return f"_{struct.snake}_of({v})"
        case ListRef(item=item) if _converts(item):
            x, back = f"x{d}", from_arrow(item, f"x{d}", path + "[]", d + 1, nulls)
            return f"[_arrow.NULL if {x} is None else {back} for {x} in {v}]"
        case MapRef(item=item) if _converts(item):
            x, back = f"x{d}", from_arrow(item, f"x{d}", path + "[]", d + 1, nulls)
            return f"{{k{d}: _arrow.NULL if {x} is None else {back} for k{d}, {x} in {v}.items()}}"
    return v


def _plain_from_arrow(ref: TypeRef, v: str, path: str, d: int) -> str:
    match ref:
        case WireRef(wire=wire) if wire.from_arrow is not None:
            return wire.from_arrow.format(v=v, path=pystr(path))
        case StructRef(struct=struct):
            return f"_{struct.snake}_of({v})"
        case ListRef(item=item) if item.arrow_converts:
            return f"[{_plain_from_arrow(item, f'x{d}', path + '[]', d + 1)} for x{d} in {v}]"
        case MapRef(item=item) if item.arrow_converts:
            return f"{{k{d}: {_plain_from_arrow(item, f'x{d}', path + '[]', d + 1)} for k{d}, x{d} in {v}.items()}}"
    return v


def _converts(ref: TypeRef) -> bool:
    """Whether Arrow's values of the type need converting into the codec's (see :func:`from_arrow`)."""
    return from_arrow(ref, "v", "", nulls=True) != "v"


@dataclass(frozen=True)
class ArrowField:
    """How one field of ``owner`` converts each way: None stays None, and a removed field that the peer did not
    send (the codec's ``UNSET``) is null, as a null is such a field."""

    owner: Struct
    field: Field
    nulls: bool = False  # see from_arrow

    @property
    def py(self) -> str:
        return self.field.py

    @property
    def shape(self) -> str:
        """Python source: how the field's codec values become Arrow values."""
        return field_shape(self.field)

    def from_arrow(self, struct: str) -> str:
        """Python source: the field's codec value from ``struct``, the Arrow value of its owner (a dict)."""
        f = self.field
        item = f"{struct}[{pystr(f.py)}]"
        back = from_arrow(f.type, item, f"{self.owner.name}.{f.py}", nulls=self.nulls)
        if f.removed:
            return f"_arrow.UNSET if {item} is None else {back}"
        if self.nulls:
            return f"_arrow.NULL if {item} is None else {back}" if back != item else back
        return f"None if {item} is None else {back}" if f.type.arrow_converts and f.may_be_none else back


@dataclass(frozen=True)
class ArrowPlan:
    fields: dict[str, list[ArrowField]]  # each struct and message (by name) -> its fields' conversions

    def of(self, owner: Struct) -> list[ArrowField]:
        return self.fields[owner.name]


def arrow_plan(protocol: Protocol) -> ArrowPlan:
    owners: list[Struct] = [*protocol.structs, *protocol.messages]
    nulls = not family(protocol.family).positional  # the JSON family's codecs word a misplaced null themselves
    return ArrowPlan(fields={s.name: [ArrowField(s, f, nulls) for f in s.fields] for s in owners})


def arrow_context(protocol: Protocol) -> dict[str, Any]:
    """What the Spark templates' Arrow part reads (``templates/spark/arrow.j2``)."""
    return {"arrow": arrow_plan(protocol), "shape_name": shape_name}
