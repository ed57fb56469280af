# Copied from streamcodecs_gen/py_package/spark/_json.py by ./generator.py; edit that file, not this copy.
"""``decode`` and ``encode`` of the JSON family's Spark modules: whole messages (a JSON line, or a message and its
end line), one per row.

A protocol's module holds its schemas and tables (how each message crosses to and from Arrow: ``_arrow.Kind``) and
hands them to :class:`JsonFunctions`, which its public functions call: on the JVM path the protocol's Java UDFs
(``_jvm``), otherwise Arrow UDFs calling the generated Python codec (``_arrow``). Free-form JSON crosses to and
from Python as its text (``_variant.textual``), parsed into a VARIANT on the JVM.

A protocol with MessagePack framing variants (``framing.variants``, ``serializer=``) decodes and encodes them with
the Java codec's ``DecodePacked`` / ``EncodePacked`` UDFs, or the Python codec with ``serializer`` given. Their
free-form values may hold what JSON text cannot (bytes, NaN and infinities, timestamps), so on the Python path each
crosses as its VARIANT's binary form (``_variant.binary``, ``_variant.python_value``), which both paths lay out
alike: the same VARIANT values on either path.
"""

from __future__ import annotations

import functools
from typing import Unpack

import pyarrow as pa
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import to_arrow_type

from .._runtime import messages as _m
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
        packed: tuple[str, ...] = (),
        **common: Unpack[_functions.Common],
    ) -> None:
        super().__init__(module, name, **common)
        self.kinds = kinds
        self.packed = packed
        """The MessagePack framing variants, by name (``serializer=``; ``"json"`` names the default framing)."""
        self.decoded_text = _variant.textual(self.decoded)
        self.decoded_arrow: pa.StructType = to_arrow_type(self.decoded_text, timezone="UTC")  # any zone would do
        self.decoded_packed: pa.StructType = to_arrow_type(self.decoded, timezone="UTC")  # VARIANTs as themselves

    def is_packed(self, serializer: str) -> bool:
        """Whether ``serializer`` names a MessagePack framing (False: JSON); ``ValueError`` (the codec's words) for a
        framing the protocol has not."""
        if serializer == "json":
            return False
        if serializer not in self.packed:
            raise ValueError(_m.unknown_serializer(name=repr(serializer), serializers=("json", *self.packed)))
        return True

    def decode_batch(self, lines: pa.Array, direction: str | None, serializer: str = "json") -> pa.Array:
        codec = self.codec
        if serializer != "json":
            decode_one = functools.partial(codec.decode, direction=direction, serializer=serializer)
            with _gc.no_cycle_collection():
                return _arrow.decode_batch(lines, decode_one, self.kinds, self.decoded_packed)
        decode_line = codec.decode if direction is None else functools.partial(codec.decode, direction=direction)
        with _gc.no_cycle_collection():
            return _arrow.decode_batch(lines, decode_line, self.kinds, self.decoded_arrow)

    def encode_batch(self, rows: pa.Array, serializer: str = "json") -> pa.Array:
        codec = self.codec
        write = codec.encode if serializer == "json" else functools.partial(codec.encode, serializer=serializer)
        with _gc.no_cycle_collection():
            return _arrow.encode_batch(rows, self.kinds, write, codec.EncodeError, _arrow.codec_text)

    def decode(self, column: Column | str, direction: str | None, mode: str, serializer: str = "json") -> Column:
        """The module's ``decode`` (its docstring says what it does)."""
        mode = check_mode(mode)
        check_direction(direction, self.directions)
        packed = self.is_packed(serializer)
        source = F.col(column) if isinstance(column, str) else column
        java = _jvm.java_udf(self.protocol, "DecodePacked" if packed else "Decode", self.decoded)
        if java is not None:
            index = -1 if direction is None else self.directions.index(direction)  # -1: every direction, in order
            row = F.call_udf(java, source.cast("binary"), F.lit(index))
        elif packed:

            def decode_values(values: pa.Array) -> pa.Array:
                return self.decode_batch(values, direction, serializer)

            row = _arrow.arrow_udf(decode_values, self.decoded)(source.cast("binary"))
        else:

            def decode_lines(lines: pa.Array) -> pa.Array:
                return self.decode_batch(lines, direction)

            text = _arrow.arrow_udf(decode_lines, self.decoded_text)(source.cast("binary"))
            row = _variant.from_text(text, self.decoded)
        return finish(row, mode, self.protocol, source)

    def encode(self, column: Column | str, on_error: str, serializer: str = "json") -> Column:
        """The module's ``encode`` (its docstring says what it does); ``on_error`` is checked before the serializer,
        as ``decode`` checks its mode first."""
        on_error = check_mode(on_error)
        if not self.is_packed(serializer):
            return super().encode(column, on_error)

        def encode_rows(rows: pa.Array) -> pa.Array:
            return self.encode_batch(rows, serializer)

        return self.encode_with(column, on_error, "EncodePacked", encode_rows, variants_as_text=False)
