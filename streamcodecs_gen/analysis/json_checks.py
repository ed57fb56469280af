"""The JSON family's encode checks: straight-line Python per message and struct, decided here from the model.

``encode`` checks every value it is given against what the definition says of its field, then serializes once:
it never writes what ``decode`` would refuse, or read back as another value or another message. Each wire type
says how (the type registry's ``check``, ``check_class`` and ``check_unless``; an integer's range comes from its
``bits``): a test of the value's exact class (and range) that almost every value passes at once, and for the rest
the runtime's checker of its kind (``jsonchecks.check_<check>``), which accepts what still reads back equal (a
subclass, an enum member's value) and otherwise raises the refusal in decode's words. Enum members, constants,
lists, maps, structs, what may be null or absent, and the earlier shapes that would take a shape-recognised
message's JSON (:func:`shadows`) are checked the same way.

A free-form value (``any``) is any value msgspec writes, as it writes it (a tuple as an array, a datetime as its
RFC 3339 text): what decode reads back is that value's JSON form. What only the written bytes show (NaN or
infinity, which JSON cannot carry; nesting deeper than decode reads; a value msgspec cannot write at all) the
runtime finds after the one serialization, for the messages that hold free-form values (``jsonchecks.check_written``,
``jsonchecks.explain``), so the common message pays nothing for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..families.framing import JsonFraming
from ..filters import pystr
from ..model import EnumRef, Field, ListRef, MapRef, Message, Protocol, Struct, StructRef, TypeRef, UnknownRef, WireRef
from ..types import WireType
from . import json
from .json import field_mode


@dataclass(frozen=True)
class Shadow:
    """An earlier shape of a direction that takes a message's JSON, so that the message would be read as ``name``:
    when each field of ``present`` (Python names) is set and each of ``compared`` holds its value. Encode refuses
    it in both languages, naming ``key``, with ``reason``."""

    name: str
    present: tuple[str, ...]
    compared: tuple[tuple[str, Any], ...]
    key: str
    reason: str

    @property
    def python_test(self) -> str:
        """The test, in Python, on the message ``value``."""
        tests = [f"value.{py} is not None" for py in self.present]
        tests += [f"value.{py} == {pystr(v)}" for py, v in self.compared]
        return " and ".join(tests) or "True"


@dataclass(frozen=True)
class CheckFunction:
    """One struct's check, ``def <name>(value: <owner>, packed: bool) -> None``, or one message's writer,
    ``def <name>(value: <owner>, packed: bool) -> bytes`` (its checks, then the one serialization): the body."""

    name: str
    owner: str
    returns: str
    lines: list[str]


def check_name(owner: Struct) -> str:
    """The name of a struct's check, or of a message's writer."""
    return f"_write_{owner.snake}" if isinstance(owner, Message) else f"_check_{owner.snake}"


def shadows(protocol: Protocol, message: Message) -> list[Shadow]:
    """The earlier object shapes, in each of the message's directions, that can take its JSON (decode recognises
    shapes in declaration order): each has keys the message always writes or writes when set, and ``match``
    values the message's fields can hold."""
    if not message.object_shaped:
        return []
    by_name = {f.name: f for f in message.fields}
    found: list[Shadow] = []
    for direction in message.directions:
        for other in protocol.messages_for(direction):
            if other is message:
                break
            if not other.object_shaped or other.shape is None or any(s.name == other.name for s in found):
                continue
            keys = [*other.shape.keys, *other.shape.match]
            if any(k not in by_name or by_name[k].removed for k in keys):
                continue  # a key the message never writes
            if any(by_name[k].has_const and by_name[k].const != v for k, v in other.shape.match.items()):
                continue  # a value the message never holds
            present = tuple(
                by_name[k].py
                for k in other.shape.keys
                if by_name[k].may_be_none and field_mode(message, by_name[k]) != "required"  # written when set
            )
            compared = tuple((by_name[k].py, v) for k, v in other.shape.match.items())
            said = ", ".join(f"{k} {v!r}" for k, v in other.shape.match.items())
            reason = f"read as a {other.name} ({said})" if said else f"read as a {other.name}"
            first = next(iter(other.shape.match), other.shape.keys[0] if other.shape.keys else "")
            found.append(Shadow(other.name, present, compared, first, reason))
    return found


def free_form(ref: TypeRef, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a value of the type is, or holds, a free-form (``any``) value."""
    match ref:
        case WireRef(wire=wire):
            return wire.check == "any"
        case ListRef(item=item) | MapRef(item=item):
            return free_form(item, seen)
        case StructRef(struct=struct):
            return struct.name not in seen and any(free_form(f.type, seen | {struct.name}) for f in struct.fields)
        case _:
            return False


def written_checked(message: Message) -> bool:
    """Whether encode checks the written bytes of the message (what only they show: nesting deeper than decode
    reads), in both languages: it holds free-form values."""
    return any(free_form(f.type) for f in message.fields if not f.removed)


@dataclass
class _Body:
    """Python source lines being written, with their indentation and the names of the loop variables in use."""

    lines: list[str] = field(default_factory=list)
    indent: int = 1
    used: int = 0
    packed: bool = False  # whether the protocol writes MessagePack too (a framing variant)

    def add(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def fresh(self, stem: str) -> str:
        self.used += 1
        return f"{stem}{self.used}"


def _refused(wire: WireType, v: str) -> str:
    """The test that a value ``v`` of the wire type needs more checking: it is not of its exact class, or out of its
    range (the negation of the exact class and range, which almost every value has)."""
    assert wire.check_class, wire.name
    test = f"type({v}) is not {wire.check_class}"
    if wire.bits:
        low, high = wire.range
        test += f" or not {low} <= {v} <= {high}"
    elif wire.check_unless:
        test += f" or {wire.check_unless.format(v=v)}"
    return test


def _checker(wire: WireType, v: str, key: str, nullable: bool) -> str:
    """The call to the runtime's checker of the wire type: accepts what round-trips, raises the refusal else."""
    bounds = "".join(f", {b}" for b in wire.range) if wire.bits else ""
    return f"_jc.check_{wire.check}({v}, {key}, {nullable}, packed{bounds})"


def _value(body: _Body, ref: TypeRef, v: str, key: str, nullable: bool, absent_first: bool = False) -> None:
    """Check the value ``v`` of type ``ref``; ``key`` is the Python source of its path segment (``None`` for an
    item of a list or map, whose loop names it); ``absent_first``: test for None first."""
    nulls = f" and {v} is not None" if nullable else ""
    match ref:
        case WireRef(wire=wire) if wire.check == "any":
            # Whatever msgspec writes, as it writes it; in JSON, no NaN or infinity (msgspec writes null)
            body.add(f"if type({v}) not in _jc.FINITE_LEAVES:")
            body.add(f"    _jc.check_free({v}, {key}, packed)")
        case WireRef(wire=wire):
            test = _refused(wire, v)
            if nulls and absent_first:  # (an optional field: usually None, tested first)
                body.add(f"if {v} is not None and ({test}):" if " or " in test else f"if {v} is not None and {test}:")
            else:
                body.add(f"if ({test}){nulls}:" if nulls and " or " in test else f"if {test}{nulls}:")
            body.add(f"    {_checker(wire, v, key, nullable)}")
        case EnumRef(enum=enum):
            body.add(f"if type({v}) is not {enum.name}{nulls}:")
            body.add(f"    _jc.check_enum({v}, {key}, {nullable}, {enum.name})")
        case StructRef(struct=struct):
            body.add(f"if type({v}) is {struct.name}:")
            if key == "None":
                body.add(f"    {check_name(struct)}({v}, packed)")
            else:
                body.add("    try:")
                body.add(f"        {check_name(struct)}({v}, packed)")
                body.add("    except _jc.Refusal as refusal:")
                body.add(f"        raise refusal.at({key}) from None")
            body.add(f"elif {v} is not None:" if nullable else "else:")
            body.add(f'    raise _jc.expected("object", {v}, {key}, {nullable})')
        case ListRef(item=item) | MapRef(item=item):
            listed = isinstance(ref, ListRef)
            checker = "_jc.check_list" if listed else "_jc.check_map"
            items = _Body(indent=body.indent, used=body.used, packed=body.packed)
            _items(items, item, v, key, listed)
            body.used = items.used
            if not items.lines:  # (a list of free-form values: only the list is checked)
                body.add(f"if type({v}) is not {'list' if listed else 'dict'}:")
                body.add(f"    {checker}({v}, {key}, {nullable})")
                return
            body.add(f"if type({v}) is not {'list' if listed else 'dict'} and {checker}({v}, {key}, {nullable}):")
            body.add("    pass  # null, where it may be")
            body.lines += items.lines
        case UnknownRef():
            ref.unresolved()


def _passes(struct: Struct, v: str) -> str | None:
    """One test (Python, over ``v``) that a struct needs no more checking: its exact class, and each field's exact
    class and range (or None where it may be); None for a struct with fields that are not such single values."""
    tests = [f"type({v}) is {struct.name}"]
    for f in struct.fields:
        mode = field_mode(struct, f)
        value = f"{v}.{f.py}"
        if mode == "unset":
            tests.append(f"{value} is msgspec.UNSET")
        elif mode == "const":
            tests.append(f"type({value}) is {type(f.const).__name__} and {value} == {pystr(f.const)}")
        elif isinstance(f.type, EnumRef):
            tests.append(f"type({value}) is {f.type.enum.name}" + (f" or {value} is None" if f.may_be_none else ""))
        elif isinstance(f.type, WireRef) and f.type.wire.check and f.type.wire.check_class:
            wire = f.type.wire
            test = f"type({value}) is {wire.check_class}"
            if wire.bits:
                low, high = wire.range
                test = f"type(x := {value}) is int and {low} <= x <= {high}"
            elif wire.check_unless:
                test = f"type(x := {value}) is {wire.check_class} and not ({wire.check_unless.format(v='x')})"
            if f.may_be_none:
                test = f"({test} or {value} is None)" if " and " in test else f"{test} or {value} is None"
            tests.append(test)
        else:
            return None
    return " and ".join(f"({t})" if " or " in t and not t.startswith("(") else t for t in tests)


def _items(body: _Body, item: TypeRef, v: str, key: str, listed: bool) -> None:
    """The items of a list (``listed``) or the keys and values of a map ``v``, once it is known to be one."""
    if isinstance(item, WireRef) and item.wire.check == "any":
        # In JSON no NaN or infinity; in MessagePack nothing check_packed refuses (values of a class in LEAVES hold
        # nothing: one pass in C)
        items = v if listed else f"{v}.values()"
        if listed:
            body.add(f"elif not packed and not _jc.finite({v}):")
        else:  # (the values are written as they are; the keys are text)
            body.add("else:")
            body.add("    try:")
            body.add(f"        _JOIN({v})  # the keys are text")
            body.add("    except TypeError:")
            body.add(f"        _jc.check_keys({v}, {key})")
            body.add(f"    if not packed and not _jc.finite({v}):")
            body.indent += 1
        body.add(f"    raise _jc.non_finite({v}, {key})")
        if body.packed:
            body.add(f"elif packed and not _jk.LEAVES.issuperset(map(type, {items})):")
            body.add(f"    _jc.check_packed({v}, {key})")
        if not listed:
            body.indent -= 1
        return
    if isinstance(item, WireRef) and item.wire.check == "str" and item.wire.check_class == "str":
        # Text items (and a map's keys): one C pass, "".join, which refuses what is not a str (or a subclass, which
        # the checker accepts too) with TypeError; then the checker finds and names the item
        body.add("else:")
        body.add("    try:")
        body.add(f"        _JOIN({v})" if listed else f"        _JOIN({v}), _JOIN({v}.values())")
        body.add("    except TypeError:")
        checker = "check_items" if listed else "check_entries"
        body.add(f"        _jc.{checker}({v}, {key}, _jc.check_str, packed)")
        return
    if isinstance(item, WireRef) and item.wire.check:
        # A loop over the items with each one's test (a call only for one that fails it, which checks them all)
        name = body.fresh("item")
        bounds = "".join(f", {b}" for b in item.wire.range) if item.wire.bits else ""
        body.add("else:")
        if listed:
            body.add(f"    for {name} in {v}:")
            body.add(f"        if {_refused(item.wire, name)}:")
            body.add(f"            _jc.check_items({v}, {key}, _jc.check_{item.wire.check}, packed{bounds})")
        else:
            entry = body.fresh("key")
            body.add(f"    for {entry}, {name} in {v}.items():")
            body.add(f"        if type({entry}) is not str or {_refused(item.wire, name)}:")
            body.add(f"            _jc.check_entries({v}, {key}, _jc.check_{item.wire.check}, packed{bounds})")
        body.add("            break")
        return
    name = body.fresh("item")
    body.add("else:")
    body.indent += 1
    body.add("try:")
    body.indent += 1
    if listed:
        body.add(f"for {name} in {v}:")
    else:
        entry = body.fresh("key")
        body.add(f"for {entry}, {name} in {v}.items():")
        body.add(f"    if type({entry}) is not str:")
        body.add(f'        raise _jc.expected("str", {entry}, None, False)')
    body.indent += 1
    chain = _passes(item.struct, name) if listed and isinstance(item, StructRef) else None
    if chain is not None:
        # One test of the whole item in the loop (a list of records costs no call per record); the item's own check
        # for an item that fails it, which refuses it or accepts it all the same (None where allowed, a subclass)
        body.add(f"if not ({chain}):")
        body.indent += 1
        _value(body, item, name, "None", False)
        body.indent -= 1
    else:
        _value(body, item, name, "None", False)
    body.indent -= 2
    body.add("except _jc.Refusal as refusal:")
    where = f"refusal.item({v}, {name})" if listed else "refusal.in_map()"
    body.add(f"    raise {where}{'' if key == 'None' else f'.at({key})'} from None")
    body.indent -= 1


def _field(body: _Body, owner: Struct, f: Field, value: str = "value", v: str = "v") -> None:
    """Check field ``f`` of ``value`` (an ``owner``), held in the variable ``v``."""
    key = pystr(f.name)
    mode = field_mode(owner, f)
    if mode == "unset":
        body.add(f"if {value}.{f.py} is not msgspec.UNSET:")
        text = f"removed in version {f.removed}: decoded from older peers, never encoded"
        body.add(f"    raise _jc.Refusal({pystr(text)}, {key})")
        return
    body.add(f"{v} = {value}.{f.py}")
    if mode == "const":
        const = pystr(f.const)
        body.add(f"if type({v}) is not {type(f.const).__name__} or {v} != {const}:")
        body.add(f"    _jc.check_const({v}, {key}, {const})")
        return
    _value(body, f.type, v, key, f.may_be_none, f.optional)


def check_function(protocol: Protocol, owner: Struct) -> CheckFunction:
    """The check of a struct, or the writer of a message: each field in definition order, then (for a message
    recognised by its shape) the earlier shapes that would take it, then (for a message) the one serialization and,
    for one holding free-form values, what only the written bytes show."""
    framing = protocol.framing_as(JsonFraming)
    body = _Body(packed=any(v.encoding == "msgpack" for v in framing.variants))
    body.add("v: Any  # each field in turn")
    for f in owner.fields:
        _field(body, owner, f)
    if not isinstance(owner, Message):
        if len(body.lines) == 1:
            body.lines = ["    del value, packed  # nothing to check"]
        return CheckFunction(check_name(owner), owner.name, "None", body.lines)
    for shadow in shadows(protocol, owner):
        body.add(f"if {shadow.python_test}:")
        body.add(f"    raise _jc.Refusal({pystr(shadow.reason)}, {pystr(shadow.key)})")
    if len(body.lines) == 1:
        body.lines = []
    written = f"value.{owner.fields[0].py}" if owner.array_shaped else "value"  # (a bare array: its one field)
    free = written_checked(owner)
    if body.packed:
        body.add("if packed:")
        body.add(f"    data = _PACKED_ENCODE({written})")
        if free:
            body.add("    if len(data) >= _MAX_NESTING:")
            body.add("        _jc.check_written(value, data, True)  # nesting: what only the written bytes show")
        body.add("    return data")
    body.add(f"data = _JSON_ENCODE({written})")
    if free:
        body.add("if len(data) >= _MAX_NESTING:")
        body.add("    _jc.check_written(value, data, False)  # nesting: what only the written bytes show")
    if framing.escape_hex == "upper":
        body.add('if _BACKSLASH in data and data.find(b"\\\\u00") >= 0:  # the peer writes upper-case hex escapes')
        body.add("    data = _jc.upper_hex_escapes(data)")
    body.add("return data + _TERMINATOR")
    return CheckFunction(check_name(owner), owner.name, "bytes", body.lines)


def checks(protocol: Protocol) -> list[CheckFunction]:
    """Every struct's check and every message's writer, structs first (messages call them)."""
    return [check_function(protocol, owner) for owner in [*protocol.structs, *protocol.messages]]


def python_context(protocol: Protocol) -> dict[str, Any]:
    """What the JSON family's Python template reads: :func:`json.python_context`, and encode's checks."""
    return {
        **json.python_context(protocol),
        "checks": checks(protocol),
        "check_name": check_name,
    }
