# Copied from streamcodecs_gen/py_package/_runtime/jsonwire.py by ./generator.py; edit that file, not this copy.
"""Support for the JSON wire family (JSON lines, and JSON followed by an ``end`` line) and its MessagePack variant.

msgspec decodes straight into typed Structs and validates every field in C; these helpers turn its errors into
the protocol's :class:`~.errors.DecodeError` naming the line, byte offset and field, and split byte streams into
messages for the incremental readers.
"""

from __future__ import annotations

import datetime
import enum as enum_
import json
import math
import re
import sys
import typing
import uuid
from collections import deque
from collections.abc import Callable, Mapping
from functools import partial
from typing import Annotated, Any, Generic, TypeVar

import msgspec

from .errors import DecodeError, EncodeError

__all__ = [
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Timestamp",
    "DECODE_FAILURES",
    "MAX_DEPTH",
    "TOO_DEEP",
    "check_text",
    "deeper",
    "deeper_encode",
    "malformed_first",
    "roomy",
    "nesting",
    "as_bytes",
    "decode_error",
    "upper_hex_escapes",
    "LineFrames",
    "LineReader",
    "Reader",
    "Fast",
    "one_by_one",
    "Piece",
    "EndFrames",
    "split_lines",
    "strip_end_line",
    "PackedFrames",
    "PackedRun",
    "ENCODE_FAILURES",
    "MAX_NESTING",
    "Refusal",
    "check_keys",
    "check_written",
    "check_free",
    "finite",
    "non_finite",
    "FINITE_LEAVES",
    "check_bool",
    "check_bytes",
    "check_const",
    "check_entries",
    "check_enum",
    "check_float",
    "check_int",
    "check_items",
    "check_list",
    "check_map",
    "check_str",
    "check_timestamp",
    "check_uuid",
    "expected",
    "explain",
    "deeper_write",
    "kind",
    "refused",
]

Int8 = Annotated[int, msgspec.Meta(ge=-(2**7), le=2**7 - 1)]
Int16 = Annotated[int, msgspec.Meta(ge=-(2**15), le=2**15 - 1)]
Int32 = Annotated[int, msgspec.Meta(ge=-(2**31), le=2**31 - 1)]
Int64 = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
Timestamp = Annotated[datetime.datetime, msgspec.Meta(tz=True)]

M = TypeVar("M")

_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_BYTE = re.compile(r"\(byte (?P<offset>\d+)\)")
_MISSING = re.compile(r"missing required field `(?P<name>[^`]*)`")
_PACKED_MALFORMED = re.compile(r"^MessagePack data is malformed: ")
DECODE_FAILURES = (msgspec.DecodeError, UnicodeDecodeError, RecursionError)
"""What msgspec raises for input it cannot decode: its own errors, and for invalid UTF-8 in a string or deep
nesting, these two built-in ones."""

# ---------------------------------------------------------------- the JSON texts both codecs refuse alike
# The rules of the family's documented "strict text" (docs/definition-format.md), applied by the Java codec too:
# a message's text must be UTF-8 and hold no lone surrogate escape, wherever (RFC 8259 sections 8.1 and 8.2; no peer
# refuses either, msgspec only where it decodes a string); it may nest arrays and objects MAX_DEPTH deep, whatever
# the interpreter's stack; and a text that is not JSON is reported as malformed, whatever else is wrong with it.

MAX_DEPTH = 1000
"""The deepest nesting of arrays and objects a JSON message may have: Jackson's default limit
(``StreamReadConstraints``), which the KCL MultiLangDaemon, the CloudEvents Java SDK and the Java codec read with.
msgspec's own limit is the interpreter's recursion limit less the stack in use (below 1000 with Python's default
limit), so a deeper document fails there first and :func:`deeper` decides: refused when deeper than this, else
decoded again with room on the stack."""
TOO_DEEP = "malformed JSON: nested too deeply"
_ESCAPES = re.compile(
    rb"\\(?:u(?:[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|(?P<lone>[dD][89a-fA-F][0-9a-fA-F]{2})"
    rb"|[0-9a-fA-F]{4})|.)",
    re.S,
)
"""One escape (a backslash and what it takes): a surrogate pair, a lone surrogate (``lone``), another ``\\u``
escape, or a backslash and one character."""
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
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
            reason = f"malformed JSON: a string is not valid UTF-8 ({exc.reason})"
            raise error(reason, offset=exc.start, line=line) from None
    if _SURROGATE_ESCAPE.search(text) is not None:
        for escape in _ESCAPES.finditer(text, text.index(b"\\")):
            if escape.group("lone") is not None:
                written = escape.group().decode("ascii")
                reason = f"malformed JSON: a string is not valid Unicode (lone surrogate {written})"
                raise error(reason, offset=escape.start(), line=line)


def _plainly_strict(text: bytes, end: int) -> bool:
    """Whether every text in ``text[:end]`` passes :func:`check_text`, told by one pass over all of them: UTF-8
    throughout and no escape that may be a surrogate's (False: check each text, see :func:`check_text`)."""
    if not text.isascii():
        try:
            str(memoryview(text)[:end], "utf-8")
        except UnicodeDecodeError:
            return False
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


def deeper(text: bytes, error: type[DecodeError], line: int | None, again: Callable[[], M]) -> M:
    """After msgspec ran out of stack on ``text``: refused as nested too deeply when it nests deeper than
    :data:`MAX_DEPTH`, else ``again()`` with room for that depth on the stack."""
    if nesting(text) > MAX_DEPTH:
        raise error(TOO_DEEP, line=line)
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


def deeper_encode(again: Callable[[], bytes], error: type[EncodeError], field: str) -> bytes:
    """After msgspec ran out of stack writing a message: ``again()`` with room on the stack, refused (``error``,
    naming ``field``) when what it writes nests deeper than :data:`MAX_DEPTH` (which decoding refuses)."""
    try:
        data = roomy(again)
    except RecursionError:
        raise error(TOO_DEEP, field=field) from None
    if nesting(data) > MAX_DEPTH:
        raise error(TOO_DEEP, field=field)
    return data


def unbounded(text: bytes, error: type[DecodeError], line: int | None) -> None:
    """Refuses a text nested deeper than :data:`MAX_DEPTH` when the interpreter's recursion limit was raised above
    it (then msgspec would read it): what keeps the limit fixed in every interpreter."""
    if sys.getrecursionlimit() > MAX_DEPTH and nesting(text) > MAX_DEPTH:
        raise error(TOO_DEEP, line=line)


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
                return deep
            roomy(lambda: _RAW.decode(text))
    except msgspec.ValidationError:
        return exc
    except msgspec.DecodeError as syntax:
        return syntax
    return exc


_LOWER_HEX_ESCAPE = re.compile(rb"(?<!\\)((?:\\\\)*)\\u00([0-9a-f]{2})")


def upper_hex_escapes(data: bytes) -> bytes:
    """Write ``\\u00xx`` escapes with upper-case hex digits, as Jackson does (``\\\\u00xx`` text is left alone)."""
    return _LOWER_HEX_ESCAPE.sub(lambda m: m.group(1) + b"\\u00" + m.group(2).upper(), data)


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
) -> DecodeError:
    """Translate a msgspec error into ``error`` with the field path and byte offset it names.

    ``syntax`` names the encoding in the reason (``JSON`` or ``MessagePack``); ``at`` is the stream offset of the
    value, added to the offset msgspec names (and given alone when it names none).
    """
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
        text = f"malformed {syntax}: {_PACKED_MALFORMED.sub('', text)}"
    elif isinstance(exc, UnicodeDecodeError):
        text = f"malformed {syntax}: a string is not valid UTF-8 ({exc.reason})"
    elif isinstance(exc, RecursionError):
        text = f"malformed {syntax}: nested too deeply"
    return error(message or text, offset=offset, field=field, line=line)


def as_bytes(frame: bytes | bytearray | memoryview | str, error: type[DecodeError] = DecodeError) -> bytes:
    """A frame as bytes; text that cannot be UTF-8 (a lone surrogate) is the protocol's DecodeError."""
    if not isinstance(frame, str):
        return bytes(frame)
    try:
        return frame.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise error(f"text is not valid Unicode: {exc.reason}", offset=exc.start) from None


def strip_end_line(frame: bytes | str, error: type[DecodeError] = DecodeError) -> bytes:
    """The JSON text of one ``<json>\\nend\\n`` frame (the ``end`` line is optional here)."""
    data = as_bytes(frame, error)
    body = data.rstrip(b"\r\n")
    if body.endswith(b"\nend") or body == b"end":
        body = body[:-3]
    return body


EMPTY_MESSAGE = "empty message: an end line with no JSON before it"

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
            pieces.append((line, error(f"line longer than {max_message} bytes", line=line)))
        else:
            text = bytes(buffer[begin:newline])
            if text.strip():
                pieces.append((line, text))
        newline = buffer.find(b"\n", pos)
    del buffer[:pos]
    if skipping:
        buffer[:] = b""
    elif len(buffer) > max_message:
        pieces.append((line + 1, error(f"line longer than {max_message} bytes", line=line + 1)))
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
        if self._packed is not None:
            return self._packed.decode(data, self._packed_fast, self._packed_general)
        if isinstance(self._frames, LineFrames):
            return self._frames.decode(data, self._general)
        return self._frames.decode(data, self._fast, self._general)


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
        """Bytes received but not yet part of a whole message."""
        return len(self._buffer)

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
                    items[index] = item[4:] if len(item) > 3 else (self.error(EMPTY_MESSAGE, line=line + 1), 1)
                    self._cursor = (index, line)
                    raise self.error(EMPTY_MESSAGE, line=line)
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
        if b"\r" in whole:
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
            self._items.append((self.error(EMPTY_MESSAGE, line=self.line), 1))

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
                items.append((self.error(f"message longer than {self.max_message} bytes", line=line + 1), span))
            else:
                items.append(part)
            line += span
        return items

    def _check_limit(self) -> None:
        buffer = self._buffer
        if len(buffer) > self.max_message and not self._skipping:
            message = f"message longer than {self.max_message} bytes without an end line"
            self._items.append((self.error(message, line=self.line + 1), 0))
            self._skipping = True
        if self._skipping and len(buffer) > 6:
            self._dropped += buffer.count(b"\n", 0, len(buffer) - 6)
            del buffer[: len(buffer) - 6]  # keep enough to recognise an end line cut in two


_RAW_VALUES = msgspec.msgpack.Decoder(list[msgspec.Raw])
_SKIP_VALUES = msgspec.msgpack.Decoder(msgspec.Raw)  # checks a value's structure, builds nothing
_TRAILING = re.compile(r"trailing characters \(byte (?P<offset>\d+)\)")
_TRUNCATED = "Input data was truncated"
_ARRAY32 = b"\xdd"  # array 32: a 4-byte count follows
_HEAD = 5  # bytes of an array 32 header
_RUN_REFUSED = (*DECODE_FAILURES, TypeError)


def _value_heads() -> list[tuple[int, int, int, int]]:
    """For each first byte of a MessagePack value: (bytes before any length, bytes of the length, bytes after it
    besides the counted ones, items it opens); a length of 0 bytes means a fixed size; ``(0, 0, 0, -1)`` marks
    the byte that is never used (0xc1)."""
    heads = [(1, 0, 0, 0)] * 256  # fixints, nil, false, true
    for b in range(0x80, 0x90):
        heads[b] = (1, 0, 0, 2 * (b & 0x0F))  # fixmap: a key and a value per entry
    for b in range(0x90, 0xA0):
        heads[b] = (1, 0, 0, b & 0x0F)  # fixarray
    for b in range(0xA0, 0xC0):
        heads[b] = (1 + (b & 0x1F), 0, 0, 0)  # fixstr
    heads[0xC1] = (0, 0, 0, -1)
    for b, width in ((0xC4, 1), (0xC5, 2), (0xC6, 4), (0xD9, 1), (0xDA, 2), (0xDB, 4)):
        heads[b] = (1, width, 0, 0)  # bin, str: the length counts the bytes that follow it
    for b, width in ((0xC7, 1), (0xC8, 2), (0xC9, 4)):
        heads[b] = (1, width, 1, 0)  # ext: a type byte, then the counted bytes
    for b, size in ((0xCA, 5), (0xCB, 9), (0xCC, 2), (0xCD, 3), (0xCE, 5), (0xCF, 9), (0xD0, 2), (0xD1, 3)):
        heads[b] = (size, 0, 0, 0)  # floats and integers
    for b, size in ((0xD2, 5), (0xD3, 9), (0xD4, 3), (0xD5, 4), (0xD6, 6), (0xD7, 10), (0xD8, 18)):
        heads[b] = (size, 0, 0, 0)  # integers, fixext
    for b, width, per in ((0xDC, 2, 1), (0xDD, 4, 1), (0xDE, 2, 2), (0xDF, 4, 2)):
        heads[b] = (1, width, 0, -1 - per)  # array 16/32, map 16/32: the length counts items (a map's twice)
    return heads


_VALUE_HEADS = _value_heads()


class PackedRun(typing.NamedTuple):
    """What a run of MessagePack values of one direction may be decoded as in one pass (see :class:`PackedFrames`).

    ``tagged`` decodes an array of the direction's tagged messages, ``base`` an array of its catch-all shape (each
    None when there is none); ``needles`` are bytes found in every value the general path would not read as
    ``base`` although it has its keys, so a run holding none of them is all ``base``.
    """

    tagged: msgspec.msgpack.Decoder[Any] | None
    base: msgspec.msgpack.Decoder[Any] | None
    needles: tuple[bytes, ...]


class _Batch:
    """Messages decoded from a run of whole values in one pass, and the bytes they took."""

    __slots__ = ("messages", "size")

    def __init__(self, messages: list[Any], size: int) -> None:
        self.messages = messages
        self.size = size


class PackedFrames:
    """Reads a byte stream of MessagePack values written back to back (no delimiter: each value delimits itself).

    The values are found by C passes over the bytes: the buffer behind a MessagePack array header claiming ``n``
    values (written in place, in the 5 bytes before them) is read as ``n`` raw values, and msgspec either reads
    exactly them, or names the byte where the ``n``-th value ended (more follow), or runs out of input (fewer are
    complete). The count is guessed from the sizes seen so far, so a stream of similar messages takes about two
    passes. A value cut anywhere waits for its rest: its structure is followed as it arrives (each byte of it is
    looked at once), so reading costs linear time however the stream is cut.

    ``run`` (a :class:`PackedRun`) decodes a run of whole values in one pass when they are all common ones: then
    no value costs a Python call of its own. Otherwise each value is decoded on its own (``fast``, then
    ``general``).

    A well-formed value that is not a valid message raises its DecodeError and reading goes on after it. Bytes
    that are not MessagePack, or a value longer than ``max_message``, leave no way to find where the next value
    starts: that error is raised, and so is every later call (the stream cannot be resynchronised). Memory: the
    buffer holds at most one incomplete value (up to ``max_message`` bytes) and the last ``feed``'s data.
    """

    def __init__(self, max_message: int, error: type[DecodeError], run: PackedRun | None = None) -> None:
        self.max_message = max_message
        self.error = error
        self.offset = 0
        """Bytes of whole values cut out of the stream so far."""
        self._run = run
        self._buffer = bytearray(_HEAD)  # the header's place, then the bytes not yet cut out
        self._average = 64  # bytes per value, for the next guess
        self._broken: DecodeError | None = None
        self._items: list[Any] = []  # raw values, batches, or (the error to raise, its size)
        self._next = 0  # index of the first item not handed out yet
        self._runs: list[tuple[int, int]] = []  # (index of an item, its stream offset): where each run of items starts
        self._hint = False
        self._base_first = False  # which kind of run to try first (streams come in runs of one kind)
        self._waiting = False  # the buffer starts with an incomplete value, followed as far as ``_scan_at``
        self._scan_at = 0  # where following it goes on (relative to the buffer's start)
        self._open: list[int] | None = []  # items still to come in each container it is inside

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole value."""
        return len(self._buffer) - _HEAD

    def offset_of(self, index: int) -> int:
        """The stream offset where item ``index`` starts (worked out when asked: errors and the general path)."""
        first, offset = next(run for run in reversed(self._runs) if run[0] <= index)
        for item in self._items[first:index]:
            offset += item[1] if isinstance(item, tuple) else item.size if type(item) is _Batch else len(item)
        return offset

    def decode(
        self,
        data: bytes | bytearray | memoryview,
        fast: Callable[[list[Any], int, list[Any], bool], tuple[int, bool]],
        general: Callable[[Any, int], Any],
    ) -> list[Any]:
        """Every message ``data`` completes (as :meth:`EndFrames.decode`, ``general`` gets a stream offset)."""
        self._cut(data)
        items = self._items
        index = self._next
        end = len(items)
        if end - index == 1 and type(items[index]) is _Batch:  # the common case: one run, all common messages
            self._next = end
            return items[index].messages  # type: ignore[no-any-return]
        messages: list[Any] = []
        try:
            while index < end:
                item = items[index]
                if type(item) is not _Batch:
                    index, self._hint = fast(items, index, messages, self._hint)  # stops at a batch (not bytes)
                    if index >= end:
                        break
                    item = items[index]
                index += 1  # where reading resumes, also after an error
                if type(item) is _Batch:
                    messages += item.messages
                elif isinstance(item, tuple):
                    raise item[0]
                else:
                    messages.append(general(item, self.offset_of(index - 1)))
        except DecodeError as exc:
            exc.decoded = messages
            self._next = index
            raise
        self._next = index
        return messages

    def _cut(self, data: bytes | bytearray | memoryview) -> None:
        if self._next == len(self._items):  # everything handed out: start afresh
            self._items = []
            self._runs = []
            self._next = 0
        if self._broken is not None:
            self._runs.append((len(self._items), self.offset))
            self._items.append((self._broken, 0))
            return
        buffer = self._buffer
        buffer += data
        size = len(buffer)
        pos = _HEAD
        if self._waiting:
            if not self._follow(buffer, size):
                self._check_limit()
                return
            # Complete at ``_scan_at`` (when followed to its end): msgspec checks that one value alone.
            limit = size if self._open is None else self._scan_at
            found, count, used = self._values(buffer, pos, limit, 1)
            if found:
                message = f"malformed MessagePack: {found} (the stream cannot be resynchronised)"
                self._break(self.error(message, offset=self.offset + used))
                return
            if count:
                self._take(buffer, pos, count, used)
                self.offset += used
                pos += used
        while pos < size:
            # The whole values from ``pos`` on, found in a few passes (each a C scan) and then taken in one run.
            start, total, found, count = pos, 0, "", 0
            while pos < size and pos - start <= self.max_message:
                saved = buffer[pos - _HEAD : pos]  # a pass's header goes there: the end of the values found before
                found, count, used = self._values(buffer, pos, size)
                buffer[pos - _HEAD : pos] = saved
                if found or not count:
                    break
                total += count
                pos += used
                self._average = max(1, used // count)
            if total:
                buffer[start - _HEAD : start] = _ARRAY32 + total.to_bytes(4, "big")
                self._take(buffer, start, total, pos - start)
                self.offset += pos - start
            if found:  # not MessagePack at ``pos + used``
                message = f"malformed MessagePack: {found} (the stream cannot be resynchronised)"
                self._break(self.error(message, offset=self.offset + used))
                return
            if not count:  # the value at ``pos`` is incomplete: follow it as it arrives
                del buffer[_HEAD:pos]
                self._waiting = True
                self._scan_at = _HEAD
                self._open = []
                if self._follow(buffer, len(buffer)):  # msgspec found it cut: it decides, each time
                    self._open = None
                self._check_limit()
                return
        del buffer[_HEAD:pos]
        self._waiting = False

    def _take(self, buffer: bytearray, pos: int, count: int, used: int) -> None:
        """Turn the ``count`` whole values at ``buffer[pos:pos + used]`` (an array header before them) into items."""
        self._runs.append((len(self._items), self.offset))
        run = self._run
        if run is not None and used <= self.max_message:  # none of them can be too long
            with memoryview(buffer) as view, view[pos - _HEAD : pos + used] as values:
                decoded = self._decode_run(run, values, buffer, pos, pos + used)
            if decoded is not None:
                self._items.append(_Batch(decoded, used))
                return
        raws = _RAW_VALUES.decode(bytes(buffer[pos - _HEAD : pos + used]))  # Raw values hold their bytes
        if used <= self.max_message:
            self._items += raws
            return
        start = self.offset
        for raw in raws:
            length = len(raw)
            if length > self.max_message:
                message = f"message longer than {self.max_message} bytes"
                self._items.append((self.error(message, offset=start), length))
            else:
                self._items.append(raw)
            start += length

    def _decode_run(self, run: PackedRun, values: memoryview, buffer: bytearray, start: int, end: int) -> Any:
        """The messages of an array of whole values when all are common ones (decoded in one pass), else None; it
        answers only when decoding the values one by one would give the same messages."""
        for base in (self._base_first, not self._base_first):
            if not base:
                if run.tagged is not None:
                    try:
                        decoded = run.tagged.decode(values)
                        self._base_first = False
                        return decoded
                    except _RUN_REFUSED:
                        pass
            elif run.base is not None and all(buffer.find(needle, start, end) < 0 for needle in run.needles):
                try:
                    decoded = run.base.decode(values)
                    self._base_first = True
                    return decoded
                except _RUN_REFUSED:
                    pass
        return None

    def _follow(self, buffer: bytearray, size: int) -> bool:
        """Follow the incomplete value at the buffer's start over the bytes that came since; whether it is complete
        (or holds a byte that is not MessagePack, which msgspec will name)."""
        open_ = self._open
        if open_ is None:  # (never seen: the value's structure and msgspec disagree)
            return True
        heads = _VALUE_HEADS
        at = self._scan_at
        while at < size:
            fixed, width, extra, items = heads[buffer[at]]
            if items == -1:
                return True  # not MessagePack: msgspec says so
            if width:
                if size - at < fixed + width:
                    break
                length = int.from_bytes(buffer[at + fixed : at + fixed + width], "big")
                if items < 0:  # array 16/32, map 16/32
                    items = -(items + 1) * length
                    step = fixed + width
                else:
                    step = fixed + width + extra + length
            else:
                step = fixed
            if items:  # a container: its items follow
                at += step
                open_.append(items)
                continue
            if size - at < step:
                break
            at += step
            while open_:  # the item is done: so is every container it completes
                open_[-1] -= 1
                if open_[-1]:
                    break
                open_.pop()
            if not open_:
                self._scan_at = at
                return True
        self._scan_at = at
        return False

    def _check_limit(self) -> None:
        if len(self._buffer) - _HEAD > self.max_message and self._broken is None:
            message = f"message longer than {self.max_message} bytes (the stream cannot be resynchronised)"
            self._break(self.error(message, offset=self.offset))

    def _break(self, error: DecodeError) -> None:
        self._broken = error
        del self._buffer[_HEAD:]
        self._runs.append((len(self._items), self.offset))
        self._items.append((error, 0))

    def _values(self, buffer: bytearray, pos: int, size: int, guess: int = 0) -> tuple[str, int, int]:
        """The complete values at ``buffer[pos:size]``: ("", their count, their size), with an array header for them
        written in the 5 bytes before ``pos``.

        For bytes that are not MessagePack: the reason, 0 and the offset of the bad byte (relative to ``pos``).
        The count is 0 when the first value is incomplete.
        """
        # A little low: a guess too high costs a pass and halves, one too low reads the rest next time round.
        guess = guess or max(1, (size - pos) // self._average * 7 // 8)
        with memoryview(buffer) as view, view[pos - _HEAD : size] as values:
            try:
                while True:
                    buffer[pos - _HEAD : pos] = _ARRAY32 + guess.to_bytes(4, "big")
                    try:
                        _SKIP_VALUES.decode(values)  # (the Raw it returns is dropped at once, and its hold on values)
                        return "", guess, size - pos
                    except msgspec.DecodeError as exc:
                        text = str(exc)
                        match = _TRAILING.search(text)
                        if match:  # ``guess`` values end where msgspec stopped: exactly them
                            return "", guess, int(match.group("offset")) - _HEAD
                        if guess > 1:  # fewer values are complete (or bad bytes follow some)
                            guess //= 2
                            continue
                        if text == _TRUNCATED:
                            return "", 0, 0
                        bad = _BYTE.search(text)
                        reason = _PACKED_MALFORMED.sub("", text[: bad.start()] if bad else text).strip()
                        return reason, 0, max(0, int(bad.group("offset")) - _HEAD) if bad else 0
            except RecursionError:
                return "nested too deeply", 0, 0


# --- encoding: the checks a message passes before it is serialized once ---------------------------------------------
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
    return Refusal(f"Expected `{what}{' | null' if nullable else ''}`, got `{kind(value)}`", key)


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
        raise Refusal(f"Expected `int` <= {high}", key)
    if value < low:
        raise Refusal(f"Expected `int` >= {low}", key)


def check_float(value: Any, key: str | None, nullable: bool, packed: bool) -> None:
    if isinstance(value, float):
        if not packed and not math.isfinite(value):  # JSON has no NaN or infinity (msgspec would write null)
            raise Refusal(f"Expected `float`, got `{_float_text(value)}`", key)
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
        return "Expected `datetime` with a timezone component"
    if not packed and (offset.microseconds or offset.seconds % 60):  # (MessagePack writes the instant)
        return f"has a UTC offset with seconds ({offset}), which RFC 3339 cannot write"
    return None


def check_timestamp(value: Any, key: str | None, nullable: bool, packed: bool) -> None:
    if not isinstance(value, datetime.datetime):
        raise expected("datetime", value, key, nullable)
    problem = _timestamp_problem(value, packed)
    if problem:
        raise Refusal(problem, key)


def check_enum(value: Any, key: str | None, nullable: bool, enum: type[enum_.Enum]) -> None:
    """A member of another class, or a plain value, equal to one of the enum's values is written as that value and
    read back as the member, which equals it; any other value is not (an unknown one would read as another)."""
    text = issubclass(enum, str)
    if isinstance(value, str) if text else isinstance(value, int) and not isinstance(value, bool):
        if value not in enum._value2member_map_:
            raise Refusal(f"Invalid enum value {value!r}" if text else f"Invalid enum value {int(value)}", key)
        return
    raise expected("str" if text else "int", value, key, nullable)


def check_const(value: Any, key: str | None, const: str | int) -> None:
    """A constant field: its value, of its type (a bool is not an int here: JSON writes it as true)."""
    same_kind = isinstance(value, type(const)) and not (isinstance(value, bool) and not isinstance(const, bool))
    if same_kind and value == const:
        return
    if same_kind or value is msgspec.UNSET:
        raise Refusal(f"Invalid enum value {value!r}", key)
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


def check_written(message: Any, data: bytes, packed: bool) -> None:
    """What only the written bytes of a message holding free-form values show: nesting deeper than decode reads.
    A cheap test of the bytes first (fewer brackets, or bytes, than the limit), the message walked only when it
    does not settle it."""
    if packed:
        deep = len(data) >= MAX_NESTING  # (each level takes a byte at least)
    else:
        deep = len(data) >= MAX_NESTING and data.count(b"[") + data.count(b"{") >= MAX_NESTING
    if deep:
        if _walk(message, _no_problem, 0) is not None:
            raise Refusal(TOO_DEEP)


FINITE_LEAVES = frozenset({str, int, bool, _NONE})
"""Classes of free-form values that hold no float."""


def finite(value: Any) -> bool:
    """Whether a free-form value holds no NaN or infinity anywhere (which JSON cannot carry: msgspec would write
    null), in a quick walk; :func:`non_finite` says where when it does."""
    return not _has_non_finite(value)


def check_free(value: Any, key: str | None, packed: bool) -> None:
    """A free-form value that is not a plain str, int, bool or None: not absent (msgspec.UNSET is not written), and
    in JSON, no NaN or infinity anywhere in it."""
    if value is msgspec.UNSET:
        raise Refusal("Expected a value, got `UNSET`", key)
    if not packed and not finite(value):
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
    if kind in _LEAVES:
        return False
    if kind is list or kind is tuple:
        for item in value:
            if type(item) is float:
                if item - item != 0.0:
                    return True
            elif type(item) not in _LEAVES and _has_non_finite(item):
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
        return Refusal(f"Expected `float`, got `{_float_text(value)}`")
    return None


def _no_problem(value: Any) -> Refusal | None:
    return None


_LEAVES = frozenset({str, int, float, bool, _NONE, bytes})
_STRUCT_META = type(msgspec.Struct)  # (isinstance(value, msgspec.Struct) costs a call into its metaclass)


def _walk(value: Any, problem: Callable[[Any], Refusal | None], depth: int) -> Refusal | None:
    """The first problem of a value or anything it holds, with its path (a struct's fields by their wire names),
    and nesting deeper than :data:`MAX_NESTING` (a message's own object being level 1)."""
    kind = type(value)
    if kind in _LEAVES:
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
        raise error(TOO_DEEP, field=type(message).__name__) from None
    except ENCODE_FAILURES as exc:
        failure = exc
    raise refused(error, message, roomy(lambda: explain(message, failure, packed))) from None


def explain(message: Any, failure: Exception, packed: bool) -> Refusal:
    """Where in a checked message the serializer failed (``failure``), for what only it finds: a str holding a
    lone surrogate, an integer too long to write as text or out of MessagePack's range, a value msgspec cannot
    write at all, nesting it cannot follow; the failure itself, for the whole message, when no one value is."""
    encode = _PACKED_ENCODE if packed else _JSON_ENCODE

    def unwritable(value: Any) -> Refusal | None:
        try:
            encode(value)
        except UnicodeEncodeError as exc:
            return Refusal(f"str is not valid UTF-8 ({exc.reason})")
        except (TypeError, ValueError, OverflowError) as exc:
            return Refusal(str(exc))
        return None

    found = _walk(message, unwritable, 0)
    return found if found is not None else Refusal(str(failure))
