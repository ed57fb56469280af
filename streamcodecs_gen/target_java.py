"""The ``java`` target: Java sources of the codecs and Spark UDFs that run on Spark's JVM.

Spark executes on the JVM, so the fast path of ``streamcodecs.spark`` is Java generated from the same model as
the Python codecs (as ``from_avro``/``from_protobuf`` are Java for Avro and Protobuf).  This target writes the
sources under ``src/`` (one Java package per protocol, ``<namespace>.<protocol>``, plus the hand-written runtime
``<namespace>.runtime``); the ``py`` target compiles them into the jar it ships (``jar.py``), so a user of the
Python package needs a Java runtime but no JDK.

Hand-written Java lives in ``java_runtime/`` as ordinary sources (compiled with ``-Xlint:all -Werror`` like the
rest); it is copied with its package renamed to the namespace.  Which templates render a protocol is said by its
wire family's object (``families/``, ``templates.java``).  Nothing here names a protocol.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any

from .families import family
from .model import Protocol
from .render import Options, OutputFile, Renderer, drop_unused_java_imports, header

JAVA_RUNTIME_DIR = Path(__file__).resolve().parent / "java_runtime"
"""Hand-written Java sources, under their package directories (``streamcodecs/runtime/*.java``)."""
SOURCE_ROOT = PurePosixPath("src")
NAMESPACE_TEMPLATES = ("java/SqlExtensions.java.j2",)
"""Sources of the whole namespace (``java/Name.java.j2`` renders ``<namespace>/Name.java``), rendered with the names
of the protocols that have Java sources: the ``spark.sql.extensions`` provider."""
_OWN_PACKAGE = re.compile(r"^((?:package|import|import static) )streamcodecs\.", re.MULTILINE)


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
        files.append(OutputFile(None, root / relative.relative_to("streamcodecs"), _copied(origin) + text))
    for protocol in protocols:
        wire_family = family(protocol.family)
        templates = wire_family.templates.java
        extra = wire_family.java_context(protocol) if templates else None
        if extra is None:
            continue
        rendered.append(protocol.name)
        context: dict[str, Any] = {
            "protocol": protocol,
            "package": java_package(options, protocol.name),
            "runtime": java_package(options, "runtime"),
            **extra,
        }
        names: dict[str, str] = extra.get("java_names", {})
        for template in templates:
            stem = PurePosixPath(template).name.removesuffix(".java.j2")
            name = names.get(stem, stem) + ".java"
            body = renderer.render(template, protocol.source, **context)
            if not body.strip():
                continue  # a source this protocol does not need (its template rendered nothing)
            body = drop_unused_java_imports(body)
            files.append(OutputFile(protocol.name, root / protocol.name / name, header(protocol.source, "//") + body))
    for template in NAMESPACE_TEMPLATES:
        body = renderer.render(template, f"templates/{template}", namespace=options.namespace, protocols=rendered)
        name = PurePosixPath(template).name.removesuffix(".j2")
        files.append(OutputFile(None, root / name, header(f"templates/{template}", "//") + body))
    return files


def java_target(protocols: list[Protocol], options: Options) -> list[OutputFile]:
    return [OutputFile(f.owner, SOURCE_ROOT / f.path, f.content) for f in java_sources(protocols, options)]


def _copied(origin: str) -> str:
    return f"// Copied from {origin} by ./generator.py; edit that file, not this copy.\n"
