"""A hand-written ``struct`` codec for the Pravega frames the benchmark uses: the baseline streamcodecs is measured
against.

Written the way one would by hand for speed: one ``struct.Struct`` per fixed run, positional construction of
slotted classes, an ASCII fast path for Java modified UTF-8, the payload sliced once out of the frame on decode and
handed to ``b"".join`` without concatenation on encode.  It covers only the benchmark's messages and checks only
what keeps it from reading past the frame (and what makes a string not Java's modified UTF-8); it is not part of the
package.

Modified UTF-8 (``DataOutput.writeUTF``), as Java writes it: each UTF-16 code unit on its own, U+0000 as the two
bytes ``C0 80``, a character outside the BMP as its two surrogates of three bytes each (never a four-byte form), a
two-byte length first. Reading refuses a four-byte form, as ``DataInput.readUTF`` does.
"""

from __future__ import annotations

import re
import struct
import uuid
from collections.abc import Callable
from typing import Any

HEADER = struct.Struct(">ii")
I32 = struct.Struct(">i")
I64 = struct.Struct(">q")
U16 = struct.Struct(">H")
HELLO = struct.Struct(">ii")
Q_16S = struct.Struct(">q16s")
S16_Q = struct.Struct(">16sq")
Q_B_B = struct.Struct(">q??")
Q_I = struct.Struct(">qi")
S16_I = struct.Struct(">16si")
I_Q = struct.Struct(">iq")
I_Q_Q = struct.Struct(">iqq")
S16_QQQQ = struct.Struct(">16sqqqq")
MAX_FRAME = 0xFFFFFF


class DecodeError(ValueError):
    pass


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_FOUR_BYTE_LEAD = re.compile(rb"[\xf0-\xff]")  # never in modified UTF-8 (readUTF: "malformed input")


def _pair(match: re.Match[str]) -> str:
    code = ord(match.group()) - 0x10000
    return chr(0xD800 | (code >> 10)) + chr(0xDC00 | (code & 0x3FF))


def _mutf8(buf: bytes, pos: int, end: int) -> tuple[str, int]:
    if end - pos < 2:
        raise DecodeError("short string")
    (size,) = U16.unpack_from(buf, pos)
    pos += 2
    stop = pos + size
    if stop > end:
        raise DecodeError("string past the frame")
    raw = buf[pos:stop]
    if raw.isascii():
        return raw.decode("ascii"), stop
    if _FOUR_BYTE_LEAD.search(raw):
        raise DecodeError("malformed modified UTF-8")
    text = raw.replace(b"\xc0\x80", b"\x00").decode("utf-8", "surrogatepass")
    return text.encode("utf-16-be", "surrogatepass").decode("utf-16-be", "surrogatepass"), stop


def _w_mutf8(text: str) -> bytes:
    if text.isascii() and "\x00" not in text:
        data = text.encode("ascii")
    else:
        data = _ASTRAL.sub(_pair, text).encode("utf-8", "surrogatepass").replace(b"\x00", b"\xc0\x80")
    return U16.pack(len(data)) + data


class Hello:
    __slots__ = ("high_version", "low_version")
    CODE = -127

    def __init__(self, high_version: int, low_version: int) -> None:
        self.high_version = high_version
        self.low_version = low_version


class KeepAlive:
    __slots__ = ()
    CODE = 100


class Event:
    """One event as it goes inside append data: type 0, length, payload (never a top-level frame)."""

    __slots__ = ("data",)
    CODE = 0

    def __init__(self, data: bytes) -> None:
        self.data = data


class SetupAppend:
    __slots__ = ("request_id", "writer_id", "segment", "delegation_token")
    CODE = 1

    def __init__(self, request_id: int, writer_id: uuid.UUID, segment: str, delegation_token: str) -> None:
        self.request_id = request_id
        self.writer_id = writer_id
        self.segment = segment
        self.delegation_token = delegation_token


class AppendSetup:
    __slots__ = ("request_id", "segment", "writer_id", "last_event_number")
    CODE = 2

    def __init__(self, request_id: int, segment: str, writer_id: uuid.UUID, last_event_number: int) -> None:
        self.request_id = request_id
        self.segment = segment
        self.writer_id = writer_id
        self.last_event_number = last_event_number


class AppendBlockEnd:
    __slots__ = ("writer_id", "size_of_whole_events", "data", "num_events", "last_event_number", "request_id")
    CODE = 4

    def __init__(
        self,
        writer_id: uuid.UUID,
        size_of_whole_events: int,
        data: bytes,
        num_events: int,
        last_event_number: int,
        request_id: int,
    ) -> None:
        self.writer_id = writer_id
        self.size_of_whole_events = size_of_whole_events
        self.data = data
        self.num_events = num_events
        self.last_event_number = last_event_number
        self.request_id = request_id


class DataAppended:
    __slots__ = ("writer_id", "event_number", "previous_event_number", "request_id", "current_segment_write_offset")
    CODE = 7

    def __init__(
        self,
        writer_id: uuid.UUID,
        event_number: int,
        previous_event_number: int,
        request_id: int,
        current_segment_write_offset: int,
    ) -> None:
        self.writer_id = writer_id
        self.event_number = event_number
        self.previous_event_number = previous_event_number
        self.request_id = request_id
        self.current_segment_write_offset = current_segment_write_offset


class ReadSegment:
    __slots__ = ("segment", "offset", "suggested_length", "delegation_token", "request_id")
    CODE = 9

    def __init__(
        self, segment: str, offset: int, suggested_length: int, delegation_token: str, request_id: int
    ) -> None:
        self.segment = segment
        self.offset = offset
        self.suggested_length = suggested_length
        self.delegation_token = delegation_token
        self.request_id = request_id


class SegmentRead:
    __slots__ = ("segment", "offset", "at_tail", "end_of_segment", "data", "request_id")
    CODE = 10

    def __init__(
        self, segment: str, offset: int, at_tail: bool, end_of_segment: bool, data: bytes, request_id: int
    ) -> None:
        self.segment = segment
        self.offset = offset
        self.at_tail = at_tail
        self.end_of_segment = end_of_segment
        self.data = data
        self.request_id = request_id


class WrongHost:
    __slots__ = ("request_id", "segment", "correct_host", "server_stack_trace")
    CODE = 50

    def __init__(self, request_id: int, segment: str, correct_host: str, server_stack_trace: str) -> None:
        self.request_id = request_id
        self.segment = segment
        self.correct_host = correct_host
        self.server_stack_trace = server_stack_trace


def _r_hello(buf: bytes, pos: int, end: int) -> Hello:
    if end - pos < 8:
        raise DecodeError("short Hello")
    return Hello(*HELLO.unpack_from(buf, pos))


def _r_keep_alive(buf: bytes, pos: int, end: int) -> KeepAlive:
    return KeepAlive()


def _r_setup_append(buf: bytes, pos: int, end: int) -> SetupAppend:
    if end - pos < 24:
        raise DecodeError("short SetupAppend")
    request_id, writer = Q_16S.unpack_from(buf, pos)
    segment, pos = _mutf8(buf, pos + 24, end)
    token, pos = _mutf8(buf, pos, end)
    return SetupAppend(request_id, uuid.UUID(bytes=writer), segment, token)


def _r_append_setup(buf: bytes, pos: int, end: int) -> AppendSetup:
    if end - pos < 8:
        raise DecodeError("short AppendSetup")
    (request_id,) = I64.unpack_from(buf, pos)
    segment, pos = _mutf8(buf, pos + 8, end)
    if end - pos < 24:
        raise DecodeError("short AppendSetup")
    writer, last = S16_Q.unpack_from(buf, pos)
    return AppendSetup(request_id, segment, uuid.UUID(bytes=writer), last)


def _r_append_block_end(buf: bytes, pos: int, end: int) -> AppendBlockEnd:
    if end - pos < 24:
        raise DecodeError("short AppendBlockEnd")
    writer, whole = S16_I.unpack_from(buf, pos)
    (size,) = I32.unpack_from(buf, pos + 20)
    pos += 24
    size = max(size, 0)  # a negative length is no data, as Java reads it
    if pos + size + 12 > end:
        raise DecodeError("short AppendBlockEnd")
    data = buf[pos : pos + size]
    pos += size
    if end - pos >= 20:
        num_events, last, request_id = I_Q_Q.unpack_from(buf, pos)
    else:
        num_events, last = I_Q.unpack_from(buf, pos)  # before version 8: no request id
        request_id = -1
    return AppendBlockEnd(uuid.UUID(bytes=writer), whole, data, num_events, last, request_id)


def _r_data_appended(buf: bytes, pos: int, end: int) -> DataAppended:
    if end - pos >= 48:  # the newest layout: no trailing field missing
        writer, event, previous, request_id, offset = S16_QQQQ.unpack_from(buf, pos)
        return DataAppended(uuid.UUID(bytes=writer), event, previous, request_id, offset)
    if end - pos < 24:
        raise DecodeError("short DataAppended")
    writer, event = S16_Q.unpack_from(buf, pos)
    pos += 24
    rest = []
    for _ in range(3):
        if end - pos >= 8:
            rest.append(I64.unpack_from(buf, pos)[0])
            pos += 8
        else:
            rest.append(-1)
    return DataAppended(uuid.UUID(bytes=writer), event, *rest)


def _r_read_segment(buf: bytes, pos: int, end: int) -> ReadSegment:
    segment, pos = _mutf8(buf, pos, end)
    if end - pos < 12:
        raise DecodeError("short ReadSegment")
    offset, length = Q_I.unpack_from(buf, pos)
    token, pos = _mutf8(buf, pos + 12, end)
    request_id = I64.unpack_from(buf, pos)[0] if end - pos >= 8 else -1
    return ReadSegment(segment, offset, length, token, request_id)


def _r_segment_read(buf: bytes, pos: int, end: int, payload: bytes | memoryview | None = None) -> SegmentRead:
    """With ``payload`` (a memoryview of ``buf``) the data is a slice of it, not a copy."""
    segment, pos = _mutf8(buf, pos, end)
    if end - pos < 14:
        raise DecodeError("short SegmentRead")
    offset, at_tail, end_of_segment = Q_B_B.unpack_from(buf, pos)
    (size,) = I32.unpack_from(buf, pos + 10)
    pos += 14
    if size < 0 or pos + size > end:
        raise DecodeError("data past the frame")
    data = (buf if payload is None else payload)[pos : pos + size]
    pos += size
    request_id = I64.unpack_from(buf, pos)[0] if end - pos >= 8 else -1
    return SegmentRead(segment, offset, at_tail, end_of_segment, data, request_id)


def _r_wrong_host(buf: bytes, pos: int, end: int) -> WrongHost:
    if end - pos < 8:
        raise DecodeError("short WrongHost")
    (request_id,) = I64.unpack_from(buf, pos)
    segment, pos = _mutf8(buf, pos + 8, end)
    host, pos = _mutf8(buf, pos, end)
    trace = _mutf8(buf, pos, end)[0] if end - pos > 0 else ""
    return WrongHost(request_id, segment, host, trace)


READERS: dict[int, Callable[[bytes, int, int], Any]] = {
    -127: _r_hello,
    100: _r_keep_alive,
    1: _r_setup_append,
    2: _r_append_setup,
    4: _r_append_block_end,
    7: _r_data_appended,
    9: _r_read_segment,
    10: _r_segment_read,
    50: _r_wrong_host,
}


def decode(frame: bytes) -> Any:
    if len(frame) < 8:
        raise DecodeError("short header")
    code, length = HEADER.unpack_from(frame, 0)
    if length < 0 or length + 8 > MAX_FRAME or length + 8 != len(frame):
        raise DecodeError("bad length")
    reader = READERS.get(code)
    if reader is None:
        raise DecodeError(f"unknown type {code}")
    return reader(frame, 8, 8 + length)


def decode_zero_copy(frame: bytes | bytearray) -> Any:
    """:func:`decode`, but a SegmentRead's data is a memoryview slice of ``frame`` (as Pravega's Java client hands out
    slices of Netty's buffer) instead of a copy (read-only when ``frame`` is bytes); other frames as :func:`decode`."""
    if len(frame) < 8:
        raise DecodeError("short header")
    code, length = HEADER.unpack_from(frame, 0)
    if length < 0 or length + 8 > MAX_FRAME or length + 8 != len(frame):
        raise DecodeError("bad length")
    if code == SegmentRead.CODE:
        return _r_segment_read(frame, 8, 8 + length, memoryview(frame))
    reader = READERS.get(code)
    if reader is None:
        raise DecodeError(f"unknown type {code}")
    return reader(frame, 8, 8 + length)


def read_chunks_zero_copy(chunks: list[bytes]) -> list[Any]:
    """The frames of a stream given in pieces: each frame's bytes copied once, into one buffer of its size
    (allocated when its header is in), and decoded with :func:`decode_zero_copy` from a view of that buffer."""
    out: list[Any] = []
    frame: bytearray | None = None
    head = b""
    filled = 0
    for chunk in chunks:
        pos = 0
        while pos < len(chunk):
            if frame is None:
                take = min(8 - len(head), len(chunk) - pos)
                head += chunk[pos : pos + take]
                pos += take
                if len(head) < 8:
                    continue
                frame = bytearray(8 + HEADER.unpack(head)[1])
                frame[:8] = head
                head, filled = b"", 8
            take = min(len(frame) - filled, len(chunk) - pos)
            frame[filled : filled + take] = memoryview(chunk)[pos : pos + take]
            filled += take
            pos += take
            if filled == len(frame):
                out.append(decode_zero_copy(frame))
                frame = None
    return out


def _w_hello(m: Hello) -> list[bytes]:
    return [HELLO.pack(m.high_version, m.low_version)]


def _w_keep_alive(m: KeepAlive) -> list[bytes]:
    return []


def _w_setup_append(m: SetupAppend) -> list[bytes]:
    return [Q_16S.pack(m.request_id, m.writer_id.bytes), _w_mutf8(m.segment), _w_mutf8(m.delegation_token)]


def _w_append_setup(m: AppendSetup) -> list[bytes]:
    return [I64.pack(m.request_id), _w_mutf8(m.segment), S16_Q.pack(m.writer_id.bytes, m.last_event_number)]


def _w_append_block_end(m: AppendBlockEnd) -> list[bytes]:
    return [
        S16_I.pack(m.writer_id.bytes, m.size_of_whole_events),
        I32.pack(len(m.data)),
        m.data,
        I_Q_Q.pack(m.num_events, m.last_event_number, m.request_id),
    ]


def _w_data_appended(m: DataAppended) -> list[bytes]:
    return [
        S16_QQQQ.pack(
            m.writer_id.bytes, m.event_number, m.previous_event_number, m.request_id, m.current_segment_write_offset
        )
    ]


def _w_read_segment(m: ReadSegment) -> list[bytes]:
    return [
        _w_mutf8(m.segment),
        Q_I.pack(m.offset, m.suggested_length),
        _w_mutf8(m.delegation_token),
        I64.pack(m.request_id),
    ]


def _w_segment_read(m: SegmentRead) -> list[bytes]:
    return [
        _w_mutf8(m.segment),
        Q_B_B.pack(m.offset, m.at_tail, m.end_of_segment),
        I32.pack(len(m.data)),
        m.data,
        I64.pack(m.request_id),
    ]


def _w_wrong_host(m: WrongHost) -> list[bytes]:
    return [I64.pack(m.request_id), _w_mutf8(m.segment), _w_mutf8(m.correct_host), _w_mutf8(m.server_stack_trace)]


WRITERS: dict[type, Callable[[Any], list[bytes]]] = {
    Hello: _w_hello,
    KeepAlive: _w_keep_alive,
    SetupAppend: _w_setup_append,
    AppendSetup: _w_append_setup,
    AppendBlockEnd: _w_append_block_end,
    DataAppended: _w_data_appended,
    ReadSegment: _w_read_segment,
    SegmentRead: _w_segment_read,
    WrongHost: _w_wrong_host,
}


def encode(message: Any) -> bytes:
    parts = WRITERS[type(message)](message)
    length = sum(map(len, parts))
    if length + 8 > MAX_FRAME:
        raise ValueError("frame too long")
    return b"".join([HEADER.pack(message.CODE, length), *parts])


def encode_event(message: Event) -> bytes:
    """An Event as it goes inside append data (``encode_inline`` of the codec): its header and its payload."""
    return HEADER.pack(0, len(message.data)) + message.data
