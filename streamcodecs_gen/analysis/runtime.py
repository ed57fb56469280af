"""The wire types' facts both runtimes share, as the runtime templates render them (``templates/*/runtime/``).

The type records (``types.py``) say each fact once: an integer's range follows from its bits and sign, a JSON
alias's msgspec constraint from that range, the Java JSON family's per-type methods from the record's Java type and
cores, and the Kafka family's from the record's rules or range. This module turns the records into the rows the
Python ``_runtime/wiretypes.py`` and the Java ``runtime/JsonWire.java`` and ``runtime/KafkaWire.java`` are rendered
from, once per run (not per protocol): a new wire type is its record.
"""

from __future__ import annotations

import datetime
import sys
import unicodedata
from dataclasses import dataclass
from types import ModuleType
from typing import Annotated, Any

import msgspec

from ..catalog import catalog_context
from ..naming import java_camel
from ..patterns import PATTERNS
from ..types import JAVA_PRIMITIVES, KAFKA, WIRE_TYPES, WireType

SOURCE_RUNTIME = "streamcodecs_gen.py_package._runtime"
"""The hand-written Python runtime as a package at its source."""


@dataclass(frozen=True)
class PythonAlias:
    """A msgspec-annotated alias of the runtime's ``wiretypes`` (``Int32``, ``Timestamp``)."""

    name: str
    base: str  # the Python type it annotates
    meta: str  # the msgspec.Meta arguments


@dataclass(frozen=True)
class JavaJsonType:
    """One wire type's methods of the generated ``JsonWire``: read<helper>[OrNull], write<helper>[OrNull] and, where
    Spark's external value is not the codec's, from<helper>."""

    helper: str
    java: str  # the (boxed) Java type of a value
    read: str  # the core reading the parser ``p``'s current value (``{nullable}``: true or false)
    write: str  # the core writing ``v`` to ``w``
    spark_from: str | None  # the core converting Spark's external value ``o``


@dataclass(frozen=True)
class JavaKafkaType:
    """One wire type's methods of the generated ``KafkaWire``: <stem>FromText (a header's text ``text``),
    <stem>FromJson (a member ``value`` of the JSON event format), <stem>ToText (the value ``value``'s canonical text)
    and, where the event format writes the value as a bare JSON value (a boolean, a number, JSON text),
    <stem>ToJson. Each is one call to the type's rule in ``KafkaRules``."""

    name: str  # the wire type
    stem: str  # ``uriReference``
    java: str  # the (boxed) Java type of a value
    from_text: str
    from_json: str
    to_text: str
    to_json: str | None


def kafka_java_type(wire: WireType) -> str | None:
    """The Java type the kafka family holds a value of the type as: the record's, or ``String`` for one held as its
    JSON text (None: no Java type)."""
    return "String" if wire.java_json_text else wire.java


def _java_long(value: int) -> str:
    assert -(1 << 63) <= value < 1 << 63, f"{value}: a Java integer type's range must fit a long"
    return f"{value}L"


def _java_kafka(wire: WireType) -> JavaKafkaType | None:
    java = kafka_java_type(wire)
    if KAFKA not in wire.families or java is None:
        return None
    primitive = JAVA_PRIMITIVES.get(java, java)
    if wire.bits:
        low, high = (_java_long(end) for end in wire.range)
        cast = "" if primitive == "long" else f"({primitive}) "
        read = f"{cast}integer({{}}, {low}, {high})"
        from_json = f"{cast}jsonInteger(value, {low}, {high})"
        to_text = f"integerText(value, {low}, {high})"
        to_json: str | None = to_text
    elif wire.py == "float":
        # (a double: float32 is a binary-family type, whose single precision a JSON number does not carry)
        assert primitive == "double", f"{wire.name}: a Kafka float is held as a double"
        largest = repr(wire.largest)
        read = f"numberText({{}}, {largest})"
        from_json = f"jsonNumber(value, {largest})"
        to_text = f"PythonText.pythonFloat(finite(value, {largest}))"
        to_json = f"PythonText.msgspecFloat(finite(value, {largest}))"
    elif wire.java_kafka_read:
        read = wire.java_kafka_read
        from_json = wire.java_kafka_json or read.format("jsonText(value)")
        to_text = wire.java_kafka_text or read.format("value")
        to_json = to_text if java in JAVA_PRIMITIVES or wire.java_json_text else None
    else:
        return None
    return JavaKafkaType(wire.name, java_camel(wire.name), java, read.format("text"), from_json, to_text, to_json)


def java_kafka_types() -> list[JavaKafkaType]:
    """The kafka family's Java per-type methods, one row per type the Java target carries, in the registry's order."""
    return [row for row in map(_java_kafka, WIRE_TYPES.values()) if row is not None]


def python_kafka_codec(wire: WireType) -> str | None:
    """The Python runtime's call (``kafkawire``) that makes a kafka-family integer's or float's four conversions
    from its record (``int_codec(-128, 127)``); None: the runtime has the type's by name (``<wire>_from_text``...)."""
    if wire.bits:
        low, high = wire.range
        return f"int_codec({low}, {high})"
    if wire.py == "float":
        return f"float_codec({wire.largest!r})"
    return None


def python_aliases() -> list[PythonAlias]:
    """Every JSON alias of the registry, in its order."""
    aliases = []
    for wire in WIRE_TYPES.values():
        if not wire.json:
            continue
        if wire.bits:
            low, high = wire.range
            meta = f"ge={low}, le={high}"
        else:
            assert wire.json_meta, f"{wire.name}: a JSON alias needs its msgspec.Meta (json_meta) or bits"
            meta = wire.json_meta
        aliases.append(PythonAlias(wire.json, wire.py, meta))
    return aliases


def integer_ranges() -> dict[str, tuple[int, int]]:
    """The smallest and largest value of each fixed-size integer type, by name."""
    return {t.name: t.range for t in WIRE_TYPES.values() if t.bits and t.struct}


def _java_json(wire: WireType) -> JavaJsonType:
    assert wire.java_helper and wire.java
    core = wire.java_helper.lower()
    if wire.bits:
        low, high = wire.range
        cast = "" if wire.java_primitive == "long" else f"({wire.java_primitive}) "
        read = f'{cast}JsonRead.integer(p, "int", {{nullable}}, {low}L, {high}L)'
        write = f"JsonWrite.integer(w, v, {{nullable}}, {low}L, {high}L)"
    else:
        read = f"JsonRead.{core}(p, {{nullable}})"
        write = f"JsonWrite.{core}(w, v, {{nullable}})"
    return JavaJsonType(
        wire.java_helper,
        wire.java,
        wire.java_json_read or read,
        wire.java_json_write or write,
        wire.java_spark_from,
    )


def java_json_types() -> list[JavaJsonType]:
    """The JSON family's Java per-type methods, one row per type with a ``java_helper``."""
    return [_java_json(t) for t in WIRE_TYPES.values() if t.java_helper]


def printable_runs() -> list[int]:
    """Where the runs of code points that Python's ``str.isprintable`` (and so ``repr``) prints begin and end: the
    first code point of each run, from U+0000 (not printed) on, so that the runs of odd index are printed. The
    generator's Python decides (its Unicode database); the Java runtime's ``repr`` reads these runs instead of the
    JDK's own Unicode tables, which are of another Unicode version."""
    runs: list[int] = []
    printed = True
    for code in range(sys.maxunicode + 1):
        if chr(code).isprintable() != printed:
            runs.append(code)
            printed = not printed
    return runs


def runtime_context() -> dict[str, Any]:
    """The names every runtime template reads: the type records' rows, the message catalog's and the Kafka family's
    text patterns."""
    return {
        "aliases": python_aliases(),
        "integer_ranges": integer_ranges(),
        "java_json_types": java_json_types(),
        "java_kafka_types": java_kafka_types(),
        "patterns": PATTERNS,
        "printable_runs": printable_runs(),
        "unicode_version": unicodedata.unidata_version,
        **catalog_context(),
    }


def wiretypes_at_source() -> ModuleType:
    """The rendered ``_runtime/wiretypes`` beside the hand-written runtime at its source, so that ``jsonwire`` and
    ``kafkawire`` import there too: built from the same rows the template renders (``py/runtime/wiretypes.py.j2``),
    once per process."""
    name = f"{SOURCE_RUNTIME}.wiretypes"
    if name not in sys.modules:
        module = ModuleType(name, "The wire types' facts (rendered into the package as _runtime/wiretypes.py).")
        names = {"Annotated": Annotated, "msgspec": msgspec, "datetime": datetime}
        for alias in python_aliases():
            setattr(module, alias.name, eval(f"Annotated[{alias.base}, msgspec.Meta({alias.meta})]", names))
        module.INTEGER_RANGES = integer_ranges()  # type: ignore[attr-defined]
        sys.modules[name] = module
    return sys.modules[name]
