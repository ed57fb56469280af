"""What the checks of one protocol read: its model, the scope its type names resolved in, and the options."""

from __future__ import annotations

from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..families.base import Family
from ..families.registry import family
from ..model import Enum, Message, Protocol, Struct, TypeRef
from ..origin import HasOrigin, Key, Origin
from ..problems import Problem
from ..resolve import TypeScope


@dataclass
class Context:
    """One protocol as the checks see it; the family's hooks read it as their ``CheckContext``."""

    protocol: Protocol
    scope: TypeScope
    id_check: bool = True
    elsewhere: Mapping[str, str] = field(default_factory=dict)
    """Names the other protocols of the run define (types, enums, messages), each to where: ``a type of protocol
    'kcl' (protocol-definitions/kcl.yaml:82)``. A protocol cannot name them; the problem says where they are."""
    left_out: frozenset[str] = frozenset()
    """The lists of this file (``messages``, ``messages/fields``, ``directions``) and of the custom/ files
    (``enums/values``, ``customTypes/fields``) that the schema refused items of, which the model is built without
    (``schema.checked_document``): see :meth:`may_lack`."""
    unread: Container[str] = frozenset()
    """Type names that may be defined where the checks cannot read (a type or enum the schema refused, or any name
    at all when a file of custom/ could not be read): not reported as unknown, since its file's problem is."""

    def may_lack(self, *lists: str) -> bool:
        """Whether the model may lack an item of one of ``lists`` (as :attr:`left_out` names them): a check that
        concludes from what is not there (a direction no message uses, a name no field has) does not then run."""
        return not self.left_out.isdisjoint(lists)

    @property
    def family(self) -> str:
        return self.protocol.family

    @property
    def wire_family(self) -> Family:
        """The family object (``families/``): its flags and hooks are the family-dependent rules."""
        return family(self.family)

    @property
    def framing(self) -> Any:
        """The family's typed framing configuration (``families/framing.py``); each part's ``origin`` locates it."""
        return self.protocol.framing

    @property
    def versions(self) -> list[str]:
        return self.protocol.versions

    def problem(self, at: HasOrigin | Origin, key: Key, message: str, hint: str = "") -> Problem:
        """A problem at the line of ``key`` of a node (or of an origin), in the file the node was written in."""
        origin = at if isinstance(at, Origin) else at.origin
        return Problem(origin.file, origin.line_of(key), message, hint)

    def used_shared_structs(self) -> list[str]:
        """Shared custom types this protocol names, directly or through other custom types."""
        used: list[str] = []
        todo = [f.type for owner in [*self.scope.own_structs, *self.protocol.messages] for f in owner.fields]
        while todo:
            for name in _names(todo.pop()):
                if name in self.scope.shared_structs and name not in used:
                    used.append(name)
                    todo += [f.type for f in self.scope.shared_structs[name].fields]
        return sorted(used)

    def enums(self) -> Iterator[Enum]:
        """Every enum whose members the protocol's code holds: the shared ones it names (through its own types, its
        messages or the shared types it uses), then its own."""
        owners = [*self.scope.own_structs, *self.protocol.messages]
        owners += [self.scope.shared_structs[name] for name in self.used_shared_structs()]
        used = {name for owner in owners for f in owner.fields for name in _names(f.type)}
        for name in sorted(used & set(self.scope.shared_enums)):
            yield self.scope.shared_enums[name]
        yield from self.scope.own_enums

    def containers(self) -> Iterator[tuple[str, Struct | Message]]:
        """Every field owner: shared custom types, then ("type", t) and ("message", m) in file order."""
        for name in self.used_shared_structs():
            yield "type", self.scope.shared_structs[name]
        for struct in self.scope.own_structs:
            yield "type", struct
        for message in self.protocol.messages:
            yield "message", message


class _Every:
    """Every name: what a file of custom/ that could not be read may define."""

    def __contains__(self, name: object) -> bool:
        return True


EVERY_NAME: Container[str] = _Every()


def _names(ref: TypeRef) -> Iterator[str]:
    """Every name a type expression is written with: its head, and its arguments' names."""
    yield ref.head
    for arg in ref.args:
        yield from _names(arg)
