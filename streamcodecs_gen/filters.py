"""Jinja filters: the only way text from definitions enters generated code.

Definitions are untrusted input.  Names are validated identifiers by the time they get here; free text (docs,
string values) goes through ``pystr`` (a Python literal) or ``docstring``/``comment`` (escaped so that it cannot end
the docstring or comment it sits in).
"""

from __future__ import annotations

import json
import re
import textwrap
from typing import Any

import jinja2

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")


def _clean(text: str) -> str:
    return _CONTROL.sub(" ", str(text)).replace("\r\n", "\n").replace("\r", "\n").strip()


def docstring(text: str, indent: int = 0, width: int = 112) -> str:
    """A triple-quoted docstring body: backslashes and quotes escaped, paragraphs wrapped."""
    text = _clean(text).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if text.endswith('"'):
        text = text[:-1] + '\\"'
    paragraphs = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        if any(line.startswith(("- ", "* ", "|", "  ")) for line in lines):
            paragraphs.append("\n".join(lines))  # keep lists and tables as written
        else:
            paragraphs.append(
                textwrap.fill(" ".join(lines), width=width - indent, break_on_hyphens=False, break_long_words=False)
            )
    pad = " " * indent
    return ("\n\n".join(paragraphs)).replace("\n", "\n" + pad).replace("\n" + pad + "\n", "\n\n")


def comment(text: str, width: int = 112) -> str:
    """Lines for a ``#`` comment (without the leading '# ')."""
    return "\n".join(textwrap.wrap(" ".join(_clean(text).split()), width=width)) or ""


def pystr(value: Any) -> str:
    """A Python literal for a scalar from a definition (``repr`` escapes everything that needs it)."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return f'float("{value}")'
    if value is None or isinstance(value, str | bool | int | float):
        return repr(value)
    raise TypeError(f"not a scalar: {value!r}")


def tomlstr(value: str) -> str:
    """A TOML basic string (JSON string syntax is valid TOML)."""
    return json.dumps(str(value), ensure_ascii=True)


def one_line(text: str) -> str:
    """First sentence-ish line of a doc, for short summaries and tables."""
    first = _clean(text).split("\n\n")[0]
    return " ".join(first.split())


def md_cell(text: str) -> str:
    return one_line(text).replace("|", "\\|")


def register(env: jinja2.Environment) -> None:
    env.filters.update(
        docstring=docstring,
        comment=comment,
        pystr=pystr,
        tomlstr=tomlstr,
        one_line=one_line,
        md_cell=md_cell,
        tojson=lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True),
    )
