"""Load YAML definitions safely, remembering the line of every mapping key and sequence item.

Loaded mappings are :class:`Mapping` (a dict with ``line_of(key)``) and sequences are :class:`Sequence` (a list
with ``line_of(index)``), so later stages can point at the line that is wrong.  Only YAML's safe subset is accepted:
no tags that build Python objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .problems import DefinitionError, Problem


class Mapping(dict[str, Any]):
    line: int = 0
    key_lines: dict[str, int]
    source: str = ""
    """The display path of the file the mapping was loaded from (see :func:`load_file`)."""
    path: str = ""
    """Where the mapping sits in its file, as a JSON pointer such as ``/messages/3/fields/0``."""

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class Sequence(list[Any]):
    line: int = 0
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


class _Refused(yaml.constructor.ConstructorError):
    """A YAML construct definitions do not take, said in the project's words, with what to write instead."""

    def __init__(self, problem: str, hint: str, mark: yaml.Mark) -> None:
        super().__init__(None, None, problem, mark)
        self.hint = hint


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that builds Mapping/Sequence carrying 1-based line numbers and rejects duplicate keys.

    Aliases are refused: definitions are small, and an alias chain can expand exponentially ("billion laughs").
    """

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise _Refused("an alias (*name), which definitions do not take", "write the value out", event.start_mark)
        return super().compose_node(parent, index)  # type: ignore[arg-type]


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> Mapping:
    result = Mapping()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            shown = "a list" if isinstance(key, list) else "a mapping" if isinstance(key, dict) else repr(key)
            raise _Refused(f"a key that is not text ({shown})", "write the key as text", key_node.start_mark)
        if key in result:
            first = result.key_lines[key]
            raise _Refused(f"key {key!r} again (first at line {first})", "keep one of them", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _LineLoader, node: yaml.SequenceNode) -> Sequence:
    result = Sequence(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


def _refuse_tag(loader: _LineLoader, node: yaml.Node) -> None:
    kind = node.tag.rsplit(":", 1)[-1]
    raise _Refused(f"a YAML {kind}, which definitions do not take (only JSON-like values)", "quote it", node.start_mark)


# Only JSON-like values: sets iterate in hash order (non-deterministic output), and dates, binary and ordered maps
# have no place in a definition.  An unquoted 2018-04-05 would otherwise silently become a date.
for _tag in ("timestamp", "set", "binary", "omap", "pairs"):
    _LineLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse_tag)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


@dataclass(frozen=True)
class Document:
    """One loaded definition file: its display path (relative, as the user will click it) and its data."""

    path: str
    data: Any


def load_file(path: Path, display: str) -> Document:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DefinitionError([_not_utf8(display, data, exc)]) from None
    try:
        data = yaml.load(text, Loader=_LineLoader)  # noqa: S506 - _LineLoader is a SafeLoader
    except yaml.MarkedYAMLError as exc:
        raise DefinitionError([_yaml_problem(display, text, exc)]) from None
    except yaml.YAMLError as exc:
        raise DefinitionError([Problem(display, 1, f"YAML error: {exc}", "fix the YAML syntax")]) from None
    _mark_origin(data, display, "")
    return Document(display, data)


def _yaml_problem(display: str, text: str, exc: yaml.MarkedYAMLError) -> Problem:
    """A YAML syntax error at the line of its cause where the parser's own words would point elsewhere, in words: a
    tab, a quote left open (the parser notices one at the end of the file, or lines later, at the next quote), the
    mistakes of :func:`_in_words`, and the constructs definitions do not take (:class:`_Refused`)."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 1
    problem = str(exc.problem or exc.context)
    if isinstance(exc, _Refused):
        return Problem(display, line, f"YAML error: {problem}", exc.hint)
    if problem.startswith("found character '\\t'"):
        return Problem(display, line, "YAML error: a tab character, and YAML indents with spaces only", "use spaces")
    opened = _open_quote(text, exc, line)
    if opened is not None:
        quote, at = opened
        end = "the end of the file" if exc.context == _IN_QUOTES else f"line {line}"
        return Problem(
            display,
            at,
            f"YAML error: the {quote} opened here is not closed on its line, so the value runs on to {end}",
            f"close the {quote} on line {at}",
        )
    if (said := _in_words(text, exc)) is not None:
        at, words, hint = said
        return Problem(display, at, f"YAML error: {words}", hint)
    return Problem(display, line, f"YAML error: {problem}", "fix the YAML syntax")


def _in_words(text: str, exc: yaml.MarkedYAMLError) -> tuple[int, str, str] | None:
    """PyYAML's errors of the mistakes people make (an indentation, a missing colon, a bracket left open) in words,
    at the line of their cause; None for another error."""
    problem, at, context = str(exc.problem), exc.problem_mark, exc.context_mark
    if at is None:
        return None
    line = at.line + 1
    lines = text.splitlines()
    here = lines[at.line] if at.line < len(lines) else ""
    indent = len(here) - len(here.lstrip(" "))
    if problem == "mapping values are not allowed here":
        if ": " in here[: at.column].strip() or here[: at.column].rstrip().endswith(":"):
            return line, "a second ': ' on this line, in a value that is not quoted", 'quote the value ("...")'
        return (
            line,
            f"this key is indented deeper ({indent} spaces) than the key above it, so YAML reads it as more of "
            "that key's value",
            "indent it as the keys beside it",
        )
    if problem.startswith("expected <block end>, but found '-'"):
        return (
            line,
            "a list item ('- ') among the keys of a mapping",
            "write it as `key: value`, or indent the list under its key",
        )
    if problem.startswith("expected <block end>, but found") and context is not None and indent == context.column:
        return (
            line,
            f"this key is indented {indent} spaces, as the '- ' items of the list around it, not as the keys of one",
            "indent it as the keys of its item, or start a new item with '- '",
        )
    if problem.startswith("expected <block end>, but found"):
        return (
            line,
            f"this line is indented {indent} spaces, which lines up with no key (nor '- ' item) above it",
            "indent it as the keys (or the '- ' items) it belongs with",
        )
    if problem == "could not find expected ':'" and context is not None:
        return (
            context.line + 1,
            "this line is not `key: value`: its key has no ': ' (a colon and a space) after it",
            "write `key: value`",
        )
    if problem == "but found another document":
        return (
            line,
            "a second YAML document starts here (a '---' line), and a file holds one definition",
            "remove this line and what follows it, or move that to a file of its own",
        )
    closing = {"while parsing a flow mapping": "}", "while parsing a flow sequence": "]"}.get(str(exc.context))
    if closing is not None and context is not None and problem.startswith("expected ','"):
        opened = text[context.index] if context.index < len(text) else "{"
        if context.line != at.line:
            return (
                context.line + 1,
                f"the {opened} opened here is not closed on its line, so it runs on to line {line}",
                f"close it with {closing} on line {context.line + 1}",
            )
        return (
            line,
            f"a ',' or {closing} is missing between the items of the {opened} ... {closing} here",
            (f"separate its items with ', ' and close it with {closing}"),
        )
    return None


_IN_QUOTES = "while scanning a quoted scalar"
"""PyYAML's context of an error inside a quoted value: one that reached the end of the file."""


def _open_quote(text: str, exc: yaml.MarkedYAMLError, line: int) -> tuple[str, int] | None:
    """The quote and line of a quoted value that runs on past its line to the YAML error at ``line``: a quote that
    reached the end of the file, or a quoted value spanning lines that ends where the error is (at the next quote,
    which closed it)."""
    if exc.context == _IN_QUOTES and exc.context_mark is not None:
        start = exc.context_mark
        return text[start.index], start.line + 1
    found = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            is_quoted = isinstance(token, yaml.ScalarToken) and token.style in ('"', "'")
            if is_quoted and token.start_mark.line < token.end_mark.line == line - 1:
                found = (token.style, token.start_mark.line + 1)
    except yaml.YAMLError:
        pass
    return found


def _not_utf8(display: str, data: bytes, exc: UnicodeDecodeError) -> Problem:
    """The first byte that is not UTF-8, at its line and column (1-based, counted in bytes)."""
    line_start = data.rfind(b"\n", 0, exc.start) + 1
    where = f"byte 0x{data[exc.start]:02x} at column {exc.start - line_start + 1} is {exc.reason}"
    return Problem(display, data.count(b"\n", 0, exc.start) + 1, f"not UTF-8 ({where})", "save the file as UTF-8")


def _mark_origin(node: Any, display: str, path: str) -> None:
    """Every mapping remembers its file and its place in it, so that whatever is built from a shared custom type
    (a problem, a model node) names the right file."""
    if isinstance(node, Mapping):
        node.source = display
        node.path = path or "/"
        for key, value in node.items():
            _mark_origin(value, display, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _mark_origin(value, display, f"{path}/{index}")


@dataclass(frozen=True)
class Definitions:
    """The files of a definitions directory that loaded, and one problem for each file that did not.

    A file that does not parse (YAML syntax, encoding) is one problem; the caller still checks the others, so that
    every problem of every file is reported at once.
    """

    protocols: list[Document]
    customs: list[Document]
    problems: list[Problem]
    customs_complete: bool
    """Every custom-type file loaded: without one, its types would look unknown to the protocols using them."""


def load_definitions(directory: Path, display_root: Path) -> Definitions:
    """Load ``*.yaml`` protocol files and ``custom/*.yaml`` custom-type files, sorted by name."""
    problems: list[Problem] = []
    protocols: list[Document] = []
    customs: list[Document] = []
    customs_complete = True
    if not directory.is_dir():
        raise DefinitionError(
            [Problem(str(directory), 0, "definitions directory not found", "pass an existing directory with -p")]
        )
    for target, paths in (
        (protocols, sorted(directory.glob("*.yaml"))),
        (customs, sorted((directory / "custom").glob("*.yaml"))),
    ):
        for path in paths:
            display = _display(path, display_root)
            try:
                target.append(load_file(path, display))
            except DefinitionError as exc:
                problems.extend(exc.problems)
                customs_complete = customs_complete and target is not customs
    for folder in (directory, directory / "custom"):  # read as YAML elsewhere, so a user may well name one so
        for path in sorted(
            p for p in folder.glob("*") if p.suffix.lower() in (".yml", ".yaml") and p.suffix != ".yaml"
        ):
            problems.append(
                Problem(
                    _display(path, display_root),
                    0,
                    f"not read: definitions are the *.yaml files, and this one ends in {path.suffix}",
                    f"rename it {path.stem}.yaml",
                )
            )
    return Definitions(protocols, customs, problems, customs_complete)


def _display(path: Path, display_root: Path) -> str:
    """How a problem names ``path``: relative to ``display_root`` when under it."""
    try:
        return path.resolve().relative_to(display_root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
