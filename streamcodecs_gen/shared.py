"""The shared outputs: built once per run, after the checks and before the targets.

Some outputs serve more than one target: the compatibility vectors (the ``py`` target writes them with the tests
that check them, the ``md`` target shows them as worked examples), the Java sources (the ``java`` target writes
them, the ``py`` target ships them compiled) and the jar compiled from them.  This stage builds each of them once,
for the targets asked for (``Target.needs``), and it is the one stage that reads an output tree (:class:`Committed`):
which vectors are released (committed), their frozen bytes, and the jar already built.  The targets are then pure
functions of the model, its analyses and these outputs: no git, no reads of the output, no javac inside them.
"""

from __future__ import annotations

import functools
import subprocess
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .jar import JAR_NAME, jar_for
from .java_sources import java_sources
from .model import Protocol
from .problems import DefinitionError, Problem
from .render import Options, OutputFile
from .vectors import manifest

VECTORS = "vectors"
"""Every version's compatibility vectors (and each framing variant's), released ones as committed."""
JAVA = "java"
"""The Java sources of the JVM codecs and Spark UDFs (``java_sources.py``)."""
JAR = "jar"
"""The jar compiled from the Java sources (``jar.py``), kept as committed when built from the same."""
OUTPUTS = (VECTORS, JAVA, JAR)
_BUILT_FROM = {JAR: {JAVA}}


def jar_path(options: Options) -> PurePosixPath:
    """Where the jar is shipped and committed: beside the Python package's ``spark/_jvm.py``, which loads it."""
    return options.package_path / "spark" / JAR_NAME


class Committed:
    """An output root as it is on disk, read once: which files are released (committed) and what they hold.

    Inside a git work tree a file is released once git tracks it; elsewhere, once it exists.  Vectors written but
    not yet committed can still change while a version is being prepared.
    """

    def __init__(self, root: Path) -> None:
        self.root = root

    @functools.cached_property
    def _tracked(self) -> frozenset[str] | None:
        """The files git tracks under the root, relative to it; None outside a git work tree (or without git)."""
        try:
            listed = subprocess.run(
                ["git", "-C", str(self.root), "ls-files", "-z", "--full-name", "."],
                capture_output=True,
                check=True,
                timeout=60,
            ).stdout
            prefix = subprocess.run(
                ["git", "-C", str(self.root), "rev-parse", "--show-prefix"],
                capture_output=True,
                check=True,
                text=True,
                timeout=60,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None
        names = (name.decode() for name in listed.split(b"\0") if name)
        return frozenset(name.removeprefix(prefix) for name in names if name.startswith(prefix))

    def released(self, path: PurePosixPath) -> bool:
        tracked = self._tracked
        return (self.root / path).is_file() if tracked is None else path.as_posix() in tracked

    def read(self, path: PurePosixPath) -> bytes | None:
        on_disk = self.root / path
        return on_disk.read_bytes() if on_disk.is_file() else None


@dataclass(frozen=True)
class Vectors:
    """The vectors of every protocol whose family has a reference encoder: each version's ``vectors.bin`` and
    ``manifest.json`` under ``<-b>/<protocol>/<version>/`` (a framing variant's in a subdirectory named after it)."""

    files: list[OutputFile]

    def content(self, path: PurePosixPath) -> str | bytes:
        return self._by_path[path]

    @functools.cached_property
    def _by_path(self) -> dict[PurePosixPath, str | bytes]:
        return {f.path: f.content for f in self.files}


@dataclass(frozen=True)
class Shared:
    """The shared outputs of one run; each is None unless a target asked for it."""

    vectors: Vectors | None = None
    java_sources: list[OutputFile] | None = None
    jar: bytes | None = None


def build_shared(
    protocols: list[Protocol], options: Options, needs: Collection[str], committed: Committed | None = None
) -> Shared:
    """The shared outputs ``needs`` names (and what they are built from), each built once.

    ``committed`` is the output root that holds the committed ones (the vectors, the jar): released vectors are
    checked against their frozen bytes there and kept as they are, and the jar there is kept if it was built from the
    same sources.  Without it, vectors are built afresh and the jar is compiled.  Raises DefinitionError when a
    definition no longer gives a released version's vectors, and jar.MissingJdk when the jar must be rebuilt without a
    JDK.
    """
    wanted = set(needs)
    for output in needs:
        wanted |= _BUILT_FROM.get(output, set())
    vectors = _vectors(protocols, options, committed) if VECTORS in wanted else None
    java = java_sources(protocols, options) if JAVA in wanted else None
    jar = None
    if JAR in wanted:
        assert java is not None
        jar = jar_for(java, committed.read(jar_path(options)) if committed else None)
    return Shared(vectors, java, jar)


@dataclass(frozen=True)
class Broken:
    """A released version whose frozen vectors the definition no longer gives: the first file that differs."""

    protocol: Protocol
    version: str
    path: PurePosixPath


class FrozenVectorsChanged(DefinitionError):
    """The definitions no longer give released versions' vectors: one problem per version (at its line in
    ``versions``), and ``broken`` for a caller that can name the changes that did it (``frozen.py``)."""

    def __init__(self, broken: list[Broken]) -> None:
        self.broken = broken
        super().__init__(frozen_problem(b) for b in broken)


FROZEN_HINT = (
    "a released version's layout changed: add a new version instead (or, deliberately, delete that vectors directory "
    "and say why in the commit)"
)


def frozen_problem(broken: Broken) -> Problem:
    """A released version's vectors broken by a change not known: at the version's line in ``versions``."""
    protocol = broken.protocol
    line = protocol.origin.within("versions").line_of(protocol.versions.index(broken.version))
    message = f"the frozen vectors of {protocol.name} {broken.version} ({broken.path}) no longer match the definition"
    return Problem(protocol.source, line, message, FROZEN_HINT)


def _vectors(protocols: list[Protocol], options: Options, committed: Committed | None) -> Vectors:
    """Every covered protocol's vectors; a released version's as committed, which the definition must still give."""
    files: list[OutputFile] = []
    broken: dict[tuple[str, str], Broken] = {}
    frozen = committed if options.binary else None  # --no-binary leaves the committed vectors alone
    for protocol in protocols:
        if not manifest.supports(protocol):
            continue
        for version, path, content in manifest.protocol_files(protocol, options.binary_dir):
            if frozen is not None and frozen.released(path.parent / "manifest.json"):
                on_disk = frozen.read(path) or b""
                data = content if isinstance(content, bytes) else content.encode("utf-8")
                if on_disk != data:
                    broken.setdefault((protocol.name, version), Broken(protocol, version, path))
                content = on_disk
            files.append(OutputFile(protocol.name, path, content))
    if broken:
        raise FrozenVectorsChanged(list(broken.values()))
    return Vectors(files)
