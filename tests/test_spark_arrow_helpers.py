"""The generic helpers of the Spark modules' Python path (``streamcodecs_gen/py_package/spark/_arrow.py``, and
``_gc.py``), at
their source: no Spark session, only Arrow arrays shaped as Spark hands them over (maps, lists of key-value
structs as Kafka headers are, timestamps in a time zone, slices of a batch)."""

from __future__ import annotations

import datetime
import gc
import warnings
from typing import Any

import pyarrow as pa
import pytest
from test_py_package import source_module

arrow = source_module("spark/_arrow.py")
collector = source_module("spark/_gc.py")

HEADERS = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))
MAP = pa.map_(pa.string(), pa.string())
ROWS: list[list[tuple[Any, Any]] | None] = [[("a", b"1"), ("a", None)], None, [], [("b", b"")], [("c", b"3")]]


@pytest.mark.parametrize("kind", ["headers", "map"])
def test_pairs_keeps_order_repeats_nulls_and_slices(kind: str) -> None:
    if kind == "headers":
        rows, array = (
            ROWS,
            pa.array([None if r is None else [{"key": k, "value": v} for k, v in r] for r in ROWS], HEADERS),
        )
    else:
        rows = [None if r is None else [(k, None if v is None else v.decode()) for k, v in r] for r in ROWS]
        array = pa.array(rows, MAP)
    assert arrow.pairs(array) == rows
    assert arrow.pairs(array.slice(1, 3)) == rows[1:4]  # a slice's offsets do not start at 0
    assert arrow.pairs(array.slice(5)) == []


@pytest.mark.parametrize("kind", [HEADERS, MAP])
def test_pairs_array_is_the_inverse_of_pairs(kind: pa.DataType) -> None:
    rows = ROWS if kind == HEADERS else [None if r is None else [(k, "x") for k, _ in r] for r in ROWS]
    built = arrow.pairs_array(rows, kind)
    assert built.type == kind and built.null_count == 1
    assert arrow.pairs(built) == rows
    assert arrow.pairs_array([], kind).to_pylist() == []


def test_instants_are_utc_whatever_the_zone() -> None:
    moment = datetime.datetime(2026, 1, 5, 9, 0, 0, 123456, tzinfo=datetime.UTC)
    early = datetime.datetime(1, 1, 1, tzinfo=datetime.UTC)
    for zone in ("UTC", "America/New_York", "+05:30"):
        array = pa.array([moment, None, early], pa.timestamp("us", tz="UTC")).cast(pa.timestamp("us", tz=zone))
        found = arrow.instants(array)
        assert found == [moment, None, early] and found[0].utcoffset() == datetime.timedelta(0)
    assert arrow.instants(pa.array([0], pa.timestamp("ms", tz="UTC")))[0] == datetime.datetime(
        1970, 1, 1, tzinfo=datetime.UTC
    )


def test_values_of_converts_times_and_maps_and_nothing_else() -> None:
    moment = datetime.datetime(2026, 1, 5, tzinfo=datetime.UTC)
    assert arrow.values_of(pa.array([moment], pa.timestamp("us", tz="Europe/Paris"))) == [moment]
    assert arrow.values_of(pa.array([[("k", "v")]], MAP)) == [[("k", "v")]]
    assert arrow.values_of(pa.array([b"x", None])) == [b"x", None]


def test_a_map_that_repeats_a_key_keeps_its_place_and_its_last_value() -> None:
    """As the JVM path's LinkedHashMap and Spark's LAST_WIN policy: no exception for the batch, no warning."""
    maps = pa.array([[("x", "1"), ("y", "2"), ("x", "3")], [("z", "4")], None], MAP)
    rows = pa.StructArray.from_arrays([maps], names=["conf"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert arrow._dicts(rows) == [{"conf": {"x": "3", "y": "2"}}, {"conf": {"z": "4"}}, {"conf": None}]
        assert list(arrow._dicts(rows)[0]["conf"]) == ["x", "y"]
    assert arrow._dicts(pa.array([[("k", "v")]], MAP)) == [{"k": "v"}]


def test_float32_values_read_as_their_shortest_decimal() -> None:
    values = [0.1, -0.0, 3.4028234663852886e38, 1e-45, 16777217.0, None, float("inf"), 1 / 3]
    found = arrow.values_of(pa.array(values, pa.float32()))
    assert found[:3] == [0.1, -0.0, 3.4028235e38] and str(found[1]) == "-0.0"
    assert found[3:] == [1e-45, 16777216.0, None, float("inf"), 0.33333334]
    assert arrow.values_of(pa.array([0.1], pa.float64())) == [0.1]


def test_problem_reads_as_the_jvm_paths_error_column() -> None:
    from streamcodecs._runtime.errors import DecodeError, EncodeError

    assert arrow.problem(DecodeError("must not be empty", field="id", offset=3)) == "`id`: must not be empty (offset 3)"
    assert arrow.problem(DecodeError("malformed JSON", offset=7)) == "malformed JSON (offset 7)"
    assert (
        arrow.problem(DecodeError("a structured-mode record needs a value")) == "a structured-mode record needs a value"
    )
    assert arrow.problem(EncodeError("must not be empty", field="id")) == "`id`: must not be empty"
    assert arrow.problem(EncodeError("unknown message X")) == "unknown message X"


def test_no_cycle_collection_pauses_and_restores() -> None:
    assert gc.isenabled()
    with pytest.raises(ValueError), collector.no_cycle_collection():
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with collector.no_cycle_collection():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()
