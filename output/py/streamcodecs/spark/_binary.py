# Copied from streamcodecs_gen/py_package/spark/_binary.py by ./generator.py; edit that file, not this copy.
"""``decode`` and ``encode`` of the binary family's Spark modules: whole frames, one per row.

A protocol's module holds its schemas and tables (how each message crosses to and from Arrow: ``_arrow.Kind``) and
hands them to :class:`BinaryFunctions`, which its public functions call: on the JVM path the protocol's Java UDFs
(``_jvm``), otherwise Arrow UDFs calling the generated Python codec (``_arrow``).
"""

from __future__ import annotations

import functools
from typing import Unpack

import pyarrow as pa
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import to_arrow_type

from .._runtime import messages as _m
from .._runtime.errors import DecodeError
from . import _arrow, _functions, _gc, _jvm, check_direction, check_mode

__all__ = ["BinaryFunctions", "failure"]


def failure(error: type[DecodeError], reason: str, data: bytes) -> DecodeError:
    """FAILFAST: the row's problem and the start of its bytes, as the codec's ``error``."""
    shown = bytes(data[:48]).hex()
    return error(_m.input_starts(problem=reason, size=len(data), hex=shown, more="..." if len(data) > 48 else ""))


class BinaryFunctions(_functions.ProtocolFunctions):
    """``decode`` and ``encode`` of one protocol: ``kinds`` its messages by name (those ``decode`` gives; the inline
    frames are ``_inline``'s), beside what every family's functions take (:class:`~._functions.Common`)."""

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
        self.decoded_arrow: pa.StructType = to_arrow_type(self.decoded)

    def failure(self, reason: str, data: bytes) -> DecodeError:
        return failure(self.codec.DecodeError, reason, data)

    def decode_batch(self, frames: pa.Array, direction: str | None, failfast: bool) -> pa.Array:
        codec = self.codec
        decode_frame = codec.decode if direction is None else functools.partial(codec.decode, direction=direction)
        with _gc.no_cycle_collection():
            return _arrow.decode_batch(
                frames, decode_frame, self.kinds, self.decoded_arrow, self.failure if failfast else None
            )

    def encode_batch(self, rows: pa.Array) -> pa.Array:
        with _gc.no_cycle_collection():
            return _arrow.encode_batch(rows, self.kinds, self.codec.encode, self.codec.EncodeError)

    def decode(self, column: Column | str, direction: str | None, mode: str) -> Column:
        """The module's ``decode`` (its docstring says what it does)."""
        mode = check_mode(mode)
        check_direction(direction, self.directions)
        source = F.col(column) if isinstance(column, str) else column
        failfast = mode == "FAILFAST"
        java = _jvm.java_udf(self.protocol, "Decode", self.decoded)
        if java is not None:
            return F.call_udf(java, source.cast("binary"), F.lit(direction).cast("string"), F.lit(failfast))

        def decode_frames(frames: pa.Array) -> pa.Array:
            return self.decode_batch(frames, direction, failfast)

        return _arrow.arrow_udf(decode_frames, self.decoded)(source.cast("binary"))
