"""The targets, registered once: what ``-l`` accepts and what each renders.

A target is a function from the validated model to files (``OutputFile``, in memory) plus the root it writes by
default; the CLI plans every requested target before it writes any, so a failing target leaves the disk alone.
Adding a target is a module with its render function and its templates, and one line here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .model import Protocol
from .render import Options, OutputFile
from .target_java import java_target
from .target_md import markdown_target
from .target_py import python_target


@dataclass(frozen=True)
class Target:
    name: str
    """The value of ``-l``, and the directory under ``output/`` the target writes by default."""
    render: Callable[[list[Protocol], Options], list[OutputFile]]
    summary: str


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("py", python_target, "the Python package: codecs, runtimes, Spark functions (and the JVM jar), vectors"),
        Target("md", markdown_target, "the protocol reference in Markdown, with examples from the vectors"),
        Target("java", java_target, "the Java sources of the JVM codecs and Spark UDFs (built into the py package)"),
    )
}
