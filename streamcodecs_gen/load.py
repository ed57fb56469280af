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


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that builds Mapping/Sequence carrying 1-based line numbers and rejects duplicate keys.

    Aliases are refused: definitions are small, and an alias chain can expand exponentially ("billion laughs").
    """

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in definitions; write the value out", event.start_mark
            )
        return super().compose_node(parent, index)  # type: ignore[arg-type]


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> Mapping:
    result = Mapping()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            raise yaml.constructor.ConstructorError(
                None, None, f"mapping keys must be strings, found {key!r}", key_node.start_mark
            )
        if key in result:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
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
    raise yaml.constructor.ConstructorError(
        None,
        None,
        f"a YAML {kind} is not allowed in definitions (only JSON-like values are); quote it",
        node.start_mark,
    )


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
    """A YAML syntax error at the line of its cause where the parser's own words would point elsewhere: a tab, and a
    quote left open (the parser notices one at the end of the file, or lines later, at the next quote)."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 1
    problem = str(exc.problem or exc.context)
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
    return Problem(display, line, f"YAML error: {problem}", "fix the YAML syntax")


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
            try:
                display = path.resolve().relative_to(display_root.resolve()).as_posix()
            except ValueError:
                display = path.as_posix()
            try:
                target.append(load_file(path, display))
            except DefinitionError as exc:
                problems.extend(exc.problems)
                customs_complete = customs_complete and target is not customs
    return Definitions(protocols, customs, problems, customs_complete)
