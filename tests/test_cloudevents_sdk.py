"""Interop with the real peer: the CloudEvents Python SDK 2.2.0 (``cloudevents.core.bindings.kafka``).

Round trips both ways over a corpus (text, JSON and binary data; extensions; partitionkey; times with offsets and
fractions; unicode), in both content modes: we write, the SDK reads; the SDK writes, we read.

Where the SDK deviates from the specification we follow the specification; each such place is pinned below in a
test named ``test_sdk_deviation_...`` whose comment says what the spec says.  The assertions on the SDK's side record
what it does today, so an SDK that changes shows up here.  The ids in the comments (D01..D45) number the SDK
behaviours demonstrated in the project's research notes on CloudEvents.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from streamcodecs import cloudevents as ce

sdk = pytest.importorskip("cloudevents.core.bindings.kafka", reason="the CloudEvents Python SDK 2.x is not installed")
from cloudevents.core.bindings.kafka import KafkaMessage  # noqa: E402
from cloudevents.core.formats.json import JSONFormat  # noqa: E402
from cloudevents.core.v1.event import CloudEvent as SdkEvent  # noqa: E402

pytestmark = pytest.mark.peer

UTC = datetime.UTC
IST = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
PST = datetime.timezone(datetime.timedelta(hours=-8))
T0 = datetime.datetime(2018, 4, 5, 3, 56, 24, tzinfo=UTC)


@dataclass
class Case:
    name: str
    attributes: dict[str, Any]  # CloudEvents attribute names; time is always set (the SDK makes one up otherwise)
    data: Any = None  # None: no data
    extensions: dict[str, str] = field(default_factory=dict)

    def ours(self) -> ce.CloudEvent:
        values = dict(self.attributes)
        return ce.CloudEvent(
            **values, extensions=dict(self.extensions), data=ce.MISSING if self.data is None else self.data
        )

    def theirs(self) -> SdkEvent:
        return SdkEvent({"specversion": "1.0", **self.attributes, **self.extensions}, self.data)


def base(**changes: Any) -> dict[str, Any]:
    return {
        "id": "A234-1234-1234",
        "source": "/mycontext/subcontext",
        "type": "com.example.someevent",
        "time": T0,
        **changes,
    }


CORPUS = [
    Case("text", base(datacontenttype="text/plain; charset=utf-8", subject="Ünïcødé ✓"), "héllo wörld 🌎\n"),
    Case("json-object", base(datacontenttype="application/json"), {"a": [1, 2.5, None, True], "é": "🌎", "n": {}}),
    Case("json-suffix", base(datacontenttype="application/vnd.example+json"), {"k": "v"}),
    Case("binary", base(datacontenttype="application/octet-stream"), bytes(range(256))),
    Case("binary-no-type", base(), b"\x00\x01\xfe\xff"),
    Case(
        "extensions",
        base(datacontenttype="text/plain"),
        "x",
        {"comexampleextension1": "value", "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
    ),
    Case("partitionkey", base(datacontenttype="application/json", partitionkey="user-1234"), {"n": 1}),
    Case("time-offset-fraction", base(time=datetime.datetime(2018, 4, 5, 17, 31, 0, 123456, tzinfo=IST))),
    Case(
        "time-negative-offset",
        base(
            time=datetime.datetime(1999, 12, 31, 23, 59, 59, 5, tzinfo=PST),
            dataschema="https://example.com/schemas/v1.json#/definitions/e",
            datacontenttype="application/json",
        ),
        {"ok": False},
    ),
    Case(
        "unicode",
        base(
            source="/sensors/%C3%A9t%C3%A9",
            subject="日本語 🌸",
            type="com.example.ünïcode",
            datacontenttype="text/plain; charset=utf-8",
        ),
        "日本語テキスト 🌸",
    ),
    Case("no-data-with-type", base(datacontenttype="application/json")),
]
MODES = ("binary", "structured")


def sdk_message(record: ce.KafkaRecord) -> KafkaMessage:
    return KafkaMessage(headers={name: value for name, value in record.headers}, key=record.key, value=record.value)


def our_record(message: KafkaMessage) -> ce.KafkaRecord:
    key = message.key.encode() if isinstance(message.key, str) else message.key
    return ce.KafkaRecord(key, message.value, list(message.headers.items()))


def expected_attributes(case: Case) -> dict[str, Any]:
    return {"specversion": "1.0", **case.attributes, **case.extensions}


def same_data(ours: Any, theirs: Any) -> bool:
    """Whether our data and the SDK's are the same payload, whatever representation each side chose."""
    if isinstance(ours, bytes) and not isinstance(theirs, bytes):
        ours = ours.decode() if isinstance(theirs, str) else json.loads(ours)
    return ours == theirs


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CORPUS, ids=lambda c: c.name)
def test_we_write_the_sdk_reads(case: Case, mode: str) -> None:
    record = ce.to_kafka(case.ours(), mode)
    theirs = sdk.from_kafka_event(sdk_message(record))
    assert theirs.get_attributes() == expected_attributes(case)
    if case.data is None:
        assert theirs.get_data() is None
    else:
        assert same_data(case.data, theirs.get_data())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CORPUS, ids=lambda c: c.name)
def test_the_sdk_writes_we_read(case: Case, mode: str) -> None:
    write = sdk.to_binary_event if mode == "binary" else sdk.to_structured_event
    message = write(case.theirs())
    ours = ce.from_kafka(our_record(message))
    assert ce.content_mode(our_record(message)) == mode
    expected = case.ours()
    assert (
        ours.id,
        ours.source,
        ours.type,
        ours.datacontenttype,
        ours.dataschema,
        ours.subject,
        ours.time,
        ours.partitionkey,
        ours.extensions,
    ) == (
        expected.id,
        expected.source,
        expected.type,
        expected.datacontenttype,
        expected.dataschema,
        expected.subject,
        expected.time,
        expected.partitionkey,
        expected.extensions,
    )
    assert ours.time.utcoffset() == case.attributes["time"].utcoffset()
    if case.data is None and mode == "binary":
        # Pinned deviation (D06): the SDK writes an empty value for "no data"; the spec (binding 3.2.2, 1.0.3-wip)
        # maps no data to a null value, and an empty value is zero-length data, which is what we read.
        assert message.value == b"" and ours.data == b""
    elif case.data is None:
        assert ours.data is ce.MISSING
    else:
        assert same_data(ours.data, case.data)


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: c.name)
def test_round_trip_through_the_sdk_and_back(case: Case) -> None:
    """ours -> SDK (binary) -> SDK re-encodes (structured) -> ours: the attributes survive."""
    theirs = sdk.from_kafka_event(sdk_message(ce.to_kafka(case.ours())))
    back = ce.from_kafka(our_record(sdk.to_structured_event(theirs)))
    expected = case.ours()
    assert (back.id, back.source, back.type, back.time, back.subject, back.extensions) == (
        expected.id,
        expected.source,
        expected.type,
        expected.time,
        expected.subject,
        expected.extensions,
    )


def test_same_bytes_for_the_same_binary_headers() -> None:
    """For attributes the SDK writes canonically (strings, UTC or whole-minute times), its headers and ours agree."""
    case = CORPUS[0]
    ours = ce.to_kafka(case.ours())
    theirs = sdk.to_binary_event(case.theirs(), key_mapper=lambda e: None)
    assert dict(ours.headers) == theirs.headers
    assert ours.value == theirs.value


# --- pinned deviations: the SDK does X, the spec says Y, we do Y ----------------------------------------------------

REQ = {"ce_specversion": b"1.0", "ce_id": b"1", "ce_source": b"/s", "ce_type": b"t"}


def test_sdk_deviation_invents_attributes_on_decode() -> None:
    # D01: the SDK fills a missing time (now) and a missing id (a UUID) when decoding; the spec makes id REQUIRED
    # and time OPTIONAL, and a receiver has nothing to fill them from. We invent nothing and reject a missing id.
    message = KafkaMessage(headers={"ce_source": b"/s", "ce_type": b"t", "ce_specversion": b"1.0"}, key=None, value=b"")
    assert sdk.from_binary_event(message).get_id()  # made up
    with pytest.raises(ce.DecodeError, match="'id' is missing"):
        ce.from_kafka(our_record(message))
    message = KafkaMessage(headers=REQ, key=None, value=None)
    assert sdk.from_binary_event(message).get_time() is not None  # made up
    assert ce.from_kafka(our_record(message)).time is None


def test_sdk_deviation_key_becomes_partitionkey() -> None:
    # D02-D04: the SDK copies the record key into a partitionkey attribute, even over a transmitted one; the binding
    # (3.1) says a key mapper MUST NOT modify the event or add attributes from outside it. We leave the key alone.
    message = KafkaMessage(headers={**REQ, "ce_partitionkey": b"pk-1"}, key=b"user-key", value=b"")
    assert sdk.from_binary_event(message).get_extension("partitionkey") == "user-key"
    assert ce.from_kafka(our_record(message)).partitionkey == "pk-1"


def test_sdk_deviation_partitionkey_becomes_the_key_by_default() -> None:
    # D05: the SDK maps partitionkey to the record key unless told otherwise; the binding makes the mapping an
    # opt-in. Our key is the caller's; key_mapper="partitionkey" opts in.
    case = CORPUS[6]
    assert sdk.to_binary_event(case.theirs()).key == "user-1234"
    assert ce.to_kafka(case.ours()).key is None
    assert ce.to_kafka(case.ours(), key_mapper="partitionkey").key == b"user-1234"


def test_sdk_deviation_empty_value_is_no_data() -> None:
    # D07 (and D06 above): the SDK reads an empty value as no data; an empty value is zero-length data, and no data
    # is a null value (binding 3.2.2, 1.0.3-wip).
    message = KafkaMessage(headers={**REQ, "content-type": b"application/octet-stream"}, key=None, value=b"")
    assert sdk.from_binary_event(message).get_data() is None
    assert ce.from_kafka(our_record(message)).data == b""
    assert ce.to_kafka(ce.from_kafka(our_record(message))).value == b""
    assert ce.to_kafka(ce.CloudEvent(id="1", source="/s", type="t")).value is None


def test_sdk_deviation_mode_detection() -> None:
    # D08-D10: the SDK picks binary mode when any ce_ header is present and structured otherwise; the binding
    # (section 3) decides by the content-type prefix application/cloudevents, case-insensitively.
    body = b'{"specversion":"1.0","id":"1","source":"/s","type":"t","datacontenttype":"text/plain","data":"hi"}'
    message = KafkaMessage(
        headers={"content-type": b"APPLICATION/CLOUDEVENTS+JSON; charset=UTF-8", "ce_id": b"1"}, key=None, value=body
    )
    with pytest.raises(Exception, match="source"):
        sdk.from_kafka_event(message)
    assert ce.from_kafka(our_record(message)).data == "hi"
    plain = KafkaMessage(headers={"content-type": b"text/plain"}, key=None, value=b"hello")
    with pytest.raises(json.JSONDecodeError):
        sdk.from_kafka_event(plain)
    with pytest.raises(ce.DecodeError, match="'specversion' is missing"):
        ce.from_kafka(our_record(plain))


def test_sdk_deviation_extension_values_not_canonical() -> None:
    # D11, D12, D36: the SDK writes a Boolean as "True", a Binary as a Python repr and an Integer outside int32; the
    # type system's canonical strings are "true", base64, and -2^31..2^31-1. A header carries no type, so we read
    # the SDK's "True" back as the String "True".
    written = sdk.to_binary_event(SdkEvent({**base(), "flag": True, "blob": b"\x01\x02", "big": 2**40}))
    assert (written.headers["ce_flag"], written.headers["ce_blob"], written.headers["ce_big"]) == (
        b"True",
        b"b'\\x01\\x02'",
        b"1099511627776",
    )
    ours = ce.to_kafka(ce.CloudEvent(id="1", source="/s", type="t", extensions={"flag": True, "blob": b"\x01\x02"}))
    assert dict(ours.headers)["ce_flag"] == b"true" and dict(ours.headers)["ce_blob"] == b"AQI="
    with pytest.raises(ce.EncodeError, match="out of range"):
        ce.to_kafka(ce.CloudEvent(id="1", source="/s", type="t", extensions={"big": 2**40}))
    assert ce.from_kafka(our_record(written)).extensions["flag"] == "True"


def test_sdk_deviation_json_data_in_binary_mode() -> None:
    # D14-D16, D41: in binary mode the SDK writes a JSON array or boolean as a Python repr, JSON null as an empty
    # value, and a JSON string without its quotes; json-format 3.1.1 and the binding make the value the JSON text.
    def value(data: Any) -> bytes:
        return sdk.to_binary_event(SdkEvent({**base(), "datacontenttype": "application/json"}, data)).value

    assert (value(["Hello", "x"]), value(True), value("I'm just a string")) == (
        b"['Hello', 'x']",
        b"True",
        b"I'm just a string",
    )
    ours = {
        d if not isinstance(d, list) else "list": ce.to_kafka(
            ce.CloudEvent(id="1", source="/s", type="t", datacontenttype="application/json", data=d)
        ).value
        for d in (["Hello", "x"], True, "I'm just a string")
    }
    assert ours == {"list": b'["Hello","x"]', True: b"true", "I'm just a string": b'"I\'m just a string"'}
    # What the SDK wrote for a list is not JSON: json_data() says so.
    message = sdk.to_binary_event(SdkEvent({**base(), "datacontenttype": "application/json"}, ["Hello", "x"]))
    with pytest.raises(ce.DecodeError, match="malformed JSON"):
        ce.from_kafka(our_record(message)).json_data()


def test_sdk_deviation_binary_data_parsed_without_content_type() -> None:
    # D17, D45: with no content-type the SDK parses the value as JSON (and then re-writes it with other bytes); the
    # binding calls binary-mode data opaque, and json-format's "absent means JSON" is for the JSON format only. Our
    # data stays the bytes; json_data() parses it when asked.
    message = KafkaMessage(headers=REQ, key=None, value=b'{ "xyz": 123 }')
    assert sdk.from_binary_event(message).get_data() == {"xyz": 123}
    ours = ce.from_kafka(our_record(message))
    assert ours.data == b'{ "xyz": 123 }' and ours.json_data() == {"xyz": 123}
    assert ce.to_kafka(ours).value == b'{ "xyz": 123 }'


def test_sdk_deviation_json_content_type_matching() -> None:
    # D18, D19: the SDK's JSON test is case-sensitive and only for application/ and text/; json-format 3.1.1 says
    # */json and */*+json, and media types compare case-insensitively.
    for content_type in (b"APPLICATION/JSON", b"model/gltf+json", b"application/json ; charset=utf-8"):
        message = KafkaMessage(headers={**REQ, "content-type": content_type}, key=None, value=b'{"a":1}')
        assert sdk.from_binary_event(message).get_data() == '{"a":1}'  # left a string
        assert ce.from_kafka(our_record(message)).json_data() == {"a": 1}


def test_sdk_deviation_null_members() -> None:
    # D21, D22, D44, D23: json-format 2.2 says a null attribute is unset; the SDK rejects "subject": null, crashes
    # on "time": null, keeps an extension with value None, and loses an explicit "data": null.
    structured = {"content-type": b"application/cloudevents+json"}

    def message(document: dict[str, Any]) -> KafkaMessage:
        return KafkaMessage(headers=structured, key=None, value=json.dumps(document).encode())

    required = {"specversion": "1.0", "id": "1", "source": "/s", "type": "t"}
    with pytest.raises(Exception, match="subject"):
        sdk.from_structured_event(message({**required, "subject": None}))
    with pytest.raises(TypeError):
        sdk.from_structured_event(message({**required, "time": None}))
    assert sdk.from_structured_event(message({**required, "unset": None})).get_attributes()["unset"] is None
    assert sdk.from_structured_event(message({**required, "data": None})).get_data() is None
    ours = ce.from_kafka(our_record(message({**required, "subject": None, "time": None, "unset": None, "data": None})))
    assert (ours.subject, ours.time, ours.extensions, ours.data) == (None, None, {}, None)
    assert ce.from_kafka(our_record(message(required))).data is ce.MISSING


def test_sdk_deviation_data_and_data_base64() -> None:
    # D24: data and data_base64 are mutually exclusive (json-format 3.1); the SDK mistakes data_base64 for an
    # extension and fails on its name instead.
    body = b'{"specversion":"1.0","id":"1","source":"/s","type":"t","data":"a","data_base64":"Yg=="}'
    message = KafkaMessage(headers={"content-type": b"application/cloudevents+json"}, key=None, value=body)
    with pytest.raises(Exception, match="data_base64"):
        sdk.from_structured_event(message)
    with pytest.raises(ce.DecodeError, match="mutually exclusive"):
        ce.from_kafka(our_record(message))


def test_sdk_deviation_type_system_not_checked() -> None:
    # D25-D27, D29, D38, D43: the SDK accepts float and object extensions, a source that is no URI-reference, a
    # relative dataschema, control characters in strings, times that are not RFC 3339, base64 with foreign
    # characters, and an extension name with a trailing newline. Each breaks a MUST of the type system; we reject.
    cases = [
        {"ce_source": b"not a uri"},
        {"ce_dataschema": b"relative/schema"},
        {"ce_subject": b"a\nb\x00"},
        {"ce_time": b"2018-04-05 03:56:24Z"},
        {"ce_time": b"20180405T035624Z"},
        {"ce_abc\n": b"v"},
    ]
    for extra in cases:
        message = KafkaMessage(headers={**REQ, **extra}, key=None, value=b"")
        sdk.from_binary_event(message)  # accepted
        with pytest.raises(ce.DecodeError):
            ce.from_kafka(our_record(message))
    structured = {"content-type": b"application/cloudevents+json"}
    for member in ('"ext1":1.5', '"ext2":{"a":1}', '"data_base64":"Y*W I="'):
        body = b'{"specversion":"1.0","id":"1","source":"/s","type":"t",' + member.encode() + b"}"
        message = KafkaMessage(headers=structured, key=None, value=body)
        sdk.from_structured_event(message)  # accepted
        with pytest.raises(ce.DecodeError):
            ce.from_kafka(our_record(message))


def test_sdk_deviation_ce_datacontenttype_header() -> None:
    # D32: the SDK reads a ce_datacontenttype header as datacontenttype; the HTTP binding says that header MUST
    # NOT be there (the Kafka binding is silent; the lead's decision: rejected).
    message = KafkaMessage(headers={**REQ, "ce_datacontenttype": b"text/plain"}, key=None, value=b"")
    assert sdk.from_binary_event(message).get_datacontenttype() == "text/plain"
    with pytest.raises(ce.DecodeError, match="ce_datacontenttype"):
        ce.from_kafka(our_record(message))


def test_sdk_structured_output_is_valid_for_us() -> None:
    # D33: the SDK's structured content-type has no charset and its JSON has ", " separators and \u escapes; all
    # valid, so nothing to pin on our side but that we read it. Our own output is compact and UTF-8.
    case = CORPUS[0]
    message = sdk.to_structured_event(case.theirs())
    assert message.headers == {"content-type": b"application/cloudevents+json"}
    assert b'", "' in message.value and b"\\u" in message.value
    assert ce.from_kafka(our_record(message)).subject == "Ünïcødé ✓"
    ours = ce.to_kafka(case.ours(), "structured")
    assert b'", "' not in ours.value and "Ünïcødé".encode() in ours.value


def test_sdk_deviation_errors_are_not_cloudevents_errors() -> None:
    # D34, D35: a header that is not UTF-8 and a structured value that is not a JSON object make the SDK raise
    # UnicodeDecodeError and AttributeError; we raise our DecodeError (a ValueError) naming the problem.
    message = KafkaMessage(headers={**REQ, "ce_subject": b"\xff"}, key=None, value=b"")
    with pytest.raises(UnicodeDecodeError):
        sdk.from_binary_event(message)
    with pytest.raises(ce.DecodeError, match="not UTF-8"):
        ce.from_kafka(our_record(message))
    message = KafkaMessage(headers={"content-type": b"application/cloudevents+json"}, key=None, value=b"[]")
    with pytest.raises(AttributeError):
        sdk.from_structured_event(message)
    with pytest.raises(ce.DecodeError, match="JSON object"):
        ce.from_kafka(our_record(message))


def test_sdk_deviation_non_json_data_written_as_repr() -> None:
    # D39: a dict under a non-JSON content type becomes a Python repr in the SDK's structured data; json-format
    # 3.1.1 makes non-JSON data a string, and a repr is not the data. We refuse to write it.
    written = sdk.to_structured_event(SdkEvent({**base(), "datacontenttype": "text/plain"}, {"a": 1}))
    assert json.loads(written.value)["data"] == "{'a': 1}"
    with pytest.raises(ce.EncodeError, match="non-JSON content type"):
        ce.to_kafka(
            ce.CloudEvent(id="1", source="/s", type="t", datacontenttype="text/plain", data={"a": 1}), "structured"
        )


def test_json_format_is_interchangeable() -> None:
    """The SDK's JSONFormat writes what we read, and reads what we write (no data_base64 confusion for bytes)."""
    fmt = JSONFormat()
    for case in CORPUS:
        ours = ce.from_json(fmt.write(case.theirs()))
        assert ours.id == case.attributes["id"] and ours.time == case.attributes["time"]
        theirs = fmt.read(None, ce.to_json(case.ours()))
        assert theirs.get_attributes() == expected_attributes(case)
        if isinstance(case.data, bytes):
            assert theirs.get_data() == case.data


# --- binary -> structured: bytes under a JSON content type (issue 19) ----------------------------------------------

KAFKA_EXAMPLE = {  # kafka-protocol-binding.md 3.2.3, the binary-mode example
    "ce_specversion": b"1.0",
    "ce_type": b"com.example.someevent",
    "ce_source": b"/mycontext/subcontext",
    "ce_id": b"1234-1234-1234",
    "ce_time": b"2018-04-05T03:56:24Z",
    "content-type": b"application/json",
}


def _binary_to_structured(headers: dict[str, bytes], value: bytes) -> tuple[bytes, bytes]:
    """The structured value the SDK writes for a binary record it read, and ours."""
    message = KafkaMessage(headers=headers, key=None, value=value)
    theirs = sdk.to_structured_event(sdk.from_binary_event(message)).value
    ours = ce.to_kafka(ce.from_kafka(our_record(message)), "structured").value
    assert ours is not None
    return theirs, ours


@pytest.mark.parametrize(
    ("content_type", "value"),
    [
        (b"application/json", b'{"message": "Hello World!"}'),
        (b"application/json", b'[1, 2.5, null, true, "\xc3\xa9"]'),
        (b"application/json", b'"I\'m just a string"'),
        (b"application/json; charset=utf-8", b"1.5"),
        (b"text/json", b'{"a": {"b": []}}'),
    ],
)
def test_binary_json_data_in_structured_mode_is_what_the_sdk_writes(content_type: bytes, value: bytes) -> None:
    """The SDK parses JSON data on binary decode and writes the value as ``data``; so do we, from the bytes: the
    same JSON document (the SDK's spacing differs)."""
    theirs, ours = _binary_to_structured({**KAFKA_EXAMPLE, "content-type": content_type}, value)
    assert json.loads(ours) == json.loads(theirs)
    assert json.loads(ours)["data"] == json.loads(value)
    read = sdk.from_kafka_event(
        KafkaMessage(headers={"content-type": b"application/cloudevents+json"}, key=None, value=ours)
    )
    assert read.get_data() == json.loads(value)  # the SDK reads our data member as the JSON value


def test_sdk_deviation_text_bytes_written_as_a_string() -> None:
    # The SDK decodes text/plain bytes of a binary record into a str, and writes it as a `data` string. json-format
    # 3.1.1 writes data of runtime type Binary (bytes, as binary mode carries them) as `data_base64`, and so does the
    # Java SDK by default (JsonFormat without forceStringSerialization); we do the same. Both decode to the text.
    theirs, ours = _binary_to_structured({**KAFKA_EXAMPLE, "content-type": b"text/plain"}, b"hi there")
    assert json.loads(theirs)["data"] == "hi there"
    assert json.loads(ours)["data_base64"] == "aGkgdGhlcmU=" and "data" not in json.loads(ours)
    read = sdk.from_kafka_event(
        KafkaMessage(headers={"content-type": b"application/cloudevents+json"}, key=None, value=ours)
    )
    assert read.get_data() == b"hi there"


def test_sdk_deviation_invalid_json_data_written_as_a_string() -> None:
    # Bytes that are not JSON under application/json: the SDK keeps them as a str and writes a JSON string, which a
    # reader takes for the JSON value "not json" (json-format 3.1.2 forbids parsing it further). We refuse to write.
    message = KafkaMessage(headers=KAFKA_EXAMPLE, key=None, value=b"not json")
    assert json.loads(sdk.to_structured_event(sdk.from_binary_event(message)).value)["data"] == "not json"
    with pytest.raises(ce.EncodeError, match="not one JSON value") as failure:
        ce.to_kafka(ce.from_kafka(our_record(message)), "structured")
    assert failure.value.field == "data"
