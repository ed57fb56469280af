"""Problems found in definitions, reported all at once as ``file:line: what is wrong — what to do``."""

from __future__ import annotations

import difflib
import re
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
        self.problems = ordered(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def ordered(problems: Iterable[Problem]) -> list[Problem]:
    """Each problem once, as a reader goes through them: by file, then line, then the numbers in their words as
    numbers (the frozen vectors of pravega 5 before those of pravega 10)."""
    return sorted(set(problems), key=lambda p: (p.file, p.line, _numbers_as_numbers(p.message), p.hint))


def _numbers_as_numbers(text: str) -> list[str | int]:
    # re.split with a group alternates text and digits, so two keys compare text with text and number with number.
    return [int(part) if index % 2 else part for index, part in enumerate(re.split(r"(\d+)", text))]


def suggest(word: str, known: Iterable[str]) -> str:
    """A 'did you mean' hint naming the nearest known names, or a list of all of them when none is near."""
    known = sorted(set(known))
    close = difflib.get_close_matches(word, known, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
    return f"use one of: {shown}"
