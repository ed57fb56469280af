"""Storm multilang: reading 1000 bolt-tuple frames from a stream, and encoding 1000 emits, same run.

Read: the frames are what Storm's Java side writes (compact JSON, ``\\/`` and ``\\u20AC`` escapes, raw UTF-8, a
long id, integers, a float, true and null; about 150 bytes each, ids all different), in a binary stream read in
64 KiB chunks as from a pipe.
- streamcodecs: ``storm.Reader(direction="to_component")`` fed the chunks; every frame becomes a typed
  ``BoltTuple`` with every field validated (id a string, task an int32, ...);
- pystorm 3.1.4: its ``JSONSerializer.read_message`` (a text stream, ``readline`` until ``end``, ``simplejson.loads``)
  1000 times, no validation;
- bare JSON: the chunks joined, split at the end lines, ``json.loads`` of each (no validation either).

Encode: 1000 bolt emits (values as above, one anchor, need_task_ids false), each built from the same (values, anchor)
pair and written as a whole frame: ``storm.encode(storm.Emit(...))`` (which checks every field first), pystorm's
``serialize_dict`` of the dict its ``Component.emit`` builds (built in the loop too: :func:`_pystorm_emit`), and
``json.dumps`` of that dict plus the end line.

Issue target: at least 3x pystorm, every frame validated. The groups "one per feed" read the same frames as a
component reads a pipe at a low rate, one whole frame a ``feed`` (pystorm reads a frame a call in any case).
Before timing, the cases check that all readers see the same tuples and that the written frames decode to the
same emits.

MessagePack (``serializer="msgpack"``, issue target 3x pystorm too): the same 1000 tuples packed back to back by the
msgpack package (as the Java side's MessagePack serializer would write them), read in 64 KiB chunks by
``storm.Reader(direction="to_component", serializer="msgpack")`` (typed, validated) and by pystorm's
``MsgpackSerializer.read_message`` (msgpack's C ``Unpacker``, dicts, no validation); the same 1000 emits written by
``storm.encode(..., serializer="msgpack")`` (which checks every field first) and by pystorm's ``serialize_dict``
(``msgpack.packb``, no check) of the dict its ``Component.emit`` builds; "dicts prebuilt" is pystorm's serializer
alone, the dicts built before the clock starts (an Emit built outside the loop is the ceiling "encode prebuilt").
pystorm's MessagePack path is C from end to end, unlike its JSON path.

The ceilings show how far 3x is from reach: msgspec alone decoding the same bytes (behind one array header) into
the same ``BoltTuple`` Structs in one call, with no Reader, no framing and no recognition of heartbeats; msgspec's
Encoder writing the same ``Emit`` Structs with no check, built in the loop as ours are, and prebuilt; and built in
the loop and written through a call shaped like ``storm.encode`` (the writer looked up by class, the serializer by
name) whose writer only encodes: what any Python ``encode`` reaches before it checks anything. Their line ``bound``
gives their ratio to pystorm: no streamcodecs path built on msgspec can do better than that.
"""

from __future__ import annotations

import io
import json
import threading
from functools import partial

import msgspec
from bench_json_encode import dispatcher
from run import Case
from streamcodecs import storm

OURS = "streamcodecs"
PYSTORM = "pystorm JSONSerializer"
PYSTORM_MP = "pystorm MsgpackSerializer"
CEILING_READ = "ceiling: msgspec one call"
CEILING_ENCODE = "ceiling: build + encode"
CEILING_WRITE = "ceiling: encode prebuilt"
CEILING_DISPATCH = "ceiling: build + dispatch + encode"
COUNT = 1000
CHUNK = 65536


def _frame(i: int) -> bytes:
    return (
        b'{"comp":"spout","tuple":["a\\/b '
        + str(i).encode()
        + b'","caf\xc3\xa9 \\u20AC \xf0\x9f\x98\x80",'
        + str(i).encode()
        + b",3000000000,2.5,true,null],"
        b'"task":9,"stream":"default","id":"' + str(-6955325049453591163 + i * 7919).encode() + b'"}\nend\n'
    )


def _pystorm_emit(values: list[object], anchor: str) -> dict[str, object]:
    """The message dict pystorm's ``Component.emit`` builds for a bolt's emit with one anchor, need_task_ids false
    (its keys in its order: the tuple, then only the options given)."""
    return {"command": "emit", "tuple": values, "anchors": [anchor], "need_task_ids": False}


def _read_stream(data: bytes, serializer: str) -> list[storm.Message]:
    """What a component does with its stdin: read it in chunks and feed each to a Reader."""
    reader = storm.Reader(direction="to_component", serializer=serializer)
    stream = io.BytesIO(data)
    messages: list[storm.Message] = []
    while chunk := stream.read(CHUNK):
        messages += reader.feed(chunk)
    return messages


def _read_each(frames: list[bytes], serializer: str) -> list[storm.Message]:
    """What a component does with its stdin at a low rate: each read brings one whole frame, fed on its own."""
    reader = storm.Reader(direction="to_component", serializer=serializer)
    messages: list[storm.Message] = []
    for frame in frames:
        messages += reader.feed(frame)
    return messages


def cases() -> list[Case]:
    try:
        from pystorm.serializers.json_serializer import JSONSerializer
    except ImportError:
        JSONSerializer = None  # noqa: N806
        print(f"bench_storm: pystorm is not installed, so the {PYSTORM} cases are left out (requirements.txt)")

    data = b"".join(_frame(i) for i in range(COUNT))
    expected = [storm.decode(_frame(i), direction="to_component") for i in range(COUNT)]

    def ours_read(data: bytes = data) -> list[storm.Message]:
        return _read_stream(data, "json")

    def bare_read(data: bytes = data) -> list[object]:
        stream = io.BytesIO(data)
        text = b"".join(iter(lambda: stream.read(CHUNK), b""))
        return [json.loads(part) for part in text.split(b"\nend\n")[:-1]]

    assert ours_read() == expected
    assert all(type(m) is storm.BoltTuple for m in expected)
    assert [m["tuple"] for m in bare_read()] == [m.values for m in expected]  # type: ignore[index]

    group = f"storm read {COUNT} tuple frames"
    result = [
        Case(group, OURS, ours_read, ops=COUNT, target=(PYSTORM, 3.0), unit="frames"),
        Case(group, "split + json.loads", bare_read, ops=COUNT, unit="frames"),
    ]

    emits = [(m.values, m.id) for m in expected]

    def ours_encode(emits: list[tuple[list[object], str]] = emits) -> list[bytes]:
        encode, emit = storm.encode, storm.Emit
        return [encode(emit(values=values, anchors=[anchor], need_task_ids=False)) for values, anchor in emits]

    def bare_encode(emits: list[tuple[list[object], str]] = emits) -> list[str]:
        return [json.dumps(_pystorm_emit(values, anchor)) + "\nend\n" for values, anchor in emits]

    assert storm.Reader(direction="to_storm").feed(b"".join(ours_encode())) == [
        storm.Emit(values=values, anchors=[anchor], need_task_ids=False) for values, anchor in emits
    ]

    encode_group = f"storm encode {COUNT} emits"
    result += [
        Case(encode_group, OURS, ours_encode, ops=COUNT, target=(PYSTORM, 3.0), unit="frames"),
        Case(encode_group, "json.dumps", bare_encode, ops=COUNT, unit="frames"),
    ]

    if JSONSerializer is not None:
        lock = threading.RLock()

        def pystorm_read(data: bytes = data) -> list[object]:
            serializer = JSONSerializer(io.BytesIO(data), io.BytesIO(), lock, lock)
            return [serializer.read_message() for _ in range(COUNT)]

        serializer = JSONSerializer(io.BytesIO(), io.BytesIO(), lock, lock)

        def pystorm_encode(emits: list[tuple[list[object], str]] = emits) -> list[str]:
            return [serializer.serialize_dict(_pystorm_emit(values, anchor)) for values, anchor in emits]

        assert [m["tuple"] for m in pystorm_read()] == [m.values for m in expected]  # type: ignore[index]
        assert storm.Reader(direction="to_storm").feed("".join(pystorm_encode()).encode()) == (
            storm.Reader(direction="to_storm").feed(b"".join(ours_encode()))
        )
        result.insert(1, Case(group, PYSTORM, pystorm_read, ops=COUNT, unit="frames"))
        # A pipe read at a low rate: each read hands the reader one whole frame (pystorm reads one frame per call
        # whatever the rate, so its case is the one above)
        frames = [_frame(i) for i in range(COUNT)]

        ours_read_each = partial(_read_each, frames, "json")
        assert ours_read_each() == expected
        each_group = f"storm read {COUNT} tuple frames, one per feed"
        result[2:2] = [
            Case(each_group, OURS, ours_read_each, ops=COUNT, unit="frames"),
            Case(each_group, PYSTORM, pystorm_read, ops=COUNT, unit="frames"),
        ]
        result.insert(-1, Case(encode_group, PYSTORM, pystorm_encode, ops=COUNT, unit="frames"))
    return result + msgpack_cases(expected, emits)


def msgpack_cases(expected: list[storm.Message], emits: list[tuple[list[object], str]]) -> list[Case]:
    try:
        import msgpack
        from pystorm.serializers.msgpack_serializer import MsgpackSerializer
    except ImportError:
        print(f"bench_storm: msgpack or pystorm is not installed, so the {PYSTORM_MP} cases are left out")
        return []
    tuples = [
        {"comp": m.comp, "tuple": m.values, "task": m.task, "stream": m.stream, "id": m.id}  # type: ignore[union-attr]
        for m in expected
    ]
    data = b"".join(msgpack.packb(t) for t in tuples)
    lock = threading.RLock()

    def ours_read(data: bytes = data) -> list[storm.Message]:
        return _read_stream(data, "msgpack")

    def pystorm_read(data: bytes = data) -> list[object]:
        serializer = MsgpackSerializer(io.BytesIO(data), io.BytesIO(), lock, lock)
        return [serializer.read_message() for _ in range(COUNT)]

    def ours_encode(emits: list[tuple[list[object], str]] = emits) -> list[bytes]:
        encode, emit = storm.encode, storm.Emit
        return [
            encode(emit(values=values, anchors=[anchor], need_task_ids=False), serializer="msgpack")
            for values, anchor in emits
        ]

    serializer = MsgpackSerializer(io.BytesIO(), io.BytesIO(), lock, lock)

    def pystorm_encode(emits: list[tuple[list[object], str]] = emits) -> list[bytes]:
        return [serializer.serialize_dict(_pystorm_emit(values, anchor)) for values, anchor in emits]

    plain = [_pystorm_emit(values, anchor) for values, anchor in emits]

    def pystorm_prebuilt(plain: list[dict[str, object]] = plain) -> list[bytes]:
        return [serializer.serialize_dict(d) for d in plain]

    assert ours_read() == expected
    assert pystorm_read() == tuples
    assert pystorm_prebuilt() == pystorm_encode()
    reader = storm.Reader(direction="to_storm", serializer="msgpack")
    assert reader.feed(b"".join(pystorm_encode())) == reader.feed(b"".join(ours_encode()))

    # The ceilings: msgspec alone, no Reader and no check. Reading: the same bytes behind one array header, decoded
    # in one call into the same typed Structs (what any reader of these bytes into these Structs costs at least; it
    # would take a heartbeat for a tuple). Encoding: the same Structs written by a preconstructed Encoder, built
    # in the loop as ours are, and prebuilt (as pystorm's dicts are).
    array = b"\xdd" + COUNT.to_bytes(4, "big") + data
    typed = msgspec.msgpack.Decoder(list[storm.BoltTuple])

    def ceiling_read(array: bytes = array) -> list[storm.BoltTuple]:
        return typed.decode(array)

    encoder = msgspec.msgpack.Encoder()

    def ceiling_encode(emits: list[tuple[list[object], str]] = emits) -> list[bytes]:
        write, emit = encoder.encode, storm.Emit
        return [write(emit(values=values, anchors=[anchor], need_task_ids=False)) for values, anchor in emits]

    # What any Python ``storm.encode`` reaches: the same call as ours (the writer looked up by the message's class,
    # the serializer's flag by name) with a writer that only encodes, no check at all
    dispatch = dispatcher(storm.Emit, encoder.encode)

    def ceiling_dispatch(emits: list[tuple[list[object], str]] = emits) -> list[bytes]:
        write, emit = dispatch, storm.Emit
        return [
            write(emit(values=values, anchors=[anchor], need_task_ids=False), serializer="msgpack")
            for values, anchor in emits
        ]

    built = [storm.Emit(values=values, anchors=[anchor], need_task_ids=False) for values, anchor in emits]

    def ceiling_write(built: list[storm.Emit] = built) -> list[bytes]:
        write = encoder.encode
        return [write(message) for message in built]

    assert ceiling_read() == expected
    assert ceiling_encode() == ceiling_write() == ceiling_dispatch() == ours_encode()

    # As a user would: a bolt's own emit (anchors given), the message built, written and flushed to the component's
    # output (a BytesIO here), pystorm's Bolt.emit with its MsgpackSerializer against ours (the component runtime's
    # Bolt.emit, which builds the Emit, encodes it with its checks and writes it); no reply is awaited by either.
    from pystorm.bolt import Bolt as PystormBolt
    from streamcodecs.storm import component

    def pystorm_bolt() -> tuple[PystormBolt, io.BytesIO]:
        out = io.BytesIO()
        return PystormBolt(input_stream=io.BytesIO(), output_stream=out, serializer="msgpack"), out

    def ours_bolt() -> tuple[component.Bolt, io.BytesIO]:
        out = io.BytesIO()
        bolt = component.Bolt(serializer="msgpack")
        bolt._channel = component._Channel(io.BytesIO(), out, bolt.max_message, "msgpack", bolt.max_queued)
        return bolt, out

    def pystorm_emits(emits: list[tuple[list[object], str]] = emits) -> io.BytesIO:
        bolt, out = pystorm_bolt()
        emit = bolt.emit
        for values, anchor in emits:
            emit(values, anchors=[anchor])
        return out

    def ours_emits(emits: list[tuple[list[object], str]] = emits) -> io.BytesIO:
        bolt, out = ours_bolt()
        emit = bolt.emit
        for values, anchor in emits:
            emit(values, anchors=[anchor])
        return out

    assert reader.feed(ours_emits().getvalue()) == reader.feed(pystorm_emits().getvalue())

    # A pipe read at a low rate: each read hands the reader one whole value (pystorm reads one value per call
    # whatever the rate, so its case is the one above)
    values = [msgpack.packb(t) for t in tuples]

    ours_read_each = partial(_read_each, values, "msgpack")
    assert ours_read_each() == expected

    group = f"storm msgpack read {COUNT} tuple frames"
    each_group = f"storm msgpack read {COUNT} tuple frames, one per feed"
    encode_group = f"storm msgpack encode {COUNT} emits"
    user_group = f"storm msgpack Bolt.emit x{COUNT}, as a user would"
    return [
        Case(each_group, OURS, ours_read_each, ops=COUNT, unit="frames"),
        Case(each_group, PYSTORM_MP, pystorm_read, ops=COUNT, unit="frames"),
        Case(user_group, OURS, ours_emits, ops=COUNT, target=("pystorm Bolt.emit", 1.5), unit="emits"),
        Case(user_group, "pystorm Bolt.emit", pystorm_emits, ops=COUNT, unit="emits"),
        Case(group, OURS, ours_read, ops=COUNT, target=(PYSTORM_MP, 1.5), unit="frames"),
        Case(group, PYSTORM_MP, pystorm_read, ops=COUNT, unit="frames"),
        Case(group, CEILING_READ, ceiling_read, ops=COUNT, target=(PYSTORM_MP, 1.5), unit="frames"),
        Case(encode_group, OURS, ours_encode, ops=COUNT, target=(PYSTORM_MP, 1.5), unit="frames"),
        Case(encode_group, PYSTORM_MP, pystorm_encode, ops=COUNT, unit="frames"),
        Case(encode_group, PYSTORM_MP + ", dicts prebuilt", pystorm_prebuilt, ops=COUNT, unit="frames"),
        Case(encode_group, CEILING_ENCODE, ceiling_encode, ops=COUNT, target=(PYSTORM_MP, 1.5), unit="frames"),
        Case(encode_group, CEILING_DISPATCH, ceiling_dispatch, ops=COUNT, target=(PYSTORM_MP, 1.5), unit="frames"),
        Case(encode_group, CEILING_WRITE, ceiling_write, ops=COUNT, target=(PYSTORM_MP, 1.5), unit="frames"),
    ]
