"""Pravega payloads without copies: ``decode(frame, copy=False)`` and ``Reader(copy=False)`` give payload fields as
read-only memoryviews onto the frame, under the rules the codec's docstring states; the default still gives bytes
of their own.  Also: fixed-size frames are packed at once and still name a bad field, and a frame cut across
``feed`` calls is copied into one buffer of its size, once."""

from __future__ import annotations

import array
import copy
import dataclasses
import json
import pickle
import struct
import tracemalloc
import uuid
from pathlib import Path

import pytest
from streamcodecs import pravega as pv

W = uuid.UUID("00000000-0000-0001-0000-000000000002")
MiB = 1 << 20
CHUNK = 64 * 1024


def segment_read(data: bytes, offset: int = 0) -> pv.SegmentRead:
    return pv.SegmentRead(segment="s/t/0", offset=offset, at_tail=False, end_of_segment=False, data=data, request_id=7)


def table_entries() -> pv.UpdateTableEntries:
    entry = pv.TableEntry(key=pv.TableKey(data=b"key-1", key_version=3), value=pv.TableValue(data=b"value-1"))
    return pv.UpdateTableEntries(
        request_id=1,
        segment="t",
        delegation_token="",
        table_entries=pv.TableEntries(entries=[entry]),
        table_segment_offset=-1,
    )


def test_copy_false_payload_is_a_read_only_view_of_the_callers_frame() -> None:
    built = segment_read(bytes(range(256)) * 4)
    frame = pv.encode(built)
    decoded = pv.decode(frame, copy=False)
    assert isinstance(decoded, pv.SegmentRead)
    data = decoded.data
    assert isinstance(data, memoryview) and data.readonly and data.obj is frame  # a slice of the frame: no copy
    assert data.nbytes == len(built.data)
    # == compares contents both ways, repr and to_dict are those of the message built from bytes.
    assert decoded == built == pv.decode(frame)
    assert repr(decoded) == repr(built) == repr(pv.decode(frame))
    assert decoded.to_dict() == built.to_dict() and type(decoded.to_dict()["data"]) is bytes
    assert pv.SegmentRead.from_dict(decoded.to_dict()) == built
    with pytest.raises(TypeError):
        hash(decoded)  # messages are unhashable, views or not
    assert hash(data) == hash(built.data)  # a view onto bytes hashes as those bytes
    # The default is unchanged: bytes of their own.
    assert type(pv.decode(frame).data) is bytes  # type: ignore[union-attr]


def test_owned_copies_every_payload_out_nested_ones_too() -> None:
    frame = bytearray(pv.encode(table_entries()))
    decoded = pv.decode(frame, copy=False)
    assert isinstance(decoded, pv.UpdateTableEntries)
    key = decoded.table_entries.entries[0].key.data
    assert isinstance(key, memoryview) and key.obj is frame and key.readonly
    kept = pv.owned(decoded)
    assert kept == decoded == table_entries()
    entry = kept.table_entries.entries[0]
    assert type(entry.key.data) is bytes and type(entry.value.data) is bytes
    # The rules: a view sees the buffer change under it, and pins a bytearray's size; an owned copy does neither.
    with pytest.raises(BufferError):
        frame.extend(b"more")
    frame[:] = b"\xee" * len(frame)
    assert bytes(key) == b"\xee" * 5
    assert kept == table_entries()
    # Copying or pickling needs owned bytes; owned of a message without views is the message itself.
    with pytest.raises(TypeError):
        pickle.dumps(decoded)
    assert pickle.loads(pickle.dumps(kept)) == kept == copy.deepcopy(kept)
    assert pv.owned(kept) is kept


def test_default_decode_never_aliases_a_callers_buffer() -> None:
    built = segment_read(b"payload")
    for kind in (bytearray, memoryview):
        buffer = bytearray(pv.encode(built))
        decoded = pv.decode(kind(buffer))  # type: ignore[arg-type]
        assert type(decoded.data) is bytes  # type: ignore[union-attr]
        buffer[:] = b"\xee" * len(buffer)
        assert decoded == built


def test_copy_false_on_a_bytearray_gives_read_only_views() -> None:
    buffer = bytearray(pv.encode(segment_read(b"abc")))
    decoded = pv.decode(buffer, copy=False)
    data = decoded.data  # type: ignore[union-attr]
    assert isinstance(data, memoryview) and data.readonly and data.obj is buffer
    with pytest.raises(TypeError):
        data[0] = 1  # type: ignore[index]


def test_reader_assembles_a_cut_frame_once_and_hands_its_buffer_over() -> None:
    payload = bytes(range(256)) * (MiB // 256)
    frame = pv.encode(segment_read(payload))
    chunks = [frame[i : i + CHUNK] for i in range(0, len(frame), CHUNK)]
    reader = pv.Reader(copy=False)
    tracemalloc.start()
    try:
        got = [m for chunk in chunks for m in reader.feed(chunk)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == [segment_read(payload)]
    data = got[0].data  # type: ignore[union-attr]
    # The payload is a view onto one buffer holding exactly this frame: its bytes were copied into it, and only
    # there (no growing buffer re-copied, no payload copy), so no more than about one frame was ever allocated.
    assert isinstance(data, memoryview) and data.readonly
    assert type(data.obj) is bytearray and len(data.obj) == len(frame) and data.obj == frame
    assert peak < len(frame) + 4 * CHUNK, peak
    # The reader never touches that buffer again: the next cut frame goes to a new one.
    second = pv.encode(segment_read(b"x" * 100, offset=5))
    assert reader.feed(second[:50]) == []
    assert reader.feed(second[50:]) == [segment_read(b"x" * 100, offset=5)]
    assert got == [segment_read(payload)] and data.obj == frame
    assert reader.buffered == 0


def test_reader_copy_false_views_a_whole_frame_in_the_callers_data() -> None:
    frames = pv.encode(segment_read(b"one")) + pv.encode(pv.KeepAlive()) + pv.encode(segment_read(b"two"))
    got = pv.Reader(copy=False).feed(frames)
    assert got == [segment_read(b"one"), pv.KeepAlive(), segment_read(b"two")]
    assert all(m.data.obj is frames for m in got if isinstance(m, pv.SegmentRead))  # type: ignore[union-attr]
    # The default hands out bytes of their own, a cut frame's too.
    reader = pv.Reader()
    got = reader.feed(frames[:20]) + reader.feed(frames[20:])
    assert [type(m.data) for m in got if isinstance(m, pv.SegmentRead)] == [bytes, bytes]


def test_event_reader_slices_views_out_of_a_view() -> None:
    events = pv.frame_event(b"first") + pv.frame_event(b"second")
    reply = pv.decode(pv.encode(segment_read(events)), copy=False)
    assert isinstance(reply, pv.SegmentRead)
    got = pv.EventReader().feed(reply)
    assert got == [b"first", b"second"]
    assert all(isinstance(e, memoryview) and e.obj is reply.data.obj for e in got)  # type: ignore[union-attr]


def test_encode_takes_any_bytes_like_payload_without_counting_items() -> None:
    raw = bytes(range(8))
    expected = pv.encode(segment_read(raw))
    items = array.array("H")
    items.frombytes(raw)  # a memoryview of four 2-byte items: len() says 4, the frame needs all 8 bytes
    for data in (bytearray(raw), memoryview(raw), memoryview(items), memoryview(b".." + raw)[2:], memoryview(raw)[::1]):
        assert pv.encode(segment_read(data)) == expected, data  # type: ignore[arg-type]
    strided = memoryview(bytes(range(16)))[::2]  # not contiguous: copied once
    assert pv.encode(segment_read(strided)) == pv.encode(segment_read(bytes(range(0, 16, 2))))  # type: ignore[arg-type]
    # A re-encoded view-decoded message is the same frame.
    frame = pv.encode(table_entries())
    assert pv.encode(pv.decode(frame, copy=False)) == frame
    with pytest.raises(pv.EncodeError, match="expected bytes"):
        pv.encode(segment_read("text"))  # type: ignore[arg-type]


def test_fixed_size_frames_are_packed_at_once_and_name_a_bad_field() -> None:
    appended = pv.DataAppended(
        writer_id=W, event_number=41, previous_event_number=40, request_id=1, current_segment_write_offset=9000
    )
    frame = pv.encode(appended)
    assert len(frame) == 8 + 48 and pv.decode(frame) == appended
    assert pv.encode(pv.KeepAlive()) == bytes.fromhex("00000064 00000000")
    with pytest.raises(pv.EncodeError) as info:
        pv.encode(
            pv.DataAppended(
                writer_id=W, event_number=2**63, previous_event_number=0, request_id=1, current_segment_write_offset=0
            )
        )
    assert info.value.field is not None and info.value.field.startswith("DataAppended.")
    with pytest.raises(pv.EncodeError) as info:
        pv.encode(pv.Hello(high_version="17", low_version=5))  # type: ignore[arg-type]
    assert info.value.field == "Hello.high_version"


def test_a_message_without_fields_decodes_to_one_immutable_instance() -> None:
    frame = pv.encode(pv.KeepAlive())
    first, second = pv.decode(frame), pv.decode(frame)
    assert first is second and first == pv.KeepAlive()
    with pytest.raises(AttributeError):
        first.anything = 1  # type: ignore[union-attr]


def test_event_reader_copies_a_cut_event_once_into_a_buffer_of_its_size() -> None:
    payload = bytes(range(256)) * 64
    events = pv.frame_event(b"head") + pv.frame_event(payload)
    cut = 100  # inside the second event
    for copy_payloads in (False, True):
        replies = [segment_read(events[:cut], offset=0), segment_read(events[cut:], offset=cut)]
        frames = [pv.encode(r) for r in replies]
        reader = pv.EventReader()
        got = [e for f in frames for e in reader.feed(pv.decode(f, copy=copy_payloads))]  # type: ignore[arg-type]
        assert got == [b"head", payload] and reader.buffered == 0
        last = got[-1]
        if copy_payloads:
            assert type(last) is bytes
        else:
            assert isinstance(last, memoryview) and last.readonly
            assert type(last.obj) is bytearray and len(last.obj) == 8 + len(payload)  # the event's own buffer


def _vector_frames() -> list[bytes]:
    root = Path(__file__).resolve().parent.parent / "output" / "py" / "vectors" / "pravega"
    frames = []
    for manifest_path in sorted(root.glob("*/manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        data = (manifest_path.parent / manifest["file"]).read_bytes()
        frames += [data[v["offset"] : v["offset"] + v["length"]] for v in manifest["vectors"]]
    return frames


def _payloads(value: object) -> list[object]:
    """Every bytes | memoryview value in a message, nested structs and lists included."""
    if isinstance(value, bytes | memoryview):
        return [value]
    if isinstance(value, list):
        return [p for item in value for p in _payloads(item)]
    if dataclasses.is_dataclass(value):
        return [p for f in dataclasses.fields(value) for p in _payloads(getattr(value, f.name))]
    return []


def test_every_vector_decodes_alike_with_views_and_without() -> None:
    frames = [f for f in _vector_frames() if struct.unpack_from(">i", f)[0] not in (0, -2)]  # inline-only: Event...
    assert len(frames) > 500
    views = 0
    for frame in frames:
        copied, viewed = pv.decode(frame), pv.decode(frame, copy=False)
        assert viewed == copied and repr(viewed) == repr(copied) and viewed.to_dict() == copied.to_dict()
        assert pv.encode(viewed) == pv.encode(copied)
        assert all(type(p) is bytes for p in _payloads(copied))
        for p in _payloads(viewed):
            assert isinstance(p, memoryview) and p.obj is frame or p == b"", frame.hex()  # b"": a field not sent
            views += isinstance(p, memoryview)
        assert all(type(p) is bytes for p in _payloads(pv.owned(viewed)))
    assert views > 100
    # The same frames as one stream cut every 7 bytes.
    stream = b"".join(frames)
    reader = pv.Reader(copy=False)
    got = [m for i in range(0, len(stream), 7) for m in reader.feed(stream[i : i + 7])]
    assert got == [pv.decode(f) for f in frames]
