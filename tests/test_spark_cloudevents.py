"""CloudEvents on Spark: ``streamcodecs.spark.cloudevents`` against the Python codec, record by record.

Every conformance case (tests/fixtures/cloudevents/conformance.json), every Kafka record of the compatibility
vectors and a set of malformed records in both content modes go through Spark's ``from_kafka`` in one query; each
row must give what ``streamcodecs.cloudevents.from_kafka`` gives for the same record: the same content mode and the
same event, or a problem naming the same field. Decoded events then go back through Spark's ``to_kafka`` in both
modes and must give the bytes the codec's ``to_kafka`` gives (where Spark can know what the codec knows, see
below), and decode again to the same event.
"""

from __future__ import annotations

import importlib
import json
import re
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
    ("structured-array", STRUCTURED, b"[]", "array"),
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


def _field_of(problem: str) -> str | None:
    """The field a problem names: Spark's start with `field`:, the codec's end in (field name); None if neither."""
    found = re.fullmatch(r"`([^`]*)`: .*", problem, re.S) or re.fullmatch(r".* \(field ([^()]*)\)", problem, re.S)
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


@pytest.fixture(scope="module")
def decoded(spark: Any) -> dict[str, Any]:
    module = importlib.import_module("streamcodecs.spark.cloudevents")
    rows = [(key, value, "events", 0, i, None, 0, headers) for i, (_, key, headers, value) in enumerate(INPUTS)]
    frame = spark.createDataFrame(rows, module.KAFKA_SOURCE_SCHEMA)
    query = module.from_kafka(frame)
    out = sorted(query.collect(), key=lambda r: r["offset"])
    return {"module": module, "frame": frame, "query": query, "out": out}


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


def _meaning(event: ce.CloudEvent) -> dict[str, Any]:
    """What an event says, as Spark can hold it: data as the value it stands for, extensions as canonical strings
    (Spark's ``extensions`` is a string map, so an integer or boolean extension is written back as a string)."""
    extensions = {name: _extension_text(v) for name, v in event.extensions.items()}
    return {**event.to_dict(), "data": _same_data(event), "extensions": extensions}


@pytest.mark.parametrize("mode", ["binary", "structured"])
def test_to_kafka_writes_what_the_codec_writes(decoded: dict[str, Any], mode: str) -> None:
    """The codec's bytes, but where Spark cannot know what the codec knows: Spark holds all data as bytes and
    extensions as strings.

    In structured mode Spark writes data under a JSON content type (or none) as the ``data`` member when it parses,
    data under ``text/*`` as a string when it is UTF-8, other data as ``data_base64``, and extensions as JSON
    strings; the codec writes what it decoded: bytes (from a binary record) as ``data_base64``, a string as a
    string, an integer extension as a number. In binary mode Spark does not add the ``content-type`` the codec adds
    for JSON data without one. Either way both records decode to the same event (through the codec; in Spark, to
    the same row)."""
    module = decoded["module"]
    events = decoded["query"].where("error IS NULL").selectExpr("CAST(offset AS STRING) AS topic", "cloud_event")
    written = module.to_kafka(events, mode)
    out = sorted(written.collect(), key=lambda r: int(r["topic"]))
    records = decoded["frame"].sparkSession.createDataFrame(out, written.schema)
    again = sorted(module.from_kafka(records).collect(), key=lambda r: int(r["topic"]))
    assert len(out) == len(again) == len(INPUTS) - len(MALFORMED)
    exact = 0
    for row, back in zip(out, again, strict=True):
        label, _, headers, value = INPUTS[int(row["topic"])]
        event, _ = _codec(headers, value)
        assert event is not None
        record = ce.to_kafka(event, mode)
        spark_headers = [(k, None if v is None else bytes(v)) for k, v in row["headers"]]
        spark_value = None if row["value"] is None else bytes(row["value"])
        wanted = record.headers
        json_data = event.data is not ce.MISSING and not isinstance(event.data, bytes)
        if mode == "binary" and event.datacontenttype is None and json_data:
            # The codec writes the content type JSON data implies; Spark, holding bytes, writes the attributes it has.
            wanted = [h for h in wanted if h[0] != "content-type"]
        assert spark_headers == wanted, label
        python = ce.from_kafka(ce.KafkaRecord(None, spark_value, spark_headers))
        reference = ce.from_kafka(record)  # what the codec's own record decodes to
        expected = _meaning(reference)
        if wanted is not record.headers:
            expected["datacontenttype"] = None
        assert _meaning(python) == expected, label
        typed = any(not isinstance(v, str) for v in event.extensions.values())
        if (
            mode == "binary"
            or not typed
            and (event.data is ce.MISSING or not isinstance(event.data, bytes) and _texty(event))
        ):
            assert spark_value == record.value, label
            exact += 1
        assert back["error"] is None, (label, back["error"])
        assert back["content_mode"] == mode
        assert _spark_fields(back["cloud_event"], python) == _codec_fields(python), label
    assert exact == len(out) if mode == "binary" else exact > 0


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


def test_the_plans_run_no_python(decoded: dict[str, Any]) -> None:
    module = decoded["module"]
    decoding = plan_nodes(decoded["query"])
    events = decoded["query"].where("error IS NULL")
    encoding = plan_nodes(module.to_kafka(events, "binary")) + plan_nodes(module.to_kafka(events, "structured"))
    assert "Project" in decoding  # the check can see the plan
    assert not set(decoding + encoding) & set(PYTHON_NODES)


def test_decode_reads_the_json_event_format_as_the_codec_does(spark: Any) -> None:
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
