"""The Java codec of CloudEvents (the ``java`` target, in the jar the Spark functions run) against the Python codec.

Called directly through the Spark session's py4j gateway: every Kafka record of the compatibility vectors (every
version), every conformance case and every malformed record of the Spark suite, and every JSON-format vector. Each
decodes as the Python codec decodes it, or is refused naming the same field (with the same reason, where the reason
does not quote a JSON parser), and re-encodes, in both content modes, to the bytes the Python codec writes for its
own event.
"""

from __future__ import annotations

import datetime
import json
import random
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from spark_checks import manifest_records, vectors
from streamcodecs import cloudevents as ce
from test_cloudevents_codec import BEYOND_18
from test_cloudevents_conformance import CASES, record_of
from test_spark_cloudevents import MALFORMED, _vector_record

pytestmark = pytest.mark.spark

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))

import fuzz  # noqa: E402

JSON_PARSER_REASONS = ("malformed JSON", "JSON text is not UTF-8")
"""Problems whose reason quotes the JSON parser (msgspec in Python, Jackson on the JVM): only the field is compared."""


def _records() -> list[tuple[str, bytes | None, list[tuple[str, bytes | None]]]]:
    found = [(f"case {c['name']}", r.value, list(r.headers)) for c in CASES for r in [record_of(c)]]
    for r in manifest_records("cloudevents"):
        _, headers, value = _vector_record(r)
        found.append((f"vector {r['version']} {r['mode']} {r['variant']}", value, headers))
    found += [(f"malformed {name}", value, list(headers or [])) for name, headers, value, _ in MALFORMED]
    return found


RECORDS = _records()


@pytest.fixture(scope="module")
def codec(spark: Any) -> Any:
    return spark._jvm.streamcodecs.cloudevents.Codec


def _java(call: Any) -> tuple[Any, Any]:
    """(result, None) or (None, the Java exception) of a call into the JVM."""
    from py4j.protocol import Py4JJavaError

    try:
        return call(), None
    except Py4JJavaError as exc:
        return None, exc.java_exception


def _record(java_record: Any) -> tuple[list[tuple[str, bytes | None]], bytes | None]:
    names = list(java_record.names())
    values = [None if v is None else bytes(v) for v in java_record.values()]
    value = java_record.value()
    return list(zip(names, values, strict=True)), None if value is None else bytes(value)


def _reason(problem: ce.DecodeError | ce.EncodeError) -> str:
    return str(problem.args[0]) if problem.args else str(problem)


@pytest.mark.parametrize("label", [r[0] for r in RECORDS])
def test_every_record_decodes_and_reencodes_as_the_python_codec(codec: Any, label: str) -> None:
    _, value, headers = next(r for r in RECORDS if r[0] == label)
    names, values = [n for n, _ in headers], [v for _, v in headers]
    event, problem = _java(lambda: codec.fromKafka(value, names, values))
    assert codec.contentMode(names, values) == ce.content_mode(ce.KafkaRecord(None, value, headers)), label
    try:
        python = ce.from_kafka(ce.KafkaRecord(None, value, headers))
    except ce.DecodeError as exc:
        assert event is None, label
        assert problem.field() == exc.field, (label, problem.reason(), str(exc))
        if not problem.reason().startswith(JSON_PARSER_REASONS):
            assert problem.reason() == exc.reason, label
            assert problem.offset() == (-1 if exc.offset is None else exc.offset), (label, str(exc))
        assert str(problem.getMessage()).startswith("cloudevents: ")
        return
    assert problem is None, (label, problem and problem.getMessage())
    for structured, mode in ((False, "binary"), (True, "structured")):
        wanted = ce.to_kafka(python, mode)
        written, refused = _java(lambda s=structured: codec.toKafka(event, s))
        assert refused is None, (label, mode, refused and refused.getMessage())
        assert _record(written) == (wanted.headers, wanted.value), (label, mode)


def test_every_json_vector_decodes_and_reencodes_as_the_python_codec(codec: Any) -> None:
    found = vectors("cloudevents")
    assert found
    for vector in found:
        data = vector["data"]
        event, problem = _java(lambda d=data: codec.decode(d))
        assert problem is None, (vector["variant"], problem and problem.getMessage())
        assert bytes(codec.encode(event)) == ce.encode(ce.decode(data)), vector["variant"]


def test_fuzzed_events_are_refused_in_the_same_words_at_the_same_offset(codec: Any) -> None:
    """The project fuzzer's mutations of the JSON vectors: refused by both codecs alike, naming the same offset and
    field (a JSON syntax error only as one: Jackson and msgspec word it and place it their own ways; a text cut
    short is no such error, both refuse it at its end)."""
    seeds = [vector["data"] for vector in vectors("cloudevents")]
    rng = random.Random(49)
    compared = 0
    for _ in range(1500):
        data = fuzz.mutations(rng, rng.choice(seeds), "json")()
        try:
            ce.decode(data)
            python = None
        except ce.DecodeError as exc:
            python = exc
        _, problem = _java(lambda d=data: codec.decode(d))
        if python is None:
            assert problem is None, (data[:200], problem.getMessage())
            continue
        assert problem is not None, data[:200]
        if python.reason.startswith(JSON_PARSER_REASONS) and "truncated" not in python.reason:
            assert problem.reason().startswith(JSON_PARSER_REASONS), (data[:200], problem.getMessage())
            continue
        offset = -1 if python.offset is None else python.offset
        assert (problem.reason(), problem.offset(), problem.field()) == (python.reason, offset, python.field), data
        compared += 1
    assert compared > 300


def test_a_byte_order_mark_or_a_leading_zero_is_refused_by_both_codecs(codec: Any) -> None:
    """Jackson would read a structured event after a byte-order mark, or as UTF-16 or UTF-32 with a zero in its
    first two bytes; msgspec refuses those bytes (RFC 8259, 8.1: UTF-8 and no mark), and so does the Java codec."""
    import inputs

    data = vectors("cloudevents")[0]["data"]
    for prefix in inputs.PREFIXES:
        with pytest.raises(ce.DecodeError) as python:
            ce.decode(prefix + data)
        _, problem = _java(lambda d=prefix + data: codec.decode(d))
        assert problem is not None, prefix
        assert problem.reason().startswith(JSON_PARSER_REASONS), (prefix, problem.getMessage())
        assert python.value.reason.startswith(JSON_PARSER_REASONS), prefix


def test_json_nested_deeper_than_the_one_limit_is_refused_alike_by_both_codecs(spark: Any, codec: Any) -> None:
    limit = spark._jvm.streamcodecs.runtime.JsonParsing.MAX_DEPTH
    deepest = limit - 1  # the event's object is one level
    for depth in (1, deepest, deepest + 1, 995, 1000, 5000):
        nested = "[" * depth + "]" * depth
        document = (
            '{"specversion":"1.0","id":"1","source":"/s","type":"t","datacontenttype":"application/json",'
            f'"data":{nested},"ext":"x"}}'
        ).encode()
        event, problem = _java(lambda d=document: codec.decode(d))
        try:
            ce.decode(document)
            python_problem = None
        except ce.DecodeError as exc:
            python_problem = str(exc)
        if depth <= deepest:  # one fixed limit in both codecs, whatever the Python stack
            assert problem is None and python_problem is None, (depth, problem and problem.getMessage())
            assert event is not None, depth
        else:
            at = document.index(b"[") + limit - 1  # at the bracket that opens one level too many
            assert str(problem.getMessage()) == f"cloudevents: malformed JSON: nested too deeply (offset {at})", depth
            assert python_problem == str(problem.getMessage()), depth


@pytest.mark.parametrize(
    "content_type", ["application/cloudevents+json", "Application/CloudEvents+json; charset=utf-8"]
)
def test_binary_mode_refuses_a_structured_content_type_as_the_python_codec(codec: Any, content_type: str) -> None:
    """Binary mode cannot carry a datacontenttype that starts with the structured prefix (the record would be read
    as structured mode): both codecs refuse it in the same words, naming the attribute, and both write it in
    structured mode."""
    document = {"specversion": "1.0", "id": "1", "source": "/s", "type": "t", "datacontenttype": content_type}
    data = json.dumps({**document, "data": {"a": 1}}).encode()
    python = ce.decode(data)
    with pytest.raises(ce.EncodeError) as caught:
        ce.to_kafka(python, "binary")
    event, problem = _java(lambda: codec.decode(data))
    assert problem is None, problem and problem.getMessage()
    _, refused = _java(lambda: codec.toKafka(event, False))
    assert refused is not None
    assert (
        (refused.field(), refused.reason())
        == (caught.value.field, caught.value.reason)
        == (
            "datacontenttype",
            caught.value.reason,
        )
    )
    wanted = ce.to_kafka(python, "structured")
    written, refused = _java(lambda: codec.toKafka(event, True))
    assert refused is None and _record(written) == (wanted.headers, wanted.value)


@pytest.mark.parametrize("value", [-(2**31) - 1, -(2**31), 2**31 - 1, 2**31, 2**63 - 1, 2**63])
def test_an_undeclared_integer_extension_is_an_int32_in_both_codecs(codec: Any, value: int) -> None:
    """An extension the definition does not declare holds a JSON integer as an int32: both codecs take the type's
    range from its one record (the Java rules call the rendered ``int32FromJson``), accept its ends, refuse what
    is beyond them in the same words and write what they accept alike."""
    document = {"specversion": "1.0", "id": "1", "source": "/s", "type": "t", "ext": value}
    data = json.dumps(document).encode()
    try:
        python, python_problem = ce.decode(data), None
    except ce.DecodeError as exc:
        python, python_problem = None, exc
    event, problem = _java(lambda: codec.decode(data))
    if python_problem is not None:
        assert problem is not None, value
        assert (problem.field(), problem.reason()) == (python_problem.field, python_problem.reason)
        assert "out of range" in python_problem.reason
        return
    assert problem is None, problem and problem.getMessage()
    assert python is not None and python.extensions == {"ext": value}
    assert bytes(codec.encode(event)) == ce.encode(python)
    for structured in (False, True):
        written, refused = _java(lambda s=structured: codec.toKafka(event, s))
        wanted = ce.to_kafka(python, "structured" if structured else "binary")
        assert refused is None and _record(written) == (wanted.headers, wanted.value)


@pytest.mark.parametrize("time", ["9999-12-31T23:00:00-23:59", "0001-01-01T00:00:00+23:00", "9999-12-31T23:59:00Z"])
def test_a_time_java_holds_at_utc_outside_the_years_is_written_as_a_text_decode_takes(
    spark: Any, codec: Any, time: str
) -> None:
    """A time whose offset is beyond Java's 18:00 is held at UTC, which may be the year 10000 or 0: the Java codec
    writes it at the offset nearest UTC that brings it inside the years 0001 to 9999, a text both codecs decode to
    the same instant (it wrote 10000-01-01T22:59:00Z, which its own decoder refuses, and 0000-12-31T01:00:00Z)."""
    data = json.dumps({"specversion": "1.0", "id": "1", "source": "/s", "type": "t", "time": time}).encode()
    event, problem = _java(lambda: codec.decode(data))
    assert problem is None, problem and problem.getMessage()
    want = ce.decode(data).time
    written = bytes(codec.encode(event))
    assert ce.decode(written).time == want, written
    _, refused = _java(lambda: codec.decode(written))
    assert refused is None, refused and refused.getMessage()
    for structured in (False, True):
        headers, value = _record(codec.toKafka(event, structured))
        assert ce.from_kafka(ce.KafkaRecord(None, value, headers)).time == want, (headers, value)


@pytest.mark.parametrize(("time", "written"), BEYOND_18)
def test_a_time_beyond_18_hours_is_written_alike_by_both_codecs(codec: Any, time: str, written: str) -> None:
    """Decoded by each codec and written again, a time whose offset is beyond Java's 18:00 is the same text from
    both (the Python codec kept its offset: "+20:00" where Java wrote "Z"), the text test_cloudevents_codec lists."""
    data = json.dumps({"specversion": "1.0", "id": "1", "source": "/s", "type": "t", "time": time}).encode()
    event, problem = _java(lambda: codec.decode(data))
    assert problem is None, problem and problem.getMessage()
    python = ce.decode(data)
    assert bytes(codec.encode(event)) == ce.encode(python)
    assert json.loads(ce.encode(python))["time"] == written
    for structured in (False, True):
        wanted = ce.to_kafka(python, "structured" if structured else "binary")
        assert _record(codec.toKafka(event, structured)) == (wanted.headers, wanted.value)


def test_a_time_no_rfc_3339_text_names_is_refused_by_the_java_encoder(spark: Any, codec: Any) -> None:
    """Encode never writes what decode refuses: a Java time outside the years 0001 to 9999 by more than an offset
    can make up, and an offset with seconds (which the Python encoder refuses in the same words) are refused, where
    the Java codec wrote 10000-01-02T00:00:00Z and dropped the seconds, naming another instant."""
    from streamcodecs._runtime import messages

    jt = spark._jvm.java.time
    base = codec.decode(b'{"specversion":"1.0","id":"1","source":"/s","type":"t"}')

    def with_time(time: Any) -> Any:
        fields = ["specversion", "id", "source", "type", "datacontenttype", "dataschema", "subject"]
        rest = [base.partitionkey(), base.extensions(), base.data(), base.kind()]
        return spark._jvm.streamcodecs.cloudevents.CloudEvent(*[getattr(base, f)() for f in fields], time, *rest)

    utc = jt.ZoneOffset.UTC
    for time, reason in (
        (jt.OffsetDateTime.of(10000, 1, 2, 0, 0, 0, 0, utc), messages.outside_the_years(time="+10000-01-02T00:00Z")),
        (jt.OffsetDateTime.of(0, 1, 1, 0, 0, 0, 0, utc), messages.outside_the_years(time="0000-01-01T00:00Z")),
        (
            jt.OffsetDateTime.of(2020, 1, 1, 0, 0, 0, 0, jt.ZoneOffset.ofHoursMinutesSeconds(-1, 0, -30)),
            messages.offset_with_seconds(offset="-1 day, 22:59:30"),
        ),
    ):
        for call in (lambda e: codec.encode(e), lambda e: codec.toKafka(e, False), lambda e: codec.toKafka(e, True)):
            _, refused = _java(lambda c=call, t=time: c(with_time(t)))
            assert refused is not None and refused.getMessage() == f"cloudevents: time: attribute 'time' {reason}"
    offset = datetime.timezone(datetime.timedelta(hours=-1, seconds=-30))
    python = ce.decode(b'{"specversion":"1.0","id":"1","source":"/s","type":"t"}')
    with pytest.raises(ce.EncodeError) as caught:
        ce.encode(msgspec.structs.replace(python, time=datetime.datetime(2020, 1, 1, tzinfo=offset)))
    assert str(caught.value) == "cloudevents: time: attribute 'time' " + messages.offset_with_seconds(
        offset="-1 day, 22:59:30"
    )


@pytest.mark.parametrize(
    ("attribute", "value"),
    [
        ("source", "http://h/" + "!" * 3000),
        ("source", "a!/" + "!" * 30000),
        ("source", "http://h/" + "/a" * 30000),
        ("source", "http://h/" + "%20" * 30000),
        ("dataschema", "http://h/?" + "%20!" * 30000),
        ("dataschema", "http://u:" + "!" * 30000 + "@h/"),
        ("datacontenttype", 'a/b; x="' + "y\\[" * 30000 + '"'),
        ("datacontenttype", "a/b" + "; x=y" * 30000),
    ],
)
def test_a_long_uri_or_media_type_is_read_alike_without_overflowing_javas_stack(
    codec: Any, attribute: str, value: str
) -> None:
    """URIs and media types of thousands of repetitions (path characters, segments, a quoted string's characters,
    parameters): Java's Pattern recursed once per repetition of a group and threw StackOverflowError (from 3,000
    path characters), where the Python codec decodes them; with every group repetition possessive both agree."""
    document = {"specversion": "1.0", "id": "1", "source": "/s", "type": "t", attribute: value}
    data = json.dumps(document).encode()
    event, problem = _java(lambda: codec.decode(data))
    assert problem is None, problem and f"{problem.getClass().getName()}: {problem.getMessage()}"
    assert getattr(ce.decode(data), attribute) == value
    headers, _ = _record(codec.toKafka(event, False))
    assert ce.from_kafka(ce.KafkaRecord(None, None, headers)).source == document["source"]
