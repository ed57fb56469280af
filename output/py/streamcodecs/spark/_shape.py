# Copied from streamcodecs_gen/py_package/spark/_shape.py by ./generator.py; edit that file, not this copy.
"""The shape of a Spark type, walked: what it holds at any depth (:func:`holds`), a column rebuilt along it
(:func:`rebuilt`), and a struct column read by field name (:func:`named_fields`).

A struct given to ``encode`` or ``to_kafka`` may hold its fields in another order than the schema's: Spark's
analysis finds each by name (:func:`named_fields`), and the Python path, which reads a struct by position, is given
it rebuilt in the schema's order (``_narrow.over_struct``). ``_variant`` (VARIANT columns as text) walks types with
these too.
"""

from __future__ import annotations

from collections.abc import Callable

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, DataType, MapType, StructType, VariantType

from . import bind

__all__ = ["has_struct", "has_variant", "holds", "named_fields", "rebuilt"]


def holds(data_type: DataType, leaf: Callable[[DataType], bool]) -> bool:
    """Whether ``data_type`` is, or holds at any depth (struct fields, array elements, map values), a type ``leaf``
    accepts."""
    if leaf(data_type):
        return True
    if isinstance(data_type, StructType):
        return any(holds(f.dataType, leaf) for f in data_type.fields)
    if isinstance(data_type, ArrayType):
        return holds(data_type.elementType, leaf)
    if isinstance(data_type, MapType):
        return holds(data_type.valueType, leaf)
    return False


def has_variant(data_type: DataType) -> bool:
    return holds(data_type, lambda t: isinstance(t, VariantType))


def has_struct(data_type: DataType) -> bool:
    return holds(data_type, lambda t: isinstance(t, StructType))


def rebuilt(column: Column, data_type: DataType, leaf: Callable[[Column], Column], every: bool = False) -> Column:
    """``column`` with ``leaf`` applied to every VARIANT (or text in its place) that ``data_type`` holds; its
    structs are rebuilt field by field, by name, where they hold one (``every``: all of them)."""
    if not (every and has_struct(data_type)) and not has_variant(data_type):
        return column
    if isinstance(data_type, VariantType):
        return leaf(column)
    if isinstance(data_type, StructType):
        parts = [(F.lit(f.name), rebuilt(column[f.name], f.dataType, leaf, every)) for f in data_type.fields]
        named = F.named_struct(*[part for pair in parts for part in pair])  # names as literals: fine in a lambda
        return F.when(column.isNotNull(), named)
    if isinstance(data_type, ArrayType):
        element = data_type.elementType
        return F.transform(column, lambda x: rebuilt(x, element, leaf, every))
    assert isinstance(data_type, MapType)
    value = data_type.valueType
    return F.transform_values(column, lambda _, v: rebuilt(v, value, leaf, every))


def named_fields(column: Column, data_type: DataType) -> Column:
    """``column`` itself, given as ``data_type`` (a struct), once Spark's analysis has found each of ``data_type``'s
    fields in it by name, at every depth: a field it lacks fails the query there (FIELD_NOT_FOUND), on either path.

    The test is an expression the optimizer folds away (``true OR ...``): it costs a row nothing. The order of the
    fields does not matter: the Python path reads them as ``_narrow.over_struct`` puts them, and the Java UDFs put a
    struct given in another order in theirs (``RowShape``)."""
    if not has_struct(data_type):
        return column
    every = bind(column, lambda c: rebuilt(c, data_type, lambda v: v, True).isNull())  # (``column`` named once)
    return F.when(F.lit(True) | every, column)
