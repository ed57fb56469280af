"""The message catalog (``streamcodecs_gen/catalog.py``): the refusal texts both runtimes give are written once.

No Java runtime message is a hand copy of the Python runtime's (the rule the phase-1 count used: a Java string literal
of 12 or more characters holding a space, found verbatim in a Python runtime source); every catalog entry is said by
the runtimes; the words the Python path takes from a library (``struct``, msgspec) are that library's actual words.
"""

from __future__ import annotations

import datetime
import enum
import importlib
import re
import struct
from pathlib import Path
from typing import Annotated

import msgspec
import pytest

from streamcodecs_gen import catalog
from streamcodecs_gen.catalog import CATALOG

REPO = Path(__file__).resolve().parent.parent
JAVA_RUNTIME = REPO / "streamcodecs_gen" / "java_runtime"
PY_RUNTIME = REPO / "streamcodecs_gen" / "py_package"
_JAVA_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def _java_sources() -> str:
    """The Java runtime and the templates of the Java the generator writes (a codec may say an entry too)."""
    sources = [*sorted(JAVA_RUNTIME.rglob("*.java")), *sorted((REPO / "templates" / "java").rglob("*.j2"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in sources)


def _python_sources() -> str:
    """The Python runtime and the templates of the Python the generator writes."""
    sources = [*sorted(PY_RUNTIME.rglob("*.py")), *sorted((REPO / "templates" / "py").rglob("*.j2"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in sources)


_JINJA = re.compile(r"\{\{.*?\}\}")
DOCUMENTATION = frozenset({"; since version ", "a top-level frame.", "its end line"})
"""Texts of the generated docstrings and javadoc that both targets word alike: documentation, not refusals."""


def copied_texts(java: str, python: str) -> set[str]:
    """Java message literals (12+ characters with a space and a letter that is not a template's expression) found
    verbatim in the Python text."""
    literals = set(_JAVA_LITERAL.findall(java))
    return {
        text
        for text in literals
        if len(text) >= 12 and " " in text and re.search("[A-Za-z]", _JINJA.sub("", text)) and text in python
    }


def test_no_refusal_text_is_copied_by_hand_between_the_runtimes() -> None:
    """Neither in the runtimes nor in the templates of the code generated around them."""
    copied = copied_texts(_java_sources(), _python_sources())
    assert copied == DOCUMENTATION, f"copied by hand (put them in catalog.py): {sorted(copied - DOCUMENTATION)}"


def test_the_count_sees_a_copy() -> None:
    """The rule above finds a copied text (so that its count of none means something)."""
    java = 'throw fail("payload length " + length + " outside 0..", at);'
    python = 'raise error(f"payload length {length} outside 0..")'
    assert copied_texts(java, python) == {"payload length ", " outside 0.."}


@pytest.mark.parametrize("message", CATALOG, ids=lambda m: m.name)
def test_every_entry_is_said_by_the_runtimes(message: catalog.Message) -> None:
    at_generation = rf'\bsaid\("{message.name}"'  # (a template's text known whole, filled in by the generator)
    java = _java_sources()
    said = rf"\bMessages\.{message.java_name}\b|{at_generation}"
    if message.java_never:
        assert not re.search(said, java), f"the Java runtime says {message.name}, though java_never says why not"
    else:
        assert re.search(said, java), f"the Java runtime never says {message.name}"
    if message.source or message.python_never:
        return  # the Python path takes these words from the library (pinned below), or never meets the input
    python = _python_sources()
    said = rf"\b_m\.{message.python_name}\b|from \.messages import [^\n]*\b{message.python_name}\b|{at_generation}"
    assert re.search(said, python), f"the Python runtime never says {message.name}"


@pytest.mark.parametrize("message", CATALOG, ids=lambda m: m.name)
def test_the_rendered_module_and_the_runtime_at_source_say_the_same(message: catalog.Message) -> None:
    rendered = importlib.import_module("streamcodecs._runtime.messages")
    source = catalog.messages_at_source()
    values = {field: f"<{field}>" for field in message.fields}
    expected = message.template.format(**values)
    for module in (rendered, source):
        said = getattr(module, message.python_name)
        text = said(**values) if message.fields else said
        assert ("".join(text) if message.column else text) == expected
    assert rendered.MAX_DEPTH == source.MAX_DEPTH == catalog.MAX_DEPTH


def _struct_error(code: str, value: object) -> str:
    with pytest.raises((struct.error, OverflowError)) as caught:
        struct.pack(">" + code, value)
    return str(caught.value)


def test_struct_words_are_structs() -> None:
    by = catalog.BY_NAME
    assert _struct_error("i", "1") == by["struct_not_int"].template
    assert _struct_error("f", "1.0") == by["struct_not_float"].template
    assert _struct_error("f", 1e300) == by["struct_float_too_large"].template


def test_max_depth_is_one_number() -> None:
    from streamcodecs._runtime import jsonwire

    assert jsonwire.MAX_DEPTH == catalog.MAX_DEPTH
    too_deep = catalog.BY_NAME["too_deep"].template
    assert jsonwire.TOO_DEEP == too_deep == catalog.BY_NAME["malformed"].format(syntax="JSON", why="nested too deeply")
    assert "MAX_DEPTH = Messages.MAX_DEPTH;" in (JAVA_RUNTIME / "streamcodecs/runtime/JsonParsing.java").read_text()


def _msgspec_error(kind: object, data: bytes) -> str:
    with pytest.raises(msgspec.ValidationError) as caught:
        msgspec.json.decode(data, type=kind)
    return str(caught.value)


class _Colour(enum.Enum):
    RED = "red"


class _Needs(msgspec.Struct):
    a: int


class _Tagged(msgspec.Struct, tag="a", tag_field="t"):
    pass


class _Other(msgspec.Struct, tag="b", tag_field="t"):
    pass


def test_msgspec_words_are_msgspecs() -> None:
    """The words the Python decoder takes from msgspec are msgspec's (so a msgspec upgrade that rewords one fails
    here, not between the two codecs)."""
    by = catalog.BY_NAME
    expected = by["expected_type"]
    assert _msgspec_error(int, b'"s"') == expected.format(type="int", kind="str")
    assert _msgspec_error(str | None, b"1") == expected.format(type="str | null", kind="int")
    assert _msgspec_error(list[int], b"null") == expected.format(type="array", kind="null")
    assert _msgspec_error(Annotated[int, msgspec.Meta(le=127)], b"200") == by["int_at_most"].format(high=127)
    assert _msgspec_error(Annotated[int, msgspec.Meta(ge=-128)], b"-200") == by["int_at_least"].format(low=-128)
    aware = Annotated[datetime.datetime, msgspec.Meta(tz=True)]
    assert _msgspec_error(aware, b'"2020-01-01T00:00:00"') == by["no_timezone"].template
    assert _msgspec_error(float, b"1e400") == by["number_out_of_range"].template
    assert _msgspec_error(_Colour, b'"blue"') == by["invalid_enum"].format(value=repr("blue"))
    assert _msgspec_error(_Needs, b"{}") == "Object " + by["missing_field"].format(key="a")
    with pytest.raises(msgspec.DecodeError) as cut:
        msgspec.json.decode(b'{"a":')
    assert str(cut.value) == by["json_truncated"].template
    with pytest.raises(msgspec.DecodeError) as broken:
        msgspec.json.decode(b"[1,]")
    assert str(broken.value).startswith(by["json_syntax"].format(why=""))
    with pytest.raises(msgspec.DecodeError) as trailing:
        msgspec.json.decode(b"1 2")
    assert str(trailing.value) == by["json_syntax"].format(why=by["json_trailing"].template + " (byte 3)")
    at_tag = " - at `$.t`"
    assert _msgspec_error(_Tagged | _Other, b'{"t":1}') == by["expected_tag_type"].format(type="str") + at_tag
    assert _msgspec_error(_Tagged | _Other, b'{"t":"c"}') == by["invalid_tag"].format(tag="c") + at_tag


def test_the_content_modes_are_the_catalogs_in_both_runtimes_and_the_definition() -> None:
    """The modes to_kafka writes were a tuple in the Python runtime (kafkarecords) and a list in the Java SQL
    functions, each written by hand: now both are the catalog's, rendered (a mode added to one runtime alone would
    be refused by the other's to_kafka), and the CloudEvents definition's ContentMode enum, which users pass, holds
    the same values."""
    listed = re.compile(r"\(\s*\"binary\",\s*\"structured\"\s*\)")
    for source in (_java_sources(), _python_sources()):
        assert not listed.search(source), "the content modes are written by hand in a runtime"
    from streamcodecs._runtime import kafkarecords, messages

    assert kafkarecords.CONTENT_MODES == messages.CONTENT_MODES == catalog.CONTENT_MODES
    rendered = (REPO / "output" / "java" / "src" / "streamcodecs" / "runtime" / "Messages.java").read_text("utf-8")
    assert "CONTENT_MODES = java.util.List.of(" + ", ".join(f'"{m}"' for m in catalog.CONTENT_MODES) + ")" in rendered
    sql = (JAVA_RUNTIME / "streamcodecs" / "runtime" / "SqlFunctions.java").read_text("utf-8")
    assert "Messages.CONTENT_MODES.contains(mode)" in sql
    from streamcodecs import cloudevents

    assert tuple(mode.value for mode in cloudevents.ContentMode) == catalog.CONTENT_MODES


def test_msgspec_messagepack_words_are_msgspecs() -> None:
    """msgspec's MessagePack words, which the Java codec's MessagePack reader and writer say from the catalog."""
    by = catalog.BY_NAME

    def refusal(data: bytes) -> str:
        with pytest.raises(msgspec.DecodeError) as caught:
            msgspec.msgpack.decode(data)
        return str(caught.value)

    malformed = "MessagePack data is malformed: "
    assert refusal(b"\xc1") == malformed + by["packed_opcode"].format(opcode="'\\xc1'") + " (byte 0)"
    assert refusal(b"\x81\x80\x01") == malformed + by["packed_unhashable"].template + " (byte 3)"
    assert refusal(b"\xd4\xff\x00") == by["packed_timestamp"].template
    assert refusal(b"\xd7\xff" + b"\xff" * 8) == by["packed_timestamp_nanoseconds"].template
    assert refusal(b"\xc7\x0c\xff" + b"\x00" * 4 + (2**40).to_bytes(8, "big")) == by["packed_timestamp_range"].template
    assert refusal(b"\x01\x02") == malformed + by["json_trailing"].template + " (byte 1)"
    with pytest.raises(OverflowError) as big:
        msgspec.msgpack.encode(2**64)
    assert str(big.value) == by["packed_int_range"].template
