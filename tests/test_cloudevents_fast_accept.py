"""The JSON event format's fast accept (issue 30): the runtime's ``json_value`` first has the module's
``_to_json_object`` let every ASCII text attribute through on ``str.isascii`` (``text_later``) and tests the written
JSON text instead: no backslash and no DEL there (or, when only the payload holds one, in the text before the
payload's member) means every string in it is printable ASCII. Anything else goes to the full path.

Each case below is run through an event format whose object writer records how it was called, so that a test
says which path decided; the fast path must write the very bytes the full path writes, and a refusal through it
must be the full path's, in its words and naming its attribute.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

import msgspec
import pytest
from streamcodecs import cloudevents as ce
from streamcodecs._runtime import kafkarecords as kr
from streamcodecs.cloudevents import messages as module

T0 = datetime.datetime(2018, 4, 5, 3, 56, 24, tzinfo=datetime.UTC)
TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


def event(**changes: Any) -> ce.CloudEvent:
    values: dict[str, Any] = {
        "id": "A234-1234-1234",
        "source": "https://example.com/sensors/tn-1234567/alerts",
        "type": "com.example.sensor.reading",
        "subject": "temperature",
        "datacontenttype": "application/json",
        "time": T0,
        "extensions": {"traceparent": TRACEPARENT},
        "data": {"temperature": 21.5, "unit": "C", "ok": True},
    }
    values.update(changes)
    return ce.CloudEvent(**values)


def spied(writer: Any = module._to_json_object) -> tuple[Any, list[bool]]:
    """The module's JSON event format with ``writer`` as its object writer (the module's unless given), recording
    each call's ``text_later``."""
    calls: list[bool] = []

    def to_json_object(e: ce.CloudEvent, text_later: bool = False) -> dict[str, Any]:
        calls.append(text_later)
        return writer(e, text_later)

    fmt = kr.event_format(
        event_type=ce.CloudEvent,
        payload="data",
        payload_attribute="data",
        payload_member="data",
        from_json_object=module._from_json_object,
        to_json_object=to_json_object,
        decode_error=ce.DecodeError,
        encode_error=ce.EncodeError,
    )
    return fmt, calls


def full_path(e: ce.CloudEvent) -> bytes:
    """What the full path alone writes: every attribute tested on its own, then msgspec."""
    return msgspec.json.encode(module._to_json_object(e))


def full_refusal(e: ce.CloudEvent) -> ce.EncodeError:
    with pytest.raises(ce.EncodeError) as info:
        module._to_json_object(e)
    return info.value


ACCEPTED = {
    # name: (event, whether the fast path alone accepts it)
    "ascii": (event(), True),
    "no optional attributes": (ce.CloudEvent(id="1", source="/s", type="t"), True),
    "escapes in the payload only": (event(data={"msg": 'say "hi"\n', "path": "a\\b"}), True),
    "DEL in the payload": (event(data={"msg": "a\x7fb"}), True),
    "non-ASCII payload": (event(data={"unit": "°C", "who": "Zoë 🌎"}), True),
    "non-ASCII attributes": (event(subject="café 🌎", extensions={"who": "Zoë"}), True),
    "printable-false but valid": (event(subject="a\u00a0b", extensions={"x": "\u200b"}), True),
    "a quote in the id": (event(id='a"b'), False),
    "a backslash in an extension": (event(extensions={"path": "a\\b"}), False),
    "a quote in a media type parameter": (event(datacontenttype='application/json; x="a b"'), False),
    "text payload with escapes": (event(datacontenttype="text/plain", data='line "1"\nline 2'), True),
    "text payload under no content type": (event(datacontenttype=None, data="a\tb"), True),
    "JSON bytes payload": (event(data=b'{"a": "\\"q\\"", "b": [1, 2]}'), True),
    "binary payload": (event(datacontenttype=None, data=b"\x00\x01\xff"), True),
    "no payload": (event(data=ce.MISSING), True),
    "JSON null in the payload": (event(data={"a": None, "b": [1.5, None]}), True),
    "non-string extensions": (event(extensions={"n": 5, "ok": True, "when": T0, "raw": b"\x00"}), True),
    "escapes under a nested data key": (event(data={"data": {"m": 'a"b'}, "x": "\n", "d": "\x7f"}), True),
    "a large payload with an escape": (
        event(data={"items": [{"n": f"item {i}"} for i in range(200)], "m": "\t"}),
        True,
    ),
    "the payload's key inside the id": (event(id='a"data":b', data={"q": '"'}), False),
    "a backslash in an extension and in the payload": (event(extensions={"p": "a\\b"}, data={"q": '"'}), False),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_the_fast_path_writes_what_the_full_path_writes(name: str) -> None:
    e, fast_alone = ACCEPTED[name]
    fmt, calls = spied()
    value = fmt.json_value(e)
    assert value == full_path(e)
    assert calls == ([True] if fast_alone else [True, False])
    assert ce.to_kafka(e, "structured").value == value == ce.to_json(e)


REFUSED = {
    # name: (event, the attribute the refusal names)
    "control character in id": (event(id="a\x00b"), "id"),
    "newline in type": (event(type="com.example\n"), "type"),
    "tab in subject": (event(subject="a\tb"), "subject"),
    "DEL in subject": (event(subject="a\x7f"), "subject"),
    "control character in partitionkey": (event(partitionkey="k\x1b"), "partitionkey"),
    "control character in an extension value": (event(extensions={"traceparent": "00-\x01"}), "traceparent"),
    "escape in the payload and a control character in id": (event(id="\x02", data={"q": '"'}), "id"),
    # The full path's order decides which attribute is named: id comes before source.
    "control character in id, bad source": (event(id="a\nb", source="http://a b"), "id"),
    "control character in subject, bad extension name": (event(subject="\x03", extensions={"Bad": "v"}), "subject"),
    "C1 control character in subject": (event(subject="a\x85b"), "subject"),
    "lone surrogate in id": (event(id="a\ud800"), "id"),
    "the payload's key after a control character in id": (event(id='\x01"data":', data={"q": '"'}), "id"),
    "DEL in subject, escapes in the payload": (event(subject="a\x7f", data={"q": '"\n'}), "subject"),
    "DEL in an extension, the payload's key in type": (event(type='t"data":', extensions={"x": "\x7f"}), "x"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_refusal_through_the_fast_path_is_the_full_paths(name: str) -> None:
    e, field = REFUSED[name]
    expected = full_refusal(e)
    assert expected.field == field
    fmt, calls = spied()
    with pytest.raises(ce.EncodeError) as info:
        fmt.json_value(e)
    assert (str(info.value), info.value.field) == (str(expected), expected.field)
    assert calls[-1] is False  # the full path decided
    with pytest.raises(ce.EncodeError) as info:
        ce.to_kafka(e, "structured")
    assert (str(info.value), info.value.field) == (str(expected), expected.field)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"a": math.nan}, "JSON data holds NaN or infinity, which JSON cannot carry"),
        ({"msg": 'a "quoted" word', "v": [math.inf]}, "JSON data holds NaN or infinity, which JSON cannot carry"),
        ({"a": object()}, "data cannot be written as JSON"),
    ],
)
def test_payload_refusals_keep_their_words(data: Any, message: str) -> None:
    fmt, _ = spied()
    with pytest.raises(ce.EncodeError) as info:
        fmt.json_value(event(data=data))
    assert info.value.field == "data" and message in str(info.value)
    with pytest.raises(ce.EncodeError) as info:
        ce.to_kafka(event(data=data), "structured")
    assert info.value.field == "data" and message in str(info.value)


def test_the_fast_path_only_skips_isprintable_for_ascii_text() -> None:
    """With ``text_later`` an ASCII text attribute is let through unchecked (the caller tests the JSON text); a
    non-ASCII one is still tested on its own, since JSON writes it unescaped."""
    bad_ascii = event(subject="a\x01b")
    assert module._to_json_object(bad_ascii, True)["subject"] == "a\x01b"
    with pytest.raises(ce.EncodeError, match="U\\+0085") as info:
        module._to_json_object(event(subject="é\x85"), True)
    assert info.value.field == "subject"


def test_the_text_before_the_payload_counts_only_when_the_payload_is_last() -> None:
    """The runtime's test of the text before the payload's member assumes the member is the object's last; when it
    is not, attributes follow it in the text, and the full path decides."""

    def writer(e: ce.CloudEvent, text_later: bool) -> dict[str, Any]:
        if text_later:
            return {"data": {"q": 1}, "id": "ab\x7f"}  # DEL after the payload: only the full path would see it
        raise ce.EncodeError("the full path's refusal", field="id")

    fmt, calls = spied(writer)
    with pytest.raises(ce.EncodeError, match="the full path's refusal"):
        fmt.json_value(event())
    assert calls == [True, False]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b'{"id":"1","data":{"a":"\\""}}', True),
        (b'{"id":"1","data":{"a":"\x7f\\n"}}', True),
        (b'{"id":"\\"","data":{"a":1}}', False),
        (b'{"id":"\x7f","data":{"a":"\\n"}}', False),
        (b'{"id":"\\"data\\":","data":{"a":"\\n"}}', False),  # the key's text inside a string is escaped
        (b'{"id":"x","data":{"data":{"b":"\\n"}}}', True),
        (b'{"id":"x","data":"\\u0000"}', True),
        (b'{"id":"x","data":{"a":"\\"","data":{"b":1}}}', True),  # the first occurrence is the member's
        (b'{"id":"x","data_base64":"AAA="}', False),  # no such member: the caller's full path decides
    ],
)
def test_only_after(text: bytes, expected: bool) -> None:
    assert kr.only_after(text, b'"data":') is expected
