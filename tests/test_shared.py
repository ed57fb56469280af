"""The shared outputs (vectors, Java sources, jar) are built once per run, before the targets, and the targets are
pure: no git, no javac, no read of an output tree inside a target's render."""

from __future__ import annotations

import builtins
import io
import subprocess
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from streamcodecs_gen import cli, java_sources, shared
from streamcodecs_gen.model import Protocol
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.render import Options
from streamcodecs_gen.targets import TARGETS
from streamcodecs_gen.vectors import manifest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def protocols() -> list[Protocol]:
    return load_protocols(REPO / "protocol-definitions", REPO)


def _count(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, counts: Counter[str]) -> None:
    original = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_all_targets_build_each_shared_output_once(monkeypatch: pytest.MonkeyPatch, protocols: list[Protocol]) -> None:
    counts: Counter[str] = Counter()
    _count(monkeypatch, manifest, "version_files", counts)
    _count(monkeypatch, shared, "java_sources", counts)
    _count(monkeypatch, shared, "jar_for", counts)
    run = subprocess.run

    def git_counted(command: list[str], *args: Any, **kwargs: Any) -> Any:
        if command[0] == "git":
            counts[f"git {command[3]}"] += 1
        return run(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "run", git_counted)
    assert cli.main(["-l", "all", "--check", "-q"]) == 0
    every_version = sum(len(p.versions) * (1 + len(manifest.variants(p))) for p in protocols if manifest.supports(p))
    assert counts == Counter(
        {"version_files": every_version, "java_sources": 1, "jar_for": 1, "git ls-files": 1, "git rev-parse": 1}
    )


def test_a_target_asks_only_for_what_it_renders(protocols: list[Protocol]) -> None:
    options = Options()
    assert TARGETS["java"].needs(protocols, options) == {shared.JAVA}
    assert TARGETS["md"].needs(protocols, options) == {shared.VECTORS}
    assert TARGETS["py"].needs(protocols, options) == {shared.VECTORS, shared.JAR}
    assert TARGETS["py"].needs(protocols, Options(binary=False)) == {shared.JAR}  # --no-binary: no vectors
    built = shared.build_shared(protocols, options, {shared.VECTORS})
    assert built.java_sources is None and built.jar is None and built.vectors is not None


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_a_target_renders_without_git_javac_or_the_output_tree(
    name: str, monkeypatch: pytest.MonkeyPatch, protocols: list[Protocol], tmp_path: Path
) -> None:
    """The shared outputs are built first (the committed jar is read back); then, while the target renders, the only
    process it may start is ruff (formatting), and the only files it opens are the generator's own (its templates,
    the hand-written runtime it copies) and ruff's temporary ones: nothing of an output tree or of the definitions."""
    options = Options()
    target = TARGETS[name]
    committed = shared.Committed(REPO / "output" / "py")
    outputs = shared.build_shared(protocols, options, target.needs(protocols, options), committed)
    run = subprocess.run
    started: list[str] = []

    def only_ruff(command: list[str], *args: Any, **kwargs: Any) -> Any:
        started.append(" ".join(map(str, command[:3])))
        assert command[1:3] == ["-m", "ruff"], command
        return run(command, *args, **kwargs)

    def no_tree(self: shared.Committed, *args: Any) -> Any:
        raise AssertionError("a target read the output tree")

    own = (REPO / "templates", REPO / "streamcodecs_gen", Path(tempfile.gettempdir()).resolve())
    opened: list[Path] = []
    real_open = io.open

    def own_files_only(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | Path):
            path = Path(file).resolve()
            opened.append(path)
            assert any(path.is_relative_to(root) for root in own), f"a target opened {path}"
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", own_files_only)
    monkeypatch.setattr(builtins, "open", own_files_only)
    monkeypatch.setattr(subprocess, "run", only_ruff)
    monkeypatch.setattr(shared.Committed, "read", no_tree)
    monkeypatch.setattr(shared.Committed, "released", no_tree)
    files = target.render(protocols, options, outputs)
    assert files
    assert all(command.endswith("-m ruff") for command in started)
    assert opened or name == "java"  # it saw the templates opened (the java target only places the shared sources)


def test_the_jar_on_disk_is_kept_when_built_from_the_same_sources(protocols: list[Protocol]) -> None:
    options = Options()
    committed = shared.Committed(REPO / "output" / "py")
    built = shared.build_shared(protocols, options, {shared.JAR}, committed)
    assert built.jar == committed.read(shared.jar_path(options))
    assert built.java_sources == java_sources.java_sources(protocols, options)
