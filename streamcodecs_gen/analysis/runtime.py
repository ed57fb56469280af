"""The wire types' facts both runtimes share, as the runtime templates render them (``templates/*/runtime/``).

The type records (``types.py``) say each fact once: an integer's range follows from its bits and sign, a JSON
alias's msgspec constraint from that range, the Java JSON family's per-type methods from the record's Java type and
cores. This module turns the records into the rows the Python ``_runtime/wiretypes.py`` and the Java
``runtime/JsonWire.java`` are rendered from, once per run (not per protocol): a new wire type is its record.
"""

from __future__ import annotations

import datetime
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Annotated, Any

import msgspec

from ..catalog import catalog_context
from ..patterns import PATTERNS
from ..types import WIRE_TYPES, WireType

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


def runtime_context() -> dict[str, Any]:
    """The names every runtime template reads: the type records' rows, the message catalog's and the Kafka family's
    text patterns."""
    return {
        "aliases": python_aliases(),
        "integer_ranges": integer_ranges(),
        "java_json_types": java_json_types(),
        "patterns": PATTERNS,
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
