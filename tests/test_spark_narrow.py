"""The Python path's struct input, narrowed for the crossing (``spark/_narrow.py``): each array or map whose values
JSON holds exactly crosses as its JSON text and is read back in Python into exactly the Arrow values Spark would have
handed over, every other container crosses as Arrow. The encode functions' own tests (test_spark_json.py and the
others) hold the paths to each other on every vector; these hold the narrowing to the values it replaces."""

from __future__ import annotations

import base64
import math
import pickle
import warnings
from typing import Any

import pyarrow as pa
import pytest
from pyspark.sql import functions as F
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    DataType,
    DoubleType,
    MapType,
    StringType,
    StructField,
    StructType,
)
from streamcodecs.spark import _arrow
from streamcodecs.spark._narrow import narrowed, over_struct, widened
from streamcodecs.spark._shape import rebuilt

# Every leaf type that crosses as text, at its extremes, in arrays, maps and structs nested in each other; beside it a
# container of doubles, times and decimals, which crosses as Arrow.
_COLUMNS = {
    "texts": "array<string>",
    "numbers": "struct<b: array<tinyint>, s: array<smallint>, i: array<int>, l: array<bigint>>",
    "flags": "map<string, boolean>",
    "blobs": "map<string, array<binary>>",
    "deep": "array<map<string, struct<`class`: string, n: bigint, kids: array<struct<b: binary, t: string>>>>>",
    "free": "array<variant>",
    "inexact": "struct<d: array<double>, t: map<string, timestamp>, m: array<decimal(38, 18)>>",
    "plain": "struct<name: string, n: int>",
}
_ROWS = """
select
  array('', 'plain', '\\u0000\\u001f"\\\\/', 'é☃😀', null) as texts,
  named_struct('b', array(cast(-128 as tinyint), cast(127 as tinyint), null),
               's', array(cast(-32768 as smallint), cast(32767 as smallint)),
               'i', array(-2147483648, 2147483647, 0),
               'l', array(-9223372036854775808L, 9223372036854775807L)) as numbers,
  map('yes', true, 'no', false, 'unknown', cast(null as boolean)) as flags,
  map('every byte', array(unhex('{every}'), X'', null), 'none', cast(null as array<binary>)) as blobs,
  array(map('k', named_struct('class', 'c', 'n', 1L,
                              'kids', array(named_struct('b', X'00FF', 't', cast(null as string)), null))),
        map(), null) as deep,
  array(parse_json('{{"a": [1, 2.5, "x"]}}'), parse_json('null'), null) as free,
  named_struct('d', array(cast('NaN' as double), -0.0, 1e308),
               't', map('t', timestamp'2026-11-29 01:02:03.123456'),
               'm', array(cast('1.500000000000000000' as decimal(38, 18)))) as inexact,
  named_struct('name', 'n', 'n', 7) as plain
union all
select array() as texts, null as numbers, map() as flags, null as blobs, array() as deep, array() as free,
  null as inexact, null as plain
union all
select null, null, null, null, null, null, null, null
""".format(every="".join(f"{b:02x}" for b in range(256)))


def _schema() -> StructType:
    return StructType([StructField(name, DataType.fromDDL(ddl)) for name, ddl in _COLUMNS.items()])


def _crossed(spark: Any, *, variants_as_text: bool) -> tuple[list[Any], list[Any], DataType]:
    """What a Python UDF reads of the rows narrowed and widened, and what it reads of them as Spark hands them over
    without the narrowing (rebuilt by name, VARIANTs as their text or as themselves: the Python path's input before
    the narrowing), pickled out, beside the narrowed column's type."""
    shape = _schema()
    rows = spark.sql(_ROWS).select(F.struct(*_COLUMNS).alias("r"))
    column = narrowed(F.col("r"), shape, variants_as_text=variants_as_text)
    leaf = F.to_json if variants_as_text else (lambda v: v)
    plain = rebuilt(F.col("r"), shape, leaf, True)

    def read(batch: pa.Array) -> pa.Array:
        values = widened(batch, shape, variants_as_text=variants_as_text).to_pylist()
        return pa.array([pickle.dumps(v) for v in values], pa.binary())

    def read_plain(batch: pa.Array) -> pa.Array:
        return pa.array([pickle.dumps(v) for v in batch.to_pylist()], pa.binary())

    crossed = rows.select(
        _arrow.arrow_udf(read, BinaryType())(column).alias("p"),
        _arrow.arrow_udf(read_plain, BinaryType())(plain).alias("q"),
        column.alias("n"),
    )
    got = crossed.collect()
    return [pickle.loads(r["p"]) for r in got], [pickle.loads(r["q"]) for r in got], crossed.schema["n"].dataType


def _same(a: Any, b: Any) -> bool:
    """Equal, NaN equal to itself."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


@pytest.mark.spark
@pytest.mark.parametrize("variants_as_text", [True, False], ids=["variants-as-text", "variants-as-variants"])
def test_a_python_udf_reads_the_values_spark_would_hand_over(spark: Any, variants_as_text: bool) -> None:
    spark.conf.set("spark.sql.binaryOutputStyle", "HEX")  # to_json's binary is base64 whatever this says
    try:
        got, want, narrow = _crossed(spark, variants_as_text=variants_as_text)
    finally:
        spark.conf.unset("spark.sql.binaryOutputStyle")
    if not variants_as_text:  # a VARIANT crosses as its binary form either way: compare those apart
        got_free = [r.pop("free") for r in got]
        want_free = [r.pop("free") for r in want]
        assert got_free == want_free
    assert _same(got, want), (got, want)
    # and the narrowing took place where it should, and only there
    assert isinstance(narrow, StructType)
    as_text = {f.name for f in narrow.fields if isinstance(f.dataType, StringType)}
    exact = {"texts", "numbers", "flags", "blobs", "deep", "plain"}
    assert as_text == exact | ({"free"} if variants_as_text else set())
    inexact = narrow["inexact"].dataType
    assert isinstance(inexact, StructType)
    assert [type(f.dataType) for f in inexact.fields] == [ArrayType, MapType, ArrayType]


@pytest.mark.spark
def test_a_struct_of_other_types_crosses_as_it_is_and_the_plan_runs_one_udf(spark: Any) -> None:
    """Narrowing reads the texts back in the declared types; a struct given with other types (a bigint where an int
    belongs, which the codec must see to refuse in its words) crosses as it is. Which one runs is folded into the
    plan: the other UDF is not in it."""
    shape = StructType([StructField("xs", ArrayType(DataType.fromDDL("int"))), StructField("d", DoubleType())])

    def show(batch: pa.Array) -> pa.Array:
        return pa.array([repr(v) for v in batch.to_pylist()], pa.string())

    for ddl, value, udf in [
        ("array<int>", "array(1, null)", "narrowed_rows"),
        ("array<bigint>", "array(2147483648L, null)", "rows"),
    ]:
        frame = spark.sql(f"select named_struct('d', 1.5D, 'xs', cast({value} as {ddl})) as r")
        query = frame.select(over_struct(show, StringType(), F.col("r"), shape).alias("v"))
        plan = query._jdf.queryExecution().executedPlan().toString()
        ran = {name for name in ("narrowed_rows", "rows") if f"[{name}(" in plan}
        assert ran == {udf}, plan
        first = 1 if udf == "narrowed_rows" else 2147483648
        assert query.first()["v"] == repr({"xs": [first, None], "d": 1.5})


def test_a_map_repeating_a_key_reads_as_the_arrow_map_reads() -> None:
    """Spark makes no such map unless told to (``mapKeyDedupPolicy``), but an Arrow source can hold one: the key
    stays where it first stands, with its last value, as ``_arrow._dicts`` reads the same map handed over as Arrow."""
    shape = StructType([StructField("m", MapType(StringType(), BinaryType()))])  # every value exact: one text
    a, b = base64.b64encode(b"first").decode(), base64.b64encode(b"last").decode()
    narrowed_rows = pa.array([f'{{"m": {{"k": "{a}", "z": null, "k": "{b}"}}}}', '{"m": null}', None])
    as_arrow = pa.StructArray.from_arrays(
        [pa.array([[("k", b"first"), ("z", None), ("k", b"last")], None, None], pa.map_(pa.string(), pa.binary()))],
        names=["m"],
        mask=pa.array([False, False, True]),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no lossy conversion's warning escapes
        assert _arrow._dicts(widened(narrowed_rows, shape)) == _arrow._dicts(as_arrow)
    assert _arrow._dicts(widened(narrowed_rows, shape)) == [{"m": {"k": b"last", "z": None}}, {"m": None}, None]


def test_a_sliced_batch_with_null_rows_keeps_its_rows() -> None:
    shape = StructType([StructField("a", ArrayType(StringType())), StructField("d", DoubleType())])
    rows = pa.StructArray.from_arrays(
        [pa.array(['["x"]', '["y", null]', "[]", None]), pa.array([1.0, 2.0, 3.0, 4.0])],
        names=["a", "d"],
        mask=pa.array([False, True, False, False]),
    )
    assert widened(rows.slice(1), shape).to_pylist() == [None, {"a": [], "d": 3.0}, {"a": None, "d": 4.0}]
    assert widened(rows, shape).type == pa.struct([("a", pa.list_(pa.string())), ("d", pa.float64())])


def test_a_struct_without_a_container_crosses_as_it_is() -> None:
    shape = StructType([StructField("d", DoubleType()), StructField("s", StringType())])
    rows = pa.StructArray.from_arrays([pa.array([1.5]), pa.array(["[1]"])], names=["d", "s"])
    assert widened(rows, shape) is rows  # a string is never read as JSON
