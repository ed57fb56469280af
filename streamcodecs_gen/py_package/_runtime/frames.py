"""The module contract of a binary protocol: ``decode``, ``encode``, ``encode_inline`` and ``Reader``.

What is the same for every protocol of the binary family, written once. A protocol's generated ``messages`` module
builds one :class:`Codec` at import from its tables (a reader per type code, a writer per message class, the frame
header's ``struct.Struct``, ...) and exports the codec's bound methods as its functions, and a ``Reader`` subclass
naming the codec. The frame is a fixed header (a type code, then the payload's length) and the payload.

The hot paths stay one Python call per frame: ``decode`` and ``encode`` are closures over the tables (a free
variable reads as fast as a module's global), and ``Reader.feed`` copies the tables into locals once per call.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from . import messages as _m
from .binary import Buffer, Parts, as_view, owned
from .errors import DecodeError, EncodeError, byte_buffer, check_bytes

__all__ = ["Codec", "Decode", "Reader"]

M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)

ReadFn = Callable[[Buffer, int, int], tuple[Any, int]]
WriteFn = Callable[[Any, Parts], None]
FrameFn = Callable[[Any], bytes | None]
"""A message's whole frame written at once, or None for a case its writer decides (a payload that is not bytes)."""


class Decode(Protocol[M_co]):
    """The signature of a protocol's ``decode``."""

    def __call__(self, frame: Buffer, *, direction: str | None = None, copy: bool = True) -> M_co: ...


class Codec(Generic[M]):
    """A binary protocol's frames, from the tables of its generated module: ``decode``, ``encode`` and
    ``encode_inline`` are plain functions (closures over the tables), which the module exports as its own."""

    def __init__(
        self,
        *,
        protocol: str,
        header: struct.Struct,
        max_frame: int,
        directions: tuple[str, ...],
        readers: Mapping[int, ReadFn],
        frames: Mapping[type, FrameFn],
        inline_frames: Mapping[type, FrameFn],
        writers: Mapping[type, WriteFn],
        inline_writers: Mapping[type, WriteFn],
        holds_views: frozenset[type],
        inline_only: Mapping[int, str],
        inline_readers: Mapping[int, ReadFn],
        codes_by_direction: Mapping[str, frozenset[int]],
        decode_error: type[DecodeError],
        encode_error: type[EncodeError],
    ) -> None:
        header_size = header.size
        unpack_from = header.unpack_from
        pack = header.pack

        def check_direction(direction: str | None) -> None:
            if direction is not None and direction not in codes_by_direction:
                raise ValueError(_m.unknown_direction(direction=repr(direction), directions=directions))

        def decode_payload(buf: Buffer, code: int, pos: int, end: int, direction: str | None) -> M:
            reader = readers.get(code)
            if reader is None:
                if code in inline_only:
                    problem = _m.never_top_level(name=inline_only[code], code=code)
                    raise decode_error(problem, offset=pos - header_size)
                raise decode_error(_m.unknown_type_code(code=code), offset=pos - header_size)
            if direction is not None and code not in codes_by_direction[direction]:
                raise decode_error(_m.not_in_direction(code=code, direction=repr(direction)), offset=pos - header_size)
            message, _ = reader(buf, pos, end)  # unknown trailing bytes (a newer peer's fields) are skipped
            return message  # type: ignore[no-any-return]

        inline_names = ", ".join(inline_only.values())

        def inline_problem(code: int, length: int) -> tuple[str, int] | None:
            """What is wrong with the header (type code, payload length) of a frame that lives inside other data,
            and where in the header: None for an inline message's header whose whole frame fits ``max_frame``."""
            if code not in inline_readers:
                return _m.not_inline(code=code, names=inline_names), 0
            if length < 0 or length + header_size > max_frame:
                return _m.payload_outside(length=length, limit=max_frame - header_size), 4
            return None

        def decode_inline(buf: Buffer, start: int, end: int) -> M:
            """The message of the inline frame ``buf[start:end]``, whose header :func:`inline_problem` accepted
            (a payload longer than its message's fields is read as a newer peer's)."""
            code = unpack_from(buf, start)[0]
            return inline_readers[code](buf, start + header_size, end)[0]  # type: ignore[no-any-return]

        def frame_end(length: int, pos: int, max_frame: int) -> int:
            if length < 0 or length + header_size > max_frame:
                raise decode_error(_m.payload_outside(length=length, limit=max_frame - header_size), offset=pos + 4)
            return pos + header_size + length

        def decode(frame: Buffer, *, direction: str | None = None, copy: bool = True) -> M:
            """Decode exactly one whole frame (header included).

            Payloads are ``bytes`` of their own; with ``copy=False`` they are read-only memoryviews onto ``frame``
            instead (no copy: mind the rules in the module's docstring).
            """
            if type(frame) is not bytes:
                frame = byte_buffer(frame, "decode")
            try:
                code, length = unpack_from(frame, 0)
            except (struct.error, TypeError):  # shorter than the header, or not bytes at all
                check_bytes(frame, "decode")
                check_direction(direction)
                raise decode_error(_m.shorter_than_header(size=len(frame), header=header_size), offset=0) from None
            size = len(frame)
            reader = readers.get(code)
            if (
                length + header_size != size
                or size > max_frame
                or reader is None
                or direction is not None
                or type(frame) is memoryview
            ):
                # Everything but the common case: a whole frame of a known top-level type, no direction, no view.
                check_direction(direction)
                end = frame_end(length, 0, max_frame)
                if end > size:
                    raise decode_error(_m.payload_past_given(length=length, given=size - header_size), offset=4)
                if end < size:
                    raise decode_error(_m.bytes_follow(count=size - end), offset=end)
                if copy:
                    message = decode_payload(frame, code, header_size, end, direction)
                    # payloads copied into bytes where they are views onto ``frame`` (a memoryview)
                    return owned(message) if type(frame) is memoryview and type(message) in holds_views else message
                return decode_payload(as_view(frame), code, header_size, end, direction)
            # Payloads are sliced out of bytes (copies) or out of a memoryview (views).
            return reader(frame if copy else memoryview(frame), header_size, size)[0]  # type: ignore[no-any-return]

        def encode(message: M) -> bytes:
            """The whole frame, header included, in the newest layout."""
            writer = writers.get(type(message))
            if writer is None:
                frame = frames.get(type(message))
                if frame is None:
                    if type(message) in inline_writers:
                        raise encode_error(_m.never_sent_top_level(name=type(message).__name__))
                    raise encode_error(_m.not_a_message(what=f"{protocol} message", kind=type(message).__name__))
                data = frame(message)
                if data is not None and len(data) <= max_frame:
                    return data
                writer = inline_writers[type(message)]  # the writer decides: it writes the frame or refuses it
            parts: Parts = [b""]  # the header's place
            writer(message, parts)
            length = sum(map(len, parts))
            if length + header_size > max_frame:
                raise encode_error(_m.frame_too_long(size=length + header_size, limit=max_frame))
            parts[0] = pack(message.CODE, length)  # type: ignore[attr-defined]
            return b"".join(parts)

        def encode_inline(message: M) -> bytes:
            """Encode any message, including those that are never top-level frames (they live inside other data)."""
            frame = inline_frames.get(type(message))
            if frame is not None:
                data = frame(message)
                if data is not None:
                    return data
            writer = inline_writers.get(type(message))
            if writer is None:
                raise encode_error(_m.not_a_message(what=f"{protocol} message", kind=type(message).__name__))
            parts: Parts = [b""]  # the header's place
            writer(message, parts)
            parts[0] = pack(message.CODE, sum(map(len, parts)))  # type: ignore[attr-defined]
            return b"".join(parts)  # (the payload copied once)

        self.decode: Decode[M] = decode
        self.encode: Callable[[M], bytes] = encode
        self.encode_inline: Callable[[M], bytes] = encode_inline
        self.inline_problem: Callable[[int, int], tuple[str, int] | None] = inline_problem
        """Frames inside other data (a protocol's ``inline_only`` messages): what is wrong with a header."""
        self.decode_inline: Callable[[Buffer, int, int], M] = decode_inline
        self.check_direction: Callable[[str | None], None] = check_direction
        self.decode_payload: Callable[[Buffer, int, int, int, str | None], M] = decode_payload
        self.header = header
        self.header_size = header_size
        self.max_frame = max_frame
        """Largest whole frame (header included) accepted on encode and decode."""
        self.readers = readers
        self.holds_views = holds_views
        self.decode_error = decode_error


class Reader(Generic[M]):
    """Incremental decoder: ``feed`` any slice of a byte stream, get back the whole frames it completes.

    A frame that lies whole inside one ``feed`` is decoded straight from the caller's data.  A frame cut across
    ``feed`` calls is assembled once: as soon as its header is in, the reader allocates one buffer of the frame's
    size and copies each later byte into it as it arrives (no growing, no second copy), then hands that buffer over
    with the message and never reuses or changes it (the next cut frame gets a new one).  Payloads are ``bytes`` of
    their own (one more copy).  With ``copy=False`` they are read-only memoryviews instead, as with ``decode``:
    onto the caller's data for a whole frame (mind the module's rules), onto the assembled buffer for a cut one, so
    a cut frame's bytes are copied once in all.  A frame with a valid header but a bad payload
    raises ``DecodeError`` (with ``decoded`` holding the messages before it) and the next ``feed`` goes on after
    it; a bad header leaves the stream unreadable, and every later ``feed`` raises.  A header announcing a frame
    longer than ``max_frame`` bytes, header included (the protocol's ``MAX_FRAME`` unless given), is a bad header,
    so the buffer of a cut frame never exceeds that bound.
    """

    codec: ClassVar[Codec[Any]]
    """The protocol's codec: a generated subclass names it."""

    def __init__(self, *, direction: str | None = None, max_frame: int | None = None, copy: bool = True) -> None:
        codec = self.codec
        codec.check_direction(direction)
        self.direction = direction
        self.max_frame = codec.max_frame if max_frame is None else max_frame
        """Largest whole frame (header included) accepted: the protocol's ``MAX_FRAME`` unless given."""
        self.copy = copy
        """Payloads are ``bytes`` of their own; with ``copy=False``, read-only memoryviews (see the class doc)."""
        self.offset = 0
        """Stream offset of the first byte not yet part of a whole frame."""
        self._head = bytearray()  # the start of a cut frame's header, until all of it is in
        self._frame: bytearray | None = None  # a cut frame whose header is in: its whole size, filled up to _filled
        self._filled = 0
        self._backlog = b""  # bytes after a bad frame, read first by the next feed
        self._broken: DecodeError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole frame."""
        return len(self._head) + self._filled + len(self._backlog)

    def _break(self, length: int, offset: int, messages: list[M]) -> DecodeError:
        codec = self.codec
        self._broken = codec.decode_error(
            _m.payload_outside(length=length, limit=self.max_frame - codec.header_size), offset=offset
        )
        self._broken.decoded = messages
        return self._broken

    def _take(self, view: memoryview, messages: list[M]) -> int:
        """Copy into the cut frame the bytes it still lacks; return how many were taken from ``view``."""
        taken = 0
        frame = self._frame
        if frame is None:
            header_size = self.codec.header_size
            head = self._head
            taken = min(header_size - len(head), len(view))
            head += view[:taken]
            if len(head) < header_size:
                return taken
            length = self.codec.header.unpack_from(head, 0)[1]
            if length < 0 or length + header_size > self.max_frame:
                raise self._break(length, self.offset + 4, messages)
            frame = self._frame = bytearray(header_size + length)  # the frame's one buffer, filled in place
            frame[:header_size] = head
            self._filled = header_size
            self._head = bytearray()
        filled = self._filled
        more = min(len(frame) - filled, len(view) - taken)
        frame[filled : filled + more] = view[taken : taken + more]
        self._filled = filled + more
        return taken + more

    def feed(self, data: Buffer) -> list[M]:
        if type(data) is not bytes:  # (the common case tested inline: no call)
            data = byte_buffer(data, "feed")
        if self._broken is not None:
            raise self._broken
        if self._backlog:
            data, self._backlog = self._backlog + bytes(data), b""
        codec = self.codec
        header, header_size, error_type = codec.header, codec.header_size, codec.decode_error
        messages: list[M] = []
        base = self.offset + len(self._head) + self._filled  # stream offset of data[0]
        direction = self.direction
        with memoryview(data) as view:
            size = len(view)
            pos = 0
            if self._head or self._frame is not None:
                pos = self._take(view, messages)
                frame = self._frame
                if frame is None or self._filled < len(frame):
                    return messages
                self._frame, self._filled = None, 0  # handed over with the message: never written again
                start = self.offset
                self.offset = base + pos
                try:
                    code = header.unpack_from(frame, 0)[0]
                    whole = frame if self.copy else memoryview(frame)  # copies out of a bytearray, views out of a view
                    messages.append(codec.decode_payload(whole, code, header_size, len(frame), direction))
                except error_type as exc:
                    self._backlog = bytes(view[pos:])
                    error = error_type(exc.reason, offset=start + (exc.offset or 0), field=exc.field)
                    error.decoded = messages
                    raise error from None
            # Payloads are copies out of the caller's bytes or bytearray, views out of a memoryview; with copy set,
            # views onto the caller's memoryview are copied (the caller may reuse its buffer).
            source = data if self.copy and type(data) is not memoryview else view
            own = self.copy and type(data) is memoryview
            readers, holds_views, max_frame = codec.readers, codec.holds_views, self.max_frame
            while size - pos >= header_size:
                code, length = header.unpack_from(source, pos)
                if length < 0 or length + header_size > max_frame:
                    self.offset = base + pos
                    raise self._break(length, base + pos + 4, messages)
                end = pos + header_size + length
                if end > size:
                    break
                try:
                    reader = readers.get(code)
                    if reader is not None and direction is None:
                        message = reader(source, pos + header_size, end)[0]
                    else:
                        message = codec.decode_payload(source, code, pos + header_size, end, direction)
                    messages.append(owned(message) if own and type(message) in holds_views else message)
                except error_type as exc:
                    self.offset = base + end  # the frame's end is known: go on after it next time
                    self._backlog = bytes(view[end:])
                    error = error_type(exc.reason, offset=base + (exc.offset or 0), field=exc.field)
                    error.decoded = messages
                    raise error from None
                pos = end
            self.offset = base + pos
            if pos < size:
                self._take(view[pos:], messages)  # the start of a cut frame: copied once, into its buffer
        return messages
