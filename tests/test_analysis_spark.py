"""What a Spark module lays out besides the Arrow conversions (streamcodecs_gen.analysis.spark): the PySpark type of
each field, the schemas' names and lines, and the decoded row's columns per message kind."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from test_analysis_arrow import field, list_of, map_of, owner, struct, wire

from streamcodecs_gen.analysis.spark import ENCODE_SKIPS, kind_column, pyspark, spark_plan
from streamcodecs_gen.model import Message, Origin, Protocol
from streamcodecs_gen.pipeline import load_protocols

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def protocols() -> dict[str, Protocol]:
    return {p.name: p for p in load_protocols(REPO / "protocol-definitions", REPO)}


def message(name: str, *fields: object, inline_only: bool = False) -> Message:
    return Message(name, "1.0", "", list(fields), Origin("p.yaml", 1), inline_only=inline_only)  # type: ignore[arg-type]


def test_pyspark_types_follow_the_type() -> None:
    inner = owner("TableKey", field("a", wire("string")))
    assert pyspark(wire("int64"), variant=False) == "LongType()"
    assert pyspark(list_of(map_of(wire("uuid"))), variant=False) == "ArrayType(MapType(StringType(), StringType()))"
    assert pyspark(list_of(struct(inner)), variant=False) == "ArrayType(TABLE_KEY_SCHEMA)"


def test_free_form_json_is_a_variant_only_where_the_family_says() -> None:
    assert pyspark(wire("any"), variant=True) == "VariantType()"
    assert pyspark(map_of(wire("any")), variant=True) == "MapType(StringType(), VariantType())"
    assert pyspark(wire("any"), variant=False) == "StringType()"  # the Kafka family holds it as its JSON text
    assert pyspark(wire("string"), variant=True) == "StringType()"


def test_a_kind_column_steps_aside_for_the_rows_own_columns() -> None:
    assert kind_column(message("ErrorMessage"), ("message", "error")) == "error_message"
    assert kind_column(message("Error"), ("message", "error")) == "error_msg"
    assert kind_column(message("Offset"), ("message", "error")) == "offset"
    assert kind_column(message("Offset"), ("message", "error", "offset")) == "offset_msg"


def test_the_plan_of_a_binary_protocol(protocols: dict[str, Protocol]) -> None:
    pravega = protocols["pravega"]
    plan = spark_plan(pravega, reserved=("message", "error", "offset"), variant=False)
    assert [s.owner.name for s in plan.schemas] == [s.name for s in [*pravega.structs, *pravega.messages]]
    assert [s.name for s in plan.schemas if s.message] == [f"{m.snake.upper()}_SCHEMA" for m in pravega.messages]
    event = next(s for s in plan.schemas if s.owner.name == "Event")
    assert event.doc.startswith("Event (message, inline only): ")
    assert [(f.py, f.type) for f in event.fields] == [("data", "BinaryType()")]
    assert [c.message.name for c in plan.inline] == ["Event"] and plan.inline_names == "Event"
    assert "Event" not in [c.message.name for c in plan.decoded]
    keep_alive = next(c for c in plan.decoded if c.message.name == "KeepAlive")
    assert (keep_alive.column, keep_alive.type) == ("keep_alive", "BooleanType()")  # no fields: true
    hello = next(c for c in plan.decoded if c.message.name == "Hello")
    assert (hello.column, hello.type) == ("hello", "HELLO_SCHEMA")


def test_the_plan_of_a_json_protocol(protocols: dict[str, Protocol]) -> None:
    storm = protocols["storm"]
    plan = spark_plan(storm, reserved=("message", "error"), variant=True)
    assert [c.message.name for c in plan.decoded] == [m.name for m in storm.messages] and plan.inline == []
    types = {f.type for s in plan.schemas for f in s.fields}
    assert "VariantType()" in types or "ArrayType(VariantType())" in types
    assert all(s.doc.startswith(f"{s.owner.name} (message): ") for s in plan.schemas if s.message)


@pytest.mark.parametrize("protocol", ["cloudevents", "kcl", "pravega", "storm"])
def test_what_encode_reads_is_one_fact_both_targets_render(protocol: str) -> None:
    """``encode`` reads DECODED but ENCODE_SKIPS: the Python function object and the Java UDF are given it from the
    generated module and the generated ``Sql`` class, each rendered from the analysis' one constant."""
    module = importlib.import_module(f"streamcodecs.spark.{protocol}")
    decoded = [f.name for f in module.DECODED.fields]
    assert ENCODE_SKIPS in decoded
    assert [f.name for f in module._FUNCTIONS.encoded_from.fields] == [n for n in decoded if n != ENCODE_SKIPS]
    java = REPO / "output" / "java" / "src" / "streamcodecs" / protocol
    sql = (java / "Sql.java").read_text(encoding="utf-8")
    assert f'ENCODED_FROM = RowShape.without(DECODED, "{ENCODE_SKIPS}");' in sql
    encode = (java / "Encode.java").read_text(encoding="utf-8")
    assert re.findall(r"new RowShape\([^;]*;", encode) == [f'new RowShape("{protocol} encode", Sql.ENCODED_FROM);']
