"""The binary family's Java-target context: Java names, types and the expressions each field reads and writes with.

The Java codec follows the same layout as the Python one (``layout.py``): a fixed run of fields is one bounds check
(``in.need(size, field)``) and unchecked reads; guarded trailing fields are read at once when all are there; a
failure names the same offset and field, with the same reason text.  Everything the templates print about a field
(its Java type, the expression that reads it, the statement that writes it, how it becomes a Spark value and back)
is computed here, so the templates only lay the steps out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..families.binary import java_identifier
from ..families.framing import BinaryFraming
from ..filters import javastr as java_string
from ..layout import Layout, Step, binary_layout, min_size
from ..model import Enum, EnumRef, Field, ListRef, Message, Protocol, Struct, StructRef, TypeRef, WireRef
from ..types import JAVA_PRIMITIVES, WIRE_TYPES, WireType, enum_refusal
from .binary import field_doc

_LOCALS = frozenset({"in", "out", "at", "size", "left", "outerEnd", "sizeAt", "value", "item", "items", "count", "i"})
"""Names the generated read and write methods use for themselves."""

_BOXED = {primitive: boxed for boxed, primitive in JAVA_PRIMITIVES.items()}


@dataclass
class JavaBinary:
    """Names and expressions of the Java codec of one binary protocol (the templates call these)."""

    protocol: Protocol
    layout: Layout

    # ------------------------------------------------------------------ names and types

    def name(self, f: Field) -> str:
        return java_identifier(f.name)

    def local(self, f: Field) -> str:
        """The field's local variable in a read method (renamed where it would be one of the method's own)."""
        name = self.name(f)
        return name + "_" if name in _LOCALS else name

    def locals(self, owner: Struct) -> list[str]:
        return [self.local(f) for f in owner.fields]

    @staticmethod
    def wire_size(name: str) -> int:
        size = WIRE_TYPES[name].size
        assert size
        return size

    def enum_java(self, enum: Enum) -> str:
        return enum.wire_type.java_primitive

    def enum_member(self, enum: Enum, name: str) -> str:
        return self._number(self.enum_java(enum), next(v.value for v in enum.values if v.name == name))

    @property
    def direction_names(self) -> str:
        """The directions' names, as Java string literals separated by commas."""
        return ", ".join(java_string(d.name) for d in self.protocol.directions)

    @property
    def header_size(self) -> int:
        framing = self.protocol.framing_as(BinaryFraming)
        return sum(WIRE_TYPES[t].size or 0 for t in (framing.code_type, framing.length_type))

    def path(self, owner: Struct, f: Field) -> str:
        """The field as the Python codec names it in errors (``SetupAppend.request_id``)."""
        return f"{owner.name}.{f.py}"

    def type(self, ref: TypeRef) -> str:
        match ref:
            case ListRef(item=item):
                return f"List<{self.boxed(item)}>"
            case StructRef(struct=struct):
                return struct.name
        return self.wire(ref).java_primitive

    def boxed(self, ref: TypeRef) -> str:
        java = self.type(ref)
        return _BOXED.get(java, java)

    def wire(self, ref: TypeRef) -> WireType:
        """The wire type of a scalar (an enum's integer type)."""
        match ref:
            case WireRef(wire=wire):
                return wire
            case EnumRef(enum=enum):
                return enum.wire_type
        raise TypeError(f"{ref.text} is not a scalar")

    def fixed(self, ref: TypeRef) -> bool:
        return ref.struct_code is not None

    def literal(self, ref: TypeRef, value: Any) -> str:
        """Java source of a default or constant value of the type."""
        match ref:
            case ListRef():
                return "List.of()"
            case EnumRef(enum=enum):
                if isinstance(value, str):
                    value = next(v.value for v in enum.values if v.name == value)
                return self._number(enum.wire_type.java_primitive, value)
        wire = self.wire(ref)
        if wire.java_primitive == "String":
            return java_string(value)
        if wire.java_primitive == "byte[]":
            return "BinaryWire.EMPTY" if not value else "new byte[] {" + ", ".join(map(str, value)) + "}"
        if wire.java_primitive == "UUID":
            return f"UUID.fromString({java_string(str(value))})"
        if wire.java_primitive == "boolean":
            return "true" if value else "false"
        return self._number(wire.java_primitive, value)

    @staticmethod
    def _number(java: str, value: Any) -> str:
        if java in ("float", "double"):
            suffix = "f" if java == "float" else ""
            box = _BOXED[java]
            if value != value:
                return f"{box}.NaN"
            if value in (float("inf"), float("-inf")):
                return f"{box}.{'POSITIVE' if value > 0 else 'NEGATIVE'}_INFINITY"
            return repr(float(value)) + suffix
        if java == "long":
            return f"{int(value)}L"
        if java in ("byte", "short"):
            return f"({java}) {int(value)}"
        return str(int(value))

    def default(self, f: Field) -> str:
        return self.literal(f.type, f.default)

    def const(self, f: Field) -> str:
        return self.literal(f.type, f.const)

    def written(self, f: Field) -> str:
        """What the encoder writes for field ``f`` of ``value``: its constant (a struct's is checked by its own
        writer, so the value is written), else the value's component."""
        if f.has_const and not isinstance(f.type, StructRef):
            return self.const(f)
        return f"value.{self.name(f)}()"

    def const_shown(self, f: Field) -> str:
        """A constant field's value as Python's ``repr`` shows it, for the refusal of another value (the Python codec's
        ``_rt.not_const``); empty for a field without a constant, or whose struct checks its own."""
        if not f.has_const or isinstance(f.type, StructRef):
            return ""
        value = f"value.{self.name(f)}()"
        return f'({value} ? "True" : "False")' if isinstance(f.const, bool) else value

    def const_repr(self, f: Field) -> str:
        """The constant as Python's ``repr`` shows it in the error text."""
        return repr(f.const)

    def constant(self, value: Any) -> tuple[str, str]:
        """(Java type, literal) of a protocol constant."""
        if isinstance(value, bool):
            return "boolean", "true" if value else "false"
        if isinstance(value, int):
            low, high = WIRE_TYPES["int32"].range  # Java's int (a larger one is a long: checks/limits.py)
            return ("int", str(value)) if low <= value <= high else ("long", f"{value}L")
        if isinstance(value, float):
            return "double", self._number("double", value)
        if isinstance(value, str):
            return "String", java_string(value)
        raise TypeError(f"constant value {value!r}: the schema takes a string, a number or true/false")

    def components(self, owner: Struct, indent: int) -> str:
        """A record's components, on one line or one per line when that would pass 120 characters."""
        parts = [f"{self.type(f.type)} {self.name(f)}" for f in owner.fields]
        line = ", ".join(parts)
        if indent + len(owner.name) + len(line) + 40 <= 120:
            return line
        pad = " " * (indent + 4)
        return "\n" + ",\n".join(pad + p for p in parts) + "\n" + " " * indent

    def arguments(self, values: list[str], indent: int, lead: int) -> str:
        """Call arguments on the line, or one per line (``indent`` of the call, ``lead`` characters before)."""
        line = ", ".join(values)
        if indent + lead + len(line) + 3 <= 120:
            return line
        pad = " " * (indent + 4)
        return "\n" + ",\n".join(pad + v for v in values)

    # ------------------------------------------------------------------ decode

    def read_fixed(self, ref: TypeRef) -> str:
        """The unchecked read of a fixed-size value (its bytes are known to be there); enums mapped at ``at``."""
        wire = self.wire(ref)
        read = f"in.{wire.name}()"
        if wire.bits and not wire.signed:  # (read wider, as the Java type is)
            cast = "" if wire.java_primitive == "long" else f"({wire.java_primitive}) "
            read = f"{cast}in.unsigned({wire.size})"
        if isinstance(ref, EnumRef):
            return f"to{ref.enum.name}(in, {read}, at)"
        return read

    def step_needs_at(self, step: Step) -> bool:
        """The step reads an enum or checks a constant, whose failure names the step's first byte."""
        fields = [f for s in [step, *step.guarded] for f in s.fields]
        return any(isinstance(f.type, EnumRef) or f.has_const for f in fields)

    def owner_needs_at(self, owner: Struct) -> bool:
        return any(self.step_needs_at(step) for step in self.layout.steps[owner.name])

    def read(self, owner: Struct, f: Field) -> str:
        """The read of a variable-size value (a struct, a list, text or a payload)."""
        ref = f.type
        path = java_string(self.path(owner, f))
        match ref:
            case StructRef(struct=struct):
                return f"read{struct.name}(in)"
            case ListRef():
                return f"{self.list_method(ref)}(in, {path}, {'true' if f.negative_empty else 'false'})"
        wire = self.wire(ref)
        if wire.negative_length:  # bytes: a negative length may read as empty
            return f"in.bytes({path}, {'true' if f.negative_empty else 'false'})"
        if wire.trailing:
            return f"in.{wire.name}()"
        return f"in.{wire.name}({path})"

    def read_item(self, ref: TypeRef) -> str:
        """The read of one list item (its bounds checked)."""
        if isinstance(ref, StructRef):
            return f"read{ref.struct.name}(in)"
        wire = self.wire(ref)
        if wire.negative_length:
            return 'in.bytes("list item", false)'
        if wire.struct:
            return self.read_fixed(ref)
        return f'in.{wire.name}("list item")'

    def list_method(self, ref: ListRef) -> str:
        return "readListOf" + "".join(part[:1].upper() + part[1:] for part in _words(self.boxed(ref.item)))

    def lists(self) -> list[ListRef]:
        """One list type per distinct item type, for its reader method."""
        found: dict[str, ListRef] = {}
        for ref in self.protocol.all_types():
            if isinstance(ref, ListRef):
                found.setdefault(self.list_method(ref), ref)
        return [found[k] for k in sorted(found)]

    def item_size(self, ref: TypeRef) -> int:
        return min_size(ref)

    def truthy(self, ref: TypeRef, expr: str) -> str:
        """Python's truth of a value: a non-empty payload, text or list, a non-zero number."""
        java = self.type(ref)
        if java == "byte[]":
            return f"{expr}.length > 0"
        if java in ("String",) or isinstance(ref, ListRef):
            return f"!{expr}.isEmpty()"
        if java == "boolean":
            return expr
        if isinstance(ref, StructRef) or java == "UUID":
            return "true"
        return f"{expr} != 0"

    def nonempty_field(self, owner: Struct, wire_name: str) -> Field:
        return next(f for f in owner.fields if f.name == wire_name)

    # ------------------------------------------------------------------ encode

    def write(self, ref: TypeRef, expr: str, where: str) -> str:
        """The statement writing ``expr``; ``where`` names the field in an EncodeException."""
        place = java_string(where)
        match ref:
            case StructRef(struct=struct):
                return f"write{struct.name}({expr}, out);"
            case ListRef(item=item):
                # (fixed-size items are packed with one struct.pack in Python, whose failure names the list)
                written = self.write(item, "item", where if item.struct_code else "list item")
                return f"out.count({expr}, {place});\nfor ({self.boxed(item)} item : {expr}) {{\n    {written}\n}}"
        wire = self.wire(ref)
        if isinstance(ref, EnumRef) and not ref.enum.is_open:  # a closed enum writes only its members
            expr = f"member{ref.enum.name}({expr}, out, {place})"
        if wire.bits and not wire.signed:  # held in a wider Java type: its range checked as Python's struct does
            return f"out.unsigned({expr}, {wire.size}, {place});"
        if wire.struct and not wire.struct_converts:  # a UUID is two longs
            return f"out.{wire.name}({expr});"
        if wire.writer_limited and wire.limit_refusal:  # (refused beyond the largest frame, in the definition's words)
            return f"out.{wire.name}({expr}, {place}, MAX_FRAME, {java_string(wire.limit_refusal)});"
        if wire.refusal and wire.java_primitive == wire.java:  # (an object: null is refused in the definition's words)
            return f"out.{wire.name}({expr}, {place}, {java_string(wire.refusal)});"
        return f"out.{wire.name}({expr}, {place});"

    def closed_enums(self) -> list[Enum]:
        """The enums whose fields encode refuses a value that is not a member (an open enum writes any value)."""
        return [e for e in self.protocol.enums if not e.is_open]

    def enum_refusal(self, enum: Enum) -> str:
        """The refusal of a value that is not a member of ``enum``, as a Java string literal (the Python codec is given
        the same text: ``types.enum_refusal``)."""
        return java_string(enum_refusal(enum.name))

    def enum_range(self, enum: Enum) -> tuple[int, int]:
        """The range of the enum's wire type, within which its members are tested with a switch on an int."""
        low, high = enum.wire_type.range
        assert -(1 << 31) <= low and high < (1 << 31), f"{enum.name}: a switch tests ints"
        return low, high

    def size_counted(self, owner: Struct) -> str:
        """What a size prefix counts besides the bytes written after it (``sizeAt`` and ``out`` of the writer): the
        prefix's own size taken off, and the fields it counts even when they are not written (their condition
        field empty) added."""
        assert owner.size_prefix is not None
        counted = str(self.wire_size(owner.size_prefix.type))
        for f in owner.fields:
            if f.when_nonempty and self.fixed(f.type):
                test = self.nonempty_field(owner, f.when_nonempty)
                counted += f" + ({self.truthy(test.type, f'value.{self.name(test)}()')} ? 0 : {min_size(f.type)})"
        return counted

    # ------------------------------------------------------------------ Spark values

    def to_spark(self, ref: TypeRef, expr: str, place: str, depth: int = 0) -> str:
        """``expr`` as Spark's external type (UUIDs as text, structs as Rows, lists as arrays); text Spark cannot
        hold fails with ``BinarySpark.Unfit`` naming the Java string ``place`` (the message's field, as the Python
        path names it)."""
        match ref:
            case StructRef():
                return f"row({expr}, {place})"
            case ListRef(item=item):
                x = f"x{depth}"
                inner = self.to_spark(item, x, place, depth + 1)
                if inner == x:
                    return f"{expr}.toArray()"
                return f"BinarySpark.array({expr}, {x} -> {inner})"
        wire = self.wire(ref)
        if wire.java == "UUID":
            return f"{expr}.toString()"
        if wire.java_primitive == "String":
            return f"BinarySpark.text({expr}, {place})"
        return expr

    def from_spark(self, owner: Struct, f: Field) -> str:
        """The codec value of the field out of the Spark ``row`` of its owner, failing as the Python path does: the
        field's path names a value it cannot pack (a field of a fixed run too: the Python codec names the first field
        of the run that fails alone), ``owner`` (the message) a missing field or a struct value that is not one."""
        value = f"row.get(BinarySpark.field(row, {java_string(f.py)}, owner))"
        path = self.path(owner, f)
        return self._from_value(f.type, value, path, path, 0)

    def _from_value(self, ref: TypeRef, value: str, path: str, where: str, depth: int) -> str:
        place, at = java_string(path), java_string(where)
        match ref:
            case StructRef(struct=struct):
                return f"to{struct.name}(BinarySpark.struct({value}, owner), owner)"
            case ListRef(item=item):
                x = f"x{depth}"
                # an item packed with the others (a fixed-size number) fails as the list, as the Python codec's
                # one struct.pack of them; one written alone names the list item
                named_item = where if item.struct_code else "list item"
                converted = self._from_value(item, x, path + "[]", named_item, depth + 1)
                converts = isinstance(item, StructRef) or self.wire(item).java == "UUID"
                flag, named = ("true", "owner") if converts else ("false", at)
                return f"BinarySpark.list({value}, {flag}, {named}, {x} -> {converted})"
        if isinstance(ref, EnumRef) and not ref.enum.is_open:
            java = self.enum_java(ref.enum)
            member = f"BinarySpark.member({value}, {at}, {self.enum_refusal(ref.enum)}, Codec::is{ref.enum.name})"
            return f"({java}) {member}"
        wire = self.wire(ref)
        refusal = f", {java_string(wire.refusal)}" if wire.refusal else ""
        if wire.java == "UUID":
            return f"BinarySpark.uuid({value}, {place}, {at}{refusal})"
        if wire.java_primitive == "String":
            return f"BinarySpark.text({value}, {at})"
        if wire.java_primitive == "byte[]":
            return f"BinarySpark.bytes({value}, {at})"
        if wire.trailing:  # a padding count (rest is bytes, handled above)
            return f"BinarySpark.padding({value}, {at})"
        return f"BinarySpark.{wire.java_primitive}Of({value}, {at}{refusal})"

    def struct_values(self, s: Struct) -> list[str]:
        return [self.to_spark(f.type, f"v.{self.name(f)}()", "path") for f in s.fields]

    def message_values(self, m: Message) -> list[str]:
        return [self.to_spark(f.type, f"v.{self.name(f)}()", java_string(self.path(m, f))) for f in m.fields]

    @staticmethod
    def row_values(values: list[str]) -> list[str]:
        """``RowFactory.create``'s arguments: one value is cast to Object, so that an array is not taken as the
        varargs array itself."""
        return [f"(Object) {values[0]}"] if len(values) == 1 else values

    def from_values(self, owner: Struct) -> list[str]:
        return [self.from_spark(owner, f) for f in owner.fields]

    # ------------------------------------------------------------------ messages

    def top(self) -> list[Message]:
        return [m for m in self.protocol.messages if not m.inline_only]

    def inline(self) -> list[Message]:
        return [m for m in self.protocol.messages if m.inline_only]

    def column(self, m: Message) -> str:
        """The message's column in DECODED/INLINE (as the Spark module names it)."""
        return m.snake + ("_msg" if m.snake in ("message", "error", "offset") else "")

    def direction_mask(self, m: Message) -> int:
        names = [d.name for d in self.protocol.directions]
        return sum(1 << names.index(d) for d in m.directions)


def _words(text: str) -> list[str]:
    return [w for w in "".join(c if c.isalnum() else " " for c in text).split() if w]


def java_context(protocol: Protocol) -> dict[str, Any]:
    layout = binary_layout(protocol)
    return {
        "layout": layout,
        "j": JavaBinary(protocol, layout),
        "framing": protocol.framing_as(BinaryFraming),
        "field_doc": field_doc,
    }
