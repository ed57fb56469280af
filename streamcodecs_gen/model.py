"""The typed intermediate representation (IR): what a definition says, each node with its origin.

Plain dataclasses with derived properties only. ``build.py`` builds it from schema-valid definitions, the semantic
checks run over it, and the targets render it; none of them reads the raw YAML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeAlias, TypeVar

from .families.framing import Framing
from .naming import snake_case, upper_snake_case
from .origin import NOWHERE, Origin
from .types import MAP_KEY, WIRE_TYPES, WireType
from .versions import version_key

FramingT = TypeVar("FramingT", bound=Framing)


@dataclass
class EnumValue:
    name: str
    value: int | str
    doc: str
    since: str | None = None  # as written (checked against the versions; not generated)
    origin: Origin = NOWHERE


@dataclass
class Enum:
    name: str
    wire: str  # int8 .. int64 or string
    values: list[EnumValue]
    unknown: str | None
    doc: str
    origin: Origin
    shared: bool = False  # from custom/

    @property
    def wire_type(self) -> WireType:
        """The wire type its values travel as."""
        return WIRE_TYPES[self.wire]

    @property
    def is_string(self) -> bool:
        return self.wire_type.is_text

    @property
    def is_open(self) -> bool:
        """Unknown wire values are kept as plain values (``unknown: keep``)."""
        return self.unknown == "keep"


@dataclass
class RefBase:
    """What every :data:`TypeRef` class shares: the type expression as written, and the properties each class
    answers its own way (the targets ask the node instead of telling the classes apart)."""

    text: str

    @property
    def name(self) -> str:
        return self.text

    @property
    def head(self) -> str:
        """The name the type expression starts with: ``list``, ``map``, or the wire type, enum or struct."""
        raise NotImplementedError

    @property
    def args(self) -> tuple[TypeRef, ...]:
        """The type arguments, as written (a list's item; a map's key and value)."""
        return ()

    @property
    def py_annotation(self) -> str:
        return self.text

    @property
    def spark_type(self) -> str:
        """The Spark SQL type (DDL)."""
        raise NotImplementedError

    @property
    def spark_class(self) -> str:
        """The PySpark class of a scalar's Spark type (wire types and enums)."""
        raise NotImplementedError(f"{self.text} is not a scalar: it has no scalar Spark class")

    @property
    def arrow_converts(self) -> bool:
        """Whether a codec value of the type differs from what Arrow takes (see WireType.to_arrow)."""
        return False

    def to_plain(self, expr: str) -> str:
        """Python source turning the value ``expr`` into plain data (what ``to_dict`` gives)."""
        return expr

    def from_plain(self, expr: str) -> str:
        """Python source turning plain data ``expr`` back into a value of the type (what ``from_dict`` takes)."""
        return expr

    @property
    def converts_plain(self) -> bool:
        """Whether plain data of the type needs converting back (``from_plain`` is not the value itself)."""
        return self.from_plain("x") != "x"

    @property
    def default_factory(self) -> str | None:
        """The callable that makes a default value afresh, for a mutable type (``list``, ``dict``); None for others."""
        return None

    @property
    def json_annotation(self) -> str:
        """JSON family: the annotation msgspec decodes a value of the type with (wire types constrained)."""
        return self.text

    @property
    def struct_code(self) -> str | None:
        """Binary: the ``struct`` code of a fixed-size value (an enum's is its integer type's); None if not fixed."""
        return None

    @property
    def holds_view(self) -> bool:
        """Binary: whether a decoded value is, or holds, read-only memoryviews onto the frame."""
        return False

    @property
    def held_struct(self) -> Struct | None:
        """The struct a value of the type is, or holds as its items."""
        return None

    def python_literal(self, value: Any) -> str:
        """Python source for ``value`` (a default or constant) of this type."""
        if value is None:
            return "None"
        if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
            return f'float("{value}")'
        return repr(value)


@dataclass
class WireRef(RefBase):
    """A wire type (``int32``, ``uuid``, ...)."""

    wire: WireType

    @property
    def head(self) -> str:
        return self.wire.name

    @property
    def py_annotation(self) -> str:
        return self.wire.annotation

    @property
    def spark_type(self) -> str:
        return self.wire.spark

    @property
    def spark_class(self) -> str:
        return self.wire.spark_class

    @property
    def arrow_converts(self) -> bool:
        return self.wire.to_arrow is not None or self.wire.arrow_shape is not None

    @property
    def json_annotation(self) -> str:
        return self.wire.json_annotation

    @property
    def struct_code(self) -> str | None:
        return self.wire.struct

    @property
    def holds_view(self) -> bool:
        return self.wire.view

    def to_plain(self, expr: str) -> str:
        return f"bytes({expr})" if self.wire.view else expr

    def python_literal(self, value: Any) -> str:
        return "b" + repr(value) if value is not None and self.wire.is_bytes else super().python_literal(value)


@dataclass
class ListRef(RefBase):
    """``list<item>``."""

    item: TypeRef

    @property
    def head(self) -> str:
        return "list"

    @property
    def args(self) -> tuple[TypeRef, ...]:
        return (self.item,)

    @property
    def py_annotation(self) -> str:
        return f"list[{self.item.py_annotation}]"

    @property
    def spark_type(self) -> str:
        return f"array<{self.item.spark_type}>"

    @property
    def arrow_converts(self) -> bool:
        return self.item.arrow_converts

    @property
    def default_factory(self) -> str | None:
        return "list"

    @property
    def json_annotation(self) -> str:
        return f"list[{self.item.json_annotation}]"

    @property
    def holds_view(self) -> bool:
        return self.item.holds_view

    @property
    def held_struct(self) -> Struct | None:
        return self.item.held_struct

    def to_plain(self, expr: str) -> str:
        item = self.item.to_plain("v")
        return f"[{item} for v in {expr}]" if item != "v" else f"list({expr})"

    def from_plain(self, expr: str) -> str:
        item = self.item.from_plain("v")
        return f"[{item} for v in {expr}]" if item != "v" else f"list({expr})"

    def python_literal(self, value: Any) -> str:
        return "None" if value is None else "[]"


@dataclass
class MapRef(RefBase):
    """``map<string,item>``."""

    item: TypeRef

    @property
    def head(self) -> str:
        return "map"

    @property
    def args(self) -> tuple[TypeRef, ...]:
        return (WireRef(MAP_KEY, WIRE_TYPES[MAP_KEY]), self.item)

    @property
    def py_annotation(self) -> str:
        return f"dict[str, {self.item.py_annotation}]"

    @property
    def spark_type(self) -> str:
        return f"map<string,{self.item.spark_type}>"

    @property
    def arrow_converts(self) -> bool:
        return self.item.arrow_converts

    @property
    def default_factory(self) -> str | None:
        return "dict"

    @property
    def json_annotation(self) -> str:
        return f"dict[str, {self.item.json_annotation}]"

    def to_plain(self, expr: str) -> str:
        item = self.item.to_plain("v")
        return f"{{k: {item} for k, v in {expr}.items()}}" if item != "v" else f"dict({expr})"

    def from_plain(self, expr: str) -> str:
        item = self.item.from_plain("v")
        return f"{{k: {item} for k, v in {expr}.items()}}" if item != "v" else f"dict({expr})"

    def python_literal(self, value: Any) -> str:
        return "None" if value is None else "{}"


@dataclass
class EnumRef(RefBase):
    """An enum, by its name."""

    enum: Enum

    @property
    def head(self) -> str:
        return self.enum.name

    @property
    def spark_type(self) -> str:
        return self.enum.wire_type.spark

    @property
    def spark_class(self) -> str:
        return self.enum.wire_type.spark_class

    @property
    def struct_code(self) -> str | None:
        return None if self.enum.is_string else self.enum.wire_type.struct

    def to_plain(self, expr: str) -> str:
        return f"{'str' if self.enum.is_string else 'int'}({expr})"

    def from_plain(self, expr: str) -> str:
        if self.enum.is_open:  # an unknown value stays a plain value
            return f"{self.enum.name}._value2member_map_.get({expr}, {expr})"
        return f"{self.enum.name}({expr})"

    def python_literal(self, value: Any) -> str:
        return "None" if value is None else f"{self.enum.name}.{value}"


@dataclass
class StructRef(RefBase):
    """A struct (a custom type), by its name."""

    struct: Struct

    @property
    def head(self) -> str:
        return self.struct.name

    @property
    def spark_type(self) -> str:
        inner = ",".join(f"{f.py}:{f.type.spark_type}" for f in self.struct.fields)
        return f"struct<{inner}>"

    @property
    def arrow_converts(self) -> bool:
        return True  # a struct travels as a dict

    @property
    def held_struct(self) -> Struct | None:
        return self.struct

    def to_plain(self, expr: str) -> str:
        return f"{expr}.to_dict()"

    def from_plain(self, expr: str) -> str:
        return f"{self.struct.name}.from_dict({expr})"


@dataclass
class UnknownRef(RefBase):
    """A type the definition gets wrong: a name it does not define, or a malformed expression (``list``,
    ``map<int32,T>``, ``Pair<int32>``). ``spelled`` keeps the name it starts with and ``spelled_args`` its arguments,
    resolved as far as they go, for the checks to report."""

    spelled: str
    spelled_args: tuple[TypeRef, ...]

    @property
    def head(self) -> str:
        return self.spelled

    @property
    def args(self) -> tuple[TypeRef, ...]:
        return self.spelled_args

    def unresolved(self) -> NoReturn:
        """Fails: a target was given a type the checks report (they run first, so a programming error)."""
        raise TypeError(f"type {self.text!r} does not resolve")


TypeRef: TypeAlias = WireRef | ListRef | MapRef | EnumRef | StructRef | UnknownRef
"""A field's type: one of a closed set of classes. A type the definition gets wrong is an :class:`UnknownRef`, which
the checks report; a protocol that passed them has none. Code that tells the classes apart matches on them (``match
ref: case ListRef(item=item): ...``); a fact several targets need is a property of the classes (:class:`RefBase`)."""


@dataclass
class Field:
    name: str
    py: str
    type: TypeRef
    since: str
    removed: str | None
    doc: str
    origin: Origin
    has_default: bool = False
    default: Any = None
    presence: int | None = None  # binary: read only if this many bytes remain
    when_nonempty: str | None = None
    has_const: bool = False
    const: Any = None
    nullable: bool = False
    optional: bool = False
    accept_scalar: bool = False
    negative: str | None = None  # binary: what a negative length/count means (error, empty), if written
    added_later: bool = False  # since is newer than the owner's since
    min_length: int | None = None  # text: fewest characters (checked on decode and encode)
    additional: bool = False  # kafka: this map holds every attribute not declared as a field
    py_explicit: bool = False  # `py:` was written (else py is the snake_case of name)

    @property
    def negative_empty(self) -> bool:
        """Binary: a negative length/count decodes as empty."""
        return self.negative == "empty"

    @property
    def types(self) -> list[TypeRef]:
        """The field's type and every type nested in it (a list's item, a map's value, theirs)."""
        found = [self.type]
        while isinstance(found[-1], ListRef | MapRef):
            found.append(found[-1].item)
        return found

    @property
    def may_be_none(self) -> bool:
        """Whether the codec may hold None in the field (nullable, or optional without a default): its annotation
        says ``| None``."""
        return self.nullable or (self.optional and self.default is None)

    @property
    def py_annotation(self) -> str:
        base = self.type.py_annotation
        if isinstance(self.type, EnumRef) and self.type.enum.is_open:
            base = f"{base} | {'str' if self.type.enum.is_string else 'int'}"
        return f"{base} | None" if self.may_be_none else base

    @property
    def default_literal(self) -> str:
        """Python source for the default value."""
        return self.type.python_literal(self.default)

    @property
    def const_literal(self) -> str:
        return self.type.python_literal(self.const)

    @property
    def upper(self) -> str:
        return self.py.upper()


@dataclass(frozen=True)
class SizePrefix:
    type: str  # int16 / int32 / int64
    counts_absent: bool = False  # encode: count conditional fields even when they are not written
    check: str = "exact"  # decode: exact (bounds the struct) or at_least_if_nonempty


@dataclass
class Struct:
    name: str
    since: str
    doc: str
    fields: list[Field]
    origin: Origin
    size_prefix: SizePrefix | None = None
    shared: bool = False  # from custom/

    @property
    def snake(self) -> str:
        return snake_case(self.name)

    def py_of(self, wire_name: str) -> str:
        """The Python name of the field named ``wire_name`` on the wire."""
        return next(f.py for f in self.fields if f.name == wire_name)


@dataclass
class Shape:
    json: str  # object | array
    keys: list[str]
    match: dict[str, Any]

    @property
    def is_array(self) -> bool:
        """The message is a JSON array (else an object with ``keys``, and ``match``'s values)."""
        return self.json == "array"


@dataclass
class Message(Struct):
    directions: list[str] = field(default_factory=list)
    code: int | None = None
    tag: str | None = None
    shape: Shape | None = None
    removed: str | None = None
    inline_only: bool = False

    @property
    def array_shaped(self) -> bool:
        """Recognised by its shape as a JSON array."""
        return self.shape is not None and self.shape.is_array

    @property
    def object_shaped(self) -> bool:
        """Recognised by its shape as a JSON object (its keys, and its ``match`` values)."""
        return self.shape is not None and not self.shape.is_array

    @property
    def upper(self) -> str:
        return upper_snake_case(self.name)


@dataclass
class Constant:
    name: str
    value: str | int | float | bool  # the schema refuses null: a constant names a value
    doc: str
    origin: Origin = NOWHERE


@dataclass
class Direction:
    name: str
    doc: str
    origin: Origin = NOWHERE


@dataclass
class Protocol:
    name: str
    title: str
    doc: str
    family: str
    versions: list[str]
    directions: list[Direction]
    framing: Framing
    """The family's typed framing configuration (``families/framing.py``)."""
    constants: list[Constant]
    enums: list[Enum]
    structs: list[Struct]
    messages: list[Message]
    companions: list[str]
    source: str
    origin: Origin = NOWHERE

    @property
    def version(self) -> str:
        return self.versions[-1]

    def framing_as(self, kind: type[FramingT]) -> FramingT:
        """The framing as the family's own class (a family's code asks for its own; another is a programming
        error)."""
        if not isinstance(self.framing, kind):
            raise TypeError(
                f"{self.name} ({self.family}) is framed by {type(self.framing).__name__}, not {kind.__name__}"
            )
        return self.framing

    def messages_for(self, direction: str) -> list[Message]:
        return [m for m in self.messages if direction in m.directions]

    def messages_at(self, version: str) -> list[Message]:
        """Messages that exist at ``version``."""
        key = version_key(version)
        return [
            m
            for m in self.messages
            if version_key(m.since) <= key and (m.removed is None or key < version_key(m.removed))
        ]

    def all_types(self) -> list[TypeRef]:
        refs: list[TypeRef] = []
        for owner in [*self.structs, *self.messages]:
            for f in owner.fields:
                refs += f.types
        return refs

    @property
    def imports(self) -> list[str]:
        """Standard-library modules the message classes need for their annotations."""
        found = {imp for r in self.all_types() if isinstance(r, WireRef) for imp in r.wire.imports}
        return sorted(found)
