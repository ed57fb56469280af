# Copied from streamcodecs_gen/py_package/_runtime/jsonchecks.py by ./generator.py; edit that file, not this copy.
"""Encode support for the JSON wire family (and its MessagePack variant): the checkers a message's generated writer
calls, and the refusals they raise.

A protocol's generated writer tests each value's exact class (and range) itself; a value that fails that test comes
here, to the checker of its kind, which accepts what still reads back equal and otherwise raises the
:class:`Refusal` decode would give, in decode's words. Decoding lives in :mod:`.jsonpaths`.
"""

from __future__ import annotations

import datetime
import enum as enum_
import math
import re
import uuid
from collections.abc import Callable
from typing import Any

import msgspec

from . import messages as _m
from .errors import EncodeError
from .jsonfailures import PACKED_TOO_DEEP
from .jsonpacked import LEAVES, NOT_OPENERS, odd_value
from .jsontext import HELD, held, roomy
from .messages import MAX_DEPTH, TOO_DEEP

__all__ = [
    "ENCODE_FAILURES",
    "FINITE_LEAVES",
    "Held",
    "MAX_NESTING",
    "Refusal",
    "check_bool",
    "check_bytes",
    "check_const",
    "check_entries",
    "check_enum",
    "check_float",
    "check_free",
    "check_int",
    "check_items",
    "check_keys",
    "check_list",
    "check_map",
    "check_packed",
    "check_str",
    "check_timestamp",
    "check_uuid",
    "check_written",
    "deeper_write",
    "expected",
    "explain",
    "finite",
    "held_copy",
    "kind",
    "non_finite",
    "refused",
    "upper_hex_escapes",
]

_LOWER_HEX_ESCAPE = re.compile(rb"(?<!\\)((?:\\\\)*)\\u00([0-9a-f]{2})")


def upper_hex_escapes(data: bytes) -> bytes:
    """Write ``\\u00xx`` escapes with upper-case hex digits, as Jackson does (``\\\\u00xx`` text is left alone)."""
    return _LOWER_HEX_ESCAPE.sub(lambda m: m.group(1) + b"\\u00" + m.group(2).upper(), data)


# --- the checks a message passes before it is serialized once -----------------------------------------------------
# A protocol's generated module checks each message with straight-line code (its ``_check_<message>`` functions):
# a test of each value's exact class (and range) that almost every value passes at once, and otherwise the checker of
# its kind below, which accepts what still reads back equal (a subclass, an enum member's value, a list subclass) and
# raises the Refusal decode would give in its place. A free-form value (``any``) is whatever msgspec writes, as it
# writes it; what only the written bytes show (NaN in JSON, nesting) ``check_written`` finds after the one
# serialization, and what only the serializer finds (a lone surrogate, an integer MessagePack cannot carry, a value
# msgspec cannot write) ``explain`` names.

MAX_NESTING = MAX_DEPTH
"""Deepest nesting of arrays and objects (maps) in a message that encode writes (a message's own object counts as
a level): what decode reads (:data:`MAX_DEPTH`); a message nested deeper than the stack in use allows is checked
and written again with room on the stack (:func:`deeper_write`)."""
ENCODE_FAILURES = (TypeError, ValueError, OverflowError, RecursionError)
"""What msgspec's encoders raise for a value they cannot write (UnicodeEncodeError, for a lone surrogate, is a
ValueError)."""
_NONE = type(None)
_KINDS = {_NONE: "null", bool: "bool", int: "int", float: "float", str: "str", list: "array", dict: "object"}
_FLOAT_WORDS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


class Refusal(Exception):
    """A value encode cannot write, raised by a message's check: the reason (as decode would give it, had it been
    written) and where it is below the message (``path``: ``.records[0].data``, built on the way out)."""

    def __init__(self, reason: str, key: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = "" if key is None else "." + key

    def at(self, key: str | None) -> Refusal:
        """This refusal, inside the value of ``key`` (None: the caller names the place)."""
        if key is not None:
            self.path = "." + key + self.path
        return self

    def index(self, index: int) -> Refusal:
        self.path = f"[{index}]{self.path}"
        return self

    def item(self, values: list[Any], item: Any) -> Refusal:
        """This refusal, inside ``item`` of ``values`` (its place found when asked: only a refusal needs it)."""
        return self.index(next(i for i, x in enumerate(values) if x is item))

    def in_map(self) -> Refusal:
        """This refusal, inside a value of a map (``[...]``, as decode names it)."""
        self.path = "[...]" + self.path
        return self

    @property
    def field(self) -> str | None:
        """The path below the message (``records[0].data``), or None for the message itself."""
        return self.path[1:] if self.path.startswith(".") else self.path or None


class Unwritable:
    """A free-form value that stands for one no Python value is, with why encode cannot write it (``reason``, in the
    catalog's words): what the Spark functions' Python path reads a VARIANT's timestamp outside the years a datetime
    holds (0001 to 9999, UTC) as, which the codec's decode could not read back. msgspec writes no such object, and
    :func:`explain` refuses it where it stands in the reason it holds, as the Java codec refuses the VARIANT."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Unwritable({self.reason!r})"


def refused(error: type[EncodeError], message: Any, refusal: Refusal) -> EncodeError:
    """The protocol's EncodeError for a refusal, naming ``Message.path``."""
    name = type(message).__name__
    field = refusal.field
    return error(refusal.reason, field=f"{name}.{field}" if field else name)


def kind(value: Any) -> str:
    """What a value is, in decode's words (``str``, ``null``, ``array``), else its Python class (``tuple``)."""
    if value is msgspec.UNSET:
        return "UNSET"
    return _KINDS.get(type(value)) or type(value).__name__


def expected(what: str, value: Any, key: str | None, nullable: bool) -> Refusal:
    """``Expected `what`, got `kind```, as decode words a value of another type."""
    return Refusal(_m.expected_type(type=what + (" | null" if nullable else ""), kind=kind(value)), key)


def _float_text(value: float) -> str:
    text = repr(value)
    return _FLOAT_WORDS.get(text, text)


def check_bool(value: Any, key: str | None, nullable: bool, packed: bool) -> None:
    raise expected("bool", value, key, nullable)


def check_str(value: Any, key: str | None, nullable: bool, packed: bool) -> None:
    if not isinstance(value, str):  # (a subclass, an enum member: written as its text)
        raise expected("str", value, key, nullable)


def check_int(value: Any, key: str | None, nullable: bool, packed: bool, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise expected("int", value, key, nullable)
    if value > high:
        raise Refusal(_m.int_at_most(high=high), key)
    if value < low:
        raise Refusal(_m.int_at_least(low=low), key)


def check_float(value: Any, key: str | None, nullable: bool, packed: bool) -> None:
    if isinstance(value, float):
        if not packed and not math.isfinite(value):  # JSON has no NaN or infinity (msgspec would write null)
            raise Refusal(_m.expected_type(type="float", kind=_float_text(value)), key)
        return
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            if float(value) == value:  # read back as that float, which equals it
                return
        except OverflowError:
            pass
        raise Refusal(f"Expected `float`, got `int` {value}, which no float equals", key)
    raise expected("float", value, key, nullable)


def check_uuid(value: Any, key: str | None, nullable: bool, packed: bool) -> None:
    if not isinstance(value, uuid.UUID):
        raise expected("uuid", value, key, nullable)


def _bytes_like(value: Any) -> bool:
    """bytes, bytearray, or a memoryview of bytes: each written as its bytes, and equal to the bytes read back."""
    if isinstance(value, bytes | bytearray):
        return True
    return isinstance(value, memoryview) and value.format == "B" and value.ndim == 1 and value.c_contiguous


def check_bytes(value: Any, key: str | None, nullable: bool, packed: bool) -> None:
    if not _bytes_like(value):
        raise expected("bytes", value, key, nullable)


def _timestamp_problem(value: datetime.datetime, packed: bool) -> str | None:
    offset = value.utcoffset()
    if offset is None:
        return _m.NO_TIMEZONE
    if not packed and (offset.microseconds or offset.seconds % 60):  # (MessagePack writes the instant)
        return _m.offset_with_seconds(offset=offset)
    return None


class Held(Exception):  # noqa: N818 - a signal, not an error
    """A message holds a time whose offset is beyond 18:00, written as the Java codec writes it: encode writes
    :func:`held_copy` of the message instead (msgspec writes a datetime as it is)."""


def check_timestamp(value: Any, key: str | None, nullable: bool, packed: bool) -> None:
    if not isinstance(value, datetime.datetime):
        raise expected("datetime", value, key, nullable)
    problem = _timestamp_problem(value, packed)
    if problem:
        raise Refusal(problem, key)
    offset = value.utcoffset()
    if not packed and not -HELD <= offset <= HELD and held(value).utcoffset() != offset:  # type: ignore[operator]
        raise Held  # (MessagePack writes the instant)


def held_copy(value: Any) -> Any:
    """``value`` (a message, or what one holds) with each datetime in it as :func:`~.jsontext.held` holds it: a
    time whose offset is beyond 18:00 at UTC, or at the offset nearest UTC that keeps it in the years 0001 to 9999,
    as the Java codec holds and writes it. Only a message that holds one is copied (:class:`Held`)."""
    if isinstance(value, datetime.datetime):
        return held(value)
    if isinstance(value, msgspec.Struct):
        fields = {name: held_copy(getattr(value, name)) for name in value.__struct_fields__}
        return msgspec.structs.replace(value, **fields)
    if type(value) is list:
        return [held_copy(item) for item in value]
    if type(value) is dict:
        return {key: held_copy(item) for key, item in value.items()}
    return value


def check_enum(value: Any, key: str | None, nullable: bool, enum: type[enum_.Enum]) -> None:
    """A member of another class, or a plain value, equal to one of the enum's values is written as that value and
    read back as the member, which equals it; any other value is not (an unknown one would read as another)."""
    text = issubclass(enum, str)
    if isinstance(value, str) if text else isinstance(value, int) and not isinstance(value, bool):
        if value not in enum._value2member_map_:
            raise Refusal(_m.invalid_enum(value=repr(value) if text else int(value)), key)
        return
    raise expected("str" if text else "int", value, key, nullable)


def check_const(value: Any, key: str | None, const: str | int) -> None:
    """A constant field: its value, of its type (a bool is not an int here: JSON writes it as true)."""
    same_kind = isinstance(value, type(const)) and not (isinstance(value, bool) and not isinstance(const, bool))
    if same_kind and value == const:
        return
    if same_kind or value is msgspec.UNSET:
        raise Refusal(_m.invalid_enum(value=repr(value)), key)
    raise expected(_KINDS.get(type(const), type(const).__name__), value, key, False)


def check_list(value: Any, key: str | None, nullable: bool) -> bool:
    """A value that is not exactly a list: True for an absent one allowed (nothing more to check), False for a list
    subclass (its items are checked next), else the refusal (a tuple would read back as a list: not equal)."""
    if value is None and nullable:
        return True
    if isinstance(value, list):
        return False
    raise expected("array", value, key, nullable)


def check_map(value: Any, key: str | None, nullable: bool) -> bool:
    """As :func:`check_list`, for a map (a dict)."""
    if value is None and nullable:
        return True
    if isinstance(value, dict):
        return False
    raise expected("object", value, key, nullable)


def check_items(values: list[Any], key: str | None, check: Callable[..., None], packed: bool, *bounds: int) -> None:
    """Every item of a list, by its kind's checker; a refusal names the item's index."""
    for index, item in enumerate(values):
        try:
            check(item, None, False, packed, *bounds)
        except Refusal as refusal:
            raise refusal.index(index).at(key) from None


def check_entries(
    values: dict[Any, Any], key: str | None, check: Callable[..., None], packed: bool, *bounds: int
) -> None:
    """Every key (a str) and value of a map, the values by their kind's checker."""
    for name, item in values.items():
        try:
            if not isinstance(name, str):
                raise expected("str", name, None, False)
            check(item, None, False, packed, *bounds)
        except Refusal as refusal:
            raise refusal.in_map().at(key) from None


def check_keys(values: dict[Any, Any], key: str | None) -> None:
    """The keys of a map of free-form values: text."""
    for name in values:
        if not isinstance(name, str):
            raise expected("str", name, None, False).in_map().at(key)


def check_packed(value: Any, key: str | None) -> None:
    """A free-form value to be written as MessagePack holding a map key that is not a string or an extension other
    than the timestamp, which decode refuses (JSON has no form for them): refused, naming where."""
    found = odd_value(value)
    if found is not None:
        refusal = Refusal(found[0], key)
        refusal.path += found[1]
        raise refusal


def check_written(message: Any, data: bytes, packed: bool) -> None:
    """What only the written bytes of a message holding free-form values show: nesting deeper than decode reads.
    A cheap test of the bytes first (fewer brackets, or bytes that may open a map or an array, than the limit), the
    message walked only when it does not settle it."""
    if packed:
        # Each level opens a map or an array, whose first byte NOT_OPENERS leaves out (other values' bytes may too)
        deep = len(data) >= MAX_NESTING and len(data.translate(None, NOT_OPENERS)) >= MAX_NESTING
    else:
        deep = len(data) >= MAX_NESTING and data.count(b"[") + data.count(b"{") >= MAX_NESTING
    if deep:
        if _walk(message, _no_problem, 0) is not None:
            raise Refusal(PACKED_TOO_DEEP if packed else TOO_DEEP)


FINITE_LEAVES = frozenset({str, int, bool, _NONE})
"""Classes of free-form values that hold no float."""


def finite(value: Any) -> bool:
    """Whether a free-form value holds no NaN or infinity anywhere (which JSON cannot carry: msgspec would write
    null); :func:`non_finite` says where when it does.

    First in C: msgspec writes every float to MessagePack as a float64 (0xcb and eight big-endian bytes), and a NaN
    or an infinity has all its exponent bits set, so its bytes start 0xcb, 0x7f or 0xff, then 0xf0 or above. Bytes
    without that sequence settle it (3 to 9 times faster than the walk on tuples of mixed values); bytes with it
    (a string may hold it too), or a value MessagePack cannot carry, are left to the walk, which decides as before."""
    try:
        if _NON_FINITE_FLOAT64.search(_PACKED_ENCODE(value)) is None:
            return True
    except Exception:  # noqa: BLE001 (whatever msgspec refuses here, the walk and the serializer decide as before)
        pass
    return not _has_non_finite(value)


_NON_FINITE_FLOAT64 = re.compile(rb"\xcb[\x7f\xff][\xf0-\xff]")
"""A MessagePack float64 that is a NaN or an infinity (or bytes that look like one)."""


def check_free(value: Any, key: str | None, packed: bool) -> None:
    """A free-form value that is not a plain str, int, bool or None: not absent (msgspec.UNSET is not written); in
    JSON, no NaN or infinity anywhere in it; in MessagePack, nothing :func:`check_packed` refuses."""
    if value is msgspec.UNSET:
        raise Refusal("Expected a value, got `UNSET`", key)
    if packed:
        if type(value) not in LEAVES:
            check_packed(value, key)
    elif not finite(value):
        raise non_finite(value, key)


def non_finite(value: Any, key: str | None) -> Refusal:
    """The refusal of a free-form value holding NaN or infinity, naming where."""
    found = _walk(value, _non_finite, 1)
    assert found is not None
    return found.at(key)


def _has_non_finite(value: Any) -> bool:
    kind = type(value)
    if kind is float:
        return value - value != 0.0  # type: ignore[no-any-return]
    if kind in LEAVES:
        return False
    if kind is list or kind is tuple:
        for item in value:
            if type(item) is float:
                if item - item != 0.0:
                    return True
            elif type(item) not in LEAVES and _has_non_finite(item):
                return True
        return False
    if type(kind) is _STRUCT_META:
        return any(_has_non_finite(getattr(value, name)) for name in kind.__struct_fields__)
    if isinstance(value, dict):
        return any(_has_non_finite(item) for item in value.values())
    if isinstance(value, float):
        return not math.isfinite(value)
    return isinstance(value, list | tuple | set | frozenset) and any(_has_non_finite(item) for item in value)


def _non_finite(value: Any) -> Refusal | None:
    if isinstance(value, float) and not math.isfinite(value):
        return Refusal(_m.expected_type(type="float", kind=_float_text(value)))
    return None


def _no_problem(value: Any) -> Refusal | None:
    return None


_STRUCT_META = type(msgspec.Struct)  # (isinstance(value, msgspec.Struct) costs a call into its metaclass)


def _walk(value: Any, problem: Callable[[Any], Refusal | None], depth: int) -> Refusal | None:
    """The first problem of a value or anything it holds, with its path (a struct's fields by their wire names),
    and nesting deeper than :data:`MAX_NESTING` (a message's own object being level 1)."""
    kind = type(value)
    if kind in LEAVES:
        return problem(value)
    struct = type(kind) is _STRUCT_META
    if not struct and not isinstance(value, list | tuple | set | frozenset | dict):
        return problem(value)
    if depth >= MAX_NESTING:
        return Refusal(TOO_DEEP)
    if struct:
        for name, wire in zip(kind.__struct_fields__, kind.__struct_encode_fields__, strict=True):
            found = _walk(getattr(value, name), problem, depth + 1)
            if found is not None:
                return found.at(wire)
    elif isinstance(value, dict):
        for name, item in value.items():
            found = _walk(name, problem, depth + 1) or _walk(item, problem, depth + 1)
            if found is not None:
                return found.in_map()
    else:
        for index, item in enumerate(value):
            found = _walk(item, problem, depth + 1)
            if found is not None:
                return found.index(index)
    return None


_JSON_ENCODE = msgspec.json.Encoder().encode
_PACKED_ENCODE = msgspec.msgpack.Encoder().encode


def deeper_write(writer: Callable[[Any, bool], bytes], message: Any, packed: bool, error: type[EncodeError]) -> bytes:
    """After the stack ran out checking or writing a message: both again with room for :data:`MAX_DEPTH` levels;
    refused as nested too deeply (``error``, naming the message) when that is not enough."""
    try:
        return roomy(lambda: writer(message, packed))
    except Refusal as refusal:
        raise refused(error, message, refusal) from None
    except RecursionError:
        raise error(PACKED_TOO_DEEP if packed else TOO_DEEP, field=type(message).__name__) from None
    except ENCODE_FAILURES as exc:
        failure = exc
    raise refused(error, message, roomy(lambda: explain(message, failure, packed))) from None


def explain(message: Any, failure: Exception, packed: bool) -> Refusal:
    """Where in a checked message the serializer failed (``failure``), for what only it finds: a str holding a
    lone surrogate, an integer too long to write as text or out of MessagePack's range, a value msgspec cannot
    write at all, nesting it cannot follow; the failure itself, for the whole message, when no one value is."""
    encode = _PACKED_ENCODE if packed else _JSON_ENCODE

    def unwritable(value: Any) -> Refusal | None:
        if type(value) is Unwritable:
            return Refusal(value.reason)
        try:
            encode(value)
        except UnicodeEncodeError as exc:
            return Refusal(f"str is not valid UTF-8 ({exc.reason})")
        except (TypeError, ValueError, OverflowError) as exc:
            return Refusal(str(exc))
        return None

    found = _walk(message, unwritable, 0)
    if found is not None and packed and found.reason == TOO_DEEP:
        found.reason = PACKED_TOO_DEEP  # (the walk's words are JSON's)
    return found if found is not None else Refusal(str(failure))
