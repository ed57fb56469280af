"""Events out of segment bytes, as a Pravega reader gets them in SegmentRead replies.

A segment stores what writers appended verbatim: Event frames back to back (type 0, int32 payload length, payload).
A SegmentRead reply carries the segment's bytes from some offset, cut wherever the server's 2 MiB read limit (or the
segment's current end) fell, so an event may start in one reply and end in a later one.  :class:`EventReader` does
what the Java client's ``SegmentInputStreamImpl`` and ``EventSegmentReaderImpl`` do together: it checks that each
reply continues where the previous one stopped, carries a cut event over to the next reply, and rejects a frame that
is not an event, or whose length is negative or beyond ``MAX_FRAME``, by the codec's rule for frames inside other
data, in its words (those of the Spark functions' ``split_inline`` too; the Java client says ``Event was of wrong
type: 3`` and ``Event of invalid length: -1``).
"""

from __future__ import annotations

from .messages import _CODEC, _HEADER, DecodeError, SegmentRead

__all__ = ["EventReader", "split_events"]


def _check_header(code: int, length: int, offset: int, max_event: int | None) -> None:
    problem = _CODEC.inline_problem(code, length)
    if problem is not None:
        raise DecodeError(problem[0], offset=offset + problem[1], field="SegmentRead.data")
    if max_event is not None and length > max_event:
        raise DecodeError(f"Event of {length} bytes exceeds {max_event}", offset=offset + 4, field="SegmentRead.data")


def split_events(data: bytes | memoryview, offset: int = 0) -> tuple[list[bytes], int]:
    """The whole events at the start of ``data`` (segment bytes from an event boundary) and how many bytes they
    take; the rest is the head of an event cut off at the end.  ``offset`` only names positions in errors."""
    events: list[bytes] = []
    pos, size = 0, len(data)
    while size - pos >= _HEADER.size:
        code, length = _HEADER.unpack_from(data, pos)
        _check_header(code, length, offset + pos, None)
        end = pos + _HEADER.size + length
        if end > size:
            break
        events.append(bytes(data[pos + _HEADER.size : end]))
        pos = end
    return events, pos


class EventReader:
    """Feed it one segment's SegmentRead replies in order; get back the payloads of the events they complete.

    ``offset`` is the segment offset of the next event (the reader's position, as a checkpoint would record it);
    pass the offset of the first ReadSegment, or leave it None to take the first reply's.  A reply that does not
    continue where the previous one stopped raises DecodeError, as does a malformed event header.  An event whose
    bytes are all in one reply is sliced out of the reply's data: ``bytes`` when the reply holds bytes, a read-only
    view (no copy) when it was decoded with ``copy=False``; a cut event is copied, as its pieces arrive, into one
    buffer of its size (then ``bytes`` again, or a view of that buffer).
    ``max_event`` bounds a payload's length (the Java client sets no bound here).
    """

    def __init__(self, *, segment: str | None = None, offset: int | None = None, max_event: int | None = None) -> None:
        self.segment = segment
        self.offset = offset
        """Segment offset of the next event's first byte (None until the first reply if not given)."""
        self.max_event = max_event
        self.end_of_segment = False
        """A reply said the segment is sealed and ends where its data ends."""
        self._pending = bytearray()  # an event cut off at the end of a reply: its header, then a buffer of its size
        self._filled = 0  # bytes of it received so far
        self._need = _HEADER.size

    @property
    def buffered(self) -> int:
        """Bytes of a cut event received so far."""
        return self._filled

    @property
    def at_end(self) -> bool:
        """Every event of a sealed segment has been returned."""
        return self.end_of_segment and not self._filled

    def feed(self, reply: SegmentRead) -> list[bytes | memoryview]:
        if self.segment is not None and reply.segment != self.segment:
            raise DecodeError(f"SegmentRead for {reply.segment!r} fed to the reader of {self.segment!r}")
        if self.offset is None:
            self.offset = reply.offset
        expected = self.offset + self._filled
        if reply.offset != expected:
            raise DecodeError(f"ReadSegment returned data for the wrong offset {reply.offset} vs {expected}")
        data = reply.data
        events: list[bytes | memoryview] = []
        pos, size = 0, len(data)
        if self._filled:
            pos = self._take(data, 0)
            if self._filled < self._need:
                return self._ended(reply, events)
            # The event's buffer is handed over, never written again: a view of it when the replies hold views.
            event = memoryview(self._pending)[_HEADER.size :].toreadonly()
            events.append(event if isinstance(data, memoryview) else event.tobytes())
            self.offset += self._need
            self._pending, self._filled, self._need = bytearray(), 0, _HEADER.size
        while size - pos >= _HEADER.size:
            code, length = _HEADER.unpack_from(data, pos)
            _check_header(code, length, self.offset, self.max_event)
            end = pos + _HEADER.size + length
            if end > size:
                break
            events.append(data[pos + _HEADER.size : end])
            self.offset += end - pos
            pos = end
        if pos < size:
            self._take(data, pos)
        return self._ended(reply, events)

    def _take(self, data: bytes | memoryview, pos: int) -> int:
        """Copy into the cut event the bytes it still lacks from ``data[pos:]``; return the new position.  Once its
        header is in, the event gets one buffer of its whole size, filled in place: each byte is copied once."""
        view = memoryview(data)  # slices of a view are not copies
        if self._filled < _HEADER.size:
            more = min(_HEADER.size - self._filled, len(data) - pos)
            self._pending += view[pos : pos + more]
            self._filled += more
            pos += more
            if self._filled < _HEADER.size:
                return pos
            code, length = _HEADER.unpack_from(self._pending, 0)
            assert self.offset is not None
            _check_header(code, length, self.offset, self.max_event)
            self._need = _HEADER.size + length
            event = bytearray(self._need)
            event[: _HEADER.size] = self._pending
            self._pending = event
        more = min(self._need - self._filled, len(data) - pos)
        self._pending[self._filled : self._filled + more] = view[pos : pos + more]
        self._filled += more
        return pos + more

    def _ended(self, reply: SegmentRead, events: list[bytes | memoryview]) -> list[bytes | memoryview]:
        if reply.end_of_segment:
            self.end_of_segment = True
            if self._filled:
                raise DecodeError(
                    f"the sealed segment ends inside an event ({self._filled} of {self._need} bytes)",
                    offset=self.offset,
                    field="SegmentRead.data",
                )
        return events
