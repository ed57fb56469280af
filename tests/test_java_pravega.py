"""The Java codec of Pravega (the binary family's ``java`` target), called through the Spark session's JVM (py4j).

Every compatibility vector of every version decodes and re-encodes as the Python codec re-encodes it (the current
version byte for byte); malformed and fuzzed frames fail with the Python codec's exact error text, in every
direction; the frames Pravega's own Java code made (``pravega-java-kat.txt``) decode and re-encode to their bytes;
and the Java ``Reader`` turns a stream cut anywhere into the frames the Python ``Reader`` gives, bad frames included.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from py4j.protocol import Py4JJavaError
from spark_checks import vectors
from streamcodecs import pravega as pv
from test_pravega_kat import batch_entries, frame_entries
from test_spark_pravega import MALFORMED, UNFIT, _fuzzed

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def jvm(spark: Any) -> Any:
    return spark._jvm.streamcodecs.pravega


def _java_decode(jvm: Any, data: bytes, direction: str | None = None) -> tuple[Any, str | None]:
    try:
        return jvm.Codec.decode(bytearray(data), direction), None
    except Py4JJavaError as exc:
        return None, str(exc.java_exception.getMessage())


def _python_decode(data: bytes, direction: str | None = None) -> tuple[Any, str | None]:
    try:
        return pv.decode(data, direction=direction), None
    except pv.DecodeError as exc:
        return None, str(exc)


def test_every_vector_decodes_and_reencodes(jvm: Any) -> None:
    current = 0
    for vector in vectors("pravega"):
        data = vector["data"]
        message, error = _java_decode(jvm, data)
        assert error is None, (vector["version"], vector["message"], error)
        assert message.wireName() == vector["message"]
        again = bytes(jvm.Codec.encode(message))
        assert again == pv.encode(pv.decode(data)), (vector["version"], vector["message"])
        if vector["version"] == pv.VERSION:
            assert again == data
            current += 1
        for direction in ("request", "reply"):
            assert _java_decode(jvm, data, direction)[1] == _python_decode(data, direction)[1]
    assert current >= len([m for m in pv.MESSAGES.values() if m is not pv.Event])


def test_malformed_and_fuzzed_frames_fail_with_the_python_codecs_text(jvm: Any) -> None:
    frames = [data for data, _ in MALFORMED] + _fuzzed(600, seed=3)
    refused = 0
    for data in frames:
        for direction in (None, "request", "reply"):
            java, java_error = _java_decode(jvm, data, direction)
            python, python_error = _python_decode(data, direction)
            assert java_error == python_error, (direction, data[:64])
            if java is not None:
                assert bytes(jvm.Codec.encode(java)) == pv.encode(python), data[:64]
        refused += python_error is not None
    assert refused > 300


def test_text_java_keeps_and_encodes_back(jvm: Any) -> None:
    message, error = _java_decode(jvm, UNFIT)
    assert error is None  # an unpaired surrogate (ED A0 80), which Java keeps (py4j cannot carry it to Python)
    assert bytes(jvm.Codec.encode(message)) == UNFIT


@pytest.mark.parametrize("entry", frame_entries(), ids=lambda e: e.title)
def test_java_made_frames_decode_and_reencode(jvm: Any, entry: Any) -> None:
    message, error = _java_decode(jvm, entry.frame)
    assert error is None, error
    assert message.wireName() == type(pv.decode(entry.frame)).__name__
    assert bytes(jvm.Codec.encode(message)) == entry.frame


def _java_feed(reader: Any, piece: bytes) -> tuple[list[Any], str | None]:
    try:
        return list(reader.feed(bytearray(piece))), None
    except Py4JJavaError as exc:
        return list(reader.decoded()), str(exc.java_exception.getMessage())


def _python_feed(reader: pv.Reader, piece: bytes) -> tuple[list[Any], str | None]:
    try:
        return reader.feed(piece), None
    except pv.DecodeError as exc:
        return exc.decoded, str(exc)


def _same_stream(jvm: Any, stream: bytes, cuts: list[int], direction: str | None = None) -> int:
    """Feed the stream in pieces to both Readers; every piece gives the same frames and the same error."""
    java = jvm.Reader(direction, pv.MAX_FRAME)
    python = pv.Reader(direction=direction)
    count = 0
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        java_messages, java_error = _java_feed(java, stream[a:b])
        python_messages, python_error = _python_feed(python, stream[a:b])
        assert java_error == python_error, (a, b)
        assert [bytes(jvm.Codec.encodeInline(m)) for m in java_messages] == [
            pv.encode_inline(m) for m in python_messages
        ]
        assert java.offset() == python.offset
        count += len(java_messages)
    return count


def test_the_reader_reads_a_stream_cut_anywhere(jvm: Any) -> None:
    rng = random.Random(13)
    current = [v["data"] for v in vectors("pravega") if v["version"] == pv.VERSION]
    stream = b"".join(current)
    cuts = sorted(rng.sample(range(1, len(stream)), 300))
    assert _same_stream(jvm, stream, cuts) == len(current)
    bad = current[0] + MALFORMED[8][0] + current[1] + b"\x00\x00\x00\x01\xff\xff\xff\xff" + current[2]
    _same_stream(jvm, bad, [5, len(current[0]) + 11, len(bad) - 3])
    _same_stream(jvm, bad, [])
    _same_stream(jvm, b"".join(v for v in current if pv.decode(v).__class__ is not pv.Hello), [40, 41], "reply")


@pytest.mark.parametrize("entry", batch_entries(), ids=lambda e: e.title)
def test_the_reader_reads_the_java_clients_batch(jvm: Any, entry: Any) -> None:
    setup = next(e for e in frame_entries() if e.title.startswith("SetupAppend"))
    stream = setup.frame + entry.frame
    assert _same_stream(jvm, stream, [3, 9, len(stream) // 2], "request") == len(pv.Reader().feed(stream))
