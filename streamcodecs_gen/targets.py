"""The targets, registered once: what ``-l`` accepts and what each renders.

A target is a function from the validated model and the shared outputs (``shared.py``: the vectors, the Java sources,
the jar, built once per run before any target) to files (``OutputFile``, in memory), plus the root it writes by
default; the CLI plans every requested target before it writes any, so a failing target leaves the disk alone.
Adding a target is a module with its render function and its templates, and one line here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import target_java, target_md, target_py
from .model import Protocol
from .problems import Problem
from .render import Options, OutputFile
from .shared import Shared


def _nothing(protocols: list[Protocol], options: Options) -> frozenset[str]:
    return frozenset()


def _no_problems(protocols: list[Protocol]) -> list[Problem]:
    return []


@dataclass(frozen=True)
class Target:
    name: str
    """The value of ``-l``, and the directory under ``output/`` the target writes by default."""
    render: Callable[[list[Protocol], Options, Shared], list[OutputFile]]
    summary: str
    needs: Callable[[list[Protocol], Options], frozenset[str]] = _nothing
    """The shared outputs its render reads (``shared.VECTORS``, ``JAVA``, ``JAR``)."""
    keeps_shared: bool = False
    """Its output root holds the committed shared outputs (released vectors, the jar): they are read back from it."""
    problems: Callable[[list[Protocol]], list[Problem]] = _no_problems
    """Definition problems only this target has (reported, with every other, before anything is rendered)."""


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target(
            "py",
            target_py.python_target,
            "the Python package: codecs, runtimes, Spark functions (and the JVM jar), vectors",
            target_py.needs,
            keeps_shared=True,
            problems=target_py.companion_problems,
        ),
        Target(
            "md",
            target_md.markdown_target,
            "the protocol reference in Markdown, with examples from the vectors",
            target_md.needs,
        ),
        Target(
            "java",
            target_java.java_target,
            "the Java sources of the JVM codecs and Spark UDFs (built into the py package)",
            target_java.needs,
        ),
    )
}
