"""Jinja filters: the only way text from definitions enters generated code.

Definitions are untrusted input.  Names are validated identifiers by the time they get here; free text (docs,
string values) goes through ``pystr`` (a Python literal) or ``docstring``/``comment`` (escaped so that it cannot end
the docstring or comment it sits in).
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (the catalog uses these filters at import, before the environment check: no jinja2 needed)
    import jinja2

LINE_LENGTH = 120
"""The longest line of generated code, in every language (ruff's line length for the Python output)."""
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


def _javadoc_text(text: str) -> str:
    """``text`` as Javadoc holds it: ``*/``, backslashes and ``@`` made harmless."""
    return _clean(text).replace("\\", "&#92;").replace("*/", "*&#47;").replace("@", "&#64;")


def javadoc(text: str, indent: int = 0, width: int = LINE_LENGTH) -> str:
    """The lines of a Javadoc comment body, each starting `` * `` (``*/`` and backslashes made harmless)."""
    text = _javadoc_text(text)
    pad = " " * indent
    lines: list[str] = []
    for para in text.split("\n\n"):
        if lines:
            lines.append(pad + " *")
        wrapped = textwrap.wrap(" ".join(para.split()), width=width - indent - 3, break_on_hyphens=False)
        lines += [pad + " * " + line for line in wrapped]
    return "\n".join(lines)


def javadoc_param(text: str, name: str, indent: int = 0, width: int = LINE_LENGTH) -> str:
    """The lines of a Javadoc ``@param name text`` block tag (a record component's doc), its paragraphs run on."""
    words = " ".join(_javadoc_text(text).split())
    wrapped = textwrap.wrap(f"@param {name} {words}", width=width - indent - 3, break_on_hyphens=False)
    return "\n".join(" " * indent + " * " + line for line in wrapped)


def javadoc_comment(text: str, indent: int = 0, width: int = LINE_LENGTH) -> str:
    """A whole Javadoc comment holding ``text``: ``/** text */`` when it fits on one line, else :func:`javadoc`'s
    lines between ``/**`` and `` */``."""
    body = javadoc(text, indent, width)
    pad = " " * indent
    if "\n" not in body and len(body) + 4 <= width:
        return f"{pad}/**{body[len(pad) + 2 :]} */"
    return f"{pad}/**\n{body}\n{pad} */"


def javastr(value: Any) -> str:
    """A Java string literal (no ``\\u`` escape of a line terminator, which javac would read as a real one)."""
    out = []
    for c in str(value):
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\{ord(c):03o}")
        elif ord(c) < 0x7F:
            out.append(c)
        elif ord(c) > 0xFFFF:
            high, low = divmod(ord(c) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
        else:
            out.append(f"\\u{ord(c):04x}")
    return '"' + "".join(out) + '"'


def _pieces(value: Any, fits: Callable[[str], bool]) -> list[str]:
    """``value`` broken after spaces into pieces that join to it again, each as long as ``fits`` allows (a single
    word, with the spaces after it, always fits)."""
    pieces: list[str] = []
    current = ""
    for word in re.findall(r"[^ ]+ *| +", str(value)):
        if current and not fits(current + word):
            pieces.append(current)
            current = word
        else:
            current += word
    pieces.append(current)
    return pieces


def javastr_wrapped(value: Any, indent: int = 12, width: int = LINE_LENGTH) -> str:
    """A Java string literal of ``value`` as a concatenation of literals, broken after spaces, so that each line
    (indented by ``indent``, the first one excepted) fits in ``width`` characters with a closing ``,``."""
    pieces = _pieces(value, lambda piece: indent + len(javastr(piece)) + 4 <= width)
    return f"\n{' ' * (indent - 4)}    + ".join(javastr(p) for p in pieces)


def java_sum(
    head: str, pieces: list[tuple[bool, str]], tail: str = ";", indent: int = 0, width: int = LINE_LENGTH
) -> str:
    """``head`` (at ``indent``), then ``pieces`` joined by `` + ``, then ``tail``: each piece a text (``True``: said
    as a Java literal) or an expression (``False``). On one line when it fits ``width``; else broken before a ``+``,
    as hand-written Java is, each further line 8 deeper than ``indent`` (after ``head`` when the first piece does
    not fit beside it), a literal too long for a line broken after its spaces into literals."""
    pad, more = " " * indent, " " * (indent + 8)
    said = [javastr(text) if literal else text for literal, text in pieces]
    line = pad + head + " + ".join(said) + tail
    if len(line) <= width:
        return line
    room = width - len(more) - len("+ ") - len(tail)  # a further line: its literal and the tail
    tokens: list[str] = []
    for (literal, text), one in zip(pieces, said, strict=True):
        if literal and len(one) > room:
            tokens += [javastr(p) for p in _pieces(text, lambda p: len(javastr(p)) <= room)]
        else:
            tokens.append(one)
    lines: list[str] = []
    current = pad + head + tokens[0]
    if len(current) + len(tail) > width:
        lines.append(pad + head.rstrip())
        current = more + tokens[0]
    for token in tokens[1:]:
        if len(current) + len(" + ") + len(token) + len(tail) <= width:
            current += " + " + token
        else:
            lines.append(current)
            current = more + "+ " + token
    return "\n".join([*lines, current + tail])


def pystr_wrapped(value: str, indent: int = 0, width: int = LINE_LENGTH) -> str:
    """A Python string literal of ``value`` as adjacent literals in parentheses, broken after spaces, one per line
    indented by ``indent`` + 4 and fitting in ``width`` with a closing ``,`` (a short value stays one literal)."""
    if indent + len(pystr(value)) + 1 <= width:
        return pystr(value)
    pieces = _pieces(value, lambda piece: indent + 4 + len(pystr(piece)) <= width)
    inner = "".join(f"\n{' ' * (indent + 4)}{pystr(p)}" for p in pieces)
    return f"({inner}\n{' ' * indent})"


def _matching(code: str, start: int) -> int:
    """The index of the bracket closing the one at ``start`` (string and char literals skipped), or -1."""
    depth, i, quote = 0, start, ""
    while i < len(code):
        c = code[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _arguments(inner: str) -> list[str]:
    """``inner`` split at its top-level commas."""
    parts, depth, quote, current = [], 0, "", []
    i = 0
    while i < len(inner):
        c = inner[i]
        if quote:
            if c == "\\":
                current.append(c)
                i += 1
                c = inner[i]
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    parts.append("".join(current).strip())
    return parts


def _wrap_java(code: str, indent: int, width: int) -> str:
    """One Java statement at ``indent``, when it is too long: its value on the next line (a declaration or an
    assignment whose value fits there), else its outermost call's arguments one per line."""
    if indent + len(code) <= width:
        return code
    assigned = re.match(r"[\w<>,.\[\] ]+ = (?=\S)", code)  # a declaration or assignment: its value on the next line
    if assigned and indent + 8 + len(code) - assigned.end() <= width:
        return code[: assigned.end() - 1] + "\n" + " " * (indent + 8) + code[assigned.end() :]
    best = None  # the call whose closing bracket comes last on the line (its arguments get the lines)
    start = code.find("(")
    while start >= 0:
        close = _matching(code, start)
        if close < 0:
            start = code.find("(", start + 1)  # an unclosed bracket (a call the line continues): look inside
            continue
        if best is None or close > best[1]:
            best = (start, close)
        start = code.find("(", close + 1)
    if best is not None and code[best[0] + 1 : best[1]].strip():
        start, last = best
        args = _arguments(code[start + 1 : last])
        if len(args) > 1 or args[0].endswith(")"):
            pad = " " * (indent + 4)
            tail = len(code) - last  # the last argument's line ends with the rest of the statement
            lines = [
                pad + _wrap_java(a, indent + 4, width - (tail if i == len(args) - 1 else 1)) for i, a in enumerate(args)
            ]
            return code[: start + 1] + "\n" + ",\n".join(lines) + code[last:]
    return code


def java_lines(text: str, width: int = LINE_LENGTH) -> str:
    """Generated Java with trailing spaces removed and every statement longer than ``width`` wrapped: a declaration
    or assignment's value on the next line, 8 deeper, when it fits there, else at its outermost call's arguments
    (comments are left as they are)."""
    out = []
    for line in text.split("\n"):
        line = line.rstrip()
        body = line.lstrip()
        if len(line) > width and not body.startswith(("//", "*", "/*")):
            line = line[: len(line) - len(body)] + _wrap_java(body, len(line) - len(body), width)
        out.append(line)
    return "\n".join(out)


def _ddl_pieces(ddl: str) -> list[str]:
    """``ddl`` cut after each comma outside backticks, ending at depth 0 (a column) or inside a type (a field)."""
    pieces, depth, quoted, start = [], 0, False, 0
    for i, c in enumerate(ddl):
        if c == "`":
            quoted = not quoted
        elif not quoted and c == "<":
            depth += 1
        elif not quoted and c == ">":
            depth -= 1
        elif not quoted and c == ",":
            pieces.append((ddl[start : i + 1].strip(), depth))
            start = i + 1
    pieces.append((ddl[start:].strip(), 0))
    return [f"{text}\0" if depth == 0 else text for text, depth in pieces]


def ddl_block(ddl: str, indent: int = 12, width: int = LINE_LENGTH) -> str:
    """Spark DDL (``StructType.fromDDL``) as the lines of a Java text block: a column a line, a longer one broken after
    its commas (DDL reads any whitespace between tokens as one space)."""
    pad = " " * indent
    lines: list[str] = []
    current = ""
    for piece in _ddl_pieces(ddl):
        end = piece.endswith("\0")
        text = piece.removesuffix("\0")
        if current and len(current) + 1 + len(text) > width:
            lines.append(current)
            current = pad + "    " + text
        else:
            current = f"{current} {text}" if current else pad + text
        if end:
            lines.append(current)
            current = ""
    return "\n".join(lines)


def register(env: jinja2.Environment) -> None:
    env.filters.update(
        docstring=docstring,
        comment=comment,
        pystr=pystr,
        pystr_wrapped=pystr_wrapped,
        tomlstr=tomlstr,
        one_line=one_line,
        md_cell=md_cell,
        javadoc=javadoc,
        javadoc_comment=javadoc_comment,
        javadoc_param=javadoc_param,
        javastr=javastr,
        javastr_wrapped=javastr_wrapped,
        java_lines=java_lines,
        ddl_block=ddl_block,
        tojson=lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True),
    )
