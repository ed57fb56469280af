# Copied from streamcodecs_gen/py_package/spark/_json.py by ./generator.py; edit that file, not this copy.
"""``decode`` and ``encode`` of the JSON family's Spark modules: whole messages (a JSON line, or a message and its
end line), one per row.

A protocol's module holds its schemas and tables (how each message crosses to and from Arrow: ``_arrow.Kind``) and
hands them to :class:`JsonFunctions`, which its public functions call: on the JVM path the protocol's Java UDFs
(``_jvm``), otherwise Arrow UDFs calling the generated Python codec (``_arrow``). Free-form JSON crosses to and
from Python as its text (``_variant.textual``), parsed into a VARIANT on the JVM.
"""

from __future__ import annotations

import functools
from typing import Unpack

import pyarrow as pa
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import to_arrow_type

from . import _arrow, _functions, _gc, _jvm, _variant, check_direction, check_mode, finish

__all__ = ["JsonFunctions"]


class JsonFunctions(_functions.ProtocolFunctions):
    """``decode`` and ``encode`` of one protocol: ``kinds`` its messages by name, beside what every family's
    functions take (:class:`~._functions.Common`)."""

    def __init__(
        self,
        module: str,
        name: str,
        *,
        kinds: dict[str, _arrow.Kind],
        **common: Unpack[_functions.Common],
    ) -> None:
        super().__init__(module, name, **common)
        self.kinds = kinds
        self.decoded_text = _variant.textual(self.decoded)
        self.decoded_arrow: pa.StructType = to_arrow_type(self.decoded_text, timezone="UTC")  # any zone would do

    def decode_batch(self, lines: pa.Array, direction: str | None) -> pa.Array:
        codec = self.codec
        decode_line = codec.decode if direction is None else functools.partial(codec.decode, direction=direction)
        with _gc.no_cycle_collection():
            return _arrow.decode_batch(lines, decode_line, self.kinds, self.decoded_arrow)

    def encode_batch(self, rows: pa.Array) -> pa.Array:
        codec = self.codec
        with _gc.no_cycle_collection():
            return _arrow.encode_batch(rows, self.kinds, codec.encode, codec.EncodeError, _arrow.codec_text)

    def decode(self, column: Column | str, direction: str | None, mode: str) -> Column:
        """The module's ``decode`` (its docstring says what it does)."""
        mode = check_mode(mode)
        check_direction(direction, self.directions)
        source = F.col(column) if isinstance(column, str) else column
        java = _jvm.java_udf(self.protocol, "Decode", self.decoded)
        if java is not None:
            index = -1 if direction is None else self.directions.index(direction)  # -1: every direction, in order
            row = F.call_udf(java, source.cast("binary"), F.lit(index))
        else:

            def decode_lines(lines: pa.Array) -> pa.Array:
                return self.decode_batch(lines, direction)

            text = _arrow.arrow_udf(decode_lines, self.decoded_text)(source.cast("binary"))
            row = _variant.from_text(text, self.decoded)
        return finish(row, mode, self.protocol, source)
