"""What a Spark module lays out besides the Arrow conversions (``analysis/arrow.py``): its schemas, in PySpark
source, and for the binary and JSON families the columns of the decoded row and of an inline frame.

A Spark module names the schema of each struct and message ``<SNAKE_NAME>_SCHEMA``; a field of a struct type is
that struct's schema. The decoded row (``DECODED``, and the binary family's ``INLINE``) has one column per message
kind, named after the message in snake case, with ``_msg`` appended where that would be one of the row's own
columns (the family says which). The templates only lay these out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..filters import one_line
from ..model import ListRef, MapRef, Message, Protocol, Struct, StructRef, TypeRef, WireRef
from ..types import SPARK_CLASSES
from .arrow import arrow_context

BINARY_ROW = ("message", "error", "offset")
"""The binary family's decoded row's own columns, which no kind's column is named (an inline frame has ``offset``)."""
JSON_ROW = ("message", "error")
"""The JSON family's decoded row's own columns, which no kind's column is named."""
ENCODE_SKIPS = "error"
"""The one column of a decoded row (``DECODED``, every family) that ``encode`` does not read: a row built to be
encoded lacks it. Both targets render it: the Python Spark module's ``_ENCODED_FROM`` and Java's
``Sql.ENCODED_FROM`` are ``DECODED`` without it (``encode_skips`` in the Spark templates' context, ``SqlPlan``'s)."""


def schema_name(s: Struct) -> str:
    """The module-level name of a struct's or message's schema."""
    return f"{s.snake.upper()}_SCHEMA"


def pyspark(ref: TypeRef, variant: bool) -> str:
    """Python source: the PySpark type of a decoded value of type ``ref``. ``variant``: free-form JSON is a VARIANT
    (the JSON family, ``WireType.spark_json``); else every value is of its type's ``spark`` type."""
    match ref:
        case ListRef(item=item):
            return f"ArrayType({pyspark(item, variant)})"
        case MapRef(item=item):
            return f"MapType(StringType(), {pyspark(item, variant)})"
        case StructRef(struct=struct):
            return schema_name(struct)
        case WireRef(wire=wire) if variant and wire.spark_json:
            return SPARK_CLASSES[wire.spark_json]
    return ref.spark_class


def kind_column(m: Message, reserved: Sequence[str]) -> str:
    """A message kind's column in the decoded row: its snake-case name, ``_msg`` appended where that is one of the
    row's ``reserved`` columns."""
    return m.snake + ("_msg" if m.snake in reserved else "")


@dataclass(frozen=True)
class SparkField:
    py: str  # the field's name in the schema (its Python name)
    type: str  # Python source of its PySpark type


@dataclass(frozen=True)
class SparkSchema:
    """The schema of one struct or message."""

    owner: Struct
    name: str  # its module-level name
    fields: list[SparkField]
    doc: str  # one line: what it is

    @property
    def message(self) -> bool:
        return isinstance(self.owner, Message)


@dataclass(frozen=True)
class KindColumn:
    """A message kind's column in the decoded row (or in an inline frame)."""

    message: Message
    column: str
    type: str  # Python source: the message's schema, or BOOLEAN for a message without fields (Parquet cannot store
    # empty structs)


@dataclass(frozen=True)
class SparkPlan:
    schemas: list[SparkSchema]  # every struct, then every message
    decoded: list[KindColumn]  # the kinds ``decode`` gives: every message but the inline frames
    inline: list[KindColumn]  # the inline frames' kinds (binary family)

    @property
    def inline_names(self) -> str:
        return ", ".join(c.message.name for c in self.inline)


def _schema(owner: Struct, variant: bool) -> SparkSchema:
    what = owner.name
    if isinstance(owner, Message):
        what += " (message, inline only)" if owner.inline_only else " (message)"
    return SparkSchema(
        owner=owner,
        name=schema_name(owner),
        fields=[SparkField(f.py, pyspark(f.type, variant)) for f in owner.fields],
        doc=f"{what}: {one_line(owner.doc) if owner.doc else 'its fields'}",
    )


def _column(m: Message, reserved: Sequence[str]) -> KindColumn:
    return KindColumn(m, kind_column(m, reserved), schema_name(m) if m.fields else "BooleanType()")


def spark_plan(protocol: Protocol, *, reserved: Sequence[str], variant: bool) -> SparkPlan:
    """The plan of a protocol's Spark module: ``reserved`` are the decoded row's own columns (a kind's column takes
    ``_msg`` rather than one of those names), ``variant`` whether free-form JSON is a VARIANT."""
    return SparkPlan(
        schemas=[_schema(s, variant) for s in [*protocol.structs, *protocol.messages]],
        decoded=[_column(m, reserved) for m in protocol.messages if not m.inline_only],
        inline=[_column(m, reserved) for m in protocol.messages if m.inline_only],
    )


def spark_context(protocol: Protocol, *, reserved: Sequence[str], variant: bool) -> dict[str, Any]:
    """What the binary and JSON Spark templates read: the plan, and the Arrow conversions (``analysis/arrow.py``)."""
    return {
        "spark": spark_plan(protocol, reserved=reserved, variant=variant),
        "encode_skips": ENCODE_SKIPS,
        **arrow_context(protocol),
    }
