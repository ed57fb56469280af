"""The entry points the differential fuzzer compares: each Spark function of a protocol, as its Java UDF class and as
its Python path (the codec on Arrow batches, the very functions the Spark module's Arrow UDFs call), and the plain
form both answer in.

The plain form (what ``Differential.java`` reads and writes): structs as lists of their fields in schema order,
arrays as lists, binary as ``{"b": base64}``, a float as ``{"f": the hex of its IEEE 754 double}``, a timestamp as
``{"t": microseconds}``, a VARIANT as ``{"v": its JSON text}``, a map as ``{"m": [[key, value], ...]}``. Which
entry points a protocol has comes from its family and its Spark module (a protocol added by YAML alone gets them).
"""

from __future__ import annotations

import base64
import datetime
import functools
import importlib
import struct
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pyarrow as pa
from pyspark.sql.pandas.types import to_arrow_type
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    DataType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructType,
    TimestampType,
    VariantType,
)

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_DOUBLE = struct.Struct(">d")
_STRINGS = ArrayType(StringType())
_BINARIES = ArrayType(BinaryType())


# ---------------------------------------------------------------- the plain form


def plain(value: Any, data_type: DataType) -> Any:
    """A Python-path value (``to_pylist``'s, VARIANTs as their JSON text) in the plain form."""
    if value is None:
        return None
    if isinstance(data_type, StructType):
        items = list(value.values()) if isinstance(value, dict) else list(value)
        return [plain(v, f.dataType) for v, f in zip(items, data_type.fields, strict=True)]
    if isinstance(data_type, ArrayType):
        return [plain(v, data_type.elementType) for v in value]
    if isinstance(data_type, MapType):
        pairs = value.items() if isinstance(value, dict) else value
        return {"m": [[plain(k, data_type.keyType), plain(v, data_type.valueType)] for k, v in pairs]}
    if isinstance(data_type, BinaryType):
        return {"b": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(data_type, DoubleType | FloatType):
        return {"f": _DOUBLE.pack(float(value)).hex()}
    if isinstance(data_type, TimestampType):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.UTC)
        delta = value - _EPOCH
        return {"t": (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds}
    if isinstance(data_type, VariantType):
        return {"v": value}
    return value


def python_value(value: Any, data_type: DataType) -> Any:
    """A plain value as the Python path's Arrow input holds it (VARIANTs as JSON text, maps as pairs, times as
    microseconds since the epoch)."""
    if value is None:
        return None
    if isinstance(data_type, StructType):
        return {f.name: python_value(v, f.dataType) for v, f in zip(value, data_type.fields, strict=True)}
    if isinstance(data_type, ArrayType):
        return [python_value(v, data_type.elementType) for v in value]
    if isinstance(data_type, MapType):
        return [(python_value(k, data_type.keyType), python_value(v, data_type.valueType)) for k, v in value["m"]]
    if isinstance(data_type, BinaryType):
        return base64.b64decode(value["b"])
    if isinstance(data_type, DoubleType | FloatType):
        return _DOUBLE.unpack(bytes.fromhex(value["f"]))[0]
    if isinstance(data_type, TimestampType):
        return value["t"]  # microseconds, as Spark hands them over (a datetime cannot hold those before 0001)
    if isinstance(data_type, VariantType):
        return value["v"]
    return value


def textual(data_type: DataType) -> DataType:
    from streamcodecs.spark import _variant  # noqa: PLC0415 - the package under test is put on the path at run time

    return _variant.textual(data_type)


def arrow_of(values: list[Any], data_type: DataType) -> pa.Array:
    """Plain values as the Arrow array the Python path gets (VARIANTs as text, times in UTC)."""
    return pa.array([python_value(v, data_type) for v in values], type=_arrow_type(data_type))


@functools.cache
def _arrow_type(data_type: DataType) -> pa.DataType:
    return to_arrow_type(textual(data_type), timezone="UTC")


def answers(array: pa.Array, data_type: DataType) -> list[Any]:
    """A Python-path result in the plain form."""
    return [plain(v, data_type) for v in array.to_pylist()]


def binary(data: bytes | None) -> dict[str, str] | None:
    return None if data is None else {"b": base64.b64encode(data).decode("ascii")}


def unbinary(value: dict[str, str] | None) -> bytes | None:
    return None if value is None else base64.b64decode(value["b"])


# ---------------------------------------------------------------- entry points


@dataclass
class Entry:
    """One function: ``udf`` its Java class, taking ``args`` and returning ``returns`` (Spark types);
    ``java_args(case)`` a case's arguments to the UDF; ``python(cases)`` the Python path's answers to a batch of
    cases; ``kind`` what its cases are (the inputs module makes them)."""

    name: str
    kind: str
    udf: str
    args: list[DataType]
    returns: DataType
    java_args: Callable[[list[Any]], list[Any]]
    python: Callable[[list[list[Any]]], list[Any]]


@dataclass
class Protocol:
    """A protocol under test: its codec module, its Spark module, its family and its entry points."""

    name: str
    family: str
    codec: ModuleType
    spark: ModuleType
    entries: list[Entry]
    no_java: str | None = None


def _by_group(
    cases: list[list[Any]], key: Callable[[list[Any]], Any], run: Callable[[Any, list[int]], list[Any]]
) -> list[Any]:
    """Answers to ``cases`` in order, ``run(group key, indexes)`` answering each group of cases that share a key."""
    groups: dict[Any, list[int]] = {}
    for i, case in enumerate(cases):
        groups.setdefault(key(case), []).append(i)
    out: list[Any] = [None] * len(cases)
    for group, where in groups.items():
        for i, answer in zip(where, run(group, where), strict=True):
            out[i] = answer
    return out


def _json_or_binary(name: str, family: str, codec: ModuleType, spark: ModuleType) -> list[Entry]:
    functions = spark._FUNCTIONS
    decoded, encoded = spark.DECODED, spark.ENCODED
    directions = list(codec.DIRECTIONS)

    def decode_python(cases: list[list[Any]]) -> list[Any]:
        def run(direction: str | None, where: list[int]) -> list[Any]:
            frames = pa.array([unbinary(cases[i][0]) for i in where], pa.binary())
            if family == "binary":
                return answers(functions.decode_batch(frames, direction, False), decoded)
            return answers(functions.decode_batch(frames, direction), decoded)

        return _by_group(cases, lambda case: case[1], run)

    def decode_java(case: list[Any]) -> list[Any]:
        data, direction = case
        if family == "binary":
            return [data, direction, False]
        return [data, -1 if direction is None else directions.index(direction)]

    def encode_python(cases: list[list[Any]]) -> list[Any]:
        return answers(functions.encode_batch(arrow_of([c[0] for c in cases], decoded)), encoded)

    decode_args: list[DataType] = (
        [BinaryType(), StringType(), BooleanType()] if family == "binary" else [BinaryType(), IntegerType()]
    )
    entries = [
        Entry("decode", "frame", "Decode", decode_args, decoded, decode_java, decode_python),
        Entry("encode", "row", "Encode", [decoded], encoded, lambda case: [case[0]], encode_python),
    ]
    inline = getattr(spark, "_INLINE", None)
    if inline is not None:
        items = ArrayType(inline.schema)

        def split_python(cases: list[list[Any]]) -> list[Any]:
            values = pa.array([unbinary(c[0]) for c in cases], pa.binary())
            return answers(inline.split_batch(values, False), items)

        entries.append(
            Entry(
                "split_inline",
                "inline",
                "SplitInline",
                [BinaryType(), LongType(), BooleanType()],
                items,
                lambda case: [case[0], 0, False],
                split_python,
            )
        )
    return entries


def _kafka_entries(codec: ModuleType, spark: ModuleType) -> list[Entry]:
    from streamcodecs.spark import _kafka  # noqa: PLC0415 - the package under test is put on the path at run time

    functions = spark._FUNCTIONS
    event = functions.event
    decoded, encoded = spark.DECODED, spark.ENCODED
    from_kafka_row = functions.from_kafka_row
    to_kafka_row = _kafka._TO_KAFKA_ROW
    schema = event.schema
    names = schema.names
    time_at = names.index(event.time) if event.time is not None else None
    extra_at = names.index(event.extra) if event.extra is not None else None

    def headers(names_: list[str] | None, values: list[Any] | None) -> list[dict[str, Any]] | None:
        if names_ is None:
            return None
        return [{"key": k, "value": unbinary(v)} for k, v in zip(names_, values or [], strict=True)]

    def from_kafka_python(cases: list[list[Any]]) -> list[Any]:
        values = pa.array([unbinary(c[0]) for c in cases], pa.binary())
        header_type = to_arrow_type(_kafka.HEADERS)
        lists = pa.array([headers(c[1], c[2]) for c in cases], header_type)
        return answers(functions.from_kafka_batch(values, lists), from_kafka_row)

    def decode_python(cases: list[list[Any]]) -> list[Any]:
        values = pa.array([unbinary(c[0]) for c in cases], pa.binary())
        return answers(functions.decode_batch(values), decoded)

    def content_mode_python(cases: list[list[Any]]) -> list[Any]:
        header_type = to_arrow_type(_kafka.HEADERS)
        lists = pa.array([headers(c[0], c[1]) for c in cases], header_type)
        return functions.content_mode_batch(lists).to_pylist()  # type: ignore[no-any-return]

    def data_text_python(cases: list[list[Any]]) -> list[Any]:
        types = pa.array([c[0] for c in cases], pa.string())
        data = pa.array([unbinary(c[1]) for c in cases], pa.binary())
        return functions.data_text_batch(types, data).to_pylist()  # type: ignore[no-any-return]

    def for_java(row: list[Any] | None) -> list[Any]:
        """An event row as the JVM path hands it on: its time and undeclared attributes apart (``_for_java`` and
        ``_jvm_event_extras`` of the Spark module)."""
        if row is None:
            return [None, None, None, None]
        kept = list(row)
        micros = names_ = values = None
        if time_at is not None:
            micros = None if row[time_at] is None else row[time_at]["t"]
            kept[time_at] = None
        if extra_at is not None:
            if row[extra_at] is not None:
                names_ = [k for k, _ in row[extra_at]["m"]]
                values = [v for _, v in row[extra_at]["m"]]
            kept[extra_at] = None
        return [kept, micros, names_, values]

    def encode_java(case: list[Any]) -> list[Any]:
        row = case[0]
        if row is None:
            return [None, None, None, None]
        column = decoded.names.index(event.column)
        event_row, micros, names_, values = for_java(row[column])
        return [[*row[:column], event_row, *row[column + 1 :]], micros, names_, values]

    def encode_python(cases: list[list[Any]]) -> list[Any]:
        return answers(functions.encode_batch(arrow_of([c[0] for c in cases], decoded)), encoded)

    def to_kafka_python(mode: str) -> Callable[[list[list[Any]]], list[Any]]:
        def run(cases: list[list[Any]]) -> list[Any]:
            return answers(functions.to_kafka_batch(arrow_of([c[0] for c in cases], schema), mode), to_kafka_row)

        return run

    with_extras = [LongType(), _STRINGS, _STRINGS]
    return [
        Entry(
            "from_kafka",
            "record",
            "FromKafka",
            [BinaryType(), _STRINGS, _BINARIES],
            from_kafka_row,
            lambda case: case,
            from_kafka_python,
        ),
        Entry("decode", "document", "Decode", [BinaryType()], decoded, lambda case: case, decode_python),
        Entry(
            "content_mode",
            "headers",
            "ContentMode",
            [_STRINGS, _BINARIES],
            StringType(),
            lambda c: c,
            content_mode_python,
        ),
        Entry(
            "data_text", "data", "DataText", [StringType(), BinaryType()], StringType(), lambda c: c, data_text_python
        ),
        Entry("encode", "decoded_event", "Encode", [decoded, *with_extras], encoded, encode_java, encode_python),
        Entry(
            "to_kafka_binary",
            "event",
            "ToKafkaBinary",
            [schema, *with_extras],
            to_kafka_row,
            lambda case: for_java(case[0]),
            to_kafka_python("binary"),
        ),
        Entry(
            "to_kafka_structured",
            "event",
            "ToKafkaStructured",
            [schema, *with_extras],
            to_kafka_row,
            lambda case: for_java(case[0]),
            to_kafka_python("structured"),
        ),
    ]


def load(name: str) -> Protocol:
    """The protocol ``name`` of the package under test (``streamcodecs`` on the path) and its entry points."""
    codec = importlib.import_module(f"streamcodecs.{name}")
    spark = importlib.import_module(f"streamcodecs.spark.{name}")
    from streamcodecs.spark import _binary, _kafka  # noqa: PLC0415 - the package under test is put on the path

    functions = spark._FUNCTIONS
    family = (
        "kafka"
        if isinstance(functions, _kafka.KafkaFunctions)
        else "binary"
        if isinstance(functions, _binary.BinaryFunctions)
        else "json"
    )
    if family == "kafka":
        return Protocol(name, family, codec, spark, _kafka_entries(codec, spark), no_java=functions.no_java)
    return Protocol(name, family, codec, spark, _json_or_binary(name, family, codec, spark))


# Spark types of the plain values, for the inputs module's row mutations.
SCALARS = (StringType, LongType, IntegerType, BooleanType, BinaryType, DoubleType, FloatType, TimestampType)
