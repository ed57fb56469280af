"""Primitives of the big-endian binary wire family.

Readers take ``(buf, pos, end, path)`` and return ``(value, new_pos)``; they never read past ``end`` and raise
:class:`~.errors.DecodeError` naming the offset and ``path`` (``Message.field``) instead of ``struct.error``.
Writers take ``(value, path)`` and return the encoded ``bytes``; they raise :class:`~.errors.EncodeError` for values
the wire cannot carry.

A payload (length-prefixed bytes, the rest of a frame) is read by :func:`payload`: a copy (``bytes``) out of a
``bytes`` or ``bytearray`` buffer, and a read-only ``memoryview`` slice, no copy, out of a ``memoryview`` buffer; the
codec's ``decode(..., copy=False)`` reads from a memoryview of the frame.  An encoder hands a payload to the frame's
one ``b"".join`` as it is.  The rules a caller follows are in :func:`owned`'s docstring.
"""

from __future__ import annotations

import dataclasses
import enum as enum_
import re
import struct
import uuid
from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar

from . import messages as _m
from .errors import DecodeError, EncodeError

__all__ = [
    "I16",
    "I32",
    "U16",
    "Buffer",
    "Parts",
    "Payload",
    "as_view",
    "message_repr",
    "owned",
    "mutf8_decode",
    "mutf8_encode",
    "not_const",
    "pack_refusal",
    "extend_bytes_int32",
    "read_bytes_int32",
    "read_list",
    "read_mutf8",
    "read_padding",
    "read_rest",
    "read_string",
    "short",
    "payload",
    "payload_part",
    "write_bytes_int32",
    "write_mutf8",
    "write_padding",
    "write_string",
    "strict_bool",
    "strict_enum",
    "strict_list",
    "uuid_int",
]

T = TypeVar("T")
Buffer = bytes | bytearray | memoryview
Payload: TypeAlias = bytes | memoryview
"""A payload field's value: ``bytes`` (or any bytes-like value) when built, a read-only ``memoryview`` when decoded."""
Parts = list[bytes | bytearray | memoryview]
"""The pieces of a frame being encoded, joined once at the end; a memoryview among them is one-dimensional with
one-byte items (format ``B``), so that ``len`` counts its bytes."""
U16 = struct.Struct(">H")
I16 = struct.Struct(">h")
I32 = struct.Struct(">i")
MAX_U16 = 0xFFFF


def short(need: int, pos: int, end: int, path: str, error: type[DecodeError] = DecodeError) -> DecodeError:
    return error(_m.needs_bytes(need=need, left=max(end - pos, 0)), offset=pos, field=path)


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _surrogates(match: re.Match[str]) -> str:
    code = ord(match.group()) - 0x10000
    return chr(0xD800 | (code >> 10)) + chr(0xDC00 | (code & 0x3FF))


def mutf8_encode(text: str) -> bytes:
    """Java's modified UTF-8: U+0000 as C0 80, supplementary characters as two 3-byte surrogates (CESU-8)."""
    if text.isascii() and "\x00" not in text:
        return text.encode("ascii")
    return _ASTRAL.sub(_surrogates, text).encode("utf-8", "surrogatepass").replace(b"\x00", b"\xc0\x80")


def _java_utf(raw: bytes) -> str:
    """DataInputStream.readUTF's own loop: overlong 2- and 3-byte forms are accepted, 4-byte forms are not."""
    units = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c < 0x80:
            units.append(c)
            i += 1
        elif 0xC0 <= c < 0xE0:
            if i + 2 > n:
                raise ValueError(_m.MUTF8_PARTIAL)
            c2 = raw[i + 1]
            if c2 & 0xC0 != 0x80:
                raise ValueError(_m.mutf8_around(at=i + 1))
            units.append((c & 0x1F) << 6 | c2 & 0x3F)
            i += 2
        elif 0xE0 <= c < 0xF0:
            if i + 3 > n:
                raise ValueError(_m.MUTF8_PARTIAL)
            c2, c3 = raw[i + 1], raw[i + 2]
            if c2 & 0xC0 != 0x80 or c3 & 0xC0 != 0x80:
                raise ValueError(_m.mutf8_around(at=i + 2))
            units.append((c & 0x0F) << 12 | (c2 & 0x3F) << 6 | c3 & 0x3F)
            i += 3
        else:  # a continuation byte where a character starts, or a 4-byte lead (10xxxxxx, 1111xxxx)
            raise ValueError(_m.mutf8_around(at=i))
    return "".join(map(chr, units))


def mutf8_decode(data: Buffer) -> str:
    """Decode modified UTF-8 exactly as Java's DataInput.readUTF does.

    C0 80 and a raw 00 are NUL, overlong forms are accepted, 4-byte UTF-8 and stray continuation bytes are rejected
    (``ValueError``), and surrogate pairs join into one character (an unpaired surrogate stays, as in a Java String).
    """
    raw = bytes(data)
    if raw.isascii():
        return raw.decode("ascii")
    try:
        if max(raw) >= 0xF0:
            raise ValueError("4-byte form")  # Java rejects what Python's UTF-8 decoder would accept
        text = raw.replace(b"\xc0\x80", b"\x00").decode("utf-8", "surrogatepass")
    except ValueError:
        text = _java_utf(raw)  # overlong forms, or an error worded as Java words it
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        text = text.encode("utf-16-be", "surrogatepass").decode("utf-16-be", "surrogatepass")
    return text


def read_mutf8(buf: Buffer, pos: int, end: int, path: str, error: type[DecodeError] = DecodeError) -> tuple[str, int]:
    if end - pos < 2:
        raise short(2, pos, end, path, error)
    stop = pos + 2 + (buf[pos] << 8 | buf[pos + 1])
    if stop > end:
        raise error(_m.string_past_frame(size=stop - pos - 2), offset=pos, field=path)
    try:
        return str(buf[pos + 2 : stop], "ascii"), stop  # the common case, for bytes and memoryview alike
    except UnicodeDecodeError:
        pass
    try:
        return mutf8_decode(buf[pos + 2 : stop]), stop
    except ValueError as exc:
        raise error(_m.invalid_mutf8(why=exc), offset=pos + 2, field=path) from None


def write_mutf8(value: str, path: str, error: type[EncodeError] = EncodeError) -> bytes:
    if type(value) is str and value.isascii() and "\x00" not in value:
        if len(value) > MAX_U16:
            raise error(_m.mutf8_too_long(size=len(value)), field=path)
        return U16.pack(len(value)) + value.encode("ascii")
    if not isinstance(value, str):
        raise error(_m.expected_str(kind=type(value).__name__), field=path)
    data = mutf8_encode(value)
    if len(data) > MAX_U16:
        raise error(_m.mutf8_too_long(size=len(data)), field=path)
    return U16.pack(len(data)) + data


def read_string(buf: Buffer, pos: int, end: int, path: str, error: type[DecodeError] = DecodeError) -> tuple[str, int]:
    if end - pos < 2:
        raise short(2, pos, end, path, error)
    (size,) = U16.unpack_from(buf, pos)
    start = pos + 2
    stop = start + size
    if stop > end:
        raise error(_m.string_past_frame(size=size), offset=pos, field=path)
    try:
        return str(buf[start:stop], "utf-8"), stop
    except UnicodeDecodeError as exc:
        raise error(_m.invalid_utf8(why=exc.reason), offset=start + exc.start, field=path) from None


def write_string(value: str, path: str, error: type[EncodeError] = EncodeError) -> bytes:
    if not isinstance(value, str):
        raise error(_m.expected_str(kind=type(value).__name__), field=path)
    try:
        data = value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise error(_m.not_utf8_encodable(why=exc.reason), field=path) from None
    if len(data) > MAX_U16:
        raise error(_m.utf8_too_long(size=len(data)), field=path)
    return U16.pack(len(data)) + data


def read_bytes_int32(
    buf: Buffer, pos: int, end: int, path: str, error: type[DecodeError] = DecodeError, *, negative_empty: bool = False
) -> tuple[Payload, int]:
    """An int32 length, then the bytes; with ``negative_empty`` a negative length reads as empty (as Java does)."""
    if end - pos < 4:
        raise short(4, pos, end, path, error)
    (size,) = I32.unpack_from(buf, pos)
    start = pos + 4
    if size < 0 and negative_empty:
        return b"", start
    if size < 0 or start + size > end:
        raise error(_m.length_does_not_fit(size=size, left=end - start), offset=pos, field=path)
    return payload(buf, start, start + size), start + size


def payload(buf: Buffer, start: int, stop: int) -> Payload:
    """``buf[start:stop]``: a read-only view when ``buf`` is a memoryview (no copy), else ``bytes`` (one copy)."""
    if type(buf) is bytes:
        return buf[start:stop]
    if type(buf) is memoryview:
        part = buf[start:stop]
        return part if part.readonly else part.toreadonly()
    return memoryview(buf)[start:stop].tobytes()


def as_view(buf: Buffer) -> memoryview:
    return buf if type(buf) is memoryview else memoryview(buf)


def payload_part(value: Any, path: str, error: type[EncodeError] = EncodeError) -> bytes | bytearray | memoryview:
    """A payload as a part of a frame, not copied: bytes and bytearray as they are, a memoryview as one of bytes."""
    if isinstance(value, bytes | bytearray):
        return value
    if isinstance(value, memoryview):
        if not value.c_contiguous:
            return value.tobytes()  # the one copy, here instead of in the join (which needs contiguous bytes)
        if value.format == "B" and value.ndim == 1:
            return value  # the common case (a decoded payload): len() counts bytes
        return value.cast("B")
    raise error(_m.expected_bytes(kind=type(value).__name__), field=path)


def write_bytes_int32(value: Buffer, path: str, error: type[EncodeError] = EncodeError) -> bytes:
    data = payload_part(value, path, error)
    return I32.pack(len(data)) + data


def extend_bytes_int32(parts: Parts, value: Buffer, path: str, error: type[EncodeError] = EncodeError) -> None:
    """Append the length and the value itself as two parts: the payload is copied once, by the frame's join."""
    if type(value) is bytes:
        parts += (I32.pack(len(value)), value)
    else:
        data = payload_part(value, path, error)
        parts += (I32.pack(len(data)), data)


def read_rest(
    buf: Buffer, pos: int, end: int, path: str, error: type[DecodeError] = DecodeError
) -> tuple[Payload, int]:
    return payload(buf, pos, end), end


def read_padding(buf: Buffer, pos: int, end: int, path: str, error: type[DecodeError] = DecodeError) -> tuple[int, int]:
    return end - pos, end


def write_padding(value: int, path: str, error: type[EncodeError], limit: int, refusal: str) -> bytes:
    """``value`` zero bytes; more than ``limit`` (the protocol's largest frame) are refused before they are made, in
    the definition's words (``refusal``; the generator gives the same text to the Java codec)."""
    if not isinstance(value, int) or value < 0:
        raise error(_m.padding_negative(value=repr(value)), field=path)
    if value > limit:
        raise error(refusal.format(value=value, limit=limit), field=path)
    return bytes(value)


def read_list(
    buf: Buffer,
    pos: int,
    end: int,
    path: str,
    item: Callable[[Buffer, int, int], tuple[T, int]],
    min_size: int,
    error: type[DecodeError] = DecodeError,
    *,
    negative_empty: bool = False,
) -> tuple[list[T], int]:
    """An int32 count, then the items; a count the remaining bytes cannot hold is rejected before reading.

    With ``negative_empty`` a negative count reads as an empty list (as Java does for some fields).
    """
    if end - pos < 4:
        raise short(4, pos, end, path, error)
    (count,) = I32.unpack_from(buf, pos)
    pos += 4
    if count < 0 and negative_empty:
        return [], pos
    if count < 0 or count * min_size > end - pos:
        raise error(_m.count_does_not_fit(count=count, left=end - pos), offset=pos - 4, field=path)
    items = []
    for _ in range(count):
        value, pos = item(buf, pos, end)
        items.append(value)
    return items, pos


def refused(refusal: str, value: Any) -> TypeError:
    """The TypeError of a value a field refuses (the writer turns it into its EncodeError naming the field), in the
    definition's words (the generator gives the same text to the Java codec): ``{type}`` is the name of the value's
    type, ``{value}`` its repr."""
    return TypeError(refusal.format(type=type(value).__name__, value=repr(value)))


def not_const(value: Any) -> TypeError:
    """The TypeError of a constant field holding another value of its type (the writer turns it into its EncodeError
    naming the field): the frame carries the constant, so decode would not give the value back.  The words are those
    the JSON families give a constant (msgspec's for its one-value enum), as the Java codec says them."""
    return TypeError(_m.invalid_enum(value=repr(value)))


def pack_refusal(exc: Exception, owner: Any, where: str, ranges: dict[str, tuple[int, int]]) -> str:
    """Why the field ``where`` (``Owner.attribute``) of ``owner`` could not be written, as its EncodeError says it:
    an integer outside its wire type's range in the project's words (the catalog's ``int_at_most`` and
    ``int_at_least``, as the JSON families and the Java codec say it) instead of ``struct``'s (``'i' format requires
    ...``, ``int too large to convert``); any other refusal as it was raised.  ``ranges`` holds the integer fields by
    path with their range (for a list, its items': the first item that is not an int in range is the one the pack
    refused).  Only the failing path calls this: writing stays one ``struct`` call per run, unchecked."""
    found = ranges.get(where)
    if found is not None and isinstance(exc, struct.error | OverflowError):
        low, high = found
        held = getattr(owner, where.rpartition(".")[2], None)
        for item in held if isinstance(held, list) else (held,):
            if not isinstance(item, int):
                break  # (struct's own words for a value that is not an integer)
            if item > high:
                return _m.int_at_most(high=high)
            if item < low:
                return _m.int_at_least(low=low)
    return str(exc)


def uuid_int(value: Any, refusal: str) -> int:
    """The integer of a UUID that is not exactly a ``uuid.UUID`` (a subclass), for a field's struct pack; anything
    else is refused."""
    if not isinstance(value, uuid.UUID):
        raise refused(refusal, value)
    return value.int


def strict_bool(value: Any, refusal: str) -> bool:
    """A bool field's value that is not exactly a bool: refused (struct would pack any truth value, and 5 would read
    back as True)."""
    raise refused(refusal, value)


def strict_enum(value: Any, enum: type[enum_.IntEnum], refusal: str) -> int:
    """An enum field's value that is not exactly a member: an int equal to a member's value (read back as that
    member, which equals it), else refused (an unknown value reads back as another member or is refused)."""
    if isinstance(value, int) and not isinstance(value, bool) and value in enum._value2member_map_:
        return value
    raise refused(refusal, value)


def strict_list(value: Any) -> list[Any]:
    """A list field's value that is not exactly a list: a subclass of list (read back as an equal list), else refused
    (a str, a tuple or a dict would be written item by item and read back as a list, which does not equal it)."""
    if isinstance(value, list):
        return value
    len(value)  # (None: len's own TypeError, the words the Java codec gives it)
    raise TypeError(f"expected list, got {type(value).__name__}")


def owned(value: T) -> T:
    """``value`` with every payload its own ``bytes``: a copy of a message decoded with ``copy=False`` (nested
    structs and lists too) that no longer references the buffer it was decoded from; ``value`` itself when it holds
    no memoryview.

    The rules for a message decoded with ``copy=False``: its payload fields are read-only memoryviews onto the
    caller's buffer (or onto the one buffer a ``Reader`` assembled a cut frame in, which it never touches again).
    They keep that buffer alive, and a ``bytearray`` cannot be resized while they exist (Python raises
    ``BufferError``).  A buffer changed in place shows through them, so a caller who reuses a buffer (``recv_into``,
    a pooled ``bytearray``) takes ``owned(message)`` (or ``bytes(message.field)``) before doing so.  ``==`` compares
    payload contents (a decoded message equals the message built from ``bytes``), ``repr`` shows payloads as
    ``bytes`` literals, ``to_dict`` gives ``bytes``, and messages are unhashable as always (a view onto ``bytes``
    hashes as those bytes; one onto a ``bytearray`` does not hash).  Copying or pickling a message that holds views
    fails as for any memoryview: take ``owned`` first.
    """
    if isinstance(value, memoryview):
        return value.tobytes()  # type: ignore[return-value]
    if isinstance(value, list):
        items = [owned(item) for item in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value  # type: ignore[return-value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            before = getattr(value, f.name)
            after = owned(before)
            if after is not before:
                changes[f.name] = after
        return dataclasses.replace(value, **changes) if changes else value
    return value


def _shown(value: Any) -> str:
    return repr(value.tobytes()) if isinstance(value, memoryview) else repr(value)


def message_repr(message: Any) -> str:
    """A dataclass repr that shows a memoryview payload as the ``bytes`` literal it holds (same as when built)."""
    fields = ", ".join(f"{f.name}={_shown(getattr(message, f.name))}" for f in dataclasses.fields(message) if f.repr)
    return f"{type(message).__name__}({fields})"
