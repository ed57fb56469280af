# Copied from streamcodecs_gen/py_package/spark/_stream.py by ./generator.py; edit that file, not this copy.
"""Inline frames out of the pieces of a stream: the reader behind ``split_inline`` and ``explode_inline`` of the
binary family's Spark modules (``_inline``), in plain Python.

A protocol's inline frames are its ``inline_only`` messages: frames with the protocol's own header (a type code,
then the payload's length) that only ever live back to back inside other frames' data. :class:`InlineFrames` holds
the codec's rules for them (one for every Python path: the Spark functions and the codec's companions read
inline frames by the same rule, in the same words); a :class:`Stream` reads them out of consecutive pieces of one
stream, cut anywhere, and says what Spark's state store keeps of it between micro-batches (``saved``, ``packed``).
"""

from __future__ import annotations

import struct
from typing import Any

from .._runtime import messages as _m
from .._runtime.errors import DecodeError
from .._runtime.frames import Codec
from ._arrow import reason

__all__ = ["Found", "Gathering", "InlineFrames", "Stream", "packed", "unpacked"]

Found = tuple[int, Any, str | None]
"""A frame read from a stream: its stream offset, then its message (or its bytes, :class:`Gathering`) and None, or
None and its problem."""


class InlineFrames:
    """A protocol's inline frames as its codec reads them (``frames``, the generated module's ``_frames.Codec``): the
    frame ``header`` (type code, payload length), the largest frame (``max_frame``, header included), the codec's rule
    for an inline frame's header and its reader of one, and its ``DecodeError``."""

    __slots__ = ("codec", "error", "header", "max_frame")

    def __init__(self, frames: Codec[Any]) -> None:
        self.codec = frames
        self.header = frames.header
        self.max_frame = frames.max_frame
        self.error: type[DecodeError] = frames.decode_error

    def frame(self, view: Any, start: int, end: int, at: int) -> Found:
        """The inline frame in ``view[start:end]`` (its header checked), which starts at stream offset ``at``."""
        try:
            return at, self.codec.decode_inline(view, start, end), None
        except self.error as exc:
            return at, None, reason(self.error(exc.reason, offset=at + (exc.offset or 0) - start, field=exc.field))

    def header_problem(self, code: int, length: int, at: int) -> str | None:
        """The codec's problem with a frame header at stream offset ``at``, or None."""
        found = self.codec.inline_problem(code, length)
        return None if found is None else self.problem(found[0], at + found[1])

    def problem(self, text: str, offset: int) -> str:
        """A problem of the stream at ``offset``, worded as the codec's DecodeError (without the protocol's name)."""
        return reason(self.error(text, offset=offset))


class Stream:
    """Inline frames out of consecutive pieces of one stream: ``feed`` each piece with its stream offset; frames
    come out with their offset, or a problem. A frame cut across pieces is gathered as its bytes arrive; a bad
    header makes the rest of the stream unreadable (each later piece gets one problem), a piece that does not
    continue where the last stopped starts over there. A stream made with a ``start`` offset begins there; without
    one, at its first piece."""

    def __init__(self, frames: InlineFrames, start: int | None = None) -> None:
        self.frames = frames
        self.offset: int | None = start  # stream offset of the next frame's first byte
        self.pending = bytearray()  # the start of a frame cut at the end of the last piece
        self.need = frames.header.size  # the pending frame's whole size, once its header is in
        self.broken: str | None = None  # why the stream cannot be read any further

    def _frame(self, view: Any, start: int, end: int, at: int) -> Found:
        return self.frames.frame(view, start, end, at)

    def saved(self) -> tuple[int | None, bytes, str | None]:
        """What the state store keeps of this stream between micro-batches (``_inline.STATE``)."""
        return self.offset, bytes(self.pending), self.broken

    def restore(self, saved: Any) -> None:
        """Continue where ``saved`` (a ``_inline.STATE`` row) stopped."""
        header = self.frames.header
        self.offset, pending, self.broken = saved[0], saved[1], saved[2]
        self.pending = bytearray(pending or b"")
        self.need = header.size
        if len(self.pending) >= header.size:
            self.need += header.unpack_from(self.pending, 0)[1]

    def take(self, pieces: list[tuple[int, bytes]], *, wait: bool) -> tuple[list[Found], list[tuple[int, bytes]]]:
        """``feed`` these pieces in offset order; with ``wait``, the pieces after a gap (the first starts beyond
        where the stream stopped) are not fed but returned, to wait for the missing piece in a later micro-batch,
        unless more than ``max_frame`` bytes would wait: then the gap is a problem, as without ``wait``."""
        out: list[Found] = []
        pieces = sorted(pieces, key=lambda piece: piece[0])
        waiting = sum(len(data) for _, data in pieces)
        for i, (offset, data) in enumerate(pieces):
            ahead = self.offset is not None and offset > self.offset + len(self.pending)
            if wait and ahead and waiting <= self.frames.max_frame:
                return out, pieces[i:]
            out += self.feed(offset, data)
            waiting -= len(data)
        return out, []

    def feed(self, offset: int, data: bytes) -> list[Found]:
        out: list[Found] = []
        header = self.frames.header
        if self.offset is None:
            self.offset = offset
        expected = self.offset + len(self.pending)
        if offset != expected:
            lost = f", losing the {len(self.pending)} bytes of a cut frame" if self.pending else ""
            out.append((offset, None, f"data for offset {offset}, expected {expected}{lost}"))
            self.offset, self.pending, self.need, self.broken = offset, bytearray(), header.size, None
        if self.broken is not None:
            out.append((offset, None, f"not read: {self.broken}"))
            self.offset = offset + len(data)
            return out
        with memoryview(data) as view:
            size, pos = len(view), 0
            if self.pending:
                pos = self._take(view, 0, out)
                if self.broken is not None or len(self.pending) < self.need:
                    return out
                with memoryview(self.pending) as whole:
                    out.append(self._frame(whole, 0, len(whole), self.offset))
                self.offset += len(self.pending)
                self.pending, self.need = bytearray(), header.size
            while size - pos >= header.size:
                code, length = header.unpack_from(view, pos)
                problem = self.frames.header_problem(code, length, self.offset)
                if problem is not None:
                    return self._break(problem, offset + size, out)
                end = pos + header.size + length
                if end > size:
                    break
                out.append(self._frame(view, pos, end, self.offset))
                self.offset += end - pos
                pos = end
            if pos < size:
                self._take(view, pos, out)
        return out

    def _take(self, view: memoryview, pos: int, out: list[Found]) -> int:
        """Add to the cut frame the bytes it still lacks from ``view[pos:]``; return the new position."""
        header = self.frames.header
        pending = self.pending
        if len(pending) < header.size:
            more = min(header.size - len(pending), len(view) - pos)
            pending += view[pos : pos + more]
            pos += more
            if len(pending) < header.size:
                return pos
            code, length = header.unpack_from(pending, 0)
            assert self.offset is not None
            problem = self.frames.header_problem(code, length, self.offset)
            if problem is not None:
                self._break(problem, self.offset + len(pending) + len(view) - pos, out)
                return len(view)
            self.need = header.size + length
        more = min(self.need - len(pending), len(view) - pos)
        pending += view[pos : pos + more]
        return pos + more

    def _break(self, problem: str, end: int, out: list[Found]) -> list[Found]:
        assert self.offset is not None
        out.append((self.offset, None, problem))
        self.broken = f"the stream is unreadable after the bad frame header at offset {self.offset}"
        self.offset, self.pending, self.need = end, bytearray(), self.frames.header.size
        return out

    def finish(self) -> list[Found]:
        """The end of the stream: a problem if it ends inside a frame."""
        if not self.pending or self.broken is not None:
            return []
        assert self.offset is not None
        problem = _m.ends_inside_frame(left=len(self.pending), need=self.need)
        return [(self.offset, None, self.frames.problem(problem, self.offset))]


class Gathering(Stream):
    """A :class:`Stream` whose frames come out as their bytes, each decoded later on its own (``frames.frame``)."""

    def _frame(self, view: Any, start: int, end: int, at: int) -> Found:
        return at, bytes(view[start:end]), None


_WAITING = struct.Struct(">qI")
"""A waiting piece in the state's ``waiting``: its stream offset and size, then its bytes."""


def packed(pieces: list[tuple[int, bytes]]) -> bytes:
    """Pieces waiting behind a gap as the state store keeps them (one binary value)."""
    return b"".join(_WAITING.pack(at, len(value)) + value for at, value in pieces)


def unpacked(packed: bytes | None) -> list[tuple[int, bytes]]:
    """The pieces of a :func:`packed` value."""
    pieces, pos = [], 0
    while packed and pos < len(packed):
        at, size = _WAITING.unpack_from(packed, pos)
        pos += _WAITING.size
        pieces.append((at, bytes(packed[pos : pos + size])))
        pos += size
    return pieces
