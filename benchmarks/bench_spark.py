"""The Spark paths against what a PySpark user would write without streamcodecs, on the same rows.

Three groups, ``BENCH_SPARK_ROWS`` rows each (default 1,000,000), every call writing the decoded rows to Spark's
``noop`` sink so that every row is decoded and handed back to the JVM:

- KCL ``processRecords`` lines (``BENCH_SPARK_KCL_RECORDS`` records of 100 bytes each, default 4, real 56-digit
  sequence numbers): ``streamcodecs.spark.kcl.decode`` on the JVM path (the generated Java codec, a Java UDF) and
  on its Python fallback (``spark.streamcodecs.jvm=false``: the Python codec on Arrow batches) against a pickled
  row UDF doing ``json.loads`` and ``base64.b64decode`` and returning the same ``DECODED`` row. Issue target: at
  least 5x.
- Storm bolt tuples (``{"id","comp","stream","task","tuple"}`` then the ``end`` line, three values per tuple: a
  sentence, a count, a ratio): ``streamcodecs.spark.storm.decode`` on both paths against a pickled row UDF doing
  ``json.loads`` and returning the ``DECODED`` row with each value as its JSON text (a row UDF cannot build a
  VARIANT cheaply, so the baseline does a little less work than ours). Issue target: at least 5x.
- CloudEvents on Kafka records, half binary and half structured mode (six attributes and a ``traceparent``
  extension, as tracing adds to most records; a small JSON order as data): ``streamcodecs.spark.cloudevents.
  from_kafka`` on the JVM path (the Java codec as a Java UDF) and on its fallback (the Python codec in Arrow
  batches, ``spark.streamcodecs.jvm=false``) against a pickled row UDF that hands each record to the CloudEvents
  SDK 2.2.0 (``cloudevents.core.bindings.kafka.from_kafka_event``) and returns the attributes and data. Issue
  target: at least 10x. Then ``to_kafka`` in each mode, from event rows (the same events), on both paths against
  a pickled row UDF calling the SDK's ``to_binary_event``/``to_structured_event``. Issue target: at least 10x.

Each group times the scan alone (``scan only``: the rows read and written, nothing decoded), and a ceiling,
``native, no checks``: the fewest Spark expressions that extract the same values
(``from_json`` with the message schema; for CloudEvents, the attribute headers looked up and the structured values
read by ``from_json``), checking nothing. It is not a decoder (it accepts anything); it shows how far native Spark
can get at all against the row UDF on the machine at hand.

The Pravega Arrow decode has its own module (``bench_spark_pravega.py``). Rows are built once in the JVM (a range
joined with a broadcast table of distinct messages), so the input costs the same on both sides.

Run through the project's runner (``./dev bench spark``), or alone for a shorter report with its own timing:
``python benchmarks/bench_spark.py [--rows N] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "output" / "py"))
sys.path.insert(0, str(HERE))

from run import Case  # noqa: E402
from streamcodecs import cloudevents as ce  # noqa: E402
from streamcodecs import kcl  # noqa: E402

ROWS = int(os.environ.get("BENCH_SPARK_ROWS", "1000000"))
KCL_RECORDS = int(os.environ.get("BENCH_SPARK_KCL_RECORDS", "4"))
DISTINCT = 1000
OURS = "streamcodecs"
PY_FALLBACK = "streamcodecs Arrow fallback"
KCL_BASELINE = "row UDF json.loads"
STORM_BASELINE = "row UDF json.loads"
CE_BASELINE = "row UDF CloudEvents SDK"
CEILING = "native, no checks"
SCAN = "scan only"


def _session() -> Any:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    path = os.pathsep.join(p for p in (str(HERE.parent / "output" / "py"), os.environ.get("PYTHONPATH")) if p)
    os.environ["PYTHONPATH"] = path
    from pyspark.sql import SparkSession
    from streamcodecs.spark import configure

    session = (
        configure(SparkSession.builder)  # the jar: the JVM path of the Spark functions
        .master(os.environ.get("BENCH_SPARK_MASTER", "local[2]"))
        .appName("streamcodecs-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.executorEnv.PYTHONPATH", path)
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session


def _rows(spark: Any, table: Any, rows: int) -> Any:
    """``rows`` rows cycling through the distinct ones of ``table`` (column ``k`` numbers them)."""
    from pyspark.sql import functions as F

    keys = spark.range(rows).select((F.col("id") % DISTINCT).alias("k")).repartition(2)
    return keys.join(F.broadcast(table), "k").drop("k")


# ---------------------------------------------------------------- KCL


def _kcl_lines() -> list[bytes]:
    lines = []
    for i in range(DISTINCT):
        records = [
            kcl.Record(
                data=bytes([(i + j) % 256]) * 100,
                partition_key=f"key-{(i + j) % 17}",
                sequence_number=str(49590338271490256608559692538361571095921575989136588898 + i * 10 + j),
                approximate_arrival_timestamp=1767603600000 + i,
                sub_sequence_number=0,
            )
            for j in range(KCL_RECORDS)
        ]
        lines.append(kcl.encode(kcl.ProcessRecords(records=records, millis_behind_latest=i)))
    return lines


def _kcl_udf() -> Any:
    """The baseline: json.loads per row, base64 decoded, returned as the same DECODED row (a dict)."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import kcl as skcl

    def decode_line(line: bytes | None) -> dict[str, Any] | None:
        if line is None:
            return None
        try:
            value = json.loads(line)
            if value.get("action") != "processRecords":
                return {"message": None, "error": f"not processRecords: {value.get('action')!r}"}
            records = [
                {
                    "data": None if r["data"] is None else base64.b64decode(r["data"], validate=True),
                    "partition_key": r["partitionKey"],
                    "sequence_number": r["sequenceNumber"],
                    "approximate_arrival_timestamp": r.get("approximateArrivalTimestamp"),
                    "sub_sequence_number": r.get("subSequenceNumber"),
                    "action": "record",
                }
                for r in value["records"]
            ]
            row = {"records": records, "millis_behind_latest": value.get("millisBehindLatest")}
            return {"message": "ProcessRecords", "process_records": row, "error": None}
        except (ValueError, KeyError, TypeError) as exc:
            return {"message": None, "error": str(exc)}

    return F.udf(decode_line, skcl.DECODED, useArrow=False)


def kcl_cases(spark: Any, rows: int) -> list[Case]:
    from pyspark.sql import functions as F
    from streamcodecs.spark import kcl as skcl

    table = spark.createDataFrame(list(enumerate(_kcl_lines())), "k long, line binary")
    data = _rows(spark, table, rows)
    ours = data.select(skcl.decode("line", direction="to_child").alias("d"))
    with _native(spark):
        fallback = data.select(skcl.decode("line", direction="to_child").alias("d"))
    _on_jvm(ours, fallback)
    theirs = data.select(_kcl_udf()("line").alias("d"))
    _same(ours, theirs, "d.process_records")
    _same(fallback, theirs, "d.process_records")
    ceiling = data.select(F.from_json(F.col("line").cast("string"), _KCL_WIRE_SCHEMA).alias("d"))
    group = f"spark kcl decode {rows:,} lines of {KCL_RECORDS} records"
    return [
        Case(group, OURS, lambda: _run(ours), rows, (KCL_BASELINE, 5.0), "rows"),
        Case(group, PY_FALLBACK, lambda: _run(fallback), rows, None, "rows"),
        Case(group, KCL_BASELINE, lambda: _run(theirs), rows, None, "rows"),
        Case(group, CEILING, lambda: _run(ceiling), rows, (KCL_BASELINE, 5.0), "rows"),
        Case(group, SCAN, lambda: _run(data.select("line")), rows, (KCL_BASELINE, 5.0), "rows"),
    ]


_KCL_WIRE_SCHEMA = (
    "action string, millisBehindLatest long, records array<struct<data: binary, partitionKey: string, "
    "sequenceNumber: string, approximateArrivalTimestamp: long, subSequenceNumber: long>>"
)


# ---------------------------------------------------------------- Storm


_WORDS = "the cow jumped over the moon an apple a day keeps the doctor away four score and seven years ago".split()


def _storm_frames() -> list[bytes]:
    """Bolt tuples as ShellBolt writes them (HashMap key order, ``/`` escaped), then the end line."""
    frames = []
    for i in range(DISTINCT):
        sentence = " ".join(_WORDS[(i + j) % len(_WORDS)] for j in range(3 + i % 6))
        text = json.dumps(
            {
                "tuple": [sentence, i, 0.5 + i % 40],
                "task": 3 + i % 8,
                "id": str(-6955786537413359385 + i * 7919),
                "comp": "split-sentence",
                "stream": "default",
            },
            separators=(",", ":"),
        )
        frames.append(text.encode() + b"\nend\n")
    return frames


def _storm_udf() -> Any:
    """The baseline: json.loads per row, returned as the DECODED row (each tuple value as its JSON text)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import ArrayType, StringType, StructField, StructType
    from streamcodecs.spark import storm as sstorm

    bolt = StructType([*sstorm.BOLT_TUPLE_SCHEMA.fields[:-1], StructField("values", ArrayType(StringType()))])
    schema = StructType(
        [StructField("message", StringType()), StructField("bolt_tuple", bolt), StructField("error", StringType())]
    )

    def decode_frame(frame: bytes | None) -> dict[str, Any] | None:
        if frame is None:
            return None
        try:
            text = frame.rstrip(b"\r\n").removesuffix(b"\nend")
            value = json.loads(text)
            if not isinstance(value, dict) or "command" in value or not isinstance(value.get("task"), int):
                return {"message": None, "error": "not a bolt tuple"}
            row = {
                "id": value["id"],
                "comp": value["comp"],
                "stream": value["stream"],
                "task": value["task"],
                "values": [json.dumps(v) for v in value["tuple"]],
            }
            return {"message": "BoltTuple", "bolt_tuple": row, "error": None}
        except (ValueError, KeyError, TypeError) as exc:
            return {"message": None, "error": str(exc)}

    return F.udf(decode_frame, schema, useArrow=False)


def storm_cases(spark: Any, rows: int) -> list[Case]:
    from pyspark.sql import functions as F
    from streamcodecs.spark import storm as sstorm

    table = spark.createDataFrame(list(enumerate(_storm_frames())), "k long, frame binary")
    data = _rows(spark, table, rows)
    ours = data.select(sstorm.decode("frame", direction="to_component").alias("d"))
    with _native(spark):
        fallback = data.select(sstorm.decode("frame", direction="to_component").alias("d"))
    _on_jvm(ours, fallback)
    theirs = data.select(_storm_udf()("frame").alias("d"))
    as_json = F.to_json("d.bolt_tuple").alias("j")  # VARIANTs compare as their JSON
    _same(ours.select(as_json), fallback.select(as_json), "j")
    _same(ours.select(F.col("d.bolt_tuple.id").alias("id")), theirs.select(F.col("d.bolt_tuple.id").alias("id")), "id")
    text = F.substring_index(F.col("frame").cast("string"), "\nend", 1)
    ceiling = data.select(F.from_json(text, _STORM_WIRE_SCHEMA).alias("d"))
    group = f"spark storm decode {rows:,} bolt tuples"
    return [
        Case(group, OURS, lambda: _run(ours), rows, (STORM_BASELINE, 5.0), "rows"),
        Case(group, PY_FALLBACK, lambda: _run(fallback), rows, None, "rows"),
        Case(group, STORM_BASELINE, lambda: _run(theirs), rows, None, "rows"),
        Case(group, CEILING, lambda: _run(ceiling), rows, (STORM_BASELINE, 5.0), "rows"),
        Case(group, SCAN, lambda: _run(data.select("frame")), rows, (STORM_BASELINE, 5.0), "rows"),
    ]


_STORM_WIRE_SCHEMA = "id string, comp string, stream string, task int, tuple array<variant>"


# ---------------------------------------------------------------- CloudEvents


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
            extensions={
                "traceparent": TRACEPARENT.format(0x4BF92F3577B34DA6A3CE929D0E0E4736 + i, 0x00F067AA0BA902B7 + i)
            },
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


def ce_cases(spark: Any, rows: int) -> list[Case]:
    from pyspark.sql import functions as F
    from streamcodecs.spark import _jvm
    from streamcodecs.spark import cloudevents as sce

    assert _jvm.available(spark), "the session has no streamcodecs jar: nothing to measure on the JVM path"
    schema = "k long, " + ", ".join(f"{f.name} {f.dataType.simpleString()}" for f in sce.KAFKA_SOURCE_SCHEMA.fields)
    table = spark.createDataFrame(_ce_records(), schema)
    data = _rows(spark, table, rows)
    ours = sce.from_kafka(data)
    with _native(spark):
        fallback = sce.from_kafka(data)
    theirs = data.select("topic", "partition", "offset", _ce_udf()("key", "value", "headers").alias("event"))
    for frame in (ours, fallback):
        sample = frame.limit(DISTINCT).where("error IS NULL").count()
        assert sample == DISTINCT, sample  # every record is a valid event for streamcodecs...
    assert theirs.limit(DISTINCT).where("event.error IS NULL").count() == DISTINCT  # ... and for the SDK
    for frame in (ours, fallback):
        assert "BatchEvalPython" not in frame._jdf.queryExecution().executedPlan().toString()
    group = f"spark cloudevents from_kafka {rows:,} records"
    cases = [
        Case(group, OURS, lambda: _run(ours), rows, (CE_BASELINE, 10.0), "rows"),
        Case(group, PY_FALLBACK, lambda: _run(fallback), rows, None, "rows"),
        Case(group, CE_BASELINE, lambda: _run(theirs), rows, None, "rows"),
        Case(group, CEILING, lambda: _run(_ce_ceiling(data)), rows, None, "rows"),
        Case(group, SCAN, lambda: _run(data.select("value", "headers")), rows, None, "rows"),
    ]
    event_schema = f"k long, cloud_event {sce.CLOUD_EVENT_SCHEMA.simpleString()}"
    events = _rows(spark, spark.createDataFrame(_ce_event_rows(), event_schema), rows)
    for mode in sce.CONTENT_MODES:
        written = sce.to_kafka(events, mode)
        with _native(spark):
            written_fallback = sce.to_kafka(events, mode)
        sdk_written = events.select(_ce_sdk_writer(mode)("cloud_event").alias("record"))
        for frame in (written, written_fallback):
            assert frame.limit(DISTINCT).where("error IS NULL").count() == DISTINCT
        assert sdk_written.limit(DISTINCT).where("record.error IS NULL").count() == DISTINCT
        baseline = f"row UDF SDK to_{mode}_event"
        group = f"spark cloudevents to_kafka {mode} {rows:,} events"
        cases += [
            Case(group, OURS, lambda w=written: _run(w), rows, (baseline, 10.0), "rows"),
            Case(group, PY_FALLBACK, lambda w=written_fallback: _run(w), rows, None, "rows"),
            Case(group, baseline, lambda w=sdk_written: _run(w), rows, None, "rows"),
            Case(group, SCAN, lambda: _run(events.select(F.col("cloud_event"))), rows, None, "rows"),
        ]
    return cases


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


# ---------------------------------------------------------------- running


def _run(frame: Any) -> None:
    frame.write.format("noop").mode("overwrite").save()


@contextmanager
def _native(spark: Any) -> Iterator[None]:
    """Spark functions called inside build their fallback (``spark.streamcodecs.jvm=false``)."""
    spark.conf.set("spark.streamcodecs.jvm", "false")
    try:
        yield
    finally:
        spark.conf.set("spark.streamcodecs.jvm", "true")


def _on_jvm(ours: Any, fallback: Any) -> None:
    """``ours`` runs the Java UDF and ``fallback`` the Arrow UDF (so each case times what it says)."""
    assert "ArrowEvalPython" not in ours._jdf.queryExecution().executedPlan().toString()
    assert "ArrowEvalPython" in fallback._jdf.queryExecution().executedPlan().toString()


def _same(ours: Any, theirs: Any, column: str) -> None:
    """Both sides give the same values on a sample (so the comparison is of equal work)."""
    mine = [r[0] for r in ours.select(column).limit(50).collect()]
    other = [r[0] for r in theirs.select(column).limit(50).collect()]
    assert mine == other, (mine[:1], other[:1])


def cases() -> list[Case]:
    spark = _session()
    return [*kcl_cases(spark, ROWS), *storm_cases(spark, ROWS), *ce_cases(spark, ROWS)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=ROWS, help=f"rows per case (default {ROWS:,})")
    parser.add_argument("--repeats", type=int, default=2, help="timed runs per case after a warm-up (best counts)")
    parser.add_argument("groups", nargs="*", help="kcl, storm and/or cloudevents (default: all)")
    args = parser.parse_args(argv)
    spark = _session()
    chosen = args.groups or ["kcl", "storm", "cloudevents"]
    all_cases = [
        *(kcl_cases(spark, args.rows) if "kcl" in chosen else []),
        *(storm_cases(spark, args.rows) if "storm" in chosen else []),
        *(ce_cases(spark, args.rows) if "cloudevents" in chosen else []),
    ]
    seconds: dict[tuple[str, str], float] = {}
    for case in all_cases:
        case.fn()  # warm-up: JIT, Python workers
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            case.fn()
            times.append(time.perf_counter() - start)
        seconds[case.group, case.name] = min(times)
        print(
            f"{case.group:<52} {case.name:<26} {case.ops / min(times):>12,.0f} rows/s  "
            f"({', '.join(f'{t:.1f}s' for t in times)})",
            flush=True,
        )
    for case in all_cases:
        if case.target:
            other, minimum = case.target
            ratio = seconds[case.group, other] / seconds[case.group, case.name]
            verdict = "meets" if ratio >= minimum else "MISSES"
            print(f"{case.group}: {case.name} {ratio:.2f}x {other} (target {minimum:g}x: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
