"""CloudEvents on Spark: ``streamcodecs.spark.cloudevents`` against the Python codec, record by record.

Every conformance case (tests/fixtures/cloudevents/conformance.json), every Kafka record of the compatibility
vectors and a set of malformed records in both content modes go through Spark's ``from_kafka`` in one query; each
row must give what ``streamcodecs.cloudevents.from_kafka`` gives for the same record: the same content mode and the
same event, or a problem naming the same field. Decoded events then go back through Spark's ``to_kafka`` in both
modes and must give the bytes the codec's ``to_kafka`` gives for the same event (Spark holds data as bytes and
extensions as strings), and decode again to the same event.

Every test runs on both paths of the Spark module: the JVM path (the Java codec as Java UDFs, the default in
these tests' session) and the Python path (the fallback, ``spark.streamcodecs.jvm=false``: Arrow UDFs calling the
Python codec). Both give the codec's results and problems; only where a JSON parser words a problem (Jackson on
the JVM) may the reason differ, never the field it names.
"""

from __future__ import annotations

import datetime
import importlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from pyspark.sql import functions as F
from spark_checks import PYTHON_NODES, manifest_records, plan_nodes
from streamcodecs import cloudevents as ce
from test_cloudevents_conformance import CASES, record_of

pytestmark = pytest.mark.spark

STRUCTURED = [("content-type", b"application/cloudevents+json; charset=UTF-8")]
REQUIRED = [("ce_specversion", b"1.0"), ("ce_id", b"1"), ("ce_source", b"/s"), ("ce_type", b"t")]


def _json(**members: Any) -> bytes:
    return json.dumps({"specversion": "1.0", "id": "1", "source": "/s", "type": "t", **members}).encode()


# (name, headers, value, a word the problem names); each is refused by the codec too (checked below).
MALFORMED: list[tuple[str, list[tuple[str, bytes | None]] | None, bytes | None, str]] = [
    ("binary-no-headers", None, b"x", "specversion"),
    ("binary-no-id", [h for h in REQUIRED if h[0] != "ce_id"], b"x", "id"),
    ("binary-old-specversion", [("ce_specversion", b"0.3"), *REQUIRED[1:]], None, "specversion"),
    ("binary-bad-time", [*REQUIRED, ("ce_time", b"yesterday")], None, "time"),
    ("binary-empty-source", [*REQUIRED[:2], ("ce_source", b""), REQUIRED[3]], None, "source"),
    ("binary-id-not-utf8", [*REQUIRED[:1], ("ce_id", b"\xff"), *REQUIRED[2:]], None, "id"),
    ("binary-null-id", [*REQUIRED[:1], ("ce_id", None), *REQUIRED[2:]], None, "id"),
    ("binary-relative-dataschema", [*REQUIRED, ("ce_dataschema", b"schemas/1")], None, "dataschema"),
    ("binary-bad-media-type", [*REQUIRED, ("content-type", b"json")], b"{}", "datacontenttype"),
    ("binary-bad-extension-name", [*REQUIRED, ("ce_my-ext", b"1")], None, "my-ext"),
    ("binary-control-character", [*REQUIRED[:3], ("ce_type", b"a\x01b")], None, "type"),
    ("structured-not-json", STRUCTURED, b"{", "JSON"),
    ("structured-array", STRUCTURED, b"[]", "JSON object"),
    ("structured-null-value", STRUCTURED, None, "null"),
    ("structured-not-utf8", STRUCTURED, b'{"id": "\xff"}', "UTF-8"),
    ("structured-trailing-data", STRUCTURED, _json() + b" x", "JSON"),
    ("structured-no-type", STRUCTURED, json.dumps({"specversion": "1.0", "id": "1", "source": "/s"}).encode(), "type"),
    ("structured-id-a-number", STRUCTURED, _json(id=5), "id"),
    ("structured-both-data-members", STRUCTURED, _json(data=1, data_base64="AA=="), "data_base64"),
    ("structured-bad-base64", STRUCTURED, _json(data_base64="!!"), "data_base64"),
    ("structured-object-extension", STRUCTURED, _json(ext={"a": 1}), "ext"),
    ("structured-bad-member-name", STRUCTURED, _json(Ext=1), "Ext"),
    ("structured-bad-time", STRUCTURED, _json(time="2018-13-01T00:00:00Z"), "time"),
    ("structured-xml-format", [("content-type", b"application/cloudevents+xml")], b"<e/>", "xml"),
    ("structured-latin1", [("content-type", b"application/cloudevents+json; charset=latin1")], _json(), "charset"),
    ("structured-text-data-not-string", STRUCTURED, _json(datacontenttype="text/plain", data=[1]), "data"),
]


def _vector_record(record: dict[str, Any]) -> tuple[bytes | None, list[tuple[str, bytes | None]], bytes | None]:
    def raw(text: str | None) -> bytes | None:
        return None if text is None else bytes.fromhex(text)

    return raw(record["key"]), [(name, raw(value)) for name, value in record["headers"]], raw(record["value"])


def _inputs() -> list[tuple[str, bytes | None, list[tuple[str, bytes | None]] | None, bytes | None]]:
    found: list[tuple[str, bytes | None, list[tuple[str, bytes | None]] | None, bytes | None]] = []
    found += [(f"case {c['name']}", r.key, r.headers, r.value) for c in CASES for r in [record_of(c)]]
    found += [
        (f"vector {r['version']} {r['mode']} {r['variant']}", *_vector_record(r))
        for r in manifest_records("cloudevents")
    ]
    found += [(f"malformed {name}", None, headers, value) for name, headers, value, _ in MALFORMED]
    return found


INPUTS = _inputs()


def _codec(headers: list[tuple[str, bytes | None]] | None, value: bytes | None) -> tuple[Any, str | None]:
    record = ce.KafkaRecord(None, value, list(headers or []))
    try:
        return ce.from_kafka(record), None
    except ce.DecodeError as exc:
        return None, str(exc)


def _codec_error(headers: list[tuple[str, bytes | None]] | None, value: bytes | None) -> ce.DecodeError:
    try:
        ce.from_kafka(ce.KafkaRecord(None, value, list(headers or [])))
    except ce.DecodeError as exc:
        return exc
    raise AssertionError("the codec decodes it")


def _field_of(problem: str) -> str | None:
    """The field a problem names: Spark's start with `field`:, the codec's end in (field name); None if neither."""
    found = re.fullmatch(r"`([^`]*)`: .*", problem, re.S) or re.fullmatch(
        r".* \((?:offset \d+, )?field ([^()]*)\)", problem, re.S
    )
    return found.group(1) if found else None


def _extension_text(value: bool | int | str) -> str:
    """A decoded extension's value (a boolean, an integer or a string) in its canonical string form (what Spark's
    map holds)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _payload(event: ce.CloudEvent) -> bytes | Any:
    """The codec's data as Spark holds it: bytes, or for JSON data (structured mode) the parsed value."""
    data = event.data
    if data is ce.MISSING:
        return None
    if isinstance(data, bytes):
        return data
    if isinstance(data, str) and not _declares_json(event.datacontenttype):
        return data.encode("utf-8")
    return ("json", data)


def _declares_json(content_type: str | None) -> bool:
    if content_type is None:
        return True
    essence = content_type.split(";")[0].strip().lower()
    subtype = essence.rpartition("/")[2]
    return subtype == "json" or (subtype.endswith("+json") and len(subtype) > 5)


def _texty(event: ce.CloudEvent) -> bool:
    """Whether Spark writes the event's data in structured mode as JSON or a string (not base64)."""
    content = event.datacontenttype
    return _declares_json(content) or (content or "").split("/")[0].strip().lower() == "text"


def _codec_fields(event: ce.CloudEvent) -> dict[str, Any]:
    fields = event.to_dict()
    fields["datacontenttype"] = _implied(event)  # Spark makes the type JSON data implies explicit
    fields["time"] = None if event.time is None else event.time.timestamp()
    fields["extensions"] = {name: _extension_text(v) for name, v in event.extensions.items()}
    fields["data"] = _payload(event)
    return fields


def _spark_fields(row: Any, codec_event: ce.CloudEvent | None) -> dict[str, Any]:
    fields = row.asDict(recursive=True)
    fields["time"] = None if fields["time"] is None else fields["time"].timestamp()
    data = fields["data"]
    fields["data"] = None if data is None else bytes(data)
    if codec_event is not None and isinstance(_payload(codec_event), tuple) and data is not None:
        fields["data"] = ("json", json.loads(bytes(data)))
    return fields


@pytest.fixture(scope="module", params=["jvm", "python"])
def path(request: pytest.FixtureRequest, spark: Any) -> Iterator[str]:
    """The Spark module's path for the tests of this module that take it: the Java UDFs, or the Python codec in
    Arrow UDFs."""
    from streamcodecs.spark import _jvm

    spark.conf.set(_jvm.CONF, "true" if request.param == "jvm" else "false")
    try:
        yield request.param
    finally:
        spark.conf.set(_jvm.CONF, "true")


@pytest.fixture(scope="module")
def decoded(spark: Any, path: str) -> dict[str, Any]:
    module = importlib.import_module("streamcodecs.spark.cloudevents")
    rows = [(key, value, "events", 0, i, None, 0, headers) for i, (_, key, headers, value) in enumerate(INPUTS)]
    frame = spark.createDataFrame(rows, module.KAFKA_SOURCE_SCHEMA)
    query = module.from_kafka(frame)
    out = sorted(query.collect(), key=lambda r: r["offset"])
    return {"module": module, "frame": frame, "query": query, "out": out, "path": path}


def test_every_record_decodes_as_the_codec_decodes(decoded: dict[str, Any]) -> None:
    assert len(decoded["out"]) == len(INPUTS)
    good = 0
    for (label, _, headers, value), row in zip(INPUTS, decoded["out"], strict=True):
        event, problem = _codec(headers, value)
        assert row["content_mode"] == ce.content_mode(ce.KafkaRecord(None, value, list(headers or []))), label
        if event is None:
            assert row["message"] is None and row["cloud_event"] is None, (label, row)
            assert row["error"] is not None, label
            assert _field_of(row["error"]) == _field_of(problem), (
                label,
                row["error"],
                problem,
            )
            # the codec's own reason (on the JVM, Jackson's words where a JSON parser speaks)
            codec_error = _codec_error(headers, value)
            jackson = codec_error.reason.startswith(("malformed JSON", "JSON text is not UTF-8"))
            if decoded["path"] == "python" or not jackson:
                field = f"`{codec_error.field}`: " if codec_error.field else ""
                where = f" (offset {codec_error.offset})" if codec_error.offset is not None else ""
                assert row["error"] == field + codec_error.reason + where, label
            continue
        assert row["error"] is None, (label, row["error"])
        assert row["message"] == "CloudEvent", label
        assert _spark_fields(row["cloud_event"], event) == _codec_fields(event), label
        good += 1
    assert good == len(INPUTS) - len(MALFORMED)


def test_data_text_is_the_data_when_it_is_text(decoded: dict[str, Any]) -> None:
    for (label, _, headers, value), row in zip(INPUTS, decoded["out"], strict=True):
        event, _ = _codec(headers, value)
        if event is None:
            assert row["data_text"] is None
            continue
        data = row["cloud_event"]["data"]
        texty = _texty(event)
        try:
            utf8 = None if data is None else bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            utf8 = None
        assert row["data_text"] == (utf8 if texty else None), label


def test_every_malformed_record_is_refused_naming_the_problem(decoded: dict[str, Any]) -> None:
    by_label = {label: row for (label, *_), row in zip(INPUTS, decoded["out"], strict=True)}
    for name, headers, value, word in MALFORMED:
        assert _codec(headers, value)[1] is not None, name  # the codec refuses it too
        row = by_label[f"malformed {name}"]
        assert row["error"] is not None and word in row["error"], (name, row["error"])


def test_the_conformance_cases_give_the_expected_attributes(decoded: dict[str, Any]) -> None:
    for case, row in zip(CASES, decoded["out"], strict=False):
        assert row["content_mode"] == case["mode"], case["name"]
        event = row["cloud_event"].asDict()
        for name, expected in case["expected_attributes"].items():
            if name == "time":
                continue  # compared as an instant through the codec above
            got = event[name] if name in event else event["extensions"][name]
            assert got == expected, (case["name"], name)


def _same_data(event: ce.CloudEvent) -> Any:
    """An event's data as the value it stands for: JSON data parsed (bytes under a JSON content type too, when they
    parse), other data as bytes."""
    data = event.data
    if data is ce.MISSING:
        return ce.MISSING
    if _declares_json(event.datacontenttype) and isinstance(data, bytes):
        try:
            return json.loads(data)
        except ValueError:
            return data
    if isinstance(data, str) and not _declares_json(event.datacontenttype):
        return data.encode("utf-8")
    return data


def _implied(event: ce.CloudEvent) -> str | None:
    """The content type of an event, the one JSON data implies made explicit (what Spark's row holds)."""
    data = event.data
    if event.datacontenttype is None and data is not ce.MISSING and not isinstance(data, bytes):
        return "application/json"
    return event.datacontenttype


def _meaning(event: ce.CloudEvent) -> dict[str, Any]:
    """What an event says, as Spark can hold it: data as the value it stands for, extensions as canonical strings
    (Spark's ``extensions`` is a string map, so an integer or boolean extension is written back as a string), the
    content type JSON data implies made explicit."""
    extensions = {name: _extension_text(v) for name, v in event.extensions.items()}
    return {**event.to_dict(), "datacontenttype": _implied(event), "data": _same_data(event), "extensions": extensions}


def _event_of(row: Any, entries: list[Any]) -> ce.CloudEvent:
    """The codec's event for an event row of Spark: the same attributes, the data the bytes Spark holds, the
    extensions the strings Spark holds, in the order of its map (``entries``: a collected map's dict has another)."""
    fields = row.asDict(recursive=True)
    time, data = fields["time"], fields["data"]
    return ce.CloudEvent(
        **{
            **fields,
            "time": None if time is None else time.astimezone(datetime.UTC),  # naive, local: PySpark's way
            "extensions": {e["key"]: e["value"] for e in entries or ()},
            "data": ce.MISSING if data is None else bytes(data),
        }
    )


@pytest.mark.parametrize("mode", ["binary", "structured"])
def test_to_kafka_writes_what_the_codec_writes(decoded: dict[str, Any], mode: str) -> None:
    """Every conformance case and every record of the compatibility vectors (and the other good inputs), decoded by
    Spark, then written by Spark's ``to_kafka`` and by the codec's ``to_kafka`` for the same event (Spark's row: the
    data the bytes Spark holds, extensions strings): the same record, byte for byte, in both modes.

    And the record means what the codec's own record of the input's event means (through the codec; in Spark, the
    same row again): the same attributes, the same data as the value it stands for. Spark holds data as bytes, so
    text a structured record held as a string is written back as base64 (the codec, holding a str, writes a string),
    and JSON data without a content type gets the type it implies."""
    module = decoded["module"]
    events = decoded["query"].where("error IS NULL").selectExpr("CAST(offset AS STRING) AS topic", "cloud_event")
    entries = F.map_entries(F.col("cloud_event.extensions")).alias("entries")
    rows = {r["topic"]: (r["cloud_event"], r["entries"]) for r in events.select("*", entries).collect()}
    written = module.to_kafka(events, mode)
    out = sorted(written.collect(), key=lambda r: int(r["topic"]))
    records = decoded["frame"].sparkSession.createDataFrame(out, written.schema)
    again = sorted(module.from_kafka(records).collect(), key=lambda r: int(r["topic"]))
    assert len(out) == len(again) == len(INPUTS) - len(MALFORMED)
    labels = set()
    for row, back in zip(out, again, strict=True):
        label, _, headers, value = INPUTS[int(row["topic"])]
        labels.add(label.split()[0])
        assert row["error"] is None, (label, row["error"])
        record = ce.to_kafka(_event_of(*rows[row["topic"]]), mode)
        spark_headers = [(k, None if v is None else bytes(v)) for k, v in row["headers"]]
        spark_value = None if row["value"] is None else bytes(row["value"])
        assert (spark_headers, spark_value) == (record.headers, record.value), label
        event, _ = _codec(headers, value)
        assert event is not None
        python = ce.from_kafka(ce.KafkaRecord(None, spark_value, spark_headers))
        assert _meaning(python) == _meaning(ce.from_kafka(ce.to_kafka(event, mode))), label
        assert back["error"] is None, (label, back["error"])
        assert back["content_mode"] == mode
        assert _spark_fields(back["cloud_event"], python) == _codec_fields(python), label
    assert labels == {"case", "vector"}


# (content type, data): JSON data as the codec writes it in the JSON event format, or refuses it.
JSON_DATA = [
    ("application/json", b'{ "b" : 1e2,\n "a":[1, 2.50 ,"\\u00e9 \\"q\\" \xc3\xa9" ],"c":-0 }\r\n'),
    ("text/json", b'  "s  t" '),
    ("application/vnd.x+json; charset=utf-8", b'[1, {"z":1,"y":2}, null, true]'),
    ("APPLICATION/JSON", b"null"),
    ("application/json", b'"' + b'a\\"' * 20000 + b'"'),  # a long string of escapes
    ("text/plain", b"hi"),
    (None, b"{}"),
    ("application/octet-stream", b"\x00\xff"),
    *[
        ("application/json", bad)
        for bad in (b"", b"{", b'{"a":1} x', b"1}x", b"[1]]", b'1,"v":2', b"\xff", b"NaN", b"'a'", b"01", b'"a\tb"')
    ],
    ("application/json", b'{"k":"\\ud800"}'),
]


def test_to_kafka_writes_json_data_as_the_codec_does(spark: Any, path: str) -> None:
    """Bytes under a JSON content type: in the JSON event format, the JSON value, whitespace between tokens removed
    and the rest as written, or the row's problem naming `data` where the codec refuses them; binary mode writes the
    bytes whatever they are. A repeated member name is kept (as the codec keeps it), a number beyond a double
    (1e400) refused (as the codec refuses it)."""
    module = importlib.import_module("streamcodecs.spark.cloudevents")
    schema = "e struct<" + ",".join(f"`{f.name}`:{f.dataType.simpleString()}" for f in module.CLOUD_EVENT_SCHEMA) + ">"
    cases = [*JSON_DATA, ("application/json", b'{"a":1,"a":2}'), ("application/json", b"1e400")]
    rows = [(("1.0", "1", "/s", "t", ct, None, None, None, None, {}, data),) for ct, data in cases]
    frame = spark.createDataFrame(rows, schema)
    structured = module.to_kafka(frame, "structured", event="e").collect()
    binary = module.to_kafka(frame, "binary", event="e").collect()
    for (ct, data), row, raw in zip(cases, structured, binary, strict=True):
        e = ce.CloudEvent(id="1", source="/s", type="t", datacontenttype=ct, data=data)
        assert raw["error"] is None and bytes(raw["value"]) == ce.to_kafka(e).value == data
        try:
            wanted, problem = ce.to_kafka(e, "structured").value, None
        except ce.EncodeError as exc:
            wanted, problem = None, exc
        value = None if row["value"] is None else bytes(row["value"])
        assert value == wanted, (ct, data[:40])
        assert (row["error"] is None) == (problem is None), (ct, data[:40], row["error"])
        if problem is not None:
            assert problem.field == "data" and "`data`: bytes under the JSON content type" in row["error"]
    event = F.struct(F.lit("CloudEvent").alias("message"), F.col("e").alias("cloud_event"))
    refused = [r["e"] for r in frame.select(module.encode(event).alias("e")).collect() if r["e"]["error"] is not None]
    assert refused and all(r["data"] is None and "not one JSON value" in r["error"] for r in refused)
    with pytest.raises(Exception, match="not one JSON value"):
        frame.select(module.encode(event, on_error="FAILFAST")).collect()


def test_to_kafka_refuses_an_event_the_codec_refuses(spark: Any, decoded: dict[str, Any]) -> None:
    module = decoded["module"]
    frame = spark.createDataFrame(
        [(("1.0", "", "/s", "t", None, None, None, None, None, {}, None),)],
        "e struct<" + ",".join(f"`{f.name}`:{f.dataType.simpleString()}" for f in module.CLOUD_EVENT_SCHEMA) + ">",
    )
    with pytest.raises(ce.EncodeError):
        ce.to_kafka(ce.CloudEvent(id="", source="/s", type="t"))
    (row,) = module.to_kafka(frame, event="e").collect()  # by default the problem is a column
    assert (row["value"], row["headers"]) == (None, None)
    assert "`id`" in row["error"] and row["error"].startswith("cloudevents: cannot encode the event")
    with pytest.raises(Exception, match="id"):
        module.to_kafka(frame, event="e", on_error="FAILFAST").collect()
    row = F.struct(F.lit("CloudEvent").alias("message"), F.col("e").alias("cloud_event"))
    ((encoded,),) = frame.select(module.encode(row)).collect()  # encode too: the problem is a column
    assert encoded["data"] is None and encoded["error"].startswith("`id`: ")
    with pytest.raises(Exception, match="cloudevents: cannot encode: `id`"):
        frame.select(module.encode(row, on_error="FAILFAST")).collect()
    unknown = F.struct(F.lit("Bogus").alias("message"), F.col("e").alias("cloud_event"))
    assert frame.select(module.encode(unknown)["error"]).first()[0] == "unknown message Bogus"


def test_failfast_fails_with_the_records_problem_and_place(spark: Any, decoded: dict[str, Any]) -> None:
    module = decoded["module"]
    good = decoded["frame"].where(f"offset < {len(INPUTS) - len(MALFORMED)}")
    assert module.from_kafka(good, mode="FAILFAST").where("error IS NOT NULL").count() == 0
    with pytest.raises(Exception, match=r"(?s)specversion.*offset 4242") as failure:
        bad = spark.createDataFrame([(None, b"x", "t", 3, 4242, None, 0, None)], module.KAFKA_SOURCE_SCHEMA)
        module.from_kafka(good.unionByName(bad), mode="FAILFAST").collect()
    assert "cloudevents" in str(failure.value)


def test_the_plans_run_python_only_on_the_python_path(decoded: dict[str, Any]) -> None:
    """The JVM path runs no Python worker; the Python path runs the codec in Arrow batches (never a row UDF)."""
    module = decoded["module"]
    decoding = plan_nodes(decoded["query"])
    events = decoded["query"].where("error IS NULL")
    encoding = plan_nodes(module.to_kafka(events, "binary")) + plan_nodes(module.to_kafka(events, "structured"))
    assert "Project" in decoding  # the check can see the plan
    python = set(decoding + encoding) & set(PYTHON_NODES)
    assert python == (set() if decoded["path"] == "jvm" else {"ArrowEvalPython"}), python


def test_content_mode_and_data_text_as_the_codec_says(decoded: dict[str, Any]) -> None:
    """The two column functions on their own: every input's content mode as the codec tells it, and every decoded
    event's data as text where the codec's content type says it is text (the same as ``from_kafka``'s column)."""
    module, frame = decoded["module"], decoded["frame"]
    modes = frame.select("offset", module.content_mode("headers").alias("mode")).orderBy("offset").collect()
    for (label, _, headers, value), row in zip(INPUTS, modes, strict=True):
        assert row["mode"] == ce.content_mode(ce.KafkaRecord(None, value, list(headers or []))), label
    texts = decoded["query"].select("offset", "data_text", module.data_text("cloud_event").alias("again"))
    rows = texts.orderBy("offset").collect()
    assert len(rows) == len(INPUTS)
    assert [r["again"] for r in rows] == [r["data_text"] for r in rows]
    assert any(r["again"] is not None for r in rows)


def test_decode_reads_the_json_event_format_as_the_codec_does(spark: Any, path: str) -> None:
    module = importlib.import_module("streamcodecs.spark.cloudevents")
    values = [_vector_record(r)[2] for r in manifest_records("cloudevents") if r["mode"] == "structured"]
    values += [v for _, h, v, _ in MALFORMED if h == STRUCTURED]
    frame = spark.createDataFrame(list(enumerate(values)), "i int, value binary")
    out = frame.select("i", module.decode("value").alias("d")).orderBy("i").collect()
    for value, row in zip(values, out, strict=True):
        if value is None:
            assert row["d"] is None
            continue
        try:
            event, problem = ce.decode(value), None
        except ce.DecodeError as exc:
            event, problem = None, str(exc)
        assert (row["d"]["error"] is None) == (problem is None), value[:100]
        if problem is not None:
            assert _field_of(row["d"]["error"]) == _field_of(problem), value[:100]
        if event is not None:
            assert _spark_fields(row["d"]["cloud_event"], event) == _codec_fields(event)


def test_an_unknown_key_mapper_is_the_callers_mistake_in_the_codecs_words(decoded: dict[str, Any]) -> None:
    """A ValueError when the query is built, as the codec's ``to_kafka`` raises it: not bad data in a row."""
    with pytest.raises(ValueError) as spark:
        decoded["module"].to_kafka(decoded["query"], "binary", key_mapper="nope")
    with pytest.raises(ValueError) as codec:
        ce.to_kafka(ce.CloudEvent(id="1", source="urn:a", type="t"), key_mapper="nope")
    assert str(spark.value) == str(codec.value) == "unknown key mapper 'nope'; expected one of ['partitionkey']"
