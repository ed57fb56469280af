"""Pravega: generated codec against a hand-written ``struct`` codec (handwritten_pravega.py), same frames, same run.

Groups: decode and encode of a mix of small control frames (Hello, KeepAlive, SetupAppend, AppendSetup,
DataAppended, ReadSegment, WrongHost), and of SegmentRead frames carrying 1 KiB and 1 MiB of data.  Both codecs
return typed objects; both slice a payload out of the frame once on decode and hand it to one ``b"".join`` on
encode.  Issue target: streamcodecs within 1.5x of the hand-written codec.  Before timing, the cases check that the
two codecs agree on every frame (same bytes, same field values), so the comparison is like for like.
"""

from __future__ import annotations

import uuid

import handwritten_pravega as hw
from run import Case
from streamcodecs import pravega as pv

OURS = "streamcodecs"
BASELINE = "hand-written struct"
TARGET = (BASELINE, 1 / 1.5)  # at most 1.5x slower than the baseline

WRITER = uuid.UUID("00000000-0000-0001-0000-000000000002")
SEGMENT = "scope/stream/0.#epoch.0"


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
    ]
    theirs = [
        hw.Hello(17, 5),
        hw.KeepAlive(),
        hw.SetupAppend(1, WRITER, SEGMENT, "token"),
        hw.AppendSetup(1, SEGMENT, WRITER, -(2**63)),
        hw.DataAppended(WRITER, 41, 40, 1, 9000),
        hw.ReadSegment(SEGMENT, 4096, 1024, "", 2),
        hw.WrongHost(4, SEGMENT, "", ""),
    ]
    return ours, theirs


def _segment_read(size: int) -> tuple[object, object]:
    data = bytes(range(256)) * (size // 256)
    return (
        pv.SegmentRead(segment=SEGMENT, offset=1 << 20, at_tail=False, end_of_segment=False, data=data, request_id=7),
        hw.SegmentRead(SEGMENT, 1 << 20, False, False, data, 7),
    )


def _same(ours: object, theirs: object) -> None:
    """The two codecs agree: the same bytes, and decoding gives the same field values."""
    frame = pv.encode(ours)  # type: ignore[arg-type]
    assert frame == hw.encode(theirs), type(ours).__name__
    decoded_ours, decoded_theirs = pv.decode(frame), hw.decode(frame)
    for name in theirs.__slots__:  # type: ignore[attr-defined]
        assert getattr(decoded_ours, name) == getattr(decoded_theirs, name), (type(ours).__name__, name)


def _pair(group: str, ours_fn: object, theirs_fn: object, ops: int, unit: str) -> list[Case]:
    return [
        Case(group, OURS, ours_fn, ops, TARGET, unit),  # type: ignore[arg-type]
        Case(group, BASELINE, theirs_fn, ops, None, unit),  # type: ignore[arg-type]
    ]


def cases() -> list[Case]:
    ours, theirs = _control()
    for a, b in zip(ours, theirs, strict=True):
        _same(a, b)
    frames = [pv.encode(m) for m in ours]  # type: ignore[arg-type]
    pv_decode, hw_decode, pv_encode, hw_encode = pv.decode, hw.decode, pv.encode, hw.encode
    result = _pair(
        f"pravega decode {len(frames)} control frames",
        lambda: [pv_decode(f) for f in frames],
        lambda: [hw_decode(f) for f in frames],
        len(frames),
        "frames",
    )
    result += _pair(
        f"pravega encode {len(frames)} control frames",
        lambda: [pv_encode(m) for m in ours],  # type: ignore[arg-type]
        lambda: [hw_encode(m) for m in theirs],
        len(frames),
        "frames",
    )
    for size, label in ((1024, "1 KiB"), (1 << 20, "1 MiB")):
        ours_read, theirs_read = _segment_read(size)
        _same(ours_read, theirs_read)
        frame = pv.encode(ours_read)  # type: ignore[arg-type]
        result += _pair(
            f"pravega decode SegmentRead {label}",
            lambda frame=frame: pv_decode(frame),
            lambda frame=frame: hw_decode(frame),
            1,
            "frames",
        )
        result += _pair(
            f"pravega encode SegmentRead {label}",
            lambda m=ours_read: pv_encode(m),  # type: ignore[arg-type]
            lambda m=theirs_read: hw_encode(m),
            1,
            "frames",
        )
    return result
