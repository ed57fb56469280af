"""The ``java`` target: the Java sources of the JVM codecs and Spark UDFs, under ``src/``.

The sources are a shared output (``shared.py``, rendered once by ``java_sources.py``; the ``py`` target ships them
compiled into its jar); this target writes them where a Java build finds them.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from .model import Protocol
from .render import Options, OutputFile
from .shared import JAVA, Shared

SOURCE_ROOT = PurePosixPath("src")


def needs(protocols: list[Protocol], options: Options) -> frozenset[str]:
    return frozenset({JAVA})


def java_target(protocols: list[Protocol], options: Options, shared: Shared) -> list[OutputFile]:
    assert shared.java_sources is not None
    return [OutputFile(f.owner, SOURCE_ROOT / f.path, f.content) for f in shared.java_sources]
