"""A VARIANT's binary form built and read in Python (``_variant.binary``, ``_variant.python_value``), what the
Python path of a MessagePack framing sends across instead of JSON text: no Spark session. pyspark's own reader
(``VariantVal.toPython``) and builder (``VariantBuilder``, a port of Spark's Java one, for what JSON text can say)
are the references; the Spark tests (test_spark_storm_msgpack.py) hold it to the JVM path byte for byte."""

from __future__ import annotations

import datetime
import json
import math
from typing import Any

import pytest
from pyspark.sql.types import VariantVal
from pyspark.sql.variant_utils import VariantBuilder
from streamcodecs.spark import _variant

UTC = datetime.UTC
JSONABLE: list[Any] = [
    0,
    -1,
    127,
    128,
    -129,
    2**15,
    2**31,
    -(2**63),
    2**63 - 1,
    2**63,  # beyond a long: a decimal
    2**64 - 1,
    "",
    "x" * 63,
    "x" * 64,  # a long string
    "é☃😀",
    True,
    False,
    [],
    {},
    [None, [1, [2, [3]]], {"a": None}],
    {"b": 1, "a": 2, "é": 3, "😀": 4},
    list(range(300)),  # more than 255 items
    {f"k{i}": i for i in range(300)},
    {"deep": [{"x": "y" * 300}] * 100},  # offsets wider than a byte
    [{"shared": 1}, {"shared": 2, "other": 3}],  # a key in the metadata once
]
ODD: list[Any] = [
    b"",
    b"\x00\xff",
    1.5,
    -0.0,
    float("inf"),
    float("-inf"),
    datetime.datetime(2020, 9, 13, 12, 26, 40, 123457, tzinfo=UTC),
    datetime.datetime(1, 1, 1, tzinfo=UTC),
    datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    [b"x", {"t": datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)}],
]


@pytest.mark.parametrize("value", JSONABLE, ids=lambda v: repr(v)[:30])
def test_laid_out_as_sparks_builder_lays_out_json(value: Any) -> None:
    built = _variant.binary(value)
    assert built is not None
    assert (built["value"], built["metadata"]) == VariantBuilder().build(json.dumps(value))


@pytest.mark.parametrize("value", JSONABLE + ODD, ids=lambda v: repr(v)[:30])
def test_read_back_by_pyspark_and_by_python_value(value: Any) -> None:
    built = _variant.binary(value)
    assert built is not None
    assert VariantVal(built["value"], built["metadata"]).toPython() == value
    assert _variant.python_value(built["value"], built["metadata"]) == value


def test_keys_sorted_as_java_sorts_strings() -> None:
    """By UTF-16 code unit, as Spark's Java builder sorts an object's fields (pyspark's sorts by code point: they
    differ only between a key beyond U+FFFF and one from U+E000 up)."""
    built = _variant.binary({"\uffff": 1, "😀": 2})
    assert built is not None
    value = built["value"]
    assert value[2:4] == bytes([1, 0])  # field ids in order: "😀" (id 1) before "\uffff" (id 0)
    assert list(_variant.python_value(value, built["metadata"])) == ["😀", "\uffff"]


def test_nan_and_nil() -> None:
    assert _variant.binary(None) is None  # a nil: a SQL null, as the JVM path gives it
    built = _variant.binary([float("nan"), None])
    assert built is not None
    nan, nil = _variant.python_value(built["value"], built["metadata"])
    assert math.isnan(nan) and nil is None


def test_values_a_msgpack_decode_never_gives_are_refused() -> None:
    with pytest.raises(TypeError):
        _variant.binary({"s": {1, 2}})


def test_nesting_as_deep_as_the_codecs_limit() -> None:
    value: Any = None
    for _ in range(1000):
        value = [value]
    built = _variant.binary(value)
    assert built is not None
    again = _variant.binary(_variant.python_value(built["value"], built["metadata"]))  # (== would recurse too deep)
    assert again == built
    assert len(built["value"]) > 3 * 1000  # a header, a count and two offsets at least, a level


def test_types_a_msgpack_decode_never_gives_are_read_as_the_java_writer_reads_them() -> None:
    """A VARIANT built in Spark may hold what no MessagePack decode gives: a decimal with a fraction is a float, a
    date (or a timestamp without a zone, a UUID) the text of its JSON form."""
    no_keys = bytes([1, 0, 0])
    decimal8 = bytes([9 << 2, 2]) + (12345).to_bytes(8, "little", signed=True)  # 123.45
    assert _variant.python_value(decimal8, no_keys) == 123.45
    date = bytes([11 << 2]) + (19782).to_bytes(4, "little", signed=True)  # 2024-02-29
    assert _variant.python_value(date, no_keys) == "2024-02-29"
