"""The runtime's readers at their source, independent of any generated module: ``_runtime/frames.py``, the binary
module contract (decode, encode, encode_inline, Reader) over a toy protocol's tables, and ``jsonwire.LineReader``.
The generated protocols exercise them again through their own tests (``tests/test_pravega_*.py``,
``tests/test_cloudevents_*.py``)."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from streamcodecs_gen.py_package._runtime import binary, errors, frames

HEADER = struct.Struct(">ii")
INT = struct.Struct(">i")


class ToyDecodeError(errors.DecodeError):
    protocol = "toy"


class ToyEncodeError(errors.EncodeError):
    protocol = "toy"


@dataclass
class Number:
    CODE: ClassVar[int] = 1
    value: int


@dataclass
class Blob:
    CODE: ClassVar[int] = 2
    data: Any


@dataclass
class Inner:  # never a top-level frame
    CODE: ClassVar[int] = 3


def read_number(buf: binary.Buffer, pos: int, end: int) -> tuple[Number, int]:
    if end - pos < 4:
        raise binary.short(4, pos, end, "Number.value", ToyDecodeError)
    return Number(INT.unpack_from(buf, pos)[0]), pos + 4


def read_blob(buf: binary.Buffer, pos: int, end: int) -> tuple[Blob, int]:
    return Blob(binary.payload(buf, pos, end)), end


def write_blob(value: Blob, parts: binary.Parts) -> None:
    parts.append(bytes(value.data))


def frame_blob(value: Blob) -> bytes | None:  # written whole when its payload is bytes, else left to write_blob
    return HEADER.pack(2, len(value.data)) + value.data if type(value.data) is bytes else None


def frame_number(value: Number) -> bytes:
    return HEADER.pack(1, 4) + INT.pack(value.value)


CODEC: frames.Codec[Any] = frames.Codec(
    protocol="toy",
    header=HEADER,
    max_frame=64,
    directions=("up", "down"),
    readers={1: read_number, 2: read_blob},
    frames={Number: frame_number, Blob: frame_blob},
    inline_frames={Number: frame_number, Blob: frame_blob},
    writers={},
    inline_writers={Blob: write_blob, Inner: lambda m, parts: None, Number: lambda m, p: p.append(INT.pack(m.value))},
    holds_views=frozenset({Blob}),
    inline_only={3: "Inner"},
    inline_readers={3: lambda buf, pos, end: (Inner(), pos)},
    codes_by_direction={"up": frozenset({1}), "down": frozenset({2})},
    decode_error=ToyDecodeError,
    encode_error=ToyEncodeError,
)


class Reader(frames.Reader[Any]):
    codec = CODEC


def test_round_trip_and_copies() -> None:
    assert CODEC.decode(CODEC.encode(Number(7))) == Number(7)
    frame = CODEC.encode(Blob(b"abc"))
    assert frame == HEADER.pack(2, 3) + b"abc"
    assert type(CODEC.decode(frame).data) is bytes
    view = CODEC.decode(frame, copy=False).data
    assert type(view) is memoryview and view.readonly and bytes(view) == b"abc"
    assert type(CODEC.decode(memoryview(frame)).data) is bytes  # views onto the caller's memoryview are copied
    assert CODEC.encode_inline(Inner()) == HEADER.pack(3, 0)


@pytest.mark.parametrize(
    ("frame", "direction", "reason", "offset"),
    [
        (b"\x00\x00", None, "frame of 2 bytes is shorter than the 8-byte header", 0),
        (HEADER.pack(9, 0), None, "unknown type code 9", 0),
        (HEADER.pack(3, 0), None, "Inner (type 3) is never a top-level frame", 0),
        (HEADER.pack(1, 4) + INT.pack(1), "down", "type code 1 is not sent in direction 'down'", 0),
        (HEADER.pack(1, 5) + INT.pack(1), None, "payload length 5 runs past the 4 bytes given", 4),
        (HEADER.pack(1, 4) + INT.pack(1) + b"x", None, "1 bytes follow the frame", 12),
        (HEADER.pack(1, 99) + bytes(99), None, "payload length 99 outside 0..56", 4),
        (HEADER.pack(1, 2) + b"ab", None, None, None),
    ],
)
def test_decode_errors_name_the_problem(frame: bytes, direction: str | None, reason: str | None, offset: int) -> None:
    with pytest.raises(ToyDecodeError) as caught:
        CODEC.decode(frame, direction=direction)
    if reason is not None:
        assert (caught.value.reason, caught.value.offset) == (reason, offset)
    else:
        assert caught.value.field == "Number.value"


def test_the_rule_of_frames_inside_other_data() -> None:
    assert CODEC.inline_problem(3, 0) is None
    assert CODEC.inline_problem(3, 56) is None and CODEC.inline_problem(3, 57) == ("payload length 57 outside 0..56", 4)
    assert CODEC.inline_problem(3, -1) == ("payload length -1 outside 0..56", 4)
    assert CODEC.inline_problem(1, 4) == ("type code 1 is not an inline frame (Inner)", 0)  # a top-level one
    data = b"xx" + CODEC.encode_inline(Inner()) + b"yy"
    assert CODEC.decode_inline(data, 2, 10) == Inner()


def test_encode_errors() -> None:
    with pytest.raises(ToyEncodeError, match="Inner is never sent as a top-level frame"):
        CODEC.encode(Inner())
    with pytest.raises(ToyEncodeError, match="not a toy message: str"):
        CODEC.encode("x")
    with pytest.raises(ToyEncodeError, match=r"frame of 108 bytes exceeds MAX_FRAME \(64\)"):
        CODEC.encode(Blob(bytes(100)))  # written whole first, then refused by the writer
    assert CODEC.encode_inline(Blob(bytes(100))) == HEADER.pack(2, 100) + bytes(100)  # inside other data: no limit
    with pytest.raises(ValueError, match="unknown direction 'sideways'"):
        CODEC.decode(b"", direction="sideways")


def test_a_frame_written_whole_leaves_other_payloads_to_the_writer() -> None:
    for data in (b"ab", bytearray(b"ab"), memoryview(b"ab")):
        assert CODEC.encode(Blob(data)) == CODEC.encode_inline(Blob(data)) == HEADER.pack(2, 2) + b"ab", type(data)


def test_reader_assembles_cut_frames_and_goes_on_after_a_bad_payload() -> None:
    stream = CODEC.encode(Number(1)) + CODEC.encode(Blob(b"hello")) + HEADER.pack(9, 1) + b"z" + CODEC.encode(Number(2))
    for cut in range(1, len(stream)):
        reader = Reader()
        out: list[Any] = []
        problems = []
        for piece in (stream[:cut], stream[cut:], b""):
            try:
                out += reader.feed(piece)
            except ToyDecodeError as exc:
                problems.append((exc.reason, exc.offset))
                out += exc.decoded
        assert problems == [("unknown type code 9", 25)], cut
        assert out == [Number(1), Blob(b"hello"), Number(2)], cut
        assert reader.offset == len(stream) and reader.buffered == 0


def test_reader_bad_header_breaks_the_stream() -> None:
    reader = Reader(max_frame=16)
    with pytest.raises(ToyDecodeError, match=r"payload length 20 outside 0..8") as caught:
        reader.feed(CODEC.encode(Number(1)) + HEADER.pack(2, 20))
    assert caught.value.decoded == [Number(1)] and caught.value.offset == 16
    with pytest.raises(ToyDecodeError):
        reader.feed(b"")
    assert Reader().max_frame == 64


def test_json_lines_reader_at_source() -> None:
    """``jsonwire.LineReader``, the base of the Kafka family's ``Reader``: lines cut anywhere, blank lines skipped,
    a bad line (or one too long) named by its line while reading goes on after it."""
    from streamcodecs_gen.py_package._runtime import jsonwire

    def decode(text: bytes) -> int:
        if not text.strip().isdigit():
            raise ToyDecodeError("not a number", offset=0)
        return int(text)

    stream = b"1\n\n22\nx\n" + b"9" * 20 + b"\n333\n"
    cuts = [(c,) for c in range(len(stream) + 1)]
    cuts += [(c, c + 5) for c in range(stream.index(b"9") - 2, stream.index(b"\n3"))]  # the long line in 3 pieces
    for cut in cuts:  # cut anywhere, the long line too: its tail is never read as a line of its own
        reader = jsonwire.LineReader(decode, ToyDecodeError, max_message=10)
        out: list[int] = []
        problems = []
        bounds = [0, *cut, len(stream)]
        for piece in [stream[a:b] for a, b in zip(bounds, bounds[1:], strict=False)] + [b"", b""]:
            try:
                out += reader.feed(piece)
            except ToyDecodeError as exc:
                problems.append((exc.reason, exc.line))
                out += exc.decoded
        assert out == [1, 22, 333], cut
        assert problems == [("not a number", 4), ("line longer than 10 bytes", 5)], cut
        assert reader.line == 6 and reader.buffered == 0
