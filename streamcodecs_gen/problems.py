"""Problems found in definitions, reported all at once as ``file:line: what is wrong — what to do``."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int  # 0: of the file (or directory) as a whole, at no line of it
    message: str
    hint: str = ""

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"
        return f"{text} — {self.hint}" if self.hint else text


class DefinitionError(Exception):
    """Raised with every problem found; the CLI prints them and exits with status 2."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))


def suggest(word: str, known: Iterable[str]) -> str:
    """A 'did you mean' hint naming the nearest known names, or a list of all of them when none is near."""
    known = sorted(set(known))
    close = difflib.get_close_matches(word, known, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
    return f"use one of: {shown}"
