"""Support for the JSON wire family (JSON lines, and JSON followed by an ``end`` line) and its MessagePack variant.

msgspec decodes straight into typed Structs and validates every field in C; these helpers turn its errors into
the protocol's :class:`~.errors.DecodeError` naming the line, byte offset and field, and split byte streams into
messages for the incremental readers.
"""

from __future__ import annotations

import json
import re
import sys
import typing
from collections import deque
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Generic, TypeVar

import msgspec

from .errors import DecodeError, check_bytes
from .messages import EMPTY_MESSAGE as EMPTY_MESSAGE
from .messages import JSON_TRUNCATED, NESTED_TOO_DEEPLY, lone_surrogate, malformed, string_not_utf8, too_long
from .messages import MAX_DEPTH as MAX_DEPTH
from .messages import TOO_DEEP as TOO_DEEP
from .wiretypes import Int8, Int16, Int32, Int64, Timestamp  # (rendered from the type records; re-exported)

if typing.TYPE_CHECKING:
    from .jsonpacked import PackedFrames

__all__ = [
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Timestamp",
    "DECODE_FAILURES",
    "MAX_DEPTH",
    "TOO_DEEP",
    "PACKED_TOO_DEEP",
    "check_text",
    "deeper",
    "too_deep",
    "too_deep_at",
    "syntax_before_too_deep",
    "malformed_first",
    "roomy",
    "nesting",
    "as_bytes",
    "decode_error",
    "located",
    "member_at",
    "value_at",
    "LineFrames",
    "LineReader",
    "Reader",
    "Fast",
    "one_by_one",
    "Piece",
    "EndFrames",
    "split_lines",
    "strip_end_line",
]


M = TypeVar("M")

_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_BYTE = re.compile(r"\(byte (?P<offset>\d+)\)")
_MISSING = re.compile(r"missing required field `(?P<name>[^`]*)`")
_PACKED_MALFORMED = re.compile(r"^MessagePack data is malformed: ")
PACKED_TOO_DEEP = malformed(syntax="MessagePack", why=NESTED_TOO_DEEPLY)
"""MessagePack nested deeper than :data:`MAX_DEPTH`: :data:`TOO_DEEP`'s words, naming the format it refuses."""
DECODE_FAILURES = (msgspec.DecodeError, UnicodeDecodeError, RecursionError)
"""What msgspec raises for input it cannot decode: its own errors, and for invalid UTF-8 in a string or deep
nesting, these two built-in ones."""

# ---------------------------------------------------------------- the JSON texts both codecs refuse alike
# The rules of the family's documented "strict text" (docs/definition-format.md), applied by the Java codec too:
# a message's text must be UTF-8 and hold no lone surrogate escape, wherever (RFC 8259 sections 8.1 and 8.2; no peer
# refuses either, msgspec only where it decodes a string); it may nest arrays and objects MAX_DEPTH deep, whatever
# the interpreter's stack; and a text that is not JSON is reported as malformed, whatever else is wrong with it.
# MAX_DEPTH (the message catalog's): Jackson's default limit (``StreamReadConstraints``), which the KCL
# MultiLangDaemon, the CloudEvents Java SDK and the Java codec read with. msgspec's own limit is the interpreter's
# recursion limit less the stack in use (below 1000 with Python's default limit), so a deeper document fails there
# first and :func:`deeper` decides: refused when deeper than this, else decoded again with room on the stack.
_ESCAPES = re.compile(
    rb"\\(?:u(?:[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|(?P<lone>[dD][89a-fA-F][0-9a-fA-F]{2})"
    rb"|[0-9a-fA-F]{4})|.)",
    re.S,
)
"""One escape (a backslash and what it takes): a surrogate pair, a lone surrogate (``lone``), another ``\\u``
escape, or a backslash and one character."""
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)  # a string (skipped whole) or a bracket
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_RAW = msgspec.json.Decoder(msgspec.Raw)  # checks the syntax of a text (and nothing else), builds nothing


def check_text(text: bytes, error: type[DecodeError], line: int | None = None) -> None:
    """Refuses (``error``) a JSON text that is not UTF-8 or holds a lone surrogate escape (``\\ud800`` not followed
    by a low surrogate, or a low one alone), anywhere in it: RFC 8259 8.1 (JSON text is UTF-8) and 8.2 (strings of
    Unicode characters). Two C passes for a text of ASCII without a backslash."""
    if text.isascii() and 92 not in text:  # no UTF-8 to check, no escape
        return
    if not text.isascii():
        try:
            text.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = malformed(syntax="JSON", why=string_not_utf8(why=exc.reason))
            raise error(reason, offset=exc.start, line=line) from None
    if _SURROGATE_ESCAPE.search(text) is not None:
        for escape in _ESCAPES.finditer(text, text.index(b"\\")):
            if escape.group("lone") is not None:
                written = escape.group().decode("ascii")
                reason = malformed(syntax="JSON", why=lone_surrogate(escape=written))
                raise error(reason, offset=escape.start(), line=line)


def _plainly_strict(text: bytes, end: int) -> bool:
    """Whether every text in ``text[:end]`` passes :func:`check_text`, told by one pass over all of them: UTF-8
    throughout and no escape that may be a surrogate's (False: check each text, see :func:`check_text`)."""
    whole = end == len(text)  # (one message: decoded as it is, where a view and its slice cost more than the decode)
    if not text.isascii():
        try:
            text.decode("utf-8") if whole else str(memoryview(text)[:end], "utf-8")
        except UnicodeDecodeError:
            return False
    if whole and 92 not in text:  # no backslash, no escape (an int needle: one memchr)
        return True
    return text.find(b"\\ud", 0, end) < 0 and text.find(b"\\uD", 0, end) < 0  # two C passes, not a regex


def nesting(text: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (outside its strings)."""
    brackets = _STRING.sub(b"", text).translate(None, _NOT_BRACKETS)
    depth = deepest = 0
    for b in brackets:
        if b in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def too_deep_at(text: bytes) -> int:
    """Where a JSON text nested deeper than :data:`MAX_DEPTH` is refused: at the bracket that opens one level too many
    (outside its strings, as :func:`nesting` counts), where the Java codec's parser stops."""
    depth = 0
    for token in _BRACKETS.finditer(text):
        mark = token.group()[0]
        if mark == 0x5B or mark == 0x7B:  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                return token.start()
        elif mark == 0x5D or mark == 0x7D:
            depth -= 1
    return 0  # not reached: only a text nested too deeply is asked about


def syntax_before_too_deep(text: bytes) -> msgspec.DecodeError | None:
    """Of a JSON text nested deeper than :data:`MAX_DEPTH`: the syntax error that comes before the bracket opening one
    level too many, or None. The Java codec's parser reads in the text's order and stops at whichever it meets first;
    msgspec reads the text up to that bracket (with room on the stack) to tell: cut short there, it met none."""
    try:
        roomy(lambda: _RAW.decode(text[: too_deep_at(text) + 1]))
    except msgspec.DecodeError as exc:
        return None if str(exc) == JSON_TRUNCATED else exc
    return None  # not reached: the text stops inside that bracket's value


def too_deep(text: bytes, error: type[DecodeError], line: int | None) -> DecodeError:
    """The refusal of a text nested deeper than :data:`MAX_DEPTH`: at the bracket that opens one level too many, or
    the syntax error before it (:func:`syntax_before_too_deep`)."""
    syntax = syntax_before_too_deep(text)
    if syntax is not None:
        return decode_error(syntax, error, line=line)
    return error(TOO_DEEP, offset=too_deep_at(text), line=line)


def deeper(text: bytes, error: type[DecodeError], line: int | None, again: Callable[[], M]) -> M:
    """After msgspec ran out of stack on ``text``: refused as nested too deeply when it nests deeper than
    :data:`MAX_DEPTH` (:func:`too_deep`), else ``again()`` with room for that depth on the stack."""
    if nesting(text) > MAX_DEPTH:
        raise too_deep(text, error, line)
    return roomy(again)


def roomy(call: Callable[[], M]) -> M:
    """``call()`` with room on the stack for :data:`MAX_DEPTH` more levels of nesting: up to four frames a level (the
    encode checks' walk of a free-form value takes three: the walk, ``any`` and its generator)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 4 * MAX_DEPTH + 100)
    try:
        return call()
    finally:
        sys.setrecursionlimit(limit)


def unbounded(text: bytes, error: type[DecodeError], line: int | None) -> None:
    """Refuses a text nested deeper than :data:`MAX_DEPTH` when the interpreter's recursion limit was raised above
    it (then msgspec would read it): what keeps the limit fixed in every interpreter."""
    if sys.getrecursionlimit() > MAX_DEPTH and nesting(text) > MAX_DEPTH:
        raise too_deep(text, error, line)


def malformed_first(exc: Exception, text: bytes) -> Exception:
    """Of a failure to decode ``text``: the text's syntax error when it is not JSON at all (whatever else was found
    first, as the Java codec, which reads the syntax first), else ``exc``."""
    if isinstance(exc, msgspec.DecodeError) and not isinstance(exc, msgspec.ValidationError):
        return exc
    try:
        try:
            _RAW.decode(text)
        except RecursionError as deep:
            if nesting(text) > MAX_DEPTH:
                return syntax_before_too_deep(text) or deep
            roomy(lambda: _RAW.decode(text))
    except msgspec.ValidationError:
        return exc
    except msgspec.DecodeError as syntax:
        return syntax
    return exc


def _first_tag(text: bytes, tag_key: str) -> Any:
    """The first value of the top-level object's tag key (the message's tag, as msgspec and Jackson read a tagged
    type), or None. Only on the error path: the standard library keeps every occurrence of a key."""
    if not text.lstrip(b" \t\r\n").startswith(b"{"):
        return None
    found: list[list[tuple[str, Any]]] = []

    def pairs(items: list[tuple[str, Any]]) -> None:
        found[:] = [items]  # the top level's are the last pairs made

    try:
        roomy(lambda: json.loads(text, object_pairs_hook=pairs))
    except (ValueError, RecursionError):
        return None
    return next((value for key, value in found[0] if key == tag_key), None) if found else None


def telling_failure(
    failures: dict[str, Exception], text: bytes, tag_key: str, tag_directions: Mapping[str, tuple[str, ...]]
) -> Exception:
    """Of the failures of decoding ``text`` in each direction (in order), the one to report.

    When the message's tag belongs to exactly one direction, that direction's failure names the real problem (the
    others only say that they do not know the tag); otherwise the first.
    """
    first = next(iter(failures.values()))
    if len(failures) < 2:
        return first
    tag = _first_tag(text, tag_key)
    owners = tag_directions.get(tag, ()) if isinstance(tag, str) else ()
    return failures[owners[0]] if len(owners) == 1 and owners[0] in failures else first


def decode_error(
    exc: Exception,
    error: type[DecodeError],
    *,
    line: int | None = None,
    message: str | None = None,
    syntax: str = "JSON",
    at: int | None = None,
    size: int | None = None,
) -> DecodeError:
    """Translate a msgspec error into ``error`` with the field path and byte offset it names.

    ``syntax`` names the encoding in the reason (``JSON`` or ``MessagePack``); ``at`` is the stream offset of the
    value, added to the offset msgspec names (and given alone when it names none). ``size`` is the length of the
    input decoded: an input cut short (msgspec names no offset) is refused at its end, where more was needed.
    """
    text = str(exc)
    if size is not None and text == JSON_TRUNCATED:
        exc = msgspec.DecodeError(f"{text} (byte {size})")
        text = str(exc)
    field = None
    match = _AT.search(text)
    if match:
        field = match.group("path").lstrip(".") or None
        text = text[: match.start()]
    offset = None
    match = _BYTE.search(text)
    if match:
        offset = int(match.group("offset"))
        text = (text[: match.start()] + text[match.end() :]).strip()
    if at is not None:
        offset = at + (offset or 0)
    if isinstance(exc, msgspec.ValidationError):
        text = text.replace("Object missing required field", "missing required field")
        missing = _MISSING.search(text)
        if missing:  # name the absent field itself, not only the object that lacks it
            field = f"{field}.{missing.group('name')}" if field else missing.group("name")
    elif isinstance(exc, msgspec.DecodeError):
        text = malformed(syntax=syntax, why=_PACKED_MALFORMED.sub("", text))
    elif isinstance(exc, UnicodeDecodeError):
        text = malformed(syntax=syntax, why=string_not_utf8(why=exc.reason))
    elif isinstance(exc, RecursionError):
        text = malformed(syntax=syntax, why=NESTED_TOO_DEEPLY)
    return error(message or text, offset=offset, field=field, line=line)


# ---------------------------------------------------------------- where a refused value is
# msgspec names a field path but no offset for a value it refuses (and none for a missing field or a value no
# message matches); the offset is found again in the text, on the error path only, as the Java codec finds it
# (JsonPlaces.valueAt): the field's value, or for a missing field the object that lacks it, or for a value no
# message matches the value itself. The text is JSON (a syntax error is reported before any of these).
_PATH = re.compile(r"\.?(?P<key>[^.\[]+)|\[(?P<index>\d+|\.\.\.)\]")
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_SPACE = re.compile(rb"[ \t\r\n]*")
_SCALAR_END = re.compile(rb"[,\]} \t\r\n]|$")


def _value_end(text: bytes, pos: int) -> int:
    """The end of the JSON value that starts at ``pos``."""
    first = text[pos]
    if first == 0x22:  # "
        return _JSON_STRING.match(text, pos).end()  # type: ignore[union-attr]
    if first not in b"[{":
        return _SCALAR_END.search(text, pos).start()  # type: ignore[union-attr]
    depth = 0
    for token in _BRACKETS.finditer(text, pos):
        mark = token.group()[0]
        if mark in b"[{":
            depth += 1
        elif mark in b"]}":
            depth -= 1
            if depth == 0:
                return token.end()
    return len(text)


def _inside(text: bytes, pos: int, key: str | None, index: int, last: bool) -> int | None:
    """The start of member ``key`` of the object at ``pos`` (its last when ``last``, else its first), or of item
    ``index`` of the array there; None when it has none."""
    close = 0x7D if key is not None else 0x5D  # } or ]
    pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    found = None
    count = 0
    while pos < len(text) and text[pos] != close:
        if key is not None:
            name = _JSON_STRING.match(text, pos)
            assert name is not None
            raw = name.group()
            pos = _SPACE.match(text, _SPACE.match(text, name.end()).end() + 1).end()  # type: ignore[union-attr]
            if (json.loads(raw) if 92 in raw else raw[1:-1].decode("utf-8")) == key:
                found = pos
                if not last:
                    return found
        elif count == index:
            return pos
        count += 1
        pos = _SPACE.match(text, _value_end(text, pos)).end()  # type: ignore[union-attr]
        if pos < len(text) and text[pos] == 0x2C:  # ,
            pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    return found


def value_at(text: bytes, field: str | None, *, missing: bool = False, last: bool = True) -> int:
    """The offset in JSON ``text`` of the value at ``field`` (a DecodeError's path: ``records[0].data``), or with
    ``missing`` of the object that lacks its last key; the top-level value's without a field.

    Of a repeated key, the value read (``last``: the last, as the general path's dict holds it; else the first, which
    the typed path refuses first). A path the text does not hold all of ends where it stops: an entry of a map
    (``[...]``) is not named, so the map; a key of an array is the message whose one field the array is, an index of
    a scalar the lone scalar read as a list of one, so that value.
    """
    pos = _SPACE.match(text).end()  # type: ignore[union-attr]
    steps = list(_PATH.finditer(field or ""))
    if missing and steps:
        steps.pop()
    for step in steps:
        if pos >= len(text):
            break
        kind = text[pos]
        key, index = step.group("key"), step.group("index")
        if index == "...":
            break
        if key is not None and kind != 0x7B:  # not an object: an array stands for its message's one field
            if kind == 0x5B:
                continue
            break
        if index is not None and kind != 0x5B:  # not an array: a lone scalar stands for its list of one
            if kind == 0x7B:
                break
            continue
        found = _inside(text, pos, key, int(index or 0), last)
        if found is None:
            break
        pos = found
    return pos


def member_at(text: bytes, name: str | None) -> int:
    """The offset in JSON ``text`` of the value of the top-level object's member ``name`` (of a repeated name, the
    last, as a dict holds it), or of the top-level value when it has none (or is no object, or without a name)."""
    pos = _SPACE.match(text).end()  # type: ignore[union-attr]
    if name is None or pos >= len(text) or text[pos] != 0x7B:
        return pos
    found = _inside(text, pos, name, 0, True)
    return pos if found is None else found


def located(exc: DecodeError, text: bytes, error: type[DecodeError], *, last: bool = True) -> DecodeError:
    """``exc`` naming the offset in ``text`` of what it refuses (:func:`value_at`) when it names none."""
    if exc.offset is not None:
        return exc
    if exc.reason == TOO_DEEP:  # (malformed_first's verdict on a text msgspec refused for another reason first)
        offset = too_deep_at(text)
    else:
        offset = value_at(text, exc.field, missing=_MISSING.match(exc.reason) is not None, last=last)
    return error(exc.reason, offset=offset, field=exc.field, line=exc.line)


def as_bytes(frame: bytes | bytearray | memoryview | str, error: type[DecodeError] = DecodeError) -> bytes:
    """A frame as bytes; text that cannot be UTF-8 (a lone surrogate) is the protocol's DecodeError, and what is
    neither bytes-like nor text a TypeError."""
    if type(frame) is bytes:
        return frame
    if not isinstance(frame, str):
        if not isinstance(frame, bytearray | memoryview):  # (what Spark and a Reader hand over: no test)
            check_bytes(frame, "decode", text=True)
        return bytes(frame)
    try:
        return frame.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise error(f"text is not valid Unicode: {exc.reason}", offset=exc.start) from None


def strip_end_line(frame: bytes | str, error: type[DecodeError] = DecodeError) -> bytes:
    """The JSON text of one ``<json>\\nend\\n`` frame as a :class:`Reader` cuts it out of a stream, so that an
    error's offset is the same in both: ``\\r\\n`` line ends read as ``\\n``, and the text stops before the line
    end of the ``end`` line (which is optional here)."""
    data = as_bytes(frame, error)
    if 13 in data:  # a CR (an int needle: `bytes in bytes` pays for a TypeError first)
        data = data.replace(b"\r\n", b"\n")
    body = data.rstrip(b"\r\n")
    if body == b"end":
        return b""
    return body[:-4] if body.endswith(b"\nend") else body


Piece = tuple[int, bytes | DecodeError]
"""A line number and either a message's JSON text or the error that takes its place."""


def split_lines(
    buffer: bytearray,
    line: int,
    max_message: int,
    error: type[DecodeError],
    *,
    start: int = 0,
    skipping: bool = False,
) -> tuple[list[Piece], int, bool]:
    """Take every complete line out of ``buffer``; return the non-blank ones, the new line count, and whether the
    rest of a line already reported as too long is still to be skipped.

    ``buffer[:start]`` is known to hold no line end (it was searched before), so a line that arrives in many small
    pieces costs linear time. A line longer than ``max_message`` becomes an error piece and is dropped, so reading
    resumes after it: when the limit is passed before its end arrives, what came is dropped at once and the rest of
    the line is dropped as it comes (``skipping``, passed back in by the caller), never read as a line of its own.
    """
    pieces: list[Piece] = []
    pos = 0
    newline = buffer.find(b"\n", start)
    while newline >= 0:
        begin, pos = pos, newline + 1
        line += 1
        if skipping:  # the end of a line reported (at this line number) before its end arrived
            skipping = False
        elif newline - begin > max_message:
            pieces.append((line, error(too_long(what="line", limit=max_message), offset=max_message, line=line)))
        else:
            text = bytes(buffer[begin:newline])
            if text.strip():
                pieces.append((line, text))
        newline = buffer.find(b"\n", pos)
    del buffer[:pos]
    if skipping:
        buffer[:] = b""
    elif len(buffer) > max_message:
        problem = too_long(what="line", limit=max_message)
        pieces.append((line + 1, error(problem, offset=max_message, line=line + 1)))
        buffer[:] = b""
        skipping = True
    return pieces, line, skipping


Fast = Callable[[list[Any], int, list[Any], bool], tuple[int, bool]]
"""A fast path: ``fast(items, index, out, hint)`` decodes items onto ``out`` from ``index`` and returns where it
stopped and a hint for its next call (see :meth:`EndFrames.decode`)."""


def one_by_one(items: list[Any], index: int, out: list[Any], hint: bool) -> tuple[int, bool]:
    """The fast path of a protocol without one: every item takes the general path."""
    return index, hint


class LineFrames:
    """Reads a byte stream of JSON Lines: one message per line, blank lines skipped (see :func:`split_lines`)."""

    def __init__(self, max_message: int, error: type[DecodeError]) -> None:
        self.max_message = max_message
        self.error = error
        self.line = 0
        """Lines consumed so far."""
        self._buffer = bytearray()
        self._skipping = False  # inside a line already reported as too long
        self._queue: deque[Piece] = deque()

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole line."""
        return len(self._buffer)

    def decode(self, data: bytes | bytearray | memoryview, general: Callable[[bytes, int], M]) -> list[M]:
        """Every message ``data`` completes, each line decoded by ``general(text, line)``.

        A bad line raises the error (given the line when it names none) with ``decoded`` holding the messages
        before it; the next call goes on after it.
        """
        searched = len(self._buffer)  # holds no line end: only the new data needs searching
        self._buffer += data
        error_type = self.error
        pieces, self.line, self._skipping = split_lines(
            self._buffer, self.line, self.max_message, error_type, start=searched, skipping=self._skipping
        )
        self._queue.extend(pieces)
        messages: list[M] = []
        queue = self._queue
        while queue:
            line, text = queue.popleft()
            try:
                if not isinstance(text, bytes):  # a line too long to read, reported in its place
                    raise text
                messages.append(general(text, line))
            except error_type as exc:
                error = (
                    exc
                    if exc.line is not None
                    else error_type(exc.reason, offset=exc.offset, field=exc.field, line=line)
                )
                error.decoded = messages
                raise error from None
        return messages


class LineReader(Generic[M]):
    """Incremental decoder of JSON Lines: one message per line, blank lines skipped; the base of a protocol's
    ``Reader`` when every line decodes alone (``decode(text)``, which raises ``error``).

    ``feed`` any slice of the stream; it returns the messages of the lines it completes.  A bad line raises ``error``
    naming its line, with ``decoded`` holding the messages before it in the same call; the next ``feed``
    (``feed(b"")`` to drain) goes on after it.
    """

    def __init__(self, decode: Callable[[bytes], M], error: type[DecodeError], max_message: int) -> None:
        self.max_message = max_message
        self._frames = LineFrames(max_message, error)
        self._general: Callable[[bytes, int], M] = lambda text, line: decode(text)

    @property
    def line(self) -> int:
        """Lines consumed so far."""
        return self._frames.line

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole line."""
        return self._frames.buffered

    def feed(self, data: bytes | bytearray | memoryview) -> list[M]:
        if type(data) is not bytes:  # (the common case tested inline: no call)
            check_bytes(data, "feed")
        return self._frames.decode(data, self._general)


class Reader(Generic[M]):
    """The base of a JSON-family protocol's ``Reader``: ``feed`` any slice of the byte stream, get back the messages
    it completes.

    ``frames`` cuts the JSON stream (:class:`LineFrames` or :class:`EndFrames`); each message takes ``fast`` (end
    frames only), else ``decode_text(direction, text, line)``. With a MessagePack serializer, ``packed`` (a
    :class:`PackedFrames`) cuts the stream instead and each value takes ``packed_fast``, else
    ``decode_packed(direction, value, offset)``. A bad message raises the protocol's DecodeError with ``decoded``
    holding the messages before it in the same call; the next ``feed`` (``feed(b"")`` to drain) goes on after it.
    """

    def __init__(
        self,
        frames: LineFrames | EndFrames,
        decode_text: Callable[[str | None, bytes, int], M],
        *,
        direction: str | None,
        max_message: int,
        serializer: str,
        fast: Fast = one_by_one,
        packed: PackedFrames | None = None,
        packed_fast: Fast = one_by_one,
        decode_packed: Callable[[str | None, Any, int], M] | None = None,
    ) -> None:
        self.direction = direction
        self.max_message = max_message
        self.serializer = serializer
        """The framing read: one of the protocol's ``SERIALIZERS``."""
        self._frames = frames
        self._general: Callable[[bytes, int], M] = partial(decode_text, direction)  # in C: no Python frame
        self._fast = fast
        self._packed = packed
        self._packed_fast = packed_fast
        if decode_packed is not None:
            self._packed_general: Callable[[Any, int], M] = partial(decode_packed, direction)

    @property
    def line(self) -> int:
        """Lines consumed so far."""
        return self._frames.line

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole message."""
        if self._packed is not None:
            return self._packed.buffered
        return self._frames.buffered

    def feed(self, data: bytes | bytearray | memoryview) -> list[M]:
        if type(data) is not bytes:  # (the common case tested inline: no call)
            check_bytes(data, "feed")
        if self._packed is not None:
            return self._packed.decode(data, self._packed_fast, self._packed_general)
        if isinstance(self._frames, LineFrames):
            return self._frames.decode(data, self._general)
        return self._frames.decode(data, self._fast, self._general)


def _text_so_far(buffer: bytearray) -> int:
    """How many bytes of the JSON text of the message ``buffer`` begins are certain, its end line not come yet: its
    bytes with ``\r\n`` read as ``\n``, less the line it ends with when that may still become its end line (with the
    line end before it), and less a last ``\r`` (it may begin a ``\r\n``). A message is refused as too long once
    this passes the limit, as when its end line has come and its text is longer (the Java Reader counts alike)."""
    last = buffer.rfind(b"\n")
    if b"end\r".startswith(buffer[last + 1 :]):  # the last line may be its end line
        if last < 0:
            return 0
        known = buffer[: last + 1]
        return len(known) - known.count(b"\r\n") - 1
    known = buffer[:-1] if buffer.endswith(b"\r") else buffer
    return len(known) - known.count(b"\r\n")


def _raw_start(buffer: bytearray, rest: bytes) -> int:
    """Where in ``buffer`` the bytes begin that read as ``rest`` with CRLF line ends read as LF, ``rest`` being the
    end of that reading right after an LF: after the LF that many LFs before the end (reading keeps every LF)."""
    at = len(buffer)
    for _ in range(rest.count(b"\n") + 1):
        at = buffer.rfind(b"\n", 0, at)
    return at + 1


class EndFrames:
    """Reads a byte stream of ``<json>\\nend\\n`` messages: cuts it up and decodes every complete message.

    The JSON may span lines and blank lines are tolerated (JSON whitespace); ``\\r\\n`` line ends read as ``\\n``
    (a raw CR or LF cannot occur inside a JSON string, so only line ends change). An ``end`` line with no JSON
    before it is an error. A message longer than ``max_message`` is an error and its bytes are dropped up to its
    end line, so reading resumes after it. Line numbers are worked out only when a message needs one (the general
    path and errors), so a common message costs its share of one split and one typed decode.
    """

    def __init__(self, max_message: int, error: type[DecodeError]) -> None:
        self.max_message = max_message
        self.error = error
        self.line = 0
        """Lines cut out of the stream so far (every complete message, decoded or pending)."""
        self._buffer = bytearray()
        self._skipping = False  # inside a message already reported as too long
        self._dropped = 0  # lines of that message dropped so far
        # JSON texts, or (the error to raise or None to skip, the number of lines the item spans)
        self._items: list[bytes | tuple[DecodeError | None, int]] = []
        self._next = 0  # index of the first item not handed out yet
        self._cursor = (0, 0)  # an item index and the line before that item
        self._hint = False  # passed from one fast call to the next

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole message: those after the last one, as received (a CR
        counted), or 0 while a message refused as too long is dropped up to its end (its error took its place)."""
        return 0 if self._skipping else len(self._buffer)

    def decode(
        self,
        data: bytes | bytearray | memoryview,
        fast: Callable[[list[Any], int, list[Any], bool], tuple[int, bool]],
        general: Callable[[bytes, int], Any],
    ) -> list[Any]:
        """Every message ``data`` completes.

        ``fast(items, index, out, hint)`` decodes items onto ``out`` from ``index`` and returns where it stopped
        and a hint for its next call; the item there is an error to raise, or a text for ``general(text, line)``.

        A bad message raises its DecodeError with ``decoded`` holding the messages before it; the next call goes
        on after it.
        """
        if (  # one whole message, and nothing before it (a pipe read at a low rate): one typed decode
            type(data) is bytes
            and self._next == len(self._items)
            and not self._buffer
            and not self._skipping
            and len(data) <= self.max_message
            and data.find(b"\nend\n") == len(data) - 5
            and 13 not in data  # (a CR: line ends to normalise)
            and sys.getrecursionlimit() <= MAX_DEPTH
            and _plainly_strict(data, len(data))  # as _cut asks before the fast path reads texts as they are
        ):
            single: list[Any] = []
            done, self._hint = fast([data[:-5]], 0, single, self._hint)
            if done:
                self.line += data.count(b"\n")
                return single
        self._cut(data)
        items = self._items
        messages: list[Any] = []
        index = self._next
        end = len(items)
        try:
            while True:
                index, self._hint = fast(items, index, messages, self._hint)
                if index >= end:
                    break
                item = items[index]
                index += 1  # where reading resumes, also after an error
                if isinstance(item, tuple):
                    if item[0] is not None:
                        raise item[0]
                elif item.startswith(b"end\n") or item == b"end":
                    # An end line right after the previous one: an empty message. The rest of the item (after a
                    # bare "end", only its closing end line: another empty message) is read next.
                    index -= 1
                    line = self._line_of(index)
                    empty = self.error(EMPTY_MESSAGE, offset=0, line=line + 1)
                    items[index] = item[4:] if len(item) > 3 else (empty, 1)
                    self._cursor = (index, line)
                    raise self.error(EMPTY_MESSAGE, offset=0, line=line)
                else:
                    messages.append(general(item, self._line_of(index - 1)))
        except DecodeError as exc:
            exc.decoded = messages
            self._next = index
            raise
        self._next = index
        return messages

    def _line_of(self, index: int) -> int:
        """The first line of item ``index``, counted on from the item last asked about."""
        at, line = self._cursor
        items = self._items
        while at < index:
            item = items[at]
            line += item.count(b"\n") + 2 if type(item) is bytes else item[1]
            at += 1
        self._cursor = (at, line)
        return line + 1

    def _cut(self, data: bytes | bytearray | memoryview) -> None:
        buffer = self._buffer
        old = len(buffer)
        buffer += data
        start = max(old - 6, 0)  # the rest was searched before: only an end line that ``data`` completes is new
        if buffer.find(b"\nend\n", start) < 0 and buffer.find(b"\nend\r\n", start) < 0:
            self._bare_ends()
            self._check_limit()
            return
        whole = bytes(buffer)
        crlf = 13 in whole  # a CR (an int needle: `bytes in bytes` pays for a TypeError first)
        if crlf:
            whole = whole.replace(b"\r\n", b"\n")
        parts: list[Any] = whole.split(b"\nend\n")
        rest = parts.pop()
        if self._next == len(self._items):  # everything handed out: start afresh (the common case)
            self._items = []
            self._next = 0
            self._cursor = (0, self.line)
        elif self._next > 4096 and self._next * 2 > len(self._items):  # forget what was handed out long ago
            line = self._line_of(self._next) - 1
            del self._items[: self._next]
            self._next = 0
            self._cursor = (0, line)
        lines = whole.count(b"\n", 0, len(whole) - len(rest))
        if self._skipping or len(whole) > self.max_message:
            lines += self._dropped if self._skipping else 0
            parts = self._special(parts)
        if sys.getrecursionlimit() > MAX_DEPTH or not _plainly_strict(whole, len(whole) - len(rest)):
            parts = self._strict(parts)  # the fast path reads the texts as they are: check them here
        self._items += parts
        self.line += lines
        if crlf:  # keep the rest as received: read as LF once more, a CR before a CRLF would go too
            del buffer[: _raw_start(buffer, rest)]
        else:
            buffer[:] = rest
        self._bare_ends()
        self._check_limit()

    def _bare_ends(self) -> None:
        """End lines at the start of the buffer (right after the previous one): empty messages, cut out now rather
        than when more data comes, which may be never."""
        buffer = self._buffer
        while not self._skipping and (buffer.startswith(b"end\n") or buffer.startswith(b"end\r\n")):
            del buffer[: buffer.index(b"\n") + 1]
            self.line += 1
            self._items.append((self.error(EMPTY_MESSAGE, offset=0, line=self.line), 1))

    def _strict(self, parts: list[Any]) -> list[bytes | tuple[DecodeError | None, int]]:
        """The parts, with texts that are not UTF-8, hold a lone surrogate or nest too deeply turned into errors
        (:func:`check_text`, :func:`unbounded`)."""
        items: list[bytes | tuple[DecodeError | None, int]] = []
        line = self.line
        for part in parts:
            span = part.count(b"\n") + 2 if type(part) is bytes else part[1]
            if type(part) is bytes:
                try:
                    check_text(part, self.error, line + 1)
                    unbounded(part, self.error, line + 1)
                except DecodeError as exc:
                    part = (exc, span)
            items.append(part)
            line += span
        return items

    def _special(self, parts: list[bytes]) -> list[bytes | tuple[DecodeError | None, int]]:
        """The parts, with over-long messages (and the tail of one reported before) turned into errors."""
        items: list[bytes | tuple[DecodeError | None, int]] = []
        line = self.line
        for part in parts:
            if self._skipping:  # the tail of a message already reported as too long
                self._skipping = False
                span = part.count(b"\n") + 2 + self._dropped
                self._dropped = 0
                items.append((None, span))
                line += span
                continue
            span = part.count(b"\n") + 2
            if len(part) > self.max_message:
                problem = too_long(what="message", limit=self.max_message)
                items.append((self.error(problem, offset=self.max_message, line=line + 1), span))
            else:
                items.append(part)
            line += span
        return items

    def _check_limit(self) -> None:
        buffer = self._buffer
        if len(buffer) > self.max_message and not self._skipping and _text_so_far(buffer) > self.max_message:
            message = too_long(what="message", limit=self.max_message)  # as when its end line came in the same feed
            self._items.append((self.error(message, offset=self.max_message, line=self.line + 1), 0))
            self._skipping = True
        if self._skipping and len(buffer) > 6:
            self._dropped += buffer.count(b"\n", 0, len(buffer) - 6)
            del buffer[: len(buffer) - 6]  # keep enough to recognise an end line cut in two
