"""The binary family's Python-target context: the layout (``layout.py``) and the code each field reads and writes with.

Everything the template prints about a field or a list item (the call that reads it, the conversion of a value
``struct`` unpacked, the statements that write it, the value ``struct`` packs for it) is decided here, from the class
of its type (``model.py``: ``WireRef``, ``EnumRef``, ``StructRef``, ``ListRef``) and its wire type's record
(``types.py``), so the template only lays the steps of ``layout.py`` out.  The Java codec's twin is
``java_binary.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..families.framing import BinaryFraming
from ..filters import pystr
from ..layout import Layout, binary_layout, min_size
from ..model import EnumRef, Field, ListRef, Message, Protocol, Struct, StructRef, TypeRef, WireRef
from ..types import WIRE_TYPES, enum_refusal
from .exports import exports

MODULE_NAMES = ("MAX_FRAME", "encode_inline", "owned")
"""What a binary protocol's module exports besides the module contract (``exports.CONTRACT``) and its types."""


@dataclass(frozen=True)
class ItemReader:
    """The function reading one item of a list: ``call`` when a call reads it whole, else a fixed-size unpack."""

    name: str
    annotation: str
    call: str | None = None  # the read, returning (item, pos)
    size: int = 0  # fixed: the item's bytes
    struct: str = ""  # fixed: the Struct constant that unpacks it
    value: str = "value"  # fixed: the item, from the unpacked ``value``


@dataclass
class PythonBinary:
    """Names and statements of the Python codec of one binary protocol (the template calls these)."""

    protocol: Protocol
    layout: Layout
    framing: BinaryFraming
    order: str = ">"  # the schema takes big-endian framings only

    # ------------------------------------------------------------------ names

    def path(self, owner: Struct, f: Field) -> str:
        """The field as errors name it (``SetupAppend.request_id``)."""
        return f"{owner.name}.{f.py}"

    def struct_of(self, code: str) -> str:
        """The Struct constant packing the struct code ``code``."""
        return self.layout.constant(self.order + code)

    def wire_struct(self, wire_name: str) -> str:
        """The Struct constant of a fixed-size wire type, by name (size prefixes)."""
        code = WIRE_TYPES[wire_name].struct
        assert code, wire_name
        return self.struct_of(code)

    @staticmethod
    def wire_size(wire_name: str) -> int:
        size = WIRE_TYPES[wire_name].size
        assert size, wire_name
        return size

    @property
    def header_format(self) -> str:
        """The frame header's struct format: the type code, then the payload length."""
        codes = (WIRE_TYPES[name].struct or "" for name in (self.framing.code_type, self.framing.length_type))
        return self.order + "".join(codes)

    @property
    def exports(self) -> list[str]:
        """``__all__``: the module contract, then the protocol's constants, enums, structs and messages."""
        return exports(self.protocol, MODULE_NAMES, [s.name for s in [*self.protocol.structs, *self.protocol.messages]])

    @property
    def holding_views(self) -> list[Message]:
        """The messages that hold payloads, in a struct they hold too: read out of a memoryview, they hold views."""
        return [m for m in self.protocol.messages if m.name in self.layout.holds_views]

    def top_level(self, direction: str) -> list[Message]:
        """The messages sent in ``direction`` as frames of their own (not ``inline_only``)."""
        return [m for m in self.protocol.messages_for(direction) if not m.inline_only]

    @property
    def imports(self) -> list[str]:
        """Import lines the wire types' conversions need (``from_struct``)."""
        return sorted(
            {line for r in self.protocol.all_types() if isinstance(r, WireRef) for line in r.wire.binary_imports}
        )

    # ------------------------------------------------------------------ reading

    def converted(self, ref: TypeRef, expr: str) -> str | None:
        """The value of type ``ref`` from ``expr`` as ``struct`` unpacked it (at ``pos``), or None if it is that."""
        match ref:
            case EnumRef(enum=enum):
                return f"_to_{enum.name}({expr}, pos)"
            case WireRef(wire=wire) if wire.struct_converts:
                return wire.from_struct.format(expr)
        return None

    def read(self, owner: Struct, f: Field) -> str:
        """The call reading a field of variable size at ``pos``, giving ``(value, pos)``."""
        where = f'"{self.path(owner, f)}"'
        negative = ", negative_empty=True" if f.negative_empty else ""
        match f.type:
            case StructRef(struct=held):
                return f"_read_{held.snake}(buf, pos, end)"
            case ListRef(item=item):
                reader = self._item_reader_name(item)
                return f"_rt.read_list(buf, pos, end, {where}, {reader}, {min_size(item)}, DecodeError{negative})"
            case WireRef():
                return f"_rt.read_{self._helper(f.type)}(buf, pos, end, {where}, DecodeError{negative})"
        raise TypeError(f"{self.path(owner, f)}: a binary field of variable size is a wire type, struct or list")

    @property
    def item_readers(self) -> list[ItemReader]:
        """One reader per distinct list item type, by name."""
        items = {self._item_reader_name(r.item): r.item for r in self.protocol.all_types() if isinstance(r, ListRef)}
        return [self._item_reader(name, ref) for name, ref in sorted(items.items())]

    def _item_reader(self, name: str, ref: TypeRef) -> ItemReader:
        annotation = ref.py_annotation
        if isinstance(ref, StructRef):
            return ItemReader(name, annotation, call=f"_read_{ref.struct.snake}(buf, pos, end)")
        code = ref.struct_code
        if code:
            value = self.converted(ref, "value") or "value"
            return ItemReader(name, annotation, size=min_size(ref), struct=self.struct_of(code), value=value)
        call = f'_rt.read_{self._helper(ref)}(buf, pos, end, "list item", DecodeError)'
        return ItemReader(name, annotation, call=call)

    @staticmethod
    def _item_reader_name(ref: TypeRef) -> str:
        return "_read_item_" + re.sub(r"[^0-9a-zA-Z]+", "_", ref.text).strip("_").lower()

    # ------------------------------------------------------------------ writing

    def packed(self, ref: TypeRef, expr: str) -> str:
        """What ``struct`` packs for the value ``expr`` of a fixed-size type."""
        if isinstance(ref, EnumRef) and not ref.enum.is_open:  # (a member, or an int equal to one: another int
            # would be read back as another member, or refused; an open enum keeps any int it reads)
            refusal = pystr(enum_refusal(ref.enum.name))
            return f"{expr} if type({expr}) is {ref.enum.name} else _rt.strict_enum({expr}, {ref.enum.name}, {refusal})"
        if not isinstance(ref, WireRef):
            return expr
        return ref.wire.to_struct.format(expr, refusal=pystr(ref.wire.refusal) if ref.wire.refusal else "")

    def packed_fields(self, fields: list[Field], var: str) -> str:
        """The arguments of one pack of a fixed run of ``var``'s fields."""
        return ", ".join(self.packed(f.type, f"{var}.{f.py}") for f in fields)

    def packed_alone(self, f: Field, var: str) -> str:
        """A pack, thrown away, of one field of a fixed run whose one pack failed: the first field failing alone is
        the one the refusal names (the Java codec checks a run's fields one by one, in order, and names the same)."""
        assert f.type.struct_code, f.name
        return f"{self.struct_of(f.type.struct_code)}.pack({self.packed(f.type, f'{var}.{f.py}')})"

    def frame_value(self, f: Field) -> str:
        """What the frame's one pack takes for the field of ``value``: its constant, else its packed value."""
        return f.const_literal if f.has_const else self.packed(f.type, f"value.{f.py}")

    def written(self, f: Field, var: str) -> str:
        """The value written for the field of ``var``: its constant, if it has one, else what ``var`` holds."""
        return f.const_literal if f.has_const and not isinstance(f.type, StructRef) else f"{var}.{f.py}"

    def write(self, owner: Struct, f: Field, expr: str) -> str:
        """The statements appending the field's value ``expr`` to ``parts``."""
        ref = f.type
        where = f'"{self.path(owner, f)}"'
        code = ref.struct_code
        if code:
            return f"parts.append({self.struct_of(code)}.pack({self.packed(ref, expr)}))"
        match ref:
            case StructRef(struct=held):
                return f"_write_{held.snake}({expr}, parts)"
            case ListRef(item=item):
                # (exactly a list: a str, a tuple or a dict would be written and read back as a list)
                listed = f"{expr} if type({expr}) is list else _rt.strict_list({expr})"
                return f"parts.append(_rt.I32.pack(len({listed})))\nfor item in {expr}:\n    {self._write_item(item)}"
            case WireRef(wire=wire) if wire.extends:
                return f"_rt.extend_{self._helper(ref)}(parts, {expr}, {where}, EncodeError)"
        refusal = ref.wire.limit_refusal if isinstance(ref, WireRef) and ref.wire.writer_limited else None
        limit = f", MAX_FRAME, {pystr(refusal)}" if refusal else ""
        call = f"_rt.{self._writer(ref)}({expr}, {where}, EncodeError{limit})"
        if self._writer(ref) == "payload_part":  # bytes (the common payload) as they are, without a call
            return f"parts.append({expr} if type({expr}) is bytes else {call})"
        return f"parts.append({call})"

    def _write_item(self, ref: TypeRef) -> str:
        code = ref.struct_code
        if code:
            return f"parts.append({self.struct_of(code)}.pack({self.packed(ref, 'item')}))"
        if isinstance(ref, StructRef):
            return f"_write_{ref.struct.snake}(item, parts)"
        return f'parts.append(_rt.{self._writer(ref)}(item, "list item", EncodeError))'

    def counted_size(self, owner: Struct) -> str:
        """The size prefix's value, counting the fixed-size fields ``when_nonempty`` left out (``counts_absent``)."""
        absent = [
            f" + (0 if value.{owner.py_of(f.when_nonempty)} else {min_size(f.type)})"
            for f in owner.fields
            if f.when_nonempty and f.type.struct_code
        ]
        return "sum(map(len, parts))" + "".join(absent)

    # ------------------------------------------------------------------ wire types

    def _helper(self, ref: TypeRef) -> str:
        assert isinstance(ref, WireRef), ref.text
        return ref.wire.helper_for(self.framing.bytes_length)

    def checked_unwritten(self, f: Field, var: str) -> str:
        """A pack, thrown away, of a value the frame does not carry (a constant, or a field an empty owner leaves
        out): a null or a wrong value there is refused, naming the field, as when it is written and as the Java
        codec refuses it (one rule on both paths; nothing is made of a null but the definition's default).  A
        constant holding another value of its type is refused too (the frame would carry the constant, and decode
        give it back instead of the value), in the words the JSON families give a constant."""
        code = f.type.struct_code
        if not code or isinstance(f.type, StructRef):
            return ""
        value = f"{var}.{f.py}"
        pack = f"{self.struct_of(code)}.pack({self.packed(f.type, value)})  # checked, not written"
        if not f.has_const:
            return pack
        return f"{pack}\nif {value} != {f.const_literal}:\n    raise _rt.not_const({value})"

    def const_guard(self, owner: Struct, var: str) -> str:
        """The test that ``var``'s constant fields hold exactly their constants (``and`` before each), for a path that
        writes the constants without the writer's checks: any other value takes the writer, which refuses it."""
        return "".join(
            f" and type({var}.{f.py}) is {type(f.const).__name__} and {var}.{f.py} == {f.const_literal}"
            for f in owner.fields
            if f.has_const and not isinstance(f.type, StructRef)
        )

    @property
    def int_fields(self) -> dict[str, str]:
        """Every integer field (a list of integers too) by path, with the constant of its wire type's range
        (:attr:`int_ranges`), which an encode refusal says in the project's words instead of ``struct``'s
        (``_rt.pack_refusal``).  A closed enum's field is not here: what it refuses is not a member, in its own
        words."""
        fields: dict[str, str] = {}
        for owner in [*self.protocol.structs, *self.protocol.messages]:
            for f in owner.fields:
                ref = f.type.item if isinstance(f.type, ListRef) else f.type
                match ref:
                    case WireRef(wire=wire) if wire.bits and wire.struct:
                        fields[self.path(owner, f)] = self._range_name(wire.name)
                    case EnumRef(enum=enum) if enum.is_open and enum.wire_type.bits:
                        fields[self.path(owner, f)] = self._range_name(enum.wire_type.name)
        return fields

    @property
    def int_ranges(self) -> dict[str, tuple[int, int]]:
        """The range constants :attr:`int_fields` names: the smallest and largest value of each integer wire type."""
        wires = {self._range_name(name): WIRE_TYPES[name] for name in WIRE_TYPES}
        return {name: wires[name].range for name in sorted(set(self.int_fields.values()))}

    @staticmethod
    def _range_name(wire_name: str) -> str:
        return "_" + wire_name.upper() + "_RANGE"

    def _writer(self, ref: TypeRef) -> str:
        assert isinstance(ref, WireRef), ref.text
        return ref.wire.writer_for(self.framing.bytes_length)


def field_doc(f: Field) -> str:
    """A field's documentation (its Python docstring, its Java record component's Javadoc): its doc, then when it was
    added and what an older peer's frame decodes as."""
    text = f.doc
    if f.added_later and f.has_default:
        text += f" Added in version {f.since}; an older peer's frame decodes as {f.default_literal}."
    return text.strip()


def python_context(protocol: Protocol) -> dict[str, Any]:
    """What the binary template reads: the protocol's layout and how each field is read and written."""
    framing = protocol.framing_as(BinaryFraming)
    py = PythonBinary(protocol, binary_layout(protocol), framing)
    # Register every Struct the template will ask for before rendering, so the constant table is complete.
    prefixes = [s.size_prefix.type for s in protocol.structs if s.size_prefix]
    for name in (framing.code_type, framing.length_type, *prefixes):
        py.wire_struct(name)
    for ref in protocol.all_types():
        if ref.struct_code:
            py.struct_of(ref.struct_code)
    return {"layout": py.layout, "framing": framing, "py": py, "field_doc": field_doc}
