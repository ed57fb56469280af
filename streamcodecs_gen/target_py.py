"""The ``py`` target: an installable package with one subpackage per protocol, plus Spark modules.

Which templates render a protocol, and what they read besides the model, is said by this target's table of the wire
families (:data:`FAMILIES`; the contexts are computed in ``analysis/``).
The vectors and the jar are shared outputs (``shared.py``), built once before the targets; this target ships them.
Hand-written modules are copied, not rendered: the shared runtime (``py_package/_runtime/*.py``), the Spark
building blocks (``py_package/spark/__init__.py``, when a protocol has a Spark module) and each declared companion
(``py_package/<protocol>/<name>.py``, or the package ``<name>/``; see ``py_package/README.md``). Nothing here names
a protocol.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .analysis import binary as binary_analysis
from .analysis import json_checks
from .analysis import kafka as kafka_analysis
from .analysis.json import spark_packed
from .analysis.runtime import runtime_context
from .analysis.spark import BINARY_ROW, JSON_ROW, spark_context
from .families.framing import JsonFraming
from .families.registry import family
from .model import Protocol
from .problems import Problem
from .render import PY_PACKAGE_DIR, PY_TESTS_DIR, Options, OutputFile, Renderer, copy_source, format_python
from .shared import JAR, VECTORS, Shared, Vectors, jar_path
from .vectors import manifest as _manifest

Context = Callable[[Protocol], dict[str, Any]]


@dataclass(frozen=True)
class PythonFamily:
    """How this target renders the protocols of one wire family (a test checks that each template exists)."""

    messages: str
    """The template of the protocol's ``messages`` module."""
    context: Context
    """The names the family's Python templates read besides ``protocol`` (computed on the model, in analysis/)."""
    spark: str | None = None
    """The template of the protocol's Spark module, if the family has one."""
    spark_context: Context = lambda protocol: {}
    """The names the Spark template reads on top of :attr:`context`."""


def _binary_spark(protocol: Protocol) -> dict[str, Any]:
    return spark_context(protocol, reserved=BINARY_ROW, variant=False)


def _json_spark(protocol: Protocol) -> dict[str, Any]:
    framing = protocol.framing_as(JsonFraming)
    return {
        **spark_context(protocol, reserved=JSON_ROW, variant=True),  # free-form JSON: a VARIANT
        "terminator": framing.terminator_words,  # what ends a message
        "packed": spark_packed(protocol),  # the MessagePack framing variants (serializer=)
    }


FAMILIES: dict[str, PythonFamily] = {
    "binary": PythonFamily(
        "py/binary/messages.py.j2", binary_analysis.python_context, "spark/binary.py.j2", _binary_spark
    ),
    "json": PythonFamily("py/json/messages.py.j2", json_checks.python_context, "spark/json.py.j2", _json_spark),
    "kafka": PythonFamily(
        "py/kafka/messages.py.j2", kafka_analysis.python_context, "spark/kafka.py.j2", kafka_analysis.spark_context
    ),
}
"""This target's part of each wire family (``families/``), by the family's name."""
RUNTIME_TEMPLATES = {
    "py/runtime/wiretypes.py.j2": "wiretypes.py",
    "py/runtime/messages.py.j2": "messages.py",
    "py/runtime/kafkapatterns.py.j2": "kafkapatterns.py",
}
"""Runtime modules rendered (not copied), once per run, from the facts both runtimes share (``analysis/runtime.py``:
the type records' rows, the message catalog of ``catalog.py`` and the Kafka family's text patterns of
``patterns.py``), beside the hand-written ``_runtime`` modules; no hand-written module has the same name."""


def needs(protocols: list[Protocol], options: Options) -> frozenset[str]:
    """The shared outputs this target ships: the vectors (unless ``--no-binary``), and the jar if a Spark module
    calls it."""
    wanted = {VECTORS} if options.binary else set()
    if any(FAMILIES[p.family].spark for p in protocols):
        wanted.add(JAR)
    return frozenset(wanted)


def companion_sources(protocol: str, companion: str) -> list[Path]:
    """A companion's hand-written files: its module (``py_package/<protocol>/<companion>.py``), or the files of its
    package (``py_package/<protocol>/<companion>/*.py``, ``__init__.py`` among them: a module too long to read in
    one sitting, split by concern, keeps its import path); none when it has neither, or both."""
    module = PY_PACKAGE_DIR / protocol / f"{companion}.py"
    package = PY_PACKAGE_DIR / protocol / companion
    if (package / "__init__.py").is_file():
        return [] if module.exists() else sorted(package.glob("*.py"))
    return [module] if module.is_file() else []


def companion_problems(protocols: list[Protocol]) -> list[Problem]:
    """A companion a definition declares (``companions``) without one hand-written module or package."""
    return [
        Problem(
            p.source,
            1,
            f"companion {c!r} has no module (streamcodecs_gen/py_package/{p.name}/{c}.py) or package"
            f" (streamcodecs_gen/py_package/{p.name}/{c}/__init__.py), or has both",
            "write the companion module or package (one of them), or remove it from `companions`",
        )
        for p in protocols
        for c in p.companions
        if not companion_sources(p.name, c)
    ]


def python_target(protocols: list[Protocol], options: Options, shared: Shared) -> list[OutputFile]:
    renderer = Renderer(options)
    package = options.package_path
    files: list[OutputFile] = []

    def add(template: str, path: PurePosixPath, source: str | None = None, **context: Any) -> None:
        owner = context["protocol"].name if "protocol" in context else None
        files.append(OutputFile(owner, path, renderer.render(template, source or f"templates/{template}", **context)))

    add("py/package/pyproject.toml.j2", PurePosixPath("pyproject.toml"), protocols=protocols)
    add("py/package/__init__.py.j2", package / "__init__.py", protocols=protocols)
    files.append(OutputFile(None, package / "__main__.py", copy_source(PY_PACKAGE_DIR / "__main__.py")))
    files.append(OutputFile(None, package / "py.typed", ""))
    for module in sorted((PY_PACKAGE_DIR / "_runtime").glob("*.py")):
        files.append(OutputFile(None, package / "_runtime" / module.name, copy_source(module)))
    runtime = runtime_context()
    for template, name in RUNTIME_TEMPLATES.items():
        assert not (PY_PACKAGE_DIR / "_runtime" / name).exists(), f"_runtime/{name} is both rendered and copied"
        add(template, package / "_runtime" / name, **runtime)
    for protocol in protocols:
        python = FAMILIES[protocol.family]
        context = {"protocol": protocol, **python.context(protocol)}
        where = package / protocol.name
        add(python.messages, where / "messages.py", protocol.source, **context)
        add("py/package/protocol_init.py.j2", where / "__init__.py", protocol.source, protocol=protocol)
        for companion in protocol.companions:
            for module in companion_sources(protocol.name, companion):
                relative = module.relative_to(PY_PACKAGE_DIR / protocol.name)
                files.append(OutputFile(protocol.name, where.joinpath(*relative.parts), copy_source(module)))
        if python.spark:
            spark = python.spark_context(protocol)
            add(python.spark, package / "spark" / f"{protocol.name}.py", protocol.source, **context, **spark)
    if JAR in needs(protocols, options):
        for module in sorted((PY_PACKAGE_DIR / "spark").glob("*.py")):
            files.append(OutputFile(None, package / "spark" / module.name, copy_source(module)))
        assert shared.jar is not None  # the JVM path of the Spark functions (java_sources.py, jar.py)
        files.append(OutputFile(None, jar_path(options), shared.jar))
    if VECTORS in needs(protocols, options):
        assert shared.vectors is not None
        files += compat_files(protocols, options, renderer, shared.vectors)
    return format_python(files, options.namespace.split(".")[0])


def compat_files(protocols: list[Protocol], options: Options, renderer: Renderer, vectors: Vectors) -> list[OutputFile]:
    """Vectors for every protocol version (built and checked against the frozen ones by ``shared.py``) and the
    generated tests that check them."""
    files = list(vectors.files)
    covered = [p for p in protocols if _manifest.supports(p)]
    if covered:
        tests_to_vectors = PurePosixPath(os.path.relpath(options.binary_dir, options.test_dir)).as_posix()
        files.append(
            OutputFile(
                None,
                PurePosixPath("conftest.py"),
                renderer.render("py/tests/conftest.py.j2", "templates/py/tests/conftest.py.j2"),
            )
        )
        support = PY_TESTS_DIR / "vector_support.py"
        files.append(OutputFile(None, options.test_dir / support.name, copy_source(support)))
        for protocol in covered:
            files.append(
                OutputFile(
                    protocol.name,
                    options.test_dir / f"test_compat_{protocol.name}.py",
                    renderer.render(
                        "py/tests/test_compat.py.j2",
                        protocol.source,
                        protocol=protocol,
                        reader_suffix=repr(family(protocol.family).reader_suffix),
                        records=_manifest.REFERENCES[protocol.family].records,
                        variants=[v.name for v in _manifest.variants(protocol)],
                        vectors_path=tests_to_vectors,
                    ),
                )
            )
    return files
