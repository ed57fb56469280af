"""Where a model node was written: its file, line and YAML path, and the line of each key it was written with.

Every node of the model carries an :class:`Origin`, so the checks, which run over the model, point a problem at the
line of the key that is wrong (``origin.line_of("since")``) in the file that holds it (a shared custom type's own
file). An origin also tells which keys were written: a key left out has no line of its own.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping as MappingABC
from dataclasses import dataclass, field
from typing import Any

from .load import Mapping, Sequence

Key = str | int
"""A mapping's key, or a sequence's index."""


@dataclass(frozen=True)
class Origin:
    """Where a model node was defined: its file (a custom-type file for shared types), line and YAML path.

    ``lines`` holds the line of each key (or, for a sequence, of each item) as written, and ``parts`` the origins of
    the mappings and sequences nested in it, so that a node's origin locates every key under it.
    """

    file: str
    line: int
    path: str = ""  # a JSON pointer into the file, such as /messages/3/fields/0
    lines: MappingABC[Key, int] = field(default_factory=dict, compare=False, repr=False)
    parts: MappingABC[Key, Origin] = field(default_factory=dict, compare=False, repr=False)

    def line_of(self, key: Key) -> int:
        """The line of ``key`` (a key, or a sequence's index); the node's own line when it was not written."""
        return self.lines.get(key, self.line)

    def written(self, key: Key) -> bool:
        return key in self.lines

    def within(self, key: Key) -> Origin:
        """The origin of the mapping or sequence written at ``key``; one at the key's line if it holds neither."""
        found = self.parts.get(key)
        return found if found is not None else Origin(self.file, self.line_of(key), f"{self.path.rstrip('/')}/{key}")

    @classmethod
    def of(cls, node: Any, file: str = "", path: str = "") -> Origin:
        """The origin of a loaded mapping or sequence and of everything nested in it (``load.Mapping`` knows its own
        file and path; a plain mapping, built in code, has every key at line 0)."""
        if isinstance(node, Mapping):
            file, path = node.source or file, node.path or path
        prefix = path.rstrip("/")
        if not isinstance(node, dict | list):
            return cls(file, 0, path)
        items: list[tuple[Key, Any]] = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        lines: dict[Key, int] = {key: 0 for key, _ in items}
        if isinstance(node, Mapping):
            lines.update(node.key_lines)
        elif isinstance(node, Sequence):
            lines.update(enumerate(node.item_lines))
        parts = {key: cls.of(value, file, f"{prefix}/{key}") for key, value in items if isinstance(value, dict | list)}
        return cls(file, getattr(node, "line", 0), path, lines, parts)


class HasOrigin(typing.Protocol):
    """A model node: it knows where it was written."""

    @property
    def origin(self) -> Origin: ...


NOWHERE = Origin("", 0)
"""The origin of a node built in code rather than loaded (tests)."""
