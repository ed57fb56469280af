"""Type expressions of one protocol, parsed and resolved once, shared by the semantic checks and the model.

A protocol sees the registry's wire types plus its enums and structs (its own and the shared custom ones).
:meth:`TypeScope.expr` parses a type expression such as ``list<Pair>`` once and says what its head names; the
checks ask the scope about every field, and the model builds its :class:`~.model.TypeRef` from the same resolved
expressions, so a type string is parsed once per protocol however many checks look at it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .types import CONTAINERS, WIRE_TYPES, parse_type_expr


@dataclass(frozen=True)
class TypeExpr:
    """A parsed type expression: the text as written, its head and its argument expressions."""

    text: str
    head: str
    args: tuple[TypeExpr, ...]
    kind: str
    """What the head names: ``list`` or ``map`` (whatever the number of arguments), ``wire``, ``enum``, ``struct``,
    or ``unknown`` (a name the protocol does not define)."""

    @property
    def arg_texts(self) -> tuple[str, ...]:
        return tuple(arg.text for arg in self.args)


class TypeScope:
    """The enums and structs one protocol can use (``name -> YAML node``), and its type expressions resolved."""

    def __init__(self, enums: dict[str, Any], structs: dict[str, Any]) -> None:
        self.enums = enums
        self.structs = structs
        self.known = sorted([*WIRE_TYPES, *structs, *enums])
        """Every type name the protocol can use, for 'did you mean' hints."""
        self._exprs: dict[str, TypeExpr] = {}

    def expr(self, text: str) -> TypeExpr:
        found = self._exprs.get(text)
        if found is None:
            head, args = parse_type_expr(text)
            found = TypeExpr(text, head, tuple(self.expr(arg) for arg in args), self._kind(head))
            self._exprs[text] = found
        return found

    def of(self, field: Any) -> TypeExpr:
        """The type of a field node (a mapping with a ``type`` key)."""
        return self.expr(field["type"])

    def _kind(self, head: str) -> str:
        if head in CONTAINERS:
            return head
        if head in WIRE_TYPES:
            return "wire"
        if head in self.enums:
            return "enum"
        if head in self.structs:
            return "struct"
        return "unknown"
