"""CloudEvents over Kafka: streamcodecs.cloudevents against the CloudEvents Python SDK 2.2.0 (its Kafka binding).

One small JSON event (id, source, type, subject, time, datacontenttype application/json, a ``traceparent``
extension as distributed tracing adds to every event, a three-member object as data), in binary and structured
content mode, each direction.  Both sides decode the very same record bytes.

Encoding is also measured against its floor (issue 30): a check-free writer of the same record, which lays each
attribute that is set on the record as it is (no validation of any kind) and has msgspec write the JSON, so it
writes the very same bytes; ``to_kafka`` may cost at most 1.3x it.

What each side does differs, and the groups say so:

- streamcodecs validates every attribute (URI-reference, media type, RFC 3339, string characters, names) on both
  directions; the SDK checks little (its missing-attribute and type checks).
- In binary mode our decoder keeps the data as bytes (the lead's decision; :meth:`CloudEvent.json_data` parses it)
  while the SDK parses the JSON: the group "from_kafka binary + JSON data" adds our ``json_data()`` so that both
  sides end with a dict.
- streamcodecs remembers source, dataschema and media type values that passed validation (they repeat from event to
  event).  The case "streamcodecs, nothing remembered" empties those sets before every call: the cost when every
  event brings new values.
"""

from __future__ import annotations

import datetime

import msgspec
from run import Case
from streamcodecs import cloudevents as ce
from streamcodecs._runtime import kafkawire as _kw

TARGET = 3.0
TIME = datetime.datetime(2018, 4, 5, 17, 31, 0, tzinfo=datetime.UTC)
ATTRIBUTES = {
    "id": "A234-1234-1234",
    "source": "https://example.com/sensors/tn-1234567/alerts",
    "type": "com.example.sensor.reading",
    "subject": "temperature",
    "datacontenttype": "application/json",
}
DATA = {"temperature": 21.5, "unit": "C", "ok": True}
EXTENSIONS = {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}
FLOOR = "check-free writer"


ENCODE_TARGETS = {"binary": 3.8, "structured": 5.0}
"""Issue 30: to_kafka within 1.3x of a check-free writer of the same record, which is the SDK's time / 5.0 (binary)
and / 14.6 (structured) as measured when the issue was filed."""

_JSON = msgspec.json.Encoder().encode
_STRUCTURED_HEADERS = [("content-type", b"application/cloudevents+json; charset=UTF-8")]


def floor_binary(event: ce.CloudEvent) -> ce.KafkaRecord:
    """The binary-mode record of an event with JSON data, written with no check at all (the floor)."""
    headers = [
        ("ce_specversion", b"1.0"),
        ("ce_id", event.id.encode()),
        ("ce_source", event.source.encode()),
        ("ce_type", event.type.encode()),
    ]
    if event.datacontenttype is not None:
        headers.append(("content-type", event.datacontenttype.encode()))
    if event.dataschema is not None:
        headers.append(("ce_dataschema", event.dataschema.encode()))
    if event.subject is not None:
        headers.append(("ce_subject", event.subject.encode()))
    if event.time is not None:
        headers.append(("ce_time", _JSON(event.time)[1:-1]))
    if event.partitionkey is not None:
        headers.append(("ce_partitionkey", event.partitionkey.encode()))
    for name, value in event.extensions.items():
        headers.append(("ce_" + name, value.encode()))
    return ce.KafkaRecord(None, _JSON(event.data), headers)


def floor_structured(event: ce.CloudEvent) -> ce.KafkaRecord:
    """The structured-mode record of an event with JSON data, written with no check at all (the floor)."""
    document = {"specversion": "1.0", "id": event.id, "source": event.source, "type": event.type}
    if event.datacontenttype is not None:
        document["datacontenttype"] = event.datacontenttype
    if event.dataschema is not None:
        document["dataschema"] = event.dataschema
    if event.subject is not None:
        document["subject"] = event.subject
    if event.time is not None:
        document["time"] = event.time
    if event.partitionkey is not None:
        document["partitionkey"] = event.partitionkey
    document.update(event.extensions)
    document["data"] = event.data
    return ce.KafkaRecord(None, _JSON(document), list(_STRUCTURED_HEADERS))


def _forget() -> None:
    _kw.VALID_URI.clear()
    _kw.VALID_URI_REFERENCE.clear()
    _kw.VALID_MEDIA_TYPE.clear()


def cases() -> list[Case]:
    from cloudevents.core.bindings import kafka as sdk
    from cloudevents.core.bindings.kafka import KafkaMessage
    from cloudevents.core.v1.event import CloudEvent as SdkEvent

    ours = ce.CloudEvent(
        id=ATTRIBUTES["id"],
        source=ATTRIBUTES["source"],
        type=ATTRIBUTES["type"],
        subject=ATTRIBUTES["subject"],
        datacontenttype=ATTRIBUTES["datacontenttype"],
        time=TIME,
        data=DATA,
        extensions=dict(EXTENSIONS),
    )
    theirs = SdkEvent({"specversion": "1.0", **ATTRIBUTES, "time": TIME, **EXTENSIONS}, dict(DATA))

    records = {mode: ce.to_kafka(ours, mode) for mode in ("binary", "structured")}
    messages = {mode: KafkaMessage(headers=dict(r.headers), key=r.key, value=r.value) for mode, r in records.items()}
    # Sanity: both sides read both records to the same attributes before anything is timed.
    for mode, record in records.items():
        decoded, sdk_decoded = ce.from_kafka(record), sdk.from_kafka_event(messages[mode])
        assert decoded.id == sdk_decoded.get_id() and decoded.time == sdk_decoded.get_time(), mode
        assert (decoded.json_data() if mode == "binary" else decoded.data) == sdk_decoded.get_data(), mode

    floors = {"binary": floor_binary, "structured": floor_structured}
    for mode, floor in floors.items():
        assert floor(ours) == records[mode], mode
    sdk_encoders = {"binary": sdk.to_binary_event, "structured": sdk.to_structured_event}
    target = ("cloudevents SDK 2.2.0", TARGET)
    result: list[Case] = []
    for mode in ("binary", "structured"):
        record, message, sdk_encode = records[mode], messages[mode], sdk_encoders[mode]

        def encode(mode: str = mode) -> object:
            return ce.to_kafka(ours, mode)

        def encode_cold(mode: str = mode) -> object:
            _forget()
            return ce.to_kafka(ours, mode)

        def decode(record: ce.KafkaRecord = record) -> object:
            return ce.from_kafka(record)

        def decode_cold(record: ce.KafkaRecord = record) -> object:
            _forget()
            return ce.from_kafka(record)

        group = f"cloudevents to_kafka {mode}"
        encode_target = ("cloudevents SDK 2.2.0", ENCODE_TARGETS[mode])
        result += [
            Case(group, "streamcodecs", encode, target=encode_target),
            Case(group, "streamcodecs, nothing remembered", encode_cold),
            Case(group, "cloudevents SDK 2.2.0", lambda e=sdk_encode: e(theirs)),
            Case(group, FLOOR, lambda f=floors[mode]: f(ours), target=encode_target),
        ]
        group = f"cloudevents to_kafka {mode} (floor)"
        result += [
            Case(group, "streamcodecs", encode, target=(FLOOR, 1 / 1.3)),
            Case(group, FLOOR, lambda f=floors[mode]: f(ours)),
        ]
        group = f"cloudevents from_kafka {mode}"
        result += [
            Case(group, "streamcodecs", decode, target=target),
            Case(group, "streamcodecs, nothing remembered", decode_cold),
            Case(group, "cloudevents SDK 2.2.0", lambda m=message: sdk.from_kafka_event(m)),
        ]
    binary, message = records["binary"], messages["binary"]
    group = "cloudevents from_kafka binary + JSON data"
    result += [
        Case(group, "streamcodecs", lambda: ce.from_kafka(binary).json_data(), target=target),
        Case(group, "cloudevents SDK 2.2.0", lambda: sdk.from_kafka_event(message).get_data()),
    ]
    # A topic converted from binary to structured mode: read a binary record with JSON data, write it structured.
    # We check the bytes are one JSON value and write them in place; the SDK parsed them on read and dumps the dict.
    ours_structured = ce.to_kafka(ce.from_kafka(binary), "structured").value
    sdk_structured = sdk.to_structured_event(sdk.from_kafka_event(message)).value
    assert ours_structured is not None and _json_equal(ours_structured, sdk_structured)
    group = "cloudevents binary record -> structured record (JSON data)"
    result += [
        Case(group, "streamcodecs", lambda: ce.to_kafka(ce.from_kafka(binary), "structured"), target=target),
        Case(group, "cloudevents SDK 2.2.0", lambda: sdk.to_structured_event(sdk.from_kafka_event(message))),
    ]
    return result


def _json_equal(a: bytes, b: bytes) -> bool:
    import json

    return bool(json.loads(a) == json.loads(b))
