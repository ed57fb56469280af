"""The Python path of the Kafka family's Spark functions (``streamcodecs_gen/py_package/spark/_kafka.py``) at its
source, with CloudEvents' tables: no Spark session, only Arrow batches shaped as Spark hands them over."""

from __future__ import annotations

import datetime
import pickle
import warnings

import pyarrow as pa
import pytest
from streamcodecs import cloudevents as ce
from streamcodecs.spark import cloudevents as sce
from test_py_package import source_module

kafka = source_module("spark/_kafka.py")

MEDIA = kafka.Media(("json",), ("+json",), "application/json", "data")
FUNCTIONS = kafka.KafkaFunctions(
    "unused",
    "unused",
    codec=ce,
    protocol="cloudevents",
    directions=sce.DIRECTIONS,
    decoded=sce.DECODED,
    encoded_from=sce._ENCODED_FROM,
    event=kafka.SparkEvent(
        message="CloudEvent",
        column="cloud_event",
        schema=sce.CLOUD_EVENT_SCHEMA,
        row=sce._Row,
        spark_row=sce._spark_row,
        event_of=sce._event_of,
        payload="data",
        content_type="datacontenttype",
        extra="extensions",
        time="time",
        payload_name="data",
    ),
    media=MEDIA,
    key_mappers={"partitionkey": ("partitionkey", "utf-8")},
)
HEADERS = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))
AT = datetime.datetime(2026, 1, 5, 9, 30, tzinfo=datetime.UTC)


def events() -> list[ce.CloudEvent]:
    return [
        ce.CloudEvent(id="1", source="urn:a", type="t", time=AT, data={"k": [1, 2.5]}, extensions={"n": 3}),
        ce.CloudEvent(id="2", source="urn:a", type="t", datacontenttype="text/plain", data=b"plain"),
        ce.CloudEvent(id="3", source="urn:a", type="t", datacontenttype="image/png", data=b"\x89PNG"),
        ce.CloudEvent(id="4", source="urn:a", type="t"),
    ]


def test_a_protocol_without_a_java_target_says_why_once_where_the_session_runs_the_others_java(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    why = "it declares no content-type attribute"
    functions = kafka.KafkaFunctions(
        "unused",
        "unused",
        codec=ce,
        protocol="nojava",
        directions=sce.DIRECTIONS,
        decoded=sce.DECODED,
        encoded_from=sce._ENCODED_FROM,
        event=FUNCTIONS.event,
        media=MEDIA,
        key_mappers={},
        no_java=why,
    )
    registered: list[str] = []
    monkeypatch.setattr(kafka._jvm, "java_udf", lambda *args: registered.append(args[1]) or "udf")
    monkeypatch.setattr(kafka._jvm, "available", lambda spark=None: False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert functions._java_udf("Decode", sce.DECODED) is None  # no JVM in the session: nothing to say
        monkeypatch.setattr(kafka._jvm, "available", lambda spark=None: True)
        assert functions._java_udf("Decode", sce.DECODED) is None
        assert functions._java_udf("FromKafka", sce.DECODED) is None
    assert [str(w.message) for w in caught] == [
        "streamcodecs.spark.nojava runs the Python codec (slower): the generator's Java codec does not carry this "
        "protocol: it declares no content-type attribute."
    ]
    assert caught[0].category is kafka._jvm.JvmPathWarning
    assert FUNCTIONS._java_udf("Decode", sce.DECODED) == "udf" and registered == ["Decode"]


def test_what_a_content_type_says_of_the_data() -> None:
    document = b'{"specversion":"1.0","data": {"k" : [1, 2.5]}}'
    assert MEDIA.payload({"k": [1, 2.5]}, None, document) == ("application/json", b'{"k":[1,2.5]}')
    assert MEDIA.payload("text", "text/plain", None) == ("text/plain", b"text")
    assert MEDIA.payload(b"\x00", "image/png", None) == ("image/png", b"\x00")
    assert MEDIA.payload(ce.MISSING, None, None) == (None, None)
    assert [MEDIA.text(t, b"x") for t in (None, "application/cloudevents+json", "text/csv", "image/png")] == [
        "x",
        "x",
        "x",
        None,
    ]
    assert MEDIA.text("text/plain", b"\xff") is None and MEDIA.text("text/plain", None) is None
    binary_implied = kafka.Media(("json",), (), "application/octet-stream", "data")
    assert binary_implied.text(None, b"x") is None and not binary_implied.json_implied


def test_from_kafka_and_to_kafka_batches_are_the_codecs() -> None:
    records = [ce.to_kafka(e, mode) for e in events() for mode in ("binary", "structured")]
    values = pa.array([r.value for r in records], pa.binary())
    headers = pa.array([[{"key": k, "value": v} for k, v in r.headers] for r in records], HEADERS)
    rows = FUNCTIONS.from_kafka_batch(values, headers).to_pylist()
    assert [r["content_mode"] for r in rows] == [ce.content_mode(r) for r in records]
    assert [r["error"] for r in rows] == [None] * len(records)
    assert [r["cloud_event"]["id"] for r in rows] == ["1", "1", "2", "2", "3", "3", "4", "4"]
    assert [r["data_text"] for r in rows] == ['{"k":[1,2.5]}'] * 2 + ["plain"] * 2 + [None] * 4
    written = FUNCTIONS.from_kafka_batch(values, headers).field(2)
    for mode in ("binary", "structured"):
        out = FUNCTIONS.to_kafka_batch(written, mode).to_pylist()
        assert [o["error"] for o in out] == [None] * len(records)
        assert [o["value"] for o in out] == [
            ce.to_kafka(sce._event_of(*r["cloud_event"].values()), mode).value for r in rows
        ]


def test_a_bad_record_is_its_problem() -> None:
    values = pa.array([b"{", None], pa.binary())
    headers = pa.array([[{"key": "content-type", "value": b"application/cloudevents+json"}], None], HEADERS)
    rows = FUNCTIONS.from_kafka_batch(values, headers).to_pylist()
    assert rows[0]["cloud_event"] is None and rows[0]["error"].startswith("malformed JSON")
    assert rows[1]["error"] is not None and rows[1]["content_mode"] == "binary"


def test_decode_and_encode_batches() -> None:
    documents = pa.array([ce.encode(e) for e in events()] + [None, b"[]"], pa.binary())
    decoded = FUNCTIONS.decode_batch(documents)
    rows = decoded.to_pylist()
    assert [r and r["message"] for r in rows] == ["CloudEvent"] * 4 + [None, None]
    assert rows[4] is None and rows[5]["error"] is not None
    encoded = FUNCTIONS.encode_batch(decoded).to_pylist()
    assert [e["data"] for e in encoded[:4]] == [ce.encode(sce._event_of(*r["cloud_event"].values())) for r in rows[:4]]
    assert encoded[4] == {"data": None, "error": None}
    rows_type = decoded.type
    unknown = pa.array([{"message": "Nope", "cloud_event": None, "error": None}], rows_type)
    empty = pa.array([{"message": "CloudEvent", "cloud_event": None, "error": None}], rows_type)
    assert FUNCTIONS.encode_batch(unknown).to_pylist() == [{"data": None, "error": "unknown message Nope"}]
    assert FUNCTIONS.encode_batch(empty).to_pylist() == [{"data": None, "error": "no event (the row is null)"}]


def test_content_mode_and_data_text_batches() -> None:
    headers = pa.array([[{"key": "content-type", "value": b"application/cloudevents+json"}], [], None], HEADERS)
    assert FUNCTIONS.content_mode_batch(headers).to_pylist() == ["structured", "binary", "binary"]
    types = pa.array(["text/plain", None, "image/png"], pa.string())
    assert FUNCTIONS.data_text_batch(types, pa.array([b"a", b"{}", b"c"])).to_pylist() == ["a", "{}", None]


def test_the_module_pickles_its_functions_as_its_global() -> None:
    assert pickle.loads(pickle.dumps(sce._FUNCTIONS)) is sce._FUNCTIONS
    with pytest.raises(TypeError, match="is not unused.unused"):
        pickle.dumps(FUNCTIONS)
