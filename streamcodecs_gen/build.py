"""Build the model (IR) of a definition the schema accepted, before any semantic check.

The builder tolerates every problem the checks report, so that they can run over the model: a type that does not
resolve becomes an :class:`~.model.UnknownRef`; definitions sharing a name stay separate nodes, in file order (a
type name resolves to the last of them); an undeclared version stays as written; nothing raises on input the schema
accepted. Every node carries its :class:`~.origin.Origin` (its file, for a shared custom type the custom file; its
line and the line of each key it was written with; its YAML path). A protocol that passes the checks is rendered
from this same model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .families.registry import family
from .load import Document, Mapping
from .model import (
    Constant,
    Direction,
    Enum,
    EnumRef,
    EnumValue,
    Field,
    Message,
    Protocol,
    Shape,
    SizePrefix,
    Struct,
    StructRef,
)
from .naming import snake_case
from .origin import Origin
from .resolve import TypeScope
from .versions import version_key


@dataclass(frozen=True)
class SharedTypes:
    """The shared custom types (``custom/*.yaml``) the schema accepted, by name; of a name defined twice, the last."""

    structs: dict[str, Mapping]
    enums: dict[str, Mapping]


@dataclass(frozen=True)
class Built:
    """A protocol's model, and the scope its type names were resolved in (its own types in file order, every name
    it can use), which the checks look names up in."""

    protocol: Protocol
    scope: TypeScope


def build_protocol(doc: Document, shared: SharedTypes) -> Built:
    """The model of a definition the schema accepted, whatever its semantic problems."""
    return _Builder(doc, shared).build()


def _enum(node: Mapping, origin: Origin, *, shared: bool) -> Enum:
    values = origin.within("values")
    return Enum(
        node["name"],
        node["type"],
        [
            EnumValue(v["name"], v["value"], v.get("doc", ""), v.get("since"), values.within(i))
            for i, v in enumerate(node["values"])
        ],
        node.get("unknown"),
        node.get("doc", ""),
        origin,
        shared=shared,
    )


def _field(node: Mapping, origin: Origin, ref: Any, owner_since: str) -> Field:
    since = node.get("since", owner_since)
    return Field(
        name=node["name"],
        py=node.get("py") or snake_case(node["name"]),
        type=ref,
        since=since,
        removed=node.get("removed"),
        doc=node.get("doc", ""),
        origin=origin,
        has_default="default" in node,
        default=node.get("default"),
        presence=node["presence"]["remaining"] if "presence" in node else None,
        when_nonempty=node.get("when_nonempty"),
        has_const="const" in node,
        const=node.get("const"),
        nullable=bool(node.get("nullable")),
        optional=bool(node.get("optional")),
        accept_scalar=bool(node.get("accept_scalar")),
        negative=node.get("negative"),
        added_later=version_key(since) > version_key(owner_since),
        min_length=node.get("min_length"),
        additional=bool(node.get("additional")),
        py_explicit="py" in node,
    )


class _Builder:
    def __init__(self, doc: Document, shared: SharedTypes) -> None:
        self.doc = doc
        self.data = doc.data
        self.origin = Origin.of(doc.data, doc.path)
        self.first = self.data["versions"][0]
        self.pending: list[tuple[Struct, Mapping]] = []  # nodes whose fields are built once every name is known
        self.enums = [self.enum(n, i) for i, n in enumerate(self.data.get("enums", []))]
        types = self.origin.within("types")
        self.structs = [self.struct(n, types.within(i)) for i, n in enumerate(self.data.get("types", []))]
        shared_enums = {name: _enum(n, Origin.of(n), shared=True) for name, n in shared.enums.items()}
        shared_structs = {name: self.struct(n, Origin.of(n), shared=True) for name, n in shared.structs.items()}
        self.scope = TypeScope(self.enums, self.structs, shared_enums, shared_structs)

    def enum(self, node: Mapping, index: int) -> Enum:
        return _enum(node, self.origin.within("enums").within(index), shared=False)

    def struct(self, node: Mapping, origin: Origin, *, shared: bool = False) -> Struct:
        prefix = node.get("size_prefix")
        if isinstance(prefix, str):
            prefix = {"type": prefix}
        struct = Struct(
            node["name"],
            node.get("since", self.first),
            node.get("doc", ""),
            [],
            origin,
            SizePrefix(**prefix) if prefix else None,
            shared=shared,
        )
        self.pending.append((struct, node))
        return struct

    def fields(self, owner: Mapping, origin: Origin, owner_since: str) -> list[Field]:
        at = origin.within("fields")
        return [
            _field(node, at.within(i), self.scope.ref(node["type"]), owner_since)
            for i, node in enumerate(owner["fields"])
        ]

    def message(self, node: Mapping, index: int) -> Message:
        origin = self.origin.within("messages").within(index)
        since = node.get("since", self.first)
        shape = node.get("shape")
        return Message(
            name=node["name"],
            since=since,
            doc=node.get("doc", ""),
            fields=self.fields(node, origin, since),
            origin=origin,
            directions=list(node["directions"]),
            code=node.get("code"),
            tag=node.get("tag"),
            shape=Shape(shape["json"], list(shape.get("keys", [])), dict(shape.get("match", {}))) if shape else None,
            removed=node.get("removed"),
            inline_only=bool(node.get("inline_only")),
        )

    def build(self) -> Built:
        data, origin = self.data, self.origin
        for struct, node in self.pending:  # every struct is known by now, so recursive references resolve
            struct.fields = self.fields(node, struct.origin, struct.since)
        messages = [self.message(m, i) for i, m in enumerate(data["messages"])]
        structs, enums = _reached([*messages, *self.structs])
        protocol = Protocol(
            name=data["protocol"],
            title=data["title"],
            doc=data.get("doc", ""),
            family=data["family"],
            versions=list(data["versions"]),
            directions=[
                Direction(d["name"], d.get("doc", ""), origin.within("directions").within(i))
                for i, d in enumerate(data["directions"])
            ],
            framing=family(data["family"]).framing(data["framing"]),
            constants=[
                Constant(c["name"], c["value"], c.get("doc", ""), origin.within("constants").within(i))
                for i, c in enumerate(data.get("constants", []))
            ],
            # Shared enums first (by file and line), then this protocol's in definition order.
            enums=sorted([*enums, *self.enums], key=lambda e: (not e.shared, e.origin.file, e.origin.line)),
            structs=_dependency_order([*structs, *self.structs]),
            messages=messages,
            companions=list(data.get("companions", [])),
            source=self.doc.path,
            origin=origin,
        )
        return Built(protocol, self.scope)


def _reached(owners: list[Struct]) -> tuple[list[Struct], list[Enum]]:
    """The shared structs and enums the owners' fields use, directly or through the structs they use."""
    structs: dict[int, Struct] = {}
    enums: dict[int, Enum] = {}
    todo = list(owners)
    while todo:
        for f in todo.pop().fields:
            for ref in f.types:
                if isinstance(ref, StructRef) and ref.struct.shared and id(ref.struct) not in structs:
                    structs[id(ref.struct)] = ref.struct
                    todo.append(ref.struct)
                elif isinstance(ref, EnumRef) and ref.enum.shared:
                    enums[id(ref.enum)] = ref.enum
    return list(structs.values()), list(enums.values())


def _dependency_order(structs: list[Struct]) -> list[Struct]:
    """Structs ordered so that each comes after the structs its fields use (stable by definition order)."""
    ordered: list[Struct] = []
    placed: set[int] = set()

    def place(struct: Struct) -> None:
        if id(struct) in placed:
            return
        placed.add(id(struct))
        for f in struct.fields:
            for ref in f.types:
                if isinstance(ref, StructRef):
                    place(ref.struct)
        ordered.append(struct)

    for struct in sorted(structs, key=lambda s: (not s.shared, s.origin.file, s.origin.line)):
        place(struct)
    return ordered
