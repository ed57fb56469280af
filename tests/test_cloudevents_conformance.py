"""The CloudEvents conformance suite's Kafka scenarios and the JSON event format's examples, as fixtures.

tests/fixtures/cloudevents/conformance.json holds 26 records (sources in each case's ``comment``: cloudevents/
conformance@7a8ee0a features/kafka-protocol-binding.feature, yaml/v1.yaml, yaml/v1.0/v1_minimum.yaml, and the spec's
json-format.md examples).  Each is decoded with :func:`from_kafka` and checked against the fixture's expected mode,
attributes (in canonical string form) and data; then re-encoded in both modes and decoded again.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from streamcodecs import cloudevents as ce

CASES = json.loads(
    (Path(__file__).resolve().parent / "fixtures" / "cloudevents" / "conformance.json").read_text(encoding="utf-8")
)


def record_of(case: dict[str, Any]) -> ce.KafkaRecord:
    value = case["value"]
    if value is not None:
        value = base64.b64decode(value) if case["value_encoding"] == "base64" else value.encode("utf-8")
    key = case["key"].encode("utf-8") if case["key"] is not None else None
    return ce.KafkaRecord(key, value, [(name, text.encode("utf-8")) for name, text in case["headers"]])


def canonical_attributes(event: ce.CloudEvent) -> dict[str, str]:
    """Every attribute as its canonical string: the headers of the event in binary mode (the written content
    type excepted when it was implied by JSON data)."""
    headers = dict(ce.to_kafka(ce.CloudEvent(**{**event.to_dict(), "data": ce.MISSING})).headers)
    attributes = {name.removeprefix("ce_"): value.decode() for name, value in headers.items() if value is not None}
    if "content-type" in attributes:
        attributes["datacontenttype"] = attributes.pop("content-type")
    return attributes


def test_the_fixture_has_every_case() -> None:
    assert len(CASES) == 26
    assert {c["mode"] for c in CASES} == {"binary", "structured"}
    assert len({c["name"] for c in CASES}) == 26


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_conformance_case(case: dict[str, Any]) -> None:
    record = record_of(case)
    assert ce.content_mode(record) == case["mode"]
    event = ce.from_kafka(record)
    assert canonical_attributes(event) == case["expected_attributes"]
    assert event.partitionkey is None  # no key became an attribute
    expected = case["expected_data"]
    if expected is None:
        assert event.data is ce.MISSING
    else:
        if "text" in expected:
            if case["mode"] == "binary":
                assert event.data == expected["text"].encode("utf-8")
            else:
                assert event.data == expected["text"]
        if "json" in expected:
            assert event.json_data() == expected["json"]
        if "base64" in expected:
            assert event.data == base64.b64decode(expected["base64"])
    # Both modes carry the event unchanged (binary-mode data comes back as the bytes it was written as), but for
    # bytes under a JSON content type: the JSON event format writes, and so reads back, the JSON value they hold.
    assert ce.from_kafka(ce.to_kafka(event, case["mode"])) == event
    structured = ce.from_kafka(ce.to_kafka(event, "structured"))
    if isinstance(event.data, bytes) and "json" in expected:
        assert structured == ce.CloudEvent(**{**event.to_dict(), "data": expected["json"]})
        again = ce.to_kafka(structured).value  # and back in binary mode: the same JSON value
        assert again is not None and json.loads(again) == json.loads(event.data)
        if event.data == json.dumps(expected["json"], separators=(",", ":"), ensure_ascii=False).encode():
            assert again == event.data  # compact JSON: the same bytes
    else:
        assert structured == event
    in_binary = ce.from_kafka(ce.to_kafka(event, "binary"))
    attributes = dict(case["expected_attributes"])
    if "datacontenttype" not in attributes and event.data is not ce.MISSING and not isinstance(event.data, bytes):
        attributes["datacontenttype"] = "application/json"  # JSON data without a type says so in binary mode
    assert canonical_attributes(in_binary) == attributes
    if event.data is ce.MISSING or isinstance(event.data, bytes):
        assert in_binary.data == event.data
    elif "json" in expected:
        assert in_binary.json_data() == event.data  # a JSON value comes back as its JSON text
    else:
        assert in_binary.data == event.data.encode("utf-8")  # text under a non-JSON type: its UTF-8/ASCII bytes


@pytest.mark.parametrize("case", [c for c in CASES if c["mode"] == "binary"], ids=lambda c: c["name"])
def test_binary_cases_reencode_byte_for_byte(case: dict[str, Any]) -> None:
    """Binary mode keeps the value's bytes and writes headers in a fixed order: the same headers, the same value."""
    record = record_of(case)
    again = ce.to_kafka(ce.from_kafka(record))
    assert again.value == record.value
    assert sorted(again.headers) == sorted(
        (name.lower(), value)
        for name, value in record.headers
        if name.lower().startswith("ce_") or name.lower() == "content-type"
    )


def _twin(name: str) -> str:
    return (
        "kafka-structured-content-mode-plain"
        if name == "kafka-binary-content-mode"
        else name.replace("-binary", "-structured")
    )


TWINS = [(b, s) for b in CASES if b["mode"] == "binary" for s in CASES if s["name"] == _twin(b["name"])]


def _members(document: dict[str, Any]) -> dict[str, Any]:
    """JSON members as the event they stand for: null attributes are absent, an attribute's value its text."""
    return {
        k: (v if k in ("data", "data_base64") else str(v)) for k, v in document.items() if v is not None or k == "data"
    }


def test_every_binary_case_with_a_structured_twin_is_paired() -> None:
    assert len(TWINS) == 11


@pytest.mark.parametrize(("binary", "structured"), TWINS, ids=[b["name"] for b, _ in TWINS])
def test_a_binary_case_in_the_json_format_is_its_structured_twin(
    binary: dict[str, Any], structured: dict[str, Any]
) -> None:
    """The spec's and the suite's pairs of one event in both modes: the binary record, written in the JSON event
    format, is the structured record's document. JSON data is the same JSON value; text, which a binary record
    carries as bytes, is written as data_base64 (json-format 3.1.1: runtime type Binary; the Java SDK's default),
    the same text."""
    ours = _members(json.loads(ce.to_json(ce.from_kafka(record_of(binary)))))
    theirs = _members(json.loads(record_of(structured).value or b""))
    if "data_base64" in ours and "data" in theirs:
        text = base64.b64decode(ours.pop("data_base64")).decode("utf-8")
        if "datacontenttype" in theirs:
            assert text == theirs.pop("data")
        else:
            # v1-binary-extensions: the suite's binary record has no content-type, its twin JSON data with the type
            # implied. Bytes with no type are binary data of unknown format (json-format 3.1.1, 1.0.3-wip): base64,
            # no type invented; the bytes are the twin's JSON (plus a line end).
            assert "datacontenttype" not in ours and json.loads(text) == theirs.pop("data")
    assert ours == theirs
