# Copied from streamcodecs_gen/py_package/spark/_variant.py by ./generator.py; edit that file, not this copy.
"""Free-form JSON values (VARIANT columns) as they cross between Spark and Python: as their JSON text.

:func:`textual` is a schema with every VARIANT as STRING, what the Python side reads and writes, and
:func:`from_text` / :func:`to_text` turn such a column into the real one and back on the JVM (``parse_json`` /
``to_json``), much faster than building each VARIANT's binary form in Python.
"""

from __future__ import annotations

from collections.abc import Callable

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, DataType, MapType, StringType, StructField, StructType, VariantType

from . import bind

__all__ = ["by_name", "from_text", "has_variant", "named_fields", "textual", "to_text"]


def has_variant(data_type: DataType) -> bool:
    if isinstance(data_type, VariantType):
        return True
    if isinstance(data_type, StructType):
        return any(has_variant(f.dataType) for f in data_type.fields)
    if isinstance(data_type, ArrayType):
        return has_variant(data_type.elementType)
    if isinstance(data_type, MapType):
        return has_variant(data_type.valueType)
    return False


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


def _retyped(column: Column, data_type: DataType, leaf: Callable[[Column], Column], every: bool = False) -> Column:
    """``column`` with ``leaf`` applied to every VARIANT (or text in its place) that ``data_type`` holds; its
    structs are rebuilt field by field, by name, where they hold one (``every``: all of them)."""
    if not (every and _has_struct(data_type)) and not has_variant(data_type):
        return column
    if isinstance(data_type, VariantType):
        return leaf(column)
    if isinstance(data_type, StructType):
        parts = [(F.lit(f.name), _retyped(column[f.name], f.dataType, leaf, every)) for f in data_type.fields]
        named = F.named_struct(*[part for pair in parts for part in pair])  # names as literals: fine in a lambda
        return F.when(column.isNotNull(), named)
    if isinstance(data_type, ArrayType):
        element = data_type.elementType
        return F.transform(column, lambda x: _retyped(x, element, leaf, every))
    assert isinstance(data_type, MapType)
    value = data_type.valueType
    return F.transform_values(column, lambda _, v: _retyped(v, value, leaf, every))


def _has_struct(data_type: DataType) -> bool:
    if isinstance(data_type, StructType):
        return True
    if isinstance(data_type, ArrayType):
        return _has_struct(data_type.elementType)
    if isinstance(data_type, MapType):
        return _has_struct(data_type.valueType)
    return False


def named_fields(column: Column, data_type: DataType) -> Column:
    """``column`` itself, given as ``data_type`` (a struct), once Spark's analysis has found each of ``data_type``'s
    fields in it by name, at every depth: a field it lacks fails the query there (FIELD_NOT_FOUND), on either path.

    The test is an expression the optimizer folds away (``true OR ...``): it costs a row nothing. The order of the
    fields does not matter: the Python path reads them as :func:`by_name` puts them, and the Java UDFs put a struct
    given in another order in theirs (``RowShape``)."""
    if not _has_struct(data_type):
        return column
    every = bind(column, lambda c: _retyped(c, data_type, lambda v: v, True).isNull())  # (``column`` named once)
    return F.when(F.lit(True) | every, column)


def by_name(column: Column, data_type: DataType) -> Column:
    """``column``, given as ``data_type`` (a struct), rebuilt in ``data_type``'s order field by field, by name, at every
    depth, with each VARIANT as its JSON text (:func:`textual`): what the Python path reads, by position."""
    if not _has_struct(data_type):
        return to_text(column, data_type)
    return bind(column, lambda c: _retyped(c, data_type, F.to_json, True))


def from_text(column: Column, data_type: DataType) -> Column:
    """A column of ``textual(data_type)`` as ``data_type``: each JSON text parsed into its VARIANT. The column is
    named once (``bind``): its expression is not copied into every field that holds a VARIANT."""
    if not has_variant(data_type):
        return column
    return bind(column, lambda c: _retyped(c, data_type, F.parse_json))


def to_text(column: Column, data_type: DataType) -> Column:
    """A column of ``data_type`` as ``textual(data_type)``: each VARIANT as its JSON text (named once too)."""
    if not has_variant(data_type):
        return column
    return bind(column, lambda c: _retyped(c, data_type, F.to_json))
