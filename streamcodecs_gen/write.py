"""Write generated files atomically into an output root, or compare them with what is there (``--check``).

Everything is rendered before anything is written.  Each file is replaced atomically (written beside itself, then
renamed).  A manifest in each root lists the files streamcodecs wrote, so stale generated files are removed and
files it did not write are never touched.  Every path is confined to its root.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MANIFEST = ".streamcodecs-manifest"


class UnsafePathError(ValueError):
    pass


def confined(root: Path, relative: PurePosixPath) -> Path:
    """``root / relative``, refusing absolute paths and anything that would leave ``root``."""
    if relative.is_absolute() or ".." in relative.parts:
        raise UnsafePathError(f"refusing to write outside the output directory: {relative}")
    target = (root / relative).resolve()
    base = root.resolve()
    if target != base and base not in target.parents:
        raise UnsafePathError(f"refusing to write outside the output directory: {relative}")
    return target


@dataclass
class Report:
    written: list[str]
    unchanged: list[str]
    removed: list[str]


def read_manifest(root: Path) -> list[str]:
    path = root / MANIFEST
    if not path.is_file():
        return []
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def _manifest_text(paths: list[str]) -> str:
    return "# Files written by streamcodecs' generator.py; stale ones are removed on the next run.\n" + "".join(
        f"{p}\n" for p in sorted(paths)
    )


def _stage(path: Path, data: bytes) -> str:
    """Write ``data`` to a temporary file beside ``path``; return its name (renamed into place later)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def _atomic_write(path: Path, data: bytes) -> None:
    os.replace(_stage(path, data), path)


def _bytes(content: str | bytes) -> bytes:
    return content if isinstance(content, bytes) else content.encode("utf-8")


def write_tree(root: Path, files: dict[PurePosixPath, str | bytes], keep: frozenset[str] = frozenset()) -> Report:
    """Write ``files``; ``keep`` names generated files left as they are (other protocols, with --protocol)."""
    targets = {str(p): confined(root, p) for p in files}  # check every path before writing anything
    stale = [p for p in read_manifest(root) if p not in targets and p not in keep and p != MANIFEST]
    stale_paths = {}
    for p in stale:
        try:
            stale_paths[p] = confined(root, PurePosixPath(p))
        except UnsafePathError:
            continue  # a tampered manifest never makes us delete outside the root
    report = Report([], [], [])
    managed = set(read_manifest(root))
    changes: list[tuple[str, Path, bytes]] = []
    foreign: list[str] = []
    for rel, content in sorted(files.items()):
        data = _bytes(content)
        target = targets[str(rel)]
        if target.is_file() and target.read_bytes() == data:
            report.unchanged.append(str(rel))
            continue
        if target.is_dir() or (target.exists() and str(rel) not in managed):
            foreign.append(str(rel))  # never overwrite what streamcodecs did not write
        changes.append((str(rel), target, data))
    if foreign:
        raise UnsafePathError(
            "refusing to overwrite files or directories streamcodecs did not write: "
            + ", ".join(foreign[:5])
            + (" ..." if len(foreign) > 5 else "")
            + " (move them, or generate into another root)"
        )
    # All or nothing: every new file is staged beside its target first; only then is each renamed into place.
    staged: list[tuple[str, str, Path]] = []
    try:
        for name, target, data in changes:
            staged.append((name, _stage(target, data), target))
    except BaseException:
        for _, tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
    for name, tmp, target in staged:
        os.replace(tmp, target)
        report.written.append(name)
    for name, path in sorted(stale_paths.items()):
        if path.is_file():
            path.unlink()
            report.removed.append(name)
            parent = path.parent
            while parent != root.resolve() and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
    _atomic_write(root / MANIFEST, _manifest_text([*map(str, files), *keep]).encode("utf-8"))
    return report


def check_tree(
    root: Path, files: dict[PurePosixPath, str | bytes], keep: frozenset[str] = frozenset()
) -> list[tuple[str, Path]]:
    """Every difference between ``files`` and the tree on disk (empty when current), each as what (``missing``,
    ``differs``, ``stale``) and which file; ``keep`` names generated files that are not being checked."""
    differences: list[tuple[str, Path]] = []
    for rel, content in sorted(files.items()):
        target = confined(root, rel)
        if not target.is_file():
            differences.append(("missing", root / rel))
        elif target.read_bytes() != _bytes(content):
            differences.append(("differs", root / rel))
    for name in read_manifest(root):
        if PurePosixPath(name) not in files and name not in keep:
            differences.append(("stale", root / name))
    manifest = root / MANIFEST
    expected = _manifest_text([*map(str, files), *keep]).encode("utf-8")
    if files and (not manifest.is_file() or manifest.read_bytes() != expected) and not differences:
        differences.append(("differs", manifest))
    return differences
