"""A struct given to an encoding Spark function is read by field name on both paths: built with its fields in
another order (as one does with ``F.struct``), it writes the same bytes; without one of its fields, the query's
analysis refuses it, naming the field.

The Python path reads Arrow structs by name; the Java UDFs are handed a struct's fields in the column's order and
read them by position, so before ``RowShape`` a reordered struct gave null data, another message's fields or an
exception in the task.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from pyspark.errors import AnalysisException
from pyspark.sql import Column
from pyspark.sql import functions as F
from streamcodecs import cloudevents, pravega, storm
from streamcodecs.spark import cloudevents as sce
from streamcodecs.spark import pravega as spv
from streamcodecs.spark import storm as sst

pytestmark = [pytest.mark.spark, pytest.mark.usefixtures("spark_path")]  # each test on both paths


def _reversed(column: Column, data_type: Any, depth: int) -> Column:
    """``column`` (of struct type ``data_type``) rebuilt with its fields in reverse order, ``depth`` levels down."""
    fields = list(reversed(data_type.fields))
    parts = []
    for f in fields:
        part = column[f.name]
        if depth > 1 and f.dataType.typeName() == "struct":
            part = F.when(part.isNotNull(), _reversed(part, f.dataType, depth - 1))
        parts.append(part.alias(f.name))
    return F.struct(*parts)


def _without(column: Column, data_type: Any, name: str) -> Column:
    return F.struct(*[column[f.name].alias(f.name) for f in data_type.fields if f.name != name])


CASES = {
    "storm": (
        sst,
        storm.encode(storm.Emit(values=[1, "a"], anchors=["x"], stream="s", need_task_ids=False)),
        "to_storm",
    ),
    "pravega": (
        spv,
        pravega.encode(
            pravega.SetupAppend(request_id=1, writer_id=uuid.UUID(int=7), segment="scope/stream/0", delegation_token="")
        ),
        None,
    ),
}


@pytest.mark.parametrize("protocol", sorted(CASES))
def test_a_decoded_row_in_another_field_order_encodes_the_same(spark: Any, protocol: str) -> None:
    module, frame, direction = CASES[protocol]
    df = spark.createDataFrame([(frame,)], "data binary").select(module.decode("data", direction=direction).alias("d"))
    decoded = df.schema["d"].dataType
    rows = df.select(
        module.encode("d").alias("as_is"),
        module.encode(_reversed(F.col("d"), decoded, 1)).alias("top"),
        module.encode(_reversed(F.col("d"), decoded, 3)).alias("deep"),
    ).first()
    assert rows is not None
    assert rows["as_is"]["data"] == frame and rows["as_is"]["error"] is None
    assert rows["top"] == rows["as_is"]
    assert rows["deep"] == rows["as_is"]


@pytest.mark.parametrize("protocol", sorted(CASES))
def test_a_decoded_row_without_a_field_is_refused_at_analysis(spark: Any, protocol: str) -> None:
    module, frame, direction = CASES[protocol]
    df = spark.createDataFrame([(frame,)], "data binary").select(module.decode("data", direction=direction).alias("d"))
    decoded = df.schema["d"].dataType
    missing = decoded.fields[-2].name  # a message's column (the last field is the error)
    with pytest.raises(AnalysisException, match=missing):
        df.select(module.encode(_without(F.col("d"), decoded, missing)).alias("e")).collect()


def test_an_event_in_another_field_order_goes_to_kafka_the_same(spark: Any) -> None:
    event = cloudevents.CloudEvent(id="1", source="/s", type="t", subject="x", data={"a": 1})
    record = cloudevents.to_kafka(event, "structured")
    kafka = "value binary, headers array<struct<key: string, value: binary>>"
    df = spark.createDataFrame([(record.value, [("content-type", record.headers[0][1])])], kafka)
    events = sce.from_kafka(df).select("cloud_event")
    schema = events.schema["cloud_event"].dataType
    reordered = events.select(_reversed(F.col("cloud_event"), schema, 1).alias("cloud_event"))
    for mode in ("binary", "structured"):
        want = [tuple(r) for r in sce.to_kafka(events, mode).collect()]
        assert [tuple(r) for r in sce.to_kafka(reordered, mode).collect()] == want
    message = F.lit("CloudEvent").alias("message")
    decoded = events.select(
        F.struct(message, F.col("cloud_event"), F.lit(None).cast("string").alias("error")).alias("d")
    )
    as_is = decoded.select(sce.encode("d").alias("e")).first()
    turned = decoded.select(sce.encode(_reversed(F.col("d"), decoded.schema["d"].dataType, 2)).alias("e")).first()
    assert as_is is not None and as_is["e"]["error"] is None and turned == as_is
    without = events.select(_without(F.col("cloud_event"), schema, "subject").alias("cloud_event"))
    with pytest.raises(AnalysisException, match="subject"):
        sce.to_kafka(without, "binary").collect()


def test_sql_reads_a_struct_by_name_and_names_a_missing_field(spark: Any) -> None:
    """SQL calls the Java UDFs with the struct as given (no Python function names its fields first): RowShape puts
    another order in DECODED's, and refuses a missing field in the catalog's words."""
    module, frame, direction = CASES["storm"]
    df = spark.createDataFrame([(frame,)], "data binary").select(module.decode("data", direction=direction).alias("d"))
    decoded = df.schema["d"].dataType
    df.select(_reversed(F.col("d"), decoded, 3).alias("d")).createOrReplaceTempView("field_order_reversed")
    row = spark.sql("SELECT storm_encode(d) AS e FROM field_order_reversed").first()
    assert row is not None and row["e"]["data"] == frame
    df.select(_without(F.col("d"), decoded, "sync").alias("d")).createOrReplaceTempView("field_order_without")
    with pytest.raises(Exception, match="the struct given has no field `sync`"):
        spark.sql("SELECT storm_encode(d) AS e FROM field_order_without").collect()
