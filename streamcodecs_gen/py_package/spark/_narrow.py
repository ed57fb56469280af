"""A struct handed to the Python path, narrowed for the crossing: each struct, array or map whose every value JSON
holds exactly crosses as its JSON text (:func:`narrowed`, on the JVM), the whole row too if it can, and is read back
into its Arrow type in Python (:func:`widened`).

Why: Spark writes a Python UDF's input into Arrow batches row by row and, after every row, asks the batch for its
size (``spark.sql.execution.arrow.maxBytesPerBatch``, 256 MB unless set to its largest value), which walks every
vector of the batch. A protocol's ``DECODED`` row holds a column per message kind, and its arrays and maps nest
(Storm's handshake holds maps of maps of structs of arrays): about a hundred vectors, walked after each row. That
walk, not the codec, set the encode functions' pace on the Python path (Storm 23k rows/s, where the codec alone
encodes 100k a second in one process). A JSON text is one vector.

What JSON holds exactly here: strings, booleans, integers and binary (as base64, which Spark's ``to_json`` writes
whatever ``spark.sql.binaryOutputStyle`` says), in structs, arrays and maps keyed by strings, at any depth; VARIANTs
too when they cross as their JSON text. A struct, array or map holding anything else (a float, a decimal, a time, a
VARIANT in its binary form) crosses as Arrow, as before, its parts narrowed where they can be. Nothing a codec
reads changes: :func:`widened` gives the arrays Spark would have given (a map repeating a key, which Spark makes only
when told to, keeps it where it first stands with its last value, as ``_arrow._dicts`` reads such a map).
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from typing import Any

import msgspec
import pyarrow as pa
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import to_arrow_type
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    ByteType,
    DataType,
    IntegerType,
    LongType,
    MapType,
    ShortType,
    StringType,
    StructType,
    VariantType,
)

from . import _arrow, _gc, bind
from ._shape import has_struct, has_variant, holds, rebuilt
from ._variant import textual

__all__ = ["narrowed", "over_struct", "widened"]

_EXACT: dict[type[DataType], type] = {
    StringType: str,
    BooleanType: bool,
    ByteType: int,
    ShortType: int,
    IntegerType: int,
    LongType: int,
    BinaryType: bytes,
}
"""The leaf types JSON text holds exactly, and the Python type each is read back as."""

_JSON_OPTIONS = {"ignoreNullFields": "false"}


def _exact(data_type: DataType, variants_as_text: bool) -> bool:
    """Whether ``data_type``'s every value crosses exactly as JSON text (a VARIANT as its text, if so)."""

    def inexact(part: DataType) -> bool:
        if isinstance(part, VariantType):
            return not variants_as_text
        if isinstance(part, MapType):
            return not isinstance(part.keyType, StringType)
        return not isinstance(part, (StructType, ArrayType)) and type(part) not in _EXACT

    return not holds(data_type, inexact)


def _as_text(data_type: DataType, variants_as_text: bool) -> bool:
    """Whether ``data_type`` is an array, map or struct (with fields) that crosses as its JSON text."""
    if isinstance(data_type, StructType) and not data_type.fields:
        return False
    return isinstance(data_type, (ArrayType, MapType, StructType)) and _exact(data_type, variants_as_text)


def _narrows(data_type: DataType, variants_as_text: bool) -> bool:
    """Whether ``data_type``, or any part of it, crosses as its JSON text."""
    if _as_text(data_type, variants_as_text):
        return True
    if isinstance(data_type, StructType):
        return any(_narrows(f.dataType, variants_as_text) for f in data_type.fields)
    return False


def over_struct(
    function: Callable[[pa.Array], pa.Array],
    returns: DataType,
    column: Column,
    data_type: StructType,
    *,
    variants_as_text: bool = True,
) -> Column:
    """``function`` as an Arrow UDF (``returns``) over ``column``, given as ``data_type`` (a struct): ``function`` is
    handed each batch as the Python path reads it, by position, rebuilt in ``data_type``'s order field by field, by
    name, at every depth, each VARIANT as its JSON text (``to_json``; else as itself). The batch crosses narrowed
    (:func:`narrowed`, :func:`widened`) when ``column``'s types are ``data_type``'s; a struct of other types (a
    bigint where an int belongs: its values go to the codec, which refuses them in its words) crosses as it is.
    Which of the two runs is a fact of the plan (``typeof`` folds to a constant), decided before Spark extracts
    the UDF: a query runs one of them, never both."""
    leaf = F.to_json if variants_as_text else (lambda v: v)

    def narrowed_rows(batch: pa.Array) -> pa.Array:
        with _gc.no_cycle_collection():  # the texts read back are many small objects, as the codec's are
            return function(widened(batch, data_type, variants_as_text=variants_as_text))

    def rows(batch: pa.Array) -> pa.Array:  # (``function`` under a name of this module's, in the plan)
        return function(batch)

    wide = bind(column, lambda c: rebuilt(c, data_type, leaf, True))
    if not _narrows(data_type, variants_as_text):
        return _arrow.arrow_udf(rows, returns)(wide)
    declared = textual(data_type) if variants_as_text else data_type
    same = F.typeof(wide) == F.typeof(F.lit(None).cast(declared))
    narrow = narrowed(column, data_type, variants_as_text=variants_as_text)
    return F.when(same, _arrow.arrow_udf(narrowed_rows, returns)(narrow)).otherwise(
        _arrow.arrow_udf(rows, returns)(wide)
    )


def narrowed(column: Column, data_type: StructType, *, variants_as_text: bool = True) -> Column:
    """``column``, given as ``data_type`` (a struct), rebuilt as :func:`over_struct` hands it to Python, with every
    struct, array or map :func:`widened` reads back as its JSON text (nulls kept): a string column if the whole row
    is one. The column is named once (``bind``)."""
    leaf = F.to_json if variants_as_text else (lambda v: v)
    return bind(column, lambda c: _narrowed(c, data_type, leaf, variants_as_text))


def _narrowed(column: Column, data_type: DataType, leaf: Any, texts: bool) -> Column:
    """(``texts``: whether VARIANTs cross as their text.)"""
    if _as_text(data_type, texts):
        return F.to_json(rebuilt(column, data_type, leaf), _JSON_OPTIONS)
    if isinstance(data_type, StructType) and _narrows(data_type, texts):
        parts = [(F.lit(f.name), _narrowed(column[f.name], f.dataType, leaf, texts)) for f in data_type.fields]
        return F.when(column.isNotNull(), F.named_struct(*[part for pair in parts for part in pair]))
    if not (has_struct(data_type) or (texts and has_variant(data_type))):
        return column
    return rebuilt(column, data_type, leaf, True)


def widened(rows: pa.Array, data_type: StructType, *, variants_as_text: bool = True) -> pa.Array:
    """A batch of :func:`narrowed` rows as Spark hands them over without the narrowing: each JSON text read back into
    its Arrow type (null stays null)."""
    if not _narrows(data_type, variants_as_text):
        return rows
    return _widened(rows, data_type, variants_as_text)


def _widened(array: pa.Array, data_type: DataType, variants_as_text: bool) -> pa.Array:
    if _as_text(data_type, variants_as_text):
        texts = array.to_pylist()
        decode = _decoder(data_type).decode
        return pa.array([None if t is None else decode(t) for t in texts], _arrow_type(data_type))
    if not (isinstance(data_type, StructType) and _narrows(data_type, variants_as_text)):
        return array
    children = array.flatten()  # the struct's offset and nulls applied
    fields = []
    for i, f in enumerate(data_type.fields):
        children[i] = _widened(children[i], f.dataType, variants_as_text)
        fields.append(pa.field(f.name, children[i].type, f.nullable))
    mask = array.is_null() if array.null_count else None
    return pa.StructArray.from_arrays(children, fields=fields, mask=mask)


def _arrow_type(data_type: DataType) -> pa.DataType:
    """The Arrow type Spark hands ``data_type`` over as, VARIANTs as their text."""
    return to_arrow_type(textual(data_type))


@functools.cache
def _decoder(data_type: DataType) -> msgspec.json.Decoder[Any]:
    """A decoder of ``data_type``'s JSON text into the Python values ``pa.array`` takes for its Arrow type."""
    return msgspec.json.Decoder(_python_type(textual(data_type)))


typed_dict: Any = typing.TypedDict  # (called with fields known only at run time)


def _python_type(data_type: DataType) -> Any:
    """The Python type msgspec reads ``data_type``'s JSON as (a struct as a dict), null allowed at every level."""
    held: Any
    if isinstance(data_type, StructType):
        fields = {f.name: _python_type(f.dataType) for f in data_type.fields}
        held = typed_dict("Row", fields, total=False)
    elif isinstance(data_type, ArrayType):
        held = types.GenericAlias(list, (_python_type(data_type.elementType),))
    elif isinstance(data_type, MapType):
        held = types.GenericAlias(dict, (str, _python_type(data_type.valueType)))
    else:
        held = _EXACT[type(data_type)]
    return held | None
