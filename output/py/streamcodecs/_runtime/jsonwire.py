# Copied from streamcodecs_gen/py_package/_runtime/jsonwire.py by ./generator.py; edit that file, not this copy.
"""The JSON wire family's streams (JSON lines, and JSON followed by an ``end`` line; the MessagePack variant's is
``jsonpacked``): a frame as bytes (:func:`as_bytes`, :func:`strip_end_line`) and a byte stream cut into messages
and decoded for the incremental readers (:class:`LineFrames`, :class:`EndFrames`, :class:`LineReader`,
:class:`Reader`).

Its neighbours, one concern each: ``jsontext`` (the texts both codecs refuse alike: strict text, nesting),
``jsonfailures`` (msgspec's failures as the protocol's DecodeError) and ``jsonplaces`` (where in a text a refusal
is). This module also gives their names (and the JSON wire types) under the one path that generated code and users
import: ``_runtime.jsonwire``.
"""

from __future__ import annotations

import sys
import typing
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any, Generic, TypeVar

from .errors import DecodeError, byte_buffer, check_bytes
from .jsonfailures import DECODE_FAILURES, PACKED_TOO_DEEP, decode_error
from .jsonplaces import located, member_at, tag_again_at, telling_failure, value_at
from .jsontext import (
    _plainly_strict,
    check_text,
    deeper,
    malformed_first,
    nesting,
    roomy,
    syntax_before_too_deep,
    too_deep,
    too_deep_at,
    unbounded,
)
from .messages import EMPTY_MESSAGE, MAX_DEPTH, TOO_DEEP, too_long
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
    "unbounded",
    "as_bytes",
    "decode_error",
    "located",
    "member_at",
    "value_at",
    "tag_again_at",
    "telling_failure",
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
            data = byte_buffer(data, "feed")
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
            data = byte_buffer(data, "feed")
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
