# Copied from streamcodecs_gen/py_package/spark/_variant.py by ./generator.py; edit that file, not this copy.
"""Free-form JSON values (VARIANT columns) as they cross between Spark and Python: as their JSON text, or, for a
MessagePack framing, as the VARIANT's binary form.

:func:`textual` is a schema with every VARIANT as STRING, what the Python side reads and writes, and
:func:`from_text` / :func:`to_text` turn such a column into the real one and back on the JVM (``parse_json`` /
``to_json``), much faster than building each VARIANT's binary form in Python. The walk over a type is ``_shape``'s.
MessagePack's values JSON text cannot carry (bytes, NaN and infinities, timestamps) cross in the binary form
instead, built and read here (:func:`binary`, :func:`python_value`).
"""

from __future__ import annotations

import datetime
import decimal
import struct
from typing import Any

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, DataType, MapType, StringType, StructField, StructType, VariantType
from pyspark.sql.variant_utils import VariantUtils

from .._runtime import messages as _m
from .._runtime.jsonchecks import Unwritable
from .._runtime.jsontext import roomy
from . import bind
from ._shape import has_variant, rebuilt

__all__ = ["binary", "from_text", "has_variant", "python_value", "textual", "to_text"]


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


# ---------------------------------------------------------------- a VARIANT's binary form, built and read in Python
#
# A MessagePack framing's free-form values hold what JSON text cannot carry (bytes, NaN and infinities, timestamps),
# so its Python path sends each VARIANT across in its binary form (Arrow's struct of ``value`` and ``metadata``, which
# pyspark reads as a VARIANT both ways) rather than as JSON text. :func:`binary` lays a codec value out as Spark's Java
# ``VariantBuilder`` does for the JVM path (the Java runtime's ``PackedValues.any``): an integer in its smallest width
# (a decimal beyond a long), every float a double, bytes BINARY, a datetime a TIMESTAMP (UTC microseconds), an
# object's fields sorted by key as Java sorts strings, its keys in the metadata in the order first met.
# :func:`python_value` reads one back as the Java runtime's ``PackedWrite`` writes it: a decimal without a fraction as
# an integer (else a float), any other type JSON has no form for (a date, a timestamp without a zone, a UUID) as the
# text of its JSON form, and a timestamp outside the years 0001 to 9999 (which Spark holds, and neither a datetime
# nor the codec's MessagePack decode does) as the codec's ``Unwritable``, which encode refuses where it stands.

_PRIMITIVE, _SHORT_STR, _OBJECT, _ARRAY = 0, 1, 2, 3
_NULL, _TRUE, _FALSE, _INT1, _INT2, _INT4, _INT8, _DOUBLE = 0, 1, 2, 3, 4, 5, 6, 7
_DECIMAL4, _DECIMAL8, _DECIMAL16, _TIMESTAMP, _FLOAT, _BINARY, _LONG_STR = 8, 9, 10, 12, 14, 15, 16
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_MICROSECOND = datetime.timedelta(microseconds=1)
_DOUBLE_HEAD = bytes([_DOUBLE << 2])
_NULL_BYTES = bytes([_NULL << 2])
_TRUE_BYTES = bytes([_TRUE << 2])
_FALSE_BYTES = bytes([_FALSE << 2])


def _width(n: int) -> int:
    """The bytes of the smallest unsigned integer holding ``n`` (at most 3)."""
    return 1 if n <= 0xFF else 2 if n <= 0xFFFF else 3


class _Builder:
    __slots__ = ("keys", "out")

    def __init__(self) -> None:
        self.out = bytearray()
        self.keys: dict[str, int] = {}

    def append(self, v: Any) -> None:
        out = self.out
        t = type(v)
        if t is str:
            b = v.encode("utf-8")
            if len(b) <= 0x3F:
                out.append(len(b) << 2 | _SHORT_STR)
            else:
                out.append(_LONG_STR << 2)
                out += len(b).to_bytes(4, "little")
            out += b
        elif t is int:
            if -0x80 <= v <= 0x7F:
                out.append(_INT1 << 2)
                out += v.to_bytes(1, "little", signed=True)
            elif -0x8000 <= v <= 0x7FFF:
                out.append(_INT2 << 2)
                out += v.to_bytes(2, "little", signed=True)
            elif -0x80000000 <= v <= 0x7FFFFFFF:
                out.append(_INT4 << 2)
                out += v.to_bytes(4, "little", signed=True)
            elif -(1 << 63) <= v < 1 << 63:
                out.append(_INT8 << 2)
                out += v.to_bytes(8, "little", signed=True)
            else:  # a decimal of scale 0 (a double beyond 38 digits), as Spark parses the number's text
                digits = len(str(abs(v)))
                if digits > 38:
                    out += _DOUBLE_HEAD
                    out += struct.pack("<d", float(v))
                    return
                kind, size = (_DECIMAL4, 4) if digits <= 9 else (_DECIMAL8, 8) if digits <= 18 else (_DECIMAL16, 16)
                out.append(kind << 2)
                out.append(0)
                out += v.to_bytes(size, "little", signed=True)
        elif t is float:
            out += _DOUBLE_HEAD
            out += struct.pack("<d", v)
        elif v is None:
            out += _NULL_BYTES
        elif t is bool:
            out += _TRUE_BYTES if v else _FALSE_BYTES
        elif t is list:
            self.array(v)
        elif t is dict:
            self.object(v)
        elif t is bytes:
            out.append(_BINARY << 2)
            out += len(v).to_bytes(4, "little")
            out += v
        elif t is datetime.datetime:
            out.append(_TIMESTAMP << 2)
            out += ((v - _EPOCH) // _MICROSECOND).to_bytes(8, "little", signed=True)
        else:
            raise TypeError(f"a {t.__name__} in a free-form value: a MessagePack decode gives none")

    def array(self, items: list[Any]) -> None:
        out = self.out
        start = len(out)
        offsets = []
        for item in items:
            offsets.append(len(out) - start)
            self.append(item)
        size = len(out) - start
        n = len(items)
        large = n > 0xFF
        width = _width(size)
        head = bytearray([(large << 4) | ((width - 1) << 2) | _ARRAY])
        head += n.to_bytes(4 if large else 1, "little")
        for offset in offsets:
            head += offset.to_bytes(width, "little")
        head += size.to_bytes(width, "little")
        out[start:start] = head

    def object(self, fields: dict[str, Any]) -> None:
        out = self.out
        keys = self.keys
        start = len(out)
        entries = []
        for key, value in fields.items():
            index = keys.get(key)
            if index is None:
                index = keys[key] = len(keys)
            entries.append((key, index, len(out) - start))
            self.append(value)
        entries.sort(key=_java_order)
        size = len(out) - start
        n = len(entries)
        large = n > 0xFF
        id_width = _width(max((e[1] for e in entries), default=0))
        width = _width(size)
        head = bytearray([(large << 6) | ((id_width - 1) << 4) | ((width - 1) << 2) | _OBJECT])
        head += n.to_bytes(4 if large else 1, "little")
        for _, index, _ in entries:
            head += index.to_bytes(id_width, "little")
        for _, _, offset in entries:
            head += offset.to_bytes(width, "little")
        head += size.to_bytes(width, "little")
        out[start:start] = head

    def metadata(self) -> bytes:
        names = [key.encode("utf-8") for key in self.keys]
        total = sum(map(len, names))
        width = _width(max(total, len(names)))
        meta = bytearray([1 | ((width - 1) << 6)])
        meta += len(names).to_bytes(width, "little")
        at = 0
        for name in names:
            meta += at.to_bytes(width, "little")
            at += len(name)
        meta += at.to_bytes(width, "little")
        for name in names:
            meta += name
        return bytes(meta)


def _java_order(entry: tuple[str, int, int]) -> bytes:
    """An object field's place: its key as Java's ``String.compareTo`` orders it (by UTF-16 code unit)."""
    return entry[0].encode("utf-16-be", "surrogatepass")


def binary(value: Any) -> dict[str, bytes] | None:
    """A free-form value (as a MessagePack decode gives it) as a VARIANT's binary form, as Arrow carries it (None:
    SQL null, for a nil)."""
    if value is None:
        return None
    builder = _Builder()
    try:
        builder.append(value)
    except RecursionError:
        builder = _Builder()
        roomy(lambda: builder.append(value))
    return {"value": bytes(builder.out), "metadata": builder.metadata()}


def _keys(metadata: bytes) -> list[str]:
    """The keys a VARIANT's metadata holds, by id."""
    head = metadata[0]
    width = ((head >> 6) & 3) + 1
    n = int.from_bytes(metadata[1 : 1 + width], "little")
    offsets = [int.from_bytes(metadata[1 + width * (i + 1) : 1 + width * (i + 2)], "little") for i in range(n + 1)]
    base = 1 + width * (n + 2)
    return [metadata[base + offsets[i] : base + offsets[i + 1]].decode("utf-8") for i in range(n)]


_KNOWN_KEYS: dict[bytes, list[str]] = {}
"""The keys of small metadata already read (most values of a column share a few: a scalar's has none)."""


class _Reader:
    __slots__ = ("keys", "metadata", "value")

    def __init__(self, value: bytes, metadata: bytes) -> None:
        self.value = value
        self.metadata = metadata
        keys = _KNOWN_KEYS.get(metadata)
        if keys is None:
            keys = _keys(metadata)
            if len(metadata) <= 256 and len(_KNOWN_KEYS) < 1024:
                _KNOWN_KEYS[metadata] = keys
        self.keys = keys

    def read(self, pos: int) -> Any:
        v = self.value
        head = v[pos]
        basic, info = head & 3, head >> 2
        if basic == _SHORT_STR:
            return v[pos + 1 : pos + 1 + info].decode("utf-8")
        if basic == _OBJECT:
            width, id_width, large = (info & 3) + 1, ((info >> 2) & 3) + 1, (info >> 4) & 1
            count = 4 if large else 1
            n = int.from_bytes(v[pos + 1 : pos + 1 + count], "little")
            ids = pos + 1 + count
            offsets = ids + n * id_width
            data = offsets + (n + 1) * width
            result = {}
            for i in range(n):
                key = self.keys[int.from_bytes(v[ids + i * id_width : ids + (i + 1) * id_width], "little")]
                at = int.from_bytes(v[offsets + i * width : offsets + (i + 1) * width], "little")
                result[key] = self.read(data + at)
            return result
        if basic == _ARRAY:
            width, large = (info & 3) + 1, (info >> 2) & 1
            count = 4 if large else 1
            n = int.from_bytes(v[pos + 1 : pos + 1 + count], "little")
            offsets = pos + 1 + count
            data = offsets + (n + 1) * width
            return [
                self.read(data + int.from_bytes(v[offsets + i * width : offsets + (i + 1) * width], "little"))
                for i in range(n)
            ]
        return self.scalar(pos, info)

    def scalar(self, pos: int, kind: int) -> Any:
        v = self.value
        p = pos + 1
        if kind == _NULL:
            return None
        if kind == _TRUE or kind == _FALSE:
            return kind == _TRUE
        if _INT1 <= kind <= _INT8:
            size = 1 << (kind - _INT1)
            return int.from_bytes(v[p : p + size], "little", signed=True)
        if kind == _DOUBLE:
            return struct.unpack_from("<d", v, p)[0]
        if kind == _FLOAT:
            return struct.unpack_from("<f", v, p)[0]
        if _DECIMAL4 <= kind <= _DECIMAL16:
            scale = v[p]
            size = 4 << (kind - _DECIMAL4)
            unscaled = int.from_bytes(v[p + 1 : p + 1 + size], "little", signed=True)
            return unscaled if scale == 0 else float(decimal.Decimal(unscaled).scaleb(-scale))
        if kind == _BINARY or kind == _LONG_STR:
            n = int.from_bytes(v[p : p + 4], "little")
            data = v[p + 4 : p + 4 + n]
            return data if kind == _BINARY else data.decode("utf-8")
        if kind == _TIMESTAMP:
            micros = int.from_bytes(v[p : p + 8], "little", signed=True)
            try:
                return _EPOCH + micros * _MICROSECOND
            except OverflowError:  # beyond the years a datetime holds: encode refuses it, as the Java path does
                return Unwritable(_m.instant_out_of_range(micros=micros))
        text = VariantUtils.to_json(v[pos:], self.metadata, "UTC")  # a date, a timestamp without a zone, a UUID
        return text[1:-1]


def python_value(value: bytes, metadata: bytes) -> Any:
    """The Python value a VARIANT's binary form holds (see the note above :func:`binary`)."""
    reader = _Reader(value, metadata)
    try:
        return reader.read(0)
    except RecursionError:
        return roomy(lambda: reader.read(0))
