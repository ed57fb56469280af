"""What broke a released version's frozen vectors, in the words of ``--compat``.

When the definitions no longer give a released version's vectors (``shared.FrozenVectorsChanged``), the breaking
changes are those ``compat.compare`` finds between the definitions the committed vectors were generated from and the
current ones. Those definitions are read back from git: as they were in the last commit that wrote the broken
versions' manifests (else at ``HEAD``). Each change is reported once, at its own line, naming the versions whose
vectors it breaks; without git, or when ``compare`` names no change, each broken version is reported at its line in
``versions`` as before.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from .compat import compare
from .model import Protocol
from .pipeline import load_protocols
from .problems import DefinitionError, Problem
from .shared import Broken, FrozenVectorsChanged, frozen_problem


def frozen_changes(error: FrozenVectorsChanged, definitions: Path, output_root: Path) -> list[Problem]:
    """The problems to report for ``error``: the breaking changes that broke each protocol's frozen vectors."""
    by_protocol: dict[str, list[Broken]] = {}
    for one in error.broken:
        by_protocol.setdefault(one.protocol.name, []).append(one)
    manifests = [one.path.parent / "manifest.json" for one in error.broken]
    baseline = _released_protocols(definitions, output_root, [m.as_posix() for m in manifests])
    problems: list[Problem] = []
    for name, broken in by_protocol.items():
        current = broken[0].protocol
        changes = compare([baseline[name]], [current]) if name in baseline else []
        if not changes:
            problems += [frozen_problem(b) for b in broken]
            continue
        versions = f"{name} {', '.join(b.version for b in broken)}"
        problems += [
            Problem(c.file, c.line, f"{c.message}: the frozen vectors of {versions} no longer match", c.hint)
            for c in changes
        ]
    return problems


def _released_protocols(definitions: Path, output_root: Path, manifests: list[str]) -> dict[str, Protocol]:
    """The protocols of ``definitions`` as the last commit that wrote ``manifests`` (under ``output_root``) had them,
    by name; empty without git, or when they cannot be read back or no longer load."""
    commit = _git(output_root, "log", "-1", "--format=%H", "--", *manifests).strip() or "HEAD"
    listed = _git(definitions, "ls-tree", "-r", "-z", "--name-only", commit, "--", ".")
    names = [name for name in listed.split("\0") if name.endswith((".yaml", ".yml"))]
    if not names:
        return {}
    with tempfile.TemporaryDirectory(prefix="streamcodecs-released-") as tmp:
        # Loaded under the same directory name as the current ones, so both are displayed alike.
        copy = Path(tmp) / definitions.resolve().name
        for name in names:
            target = copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_git(definitions, "show", f"{commit}:./{name}"), encoding="utf-8")
        try:
            return {p.name: p for p in load_protocols(copy, Path(tmp))}
        except DefinitionError:  # the released definitions do not load with this generator: no baseline
            return {}


def _git(where: Path, *args: str) -> str:
    """git's output run in ``where``; empty when git fails or is missing."""
    try:
        return subprocess.run(
            ["git", "-C", str(where), *args], capture_output=True, check=True, text=True, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        return ""
