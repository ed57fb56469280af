"""The Java sources of the codecs and Spark UDFs that run on Spark's JVM: a shared output, rendered once per run.

Spark executes on the JVM, so the fast path of ``streamcodecs.spark`` is Java generated from the same model as
the Python codecs (as ``from_avro``/``from_protobuf`` are Java for Avro and Protobuf).  The sources are one Java
package per protocol, ``<namespace>.<protocol>``, plus the hand-written runtime ``<namespace>.runtime``; the ``java``
target writes them under ``src/`` and the ``py`` target ships them compiled into its jar (``jar.py``), so a user of
the Python package needs a Java runtime but no JDK.

Hand-written Java lives in ``java_runtime/`` as ordinary sources (compiled with ``-Xlint:all -Werror`` like the
rest); it is copied with its package renamed to the namespace.  Which templates render a protocol, and what they read
besides the model, is said by the table of the wire families below (:data:`FAMILIES`; the contexts are computed
in ``analysis/``).  Nothing here names a protocol.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .analysis import java_binary, java_json
from .analysis import kafka as kafka_analysis
from .analysis.json import spark_packed
from .analysis.runtime import runtime_context
from .analysis.spark import BINARY_ROW, JSON_ROW, spark_plan
from .analysis.sql import codec_sql, kafka_sql
from .filters import java_lines
from .model import Protocol
from .render import LINE_LENGTH, Options, OutputFile, Renderer, copy_header, drop_unused_java_imports, header

JAVA_RUNTIME_DIR = Path(__file__).resolve().parent / "java_runtime"
"""Hand-written Java sources, under their package directories (``streamcodecs/runtime/*.java``)."""
_OWN_PACKAGE = re.compile(r"^((?:package|import|import static) )streamcodecs\.", re.MULTILINE)


@dataclass(frozen=True)
class JavaFamily:
    """How the Java sources of the protocols of one wire family are rendered."""

    templates: tuple[str, ...]
    """The protocol's Java sources (``java/<family>/Name.java.j2`` renders ``<namespace>/<protocol>/Name.java``)."""
    context: Callable[[Protocol], dict[str, Any] | None]
    """The names the family's Java templates read besides ``protocol``, ``package`` and ``runtime`` (computed on the
    model, in analysis/); None when the protocol has no Java sources (its Spark functions take their Python path).
    ``java_names`` may map a template's name (``Event``) to the name of the file and class it renders."""


def _templates(family: str, *names: str) -> tuple[str, ...]:
    return tuple(f"java/{family}/{name}.java.j2" for name in names)


def _binary(protocol: Protocol) -> dict[str, Any]:
    sql = codec_sql(protocol, spark_plan(protocol, reserved=BINARY_ROW, variant=False), variant=False)
    return {**java_binary.java_context(protocol), "sql": sql}


def _json(protocol: Protocol) -> dict[str, Any]:
    spark = spark_plan(protocol, reserved=JSON_ROW, variant=True)
    sql = codec_sql(protocol, spark, variant=True, packed=spark_packed(protocol))
    return {**java_json.java_context(protocol), "sql": sql}


def _kafka(protocol: Protocol) -> dict[str, Any] | None:
    context = kafka_analysis.java_context(protocol)
    return None if context is None else {**context, "sql": kafka_sql(protocol, kafka_analysis.kafka_spark(protocol))}


FAMILIES: dict[str, JavaFamily] = {
    "binary": JavaFamily(
        _templates("binary", "Messages", "Codec", "Reader", "SparkRows", "Decode", "Encode", "SplitInline", "Sql"),
        _binary,
    ),
    "json": JavaFamily(
        _templates("json", "Messages", "Codec", "Reader", "Decode", "Encode", "DecodePacked", "EncodePacked", "Sql"),
        _json,
    ),
    "kafka": JavaFamily(
        _templates(
            "kafka",
            "Event",
            "Codec",
            "SparkRows",
            "FromKafka",
            "ContentMode",
            "DataText",
            "Decode",
            "Encode",
            "ToKafkaBinary",
            "ToKafkaStructured",
            "Sql",
        ),
        _kafka,
    ),
}
"""The Java part of each wire family (``families/``), by the family's name; a family without one has no Java. Each
protocol's ``Sql`` source registers its Spark SQL functions (``analysis/sql.py``: the ``sql`` of its context)."""
RUNTIME_TEMPLATES = (
    "java/runtime/JsonWire.java.j2",
    "java/runtime/KafkaWire.java.j2",
    "java/runtime/Messages.java.j2",
    "java/runtime/PythonPrintable.java.j2",
)
"""Runtime sources rendered (not copied), once per run, from the facts both runtimes share (``analysis/runtime.py``:
the type records' rows and the message catalog, ``catalog.py``; ``java/runtime/Name.java.j2`` renders
``<namespace>/runtime/Name.java``), beside the hand-written ones of ``java_runtime/``; no hand-written source has the
same name."""
NAMESPACE_TEMPLATES = ("java/SqlExtensions.java.j2",)
"""Sources of the whole namespace (``java/Name.java.j2`` renders ``<namespace>/Name.java``), rendered with the names
of the protocols that have Java sources: the ``spark.sql.extensions`` provider, which calls each one's ``Sql``."""


def java_package(options: Options, *parts: str) -> str:
    return ".".join([options.namespace, *parts])


def java_sources(protocols: list[Protocol], options: Options) -> list[OutputFile]:
    """Every Java source file, paths relative to the source root (``streamcodecs/kcl/Codec.java``)."""
    renderer = Renderer(options)
    root = PurePosixPath(*options.namespace.split("."))
    files: list[OutputFile] = []
    rendered: list[str] = []
    for source in sorted(JAVA_RUNTIME_DIR.rglob("*.java")):
        relative = PurePosixPath(source.relative_to(JAVA_RUNTIME_DIR).as_posix())
        text = _OWN_PACKAGE.sub(lambda m: f"{m.group(1)}{options.namespace}.", source.read_text(encoding="utf-8"))
        origin = f"streamcodecs_gen/java_runtime/{relative}"
        files.append(OutputFile(None, root / relative.relative_to("streamcodecs"), copy_header(origin, "//") + text))
    runtime = runtime_context()
    for template in RUNTIME_TEMPLATES:
        name = PurePosixPath(template).name.removesuffix(".j2")
        assert not (JAVA_RUNTIME_DIR / "streamcodecs" / "runtime" / name).exists(), f"{name}: rendered and copied"
        body = renderer.render(template, f"templates/{template}", runtime=java_package(options, "runtime"), **runtime)
        files.append(OutputFile(None, root / "runtime" / name, header(f"templates/{template}", "//") + _java(body)))
    for protocol in protocols:
        java = FAMILIES.get(protocol.family)
        extra = java.context(protocol) if java else None
        if java is None or extra is None:
            continue
        rendered.append(protocol.name)
        context: dict[str, Any] = {
            "protocol": protocol,
            "package": java_package(options, protocol.name),
            "runtime": java_package(options, "runtime"),
            **extra,
        }
        names: dict[str, str] = extra.get("java_names", {})
        for template in java.templates:
            stem = PurePosixPath(template).name.removesuffix(".java.j2")
            name = names.get(stem, stem) + ".java"
            body = renderer.render(template, protocol.source, **context)
            if not body.strip():
                continue  # a source this protocol does not need (its template rendered nothing)
            files.append(
                OutputFile(protocol.name, root / protocol.name / name, header(protocol.source, "//") + _java(body))
            )
    for template in NAMESPACE_TEMPLATES:
        body = renderer.render(template, f"templates/{template}", namespace=options.namespace, protocols=rendered)
        name = PurePosixPath(template).name.removesuffix(".j2")
        files.append(OutputFile(None, root / name, header(f"templates/{template}", "//") + _java(body)))
    return files


def _java(body: str) -> str:
    """A rendered Java source as it is written: without the imports it does not use, and read as hand-written Java
    is (``filters.java_lines``: a statement longer than the line length wrapped at its outermost call's arguments, as
    every template would otherwise have to ask)."""
    return java_lines(drop_unused_java_imports(body), LINE_LENGTH)
