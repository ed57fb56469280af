"""Free-form JSON values (VARIANT columns) as they cross between Spark and Python: as their JSON text.

:func:`textual` is a schema with every VARIANT as STRING, what the Python side reads and writes, and
:func:`from_text` / :func:`to_text` turn such a column into the real one and back on the JVM (``parse_json`` /
``to_json``), much faster than building each VARIANT's binary form in Python. The walk over a type is ``_shape``'s.
"""

from __future__ import annotations

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, DataType, MapType, StringType, StructField, StructType, VariantType

from . import bind
from ._shape import has_variant, rebuilt

__all__ = ["from_text", "has_variant", "textual", "to_text"]


def textual(data_type: DataType) -> DataType:
    """``data_type`` with every VARIANT inside as STRING (its JSON text): what crosses to and from Python."""
    if isinstance(data_type, VariantType):
        return StringType()
    if isinstance(data_type, StructType):
        return StructType([StructField(f.name, textual(f.dataType), f.nullable) for f in data_type.fields])
    if isinstance(data_type, ArrayType):
        return ArrayType(textual(data_type.elementType), data_type.containsNull)
    if isinstance(data_type, MapType):
        return MapType(data_type.keyType, textual(data_type.valueType), data_type.valueContainsNull)
    return data_type


def from_text(column: Column, data_type: DataType) -> Column:
    """A column of ``textual(data_type)`` as ``data_type``: each JSON text parsed into its VARIANT. The column is
    named once (``bind``): its expression is not copied into every field that holds a VARIANT."""
    if not has_variant(data_type):
        return column
    return bind(column, lambda c: rebuilt(c, data_type, F.parse_json))


def to_text(column: Column, data_type: DataType) -> Column:
    """A column of ``data_type`` as ``textual(data_type)``: each VARIANT as its JSON text (named once too)."""
    if not has_variant(data_type):
        return column
    return bind(column, lambda c: rebuilt(c, data_type, F.to_json))
