"""Another kafka-family protocol on Spark, from YAML alone: attributes of the types CloudEvents does not use (UUID,
floats, base64, any JSON value, 32-bit integers) beside text, a time and an extension map.

On the Python path (Arrow UDFs calling its Python codec): each record its codec writes, in both modes, and a set of
malformed ones go through Spark's ``from_kafka``; each row must hold what the codec decodes (as Spark holds it: a
UUID and any JSON value as their canonical text), or a problem naming the same field with the codec's reason; and
``to_kafka`` of the decoded rows must write the codec's own records, byte for byte.

On the JVM: the sibling's Java codec and Spark UDF classes, compiled into the jar generated with it and loaded into
the session's JVM, are checked against its Python codec and the Python path's rows on the same records (valid and
malformed, both modes), word for word (but for the JSON parser's own words for bad syntax)."""

from __future__ import annotations

import datetime
import importlib
import math
import random
import shutil
import struct
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
    spark.sparkContext.addPyFile(shutil.make_archive(str(root / "probe_codecs"), "zip", out, "probe_codecs"))
    sys.path.insert(0, str(out))
    spark.conf.set("spark.streamcodecs.jvm", "false")  # the Python path (the session's jar is not this package's)
    try:
        yield importlib.import_module("probe_codecs.probe"), importlib.import_module("probe_codecs.spark.probe")
    finally:
        spark.conf.set("spark.streamcodecs.jvm", "true")
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m.split(".")[0] == "probe_codecs"]:
            del sys.modules[name]


def _events(m: Any) -> list[Any]:
    envelope = m.Envelope

    at = datetime.datetime(2026, 1, 5, 9, 30, 15, 250000, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    full = envelope(
        event_id="e-1",
        origin="urn:probe:1",
        tenant="t1",
        mime="application/json",
        urgent=True,
        attempts=-3,
        at=at,
        ref=uuid.UUID("12345678-1234-5678-1234-567812345678"),
        score=1e-7,
        blob=b"\x00\xffbin",
        doc={"b": [1, 2.5, None, "\u00e9"], "a": {"x": True}},
        count=-(2**31),
        ext={"zone": "eu", "level": "3"},
        body=b'{"k": [1, 2]}',
    )
    return [
        full,
        envelope(event_id="e-2", origin="https://p.example/x", score=12345678901234567890.0, doc=7),
        envelope(event_id="e-3", origin="urn:probe:3", mime="text/plain", body=b"plain text", doc="a string"),
        envelope(event_id="e-4", origin="urn:probe:4", body=b"\x00\x01", doc=[1e300, -1], blob=b""),
    ]


def _malformed(m: Any) -> list[tuple[list[tuple[str, bytes | None]], bytes | None]]:
    good = m.to_kafka(m.Envelope(event_id="e-9", origin="urn:probe:9")).headers
    structured = [("x-acme-mime", b"application/vnd.acme.event+json")]
    document = b'{"version":"2","event_id":"e-9","origin":"urn:probe:9",'
    return [
        ([*good, ("acme.ref", b"not-a-uuid")], None),
        ([*good, ("acme.score", b"1.5.2")], None),
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
            offset = f" (offset {problem.offset})" if problem.offset is not None else ""
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


# --- the sibling's Java codec -----------------------------------------------------------------------------------


class _Java:
    """The sibling's Java codec and UDF classes, loaded from the jar generated with it into the session's JVM."""

    def __init__(self, spark: Any, jar: Any) -> None:
        self.jvm, self.gateway = spark._jvm, spark.sparkContext._gateway
        jvm = self.jvm
        parent = jvm.java.lang.Thread.currentThread().getContextClassLoader()
        self.loader = jvm.java.net.URLClassLoader(
            self.array(jvm.java.net.URL, jvm.java.io.File(str(jar)).toURI().toURL()), parent
        )
        self.codec = self.loader.loadClass("probe_java_codecs.probe.Codec")
        kinds = jvm.java.lang.Class
        lists = kinds.forName("java.util.List")
        self.from_kafka = self.codec.getMethod("fromKafka", self.array(kinds, kinds.forName("[B"), lists, lists))
        self.content_mode = self.codec.getMethod("contentMode", self.array(kinds, lists, lists))
        event = self.loader.loadClass("probe_java_codecs.probe.Envelope")
        self.to_kafka = self.codec.getMethod("toKafka", self.array(kinds, event, jvm.java.lang.Boolean.TYPE))

    def array(self, kind: Any, *items: Any) -> Any:
        made = self.gateway.new_array(kind, len(items))
        for i, item in enumerate(items):
            made[i] = item
        return made

    def udf(self, name: str) -> Any:
        made = self.loader.loadClass(f"probe_java_codecs.probe.{name}")
        return made.getDeclaredConstructor(self.array(self.jvm.java.lang.Class)).newInstance(
            self.array(self.jvm.java.lang.Object)
        )

    def list(self, items: list[Any]) -> Any:
        made = self.jvm.java.util.ArrayList()
        for item in items:
            made.add(bytearray(item) if isinstance(item, bytes) else item)
        return made

    def seq(self, items: list[Any] | None) -> Any:
        return None if items is None else self.jvm.scala.jdk.javaapi.CollectionConverters.asScala(self.list(items))

    def invoke(self, method: Any, *arguments: Any) -> tuple[Any, Any]:
        """(result, None), or (None, the Java exception the method threw)."""
        from py4j.protocol import Py4JJavaError

        try:
            return method.invoke(None, self.array(self.jvm.java.lang.Object, *arguments)), None
        except Py4JJavaError as exc:
            return None, exc.java_exception.getCause()


@pytest.fixture(scope="module")
def probe_java(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, _Java]]:
    from streamcodecs_gen.cli import main as generate

    if shutil.which("javac") is None:
        pytest.skip("needs a JDK (javac) to compile the sibling's Java codec")
    root = tmp_path_factory.mktemp("probe-java")
    (root / "defs").mkdir()
    (root / "defs" / "probe.yaml").write_text(PROBE, encoding="utf-8")
    out = root / "out"
    assert generate(["-p", str(root / "defs"), "-r", str(out), "-n", "probe_java_codecs", "--no-binary", "-q"]) == 0
    spark_module = (out / "probe_java_codecs" / "spark" / "probe.py").read_text(encoding="utf-8")
    assert "no_java=" not in spark_module  # the Spark functions run the Java codec when the jar is there
    sys.path.insert(0, str(out))
    try:
        m = importlib.import_module("probe_java_codecs.probe")
        yield m, _Java(spark, out / "probe_java_codecs" / "spark" / "streamcodecs-spark.jar")
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m.split(".")[0] == "probe_java_codecs"]:
            del sys.modules[name]


def _java_inputs(m: Any) -> list[tuple[list[tuple[str, bytes | None]], bytes | None]]:
    records = [(r.headers, r.value) for e in _events(m) for r in (m.to_kafka(e), m.to_kafka(e, "structured"))]
    good = m.to_kafka(m.Envelope(event_id="e-9", origin="urn:probe:9")).headers
    structured = [("x-acme-mime", b"application/vnd.acme.event+json")]
    document = b'{"version":"2","event_id":"e-9","origin":"urn:probe:9",'
    more: list[tuple[list[tuple[str, bytes | None]], bytes | None]] = [
        ([*good, (name, value)], None)
        for name, value in [
            ("acme.ref", b"12345678123456781234567812345678"),  # UUID() takes it; the codec wants 8-4-4-4-12
            ("acme.ref", b"{12345678-1234-5678-1234-567812345678}"),
            ("acme.ref", b"ABCDEF01-2345-6789-ABCD-EF0123456789"),
            ("acme.score", b"1e400"),
            ("acme.score", b"-0"),
            ("acme.score", b"1E+22"),
            ("acme.score", b"0.1e-3"),
            ("acme.score", b".5"),
            ("acme.score", b"NaN"),
            ("acme.score", b"+1"),
            ("acme.blob", b"AAA="),
            ("acme.blob", b"AAA"),
            ("acme.blob", b"AA AA"),
            ("acme.count", b"-2147483649"),
            ("acme.count", b"007"),
            ("acme.doc", b' {"a": 1.50, "b": [1E5, -0, "\\u00e9\\u2028\\/", 1e-7, 12345678901234567890123], "a": {}} '),
            ("acme.doc", b"null"),
            ("acme.doc", b'"\\ud800"'),
            ("acme.doc", b"[1, 2] 3"),
            ("acme.doc", b"1e400"),
            ("acme.doc", b"-0.0"),
            ("acme.doc", b""),
            ("acme.doc", '"caf\u00e9 \U0001f600 \x7f"'.encode()),
        ]
    ]
    more += [
        (structured, document + member)
        for member in [
            b'"score":1e308}',
            b'"score":-12}',
            b'"score":true}',
            b'"ref":"12345678-1234-5678-1234-56781234567g"}',
            b'"blob":"/+8="}',
            b'"blob":5}',
            b'"count":1.0}',
            b'"doc":{"z":1, "a":[1.0e-10, 2.50, {"a":1,"a":2}], "\\u00e9":"\\n\\u0001"}}',
            b'"doc":null}',
            b'"doc":-0}',
            b'"doc":"\\u2028"}',
            b'"doc":1E5}',
        ]
    ]
    return records + _malformed(m) + more


def _java_event(java: _Java, headers: list[tuple[str, bytes | None]], value: bytes | None) -> tuple[Any, Any]:
    return java.invoke(
        java.from_kafka,
        None if value is None else bytearray(value),
        java.list([k for k, _ in headers]),
        java.list([v for _, v in headers]),
    )


def test_the_java_codec_decodes_and_encodes_as_the_python_codec(probe_java: tuple[Any, _Java]) -> None:
    """Every record, valid or not, in both modes: the same event (its records in both modes written byte for byte
    as the Python codec writes them) or the same problem, word for word."""
    m, java = probe_java
    refused = 0
    for headers, value in _java_inputs(m):
        record = m.KafkaRecord(None, value, headers)
        names, values = java.list([k for k, _ in headers]), java.list([v for _, v in headers])
        assert java.invoke(java.content_mode, names, values)[0] == m.content_mode(record)
        event, problem = _java_event(java, headers, value)
        try:
            wanted = m.from_kafka(record)
        except m.DecodeError as exc:
            assert problem is not None, (headers, value)
            assert problem.field() == exc.field and problem.offset() == (-1 if exc.offset is None else exc.offset)
            if not any(words in exc.reason for words in ("malformed JSON", "JSON text is not UTF-8")):
                assert problem.getMessage() == str(exc), (headers, value)  # else worded by msgspec or Jackson
            refused += 1
            continue
        assert problem is None, (headers, value, problem.getMessage())
        for mode in ("binary", "structured"):
            written, failed = java.invoke(java.to_kafka, event, mode == "structured")
            python = m.to_kafka(wanted, mode)
            assert failed is None, failed.getMessage()
            assert [(str(k), bytes(v)) for k, v in zip(written.names(), written.values(), strict=True)] == [
                (k, bytes(v)) for k, v in python.headers
            ], (mode, headers, value)
            assert (written.value() and bytes(written.value())) == python.value, (mode, headers, value)
    assert refused >= 20 and len(_java_inputs(m)) - refused >= 15  # both kinds, many of each


def test_the_java_codec_writes_floats_as_python_repr(probe_java: tuple[Any, _Java]) -> None:
    """A float64 attribute as Python's repr writes it (the shortest decimal that reads back the same, positional
    from 1e-4 up to 1e16). JDK 17's Double.toString differs."""
    m, java = probe_java
    numbers = [1e10, 1e16, 1e15, 123456789012345678.0, 1e-4, 1e-5, 0.1, 2 / 3, 5e-324, 1.7976931348623157e308]
    numbers += [-1.5, 9007199254740993.0, 1e22, 1e23, 0.3, 100.0, 2.0**-1022, 4.35, 1.2345678e-9, 2.0**-149, -0.0]
    numbers += [3.4028234663852886e38, 1.1754943508222875e-38, 16777217.0, 0.2]
    rng = random.Random(16)
    numbers += [n for n in (struct.unpack("<d", rng.randbytes(8))[0] for _ in range(300)) if math.isfinite(n)]
    numbers += [rng.uniform(-1e6, 1e6) for _ in range(100)] + [float(rng.randrange(10**17)) for _ in range(50)]
    good = m.to_kafka(m.Envelope(event_id="e-9", origin="urn:probe:9")).headers
    for number in numbers:
        for name, held in [("score", number)]:
            event, problem = _java_event(java, [*good, (f"acme.{name}", repr(number).encode())], None)
            assert problem is None, problem.getMessage()
            written, _ = java.invoke(java.to_kafka, event, False)
            texts = dict(zip(written.names(), (bytes(v).decode() for v in written.values()), strict=True))
            assert texts[f"acme.{name}"] == repr(held), number
            structured, _ = java.invoke(java.to_kafka, event, True)  # msgspec's JSON numbers: 1e-6, 0.00001
            python = m.to_kafka(m.Envelope(event_id="e-9", origin="urn:probe:9", **{name: held}), "structured")
            assert bytes(structured.value()) == python.value, number


def _same_value(java: Any, python: Any, spark_type: Any) -> bool:
    """Whether a value of a Java UDF's row is the value the Python path puts in Spark's column of ``spark_type``."""
    name = spark_type.typeName()
    if python is None or java is None:
        return python is None and java is None
    if name == "timestamp":  # java.time.Instant
        micros = round(python.timestamp() * 1_000_000)
        return java.getEpochSecond() * 1_000_000 + java.getNano() // 1000 == micros
    if name == "map":
        return list(dict(java).items()) == list(python)
    if name == "binary":
        return bytes(java) == bytes(python)
    return bool(java == python)


def test_the_java_udfs_give_the_python_paths_rows(probe_java: tuple[Any, _Java]) -> None:
    """The sibling's from_kafka UDF (FromKafka, over SparkRows) gives each record the row, data text or error the
    Python path gives; to_kafka's UDFs write the decoded rows back as the Python codec writes their events."""
    m, java = probe_java
    sm = importlib.import_module("probe_java_codecs.spark.probe")
    from_kafka, binary, structured = java.udf("FromKafka"), java.udf("ToKafkaBinary"), java.udf("ToKafkaStructured")
    fields = sm.ENVELOPE_SCHEMA.fields
    written = 0
    for headers, value in _java_inputs(m):
        row = from_kafka.call(
            None if value is None else bytearray(value),
            java.seq([k for k, _ in headers]),
            java.seq([v for _, v in headers]),
        )
        record = m.KafkaRecord(None, value, headers)
        assert row.getString(0) == m.content_mode(record)
        try:
            event = m.from_kafka(record)
        except m.DecodeError as exc:
            where = f"`{exc.field}`: " if exc.field else ""
            offset = f" (offset {exc.offset})" if exc.offset is not None else ""
            if not any(words in exc.reason for words in ("malformed JSON", "JSON text is not UTF-8")):
                assert row.getString(4) == where + exc.reason + offset, (headers, value)
            assert row.get(2) is None and row.getString(4).startswith(where), (headers, value)
            continue
        assert row.getString(4) is None, row.getString(4)
        wanted = sm._spark_row(event, value if m.content_mode(record) == "structured" else None)
        got = row.get(2)
        for i, field in enumerate(fields):
            assert _same_value(got.get(i), wanted[i], field.dataType), (field.name, got.get(i), wanted[i])
        assert row.getString(3) == sm._MEDIA.text(wanted[4], wanted[-1])
        at = event.at and event.at.astimezone(datetime.UTC)  # Spark holds instants: written in UTC
        micros = None if at is None else round(at.timestamp() * 1_000_000)
        ext = [] if got.isNullAt(len(fields) - 2) else list(dict(got.get(len(fields) - 2)).items())
        names, texts = java.seq([k for k, _ in ext]), java.seq([v for _, v in ext])
        spark_event = sm._event_of(*[wanted[i] if fields[i].name != "at" else at for i in range(len(fields))])
        for udf, mode in ((binary, "binary"), (structured, "structured")):
            out = udf.call(got, micros, names, texts)
            try:
                python = m.to_kafka(spark_event, mode)
            except m.EncodeError as exc:
                assert out.getString(2) == f"`{exc.field}`: {exc.reason}", (mode, headers, value)
                continue
            assert out.getString(2) is None, out.getString(2)
            assert (out.get(0) and bytes(out.get(0))) == python.value, (mode, headers, value)
            if mode == "binary":
                got_headers = out.get(1)
                pairs = [
                    (got_headers.get(i).getString(0), bytes(got_headers.get(i).get(1)))
                    for i in range(got_headers.size())
                ]
                assert pairs == python.headers, (headers, value)
            written += 1
    assert written >= 20


def test_the_java_udfs_refuse_what_the_codec_refuses(probe_java: tuple[Any, _Java]) -> None:
    """Rows the Python path refuses (text that is no UUID, a float that is not finite, an empty required text):
    refused by to_kafka's UDFs with the same problem."""
    m, java = probe_java
    sm = importlib.import_module("probe_java_codecs.spark.probe")
    names = [f.name for f in sm.ENVELOPE_SCHEMA.fields]
    base = dict.fromkeys(names) | {"version": "2", "event_id": "e-1", "origin": "urn:x"}
    rows = [
        {**base, "ref": "nope"},
        {**base, "ref": "12345678123456781234567812345678"},
        {**base, "event_id": ""},
        {**base, "ref": "12345678-1234-5678-1234-567812345678", "score": float("nan")},
        {**base, "score": float("-inf")},
        {**base, "doc": "{"},
        {**base, "doc": '{"a":1} x'},
    ]
    for udf, mode in ((java.udf("ToKafkaBinary"), "binary"), (java.udf("ToKafkaStructured"), "structured")):
        for values in rows:
            row = java.jvm.org.apache.spark.sql.RowFactory.create(
                java.array(java.jvm.java.lang.Object, *[values[n] for n in names])
            )
            out = udf.call(row, None, None, None)
            try:
                m.to_kafka(sm._event_of(*values.values()), mode)
            except m.EncodeError as exc:
                if "malformed JSON" in exc.reason:  # worded by msgspec or Jackson
                    assert out.getString(2).startswith(f"`{exc.field}`: attribute 'doc' malformed JSON"), (mode, values)
                else:
                    assert out.getString(2) == f"`{exc.field}`: {exc.reason}", (mode, values)
                assert out.get(0) is None
            else:
                raise AssertionError(f"the codec takes {values}")
