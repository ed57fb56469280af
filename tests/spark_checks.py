"""Helpers for the Spark tests: the compatibility vectors as rows, and values made comparable across Spark and Python.

A decoded Spark row and a codec message are compared through plain values: bytes, str, int, float, bool, None,
lists and dicts (UUIDs as canonical text, timestamps as epoch seconds, VARIANTs as the Python values they hold).
"""

from __future__ import annotations

import datetime
import enum
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

GENERATED = Path(__file__).resolve().parent.parent / "output" / "py"
VECTORS = GENERATED / "vectors"

PYTHON_NODES = (
    "BatchEvalPython",
    "ArrowEvalPython",
    "MapInArrow",
    "MapInPandas",
    "PythonMapInArrow",
    "FlatMapGroupsInArrow",
)
"""Physical operators that run a Python worker."""


def vectors(protocol: str) -> list[dict[str, Any]]:
    """Every vector of every version: version, message, variant, direction and the wire bytes as ``data``."""
    found = []
    for version_dir in sorted((VECTORS / protocol).iterdir()):
        manifest = json.loads((version_dir / "manifest.json").read_text(encoding="utf-8"))
        blob = (version_dir / manifest["file"]).read_bytes()
        for entry in manifest["vectors"]:
            data = blob[entry["offset"] : entry["offset"] + entry["length"]]
            found.append({**entry, "version": version_dir.name, "data": data})
    return found


def manifest_records(protocol: str) -> list[dict[str, Any]]:
    """The Kafka records of a kafka-family protocol's vectors (every version)."""
    found = []
    for version_dir in sorted((VECTORS / protocol).iterdir()):
        manifest = json.loads((version_dir / "manifest.json").read_text(encoding="utf-8"))
        for record in manifest.get("records", []):
            found.append({**record, "version": version_dir.name})
    return found


def plain(value: Any) -> Any:
    """A Spark value (Row, VariantVal, bytearray, naive datetime) or a codec value as a comparable plain value."""
    from pyspark.sql import Row
    from pyspark.sql.types import VariantVal

    if isinstance(value, Row):
        return {k: plain(v) for k, v in value.asDict().items()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, VariantVal):
        return plain(value.toPython())
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, datetime.datetime):
        return value.timestamp()  # Spark gives naive local times, the codec aware ones: both the same instant
    if type(value).__name__ == "UnsetType":
        return None  # a removed field the peer did not send; Spark reads it as null
    return value


def python_decode(codec: Any, data: bytes, direction: str | None) -> tuple[str | None, Any, str | None]:
    """(message name, plain fields, None) or (None, None, error text), as the codec decodes ``data``."""
    try:
        message = codec.decode(data, direction=direction)
    except codec.DecodeError as exc:
        return None, None, str(exc)
    fields = message.to_dict()
    for name in getattr(message, "__struct_fields__", ()):  # to_dict leaves out a removed field the peer did not
        fields.setdefault(name, None)  # send; Spark reads it as null
    return type(message).__name__, plain(fields), None


def spark_decoded(module: Any, row: Any) -> tuple[str | None, Any, str | None]:
    """(message name, plain fields, error) of one row of ``module.decode``; a message without fields gives {}."""
    if row is None:
        return None, None, None
    if row["message"] is None:
        return None, None, row["error"]
    fields = plain(row[module._KINDS[row["message"]].column])
    return row["message"], {} if fields is True else fields, row["error"]


def plan_nodes(frame: Any) -> list[str]:
    """The names of the physical operators of a DataFrame's executed plan (a Python UDF always gets its own)."""
    names = []
    todo = [frame._jdf.queryExecution().executedPlan()]
    while todo:
        node = todo.pop()
        names.append(str(node.nodeName()))
        children = node.children()
        todo.extend(children.apply(i) for i in range(children.size()))
    return names


def plan_text(frame: Any) -> str:
    """The executed plan as text (expressions may be abridged)."""
    return str(frame._jdf.queryExecution().executedPlan().toString())


@contextmanager
def on_path(spark: Any, path: str) -> Iterator[None]:
    """Columns built (and queries run) inside take ``path``; the JVM path is restored after."""
    spark.conf.set("spark.streamcodecs.jvm", "true" if path == "jvm" else "false")
    try:
        yield
    finally:
        spark.conf.set("spark.streamcodecs.jvm", "true")
