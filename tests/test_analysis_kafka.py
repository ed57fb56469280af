"""The Kafka family's event model (streamcodecs_gen.analysis.kafka), on the shipped definition and on variations."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest

from streamcodecs_gen.analysis.kafka import KafkaEvent, attribute_wire, kafka_event, kafka_spark
from streamcodecs_gen.model import Protocol, WireRef
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.types import WIRE_TYPES

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def protocol() -> Protocol:
    (found,) = [p for p in load_protocols(REPO / "protocol-definitions", REPO) if p.family == "kafka"]
    return found


@pytest.fixture(scope="module")
def event(protocol: Protocol) -> KafkaEvent:
    return kafka_event(protocol)


def test_fields_split_into_payload_extra_and_attributes(protocol: Protocol, event: KafkaEvent) -> None:
    assert event.message is protocol.messages[0]
    assert event.payload.name == protocol.framing.payload.field
    assert event.extra is not None and event.extra.additional
    assert event.payload not in event.attributes and event.extra not in event.attributes
    assert len(event.attributes) == len(event.message.fields) - 2
    assert event.content_type is not None
    assert event.content_type.name == protocol.framing.payload.content_type_attribute
    assert event.content_type in event.attributes


def test_headers_prefix_names_unless_a_header_of_their_own(protocol: Protocol, event: KafkaEvent) -> None:
    binary = protocol.framing.binary
    assert binary.attribute_headers, "the definition names no header of its own: this test checks nothing"
    for f in event.attributes:
        expected = binary.attribute_headers.get(f.name, binary.attribute_prefix + f.name)
        assert event.header(f) == expected


def test_leading_run_is_the_longest_prefix_of_const_or_required_attributes(event: KafkaEvent) -> None:
    fields = event.message.fields
    n = len(event.leading)
    assert 0 < n < len(fields)
    assert event.leading == fields[:n]
    assert all(f.has_const or event.required(f) for f in event.leading)
    after = fields[n]
    assert not (after.has_const or event.required(after)) or after.additional or after is event.payload


def test_leading_run_stops_at_the_first_optional_attribute(protocol: Protocol, event: KafkaEvent) -> None:
    second = dataclasses.replace(event.leading[1], optional=True, has_const=False)
    message = copy.copy(protocol.messages[0])
    message.fields = [second if f is event.leading[1] else f for f in message.fields]
    changed = dataclasses.replace(protocol, messages=[message, *protocol.messages[1:]])
    assert kafka_event(changed).leading == event.leading[:1]


def test_wire_types_once_each_in_first_use_order(event: KafkaEvent) -> None:
    assert event.extra is not None
    used = [attribute_wire(f).name for f in [*event.attributes, event.extra]]
    assert event.wire_names == list(dict.fromkeys(used))
    assert "base64" not in event.wire_names  # so codec_wire_names must add it
    assert event.codec_wire_names == [*event.wire_names, "base64"]


def test_not_extensions(protocol: Protocol, event: KafkaEvent) -> None:
    json = protocol.framing.json_format
    assert event.not_extensions == sorted(set(event.not_extensions))
    assert {f.name for f in event.attributes} | {json.data_member, json.data_base64_member} <= set(event.not_extensions)
    assert event.extra is not None and event.extra.name not in event.not_extensions


def test_spark_text_where_spark_holds_another_python_type_as_text(event: KafkaEvent) -> None:
    assert event.extra is not None
    assert event.spark_text(event.extra)  # boolean, integer or string extensions: a map of canonical strings
    for f in event.attributes:  # CloudEvents' attributes are text, a time: Spark holds the codec's values
        assert isinstance(f.type, WireRef)
        assert event.spark_text(f) == (f.type.wire.spark == "string" and f.type.wire.py != "str"), f.name
    assert not any(event.spark_text(f) for f in event.attributes)


def test_the_spark_module_of_cloudevents(protocol: Protocol) -> None:
    spark = kafka_spark(protocol)
    assert (spark.column, spark.schema) == ("cloud_event", "CLOUD_EVENT_SCHEMA")
    assert [a.py for a in spark.attributes] == [f.py for f in protocol.messages[0].fields]
    by_py = {a.py: a for a in spark.attributes}
    assert {a.type for a in spark.attributes} == {
        "StringType()",
        "TimestampType()",
        "BinaryType()",
        by_py["extensions"].type,
    }
    assert by_py["extensions"].type == "MapType(StringType(), StringType())"
    assert (by_py["data"].to_spark, by_py["data"].to_codec) == ("data", "_kw.MISSING if data is None else data")
    assert (by_py["datacontenttype"].to_spark, by_py["datacontenttype"].to_codec) == ("content_type", "datacontenttype")
    assert by_py["extensions"].to_spark == (
        "[(k, _kw.attribute_value_to_text(v)) for k, v in event.extensions.items()] if event.extensions else []"
    )
    assert by_py["extensions"].to_codec == "dict(extensions or ())"
    assert (by_py["id"].to_spark, by_py["id"].to_codec) == ("event.id", "id")
    assert [a.from_text for a in spark.attributes] == [None] * len(spark.attributes)  # nothing held as text
    assert spark.key_mappers == [("partitionkey", "partitionkey", "utf-8")]
    assert spark.java and spark.time_field == "time"


def test_the_spark_module_holds_other_python_types_as_text(tmp_path: Path) -> None:
    from test_cloudevents_definition import ACME

    probe = ACME.replace(
        "      - {name: at, type: timestamp, optional: true}\n",
        "      - {name: at, type: timestamp, optional: true}\n      - {name: ref, type: uuid, optional: true}\n",
    )
    (tmp_path / "defs").mkdir()
    (tmp_path / "defs" / "acme.yaml").write_text(probe, encoding="utf-8")
    (acme,) = load_protocols(tmp_path / "defs", tmp_path)
    spark = kafka_spark(acme)
    by_py = {a.py: a for a in spark.attributes}
    assert by_py["ref"].to_spark == "None if event.ref is None else _kw.uuid_to_text(event.ref)"
    assert by_py["ref"].from_text == "_kw.uuid_from_text" and by_py["ref"].type == "StringType()"
    assert by_py["attempts"].type == "ShortType()" and by_py["attempts"].from_text is None
    assert spark.key_mappers == [("by_tenant", "tenant", "utf-8")]
    assert not spark.java and spark.time_field is None  # no map of undeclared attributes: no Java target
    assert spark.java_gap == "it declares no map of undeclared attributes (a map field with `additional: true`)"


_READ_CORPUS: list[object] = [
    "",
    "a",
    "A234-1234-1234",
    "temperature",
    "é",
    "\x00",
    "\x1f",
    "\x7f",
    "\u2028",
    "\ud800",
    "\U0010ffff",
    " ",
    "https://example.com/sensors/tn-1234567/alerts",
    "/sensors/1",
    "urn:uuid:1",
    "not a uri",
    "a b",
    "http://[::1",
    "application/json",
    "text/plain; charset=utf-8",
    "application/",
    "json",
    0,
    1,
    True,
    None,
    1.5,
    b"a",
    ["a"],
]


@pytest.mark.parametrize("name", sorted(n for n, w in WIRE_TYPES.items() if w.kafka_read_fast))
def test_read_fast_passes_only_what_the_runtime_keeps_as_it_is(name: str) -> None:
    """A value that passes a type's kafka_read_fast is taken as it is, with no call: the runtime's own converters
    (from a header's text and from a JSON member) must accept every such value and give it back unchanged."""
    from streamcodecs._runtime import kafkawire

    test = WIRE_TYPES[name].kafka_read_fast
    assert test is not None
    converters = [getattr(kafkawire, f"{name}_from_text"), getattr(kafkawire, f"{name}_from_json")]
    for value in _READ_CORPUS:  # the runtime remembers valid values: first let it meet every one
        for convert in converters:
            try:
                convert(value)
            except (kafkawire.Invalid, TypeError, AttributeError):
                pass
    passed = [v for v in _READ_CORPUS if eval(test.format(v="v"), {"_kw": kafkawire}, {"v": v})]  # noqa: S307
    assert passed, "the corpus exercises the fast test"
    for value in passed:
        for convert in converters:
            assert convert(value) is value, (convert.__name__, value)
    refused = [v for v in _READ_CORPUS if v not in passed and isinstance(v, str)]
    assert refused, "the corpus holds texts the fast test leaves to the converter"
