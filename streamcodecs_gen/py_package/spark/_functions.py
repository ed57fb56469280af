"""What the Spark function objects of every wire family share (:class:`ProtocolFunctions`): the codec, the
protocol's name, directions and decoded row, and ``encode`` on the JVM path or, without it, on Arrow batches."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TypedDict, Unpack

import pyarrow as pa
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.types import StructType

from . import ENCODED, _jvm, check_mode, encoded
from ._narrow import over_struct
from ._shape import named_fields
from ._shipped import Shipped

__all__ = ["Common", "ProtocolFunctions"]


class Common(TypedDict):
    """What the functions of every family are built with (keyword arguments): a family's class takes its own beside
    them and passes these on to :class:`ProtocolFunctions` as they are."""

    codec: ModuleType
    """The protocol's generated codec module."""
    protocol: str
    """The protocol's name."""
    directions: tuple[str, ...]
    """Its ``DIRECTIONS``."""
    decoded: StructType
    """Its ``DECODED``: the row ``decode`` gives."""
    encoded_from: StructType
    """Its ``_ENCODED_FROM``: what ``encode`` reads of a DECODED row."""


class ProtocolFunctions(Shipped):
    """The Spark functions of one protocol, over its codec (:class:`Common` says what each argument is)."""

    def __init__(self, module: str, name: str, **common: Unpack[Common]) -> None:
        super().__init__(module, name)
        self.codec = common["codec"]
        self.protocol = common["protocol"]
        self.directions = common["directions"]
        self.decoded = common["decoded"]
        self.encoded_from = common["encoded_from"]
        """What ``encode`` reads of a DECODED row (the module's ``_ENCODED_FROM``)."""

    def encode_batch(self, rows: pa.Array) -> pa.Array:
        """``encode`` of one batch on the Python path: ``DECODED`` rows (free-form JSON as its text) -> ``ENCODED``."""
        raise NotImplementedError

    def encode(self, column: Column | str, on_error: str) -> Column:
        """The module's ``encode`` (its docstring says what it does): the protocol's Java ``Encode`` UDF, else an
        Arrow UDF over :meth:`encode_batch`."""

        def encode_rows(rows: pa.Array) -> pa.Array:
            return self.encode_batch(rows)

        return self.encode_with(column, on_error, "Encode", encode_rows)

    def encode_with(
        self,
        column: Column | str,
        on_error: str,
        java_class: str,
        encode_rows: Callable[[pa.Array], pa.Array],
        *,
        variants_as_text: bool = True,
    ) -> Column:
        """An ``encode``: the protocol's Java UDF ``java_class``, else an Arrow UDF over ``encode_rows``, which takes
        each VARIANT as its JSON text (``variants_as_text``) or as itself."""
        on_error = check_mode(on_error)
        source = named_fields(F.col(column) if isinstance(column, str) else column, self.encoded_from)
        java = _jvm.java_udf(self.protocol, java_class, ENCODED)
        if java is not None:
            result = F.call_udf(java, source)
            if on_error == "PERMISSIVE":
                return result  # data is already null where there is an error
        else:
            result = over_struct(encode_rows, ENCODED, source, self.encoded_from, variants_as_text=variants_as_text)
        return encoded(result["data"], result["error"], on_error, self.protocol)
