"""A programming error at a public entry point is a TypeError in plain words, never an AttributeError from inside the
codec nor a DecodeError: every protocol's ``decode``, ``encode`` and ``Reader.feed``, and the Kafka family's
``from_kafka`` and ``content_mode``, given what they do not take (an int, None, a list, text where bytes go)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pytest
import streamcodecs
from streamcodecs import cloudevents

MODULES = [importlib.import_module(f"streamcodecs.{name}") for name in streamcodecs.PROTOCOLS]
NOT_BYTES: list[Any] = [5, None, 2.5, [1], [0] * 64, object()]


def _refused(call: Any, value: Any) -> TypeError:
    with pytest.raises(Exception) as info:
        call(value)
    assert type(info.value) is TypeError, f"{type(info.value).__name__}: {info.value}"
    assert type(value).__name__ in str(info.value), info.value
    return info.value


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("value", NOT_BYTES, ids=repr)
def test_decode_of_what_is_not_bytes_is_a_type_error_saying_what_it_takes(module: ModuleType, value: Any) -> None:
    """An int was read as that many zero bytes (bytes(5)), a list of small ints as their bytes, each then refused as
    malformed input (DecodeError); or the refusal said ``object of type 'int' has no len()``."""
    error = _refused(module.decode, value)
    assert str(error).startswith("decode takes bytes"), error


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("value", [*NOT_BYTES, "text"], ids=repr)
def test_reader_feed_of_what_is_not_bytes_is_a_type_error_saying_what_it_takes(module: ModuleType, value: Any) -> None:
    """It said ``can't concat int to bytearray`` or ``memoryview: a bytes-like object is required``; the Reader goes
    on as before (a programming error consumes nothing)."""
    reader = module.Reader()
    error = _refused(reader.feed, value)
    assert str(error).startswith("feed takes bytes or a bytes-like object, not "), error
    assert reader.feed(b"") == []


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("value", NOT_BYTES, ids=repr)
def test_encode_of_what_is_not_a_message_is_refused_in_words(module: ModuleType, value: Any) -> None:
    with pytest.raises(ValueError, match=f"not a .*{type(value).__name__}"):
        module.encode(value)


KAFKA = [m for m in MODULES if hasattr(m, "from_kafka")]


@pytest.mark.parametrize("module", KAFKA, ids=lambda m: m.__name__)
@pytest.mark.parametrize("value", [5, None, b"{}", {"headers": []}], ids=repr)
@pytest.mark.parametrize("call", ["from_kafka", "content_mode"])
def test_a_kafka_entry_point_given_no_record_says_what_it_takes(module: ModuleType, value: Any, call: str) -> None:
    """``from_kafka(5)`` raised AttributeError ('int' object has no attribute 'headers')."""
    error = _refused(getattr(module, call), value)
    assert str(error).startswith(f"{call} takes a Kafka record (an object with headers and value"), error


def test_the_kafka_entry_points_still_take_any_object_with_headers_and_value() -> None:
    record = cloudevents.to_kafka(cloudevents.from_json(b'{"specversion":"1.0","id":"1","source":"/s","type":"t"}'))

    class Duck:
        headers = record.headers
        value = record.value

    assert cloudevents.from_kafka(Duck()) == cloudevents.from_kafka(record)
    assert cloudevents.content_mode(Duck()) == cloudevents.content_mode(record) == "binary"


@pytest.mark.parametrize("value", [5, None, b"{}"], ids=repr)
def test_the_companions_helpers_given_no_message_say_what_they_take(value: Any) -> None:
    """Each raised AttributeError ('int' object has no attribute 'low_version' / '__struct_config__')."""
    from streamcodecs import kcl, pravega

    assert str(_refused(kcl.action_of, value)).startswith("action_of takes a kcl message, not ")
    assert str(_refused(pravega.compatible, value)).startswith("compatible takes the peer's Hello, not ")
    assert str(_refused(pravega.negotiate, value)).startswith("negotiate takes the peer's Hello, not ")
    assert kcl.action_of(kcl.ShutdownRequested()) == "shutdownRequested"
    assert pravega.negotiate(pravega.hello()) == pravega.WIRE_VERSION


def _python_words(call: Any) -> str:
    with pytest.raises((TypeError, ValueError)) as info:
        call(None)
    return str(info.value)


def _java_words(call: Any) -> str:
    """The message of what the Java call throws (PySpark hands an IllegalArgumentException over as its own)."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors.exceptions.captured import IllegalArgumentException

    with pytest.raises((Py4JJavaError, IllegalArgumentException)) as info:
        call(None)
    if isinstance(info.value, IllegalArgumentException):
        return str(info.value)
    return str(info.value.java_exception.getMessage())


@pytest.mark.spark
@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_the_java_entry_points_given_null_say_what_the_python_ones_say_of_none(spark: Any, module: ModuleType) -> None:
    """decode, a Reader's feed and encode (the Kafka family's from_json, to_json and to_kafka too) given null:
    the Java codec threw a bare NullPointerException where the Python codec's TypeError or EncodeError says what the
    call takes. Null headers are no headers, as a record's None headers are to the Python codec."""
    protocol = module.__name__.rsplit(".", 1)[1]
    java = getattr(spark._jvm.streamcodecs, protocol)
    codec = java.Codec
    if hasattr(module, "from_kafka"):
        decode, reader = codec.decode, None
        assert _java_words(codec.fromJson) == _python_words(module.from_json)
        assert _java_words(codec.toJson) == _python_words(module.to_json)
        assert _java_words(lambda e: codec.toKafka(e, True)) == _python_words(module.to_kafka)
        record = module.KafkaRecord(None, b"{}", None)
        assert codec.contentMode(None) == module.content_mode(record) == "binary"
        with pytest.raises(module.DecodeError) as python:
            module.from_kafka(record)
        assert _java_words(lambda v: codec.fromKafka(bytearray(b"{}"), v)) == str(python.value)
    else:
        decode = codec.decode if protocol == "pravega" else (lambda frame: codec.decode(frame, None))
        reader = java.Reader() if protocol == "pravega" else java.Reader(None)
    assert _java_words(decode) == _python_words(module.decode)
    assert _java_words(codec.encode) == _python_words(module.encode)
    if reader is not None:
        assert _java_words(reader.feed) == _python_words(module.Reader().feed)


@pytest.mark.spark
@pytest.mark.parametrize("protocol", ["kcl", "storm"])
def test_the_java_entry_points_of_a_slice_refuse_null_and_a_range_outside_it_in_the_catalogs_words(
    spark: Any, protocol: str
) -> None:
    """The JSON family's decode and feed of ``data[offset, offset + length)``: null says what the one-argument
    calls say (the Python codec's words of None), and an offset and length that are not a slice of the data the
    catalog's ``not_a_slice``, as an IndexOutOfBoundsException (they threw a bare NullPointerException and an
    ArrayIndexOutOfBoundsException, or read the bytes after the slice's end); a slice is read alone. A direction
    index that is no direction's is an unknown direction."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors.exceptions.captured import IllegalArgumentException
    from streamcodecs._runtime import messages

    module = importlib.import_module(f"streamcodecs.{protocol}")
    java = getattr(spark._jvm.streamcodecs, protocol)
    assert _java_words(lambda d: java.Codec.decode(d, 0, 0, -1, -1)) == _python_words(module.decode)
    assert _java_words(lambda d: java.Reader(None).feed(d, 0, 0)) == _python_words(module.Reader().feed)
    frames = spark._jvm.streamcodecs.runtime.JsonReader.Frames
    assert _java_words(lambda d: frames(protocol == "storm", 1 << 20).feed(d, 0, 0)) == _python_words(
        module.Reader().feed
    )
    frame = b'{"command":"sync"}\nend\n' if protocol == "storm" else b'{"action":"shutdownRequested"}\n'
    data = bytearray(b"xx" + frame + b"yy")
    assert java.Codec.decode(data, 2, len(frame), -1, -1).messageName() == type(module.decode(frame)).__name__
    directions = len(module.DIRECTIONS)
    for direction in (-2, directions):  # an index that is no direction's (ArrayIndexOutOfBounds on a refusal)
        with pytest.raises(IllegalArgumentException) as unknown:
            java.Codec.decode(data, 2, len(frame), direction, -1)
        assert str(unknown.value) == messages.unknown_direction(direction=direction, directions=module.DIRECTIONS)
    for offset, length in ((-1, 1), (0, -1), (0, len(data) + 1), (len(data), 1), (3, len(data) - 2), (1, 2**31 - 1)):
        for name in ("decode", "feed", "frames"):
            with pytest.raises(Py4JJavaError) as refused:
                if name == "decode":
                    java.Codec.decode(data, offset, length, -1, -1)
                elif name == "feed":
                    java.Reader(None).feed(data, offset, length)
                else:  # the public cutter under the Reader
                    frames(protocol == "storm", 1 << 20).feed(data, offset, length)
            thrown = refused.value.java_exception
            assert thrown.getClass().getName() == "java.lang.IndexOutOfBoundsException", (name, offset, length)
            words = messages.not_a_slice(
                call=name.replace("frames", "feed"), offset=offset, length=length, size=len(data)
            )
            assert thrown.getMessage() == words


@pytest.mark.spark
@pytest.mark.parametrize("protocol", ["kcl", "storm", "pravega"])
def test_the_java_codecs_refuse_an_unknown_direction_in_the_python_codecs_words(spark: Any, protocol: str) -> None:
    """The catalog's unknown_direction, its fields as Python's reprs (the directions a tuple): the Java JSON codecs
    wrote their own words (``expected one of to_child, to_daemon``, a name in quotes whatever it held), the binary
    one a Java list (``[request, reply]``), and the JSON family's Python template its own copy of the text."""
    from pyspark.errors.exceptions.captured import IllegalArgumentException

    module = importlib.import_module(f"streamcodecs.{protocol}")
    java = getattr(spark._jvm.streamcodecs, protocol)
    for name in ("sideways", "it's", "tab\there"):
        with pytest.raises(ValueError) as python:
            module.Reader(direction=name)
        with pytest.raises(IllegalArgumentException) as refused:
            java.Reader(name, 100) if protocol == "pravega" else java.Reader(name)
        assert str(refused.value) == str(python.value), name
        assert str(python.value).startswith(f"unknown direction {name!r}; expected one of ("), name
