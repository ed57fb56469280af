"""streamcodecs.cloudevents on its own: record layout in both content modes, the JSON event format, keys, headers,
mode detection, the module contract, and every validation rule (each error names the attribute and the rule).

The expected bytes below are written out from the CloudEvents specification (spec.md type system, json-format.md,
kafka-protocol-binding.md), not produced by the codec under test.
"""

from __future__ import annotations

import base64
import datetime
import gc
import json
import math
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamcodecs import cloudevents as ce
from streamcodecs._runtime import errors as base_errors

UTC = datetime.UTC
T0 = datetime.datetime(2018, 4, 5, 3, 56, 24, tzinfo=UTC)
REQUIRED_HEADERS = [
    ("ce_specversion", b"1.0"),
    ("ce_id", b"1"),
    ("ce_source", b"/s"),
    ("ce_type", b"t"),
]
REQUIRED_JSON = {"specversion": "1.0", "id": "1", "source": "/s", "type": "t"}
STRUCTURED = [("content-type", b"application/cloudevents+json; charset=UTF-8")]


def event(**changes: object) -> ce.CloudEvent:
    values: dict[str, object] = {"id": "1", "source": "/s", "type": "t"}
    values.update(changes)
    return ce.CloudEvent(**values)  # type: ignore[arg-type]


def binary(*extra: tuple[str, bytes | None], value: bytes | None = None, base=REQUIRED_HEADERS) -> ce.KafkaRecord:
    return ce.KafkaRecord(None, value, [*base, *extra])


def structured_record(document: object, headers=STRUCTURED) -> ce.KafkaRecord:
    return ce.KafkaRecord(None, json.dumps(document).encode(), list(headers))


def decode_error(call, *args, **kwargs) -> ce.DecodeError:
    with pytest.raises(ce.DecodeError) as info:
        call(*args, **kwargs)
    return info.value


def encode_error(call, *args, **kwargs) -> ce.EncodeError:
    with pytest.raises(ce.EncodeError) as info:
        call(*args, **kwargs)
    return info.value


# --- the module contract -------------------------------------------------------------------------------------------


def test_module_contract() -> None:
    assert ce.MESSAGES == {"CloudEvent": ce.CloudEvent}
    assert ce.DIRECTIONS == ("record",)
    assert ce.VERSION == "1.0" and ce.VERSIONS == ("1.0",)
    assert ce.SPEC_VERSION == "1.0"
    assert issubclass(ce.DecodeError, base_errors.DecodeError) and issubclass(ce.DecodeError, ValueError)
    assert issubclass(ce.EncodeError, base_errors.EncodeError) and issubclass(ce.EncodeError, ValueError)
    assert ce.ContentMode.BINARY == "binary" and ce.ContentMode.STRUCTURED == "structured"


def test_events_and_records_are_not_tracked_by_the_cycle_collector() -> None:
    """README, "The generated module contract": declared ``gc=False``, even holding dicts and lists."""
    e = event(time=T0, data={"a": [1]}, extensions={"ext": "v"})
    records = [ce.to_kafka(e, "binary"), ce.to_kafka(e, "structured")]
    assert [gc.is_tracked(r) for r in records] == [False, False]
    assert [gc.is_tracked(ce.from_kafka(r)) for r in records] == [False, False]
    assert not gc.is_tracked(ce.decode(ce.encode(e)))


def test_encode_is_the_json_event_format_and_decode_reads_it() -> None:
    e = event(time=T0, data={"a": 1}, extensions={"ext": "v"})
    assert ce.encode(e) == ce.to_json(e) == ce.to_kafka(e, "structured").value
    assert ce.decode(ce.encode(e)) == e
    assert ce.decode(ce.encode(e), direction="record") == e
    assert ce.decode(ce.encode(e).decode()) == e  # str input
    with pytest.raises(ValueError, match="unknown direction"):
        ce.decode(ce.encode(e), direction="up")
    assert "not a CloudEvent" in str(encode_error(ce.encode, {"id": "1"}))


def test_reader_reads_json_lines_cut_anywhere() -> None:
    events = [event(id=str(i), data={"n": i, "text": "é\n"}) for i in range(4)]
    stream = b"".join(ce.encode(e) + b"\n" for e in events) + b"\n"  # a blank line at the end
    for cut in range(len(stream) + 1):
        reader = ce.Reader()
        got = reader.feed(stream[:cut]) + reader.feed(stream[cut:])
        assert got == events, cut
        assert reader.buffered == 0
    reader = ce.Reader()
    assert [e.id for e in reader.feed(b"".join(ce.encode(e) + b"\n" for e in events))] == ["0", "1", "2", "3"]
    assert reader.line == 4


def test_reader_reports_the_bad_line_and_goes_on() -> None:
    good = ce.encode(event(id="good")) + b"\n"
    bad = json.dumps({**REQUIRED_JSON, "id": ""}).encode() + b"\n"
    reader = ce.Reader()
    with pytest.raises(ce.DecodeError) as info:
        reader.feed(good + bad + good)
    assert info.value.line == 2 and info.value.field == "id"
    assert [e.id for e in info.value.decoded] == ["good"]
    assert [e.id for e in reader.feed(b"")] == ["good"]
    small = ce.Reader(max_message=64)
    with pytest.raises(ce.DecodeError, match="longer than 64"):
        small.feed(b"x" * 100 + b"\n")
    with pytest.raises(ValueError, match="unknown direction"):
        ce.Reader(direction="sideways")


def test_to_dict_from_dict_and_missing() -> None:
    e = event(time=T0, extensions={"x": 1})
    plain = e.to_dict()
    assert "data" not in plain and plain["type"] == "t" and plain["extensions"] == {"x": 1}
    assert ce.CloudEvent.from_dict(plain) == e
    assert ce.CloudEvent.from_dict(plain).data is ce.MISSING
    with_null = event(data=None)
    assert with_null.to_dict()["data"] is None and ce.CloudEvent.from_dict(with_null.to_dict()) == with_null
    assert repr(ce.MISSING) == "MISSING" and not ce.MISSING
    assert pickle.loads(pickle.dumps(ce.MISSING)) is ce.MISSING
    assert pickle.loads(pickle.dumps(e)) == e


# --- binary content mode -------------------------------------------------------------------------------------------


def test_binary_record_layout() -> None:
    e = ce.CloudEvent(
        id="A234-1234-1234",
        source="https://example.com/sensors/x",
        type="com.example.reading",
        datacontenttype="application/json",
        dataschema="https://example.com/schema.json#/definitions/r",
        subject="temp",
        time=datetime.datetime(
            2018, 4, 5, 17, 31, 0, 120, tzinfo=datetime.timezone(datetime.timedelta(hours=5, minutes=30))
        ),
        partitionkey="pk",
        extensions={"flag": True, "count": -5, "blob": b"\x01\x02", "when": T0, "note": "é"},
        data={"a": [1, "é"]},
    )
    record = ce.to_kafka(e)
    assert record.key is None
    assert record.headers == [
        ("ce_specversion", b"1.0"),
        ("ce_id", b"A234-1234-1234"),
        ("ce_source", b"https://example.com/sensors/x"),
        ("ce_type", b"com.example.reading"),
        ("content-type", b"application/json"),
        ("ce_dataschema", b"https://example.com/schema.json#/definitions/r"),
        ("ce_subject", b"temp"),
        ("ce_time", b"2018-04-05T17:31:00.000120+05:30"),
        ("ce_partitionkey", b"pk"),
        ("ce_flag", b"true"),
        ("ce_count", b"-5"),
        ("ce_blob", b"AQI="),
        ("ce_when", b"2018-04-05T03:56:24Z"),
        ("ce_note", "é".encode()),
    ]
    assert record.value == '{"a":[1,"é"]}'.encode()
    back = ce.from_kafka(record)
    # A header carries no type: undeclared attributes come back as their canonical strings; data as the bytes.
    assert back.extensions == {
        "flag": "true",
        "count": "-5",
        "blob": "AQI=",
        "when": "2018-04-05T03:56:24Z",
        "note": "é",
    }
    assert back.data == record.value and back.json_data() == {"a": [1, "é"]}
    assert back.time == e.time and back.time.utcoffset() == datetime.timedelta(hours=5, minutes=30)
    assert ce.content_mode(record) == "binary"


def test_binary_no_data_is_a_null_value_and_empty_value_is_empty_data() -> None:
    record = ce.to_kafka(event())
    assert record.value is None
    assert ce.from_kafka(record).data is ce.MISSING
    empty = ce.to_kafka(event(data=b"", datacontenttype="application/octet-stream"))
    assert empty.value == b""
    assert ce.from_kafka(empty).data == b""
    # datacontenttype may be present without data.
    assert ce.from_kafka(ce.to_kafka(event(datacontenttype="text/plain"))).datacontenttype == "text/plain"


@pytest.mark.parametrize(
    ("content_type", "data", "value", "written_type"),
    [
        ("application/json", {"a": 1}, b'{"a":1}', b"application/json"),
        ("application/json", "I'm just a string", b'"I\'m just a string"', b"application/json"),  # a JSON string
        ("application/json", None, b"null", b"application/json"),
        ("application/json", [1.5, True], b"[1.5,true]", b"application/json"),
        (
            "Application/Vnd.Example+JSON ; charset=utf-8",
            {"a": 1},
            b'{"a":1}',
            b"Application/Vnd.Example+JSON ; charset=utf-8",
        ),
        (None, {"a": 1}, b'{"a":1}', b"application/json"),  # JSON data without a type says so
        (None, "s", b'"s"', b"application/json"),
        (None, b"\x00\xff", b"\x00\xff", None),  # bytes: no type invented
        ("text/plain", "héllo", "héllo".encode(), b"text/plain"),
        ("text/plain; charset=us-ascii", "hello", b"hello", b"text/plain; charset=us-ascii"),
        ('text/plain; charset="UTF-8"', "é", "é".encode(), b'text/plain; charset="UTF-8"'),
        ("application/xml", b"<a/>", b"<a/>", b"application/xml"),
    ],
)
def test_binary_value_by_content_type(content_type, data, value, written_type) -> None:
    record = ce.to_kafka(event(datacontenttype=content_type, data=data))
    assert record.value == value
    assert dict(record.headers).get("content-type") == written_type


@pytest.mark.parametrize(
    ("content_type", "data", "message"),
    [
        ("text/plain", {"a": 1}, "cannot be written under the non-JSON content type"),
        ("text/plain", None, "cannot be written under the non-JSON content type"),
        ("text/plain; charset=us-ascii", "é", "does not fit charset us-ascii"),
        ("text/plain; charset=latin-1", "x", "not charset 'latin-1'"),
        ("application/json", {"a": math.nan}, "NaN or infinity"),
        ("application/json", [math.inf], "NaN or infinity"),
        ("application/json", {"a": object()}, "cannot be written as JSON"),
    ],
)
def test_binary_value_that_cannot_be_written(content_type, data, message) -> None:
    error = encode_error(ce.to_kafka, event(datacontenttype=content_type, data=data))
    assert error.field == "data" and message in str(error)


@pytest.mark.parametrize(
    ("content_type", "data", "message"),
    [
        ("text/plain", {"a": 1}, "cannot be written under the non-JSON content type"),
        ("text/plain", [1], "cannot be written under the non-JSON content type"),
        ("application/json", {"a": math.nan}, "NaN or infinity"),
        ("application/json", [math.inf, None], "NaN or infinity"),
        (None, {"a": [-math.inf]}, "NaN or infinity"),
        ("application/json", {"a": object()}, "cannot be written as JSON"),
    ],
)
def test_structured_data_that_cannot_be_written(content_type, data, message) -> None:
    """The common call's shortcut (JSON data written with the document) refuses what the full path refuses, in its
    words."""
    error = encode_error(ce.to_kafka, event(datacontenttype=content_type, data=data), "structured")
    assert error.field == "data" and message in str(error)


@pytest.mark.parametrize("mode", ["binary", "structured"])
def test_the_common_call_and_the_others_write_the_same(mode: str) -> None:
    """to_kafka's common call (no key mapper, no extra headers, a bytes key or none) writes what the runtime's
    general call writes; a JSON null in the data is data, not a NaN."""
    e = event(datacontenttype="application/json", data={"a": None, "b": [1.5, None]}, subject="s", time=T0)
    plain = ce.to_kafka(e, mode)
    assert ce.to_kafka(e, mode, key=b"k") == ce.KafkaRecord(b"k", plain.value, plain.headers)
    assert ce.to_kafka(e, mode, key="k") == ce.KafkaRecord(b"k", plain.value, plain.headers)
    assert ce.to_kafka(e, mode, headers=[]) == plain
    assert ce.to_kafka(e, mode, key_mapper=lambda ev: None) == plain
    assert plain.value is not None and b'"b":[1.5,null]' in plain.value


def test_header_names_are_matched_ascii_case_insensitively() -> None:
    record = ce.KafkaRecord(
        None,
        b"x",
        [
            ("CE_SPECVERSION", b"1.0"),
            ("Ce_Id", b"1"),
            ("ce_Source", b"/s"),
            ("CE_TYPE", b"t"),
            ("Content-Type", b"text/plain"),
            ("CE_EXT", b"v"),
        ],
    )
    e = ce.from_kafka(record)
    assert (e.id, e.source, e.type, e.datacontenttype, e.extensions) == ("1", "/s", "t", "text/plain", {"ext": "v"})
    # Only A-Z fold: the Kelvin sign (which str.lower() turns into "k") is not a "k".
    kelvin = binary(("ce_\u212aey", b"v"))
    assert "not a valid attribute name" in str(decode_error(ce.from_kafka, kelvin))


def test_duplicate_headers_the_last_wins() -> None:
    record = binary(("ce_subject", b"first"), ("CE_SUBJECT", b"second"), ("ce_ext", b"1"), ("ce_ext", b"2"))
    e = ce.from_kafka(record)
    assert e.subject == "second" and e.extensions == {"ext": "2"}
    assert ce.from_kafka(binary(("ce_id", b"2"))).id == "2"


def test_other_headers_are_left_alone_and_extra_headers_are_written() -> None:
    record = binary(("user-agent", b"foo"), ("traceparent", None))
    e = ce.from_kafka(record)
    assert e.extensions == {} and e == event()
    written = ce.to_kafka(event(), headers=[("user-agent", b"foo"), ("x-null", None)])
    assert written.headers[-2:] == [("user-agent", b"foo"), ("x-null", None)]
    assert ce.to_kafka(event(), "structured", headers={"user-agent": b"bar"}).headers[-1] == ("user-agent", b"bar")
    for name in ("ce_id", "CE_EXT", "Content-Type"):
        assert "would be read as an attribute" in str(encode_error(ce.to_kafka, event(), headers=[(name, b"x")]))
    assert "bytes or None" in str(encode_error(ce.to_kafka, event(), headers=[("h", "text")]))


def test_from_kafka_accepts_other_record_shapes() -> None:
    class Message:  # e.g. a client library's record, headers as a mapping
        headers = dict(REQUIRED_HEADERS)
        value = b"v"
        key = None

    assert ce.from_kafka(Message()).data == b"v"
    assert "specversion" in str(decode_error(ce.from_kafka, ce.KafkaRecord(None, b"v", None)))  # type: ignore[arg-type]
    assert "pairs" in str(decode_error(ce.from_kafka, ce.KafkaRecord(None, None, [(b"ce_id", b"1")])))  # type: ignore[list-item]
    assert "pairs" in str(decode_error(ce.from_kafka, ce.KafkaRecord(None, None, [("ce_id", "1")])))  # type: ignore[list-item]
    assert "bytes or None" in str(decode_error(ce.from_kafka, ce.KafkaRecord(None, "text", REQUIRED_HEADERS)))  # type: ignore[arg-type]
    assert ce.from_kafka(ce.KafkaRecord(None, bytearray(b"v"), REQUIRED_HEADERS)).data == b"v"  # type: ignore[arg-type]


# --- structured content mode and the JSON event format ---------------------------------------------------------------


def test_structured_record_layout() -> None:
    e = event(
        datacontenttype="application/json",
        subject="é",
        time=T0,
        extensions={"flag": False, "n": 7, "blob": b"\xff", "when": T0},
        data={"a": 1},
    )
    record = ce.to_kafka(e, "structured")
    assert record.headers == [("content-type", b"application/cloudevents+json; charset=UTF-8")]
    assert (
        record.value
        == (
            '{"specversion":"1.0","id":"1","source":"/s","type":"t","datacontenttype":"application/json",'
            '"subject":"é","time":"2018-04-05T03:56:24Z","flag":false,"n":7,"blob":"/w==","when":"2018-04-05T03:56:24Z",'
            '"data":{"a":1}}'
        ).encode()
    )
    back = ce.from_kafka(record)
    assert back.extensions == {"flag": False, "n": 7, "blob": "/w==", "when": "2018-04-05T03:56:24Z"}
    assert back.data == {"a": 1}
    assert ce.content_mode(record) == "structured"


@pytest.mark.parametrize(
    ("content_type", "data", "members"),
    [
        (None, b"\x00\x01", {"data_base64": "AAE="}),  # no datacontenttype invented for bytes
        ("application/json", b'{"a": 1}', {"datacontenttype": "application/json", "data": {"a": 1}}),  # JSON bytes
        ("text/plain", b"hi", {"datacontenttype": "text/plain", "data_base64": "aGk="}),  # bytes under text/*
        ("application/xml", '<much wow="xml"/>', {"datacontenttype": "application/xml", "data": '<much wow="xml"/>'}),
        ("application/json", None, {"datacontenttype": "application/json", "data": None}),
        (None, 1.5, {"data": 1.5}),
        (None, "I'm just a string", {"data": "I'm just a string"}),
    ],
)
def test_json_format_data_members(content_type, data, members) -> None:
    e = event(datacontenttype=content_type, data=data)
    document = json.loads(ce.to_json(e))
    assert {k: v for k, v in document.items() if k not in REQUIRED_JSON} == members
    back = ce.from_json(ce.to_json(e))
    if isinstance(data, bytes) and "data" in members:  # JSON bytes come back as the JSON value they hold
        assert back == event(datacontenttype=content_type, data=json.loads(data))
    else:
        assert back == e


# --- bytes under a JSON content type in the JSON event format (issue 19) -------------------------------------------

KAFKA_EXAMPLE = ce.KafkaRecord(  # kafka-protocol-binding.md 3.2.3, the binary-mode example
    None,
    b'{"message": "Hello World!"}',
    [
        ("ce_specversion", b"1.0"),
        ("ce_type", b"com.example.someevent"),
        ("ce_source", b"/mycontext/subcontext"),
        ("ce_id", b"1234-1234-1234"),
        ("ce_time", b"2018-04-05T03:56:24Z"),
        ("content-type", b"application/json"),
    ],
)


def test_a_binary_record_with_json_data_gives_json_data_in_the_json_format() -> None:
    e = ce.from_kafka(KAFKA_EXAMPLE)
    assert e.data == b'{"message": "Hello World!"}'  # binary mode keeps the bytes
    expected = (
        b'{"specversion":"1.0","id":"1234-1234-1234","source":"/mycontext/subcontext","type":"com.example.someevent",'
        b'"datacontenttype":"application/json","time":"2018-04-05T03:56:24Z","data":{"message":"Hello World!"}}'
    )
    assert ce.to_json(e) == expected
    record = ce.to_kafka(e, "structured")
    assert record.value == expected and record.headers == [
        ("content-type", b"application/cloudevents+json; charset=UTF-8")
    ]
    assert "data_base64" not in json.loads(expected)


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "text/json",
        "application/vnd.example+json",
        "model/gltf+JSON ; q=1",
        "application/cloudevents+json",
    ],
)
def test_every_json_media_type_writes_bytes_as_their_json_value(content_type: str) -> None:
    document = json.loads(ce.to_json(event(datacontenttype=content_type, data=b"[1, true]")))
    assert document["data"] == [1, True] and "data_base64" not in document
    assert document["datacontenttype"] == content_type


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/plain",
        "text/plain; charset=utf-8",
        "text/csv",
        "application/octet-stream",
        "application/jsonx",
        "application/+json",
        "application/json-seq",
        "application/xml",
    ],
)
def test_other_bytes_stay_base64(content_type: str | None) -> None:
    """No content type: nothing may be assumed (json-format 3.1.1), so no JSON either and no type invented. text/*:
    the runtime type is binary (json-format 3.1.1) and the Java SDK writes it as base64 by default."""
    document = json.loads(ce.to_json(event(datacontenttype=content_type, data=b'{"a": 1}')))
    assert document.get("datacontenttype") == content_type
    assert document["data_base64"] == "eyJhIjogMX0=" and "data" not in document


def test_json_bytes_are_written_as_written_without_whitespace() -> None:
    """Only whitespace between tokens goes (the document is one line, as JSON Lines need); member order, repeated
    member names, number spelling and escapes stay as written, as the Java SDK's raw copy keeps them."""
    data = b'{ "b" : 1e2,\n  "a":[1, 2.50 ,"\\u00e9 \\" \xc3\xa9  x" ],\r\n\t"a":-0 }\n'
    written = ce.to_json(event(datacontenttype="application/json", data=data))
    assert written.endswith(b',"data":{"b":1e2,"a":[1,2.50,"\\u00e9 \\" \xc3\xa9  x"],"a":-0}}')
    assert b"\n" not in written
    assert list(ce.Reader().feed(written + b"\n" + written + b"\n")) == [ce.from_json(written)] * 2


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"  ",
        b"{",
        b'{"a":1} x',
        b"1 2",
        b"[1]]",
        b"\xff",
        b'"\xff"',
        b"NaN",
        b"'a'",
        b"01",
        b'"a\tb"',
        b'"\\ud800"',
        b"\xef\xbb\xbf{}",
        b"hello",
    ],
)
def test_bytes_that_are_not_one_json_value_under_a_json_type_are_refused(data: bytes) -> None:
    e = event(datacontenttype="application/json", data=data)
    for write in (ce.to_json, lambda e: ce.to_kafka(e, "structured")):
        with pytest.raises(ce.EncodeError, match="not one JSON value") as failure:
            write(e)
        assert failure.value.field == "data"
    assert ce.to_kafka(e).value == data  # binary mode carries the bytes as they are


def test_json_bytes_round_trip_binary_structured_binary() -> None:
    """binary -> structured -> binary: the same bytes for compact JSON as the codec writes it; where only the
    JSON value can be the same (whitespace, number spelling, escapes, repeated names), the test says which."""

    def again(data: bytes) -> bytes:
        e = event(datacontenttype="application/json", data=data)
        back = ce.from_kafka(ce.to_kafka(e, "structured"))
        assert back.data == json.loads(data)  # decoded as the JSON value it holds
        value = ce.to_kafka(back).value
        assert value is not None
        return value

    for compact in (b'{"message":"Hello World!"}', b'[1,2.5,null,true,"\xc3\xa9"]', b'"s"', b"null", b"-7", b"{}"):
        assert again(compact) == compact
    # The same JSON value, other bytes:
    assert again(b'{"message": "Hello World!"}') == b'{"message":"Hello World!"}'  # whitespace
    assert again(b"[1e2,2.50,-0]") == b"[100.0,2.5,0]"  # number spelling
    assert again(b'"\\u00e9"') == '"é"'.encode()  # escapes
    assert again(b'{"a":1,"a":2}') == b'{"a":2}'  # a repeated member name: the last one
    for data in (b'{"message": "Hello World!"}', b"[1e2,2.50,-0]", b'"\\u00e9"'):
        assert json.loads(again(data)) == json.loads(data)


def test_json_format_no_data_and_null_data_differ() -> None:
    assert "data" not in json.loads(ce.to_json(event()))
    assert ce.from_json(json.dumps(REQUIRED_JSON)).data is ce.MISSING
    assert ce.from_json(json.dumps({**REQUIRED_JSON, "data": None})).data is None


def test_json_format_null_attributes_are_absent() -> None:
    document = {
        **REQUIRED_JSON,
        "subject": None,
        "time": None,
        "datacontenttype": None,
        "unsetextension": None,
        "data_base64": None,
    }
    e = ce.from_json(json.dumps(document))
    assert (e.subject, e.time, e.datacontenttype, e.extensions, e.data) == (None, None, None, {}, ce.MISSING)


def test_structured_mode_ignores_prefixed_headers() -> None:
    headers = [("ce_id", b"from-header"), ("ce_Bad Name", b"x"), ("ce_subject", None), ("ce_x", b"\xff"), *STRUCTURED]
    e = ce.from_kafka(structured_record(REQUIRED_JSON, headers))
    assert e.id == "1" and e.subject is None and e.extensions == {}


@pytest.mark.parametrize(
    "content_type",
    [
        "application/cloudevents+json",
        "APPLICATION/CLOUDEVENTS+JSON",
        "application/cloudevents+json; charset=utf-8",
        'application/cloudevents+json ; CHARSET="UTF-8"',
        "Application/CloudEvents+Json;charset=UTF-8",
    ],
)
def test_structured_detection(content_type: str) -> None:
    record = structured_record(REQUIRED_JSON, [("Content-Type", content_type.encode())])
    assert ce.content_mode(record) == "structured"
    assert ce.from_kafka(record) == event()


@pytest.mark.parametrize(
    ("content_type", "message"),
    [
        ("application/cloudevents+avro", "not a supported event format"),
        ("application/cloudevents-batch+json", "not a supported event format"),
        ("application/cloudevents+xml", "not a supported event format"),
        ("application/cloudevents+json; charset=latin-1", "charset 'latin-1' is not supported"),
    ],
)
def test_structured_format_we_cannot_read(content_type: str, message: str) -> None:
    error = decode_error(ce.from_kafka, structured_record(REQUIRED_JSON, [("content-type", content_type.encode())]))
    assert message in str(error) and content_type in str(error)
    assert error.field == "datacontenttype"


def test_structured_record_needs_a_json_object_value() -> None:
    assert "null" in str(decode_error(ce.from_kafka, ce.KafkaRecord(None, None, STRUCTURED)))
    for value, message in [
        (b"[]", "JSON object, not list"),
        (b'"x"', "JSON object, not str"),
        (b"{", "malformed JSON"),
        (b"\xef\xbb\xbf{}", "malformed JSON"),  # a byte order mark
        (b'{"id":"\xff"}', "not UTF-8"),
        (b'{"id":"\\udead"}', "malformed JSON"),  # a lone surrogate
    ]:
        error = decode_error(ce.from_kafka, ce.KafkaRecord(None, value, STRUCTURED))
        assert message in str(error), value
    error = decode_error(ce.from_json, b'{"specversion": "1.0", "id": }')
    assert error.offset == 29


def test_binary_mode_when_content_type_is_not_cloudevents() -> None:
    for content_type in (b"application/json", b"application/cloud", b"text/application/cloudevents"):
        assert ce.content_mode(binary(("content-type", content_type))) == "binary"
    assert ce.content_mode(ce.KafkaRecord(None, b"", [])) == "binary"


# --- keys ---------------------------------------------------------------------------------------------------------


def test_record_key_is_the_callers() -> None:
    e = event(partitionkey="pk-1")
    assert ce.to_kafka(e).key is None  # partitionkey is not used unless asked for
    assert ce.to_kafka(e, key=b"k").key == b"k"
    assert ce.to_kafka(e, "structured", key="ké").key == "ké".encode()
    assert ce.to_kafka(e, key_mapper="partitionkey").key == b"pk-1"
    assert ce.to_kafka(event(), key_mapper="partitionkey").key is None
    assert ce.to_kafka(e, key_mapper=lambda ev: ev.id + "!").key == b"1!"
    assert ce.to_kafka(e, key_mapper=lambda ev: None).key is None
    assert e == event(partitionkey="pk-1")  # never modified
    with pytest.raises(ValueError, match="^give a key or a key_mapper, not both$") as both:
        ce.to_kafka(e, key=b"k", key_mapper="partitionkey")
    assert type(both.value) is ValueError
    with pytest.raises(ValueError, match=r"^unknown key mapper 'nope'; expected one of \['partitionkey'\]$"):
        ce.to_kafka(e, key_mapper="nope")  # the caller's mistake, as in the Spark function: not an EncodeError
    assert "record key" in str(encode_error(ce.to_kafka, e, key=5))
    assert "record key" in str(encode_error(ce.to_kafka, e, key_mapper=lambda ev: 5))


def test_decoded_key_never_becomes_an_attribute() -> None:
    record = ce.KafkaRecord(b"user-key", None, [*REQUIRED_HEADERS, ("ce_partitionkey", b"pk-1")])
    assert ce.from_kafka(record).partitionkey == "pk-1"
    assert ce.from_kafka(ce.KafkaRecord(b"user-key", None, REQUIRED_HEADERS)).partitionkey is None
    structured = ce.KafkaRecord(b"user-key", json.dumps(REQUIRED_JSON).encode(), STRUCTURED)
    assert ce.from_kafka(structured).partitionkey is None


def test_modes() -> None:
    with pytest.raises(ValueError, match=r"^unknown mode 'avro'; expected one of \('binary', 'structured'\)$") as info:
        ce.to_kafka(event(), "avro")  # the caller's mistake, in the Spark function's words: not an EncodeError
    assert type(info.value) is ValueError
    assert ce.to_kafka(event(), ce.ContentMode.STRUCTURED).headers == STRUCTURED
    assert "not a CloudEvent" in str(encode_error(ce.to_kafka, REQUIRED_JSON))


# --- nothing invented ----------------------------------------------------------------------------------------------


def test_nothing_is_invented_on_decode() -> None:
    for e in (ce.from_kafka(binary()), ce.from_json(json.dumps(REQUIRED_JSON))):
        assert e == ce.CloudEvent(id="1", source="/s", type="t")
        assert e.time is None and e.partitionkey is None and e.extensions == {} and e.data is ce.MISSING


# --- validation rules ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["specversion", "id", "source", "type"])
def test_missing_required_attribute(name: str) -> None:
    headers = [(k, v) for k, v in REQUIRED_HEADERS if k != f"ce_{name}"]
    for error in (
        decode_error(ce.from_kafka, ce.KafkaRecord(None, None, headers)),
        decode_error(ce.from_json, json.dumps({k: v for k, v in REQUIRED_JSON.items() if k != name})),
        decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, name: None})),  # null is absent
    ):
        assert error.field == name and f"required attribute {name!r} is missing" in str(error)
    if name != "specversion":
        py = name
        for mode in ("binary", "structured"):
            error = encode_error(ce.to_kafka, event(**{py: None}), mode)
            assert error.field == name and "missing" in str(error)


@pytest.mark.parametrize("name", ["id", "source", "type", "dataschema", "subject", "partitionkey"])
def test_empty_attribute(name: str) -> None:
    for error in (
        decode_error(ce.from_kafka, binary((f"ce_{name}", b""))),
        decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, name: ""})),
    ):
        assert error.field == name and "must not be empty" in str(error)
    py = name
    for mode in ("binary", "structured"):
        error = encode_error(ce.to_kafka, event(**{py: ""}), mode)
        assert error.field == name and "must not be empty" in str(error)


@pytest.mark.parametrize("version", ["0.3", "1.0.2", "2.0", " 1.0"])
def test_unsupported_specversion(version: str) -> None:
    error = decode_error(ce.from_kafka, binary(("ce_specversion", version.encode())))
    assert error.field == "specversion" and "must be '1.0'" in str(error)
    error = decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "specversion": version}))
    assert error.field == "specversion"
    assert encode_error(ce.to_json, event(specversion=version)).field == "specversion"
    assert decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "specversion": 1.0})).field == "specversion"


@pytest.mark.parametrize(
    "source", ["not a uri", "%zz", "a\\b", "http://h:80abc", "/é", "1:x", "http://[::1/x", "{x}", "a|b", "^"]
)
def test_bad_uri_reference(source: str) -> None:
    for error in (
        decode_error(ce.from_kafka, binary(("ce_source", source.encode()))),
        decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "source": source})),
        encode_error(ce.to_json, event(source=source)),
        encode_error(ce.to_kafka, event(source=source)),
    ):
        assert error.field == "source" and "is not a URI-reference" in str(error)


@pytest.mark.parametrize(
    "source",
    [
        "/cloudevents/spec/pull/123",
        "https://github.com/cloudevents",
        "mailto:cncf-wg-serverless@lists.cncf.io",
        "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66",
        "1-555-123-4567",
        "//github.com/cloudevents/x.yaml",
        "http://[2001:db8::7]:80/c=GB?objectClass?one#frag",
        "?q",
        "#f",
        "a/b/c",
        "%C3%A9",
    ],
)
def test_good_uri_reference(source: str) -> None:
    assert ce.from_kafka(binary(("ce_source", source.encode()))).source == source
    assert ce.from_json(ce.to_json(event(source=source))).source == source


@pytest.mark.parametrize("schema", ["schema/x.json", "/abs/path", "//host/x", "#frag", "http://a b"])
def test_bad_uri(schema: str) -> None:
    for error in (
        decode_error(ce.from_kafka, binary(("ce_dataschema", schema.encode()))),
        decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "dataschema": schema})),
        encode_error(ce.to_kafka, event(dataschema=schema), "structured"),
    ):
        assert error.field == "dataschema" and "is not an absolute URI" in str(error)


def test_good_uri_with_fragment() -> None:
    schema = "https://example.com/schemas/v1.json#/definitions/reading"
    assert ce.from_kafka(ce.to_kafka(event(dataschema=schema))).dataschema == schema
    assert ce.from_json(json.dumps({**REQUIRED_JSON, "dataschema": "urn:example:schema"})).dataschema


@pytest.mark.parametrize(
    "content_type", ["json", "application/", "text/plain;", "a/b; c", "a/b;c=", "a b/c", 'a/b; c="x']
)
def test_bad_media_type(content_type: str) -> None:
    for error in (
        decode_error(ce.from_kafka, binary(("content-type", content_type.encode()))),
        decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "datacontenttype": content_type})),
        encode_error(ce.to_kafka, event(datacontenttype=content_type)),
    ):
        assert error.field == "datacontenttype" and "is not a media type" in str(error)


@pytest.mark.parametrize(
    "text",
    [
        "2018-04-05",
        "2018-04-05 03:56:24Z",
        "2018-04-05T03:56:24",
        "2018-04-05T03:56:24+0200",
        "2018-04-05T03:56:24,5Z",
        "20180405T035624Z",
        "2018-W14-4T03:56:24Z",
        "2018-04-05T03:56Z",
        "2018-04-05T03:56:24.1234567890Z",
        "1990-12-31T23:59:60Z",  # leap second: rejected (the lead's decision)
        "2018-02-30T00:00:00Z",
        "2019-02-29T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "2018-04-05T24:00:00Z",
        "2018-04-05T03:56:24+24:00",
        "2018-04-05T03:56:24Z\n",
        "２０１８-04-05T03:56:24Z",
    ],
)
def test_bad_time(text: str) -> None:
    for error in (
        decode_error(ce.from_kafka, binary(("ce_time", text.encode()))),
        decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "time": text})),
    ):
        assert error.field == "time" and ("RFC 3339" in str(error) or "not a valid date-time" in str(error))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2018-04-05T03:56:24Z", T0),
        ("2018-04-05t03:56:24z", T0),
        ("2018-04-05T03:56:24-00:00", T0),
        ("2018-04-05T03:56:24.123456789Z", T0.replace(microsecond=123456)),  # truncated, not rounded
        ("2018-04-05T03:56:24.9999999Z", T0.replace(microsecond=999999)),
        ("2018-04-05T05:56:24.5+02:00", T0.replace(microsecond=500000)),
        ("2016-02-29T23:59:59-23:59", datetime.datetime(2016, 3, 1, 23, 58, 59, tzinfo=UTC)),
        ("0001-01-01T00:00:00Z", datetime.datetime(1, 1, 1, tzinfo=UTC)),
    ],
)
def test_good_time(text: str, expected: datetime.datetime) -> None:
    assert ce.from_kafka(binary(("ce_time", text.encode()))).time == expected
    assert ce.from_json(json.dumps({**REQUIRED_JSON, "time": text})).time == expected


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (T0, "2018-04-05T03:56:24Z"),
        (T0.replace(microsecond=120), "2018-04-05T03:56:24.000120Z"),
        (T0.astimezone(datetime.timezone(datetime.timedelta(hours=-8))), "2018-04-04T19:56:24-08:00"),
        (T0.replace(tzinfo=datetime.timezone(datetime.timedelta(0))), "2018-04-05T03:56:24Z"),
        (datetime.datetime(999, 1, 2, tzinfo=UTC), "0999-01-02T00:00:00Z"),
    ],
)
def test_time_is_written_in_rfc3339(value: datetime.datetime, text: str) -> None:
    assert dict(ce.to_kafka(event(time=value)).headers)["ce_time"] == text.encode()
    assert json.loads(ce.to_json(event(time=value)))["time"] == text


# A time whose offset is beyond 18:00 (RFC 3339 writes up to 23:59; Java's OffsetDateTime holds up to 18:00), and
# the text the Java codec writes of it (tests/test_cloudevents_java.py compares them with the JVM): at UTC, or at the
# offset nearest UTC that keeps it in the years 0001 to 9999.
BEYOND_18 = [
    ("2020-01-01T00:00:00+20:00", "2019-12-31T04:00:00Z"),
    ("2020-01-01T00:00:00-18:01", "2020-01-01T18:01:00Z"),
    ("2016-02-29T23:59:59.5-23:59", "2016-03-01T23:58:59.500000Z"),
    ("9999-12-31T23:00:00-23:59", "9999-12-31T23:59:00-23:00"),
    ("9999-12-31T23:30:00-23:59", "9999-12-31T23:59:00-23:30"),
    ("0001-01-01T00:00:00+23:00", "0001-01-01T00:00:00+23:00"),
    ("0001-01-01T00:10:00+23:00", "0001-01-01T00:00:00+22:50"),
    ("0001-01-01T00:59:59.999999+19:00", "0001-01-01T00:00:59.999999+18:01"),
    ("2020-01-01T00:00:00+18:00", "2020-01-01T00:00:00+18:00"),  # within 18:00: its own offset, as Java holds it
]


@pytest.mark.parametrize(("text", "written"), BEYOND_18)
def test_a_time_beyond_18_hours_is_written_as_the_java_codec_writes_it(text: str, written: str) -> None:
    """Decoded and encoded again (binary and structured), or built by the user, such a time is written as the Java
    codec writes it: the Python codec kept "+20:00" where Java wrote the same instant at UTC ("Z")."""
    for decoded in (
        ce.from_kafka(binary(("ce_time", text.encode()))),
        ce.from_json(json.dumps({**REQUIRED_JSON, "time": text})),
    ):
        assert decoded.time == datetime.datetime.fromisoformat(text)  # the same instant
        assert dict(ce.to_kafka(decoded).headers)["ce_time"] == written.encode()
        assert json.loads(ce.to_json(decoded))["time"] == written
    built = event(time=datetime.datetime.fromisoformat(text))
    assert dict(ce.to_kafka(built).headers)["ce_time"] == written.encode()
    assert json.loads(ce.to_json(built))["time"] == written


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (datetime.datetime(2018, 4, 5), "timezone-aware"),
        (T0.replace(tzinfo=datetime.timezone(datetime.timedelta(seconds=30))), "offset with seconds"),
        ("2018-04-05T03:56:24Z", "must be a datetime"),
    ],
)
def test_time_that_cannot_be_written(value: object, message: str) -> None:
    for mode in ("binary", "structured"):
        error = encode_error(ce.to_kafka, event(time=value), mode)
        assert error.field == "time" and message in str(error)


@pytest.mark.parametrize("name", ["Foo", "foo_bar", "foo-bar", "", "data", "abc\n", "é", "id", "datacontenttype"])
def test_bad_extension_name(name: str) -> None:
    for mode in ("binary", "structured"):
        error = encode_error(ce.to_kafka, event(extensions={name: "v"}), mode)
        assert error.field == name and "not a valid name" in str(error)
    if name not in ("data", "id", "datacontenttype"):  # those are the payload and declared attributes in JSON
        error = decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, name: "v"}))
        assert error.field == name and "not a valid attribute name" in str(error)
    if name not in ("Foo", "id", "datacontenttype"):  # CE_FOO folds to ce_foo, a valid name; ce_id is the id header
        error = decode_error(ce.from_kafka, binary((f"ce_{name}", b"v")))
        assert "not a valid attribute name" in str(error)


def test_ce_datacontenttype_header_is_rejected() -> None:
    error = decode_error(ce.from_kafka, binary(("ce_datacontenttype", b"text/plain")))
    assert error.field == "datacontenttype" and "goes in the 'content-type' header" in str(error)


def test_long_extension_names_are_accepted() -> None:
    # "SHOULD be at most 20 characters" and "SHOULD start with a letter" are advice, not enforced.
    names = {"abcdefghijklmnopqrstuvwxyz": "v", "9lives": "v"}
    assert ce.from_kafka(ce.to_kafka(event(extensions=names))).extensions == names


def test_data_and_data_base64_together() -> None:
    for data in ("a", None, {"x": 1}):
        error = decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "data": data, "data_base64": "Yg=="}))
        assert error.field == "data_base64" and "mutually exclusive" in str(error)


@pytest.mark.parametrize("encoded", ["YWI", "Y*W I=", "YW\nI=", "YWI=\n", "YW-_", 5, [1]])
def test_bad_data_base64(encoded: object) -> None:
    error = decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "data_base64": encoded}))
    assert error.field == "data_base64"


def test_data_under_non_json_type_must_be_a_string() -> None:
    error = decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "datacontenttype": "text/xml", "data": {"a": 1}}))
    assert error.field == "data" and "must be a JSON string, not an object" in str(error)
    assert ce.from_json(json.dumps({**REQUIRED_JSON, "datacontenttype": "text/xml", "data": "<a/>"})).data == "<a/>"
    assert ce.from_json(json.dumps({**REQUIRED_JSON, "datacontenttype": "model/gltf+json", "data": [1]})).data == [1]
    assert encode_error(ce.to_json, event(datacontenttype="text/xml", data={"a": 1})).field == "data"


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("a\nb", "U+000A"),
        ("\x00", "U+0000"),
        ("\x7f", "U+007F"),
        ("\x85", "U+0085"),
        ("\ufffe", "U+FFFE"),
        ("\ufdd0", "U+FDD0"),
        ("\U0010ffff", "U+10FFFF"),
        ("\ud800", "U+D800"),
    ],
)
def test_string_characters(text: str, bad: str) -> None:
    for mode in ("binary", "structured"):
        error = encode_error(ce.to_kafka, event(subject=text), mode)
        assert error.field == "subject" and bad in str(error)
    if bad != "U+D800":  # a lone surrogate is not UTF-8 and not JSON either: other rules catch it
        assert bad in str(decode_error(ce.from_kafka, binary(("ce_subject", text.encode()))))
        assert bad in str(
            decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "subject": text}, ensure_ascii=False))
        )
        assert bad in str(decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "ext": text})))
    fine = "é 🌎 \u200b \ue000 \u0378"  # format, private use and unassigned characters are allowed
    assert ce.from_kafka(ce.to_kafka(event(subject=fine))).subject == fine


def test_wrong_json_types_for_attributes() -> None:
    for name, value, message in [
        ("id", 5, "must be a JSON string, not a number"),
        ("source", ["/s"], "not an array"),
        ("time", 1522900584, "not a number"),
        ("subject", True, "not a boolean"),
    ]:
        error = decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, name: value}))
        assert error.field == name and message in str(error)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.5, "a number"),
        (5.0, "a number"),
        ({"a": 1}, "an object"),
        ([1], "an array"),
        (2**31, "out of range"),
        (-(2**31) - 1, "out of range"),
    ],
)
def test_bad_extension_values_in_json(value: object, message: str) -> None:
    error = decode_error(ce.from_json, json.dumps({**REQUIRED_JSON, "ext": value}))
    assert error.field == "ext" and message in str(error)


def test_extension_values_in_json() -> None:
    document = {**REQUIRED_JSON, "b": True, "i": -(2**31), "j": 2**31 - 1, "s": "x", "u": None}
    assert ce.from_json(json.dumps(document)).extensions == {"b": True, "i": -(2**31), "j": 2**31 - 1, "s": "x"}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (2**31, "out of range"),
        (1.5, "has type float"),
        (None, "has type NoneType"),
        ([1], "has type list"),
        (datetime.datetime(2018, 1, 1), "timezone-aware"),
    ],
)
def test_extension_values_that_cannot_be_written(value: object, message: str) -> None:
    for mode in ("binary", "structured"):
        error = encode_error(ce.to_kafka, event(extensions={"ext": value}), mode)
        assert error.field == "ext" and message in str(error)


def test_attribute_types_on_encode() -> None:
    for changes, name, message in [
        ({"id": 5}, "id", "must be a str, not int"),
        ({"source": b"/s"}, "source", "must be a str"),
        ({"datacontenttype": 1}, "datacontenttype", "must be a str"),
        ({"subject": ["x"]}, "subject", "must be a str"),
    ]:
        for mode in ("binary", "structured"):
            error = encode_error(ce.to_kafka, event(**changes), mode)
            assert error.field == name and message in str(error)


def test_header_values() -> None:
    error = decode_error(ce.from_kafka, binary(("ce_subject", None)))
    assert error.field == "subject" and "null value" in str(error)
    error = decode_error(ce.from_kafka, binary(("ce_subject", b"\xff")))
    assert error.field == "subject" and "not UTF-8" in str(error)
    error = decode_error(ce.from_kafka, binary(("ce_ext", b"\xc3")))
    assert error.field == "ext" and "not UTF-8" in str(error)
    error = decode_error(ce.from_kafka, binary(("ce_", b"x")))
    assert error.field == "" and "not a valid attribute name" in str(error)


def test_json_data_helper() -> None:
    assert event(data=b'{"a":1}', datacontenttype="application/json").json_data() == {"a": 1}
    assert event(data=b'"s"').json_data() == "s"  # no content type: the caller asks for JSON
    assert event(data={"a": 1}).json_data() == {"a": 1}
    assert event().json_data() is ce.MISSING
    error = decode_error(event(data=b"<a/>", datacontenttype="application/xml").json_data)
    assert error.field == "data" and "does not declare JSON" in str(error)
    error = decode_error(event(data=b"{", datacontenttype="application/json").json_data)
    assert error.field == "data" and "malformed JSON" in str(error)


def test_binary_and_structured_agree() -> None:
    e = event(
        datacontenttype="text/plain; charset=utf-8",
        dataschema="urn:x",
        subject="s",
        time=T0.replace(microsecond=5),
        partitionkey="p",
        extensions={"ext": "v"},
        data="héllo",
    )
    from_binary = ce.from_kafka(ce.to_kafka(e))
    from_structured = ce.from_kafka(ce.to_kafka(e, "structured"))
    assert from_structured == e
    assert from_binary == ce.CloudEvent(**{**e.to_dict(), "data": "héllo".encode()})
    # The bytes go structured as data_base64 (json-format 3.1.1: Binary data first), and come back as the same bytes.
    assert ce.from_kafka(ce.to_kafka(from_binary, "structured")) == from_binary


def test_zero_length_and_large_values() -> None:
    big = bytes(range(256)) * 4096
    e = event(data=big, datacontenttype="application/octet-stream")
    assert ce.from_kafka(ce.to_kafka(e)).data == big
    assert ce.from_kafka(ce.to_kafka(e, "structured")).data == big
    assert json.loads(ce.to_json(e))["data_base64"] == base64.b64encode(big).decode()


# --- property: any valid event survives both modes --------------------------------------------------------------

_DECLARED = {
    "specversion",
    "id",
    "source",
    "type",
    "datacontenttype",
    "dataschema",
    "subject",
    "time",
    "partitionkey",
    "data",
}
_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cn")), min_size=1, max_size=12)
_TIMES = st.datetimes(
    min_value=datetime.datetime(1, 1, 2),
    max_value=datetime.datetime(9999, 12, 30),
    timezones=st.sampled_from([UTC, datetime.timezone(datetime.timedelta(hours=-9, minutes=-30))]),
)
_EXTENSION_VALUES = st.one_of(st.booleans(), st.integers(-(2**31), 2**31 - 1), _TEXT, st.binary(max_size=8), _TIMES)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def events(draw: st.DrawFn) -> ce.CloudEvent:
    content_type = draw(
        st.sampled_from(
            [
                None,
                "application/json",
                "text/plain; charset=utf-8",
                "application/octet-stream",
                "application/vnd.x+json",
            ]
        )
    )
    if content_type is None:
        data = draw(st.one_of(st.just(ce.MISSING), _JSON, st.binary(max_size=16)))
    elif content_type in ("application/json", "application/vnd.x+json"):  # bytes under a JSON type: JSON text
        separators = st.sampled_from([(",", ":"), (", ", ": ")])
        text = st.builds(lambda v, s: json.dumps(v, separators=s, ensure_ascii=False).encode(), _JSON, separators)
        data = draw(st.one_of(st.just(ce.MISSING), _JSON, text))
    elif content_type.startswith("text/"):
        data = draw(st.one_of(st.just(ce.MISSING), _TEXT, st.binary(max_size=16)))
    else:
        data = draw(st.one_of(st.just(ce.MISSING), st.binary(max_size=16)))
    names = st.from_regex(r"[a-z0-9]{1,10}", fullmatch=True).filter(lambda n: n not in _DECLARED)
    return ce.CloudEvent(
        id=draw(_TEXT),
        source=draw(
            st.sampled_from(["/s", "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66", "https://x.example/a?b#c"])
        ),
        type=draw(_TEXT),
        datacontenttype=content_type,
        dataschema=draw(st.sampled_from([None, "https://x.example/schema#/a"])),
        subject=draw(st.none() | _TEXT),
        time=draw(st.none() | _TIMES),
        partitionkey=draw(st.none() | _TEXT),
        extensions=draw(st.dictionaries(names, _EXTENSION_VALUES, max_size=4)),
        data=data,
    )


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, datetime.datetime):
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    return str(value)


@settings(max_examples=300, deadline=None)
@given(events())
def test_every_valid_event_survives_both_modes(e: ce.CloudEvent) -> None:
    structured = ce.from_kafka(ce.to_kafka(e, "structured"))
    json_extensions = {k: (v if isinstance(v, bool | int | str) else _as_text(v)) for k, v in e.extensions.items()}
    json_bytes = isinstance(e.data, bytes) and (e.datacontenttype or "").endswith("json")
    data = json.loads(e.data) if json_bytes else e.data  # JSON bytes come back as their JSON value
    assert structured == ce.CloudEvent(**{**e.to_dict(), "extensions": json_extensions, "data": data})
    assert ce.decode(ce.encode(e)) == structured
    binary_mode = ce.from_kafka(ce.to_kafka(e))
    assert binary_mode.extensions == {k: _as_text(v) for k, v in e.extensions.items()}
    assert (
        binary_mode.id,
        binary_mode.source,
        binary_mode.type,
        binary_mode.subject,
        binary_mode.time,
        binary_mode.partitionkey,
        binary_mode.dataschema,
    ) == (e.id, e.source, e.type, e.subject, e.time, e.partitionkey, e.dataschema)
    if e.data is ce.MISSING or isinstance(e.data, bytes):
        assert binary_mode.data == e.data and binary_mode.datacontenttype == e.datacontenttype
    elif e.datacontenttype is not None and e.datacontenttype.startswith("text/"):
        assert binary_mode.data == e.data.encode()
    else:
        assert binary_mode.json_data() == e.data
        assert binary_mode.datacontenttype == (e.datacontenttype or "application/json")


# --- hostile input: only DecodeError, whatever arrives ----------------------------------------------------------

_SEED_RECORDS = [
    ce.to_kafka(event(time=T0, datacontenttype="application/json", data={"a": [1, "é"]}, extensions={"x": 1}), mode)
    for mode in ("binary", "structured")
]
_HEADER_NAMES = st.sampled_from(["ce_id", "CE_TIME", "content-type", "ce_", "ce_x", "ce_data", "Content-Type", "x"])


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from(_SEED_RECORDS),
    st.lists(st.tuples(st.one_of(_HEADER_NAMES, st.text(max_size=6)), st.none() | st.binary(max_size=40)), max_size=4),
    st.none() | st.binary(max_size=64),
    st.integers(0, 400),
    st.integers(0, 255),
)
def test_hostile_records_raise_only_decode_errors(seed, extra_headers, value, position, byte) -> None:
    mutated_value = seed.value
    if mutated_value and position < len(mutated_value):
        mutated_value = mutated_value[:position] + bytes([byte]) + mutated_value[position + 1 :]
    for record in (
        ce.KafkaRecord(None, mutated_value, [*seed.headers, *extra_headers]),
        ce.KafkaRecord(None, value, [*extra_headers, *seed.headers]),
        ce.KafkaRecord(None, value, extra_headers),
    ):
        try:
            ce.from_kafka(record)
        except ce.DecodeError:
            pass


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=60).map(str.encode))
def test_hostile_json_raises_only_decode_errors(data: bytes) -> None:
    for text in (data, b'{"specversion":"1.0","id":"1","source":"/s","type":"t",' + data):
        try:
            ce.from_json(text)
        except ce.DecodeError:
            pass
    reader = ce.Reader(max_message=128)
    try:
        reader.feed(data + b"\n" + data)
    except ce.DecodeError:
        pass
