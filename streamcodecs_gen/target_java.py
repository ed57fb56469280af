"""The ``java`` target: the Java sources of the JVM codecs and Spark UDFs, under ``src/``.

The sources are rendered by ``java_sources.py`` (the ``py`` target ships the same sources compiled into its jar);
this target writes them where a Java build finds them.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from .java_sources import java_sources
from .model import Protocol
from .render import Options, OutputFile

SOURCE_ROOT = PurePosixPath("src")


def java_target(protocols: list[Protocol], options: Options) -> list[OutputFile]:
    return [OutputFile(f.owner, SOURCE_ROOT / f.path, f.content) for f in java_sources(protocols, options)]
