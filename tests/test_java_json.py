"""The JSON family's Java codec (KCL, Storm), called directly through py4j: every compatibility vector of every
version decodes as the Python codec decodes it, the current version re-encodes byte for byte, malformed messages
fail with the Python codec's words, and the Reader cuts a stream as the Python Reader does.

(Storm's MessagePack framing is not a Spark function: it stays with the Python codec.)
"""

from __future__ import annotations

import importlib
import json
import math
import random
import re
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from py4j.protocol import Py4JJavaError
from spark_checks import python_decode, vectors
from test_spark_json import MALFORMED

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "fuzz"))

import fuzz  # noqa: E402

PROTOCOLS = ["kcl", "storm"]

# More malformed messages: the Java codec must word each as the Python codec does.
WORDED: dict[str, list[bytes]] = {
    "kcl": [
        b'{"action":"initialize","shardId":5}',
        b'{"action":"initialize","shardId":"s","subSequenceNumber":1.5}',
        b'{"action":"initialize","shardId":"s","subSequenceNumber":99999999999999999999}',
        b'{"action":"initialize","shardId":"s","subSequenceNumber":-99999999999999999999}',
        b'{"shardId":"s"}',
        b'{"action":5}',
        b'{"action":null}',
        b'{"action":"processRecords","records":{}}',
        b'{"action":"processRecords","records":[{"data":"QQ","partitionKey":"p","sequenceNumber":"1"}]}',
        b'{"action":"processRecords","records":[{"data":"QQ==\\n","partitionKey":"p","sequenceNumber":"1"}]}',
        b'{"action":"processRecords","records":[{"data":5,"partitionKey":"p","sequenceNumber":"1"}]}',
        b'{"action":"shutdown"}',
        b'{"action":"checkpoint","sequenceNumber":1}',
        b'{"action":"status","responseFor":true}',
        b"[1]",
        b'"x"',
        # where: the field's value (the first of a repeated key, as the typed path refuses it), a missing field's object
        b'{"action":"initialize","shardId":5,"shardId":"a"}',
        b'{"action":"processRecords","records":[ {"sequenceNumber":"1"}]}',
        b'{"act\\u0069on":"initialize","shardId":5}',
        # a repeated tag: refused at the first value other than the first (which picked the message)
        b'{"action":"status","action":"x"}',
        b'{"action":"status","action":5}',
        b'{"action":"status", "action":"st\\u0061tus", "action":"y"}',
        b'{"action":"bogus","action":"status"}',
        # an unknown tag, or one of the other direction: in the family's words, at the tag
        b'{"action":"bogus"}',
        b'{"action":"status","responseFor":"x"}',
        b' {"a":1, "action":"initialize","shardId":"s"}',
        b'{"action":"zz","action":"shutdown"}',
        # a repeated key: refused at the occurrence the typed path could not take
        b'{"action":"checkpoint","checkpoint":"1","checkpoint":5}',
        b'{"action":"checkpoint","checkpoint":"1","checkpoint":"2","checkpoint":5,"checkpoint":6}',
        b'{"checkpoint":"1", "che\\u0063kpoint" : 5,"action":"checkpoint"}',
        b'{"action":"processRecords","records":[],"records":[{"data":"QQ==","data":5}]}',
        b'{"action":"processRecords","records":[{"data":"QQ==","partitionKey":"p","sequenceNumber":"1"}],'
        b'"records":[{"data":"QQ==","partitionKey":"p","sequenceNumber":"1"},{"data":"QQ==","partitionKey":"p"}]}',
    ],
    "storm": [
        # CRLF line ends read as LF, and the text stops before its end line's line end, as a Reader cuts it
        b'{"command":"emit",\r\n"tuple":[1],\r\n"task":"x"}\r\nend\r\n',
        b'{"command":"emit",\r\r\n"tuple":[1],"task":"x"}\nend\n',
        b'{"command":"emit","tuple":[1],\r\nend\r\n',
        b" \r\n \r\nend\r\n",
        b'{"command":"emit","tuple":[1],"anchors":5}\nend\n',
        b'{"command":"emit","tuple":[1],"need_task_ids":null}\nend\n',
        b'{"command":"bogus"}\nend\n',
        b' {"a":1, "command":"bogus"}\nend\n',
        b'{"command":"x","command":"bogus"}\nend\n',
        b'{"command":null,"x":1}\nend\n',
        b'"str"\nend\n',
        b"5\nend\n",
        b"[1.5]\nend\n",
        b'{"id":"1","comp":"__system","stream":"__tick","task":3,"tuple":[]}\nend\n',
        b'{"id":"1","comp":"c","stream":"__heartbeat","task":-1,"tuple":[]}\nend\n',
        b'{"conf":{},"pidDir":"/tmp","context":{"task->component":{"1":2}}}\nend\n',
        b'{"conf":[],"pidDir":"/tmp","context":{"task->component":{}}}\nend\n',
        b'{"command":"log","msg":"x","level":99999999999}\nend\n',
        # a number beyond a double's range: refused where the message reads it, let be elsewhere
        b'{"command":"log","x":1e400,"msg":"","level":0}\nend\n',
        b'{"Action":-1e400,"command":"fail","id":"7"}\nend\n',
        b'{"command":"emit","tuple":[1,{"a":[2,-1e400]}]}\nend\n',
        b'{"command":"emit","tuple":[1e400],"tuple":[1]}\nend\n',
        b'{"command":"emit","task":"x","tuple":[1e400]}\nend\n',
        b'{"command":"emit","tuple":[],"anchors":1e400}\nend\n',
        b'{"command":1e400}\nend\n',
        b"[1,1e400]\nend\n",
        b"1e400\nend\n",
        b'{"pidDir":"/p","conf":{"a":1e400},"context":{"task->component":{},"q":1e400}}\nend\n',
        # no message: its keys shown (the first eight, in order, a repeated one once) and where it starts
        b"{}\nend\n",
        b'  {"a":1,"b":2,"a":3}\nend\n',
        b'{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":0}\nend\n',
        b'{"\\u00e9\\ud83d\\ude00\'\\"x":1,"\\n":2}\nend\n',
        # a refused value: where it is (the last of a repeated key, an array's item, a map's entry is the map)
        b'{"command":"emit","tuple":[1],"anchors":[],"anchors":5}\nend\n',
        b'[1, "x"]\nend\n',
        b'{"pidDir":"/p","conf":{},"context":{"task->component":{},"stream->target->grouping":{"s":{"t":5}}}}\nend\n',
    ],
}


def _codecs(spark: Any, protocol: str) -> tuple[Any, Any]:
    return importlib.import_module(f"streamcodecs.{protocol}"), getattr(spark._jvm.streamcodecs, protocol)


def codec_text(data: bytes) -> str:
    """The JSON text of a frame (its end line cut)."""
    text = data.decode("utf-8").rstrip("\r\n")
    return text.removesuffix("\nend") if text != "end" else ""


def _java_decode(java: Any, data: bytes, direction: str | None) -> tuple[str | None, str | None]:
    """(message name, None) or (None, the error's message)."""
    try:
        return java.Codec.decode(bytearray(data), direction).messageName(), None
    except Py4JJavaError as exc:
        return None, str(exc.java_exception.getMessage())


def _java_reencoded(java: Any, data: bytes, direction: str | None) -> bytes | str:
    """The Java codec's encoding of what it decoded, or the EncodeException's message."""
    message = java.Codec.decode(bytearray(data), direction)
    try:
        return bytes(java.Codec.encode(message))
    except Py4JJavaError as exc:
        return str(exc.java_exception.getMessage())


def _python_reencoded(codec: Any, data: bytes, direction: str | None) -> bytes | str:
    try:
        return codec.encode(codec.decode(data, direction=direction))
    except codec.EncodeError as exc:
        return str(exc)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_vector_decodes_and_the_current_version_reencodes_byte_for_byte(spark: Any, protocol: str) -> None:
    codec, java = _codecs(spark, protocol)
    same = 0
    for vector in vectors(protocol):
        data, direction = vector["data"], vector["direction"]
        for given in (direction, None):
            name, error = _java_decode(java, data, given)
            assert error is None, (vector["version"], data[:200], error)
            assert name == python_decode(codec, data, given)[0], (vector["version"], given, data[:200])
        assert name == vector["message"] or direction is not None
        # Every field's value, older versions' defaults included: both codecs write the decoded message the same (or
        # refuse it in the same words: a field removed since is decoded from older peers, never encoded).
        again = _java_reencoded(java, data, direction)
        assert again == _python_reencoded(codec, data, direction), (vector["version"], data[:200])
        if vector["version"] == codec.VERSION:
            assert again == data
            same += 1
    assert same >= 10


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_malformed_messages_fail_in_the_codecs_words(spark: Any, protocol: str) -> None:
    codec, java = _codecs(spark, protocol)
    cases = [data for data, _ in MALFORMED[protocol]] + WORDED[protocol]
    for data in cases:
        for direction in (None, *codec.DIRECTIONS):
            wanted = python_decode(codec, data, direction)[2]
            name, error = _java_decode(java, data, direction)
            if wanted is None:  # valid in this direction (an unknown tag of the other one, say)
                assert name == python_decode(codec, data, direction)[0], data
                continue
            assert error is not None, (data, direction, name)
            if f"{protocol}: malformed JSON" in wanted:  # Jackson and msgspec word bad syntax differently
                assert error.startswith(f"{protocol}: malformed JSON"), (data, error)
            elif f"{protocol}: malformed JSON" in error:  # msgspec may stop at a bad tag before the bad syntax
                with pytest.raises(ValueError):
                    json.loads(codec_text(data))
            elif b"\xff" not in data:  # msgspec reports this one as the other direction's unknown tag
                assert error == wanted, (data, direction)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_text_cut_short_is_refused_at_its_end_as_the_python_codec_refuses_it(spark: Any, protocol: str) -> None:
    """msgspec's verdict decides which texts are cut short (Jackson words some of them as other syntax errors, and
    some malformed ones as cut short); both codecs then say so in the same words, at the text's end."""
    codec, java = _codecs(spark, protocol)
    longest = max((v["data"] for v in vectors(protocol)), key=len)
    text = codec_text(longest).encode("utf-8")
    compared = 0
    for end in range(len(text) + 1):
        frame = text[:end] + (b"\nend\n" if protocol == "storm" else b"")
        wanted = python_decode(codec, frame, None)[2]
        if wanted is not None and "Input data was truncated" in wanted:
            assert _java_decode(java, frame, None)[1] == wanted, frame
            compared += 1
    assert compared > 50


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_byte_order_mark_or_a_leading_zero_is_refused_where_the_python_codec_refuses_it(
    spark: Any, protocol: str
) -> None:
    """Jackson reads a text whose first two bytes hold a zero as UTF-16 or UTF-32 and skips a byte-order mark; the
    family's texts are UTF-8 with no mark (RFC 8259, 8.1) and msgspec refuses those bytes, so both codecs refuse
    the text at the same place (a valid message behind a UTF-8 mark was read by the Java codec alone)."""
    import inputs

    codec, java = _codecs(spark, protocol)
    text = codec_text(vectors(protocol)[0]["data"]).encode("utf-8")
    for prefix in inputs.PREFIXES:
        frame = prefix + text + (b"\nend\n" if protocol == "storm" else b"")
        wanted = python_decode(codec, frame, None)[2]
        assert wanted is not None, frame
        error = _java_decode(java, frame, None)[1]
        assert error is not None, frame
        kind = wanted.split(":")[1]  # malformed JSON, or a string is not valid UTF-8
        assert error.split(":")[1] == kind, (frame, error, wanted)
        assert re.findall(r"\(offset (\d+)", error) == re.findall(r"\(offset (\d+)", wanted), (frame, error, wanted)


def test_a_removed_field_is_decoded_but_never_encoded(spark: Any) -> None:
    codec, java = _codecs(spark, "kcl")
    old = bytearray(b'{"action":"checkpoint","checkpoint":null,"error":null}\n')
    message = java.Codec.decode(old, "to_child")
    assert message.checkpoint() is not None and message.checkpoint().value() is None  # sent, as null
    with pytest.raises(Py4JJavaError) as refused:
        java.Codec.encode(message)
    with pytest.raises(codec.EncodeError) as python:
        codec.encode(codec.decode(bytes(old), direction="to_child"))
    assert str(refused.value.java_exception.getMessage()) == str(python.value)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_reader_cuts_a_stream_as_the_python_reader_does(spark: Any, protocol: str) -> None:
    codec, java = _codecs(spark, protocol)
    current = [v for v in vectors(protocol) if v["version"] == codec.VERSION]
    direction = current[0]["direction"]
    bad = b'{"no":"message"}\nend\n' if protocol == "storm" else b'{"no":"message"}\n'
    chunks = [v["data"] for v in current if v["direction"] == direction]
    stream = b"".join(chunks[:3]) + bad + (b"\n\n" if protocol == "kcl" else b"") + b"".join(chunks[3:])
    python = codec.Reader(direction=direction)
    wanted: list[Any] = []
    errors = []
    for data in (stream, b""):
        while True:
            try:
                wanted += [type(m).__name__ for m in python.feed(data)]
                break
            except codec.DecodeError as exc:
                wanted += [type(m).__name__ for m in exc.decoded]
                errors.append(str(exc))
                data = b""
    reader = java.Reader(direction)
    for at in range(0, len(stream), 97):
        reader.feed(bytearray(stream[at : at + 97]))
    found, failures = [], []
    while True:
        try:
            message = reader.next()
        except Py4JJavaError as exc:
            failures.append(str(exc.java_exception.getMessage()))
            continue
        if message is None:
            break
        found.append(message.messageName())
    assert found == wanted and len(found) == len(chunks)
    assert failures == errors and len(failures) == 1
    assert reader.line() == python.line


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_readers_name_each_bad_message_as_the_python_reader_does(spark: Any, protocol: str) -> None:
    """Every kind of bad message in a stream, between good ones: both Readers refuse each in the same words, naming
    the same line and offset in the message (a text cut short, a value no message is, nesting too deep, a missing
    field, for Storm an empty message and a blank one, a message too long)."""
    codec, java = _codecs(spark, protocol)
    current = [v for v in vectors(protocol) if v["version"] == codec.VERSION]
    direction = current[0]["direction"]
    good = [v["data"] for v in current if v["direction"] == direction][0]
    end = b"\nend\n" if protocol == "storm" else b"\n"
    bad = [b'{"a":1', b' {"x":1}', b"[" * 1001 + b"]" * 1001, b'{"command":"emit"}', b'{"action":"initialize"}']
    limit = max(map(len, [good, *bad])) + 100  # every message fits but the long one
    bad += [b"", b" \n "] if protocol == "storm" else []
    bad.append(b'"' + b"x" * limit + b'"')
    if protocol == "storm":  # a message too long on its second line
        bad.append(b'{"command":"log",\n"msg":"' + b"x" * limit + b'"}')
    stream = good + b"".join(text + end + good for text in bad)
    errors = []
    for size in (len(stream), 61):  # the words do not depend on where the feeds cut the stream
        python = codec.Reader(direction=direction, max_message=limit)
        found = []
        for data in [stream[at : at + size] for at in range(0, len(stream), size)] + [b""]:
            while True:
                try:
                    python.feed(data)
                    break
                except codec.DecodeError as exc:
                    found.append(str(exc))
                    data = b""
        assert not errors or found == errors, size
        errors = found
    reader = java.Reader(direction, limit)
    for at in range(0, len(stream), 61):
        reader.feed(bytearray(stream[at : at + 61]))
    failures = []
    while True:
        try:
            if reader.next() is None:
                break
        except Py4JJavaError as exc:
            failures.append(str(exc.java_exception.getMessage()))
    assert failures == errors
    assert len(errors) == len(bad) and all("offset" in error for error in errors)


def test_the_fixture_protocols_java_codec_round_trips_its_vectors(spark: Any, tmp_path: Path) -> None:
    """The generator's fixture protocol uses every JSON-family construct (UUIDs, timestamps, floats, small integers,
    integer enums, nested base64, scalars for lists, shapes): its Java codec, loaded from the jar generated with it,
    decodes every vector and writes the current version as the Python codec does."""
    root = tmp_path / "py"
    command = [sys.executable, str(REPO / "generator.py"), "-p", str(REPO / "tests" / "fixtures" / "defs"), "-r"]
    result = subprocess.run(
        [*command, str(root), "-n", "javafixture", "-q"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(root))
    try:
        codec = importlib.import_module("javafixture.jfixture")
    finally:
        sys.path.remove(str(root))
    jvm, gateway = spark._jvm, spark.sparkContext._gateway

    def array(kind: Any, *items: Any) -> Any:
        made = gateway.new_array(kind, len(items))
        for i, item in enumerate(items):
            made[i] = item
        return made

    jar = root / "javafixture" / "spark" / "streamcodecs-spark.jar"
    parent = jvm.java.lang.Thread.currentThread().getContextClassLoader()
    loader = jvm.java.net.URLClassLoader(array(jvm.java.net.URL, jvm.java.io.File(str(jar)).toURI().toURL()), parent)
    java = loader.loadClass("javafixture.jfixture.Codec")
    kinds = jvm.java.lang.Class
    decode = java.getMethod("decode", array(kinds, kinds.forName("[B"), kinds.forName("java.lang.String")))
    message_type = loader.loadClass("javafixture.jfixture.Messages$Message")
    encode = java.getMethod("encode", array(kinds, message_type))
    checked = written = 0
    for version_dir in sorted((root / "vectors" / "jfixture").iterdir()):
        manifest = json.loads((version_dir / "manifest.json").read_text(encoding="utf-8"))
        blob = (version_dir / manifest["file"]).read_bytes()
        for entry in manifest["vectors"]:
            data, direction = blob[entry["offset"] : entry["offset"] + entry["length"]], entry["direction"]
            message = decode.invoke(None, array(jvm.java.lang.Object, bytearray(data), direction))
            assert message.messageName() == type(codec.decode(data, direction=direction)).__name__
            checked += 1
            if version_dir.name == codec.VERSION:
                wire = bytes(encode.invoke(None, array(jvm.java.lang.Object, message)))
                assert wire == codec.encode(codec.decode(data, direction=direction)) == data, data[:200]
                written += 1
    assert checked >= 20 and written >= 10
    # Floats as msgspec writes them (0.00001, 1e-7, 1e16: the shortest digits), not as JDK 17's Double.toString.
    rng = random.Random(7)
    numbers = [1e-5, 1e-7, 1e-4, 1e15, 1e16, 1e22, 1e23, 5e-324, 0.1, 2 / 3, 8.41e21, 2.0**-44, -0.0, 100.0]
    numbers += [n for n in (struct.unpack("<d", rng.randbytes(8))[0] for _ in range(200)) if math.isfinite(n)]
    for number in numbers:
        data = b'{"command":"emit","tuple":[],"ratio":' + json.dumps(number).encode() + b"}\nend\n"
        message = decode.invoke(None, array(jvm.java.lang.Object, bytearray(data), "up"))
        wire = bytes(encode.invoke(None, array(jvm.java.lang.Object, message)))
        assert wire == codec.encode(codec.decode(data, direction="up")), number
    # Times as msgspec takes them: offsets up to 23:59 (beyond Java's 18:00, held at UTC: it threw a bare
    # DateTimeException), not year 0 nor an offset's minutes past 59 (it took both); and written as a text both take
    # (it wrote the year 10000 and 0 of such a time held at UTC), naming the same instant.
    for time in (
        "2020-01-01T00:00:00+23:59",
        "9999-12-31T23:00:00-23:59",
        "0001-01-01T00:00:00+23:00",
        "0000-01-01T00:00:00Z",
        "2020-01-01T00:00:00+05:60",
        "2020-01-01T00:00:00+24:00",
        "2020-01-01T00:00:00+20:00",
        "0001-01-01T00:10:00+23:00",
    ):
        data = b'{"command":"emit","tuple":[],"when":"' + time.encode() + b'"}\nend\n'
        try:
            python, refused = codec.decode(data, direction="up"), None
        except codec.DecodeError as exc:
            python, refused = None, str(exc)
        try:
            message = decode.invoke(None, array(jvm.java.lang.Object, bytearray(data), "up"))
        except Py4JJavaError as exc:
            assert str(exc.java_exception.getCause().getMessage()) == refused, time  # (invoke wraps it)
            continue
        assert refused is None, time
        wire = bytes(encode.invoke(None, array(jvm.java.lang.Object, message)))
        assert codec.decode(wire, direction="up").when == python.when, (time, wire)
        assert wire == codec.encode(python), time  # one text (the Python codec kept an offset beyond 18:00)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fuzzed_frames_decode_as_the_python_codec_decodes_them(spark: Any, protocol: str) -> None:
    """The project fuzzer's mutations of the vectors, through py4j: the same message or the same error (only a JSON
    syntax error may be worded otherwise). The differential fuzzer (fuzz/differential.py) does this at scale."""
    codec, java = _codecs(spark, protocol)
    seeds = [v["data"] for v in vectors(protocol)]
    rng = random.Random(16)
    compared = 0
    for _ in range(1000):
        data = fuzz.mutations(rng, rng.choice(seeds), "json")()
        python = python_decode(codec, data, None)
        name, error = _java_decode(java, data, None)
        if python[0] is not None:
            assert name == python[0], (data[:300], error)
        elif python[2].startswith(f"{protocol}: malformed JSON") and "not valid" not in python[2]:
            assert str(error).startswith(f"{protocol}: malformed JSON"), (data[:300], error)
        else:
            assert error == python[2], data[:300]
        compared += 1
    assert compared == 1000


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_json_nested_too_deeply_is_refused_in_the_codecs_words_and_never_read_where_the_codec_refuses_it(
    spark: Any, protocol: str
) -> None:
    codec, java = _codecs(spark, protocol)
    limit = spark._jvm.streamcodecs.runtime.JsonParsing.MAX_DEPTH
    template, outer = {  # the message, and how deep its own objects and arrays nest the value
        "kcl": ('{{"action":"initialize","shardId":"s","extra":{}}}\n', 1),
        "storm": ('{{"id":"1","comp":"c","stream":"s","task":1,"tuple":[{}]}}\nend\n', 2),
    }[protocol]
    deepest = limit - outer
    for depth in (1, deepest, deepest + 1, 995, 1000, 5000):
        data = template.format(_nested(depth)).encode()
        name, error = _java_decode(java, data, None)
        try:
            python_name, python_error = type(codec.decode(data)).__name__, None
        except codec.DecodeError as exc:
            python_name, python_error = None, str(exc)
        assert python_error is None or name is None, depth  # never read where the codec refuses it
        if depth <= deepest:
            assert error is None and name == python_name, (depth, error)
        else:  # at the bracket that opens one level too many
            at = template.format("\0").index("\0") + limit - outer
            assert error == f"{protocol}: malformed JSON: nested too deeply (offset {at})", (depth, error)
        if python_error is not None:
            assert error == python_error, depth


def _storm_feeds_python(stream: bytes, limit: int, size: int) -> list[tuple[int, str, int]]:
    """What the Python Storm Reader gives after each feed of ``size`` bytes: (feed, message name or error, line)."""
    from streamcodecs import storm

    reader = storm.Reader(max_message=limit)
    out: list[tuple[int, str, int]] = []
    for index, at in enumerate(range(0, len(stream), size)):
        data = stream[at : at + size]
        while True:
            try:
                out += [(index, type(m).__name__, -1) for m in reader.feed(data)]
                break
            except storm.DecodeError as exc:
                out += [(index, type(m).__name__, -1) for m in exc.decoded]
                out.append((index, str(exc), -1))
                data = b""
        out.append((index, "line", reader.line))
        out.append((index, "buffered", reader.buffered))
    return out


def _storm_feeds_java(spark: Any, stream: bytes, limit: int, size: int) -> list[tuple[int, str, int]]:
    reader = spark._jvm.streamcodecs.storm.Reader(None, limit)
    out: list[tuple[int, str, int]] = []
    for index, at in enumerate(range(0, len(stream), size)):
        reader.feed(bytearray(stream[at : at + size]))
        while True:
            try:
                message = reader.next()
            except Py4JJavaError as exc:
                out.append((index, str(exc.java_exception.getMessage()), -1))
                continue
            if message is None:
                break
            out.append((index, message.messageName(), -1))
        out.append((index, "line", reader.line()))
        out.append((index, "buffered", reader.buffered()))
    return out


def test_the_storm_readers_refuse_a_message_too_long_at_the_same_feed_however_it_is_cut(spark: Any) -> None:
    """A Storm message whose text passes the Reader's limit is refused by both Readers at the same feed, in the same
    words, line and offset, and the messages after it are read alike: a message of many short lines (with its end
    line, and at the end of a stream that never sends it), a long line after a short one, a text exactly at the
    limit or one byte over it (line ends LF or CRLF, the end line cut across feeds), and a message that passes the
    limit only with the blank lines and the line after its first line. The Java Reader used to count only its
    longest line, and a message's bytes only once its end line came, when it had stopped storing them; it reported
    a long line at that line rather than at the message's first, and after a too-long line whose end line came in
    pieces it dropped the rest of the stream. The Python Reader refused a text exactly at the limit when its line
    end came in a feed before its end line.

    After every feed both say the same ``buffered``: the bytes after the last whole message as received (the Java
    Reader used to count them less the CR of each CRLF of the message's lines, and the Python Reader the same once a
    feed had cut a message before them), and 0 while a message too long is dropped (the Python Reader said the 6
    bytes it keeps to find the end line, the Java Reader the 5 it keeps). A message of one long line, fed in small
    pieces, is read or refused alike (the Java Reader used to copy all it held on every feed)."""
    good = b'{"command":"log","msg":"hi","level":2}\nend\n'
    text = b'{"command":"log","msg":"x","level":2}'  # 37 bytes
    short_lines = b'{"command":"log",\n' + b"".join(b'"k%d":1,\n' % i for i in range(20)) + b'"msg":"x","level":2}'
    cases = [
        (good + short_lines + b"\nend\n" + good, 60),
        (good + short_lines + b"\nend", 60),  # no line end after the end line
        (good + short_lines, 60),  # no end line: refused all the same, once the bytes pass the limit
        (good + b'{"command":"log",\n"msg":"' + b"x" * 100 + b'","level":2}\nend\n' + good, 60),
        (good + text + b"\n\n\n\n  x\nend\n" + good, 39),
        (good + text + b"\n\n\n\n  \nend\n" + good, 42),  # (43 bytes with the blank lines: too long)
        (good + text + b"\n\n\n\n  \nend\n" + good, 43),
    ]
    long_line = b'{"command":"log","msg":"' + b"x" * 3000 + b'","level":2}'  # one line of 3038 bytes
    for limit in (3000, 3038):  # refused as its bytes pass the limit, and read
        cases.append((good + long_line + b"\r\nend\r\n" + good, limit))
    for limit in (36, 37, 38):  # the good message is 38 bytes
        for end in (b"\nend\n", b"\r\nend\r\n"):
            cases.append((good + text + end + good + text + end + good, limit))
    for stream, limit in cases:
        for size in (len(stream), 61, 7, 1):
            python = _storm_feeds_python(stream, limit, size)
            assert _storm_feeds_java(spark, stream, limit, size) == python, (stream, limit, size)
        whole = _storm_feeds_python(stream, limit, len(stream))
        assert [what for _, what, _ in _storm_feeds_python(stream, limit, 1) if what not in ("line", "buffered")] == [
            what for _, what, _ in whole if what not in ("line", "buffered")
        ], (stream, limit)
