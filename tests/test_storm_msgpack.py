"""Storm multilang over MessagePack (``serializer="msgpack"``), as pystorm 3.1.4's ``MsgpackSerializer`` speaks it.

The same messages, validation, directions and errors as the JSON framing; checked against the real peer's
serializer (frames it writes decode, frames we write it reads) and against the ``msgpack`` package it uses; the
``Reader`` takes a stream cut anywhere; ``storm.Bolt`` / ``storm.Spout`` run in process on frames pystorm's
serializer produced. Subprocess interop (pystorm components under our driver and the reverse) is in
test_storm_interop.py.
"""

from __future__ import annotations

import datetime
import io
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from streamcodecs import storm
from test_storm_codec import SAMPLES

msgpack = pytest.importorskip("msgpack", reason="pystorm's MessagePack serializer needs it (requirements.txt)")
serializers = pytest.importorskip("pystorm.serializers.msgpack_serializer", reason="the real peer (requirements.txt)")

MP = "msgpack"
# MessagePack integers stop at 64 bits: the JSON sample's 10**30 cannot be written (see the test below).
PACKABLE = {
    **SAMPLES,
    "Emit": ("to_storm", storm.Emit(values=[29, "v-30", 9007199254740993, -(2**63), 2**64 - 1], anchors=["31"], id=32)),
}


def pystorm_serializer(data: bytes = b"") -> Any:
    lock = threading.RLock()
    return serializers.MsgpackSerializer(io.BytesIO(data), io.BytesIO(), lock, lock)


def document(message: storm.Message) -> Any:
    """The message as plain values: what its JSON frame holds."""
    return json.loads(storm.encode(message)[:-5])


# ---------------------------------------------------------------------------------------------- same messages
@pytest.mark.parametrize("name", sorted(PACKABLE))
def test_round_trip(name: str) -> None:
    direction, message = PACKABLE[name]
    frame = storm.encode(message, serializer=MP)
    assert msgpack.unpackb(frame) == document(message)  # the JSON framing's document, as MessagePack
    assert storm.decode(frame, direction=direction, serializer=MP) == message
    assert storm.Reader(direction=direction, serializer=MP).feed(frame) == [message]
    if direction == "to_component" or name not in ("Ack", "Fail"):
        assert storm.decode(frame, serializer=MP) == message  # without a direction the first one that fits wins


@pytest.mark.parametrize("name", sorted(PACKABLE))
def test_what_pystorm_writes_we_read_and_what_we_write_pystorm_reads(name: str) -> None:
    direction, message = PACKABLE[name]
    theirs = pystorm_serializer().serialize_dict(document(message))
    assert storm.decode(theirs, direction=direction, serializer=MP) == message
    ours = storm.encode(message, serializer=MP)
    assert pystorm_serializer(ours + theirs).read_message() == document(message)


def test_pystorm_emits_decode_as_its_bolt_builds_them() -> None:
    # Key order and optional keys as pystorm's Bolt.emit writes them: command first, need_task_ids only when false.
    frame = pystorm_serializer().serialize_dict(
        {"command": "emit", "anchors": ["-69"], "tuple": ["café 😀", b"\x00raw"], "need_task_ids": False}
    )
    emit = storm.Emit(values=["café 😀", b"\x00raw"], anchors=["-69"], need_task_ids=False)
    assert storm.decode(frame, direction="to_storm", serializer=MP) == emit


def test_integers_beyond_64_bits_cannot_be_written() -> None:
    emit = SAMPLES["Emit"][1]  # holds 10**30, which JSON carries
    with pytest.raises(storm.EncodeError, match="Emit"):
        storm.encode(emit, serializer=MP)


def test_bytes_are_values_msgpack_carries() -> None:
    emit = storm.Emit(values=[b"\xff\x00", {"k": b""}], need_task_ids=False)
    frame = storm.encode(emit, serializer=MP)
    assert msgpack.unpackb(frame)["tuple"] == [b"\xff\x00", {"k": b""}]
    assert storm.decode(frame, direction="to_storm", serializer=MP) == emit


@pytest.mark.parametrize(
    ("value", "reason", "field"),
    [
        ({1: "one"}, "a map key is not a string (`int`)", "tuple[1]"),
        ({"k": {b"k": 1}}, "a map key is not a string (`bytes`)", "tuple[1].k"),
        ([msgpack.ExtType(5, b"ab")], "MessagePack extension type 5", "tuple[1][0]"),
    ],
)
def test_what_json_has_no_form_for_is_refused_both_ways(value: Any, reason: str, field: str) -> None:
    """A free-form value is a JSON value (a VARIANT in Spark): a map key that is not a string (which pystorm's
    unpacker refuses too) or an extension other than the timestamp is refused wherever it is, at the map or the
    extension, by decode (the fast path, the general path and the Reader alike) and by encode."""
    frame = msgpack.packb({"command": "emit", "tuple": ["v", value]}, use_bin_type=True, strict_types=False)
    with pytest.raises(storm.DecodeError) as info:
        storm.decode(frame, direction="to_storm", serializer=MP)
    assert reason in info.value.reason and info.value.field == field
    sync = msgpack.packb({"command": "sync"})
    reader = storm.Reader(direction="to_storm", serializer=MP)
    with pytest.raises(storm.DecodeError) as streamed:
        reader.feed(sync + frame + sync)
    assert (streamed.value.reason, streamed.value.field) == (info.value.reason, info.value.field)
    assert streamed.value.offset == len(sync) + info.value.offset and streamed.value.decoded == [storm.Sync()]
    assert reader.feed(b"") == [storm.Sync()]
    if not isinstance(value, list):
        with pytest.raises(storm.EncodeError, match="a map key is not a string"):
            storm.encode(storm.Emit(values=["v", value]), serializer=MP)
    # A message's own keys that are not strings are unknown keys, ignored as every other is (the fast path's
    # Structs skip them); their values are not looked at.
    assert storm.decode(msgpack.packb({"pid": 5, 1: 2}), serializer=MP) == storm.PidReply(pid=5)
    ignored = msgpack.packb({"command": "emit", "tuple": [1], 3: msgpack.ExtType(5, b"")})
    assert storm.decode(ignored, serializer=MP) == storm.Emit(values=[1])


def test_an_unknown_serializer_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown serializer 'cbor'"):
        storm.decode(b"\x80", serializer="cbor")
    with pytest.raises(ValueError, match="unknown serializer 'cbor'"):
        storm.encode(storm.Sync(), serializer="cbor")
    with pytest.raises(ValueError, match="unknown serializer 'cbor'"):
        storm.Reader(serializer="cbor")
    with pytest.raises(ValueError, match="unknown serializer 'cbor'"):
        storm.Bolt(serializer="cbor")
    assert storm.SERIALIZERS == ("json", "msgpack")


# ---------------------------------------------------------------------------------------------- same validation
@pytest.mark.parametrize(
    ("value", "reason", "field"),
    [
        ({"id": "1", "comp": "c", "stream": "s", "task": "x", "tuple": []}, "Expected `int`, got `str`", "task"),
        ({"id": "1", "comp": "c", "stream": "s", "task": 2**31, "tuple": []}, "Expected `int` <= 2147483647", "task"),
        ({"id": 1, "comp": "c", "stream": "s", "task": 1, "tuple": []}, "Expected `str`, got `int`", "id"),
        ({"command": "fail"}, "missing required field", "id"),
        ({"pidDir": "/p", "conf": {}, "context": {}}, "missing required field", "context.task->component"),
        ({"command": "next", "id": "x"}, "Invalid enum value 'x'", "id"),
        ({"command": "bogus"}, "no message matches this command: 'bogus' in direction 'to_component'", None),
        ({"comp": "c"}, "no message has the keys 'comp'", None),
        ("just a string", "no message matches this str", None),
        ([1, "two"], "Expected `int`, got `str`", "taskIds[1]"),
    ],
)
def test_invalid_messages_fail_as_in_json(value: Any, reason: str, field: str | None) -> None:
    errors = []
    for frame, serializer in ((json.dumps(value).encode() + b"\nend\n", "json"), (msgpack.packb(value), MP)):
        with pytest.raises(storm.DecodeError) as info:
            storm.decode(frame, direction="to_component", serializer=serializer)
        errors.append((info.value.reason, info.value.field))
    assert errors[0] == errors[1]
    assert reason in errors[1][0]
    if field is not None:
        assert errors[1][1] == field


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        (b"\xc1", "malformed MessagePack: invalid opcode"),
        (msgpack.packb({"command": "sync"})[:-1], "malformed MessagePack: Input data was truncated"),
        (msgpack.packb({"command": "sync"}) + b"\x00", "malformed MessagePack: trailing characters"),
        (b"\x91" * 100000 + b"\x90", "nested too deeply"),
        (b"\x81\xa7command\xa4sy\xffc", "not valid UTF-8"),
        (b"", "malformed MessagePack: Input data was truncated"),
    ],
)
def test_malformed_frames(frame: bytes, reason: str) -> None:
    with pytest.raises(storm.DecodeError) as info:
        storm.decode(frame, direction="to_storm", serializer=MP)
    assert reason in info.value.reason


def test_values_the_wire_cannot_carry_are_refused_before_writing() -> None:
    with pytest.raises(storm.EncodeError, match=r"Emit\.task"):
        storm.encode(storm.Emit(values=[], task=2**31), serializer=MP)
    with pytest.raises(storm.EncodeError, match=r"Ack\.id"):
        storm.encode(storm.Ack(id=5), serializer=MP)  # type: ignore[arg-type]


def test_a_value_no_python_value_is_refused_where_it_stands_in_its_own_words() -> None:
    """What the Spark functions' Python path reads a VARIANT timestamp beyond the years 0001 to 9999 as: refused
    with its reason and its path, as the Java codec refuses the VARIANT (tests/test_spark_storm_msgpack.py)."""
    from streamcodecs._runtime.jsonchecks import Unwritable

    for serializer in (MP, "json"):
        with pytest.raises(storm.EncodeError) as info:
            storm.encode(storm.Emit(values=[1, {"t": [Unwritable("no year")]}]), serializer=serializer)
        assert (info.value.reason, info.value.field) == ("no year", "Emit.tuple[1][...][0]")


# ---------------------------------------------------------------------------------------------- the stream
def stream_of(direction: str) -> tuple[bytes, list[storm.Message]]:
    messages = [m for d, m in PACKABLE.values() if d == direction]
    return b"".join(storm.encode(m, serializer=MP) for m in messages), messages


@pytest.mark.parametrize("direction", ["to_component", "to_storm"])
def test_a_stream_cut_anywhere_reads_the_same(direction: str) -> None:
    data, messages = stream_of(direction)
    for cut in range(len(data) + 1):
        reader = storm.Reader(direction=direction, serializer=MP)
        assert reader.feed(data[:cut]) + reader.feed(data[cut:]) == messages, cut
        assert reader.buffered == 0
    reader = storm.Reader(direction=direction, serializer=MP)
    assert [m for i in range(len(data)) for m in reader.feed(data[i : i + 1])] == messages


def test_a_long_stream_in_pipe_sized_chunks() -> None:
    frames = [pystorm_serializer().serialize_dict(document(PACKABLE["BoltTuple"][1]))] * 3000
    frames[1234] = msgpack.packb(document(PACKABLE["Tick"][1]))
    data = b"".join(frames)
    reader = storm.Reader(direction="to_component", serializer=MP)
    got = [m for i in range(0, len(data), 4096) for m in reader.feed(data[i : i + 4096])]
    assert len(got) == 3000 and got[1234] == PACKABLE["Tick"][1]
    assert got[:1234] == [PACKABLE["BoltTuple"][1]] * 1234


def test_issue32_defect6_a_frame_fed_byte_by_byte_is_read_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #32, defect 6: a value cut into many pieces was copied and rescanned from its start on every feed
    (a 116 KiB frame fed byte by byte took 7 s). Now the incomplete value's structure is followed as it arrives,
    and msgspec is asked again only once it is complete: the bytes it is handed stay a small multiple of the
    stream, however it is cut (counted, not timed)."""
    from streamcodecs._runtime import jsonpacked

    values: list[Any] = [f"value-{i}" for i in range(9000)] + list(range(-3000, 3000)) + [b"\x00" * 300, None, 2.5]
    tuple_ = {"id": "-6955325049453591163", "comp": "spout", "stream": "default", "task": 9, "tuple": values}
    frame = msgpack.packb(tuple_, use_bin_type=True)
    assert 100 * 1024 < len(frame) < 140 * 1024
    sync = msgpack.packb({"command": "sync"})
    scanned = 0
    skip = jsonpacked._SKIP_VALUES

    class Counting:
        def decode(self, data: Any) -> Any:
            nonlocal scanned
            scanned += len(data)
            return skip.decode(data)

    monkeypatch.setattr(jsonpacked, "_SKIP_VALUES", Counting())
    reader = storm.Reader(direction="to_component", serializer=MP)
    data = frame + frame
    got = [m for i in range(len(data)) for m in reader.feed(data[i : i + 1])]
    expected = storm.BoltTuple(id=tuple_["id"], comp="spout", stream="default", task=9, values=values)
    assert got == [expected, expected]
    assert scanned < 4 * len(data), scanned  # before: about len(frame) ** 2 / 2 for each frame
    reader = storm.Reader(direction="to_storm", serializer=MP)  # values arriving whole are never followed
    assert reader.feed(sync * 3) == [storm.Sync()] * 3


@pytest.mark.parametrize(
    "value",
    [
        None, True, 0, 127, -32, 200, 40000, 2**31, 2**40, -100, -40000, -(2**31), -(2**40), 1.5,
        "", "x" * 31, "x" * 32, "x" * 300, "x" * 70000, b"", b"b" * 300, b"b" * 70000,
        [], [1, [2, [3, []]]], list(range(20)), list(range(70000)), {}, {"k": {"l": [1, {}]}},
        {str(i): i for i in range(20)}, {str(i): i for i in range(70000)},
        msgpack.ExtType(1, b"a"), msgpack.ExtType(2, b"ab"), msgpack.ExtType(3, b"abcd"),
        msgpack.ExtType(4, b"a" * 8), msgpack.ExtType(5, b"a" * 16), msgpack.ExtType(6, b"abc"),
        msgpack.ExtType(7, b"a" * 300), msgpack.ExtType(8, b"a" * 70000),
    ],
    ids=lambda value: f"{type(value).__name__}-{len(value) if hasattr(value, '__len__') else value}",
)  # fmt: skip
def test_a_value_of_every_kind_cut_anywhere_waits_for_its_rest(value: Any) -> None:
    """The structure of an incomplete value is followed for each MessagePack type (extensions included, under a
    message's own key that is not a string, which is ignored): the value is read as soon as its last byte arrives, never
    before, wherever it is cut."""
    message = {"command": "metrics", "name": "m", "params": value}
    if isinstance(value, msgpack.ExtType):  # no free-form value (see below): under a key ignored, still followed
        message = {"command": "metrics", "name": "m", "params": None, 7: value}
    packed = msgpack.packb(message, use_bin_type=True)
    sync = msgpack.packb({"command": "sync"})
    decoded = storm.decode(packed, serializer=MP)
    cuts = range(1, len(packed)) if len(packed) < 400 else [1, 2, 3, 5, 100, len(packed) // 2, len(packed) - 1]
    for cut in cuts:
        reader = storm.Reader(direction="to_storm", serializer=MP)
        assert reader.feed(sync + packed[:cut]) == [storm.Sync()], cut
        assert reader.feed(packed[cut:-1]) == [], cut
        assert reader.feed(packed[-1:] + sync) == [decoded, storm.Sync()], cut


def test_an_invalid_message_is_skipped_and_named_by_its_stream_offset() -> None:
    sync = msgpack.packb({"command": "sync"})
    bad = msgpack.packb({"command": "emit", "tuple": 1})
    reader = storm.Reader(direction="to_storm", serializer=MP)
    with pytest.raises(storm.DecodeError) as info:
        reader.feed(sync + bad + sync)
    where = len(sync) + bad.index(b"\xa5tuple") + 6  # the refused value, as a stream offset
    assert (info.value.offset, info.value.field, info.value.line) == (where, "tuple", None)
    assert info.value.decoded == [storm.Sync()]
    assert reader.feed(b"") == [storm.Sync()]  # reading goes on after it


def test_bytes_that_are_not_msgpack_end_the_stream() -> None:
    sync = msgpack.packb({"command": "sync"})
    reader = storm.Reader(direction="to_storm", serializer=MP)
    with pytest.raises(storm.DecodeError, match="invalid opcode") as info:
        reader.feed(sync + sync + b"\xc1" + sync)
    assert info.value.offset == 2 * len(sync) and info.value.decoded == [storm.Sync(), storm.Sync()]
    with pytest.raises(storm.DecodeError, match="cannot be resynchronised"):
        reader.feed(sync)  # no delimiter to find the next message by


def test_over_long_messages() -> None:
    log = msgpack.packb({"command": "log", "msg": "x" * 200})
    sync = msgpack.packb({"command": "sync"})
    reader = storm.Reader(direction="to_storm", serializer=MP, max_message=100)
    with pytest.raises(storm.DecodeError, match="longer than 100 bytes") as info:
        reader.feed(sync + log + sync)  # whole: its end is known, reading goes on after it
    assert info.value.offset == len(sync) and info.value.decoded == [storm.Sync()]
    assert reader.feed(b"") == [storm.Sync()]
    with pytest.raises(storm.DecodeError, match="longer than 100 bytes"):
        reader.feed(log[:150])  # incomplete and already too long: nothing tells where it ends
    with pytest.raises(storm.DecodeError, match="cannot be resynchronised"):
        reader.feed(log[150:] + sync)


# ---------------------------------------------------------------------------------------------- components
def handshake(pid_dir: Path) -> dict[str, Any]:
    return {
        "conf": {"topology.name": "wc", "topology.debug": False},
        "pidDir": str(pid_dir),
        "context": {"task->component": {"1": "__acker", "3": "split"}, "taskid": 3, "componentid": "split"},
    }


def pystorm_frames(*values: Any) -> bytes:
    serializer = pystorm_serializer()
    return b"".join(serializer.serialize_dict(v) for v in values)


def read_back(out: io.BytesIO) -> list[Any]:
    """What the component wrote, read by pystorm's serializer (the Storm side speaks as it does)."""
    reader = pystorm_serializer(out.getvalue())
    found = []
    while True:
        try:
            found.append(reader.read_message())
        except Exception:  # StormWentAwayError at the end
            return found


class Echo(storm.Bolt):
    serializer = "msgpack"

    def process(self, tup: storm.Tuple) -> None:
        self.emit([*tup.values, "seen"])


def test_bolt_on_pystorm_frames(tmp_path: Path) -> None:
    stream = pystorm_frames(
        handshake(tmp_path),
        {"id": "-69", "comp": "spout", "stream": "default", "task": 4, "tuple": ["a", b"\x01", 2.5, None]},
        {"id": "7", "comp": None, "stream": "__heartbeat", "task": -1, "tuple": []},
        {"id": "-70", "comp": "__system", "stream": "__tick", "task": -1, "tuple": [5]},
    )
    out = io.BytesIO()
    Echo().run(io.BytesIO(stream), out)
    assert (tmp_path / str(os.getpid())).is_file()
    assert read_back(out) == [
        {"pid": os.getpid()},
        {"command": "emit", "tuple": ["a", b"\x01", 2.5, None, "seen"], "anchors": ["-69"], "need_task_ids": False},
        {"command": "ack", "id": "-69"},
        {"command": "sync"},
        {"command": "ack", "id": "-70"},
    ]


class Counter(storm.Spout):
    def __init__(self) -> None:
        super().__init__(serializer="msgpack")
        self.n = 0
        self.acked: list[Any] = []

    def next_tuple(self) -> None:
        self.n += 1
        self.emit(["n", self.n], tup_id={"n": self.n})

    def ack(self, tup_id: Any) -> None:
        self.acked.append(tup_id)


def test_spout_on_pystorm_frames(tmp_path: Path) -> None:
    stream = pystorm_frames(handshake(tmp_path), {"command": "next", "id": ""}, {"command": "ack", "id": {"n": 1}})
    spout = Counter()
    out = io.BytesIO()
    spout.run(io.BytesIO(stream), out)
    assert spout.acked == [{"n": 1}]
    assert read_back(out) == [
        {"pid": os.getpid()},
        {"command": "emit", "tuple": ["n", 1], "id": {"n": 1}, "need_task_ids": False},
        {"command": "sync"},
        {"command": "sync"},
    ]


def test_a_stream_ending_inside_a_message_is_an_error(tmp_path: Path) -> None:
    stream = pystorm_frames(handshake(tmp_path), {"command": "next", "id": ""})
    with pytest.raises(storm.DecodeError, match="the stream ended inside a message"):
        Counter().run(io.BytesIO(stream[:-3]), io.BytesIO())


# ---------------------------------------------------------------------------------------------- the vectors
def test_the_reference_encoder_writes_what_the_msgpack_package_writes() -> None:
    from streamcodecs_gen.vectors.msgpack_ref import pack

    edges = [0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**64 - 1]
    edges += [-1, -32, -33, -128, -129, -32768, -32769, -(2**31), -(2**31) - 1, -(2**63)]
    texts = ["", "é" * 15, "x" * 31, "x" * 32, "x" * 255, "x" * 256, "x" * 65535, "x" * 65536]
    values = [None, True, False, 0.0, -2.5, 1e300, *edges, *texts, b"", b"\x00" * 256, b"\x01" * 65536]
    values += [[], list(range(15)), list(range(16)), list(range(65536)), {}, {str(i): i for i in range(16)}]
    values += [{"nested": [{"a": None}, [b"x", 1.5]]}]
    for value in values:
        assert pack(value) == msgpack.packb(value), value


def test_the_vectors_are_what_pystorm_reads_and_the_json_vectors_say() -> None:
    vectors = Path(__file__).resolve().parent.parent / "output" / "py" / "vectors" / "storm"
    found = sorted(vectors.glob("*/msgpack/manifest.json"))
    assert len(found) == len(storm.VERSIONS)
    for manifest_path in found:
        packed = json.loads(manifest_path.read_text())
        plain = json.loads((manifest_path.parent.parent / "manifest.json").read_text())
        blob = (manifest_path.parent / packed["file"]).read_bytes()
        json_blob = (manifest_path.parent.parent / plain["file"]).read_bytes()
        reader = pystorm_serializer(blob)  # every frame back to back, as on the wire
        for entry, json_entry in zip(packed["vectors"], plain["vectors"], strict=True):
            frame = blob[entry["offset"] : entry["offset"] + entry["length"]]
            json_frame = json_blob[json_entry["offset"] : json_entry["offset"] + json_entry["length"]]
            assert reader.read_message() == json.loads(json_frame[:-5])
            expected = storm.decode(json_frame, direction=entry["direction"])
            assert storm.decode(frame, direction=entry["direction"], serializer=MP) == expected


TRICKY = [
    {"id": "1", "comp": "c", "stream": "s", "task": 1, "tuple": ["v", 1]},
    {"id": "2", "comp": "c", "stream": "s", "task": 1, "tuple": ["command", "conf", "__tick"]},  # keys as values
    {"id": "3", "comp": "c", "stream": "s", "task": 1, "tuple": [], "extra": True},  # an unknown key
    {"id": "", "comp": "c", "stream": "s", "task": 1, "tuple": [], "command": "next"},  # the tag decides: Next
    {"id": "4", "comp": None, "stream": "__heartbeat", "task": -1, "tuple": []},
    {"id": "5", "comp": "__system", "stream": "__tick", "task": -1, "tuple": [1]},
    {"id": "6", "comp": "c", "stream": "__heartbeat", "task": 2, "tuple": []},  # not a heartbeat: task is not -1
    [1, 2],
    {"command": "next", "id": ""},
    {"command": "ack", "id": {"m": 1}},
    {"conf": {}, "pidDir": "/p", "context": {"task->component": {}}, "id": "7"},
    # a tuple's keys and a handshake's: the earlier shape decides (BoltTuple's Struct refuses the other keys)
    {
        "id": "8",
        "comp": "c",
        "stream": "s",
        "task": 1,
        "tuple": [],
        "conf": {},
        "pidDir": "/p",
        "context": {"task->component": {}},
    },
    {"id": "9", "comp": "c", "stream": "s", "task": 1, "tuple": ["context", "pidDir"]},  # keys as values
    {"id": "10", "comp": "c", "stream": "__tick", "task": 1, "tuple": []},  # a tick's stream, not its comp: a tuple
    {"id": "11", "comp": "c", "stream": "s", "task": 1, "tuple": [], "conf": 1, "pidDir": 2},  # unknown keys
]


def test_runs_of_values_read_as_one_by_one() -> None:
    """The reader decodes a run of similar values in one pass; whatever the mix, it must give what decoding each
    value on its own gives (the tag and the more specific shapes first)."""
    import random

    one_by_one = [storm.decode(msgpack.packb(v), direction="to_component", serializer=MP) for v in TRICKY]
    assert [type(m).__name__ for m in one_by_one] == [
        "BoltTuple", "BoltTuple", "BoltTuple", "Next", "Heartbeat", "Tick", "BoltTuple", "TaskIds", "Next",
        "SpoutAck", "Handshake", "Handshake", "BoltTuple", "BoltTuple", "BoltTuple",
    ]  # fmt: skip
    rng = random.Random(18)
    for _ in range(300):
        picks = [rng.randrange(len(TRICKY)) for _ in range(rng.randrange(1, 40))]
        if rng.random() < 0.5:
            picks = [picks[0]] * len(picks)  # runs of one kind, as streams come
        data = b"".join(msgpack.packb(TRICKY[i]) for i in picks)
        reader = storm.Reader(direction="to_component", serializer=MP)
        step = rng.randrange(1, len(data) + 1)
        got = [m for i in range(0, len(data), step) for m in reader.feed(data[i : i + step])]
        assert got == [one_by_one[i] for i in picks], picks


def _read(reader: storm.Reader, chunks: list[bytes]) -> list[Any]:
    """Everything a reader gives for ``chunks``: messages, and each error as (its words, offset, line), read on
    after it as a component does."""
    got: list[Any] = []
    for chunk in [*chunks, b""]:
        try:
            got += reader.feed(chunk)
        except storm.DecodeError as exc:
            got += [*exc.decoded, (str(exc), exc.offset, exc.line)]
            while True:
                try:
                    got += reader.feed(b"")
                    break
                except storm.DecodeError as again:
                    got += [*again.decoded, (str(again), again.offset, again.line)]
    return got


@pytest.mark.parametrize("serializer", ["json", MP])
def test_one_message_per_feed_reads_as_the_whole_stream(serializer: str) -> None:
    """A pipe read at a low rate hands the reader one whole message at a time, which it decodes in one call
    (nothing buffered, one typed decode); the messages, the errors and where they are said to be are those of the
    same bytes fed at once or cut anywhere. The refused values sit between good ones, and a message of each kind
    (heartbeats, ticks, handshakes, task ids: the general path) comes alone."""
    bad = {"id": 5, "comp": "c", "stream": "s", "task": 1, "tuple": []}  # id must be a string
    values = [*TRICKY[:6], bad, *TRICKY[6:], bad, TRICKY[0]]
    if serializer == MP:
        frames = [msgpack.packb(v) for v in values]
    else:
        frames = [json.dumps(v).encode() + b"\nend\n" for v in values]
        frames.insert(3, b'{"id":"x","comp":"c",\n"stream":"s","task":1,"tuple":[]}\nend\n')  # spans two lines
        frames.insert(5, b'{"id":"\\ud800","comp":"c","stream":"s","task":1,"tuple":[]}\nend\n')  # lone surrogate
        frames.insert(6, b'{"id":"\\uDC00","comp":"c","stream":"s","task":1,"tuple":[]}\nend\n')  # upper case
        frames.insert(7, b'{"id":"x","comp":"c","stream":"s","task":1,"tuple":["\xc3\xa9\\/"]}\nend\n')  # UTF-8
        frames.insert(8, b'{"id":"x","comp":"c","stream":"s","task":1,"tuple":[],"k":"\xff"}\nend\n')  # not UTF-8
        # In a key the message does not have, which the typed decode skips without reading it
        frames.insert(9, b'{"command":"next","k":"\\ud800"}\nend\n')
        frames.insert(10, b'{"command":"next","k":"\xff"}\nend\n')
    whole = b"".join(frames)
    expected = _read(storm.Reader(direction="to_component", serializer=serializer), [whole])
    assert sum(1 for item in expected if type(item) is tuple) == (2 if serializer == MP else 7)
    assert _read(storm.Reader(direction="to_component", serializer=serializer), frames) == expected
    halves = [part for frame in frames for part in (frame[: len(frame) // 2], frame[len(frame) // 2 :])]
    assert _read(storm.Reader(direction="to_component", serializer=serializer), halves) == expected


_NOW = datetime.datetime(2026, 11, 29, 12, 0, tzinfo=datetime.UTC)
# Free-form values the common twins take (scalars) and those they leave to the message itself: bytes, a timestamp,
# nested lists and maps, and what decode refuses (a key that is not a string, an extension)
_FREE = [
    "v", 1, 2**64 - 1, -(2**63), 2.5, float("nan"), True, None,
    b"\xff", _NOW, [1, ["x"]], {"k": [b""]}, {1: "one"}, msgpack.ExtType(5, b"ab"),
]  # fmt: skip


def _values(rng: Any, direction: str) -> Any:
    """A MessagePack value of ``direction`` whose free-form values are drawn from ``_FREE``, mostly scalars."""

    def free() -> Any:
        return rng.choice(_FREE[:8] if rng.random() < 0.8 else _FREE)

    values = [free() for _ in range(rng.randrange(4))]
    if direction == "to_component":
        kind = rng.choice(["tuple", "tuple", "tuple", "ack", "fail"])
        if kind == "tuple":
            return {"id": "1", "comp": "c", "stream": "s", "task": 1, "tuple": values}
        return {"command": kind, "id": free()}
    kind = rng.choice(["emit", "emit", "emit", "metrics", "ack"])
    if kind == "emit":
        return {"command": "emit", "tuple": values, "anchors": ["a"], "id": free()}
    if kind == "metrics":
        return {"command": "metrics", "name": "m", "params": free()}
    return {"command": "ack", "id": "1"}


@pytest.mark.parametrize("direction", ["to_component", "to_storm"])
def test_runs_the_common_twins_refuse_read_as_one_by_one(direction: str) -> None:
    """A run of values is first decoded as the messages' common twins (free-form values narrowed to scalars, which
    msgspec checks in C); what they refuse (bytes, timestamps, nesting, and what decode refuses) is read by the
    messages themselves or one by one: the same messages and errors, at the same offsets, as each value alone."""
    import random

    rng = random.Random(61)
    for _ in range(200):
        values = [_values(rng, direction) for _ in range(rng.randrange(1, 30))]
        if rng.random() < 0.3:
            values = [values[0]] * len(values)  # runs of one kind, as streams come
        frames = [msgpack.packb(v, datetime=True) for v in values]
        whole = _read(storm.Reader(direction=direction, serializer=MP), [b"".join(frames)])
        alone = _read(storm.Reader(direction=direction, serializer=MP), frames)
        assert repr(whole) == repr(alone), values  # (repr: a NaN is not equal to itself)
        decoded = []
        for frame in frames:
            try:
                decoded.append(storm.decode(frame, direction=direction, serializer=MP))
            except storm.DecodeError:
                pass
        assert repr([m for m in whole if type(m) is not tuple]) == repr(decoded)


def test_what_the_common_twins_give_is_the_message_itself() -> None:
    """A run the twins decode gives the messages' own classes, with every field as decoding each value gives."""
    tuples = [
        {"id": str(i), "comp": "c", "stream": "s", "task": i, "tuple": ["a", i, 2.5, True, None]} for i in range(50)
    ]
    data = b"".join(msgpack.packb(t) for t in tuples)
    got = storm.Reader(direction="to_component", serializer=MP).feed(data)
    assert [type(m) for m in got] == [storm.BoltTuple] * 50
    assert got == [storm.decode(msgpack.packb(t), serializer=MP) for t in tuples]


@pytest.mark.parametrize("per_feed", [3, 1])
def test_after_the_twins_refuse_a_run_they_wait_longer_each_time(per_feed: int) -> None:
    """A run (or a value fed alone) the common twins refuse was decoded in part for nothing: the next runs skip
    the twins, one run after the first refusal, then two, four... (at most 64); a run they take starts again from
    one. The messages are the same either way."""
    plain = msgpack.packb({"id": "1", "comp": "c", "stream": "s", "task": 1, "tuple": ["v", 1]})
    holding_bytes = msgpack.packb({"id": "2", "comp": "c", "stream": "s", "task": 1, "tuple": [b"\x00"]})
    reader = storm.Reader(direction="to_component", serializer=MP)
    frames = reader._packed
    assert frames is not None and frames._run is not None
    name = "common_base" if per_feed > 1 else "common_fast"
    twins, tried = getattr(frames._run, name), []
    assert twins is not None

    def counted(*args: Any) -> Any:
        tried.append(1)
        return twins(*args)

    frames._run = frames._run._replace(**{name: counted})
    attempts = []
    for frame in [holding_bytes] * 10 + [plain] * 2:
        before = len(tried)
        assert reader.feed(frame * per_feed) == [storm.decode(frame, serializer=MP)] * per_feed
        attempts.append(len(tried) - before)
    assert attempts == [1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 1]
