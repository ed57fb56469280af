"""Pravega beyond single frames: append reassembly as the server's AppendDecoder does it (with its errors), the
append writer the Java client's CommandEncoder is, events out of SegmentRead data, and Hello negotiation.

Java sources: shared/protocol/.../netty/AppendDecoder.java, CommandEncoder.java and CommandDecoder.java; client
SegmentInputStreamImpl.java and EventSegmentReaderImpl.java; server AppendProcessor.hello (pravega/pravega 3142a01075).
"""

from __future__ import annotations

import random
import re
import uuid

import pytest
from streamcodecs import pravega as pv

A = uuid.UUID("00000000-0000-0001-0000-000000000002")
B = uuid.UUID("00000000-0000-0003-0000-000000000004")


def setup(writer: uuid.UUID = A, segment: str = "sc/st/0", request_id: int = 1) -> pv.SetupAppend:
    return pv.SetupAppend(request_id=request_id, writer_id=writer, segment=segment, delegation_token="")


def block(data: bytes, writer: uuid.UUID = A) -> pv.AppendBlock:
    return pv.AppendBlock(writer_id=writer, data=data)


def end(size: int, data: bytes = b"", num: int = 1, last: int = 0, writer: uuid.UUID = A) -> pv.AppendBlockEnd:
    return pv.AppendBlockEnd(
        writer_id=writer, size_of_whole_events=size, data=data, num_events=num, last_event_number=last, request_id=1
    )


def ev(payload: bytes) -> bytes:
    return pv.frame_event(payload)


def partial(data: bytes) -> bytes:
    return pv.encode(pv.PartialEvent(data=data))


# -- reassembly -------------------------------------------------------------------------------------------------------


def test_block_with_partial_event_and_standalone_end() -> None:
    e1, e2 = ev(b"abc"), ev(b"defg")
    appends = pv.reassemble_appends(
        [
            setup(),
            block(e1 + partial(e2[:5])),
            end(len(e1), e2[5:], num=2, last=1),
            end(0, ev(b"xyz"), num=1, last=2),  # standalone: sizeOfWholeEvents unused
        ]
    )
    assert [(a.event_number, a.event_count, a.data, a.request_id) for a in appends] == [
        (1, 2, e1 + e2, 1),
        (2, 1, ev(b"xyz"), 1),
    ]
    assert all(a.segment == "sc/st/0" and a.writer_id == A and a.expected_offset is None for a in appends)


def test_block_end_data_is_ignored_when_nothing_follows_the_whole_events() -> None:
    e1 = ev(b"abc")
    (append,) = pv.reassemble_appends([setup(), block(e1), end(len(e1), b"ignored")])
    assert append.data == e1


def test_padding_closes_a_block_and_other_commands_pass_through() -> None:
    e1 = ev(b"abc")
    decoder = pv.AppendDecoder()
    assert decoder.process(setup()) == setup()
    assert decoder.process(block(e1 + pv.encode(pv.Padding(length=5)))) is None
    keep_alive = pv.KeepAlive()
    assert decoder.process(keep_alive) is keep_alive  # not an append command: it passes, even inside a block
    append = decoder.process(end(len(e1)))
    assert isinstance(append, pv.Append) and append.data == e1
    assert decoder.process(pv.Padding(length=3)) is None


def test_conditional_appends() -> None:
    appends = pv.reassemble_appends(
        [
            setup(),
            pv.ConditionalAppend(
                writer_id=A, event_number=0, expected_offset=0, event=pv.InlineEvent(data=b"abc"), request_id=5
            ),
            pv.ConditionalBlockEnd(writer_id=A, event_number=0, expected_offset=11, data=b"raw slice", request_id=6),
        ]
    )
    assert [(a.event_number, a.event_count, a.data, a.expected_offset, a.request_id) for a in appends] == [
        (0, 1, ev(b"abc"), 0, 5),
        (0, 1, b"raw slice", 11, 6),
    ]


def test_frames_as_bytes_are_decoded() -> None:
    e1 = ev(b"abc")
    frames = [pv.encode(setup()), pv.encode(block(e1)), pv.encode(end(len(e1)))]
    assert pv.reassemble_appends(frames)[0].data == e1


ERRORS = [
    ([block(b"")], "ConnectionID refrenced before SetupAppend"),
    ([end(0, ev(b"a"))], "ConnectionID refrenced before SetupAppend"),
    (
        [
            pv.ConditionalAppend(
                writer_id=A, event_number=0, expected_offset=0, event=pv.InlineEvent(data=b""), request_id=1
            )
        ],
        "ConnectionID refrenced before SetupAppend",
    ),
    ([setup(), block(b""), setup()], "Unexpected SETUP_APPEND following a append block."),
    ([setup(), block(b""), block(b"")], "Unexpected APPEND_BLOCK following a append block."),
    ([setup(), block(b""), pv.Padding(length=1)], "Unexpected PADDING following a append block."),
    ([setup(), end(0, ev(b"a"), num=0)], "Invalid number of events in block. numEvents : 0"),
    (
        [setup(), end(0, ev(b"a"), last=-1)],
        "Last event number went backwards, Segment last Event number : 0 , Append block End Event number : -1,"
        f"for writer ID: {A} and Segment Name: sc/st/0",
    ),
    (
        [setup(), setup(B), block(b"", B), end(0, ev(b"a"))],
        f"Writer ID mismatch between Append Block and Append block End, Append block Writer ID : {B}, "
        f"Append block End Writer ID: {A}",
    ),
    ([setup(), block(ev(b"a")), end(10)], "Invalid SizeOfWholeEvents in block : 10, Append block data bytes : 9"),
    ([setup(), block(ev(b"a")), end(-1)], "Invalid SizeOfWholeEvents in block : -1, Append block data bytes : 9"),
    ([setup(), block(ev(b"a") + b"\xff\xff"), end(9)], "Not enough bytes to read."),
    ([setup(), block(b"\x00\x00\x00\x06" + bytes(4)), end(0)], "Unknown wire command: 6"),
    ([setup(), block(b"\xff\xff\xff\xfe\xff\xff\xff\xff"), end(0)], "Length read from wire was negitive."),
    ([setup(), block(partial(b"abc")[:-1]), end(0)], "Header indicated more bytes than exist."),
    ([setup(), block(ev(b"abc")), end(0)], "Cannot parse the command at the end of the append block"),
    (
        [setup(), block(pv.encode(pv.KeepAlive())), end(0)],
        "Found KEEP_ALIVE at end of append block but was expecting a partialEvent or padding.",
    ),
    ([setup(), block(pv.encode(pv.Padding(length=2))), end(0, b"x")], "Unexpected data in BlockEnd"),
    (
        [
            setup(),
            pv.ConditionalAppend(
                writer_id=A, event_number=-1, expected_offset=0, event=pv.InlineEvent(data=b""), request_id=1
            ),
        ],
        "Last event number went backwards.",
    ),
    (
        [setup(), pv.ConditionalBlockEnd(writer_id=A, event_number=-2, expected_offset=0, data=b"", request_id=1)],
        "Last event number went backwards.",
    ),
]


@pytest.mark.parametrize(("commands", "message"), ERRORS, ids=[m[:40] for _, m in ERRORS])
def test_sequences_the_server_rejects(commands: list[pv.Message], message: str) -> None:
    with pytest.raises(pv.AppendSequenceError) as info:
        pv.reassemble_appends(commands)
    assert message in str(info.value)
    assert isinstance(info.value, pv.DecodeError)


def test_setup_append_resets_the_event_number_and_errors_release_the_block() -> None:
    decoder = pv.AppendDecoder()
    decoder.process(setup())
    decoder.process(end(0, ev(b"a"), last=7))
    decoder.process(setup())  # a new SetupAppend: back to 0, not to the last event number
    assert isinstance(decoder.process(end(0, ev(b"b"), last=1)), pv.Append)
    decoder.process(block(ev(b"c")))
    with pytest.raises(pv.AppendSequenceError):
        decoder.process(pv.Padding(length=1))
    standalone = decoder.process(end(0, ev(b"d"), last=2))  # the block was released: this one stands alone
    assert isinstance(standalone, pv.Append) and standalone.data == ev(b"d")


def test_command_type_names() -> None:
    assert pv.command_type_name(pv.AppendBlockEnd) == "APPEND_BLOCK_END"
    assert pv.command_type_name(pv.KeepAlive()) == "KEEP_ALIVE"
    assert pv.command_type_name(pv.StorageFlushed) == "FLUSHED_TO_STORAGE"
    assert pv.command_type_name(pv.TableKeyBadVersion) == "TABLE_KEY_BAD_VERSION"


# -- the writer -------------------------------------------------------------------------------------------------------


def frames_of(data: bytes) -> list[pv.Message]:
    return pv.Reader(direction="request").feed(data)


def test_one_append_per_block_without_batching() -> None:
    writer = pv.AppendEncoder()
    out = writer.write(setup()) + writer.append_event(A, "sc/st/0", 0, b"abc")
    e1 = ev(b"abc")
    assert frames_of(out) == [setup(), block(e1), end(len(e1))]
    assert not writer.block_open


def test_block_closed_early_ends_with_padding() -> None:
    writer = pv.AppendEncoder(block_size=100)
    out = writer.write(setup()) + writer.append_event(A, "sc/st/0", 0, b"abc")
    assert writer.block_open and out.endswith(ev(b"abc"))
    out += writer.flush()
    e1 = ev(b"abc")
    padding = pv.encode(pv.Padding(length=100 - len(e1)))
    assert frames_of(out) == [setup(), block(e1 + padding), end(len(e1))]
    header = out[len(pv.encode(setup())) :][:8]
    assert header == (3).to_bytes(4, "big") + (16 + 100 + 8).to_bytes(4, "big")  # block + room for the padding header


def test_an_event_that_fills_the_block_exactly_is_still_a_partial_event() -> None:
    e1, e2 = ev(b"abc"), ev(b"defg")
    writer = pv.AppendEncoder(block_size=len(e1) + len(e2))
    out = writer.write(setup()) + writer.append_event(A, "sc/st/0", 0, b"abc")
    out += writer.append_event(A, "sc/st/0", 1, b"defg")
    assert frames_of(out)[1:] == [block(e1 + partial(e2)), end(len(e1), b"", num=2, last=1)]


def test_other_writers_wait_for_the_block() -> None:
    writer = pv.AppendEncoder(block_size=64)
    out = writer.write(setup()) + writer.write(setup(B, "sc/st/1", 2))
    out += writer.append_event(A, "sc/st/0", 0, b"a")
    queued = writer.append_event(B, "sc/st/1", 0, b"b")
    assert queued == b""  # queued until A's block is done
    out += queued + writer.write(pv.KeepAlive())
    frames = frames_of(out)
    assert [type(f).__name__ for f in frames] == [
        "SetupAppend",
        "SetupAppend",
        "AppendBlock",
        "AppendBlockEnd",
        "AppendBlock",
        "AppendBlockEnd",
        "KeepAlive",
    ]
    assert frames[5].writer_id == B and frames[5].request_id == 2 and frames[4].data == ev(b"b")


def test_a_long_queue_is_sent_without_waiting() -> None:
    writer = pv.AppendEncoder(block_size=1 << 20)
    out = writer.write(setup()) + writer.write(setup(B, "sc/st/1", 2)) + writer.append_event(A, "sc/st/0", 0, b"a")
    sent = b""
    for n in range(pv.AppendEncoder.MAX_EVENTS + 1):
        sent += writer.append_event(B, "sc/st/1", n, b"b")
    frames = frames_of(out + sent)
    assert isinstance(frames[-3], pv.AppendBlockEnd) and frames[-3].writer_id == A  # A's block broken with padding
    assert frames[-1].writer_id == B and frames[-1].num_events == pv.AppendEncoder.MAX_EVENTS + 1
    assert not writer.block_open


def test_the_writer_refuses_what_the_java_client_refuses() -> None:
    writer = pv.AppendEncoder()
    with pytest.raises(pv.EncodeError, match="without setting up the append"):
        writer.append_event(A, "sc/st/0", 0, b"a")
    writer.write(setup())
    with pytest.raises(pv.EncodeError, match="Invalid eventCount : 0"):
        writer.append(A, "sc/st/0", 0, ev(b"a"), event_count=0)
    writer.append_event(A, "sc/st/0", 3, b"a")
    with pytest.raises(pv.EncodeError, match=re.escape("Events written out of order. Received: 3 following: 3")):
        writer.append_event(A, "sc/st/0", 3, b"a")
    writer.block_size = 100
    writer.append_event(A, "sc/st/0", 4, b"a")
    with pytest.raises(pv.EncodeError, match="Hello"):
        writer.write(pv.Hello(high_version=17, low_version=5))


def test_an_append_the_java_client_would_drop_is_refused() -> None:
    """One writer id on two segments: the second segment's append queued behind the first's would never be sent
    by the Java client (pendingWrites.putIfAbsent keyed by writer id). It is refused; everything accepted is sent."""
    writer = pv.AppendEncoder(block_size=64)
    out = (
        writer.write(setup(A, "sc/st/0")) + writer.write(setup(B, "sc/st/1", 2)) + writer.write(setup(A, "sc/st/2", 3))
    )
    out += writer.append_event(B, "sc/st/1", 0, b"b")  # B holds the block: A's appends are queued
    out += writer.append_event(A, "sc/st/0", 0, b"first")
    with pytest.raises(pv.EncodeError, match=r"appends queued for segment sc/st/0; an append for sc/st/2"):
        writer.append_event(A, "sc/st/2", 0, b"lost")
    out += writer.flush()
    out += writer.append_event(A, "sc/st/2", 0, b"second")  # once the queue is sent, the same append goes through
    out += writer.flush()
    appends = pv.reassemble_appends(frames_of(out))
    assert [(a.writer_id, a.data) for a in appends] == [(B, ev(b"b")), (A, ev(b"first")), (A, ev(b"second"))]
    assert not writer.block_open


@pytest.mark.parametrize("seed", range(25))
def test_whatever_the_writer_writes_the_server_reassembles(seed: int) -> None:
    rng = random.Random(seed)
    writers = [(uuid.UUID(int=rng.getrandbits(128)), f"scope/stream/{k}") for k in range(rng.randint(1, 3))]
    encoder = pv.AppendEncoder(block_size=rng.choice((0, 16, 100, 1024)))
    out = b"".join(encoder.write(setup(w, s, k + 1)) for k, (w, s) in enumerate(writers))
    sent: dict[uuid.UUID, list[tuple[int, bytes]]] = {w: [] for w, _ in writers}
    for _ in range(rng.randint(1, 80)):
        roll = rng.random()
        if roll < 0.05:
            out += encoder.flush()
        elif roll < 0.08:
            out += encoder.write(pv.KeepAlive())
        elif roll < 0.1:
            encoder.block_size = rng.choice((0, 16, 100, 1024))
        else:
            w, s = rng.choice(writers)
            number = sent[w][-1][0] + rng.randint(1, 3) if sent[w] else rng.randint(0, 5)
            payload = bytes(rng.getrandbits(8) for _ in range(rng.choice((0, 1, 5, 30, 200))))
            sent[w].append((number, payload))
            out += encoder.append_event(w, s, number, payload)
    out += encoder.flush()
    assert not encoder.block_open
    cut = rng.randint(0, len(out))
    reader = pv.Reader(direction="request")
    appends = pv.reassemble_appends(reader.feed(out[:cut]) + reader.feed(out[cut:]))
    got: dict[uuid.UUID, list[tuple[int, bytes]]] = {w: [] for w, _ in writers}
    for append in appends:
        events, used = pv.split_events(append.data)
        assert used == len(append.data) and len(events) == append.event_count  # whole events, as many as counted
        numbers = [n for n, _ in sent[append.writer_id][len(got[append.writer_id]) :][: append.event_count]]
        assert append.event_number == numbers[-1]
        got[append.writer_id] += list(zip(numbers, events, strict=True))
    assert got == sent


# -- events out of SegmentRead data -----------------------------------------------------------------------------------


def segment_bytes(payloads: list[bytes]) -> bytes:
    return b"".join(ev(p) for p in payloads)


def reply(offset: int, data: bytes, end_of_segment: bool = False, segment: str = "s") -> pv.SegmentRead:
    return pv.SegmentRead(
        segment=segment, offset=offset, at_tail=False, end_of_segment=end_of_segment, data=data, request_id=1
    )


PAYLOADS = [b"", b"a", b"hello world", bytes(range(256)) * 3, b"\x00" * 9, b"last"]


def test_events_across_replies_cut_at_every_byte() -> None:
    data = segment_bytes(PAYLOADS)
    for cut in range(len(data) + 1):
        reader = pv.EventReader(segment="s", offset=1000)
        events = reader.feed(reply(1000, data[:cut])) + reader.feed(reply(1000 + cut, data[cut:]))
        assert events == PAYLOADS and reader.offset == 1000 + len(data) and reader.buffered == 0


def test_events_in_small_replies_and_positions() -> None:
    data = segment_bytes(PAYLOADS)
    starts = [0]
    for p in PAYLOADS:
        starts.append(starts[-1] + 8 + len(p))
    reader, events, pos = pv.EventReader(), [], 0
    rng = random.Random(3)
    while pos < len(data):
        step = rng.randint(0, 40)
        events += reader.feed(reply(pos, data[pos : pos + step], end_of_segment=pos + step >= len(data)))
        pos += step
        assert reader.offset == max(s for s in starts if s <= pos)  # the start of the next event
    assert events == PAYLOADS and reader.at_end


def test_event_reader_errors() -> None:
    data = segment_bytes([b"abc"])
    reader = pv.EventReader(offset=0)
    reader.feed(reply(0, data[:5]))
    with pytest.raises(pv.DecodeError, match="ReadSegment returned data for the wrong offset 6 vs 5"):
        reader.feed(reply(6, data[6:]))
    assert reader.feed(reply(5, b"")) == []  # an empty reply (a cancelled read) changes nothing
    assert reader.feed(reply(5, data[5:])) == [b"abc"]
    # The codec's rule for frames inside other data, in its words (the Java client: "Event was of wrong type: 3",
    # "Event of invalid length: -1").
    with pytest.raises(pv.DecodeError, match=r"type code 3 is not an inline frame \(Event\) \(offset 0"):
        pv.EventReader().feed(reply(0, pv.encode(pv.AppendBlock(writer_id=A, data=b""))))
    with pytest.raises(pv.DecodeError, match=r"payload length -1 outside 0\.\.\d+ \(offset 4"):
        pv.EventReader().feed(reply(0, bytes(4) + b"\xff\xff\xff\xff"))
    with pytest.raises(pv.DecodeError, match=rf"payload length {pv.MAX_FRAME} outside"):
        pv.EventReader().feed(reply(0, bytes(4) + pv.MAX_FRAME.to_bytes(4, "big")))
    with pytest.raises(pv.DecodeError, match="exceeds 10"):
        pv.EventReader(max_event=10).feed(reply(0, ev(b"x" * 11)))
    with pytest.raises(pv.DecodeError, match="ends inside an event"):
        pv.EventReader().feed(reply(0, data[:-1], end_of_segment=True))
    with pytest.raises(pv.DecodeError, match="fed to the reader"):
        pv.EventReader(segment="s").feed(reply(0, data, segment="other"))


def test_split_events() -> None:
    data = segment_bytes([b"ab", b"cde"])
    assert pv.split_events(data + data[:9]) == ([b"ab", b"cde"], len(data))
    with pytest.raises(pv.DecodeError, match="type code 100 is not an inline frame"):
        pv.split_events(pv.encode(pv.KeepAlive()))


def test_what_the_writer_appends_reads_back_as_events() -> None:
    writer = pv.AppendEncoder(block_size=50)
    out = writer.write(setup())
    payloads = [bytes([n]) * n for n in range(30)]
    for number, payload in enumerate(payloads):
        out += writer.append_event(A, "sc/st/0", number, payload)
    out += writer.flush()
    segment = b"".join(a.data for a in pv.reassemble_appends(frames_of(out)))  # the server stores append data as is
    reader = pv.EventReader(offset=0)
    events = [e for k in range(0, len(segment), 37) for e in reader.feed(reply(k, segment[k : k + 37]))]
    assert events == payloads


# -- Hello ------------------------------------------------------------------------------------------------------------


def test_hello_negotiation() -> None:
    ours = pv.hello()
    assert ours == pv.Hello(high_version=pv.WIRE_VERSION, low_version=pv.OLDEST_COMPATIBLE_VERSION)
    assert (ours.high_version, ours.low_version) == (17, 5)
    assert pv.negotiate(ours) == 17
    assert pv.negotiate(pv.Hello(high_version=16, low_version=5)) == 16  # a 0.13 peer
    assert pv.negotiate(pv.Hello(high_version=5, low_version=1)) == 5
    assert pv.negotiate(pv.Hello(high_version=30, low_version=17)) == 17
    for high, low in ((4, 1), (30, 18)):
        peer = pv.Hello(high_version=high, low_version=low)
        assert not pv.compatible(peer)
        with pytest.raises(pv.IncompatibleVersionError) as info:
            pv.negotiate(peer)
        assert info.value.peer == peer and isinstance(info.value, ValueError)
