"""Pravega: generated codec against hand-written ``struct`` code (handwritten_pravega.py), same frames, same run.

Groups: decode and encode of each of the small frames SetupAppend, AppendSetup, DataAppended, KeepAlive and
AppendBlockEnd (carrying ten 100-byte events), and encode of an Event (``encode_inline``: it only goes inside append
data; issue target: within 1.3x of the hand-written code), of a mix of control frames (Hello, KeepAlive, SetupAppend,
AppendSetup, DataAppended, ReadSegment, WrongHost), and of SegmentRead frames carrying 1 KiB and 1 MiB of data.

SegmentRead decode is measured three ways: ``decode(frame, copy=False)`` (payload a read-only view of the frame)
against the hand-written zero-copy decoder, which returns a ``memoryview`` slice as Pravega's Java client hands out
Netty buffer slices (target: within 1.5x), and against today's copying decoders (``decode(frame)``, the default, and
the hand-written one that slices ``bytes``).  A 1 MiB SegmentRead fed to a ``Reader(copy=False)`` in 64 KiB chunks
is measured against a hand-written reader that copies each byte once into a buffer of the frame's size.

Before timing, the cases check that the codecs agree on every frame (same bytes, same field values), so the
comparison is like for like.
"""

from __future__ import annotations

import uuid

import handwritten_pravega as hw
from run import Case
from streamcodecs import pravega as pv

OURS = "streamcodecs"
BASELINE = "hand-written struct"
ZERO_COPY = "hand-written zero-copy"
SMALL_TARGET = (BASELINE, 1 / 1.3)  # small control frames: at most 1.3x slower than the hand-written code
MIX_TARGET = (BASELINE, 1 / 1.5)
VIEW_TARGET = (ZERO_COPY, 1 / 1.5)  # payload views: at most 1.5x slower than the zero-copy hand-written code

WRITER = uuid.UUID("00000000-0000-0001-0000-000000000002")
SEGMENT = "scope/stream/0.#epoch.0"
CHUNK = 64 * 1024
PAYLOAD = bytes(range(100))
EVENTS = b"".join(pv.encode_inline(pv.Event(data=PAYLOAD)) for _ in range(10))  # what a standalone append carries
# Strings that are not ASCII, to check that both write and read Java's modified UTF-8 alike: U+0000 (C0 80), two- and
# three-byte characters, a character outside the BMP (two 3-byte surrogates) and a lone surrogate
MUTF8 = ("a\x00b", "caf\u00e9 \u20ac", "\U0001f600", "x\ud800y")


def _control() -> tuple[list[object], list[object]]:
    ours = [
        pv.Hello(high_version=17, low_version=5),
        pv.KeepAlive(),
        pv.SetupAppend(request_id=1, writer_id=WRITER, segment=SEGMENT, delegation_token="token"),
        pv.AppendSetup(request_id=1, segment=SEGMENT, writer_id=WRITER, last_event_number=-(2**63)),
        pv.DataAppended(
            writer_id=WRITER, event_number=41, previous_event_number=40, request_id=1, current_segment_write_offset=9000
        ),
        pv.ReadSegment(segment=SEGMENT, offset=4096, suggested_length=1024, delegation_token="", request_id=2),
        pv.WrongHost(request_id=4, segment=SEGMENT, correct_host="", server_stack_trace=""),
        pv.AppendBlockEnd(
            writer_id=WRITER, size_of_whole_events=0, data=EVENTS, num_events=10, last_event_number=51, request_id=1
        ),
    ]
    theirs = [
        hw.Hello(17, 5),
        hw.KeepAlive(),
        hw.SetupAppend(1, WRITER, SEGMENT, "token"),
        hw.AppendSetup(1, SEGMENT, WRITER, -(2**63)),
        hw.DataAppended(WRITER, 41, 40, 1, 9000),
        hw.ReadSegment(SEGMENT, 4096, 1024, "", 2),
        hw.WrongHost(4, SEGMENT, "", ""),
        hw.AppendBlockEnd(WRITER, 0, EVENTS, 10, 51, 1),
    ]
    return ours, theirs


def _segment_read(size: int) -> tuple[object, object]:
    data = bytes(range(256)) * (size // 256)
    return (
        pv.SegmentRead(segment=SEGMENT, offset=1 << 20, at_tail=False, end_of_segment=False, data=data, request_id=7),
        hw.SegmentRead(SEGMENT, 1 << 20, False, False, data, 7),
    )


def _same(ours: object, theirs: object) -> None:
    """The codecs agree: the same bytes, and every way of decoding gives the same field values."""
    frame = pv.encode(ours)  # type: ignore[arg-type]
    assert frame == hw.encode(theirs), type(ours).__name__
    decoded = [pv.decode(frame), pv.decode(frame, copy=False), hw.decode(frame), hw.decode_zero_copy(frame)]
    for name in theirs.__slots__:  # type: ignore[attr-defined]
        values = [getattr(d, name) for d in decoded]
        assert all(v == values[0] for v in values), (type(ours).__name__, name)


def _pair(group: str, ours_fn: object, theirs_fn: object, ops: int, target: tuple[str, float]) -> list[Case]:
    return [
        Case(group, OURS, ours_fn, ops, target, "frames"),  # type: ignore[arg-type]
        Case(group, BASELINE, theirs_fn, ops, None, "frames"),  # type: ignore[arg-type]
    ]


def _same_mutf8() -> None:
    """Both codecs write modified UTF-8 alike, and read back what they wrote."""
    for text in MUTF8:
        ours = pv.SetupAppend(request_id=1, writer_id=WRITER, segment=text, delegation_token=text)
        _same(ours, hw.SetupAppend(1, WRITER, text, text))
    assert b"\xc0\x80" in hw.encode(hw.SetupAppend(1, WRITER, "\x00", ""))
    assert len(hw.encode(hw.SetupAppend(1, WRITER, "\U0001f600", ""))) == 8 + 24 + 2 + 6 + 2


def cases() -> list[Case]:
    ours, theirs = _control()
    for a, b in zip(ours, theirs, strict=True):
        _same(a, b)
    _same_mutf8()
    event, hw_event = pv.Event(data=PAYLOAD), hw.Event(PAYLOAD)
    assert pv.encode_inline(event) == hw.encode_event(hw_event)
    pv_decode, hw_decode, pv_encode, hw_encode = pv.decode, hw.decode, pv.encode, hw.encode
    result: list[Case] = []
    for a, b in zip(ours, theirs, strict=True):
        if type(a).__name__ not in ("SetupAppend", "AppendSetup", "DataAppended", "KeepAlive", "AppendBlockEnd"):
            continue
        frame = pv.encode(a)  # type: ignore[arg-type]
        name = type(a).__name__
        result += _pair(
            f"pravega decode {name}",
            lambda f=frame: pv_decode(f),
            lambda f=frame: hw_decode(f),
            1,
            SMALL_TARGET,
        )
        result += _pair(
            f"pravega encode {name}",
            lambda m=a: pv_encode(m),  # type: ignore[arg-type]
            lambda m=b: hw_encode(m),
            1,
            SMALL_TARGET,
        )
    pv_inline, hw_event_encode = pv.encode_inline, hw.encode_event
    result += _pair(
        "pravega encode Event (100 bytes, inline)",
        lambda: pv_inline(event),
        lambda: hw_event_encode(hw_event),
        1,
        SMALL_TARGET,
    )
    frames = [pv.encode(m) for m in ours]  # type: ignore[arg-type]
    result += _pair(
        f"pravega decode {len(frames)} control frames",
        lambda: [pv_decode(f) for f in frames],
        lambda: [hw_decode(f) for f in frames],
        len(frames),
        MIX_TARGET,
    )
    result += _pair(
        f"pravega encode {len(frames)} control frames",
        lambda: [pv_encode(m) for m in ours],  # type: ignore[arg-type]
        lambda: [hw_encode(m) for m in theirs],
        len(frames),
        MIX_TARGET,
    )
    for size, label in ((1024, "1 KiB"), (1 << 20, "1 MiB")):
        ours_read, theirs_read = _segment_read(size)
        _same(ours_read, theirs_read)
        frame = pv.encode(ours_read)  # type: ignore[arg-type]
        group = f"pravega decode SegmentRead {label}"
        result += [
            Case(group, OURS, lambda f=frame: pv_decode(f, copy=False), 1, VIEW_TARGET, "frames"),
            Case(group, ZERO_COPY, lambda f=frame: hw.decode_zero_copy(f), 1, None, "frames"),
            Case(group, "streamcodecs copy (default)", lambda f=frame: pv_decode(f), 1, None, "frames"),
            Case(group, BASELINE, lambda f=frame: hw_decode(f), 1, None, "frames"),
        ]
        result += _pair(
            f"pravega encode SegmentRead {label}",
            lambda m=ours_read: pv_encode(m),  # type: ignore[arg-type]
            lambda m=theirs_read: hw_encode(m),
            1,
            MIX_TARGET,
        )
    chunks = [frame[i : i + CHUNK] for i in range(0, len(frame), CHUNK)]  # the 1 MiB frame in 64 KiB pieces
    group = f"pravega Reader: 1 MiB SegmentRead in {len(chunks)} chunks"

    def read(copy: bool) -> list[pv.Message]:
        reader = pv.Reader(copy=copy)
        return [m for chunk in chunks for m in reader.feed(chunk)]

    assert read(False) == read(True) == [pv.decode(frame)]
    assert [m.data for m in hw.read_chunks_zero_copy(chunks)] == [ours_read.data]  # type: ignore[attr-defined]
    result += [
        Case(group, OURS, lambda: read(False), 1, VIEW_TARGET, "frames"),
        Case(group, ZERO_COPY, lambda: hw.read_chunks_zero_copy(chunks), 1, None, "frames"),
        Case(group, "streamcodecs copy (default)", lambda: read(True), 1, None, "frames"),
    ]
    return result
