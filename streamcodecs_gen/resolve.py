"""The names a protocol's types resolve in, and type expressions resolved to model nodes.

A protocol sees the registry's wire types plus its enums and structs (its own over the shared ones of ``custom/``;
of a name defined twice, the last definition). :meth:`TypeScope.ref` resolves a type expression such as
``list<Pair>`` to a :class:`~.model.TypeRef`; what does not resolve (an unknown name, ``list`` without its item,
``map<int32,T>``, ``Pair<int32>``) becomes an :class:`~.model.UnknownRef` that keeps what was written, for the
checks to report. Each distinct text is parsed once per protocol, however many fields use it.
"""

from __future__ import annotations

from .model import Enum, EnumRef, ListRef, MapRef, Struct, StructRef, TypeRef, UnknownRef, WireRef
from .types import CONTAINERS, MAP_KEY, WIRE_TYPES, parse_type_expr


class TypeScope:
    """The enums and structs one protocol defines (in file order) and can use (by name), and the shared ones."""

    def __init__(
        self,
        own_enums: list[Enum],
        own_structs: list[Struct],
        shared_enums: dict[str, Enum],
        shared_structs: dict[str, Struct],
    ) -> None:
        self.own_enums = own_enums
        self.own_structs = own_structs
        self.enums = {**shared_enums, **{e.name: e for e in own_enums}}
        self.structs = {**shared_structs, **{s.name: s for s in own_structs}}
        self.shared_enums = shared_enums
        """Every shared enum by name, also one a protocol's own enum of that name hides."""
        self.shared_structs = shared_structs
        """Every shared struct by name, also one a protocol's own struct of that name hides."""
        self.known = sorted([*WIRE_TYPES, *self.structs, *self.enums])
        """Every type name the protocol can use, for 'did you mean' hints."""
        self._parsed: dict[str, tuple[str, tuple[str, ...]]] = {}

    def ref(self, text: str) -> TypeRef:
        """A new reference to the type ``text`` names, resolved as far as it goes."""
        parsed = self._parsed.get(text)
        if parsed is None:
            parsed = self._parsed[text] = parse_type_expr(text)
        head, args = parsed
        refs = tuple(self.ref(arg) for arg in args)
        if head in CONTAINERS:
            if len(args) == CONTAINERS[head] and (head == "list" or args[0] == MAP_KEY):
                return ListRef(text, refs[0]) if head == "list" else MapRef(text, refs[1])
        elif not args:
            if head in WIRE_TYPES:
                return WireRef(text, WIRE_TYPES[head])
            if head in self.enums:
                return EnumRef(text, self.enums[head])
            if head in self.structs:
                return StructRef(text, self.structs[head])
        return UnknownRef(text, spelled=head, spelled_args=refs)
