"""Another kafka-family protocol on Spark, from YAML alone: attributes of the types CloudEvents does not use (UUID,
floats, base64, any JSON value, 32-bit integers) beside text, a time and an extension map. It has no Java target
(the Java codec does not carry those types yet), so its Spark functions take the Python path: Arrow UDFs calling
its Python codec. Each record its codec writes, in both modes, and a set of malformed ones go through Spark's
``from_kafka``; each row must hold what the codec decodes (as Spark holds it: a UUID and any JSON value as their
canonical text), or a problem naming the same field with the codec's reason; and ``to_kafka`` of the decoded rows
must write the codec's own records, byte for byte."""

from __future__ import annotations

import datetime
import importlib
import shutil
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from test_cloudevents_definition import ACME

pytestmark = pytest.mark.spark

PROBE = (
    ACME.replace("protocol: acme", "protocol: probe")
    .replace("title: Acme events", "title: Probe events")
    .replace(
        "      - {name: at, type: timestamp, optional: true}\n",
        "      - {name: at, type: timestamp, optional: true}\n"
        "      - {name: ref, type: uuid, optional: true}\n"
        "      - {name: score, type: float64, optional: true}\n"
        "      - {name: ratio, type: float32, optional: true}\n"
        "      - {name: blob, type: base64, optional: true}\n"
        "      - {name: doc, type: any, optional: true}\n"
        "      - {name: count, type: int32, optional: true}\n"
        '      - {name: ext, type: "map<string,attribute_value>", additional: true, default: {}}\n',
    )
)


@pytest.fixture(scope="module")
def probe(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    from streamcodecs_gen.cli import main as generate

    assert "type: any" in PROBE and "additional: true" in PROBE  # the replacement took
    root = tmp_path_factory.mktemp("probe")
    (root / "defs").mkdir()
    (root / "defs" / "probe.yaml").write_text(PROBE, encoding="utf-8")
    out = root / "out"
    assert generate(["-p", str(root / "defs"), "-r", str(out), "-n", "probe_codecs", "--no-binary", "-q"]) == 0
    assert not (out / "probe_codecs" / "spark" / "probe.py").read_text(encoding="utf-8").count("_jvm.java_udf(")
    spark.sparkContext.addPyFile(shutil.make_archive(str(root / "probe_codecs"), "zip", out, "probe_codecs"))
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("probe_codecs.probe"), importlib.import_module("probe_codecs.spark.probe")
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m.split(".")[0] == "probe_codecs"]:
            del sys.modules[name]


def _events(m: Any) -> list[Any]:
    at = datetime.datetime(2026, 1, 5, 9, 30, 15, 250000, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    full = m.Envelope(
        event_id="e-1",
        origin="urn:probe:1",
        tenant="t1",
        mime="application/json",
        urgent=True,
        attempts=-3,
        at=at,
        ref=uuid.UUID("12345678-1234-5678-1234-567812345678"),
        score=1e-7,
        ratio=0.1,
        blob=b"\x00\xffbin",
        doc={"b": [1, 2.5, None, "\u00e9"], "a": {"x": True}},
        count=-(2**31),
        ext={"zone": "eu", "level": "3"},
        body=b'{"k": [1, 2]}',
    )
    return [
        full,
        m.Envelope(event_id="e-2", origin="https://p.example/x", score=12345678901234567890.0, ratio=-0.0, doc=7),
        m.Envelope(event_id="e-3", origin="urn:probe:3", mime="text/plain", body=b"plain text", doc="a string"),
        m.Envelope(event_id="e-4", origin="urn:probe:4", body=b"\x00\x01", doc=[1e300, -1], blob=b""),
    ]


def _malformed(m: Any) -> list[tuple[list[tuple[str, bytes | None]], bytes | None]]:
    good = m.to_kafka(m.Envelope(event_id="e-9", origin="urn:probe:9")).headers
    structured = [("x-acme-mime", b"application/vnd.acme.event+json")]
    document = b'{"version":"2","event_id":"e-9","origin":"urn:probe:9",'
    return [
        ([*good, ("acme.ref", b"not-a-uuid")], None),
        ([*good, ("acme.score", b"1.5.2")], None),
        ([*good, ("acme.ratio", b"1e300")], None),
        ([*good, ("acme.blob", b"!!")], None),
        ([*good, ("acme.doc", b"{")], None),
        ([*good, ("acme.count", b"2147483648")], None),
        (structured, document + b'"ref":5}'),
        (structured, document + b'"score":"1.5"}'),
        (structured, document + b'"doc":[1,}'),
        (structured, document + b'"blob":"AAA"}'),
    ]


def _kw() -> Any:
    """The probe package's copy of the kafka runtime (its canonical texts)."""
    return importlib.import_module("probe_codecs._runtime.kafkawire")


def _spark_value(m: Any, name: str, value: Any) -> Any:
    """A codec attribute as Spark holds it."""
    if value is None:
        return None
    if name in ("ref", "doc"):
        return _kw().uuid_to_text(value) if name == "ref" else _kw().any_to_text(value)
    if name == "at":
        return value.timestamp()
    if name == "ratio":
        return pytest.approx(value, rel=1e-7)  # Spark's FLOAT holds the float32 value the codec checked
    return value


def test_from_kafka_and_to_kafka_agree_with_the_codec(spark: Any, probe: tuple[Any, Any]) -> None:
    m, sm = probe
    records = [(r.headers, r.value) for e in _events(m) for r in (m.to_kafka(e), m.to_kafka(e, "structured"))]
    inputs = records + _malformed(m)
    rows = [(None, value, "t", 0, i, None, 0, headers) for i, (headers, value) in enumerate(inputs)]
    frame = spark.createDataFrame(rows, sm.KAFKA_SOURCE_SCHEMA)
    decoded = sm.from_kafka(frame)
    out = sorted(decoded.collect(), key=lambda r: r["offset"])
    for (headers, value), row in zip(inputs, out, strict=True):
        record = m.KafkaRecord(None, value, headers)
        assert row["content_mode"] == m.content_mode(record)
        try:
            event, problem = m.from_kafka(record), None
        except m.DecodeError as exc:
            event, problem = None, exc
        if problem is not None:
            where = f"`{problem.field}`: " if problem.field else ""
            offset = f" (offset {problem.offset})" if problem.offset is not None and not problem.field else ""
            assert row["envelope"] is None and row["error"] == where + problem.reason + offset, (headers, value)
            continue
        assert row["error"] is None, row["error"]
        got = row["envelope"].asDict()
        for name, value_ in event.to_dict().items():
            if name == "ext":
                assert got[name] == {k: _kw().attribute_value_to_text(v) for k, v in value_.items()}
            elif name == "body":
                assert got[name] is not None
            elif name == "at":
                assert (got[name] and got[name].timestamp()) == _spark_value(m, name, value_)
            elif name != "mime":
                assert got[name] == _spark_value(m, name, value_), name
    assert sum(r["error"] is not None for r in out) == len(_malformed(m))
    good = decoded.where("error IS NULL").selectExpr("CAST(offset AS STRING) AS topic", "envelope")
    for mode in ("binary", "structured"):
        written = sorted(sm.to_kafka(good, mode).collect(), key=lambda r: int(r["topic"]))
        assert [int(r["topic"]) for r in written] == list(range(len(records)))
        assert all(r["error"] is None for r in written), [r["error"] for r in written]
        for row in written[::2]:  # the binary inputs (a structured one's JSON body is held as its text)
            event = _events(m)[int(row["topic"]) // 2]
            at = event.at and event.at.astimezone(datetime.UTC)  # Spark holds instants: written in UTC
            wanted = m.to_kafka(m.Envelope(**{**event.to_dict(), "at": at}), mode)
            assert [(k, bytes(v)) for k, v in row["headers"]] == wanted.headers, (mode, row["topic"])
            assert (row["value"] and bytes(row["value"])) == wanted.value, (mode, row["topic"])


def test_to_kafka_refuses_what_the_codec_refuses(spark: Any, probe: tuple[Any, Any]) -> None:
    m, sm = probe
    schema = "e struct<" + ",".join(f"`{f.name}`:{f.dataType.simpleString()}" for f in sm.ENVELOPE_SCHEMA) + ">"
    base = {f.name: None for f in sm.ENVELOPE_SCHEMA} | {"version": "2", "event_id": "e-1", "origin": "urn:x"}
    rows = [
        ({**base, "ref": "nope"},),
        ({**base, "doc": "{"},),
        ({**base, "event_id": ""},),
        ({**base, "ref": "12345678-1234-5678-1234-567812345678", "doc": '{"a":1}', "score": float("nan")},),
    ]
    out = sm.to_kafka(spark.createDataFrame(rows, schema), "structured", event="e").collect()
    fields = [r["error"].split("`")[1] if r["error"] else None for r in out]
    assert fields == ["ref", "doc", "event_id", "score"], [r["error"] for r in out]
    assert all(r["value"] is None for r in out)
