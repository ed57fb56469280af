"""The Java codec of a JSON-family protocol: what its templates render, decided here once.

Every value of the model becomes a Java expression built from the runtime's helpers (``JsonWire``'s per-type
methods, ``JsonRead``/``JsonWrite`` for lists, maps and constants, ``JsonSpark``): a reader of the parser's current
value (``JsonWire.readStr(p)``, ``Codec.readRecord(p)``, ``JsonRead.readList(p, JsonWire::readStr)``), a writer of
a component's value, and the conversions to and from Spark's external row values. The templates only
lay these out; the rules they follow are the Python codec's (``analysis/json.py``: field modes, the fast path,
the typed union path, which fields encode writes).

Free-form JSON (``any``) is held as Spark's ``VariantVal``: the Java codec exists for Spark, and a VARIANT is
what the Spark functions return for it, so no second tree of Java values is built and converted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..families.framing import JsonFraming
from ..families.json import java_field_name
from ..filters import javastr as java_string
from ..model import (
    Enum,
    EnumRef,
    Field,
    ListRef,
    MapRef,
    Message,
    Protocol,
    Struct,
    StructRef,
    TypeRef,
    UnknownRef,
    WireRef,
)
from .json import encode_rule, fast_path, field_doc, field_mode, tag_owners, typed_path
from .json_checks import shadows, written_checked

# The Java type of each JSON-family wire type, and the runtime helper suffix that reads and writes it.
_SPARK_CONVERTS = {"UUID": "JsonSpark.uuidText", "OffsetDateTime": "JsonSpark.sqlTimestamp"}
"""Java types that are not already Spark's external value: the helper converting them."""
camel = java_field_name
"""``shard_id`` -> ``shardId``: a field's record component and local variable (the family's ``java_name``)."""


def java_type(ref: TypeRef) -> str:
    """The Java type of a decoded value (boxed: a component may be null)."""
    match ref:
        case WireRef(wire=wire):
            return str(wire.java)
        case EnumRef(enum=enum):
            return f"Messages.{enum.name}"
        case StructRef(struct=struct):
            return f"Messages.{struct.name}"
        case ListRef(item=item):
            return f"List<{java_type(item)}>"
        case MapRef(item=item):
            return f"Map<String, {java_type(item)}>"
        case UnknownRef():
            ref.unresolved()


def _null(nullable: bool) -> str:
    return "OrNull" if nullable else ""


def _container(ref: ListRef | MapRef) -> str:
    """The runtime's word for a list or a map (``JsonRead.readList``, ``readMap``)."""
    return "List" if isinstance(ref, ListRef) else "Map"


def _name(ref: TypeRef) -> str:
    """A Java name part for a type: ``ListOfStr``, ``MapOfListOfStr``, ``Grouping``."""
    match ref:
        case WireRef(wire=wire):
            assert wire.java_helper, ref.text
            return wire.java_helper
        case EnumRef(enum=enum):
            return enum.name
        case StructRef(struct=struct):
            return struct.name
        case ListRef(item=item) | MapRef(item=item):
            return _container(ref) + "Of" + _name(item)
        case UnknownRef():
            ref.unresolved()


def _any(ref: TypeRef) -> bool:
    return isinstance(ref, WireRef) and ref.wire.java == "VariantVal"


@dataclass(frozen=True)
class JavaHelper:
    """The codec's methods for a list or map that is itself an item of a list or map (no nested lambdas)."""

    name: str  # ListOfStr
    type: str  # its Java type
    read: str  # Java reading it at parser p
    write: str  # Java writing v with writer w
    to_spark: str  # Java giving Spark's value of v
    from_spark: str  # Java giving it from Spark's value o


class Expressions:
    """Builds the Java expressions of a protocol's values, collecting the helpers nested lists and maps need."""

    def __init__(self) -> None:
        self.helpers: dict[str, JavaHelper] = {}

    def _helper(self, ref: TypeRef) -> str:
        name = _name(ref)
        if name not in self.helpers:
            self.helpers[name] = JavaHelper(
                name=name,
                type=java_type(ref),
                read=self.read(ref, False, "p"),
                write=self.write(ref, False, "w", "v"),
                to_spark=self.to_spark(ref, "v"),
                from_spark=self.from_spark(ref, "o"),
            )
        return name

    def read(self, ref: TypeRef, nullable: bool, p: str, scalar: bool = False) -> str:
        """Java reading the value at parser ``p`` (``scalar``: a list that also takes one item alone)."""
        match ref:
            case WireRef(wire=wire):
                return f"JsonWire.read{wire.java_helper}{_null(nullable)}({p})"
            case EnumRef(enum=enum):
                return f"Messages.{enum.name}.read{_null(nullable)}({p})"
            case StructRef(struct=struct):
                return f"Codec.read{struct.name}{_null(nullable)}({p})"
            case ListRef(item=item) | MapRef(item=item):
                method = _container(ref) + ("OrItem" if scalar else "")
                return f"JsonRead.read{method}{_null(nullable)}({p}, {self.read_ref(item)})"
            case UnknownRef():
                ref.unresolved()

    def read_ref(self, ref: TypeRef) -> str:
        """A ``JsonRead.Read`` of an item: a method reference."""
        if isinstance(ref, ListRef | MapRef):
            return f"Codec::read{self._helper(ref)}"
        return _method(self.read(ref, _any(ref), "X"))

    def write(self, ref: TypeRef, nullable: bool, w: str, v: str) -> str:
        """Java writing the value ``v`` with writer ``w`` (a ``JsonProblem`` when it is null but may not be)."""
        match ref:
            case WireRef(wire=wire):
                return f"JsonWire.write{wire.java_helper}{_null(nullable)}({w}, {v})"
            case EnumRef(enum=enum):
                return f"Messages.{enum.name}.write{_null(nullable)}({w}, {v})"
            case StructRef(struct=struct):
                return f"Codec.write{struct.name}{_null(nullable)}({w}, {v})"
            case ListRef(item=item) | MapRef(item=item):
                return f"JsonWrite.write{_container(ref)}{_null(nullable)}({w}, {v}, {self.write_ref(item)})"
            case UnknownRef():
                ref.unresolved()

    def write_ref(self, ref: TypeRef) -> str:
        if isinstance(ref, ListRef | MapRef):
            return f"Codec::write{self._helper(ref)}"
        return _method(self.write(ref, _any(ref), "W", "X").replace("(W, X)", "(X)"))

    def to_spark(self, ref: TypeRef, v: str) -> str:
        """Java turning the value ``v`` into Spark's external value (null stays null)."""
        match ref:
            case WireRef(wire=wire):
                helper = _SPARK_CONVERTS.get(str(wire.java))
                return f"{helper}({v})" if helper else v
            case EnumRef(enum=enum):
                return f"Messages.{enum.name}.wire({v})"
            case StructRef():
                return f"Codec.row({v})"
            case ListRef(item=item) | MapRef(item=item):
                container = _container(ref)
                if isinstance(item, WireRef) and item.wire.java not in _SPARK_CONVERTS:
                    return f"JsonSpark.spark{container}({v})"
                if isinstance(item, ListRef | MapRef):
                    return f"JsonSpark.spark{container}({v}, Codec::spark{self._helper(item)})"
                return f"JsonSpark.spark{container}({v}, x -> {self.to_spark(item, 'x')})"
            case UnknownRef():
                ref.unresolved()

    def from_spark(self, ref: TypeRef, o: str) -> str:
        """Java turning Spark's external value ``o`` (an Object) into the Java value (a ``JsonProblem`` if it
        cannot)."""
        match ref:
            case WireRef(wire=wire):
                if wire.java in _SPARK_CONVERTS or wire.java == "VariantVal":  # a VARIANT of JSON null is null
                    return f"JsonWire.from{wire.java_helper}({o})"
                return f"({java_type(ref)}) {o}"
            case EnumRef(enum=enum):
                return f"Messages.{enum.name}.fromWire({o})"
            case StructRef(struct=struct):
                return f"Codec.from{struct.name}((Row) {o})"
            case ListRef(item=item) | MapRef(item=item):
                container = _container(ref)
                if isinstance(item, ListRef | MapRef):
                    return f"JsonSpark.from{container}({o}, Codec::from{self._helper(item)})"
                return f"JsonSpark.from{container}({o}, x -> {self.from_spark(item, 'x')})"
            case UnknownRef():
                ref.unresolved()


def _method(call: str) -> str:
    """``Owner.name(X)`` as the method reference ``Owner::name``."""
    owner, _, name = call.removesuffix("(X)").rpartition(".")
    return f"{owner}::{name}"


def java_literal(value: Any, ref: TypeRef) -> str:
    """A Java expression for a default or constant value of type ``ref``."""
    if value is None:
        return "null"
    match ref:
        case EnumRef(enum=enum):
            member = next(v for v in enum.values if value in (v.name, v.value))
            return f"Messages.{enum.name}.{member.name}"
        case ListRef():
            assert not value, "only empty list defaults"
            return "List.of()"
        case MapRef():
            assert not value, "only empty map defaults"
            return "Map.of()"
        case WireRef(wire=wire):
            java = str(wire.java)
        case _:
            raise ValueError(f"no Java literal for a default of type {ref.text}")
    if java == "String":
        return java_string(str(value))
    if java == "Boolean":
        return "Boolean.TRUE" if value else "Boolean.FALSE"
    if java in ("Byte", "Short"):
        return f"{java}.valueOf(({java.lower()}) {int(value)})"
    if java == "Integer":
        return f"Integer.valueOf({int(value)})"
    if java == "Long":
        return f"Long.valueOf({int(value)}L)"
    if java in ("Float", "Double"):
        return f"{java}.valueOf({float(value)!r}{'f' if java == 'Float' else ''})"
    raise ValueError(f"no Java literal for a default of type {ref.text}")


@dataclass(frozen=True)
class JavaField:
    key: str  # the JSON key
    name: str  # the record component
    type: str  # its Java type
    mode: str  # field_mode
    removed: str | None  # the version that removed it (held as JsonRead.Sent, never encoded)
    read: str  # Java reading it at parser p
    absent: str | None  # its value when the key is absent (None: the key is required)
    write: str | None  # Java writing m.<name>() with writer w (None: never written)
    if_set: bool  # written only when not null
    to_spark: str  # Java giving Spark's value of it from the record v
    from_spark: str  # Java giving it from Spark's row r
    doc: str = ""  # its record component's Javadoc (json.field_doc: the Python docstring's text)

    @property
    def from_spark_checks(self) -> bool:
        """Whether taking it from Spark's row may fail (a JsonProblem): every conversion but a plain cast."""
        return ".from" in self.from_spark


@dataclass(frozen=True)
class JavaStruct:
    name: str
    doc: str
    fields: list[JavaField]
    message: bool
    tag: str | None
    array: bool  # a message that is a bare JSON array (its one field)
    column: str | None  # its column in DECODED (messages)
    empty: bool  # a message without fields (its DECODED column is a boolean)
    index: int  # its place among the messages (DECODED column = index + 1)
    shadows: list[tuple[str, str, str]]  # (Java test on m, reason, key): it would be read as another message
    written_checked: bool  # a message whose written bytes encode checks (json_checks.written_checked)

    @property
    def components_end(self) -> str:
        """What closes its record's components and opens its body."""
        return ") implements Message {" if self.message else ") {"

    @property
    def decoded_value(self) -> str:
        """The value of its DECODED column for a decoded ``message`` (true for a message without fields)."""
        return "Boolean.TRUE" if self.empty else f"row((Messages.{self.name}) message)"


@dataclass(frozen=True)
class JavaEnum:
    name: str
    doc: str
    string: bool
    members: list[tuple[str, str, str]]  # Java constant, Java literal of its wire value, its doc
    unknown: str | None  # the member any other integer decodes as

    @property
    def reader(self) -> str:
        """The ``JsonRead`` method reading its wire value."""
        return "enumStr" if self.string else "enumInt"


@dataclass(frozen=True)
class JavaCheck:
    accessor: str  # the base message's component holding a match key
    literal: str  # the value it holds in the other message


@dataclass(frozen=True)
class JavaDirection:
    name: str
    index: int
    tagged: list[tuple[str, str]]  # (tag, message) of the direction, in declaration order
    shapes: list[tuple[str, list[int], list[tuple[int, str]]]]  # (message, key indexes, (key index, literal))
    array: str | None  # the message that is a bare JSON array
    base: str | None  # the catch-all object message the fast path tries
    checks: list[list[JavaCheck]]  # values of the base that make it another message (each all of a list)

    @property
    def other_message_tests(self) -> list[str]:
        """Each a Java test on ``base`` (the catch-all message read) that it is another message's shape."""
        return [
            "(" + " && ".join(f"JsonRead.same(base.{c.accessor}, {c.literal})" for c in check) + ")"
            for check in self.checks
        ]

    @property
    def shape_tests(self) -> list[tuple[str, str]]:
        """(message, the Java test on ``scan`` and ``object`` that a scanned value has its shape), in order."""
        tests = []
        for name, keys, match in self.shapes:
            test = f"object && scan.all({', '.join(str(k) for k in keys)})"
            test += "".join(f" && scan.is({k}, {literal})" for k, literal in match)
            tests.append((name, test))
        return tests


@dataclass(frozen=True)
class JavaJsonPlan:
    protocol: str
    tag_key: str
    end_line: bool  # messages end with an ``end`` line (else one per line)
    upper_hex: bool  # \u00XX escapes with upper-case hex digits
    max_message: int
    typed: bool  # directions decode as unions of tagged messages (else recognised by tag, then by shape)
    enums: list[JavaEnum]
    helpers: list[JavaHelper]  # nested lists and maps, each with methods of its own
    structs: list[JavaStruct]  # types, then messages
    messages: list[JavaStruct]
    directions: list[JavaDirection]
    shape_keys: list[str]  # the keys the general path looks at (shape keys and matched keys)
    tag_owners: list[tuple[str, list[int]]]  # each tag -> the indexes of the directions that have it
    columns: int  # DECODED's width
    packed: list[str] = field(default_factory=list)  # the MessagePack framing variants (framing.variants), by name

    @property
    def stream_doc(self) -> str:
        """How messages follow each other in a stream (the Reader's documentation)."""
        if self.end_line:
            return "JSON then an `end` line per message (the JSON may span lines)."
        return "One message per line; blank lines are skipped."

    @property
    def direction_names(self) -> str:
        """The directions' names, as Java string literals separated by commas."""
        return ", ".join(java_string(d.name) for d in self.directions)

    def index_of(self, message: str) -> int:
        """The index of a message (its DECODED column is one more)."""
        return next(m.index for m in self.messages if m.name == message)

    @property
    def single_owners(self) -> list[tuple[str, int]]:
        """Each tag that one direction alone has, with that direction's index (its failure is the one told)."""
        return [(tag, owners[0]) for tag, owners in self.tag_owners if len(owners) == 1]


def _field(owner: Struct, f: Field, index: int, x: Expressions) -> JavaField:
    mode = field_mode(owner, f)
    ref = f.type
    name = camel(f.py)
    nullable = f.may_be_none
    if f.has_const:
        kind = "Str" if java_type(ref) == "String" else "Int"
        read = f"JsonRead.readConst{kind}(p, {java_literal(f.const, ref)})"
    else:
        read = x.read(ref, nullable, "p", scalar=f.accept_scalar)
    jtype = java_type(ref)
    if f.removed:
        read = f"new JsonRead.Sent<>({read})"
        jtype = f"JsonRead.Sent<{jtype}>"
    absent: str | None = None
    if mode == "const":
        absent = java_literal(f.const, ref)
    elif mode == "unset":
        absent = "null"
    elif mode != "required":
        absent = java_literal(f.default, ref)
    rule = encode_rule(owner, f)
    write: str | None = None
    if rule != "skip" and not f.removed:
        value = f"m.{name}()"
        if f.has_const:
            kind = "Str" if java_type(ref) == "String" else "Int"
            write = f"JsonWrite.writeConst{kind}(w, {value}, {java_literal(f.const, ref)})"
        else:
            write = x.write(ref, nullable and rule != "if_set", "w", value)
    value = f"v.{name}()"
    spark = x.to_spark(ref, f"{value}.value()" if f.removed else value)
    o = f"r.get({index})"
    back = x.from_spark(ref, o)
    if f.removed:
        # Spark cannot tell a removed key sent as null from an absent one: a null column is an absent key
        spark = f"{value} == null ? null : {spark}"
        back = f"{o} == null ? null : new JsonRead.Sent<>({back})"
    return JavaField(
        key=f.name,
        name=name,
        type=jtype,
        mode=mode,
        removed=f.removed,
        read=read,
        absent=absent,
        write=write,
        if_set=rule == "if_set",
        to_spark=spark,
        from_spark=back,
        doc=field_doc(f),
    )


def _shadows(protocol: Protocol, s: Struct) -> list[tuple[str, str, str]]:
    """The Python codec's refusals of a message an earlier shape would take (``json_checks.shadows``), in Java."""
    if not isinstance(s, Message):
        return []
    found = []
    for shadow in shadows(protocol, s):
        tests = [f"m.{camel(py)}() != null" for py in shadow.present]
        tests += [f"JsonRead.same(m.{camel(py)}(), {_match_literal(v)})" for py, v in shadow.compared]
        found.append((" && ".join(tests) or "true", java_string(shadow.reason), java_string(shadow.key)))
    return found


def _struct(protocol: Protocol, s: Struct, index: int, x: Expressions) -> JavaStruct:
    is_message = isinstance(s, Message)
    column = None
    if is_message:
        column = s.snake + ("_msg" if s.snake in ("message", "error") else "")
    return JavaStruct(
        name=s.name,
        doc=s.doc,
        fields=[_field(s, f, i, x) for i, f in enumerate(s.fields)],
        message=is_message,
        tag=s.tag if isinstance(s, Message) else None,
        array=isinstance(s, Message) and s.array_shaped,
        column=column,
        empty=not s.fields,
        index=index,
        shadows=_shadows(protocol, s),
        written_checked=isinstance(s, Message) and written_checked(s),
    )


def _enum_literal(value: Any) -> str:
    return java_string(value) if isinstance(value, str) else f"Integer.valueOf({int(value)})"


def _match_literal(value: str | int) -> str:
    """A shape's ``match`` value as ``JsonScan.is``/``JsonRead.same`` take it (the schema allows these two)."""
    if isinstance(value, str):
        return java_string(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value}L"
    raise TypeError(f"a shape matches a string or an integer, not {value!r}")


def java_json_plan(protocol: Protocol) -> JavaJsonPlan:
    """Everything the JSON family's Java templates render for ``protocol``."""
    framing = protocol.framing_as(JsonFraming)
    x = Expressions()
    structs = [_struct(protocol, s, -1, x) for s in protocol.structs]
    messages = [_struct(protocol, m, i, x) for i, m in enumerate(protocol.messages)]
    shape_keys = _shape_keys(protocol)
    return JavaJsonPlan(
        protocol=protocol.name,
        tag_key=framing.tag_key or "",
        end_line=not framing.by_line,
        upper_hex=framing.escape_hex == "upper",
        max_message=framing.message_limit,
        typed=typed_path(protocol),
        enums=[_enum(e) for e in protocol.enums],
        helpers=list(x.helpers.values()),
        structs=structs,
        messages=messages,
        directions=[_direction(protocol, i, d.name, shape_keys) for i, d in enumerate(protocol.directions)],
        shape_keys=shape_keys,
        tag_owners=_tag_owners(protocol),
        columns=len(protocol.messages) + 2,
        packed=[v.name for v in framing.variants if v.encoding == "msgpack"],
    )


def _enum(e: Enum) -> JavaEnum:
    """An enum as its Java enum; an unknown value is kept only by a closed enum (an open one keeps any value)."""
    return JavaEnum(
        name=e.name,
        doc=e.doc,
        string=e.is_string,
        members=[(v.name, _enum_literal(v.value), v.doc) for v in e.values],
        unknown=e.unknown if e.unknown and not e.is_open else None,
    )


def _shape_keys(protocol: Protocol) -> list[str]:
    """Every key a message's shape names (its keys, then its ``match`` keys), once each, in first-seen order."""
    keys: list[str] = []
    for m in protocol.messages:
        if m.shape:
            for key in [*m.shape.keys, *m.shape.match]:
                if key not in keys:
                    keys.append(key)
    return keys


def _direction(protocol: Protocol, index: int, direction: str, shape_keys: list[str]) -> JavaDirection:
    """How the Java reader tells a direction's messages apart: tags, object shapes (as indexes into
    ``shape_keys``), the array message and the fast path's base with its checks."""
    found = protocol.messages_for(direction)
    fast = fast_path(protocol, direction)
    shapes = []
    for m in found:
        if m.shape is not None and not m.shape.is_array:
            keys = [shape_keys.index(k) for k in m.shape.keys]
            match = [(shape_keys.index(k), _match_literal(v)) for k, v in m.shape.match.items()]
            shapes.append((m.name, keys, match))
    checks = []
    if fast.base is not None:
        fields = {f.name: camel(f.py) for f in fast.base.fields}
        for _, required in fast.checks:
            checks.append([JavaCheck(f"{fields[k]}()", _match_literal(v)) for k, v in required.items()])
    return JavaDirection(
        name=direction,
        index=index,
        tagged=[(m.tag, m.name) for m in found if m.tag is not None],
        shapes=shapes,
        array=fast.array.name if fast.array else None,
        base=fast.base.name if fast.base else None,
        checks=checks,
    )


def _tag_owners(protocol: Protocol) -> list[tuple[str, list[int]]]:
    """:func:`tag_owners` with the directions as their indexes (the Java reader's)."""
    index = {d.name: i for i, d in enumerate(protocol.directions)}
    return [(tag, [index[name] for name in names]) for tag, names in tag_owners(protocol).items()]


def java_context(protocol: Protocol) -> dict[str, Any]:
    """The names the JSON family's Java templates read."""
    return {"plan": java_json_plan(protocol), "java_string": java_string}
