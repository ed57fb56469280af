"""The Spark benchmark's CloudEvents groups (run through ``bench_spark.py``).

Kafka records, half binary and half structured mode (six attributes and a ``traceparent`` extension, as tracing
adds to most records; a small JSON order as data):

- ``from_kafka`` on the JVM path (the Java codec as a Java UDF) and on its fallback (the Python codec on Arrow
  batches, ``spark.streamcodecs.jvm=false``) against a pickled row UDF that hands each record to the CloudEvents SDK
  2.2.0 (``cloudevents.core.bindings.kafka.from_kafka_event``) and returns the attributes and data. Issue target: at
  least 10x. The ceiling, ``native, no checks``: the attribute headers looked up and the structured values read by
  ``from_json``, checking nothing;
- ``to_kafka`` in each mode, from event rows (the same events), on both paths against a pickled row UDF calling the
  SDK's ``to_binary_event``/``to_structured_event``. Issue target: at least 10x. The ceiling: the same records built
  with Spark's own expressions (the headers as an array of the present attributes; the JSON event format spliced
  from ``to_json`` of the attributes, of the extensions and the data as it is), checking nothing.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from run import Case
from spark_common import DISTINCT, compared, cycled, fallback_path, plan
from streamcodecs import cloudevents as ce

CE_BASELINE = "row UDF CloudEvents SDK"

TRACEPARENT = "00-{:032x}-{:016x}-01"
"""The W3C trace context of a record (what tracing adds to most records), as the ``traceparent`` extension."""
TRACE_ID, SPAN_ID = 0x4BF92F3577B34DA6A3CE929D0E0E4736, 0x00F067AA0BA902B7


def _ce_events() -> list[ce.CloudEvent]:
    start = datetime.datetime(2026, 1, 5, 9, 0, tzinfo=datetime.UTC)
    return [
        ce.CloudEvent(
            id=f"order-{i}",
            source=f"/shops/{i % 7}",
            type="com.example.order.created",
            time=start + datetime.timedelta(seconds=i),
            subject=f"sku-{i % 50}",
            datacontenttype="application/json",
            data={"order": i, "qty": 1 + i % 9, "price": 0.5 + i % 40},
            extensions={"traceparent": TRACEPARENT.format(TRACE_ID + i, SPAN_ID + i)},
        )
        for i in range(DISTINCT)
    ]


def _ce_records() -> list[tuple[Any, ...]]:
    start = datetime.datetime(2026, 1, 5, 9, 0, tzinfo=datetime.UTC)
    out = []
    for i, event in enumerate(_ce_events()):
        record = ce.to_kafka(event, ("binary", "structured")[i % 2], key=f"shop-{i % 7}")
        headers = [(k, v) for k, v in record.headers]
        out.append((i, record.key, record.value, "orders", i % 4, i, start, 0, headers))
    return out


def _ce_event_rows() -> list[tuple[Any, ...]]:
    """The same events as rows of ``CLOUD_EVENT_SCHEMA`` (data as the bytes Spark holds), for ``to_kafka``."""
    out = []
    for i, event in enumerate(_ce_events()):
        fields = event.to_dict()
        fields["data"] = ce.to_kafka(event).value  # the JSON data's bytes
        out.append((i, tuple(fields.values())))
    return out


def _ce_udf() -> Any:
    """The baseline: one CloudEvents SDK call per record (headers and value into a Python UDF)."""
    from cloudevents.core.bindings import kafka as sdk
    from pyspark.sql import functions as F

    schema = (
        "id string, source string, type string, specversion string, time timestamp, datacontenttype string, "
        "subject string, extensions map<string,string>, data binary, error string"
    )
    core = ("id", "source", "type", "specversion", "time", "datacontenttype", "subject")

    def decode_record(key: bytes | None, value: bytes | None, headers: list[Any] | None) -> dict[str, Any]:
        try:
            message = sdk.KafkaMessage(headers={h["key"]: h["value"] for h in headers or []}, key=key, value=value)
            event = sdk.from_kafka_event(message)
            attributes = event.get_attributes()
            data = event.get_data()
            if isinstance(data, str):
                data = data.encode()
            elif data is not None and not isinstance(data, bytes):
                data = json.dumps(data).encode()
            extensions = {k: str(v) for k, v in attributes.items() if k not in core and k != "data"}
            return {**{k: attributes.get(k) for k in core}, "extensions": extensions, "data": data, "error": None}
        except Exception as exc:  # the SDK raises several unrelated types
            return {"error": str(exc)}

    return F.udf(decode_record, schema, useArrow=False)


def _ce_sdk_writer(mode: str) -> Any:
    """The ``to_kafka`` baseline: one CloudEvents SDK call per event row (``to_binary_event`` or
    ``to_structured_event``), returning the record's key, value and headers."""
    from cloudevents.core.bindings import kafka as sdk
    from cloudevents.core.v1.event import CloudEvent as SdkEvent
    from pyspark.sql import functions as F

    schema = "key binary, value binary, headers array<struct<key:string,value:binary>>, error string"
    write = sdk.to_binary_event if mode == "binary" else sdk.to_structured_event
    declared = ("specversion", "id", "source", "type", "datacontenttype", "dataschema", "subject", "partitionkey")

    def encode_event(event: Any) -> dict[str, Any]:
        try:
            attributes = {name: event[name] for name in declared if event[name] is not None}
            if event["time"] is not None:
                attributes["time"] = event["time"].astimezone(datetime.UTC)
            attributes.update(event["extensions"] or {})
            data = event["data"]
            message = write(SdkEvent(attributes, None if data is None else bytes(data)))
            key = message.key.encode() if isinstance(message.key, str) else message.key
            headers = [{"key": k, "value": v} for k, v in message.headers.items()]
            return {"key": key, "value": message.value, "headers": headers, "error": None}
        except Exception as exc:  # the SDK raises several unrelated types
            return {"error": str(exc)}

    return F.udf(encode_event, schema, useArrow=False)


def cases(spark: Any, rows: int) -> list[Case]:
    from pyspark.sql import functions as F
    from streamcodecs.spark import _jvm
    from streamcodecs.spark import cloudevents as sce

    assert _jvm.available(spark), "the session has no streamcodecs jar: nothing to measure on the JVM path"
    schema = "k long, " + ", ".join(f"{f.name} {f.dataType.simpleString()}" for f in sce.KAFKA_SOURCE_SCHEMA.fields)
    table = spark.createDataFrame(_ce_records(), schema)
    data = cycled(spark, table, rows)
    ours = sce.from_kafka(data)
    with fallback_path(spark):
        fallback = sce.from_kafka(data)
    theirs = data.select("topic", "partition", "offset", _ce_udf()("key", "value", "headers").alias("event"))
    sample = min(rows, DISTINCT)
    for frame in (ours, fallback):
        assert frame.limit(sample).where("error IS NULL").count() == sample  # every record is valid for us...
        assert "BatchEvalPython" not in plan(frame)
    assert theirs.limit(sample).where("event.error IS NULL").count() == sample  # ... and for the SDK
    group = f"spark cloudevents from_kafka {rows:,} records"
    cases = compared(
        group,
        rows,
        CE_BASELINE,
        10.0,
        ours=ours,
        fallback=fallback,
        theirs=theirs,
        native=_ce_ceiling(data),
        scan=data.select("value", "headers"),
    )
    event_schema = f"k long, cloud_event {sce.CLOUD_EVENT_SCHEMA.simpleString()}"
    events = cycled(spark, spark.createDataFrame(_ce_event_rows(), event_schema), rows)
    events_scan = events.select(F.col("cloud_event"))
    for mode in sce.CONTENT_MODES:
        written = sce.to_kafka(events, mode)
        with fallback_path(spark):
            written_fallback = sce.to_kafka(events, mode)
        sdk_written = events.select(_ce_sdk_writer(mode)("cloud_event").alias("record"))
        native = _to_kafka_native(events, mode)
        for frame in (written, written_fallback):
            assert frame.limit(sample).where("error IS NULL").count() == sample
        assert sdk_written.limit(sample).where("record.error IS NULL").count() == sample
        record = ["key", "value", "headers"]
        assert native.limit(sample).collect() == written.select(*record).limit(sample).collect(), mode
        baseline = f"row UDF SDK to_{mode}_event"
        group = f"spark cloudevents to_kafka {mode} {rows:,} events"
        cases += compared(
            group,
            rows,
            baseline,
            10.0,
            ours=written,
            fallback=written_fallback,
            theirs=sdk_written,
            native=native,
            scan=events_scan,
        )
    return cases


def _to_kafka_native(events: Any, mode: str) -> Any:
    """``to_kafka``'s records with the fewest Spark expressions and no checks: in binary mode the present attributes
    as ``ce_`` headers (``content-type`` for the data's type; the extensions after them) and the data as the value;
    in structured mode the JSON event format spliced from ``to_json`` of the attributes, ``to_json`` of the
    extensions and the data's own JSON text, with the format's ``content-type`` header. The time is written in UTC
    as RFC 3339 (microseconds when there are any), as the codec writes it."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import cloudevents as sce

    e = F.col("cloud_event")
    seconds = F.date_format(F.to_utc_timestamp(e["time"], F.current_timezone()), "yyyy-MM-dd'T'HH:mm:ss")
    micros = F.unix_micros(e["time"]) % 1_000_000
    fraction = F.when(micros != 0, F.concat(F.lit("."), F.lpad(micros.cast("string"), 6, "0"))).otherwise("")
    time = F.concat(seconds, fraction, F.lit("Z"))
    names = [name for name in sce.CLOUD_EVENT_SCHEMA.fieldNames() if name not in ("extensions", "data")]
    attributes = [(name, time if name == "time" else e[name]) for name in names]
    no_key = F.lit(None).cast("binary").alias("key")
    if mode == "binary":
        pairs = [
            F.struct(
                F.lit("content-type" if name == "datacontenttype" else "ce_" + name).alias("key"),
                F.encode(value, "UTF-8").alias("value"),
            )
            for name, value in attributes
        ]
        present = F.filter(F.array(*pairs), lambda h: h["value"].isNotNull())
        extensions = F.transform(
            F.map_entries(e["extensions"]),
            lambda x: F.struct(
                F.concat(F.lit("ce_"), x["key"]).alias("key"), F.encode(x["value"], "UTF-8").alias("value")
            ),
        )
        return events.select(no_key, e["data"].alias("value"), F.concat(present, extensions).alias("headers"))
    document = F.to_json(F.struct(*[value.alias(name) for name, value in attributes]))  # nulls left out
    members = F.to_json(e["extensions"])
    text = F.concat_ws(
        "",
        F.substring(document, F.lit(1), F.length(document) - 1),  # without its closing brace
        F.when(
            F.size(e["extensions"]) > 0, F.concat(F.lit(","), F.substring(members, F.lit(2), F.length(members) - 2))
        ),
        F.when(e["data"].isNotNull(), F.concat(F.lit(',"data":'), F.decode(e["data"], "UTF-8"))),
        F.lit("}"),
    )
    ((name, value),) = ce.to_kafka(_ce_events()[0], "structured").headers  # the format's content-type header
    header = F.struct(F.lit(name).alias("key"), F.lit(value).alias("value"))
    return events.select(no_key, F.encode(text, "UTF-8").alias("value"), F.array(header).alias("headers"))


_CE_ATTRIBUTES = ("specversion", "id", "source", "type", "time", "subject", "traceparent")


def _ce_ceiling(data: Any) -> Any:
    """The same values with the fewest expressions and no checks: the last header of each attribute in binary
    mode, ``from_json`` of the value in structured mode (data kept as JSON text)."""
    from pyspark.sql import functions as F

    names, values = F.reverse(F.col("headers.key")), F.reverse(F.col("headers.value"))

    def header(name: str) -> Any:
        position = F.array_position(names, F.lit(name)).cast("int")
        return F.when(position > 0, F.element_at(values, position).cast("string"))

    content = header("content-type")
    structured = F.lower(F.left(content, F.lit(23))) == "application/cloudevents"
    fields = ", ".join(f"{name} string" for name in (*_CE_ATTRIBUTES, "datacontenttype", "data"))
    document = F.from_json(F.col("value").cast("string"), fields)
    binary = {name: header("ce_" + name) for name in _CE_ATTRIBUTES}
    binary["datacontenttype"] = content
    binary["data"] = F.col("value")
    event = []
    for name, column in binary.items():
        chosen = F.when(structured, F.encode(document[name], "UTF-8") if name == "data" else document[name])
        chosen = chosen.otherwise(column)
        event.append((F.to_timestamp(chosen) if name == "time" else chosen).alias(name))
    return data.select("topic", "partition", "offset", F.struct(*event).alias("event"))
