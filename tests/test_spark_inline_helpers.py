"""The Python steps of the binary family's Spark functions (``streamcodecs_gen/py_package/spark/_stream.py``,
``_inline.py``, ``_binary.py``) at their source, with Pravega's tables: no Spark session, only Arrow batches as
Spark hands them over and a stand-in for the state of ``applyInPandasWithState``."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pyarrow as pa
import pytest
from streamcodecs import pravega as pv
from streamcodecs.pravega import messages
from streamcodecs.spark import pravega as spv
from test_py_package import source_module

stream_module = source_module("spark/_stream.py")
inline_module = source_module("spark/_inline.py")
binary_module = source_module("spark/_binary.py")
shipped_module = source_module("spark/_shipped.py")

FRAMES = stream_module.InlineFrames(messages._CODEC)
INLINE = inline_module.InlineFunctions(
    "unused",
    "unused",
    codec=pv,
    protocol="pravega",
    schema=spv.INLINE,
    kinds=spv._INLINE_KINDS,
    frames=messages._CODEC,
)


def blob(*payloads: bytes) -> bytes:
    return b"".join(pv.encode_inline(pv.Event(data=p)) for p in payloads)


def payloads(found: list[Any]) -> list[Any]:
    return [(at, None if m is None else bytes(m.data), error) for at, m, error in found]


def test_a_stream_cut_anywhere_gives_each_frame_once_whole() -> None:
    rng = random.Random(7)
    data = [rng.randbytes(rng.randrange(0, 30)) for _ in range(20)]
    whole = blob(*data)
    for _ in range(50):
        cuts = sorted(rng.sample(range(1, len(whole)), 8))
        stream = stream_module.Stream(FRAMES)
        found = []
        for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True):
            found += stream.feed(a, whole[a:b])
        found += stream.finish()
        assert [p for _, p, _ in payloads(found)] == data
        assert [e for _, _, e in found] == [None] * len(data)


def test_problems_of_a_stream() -> None:
    good = blob(b"one")
    stream = stream_module.Stream(FRAMES, start=0)
    assert payloads(stream.feed(0, good[:5])) == []
    assert payloads(stream.feed(7, good[5:])) == [
        (7, None, "data for offset 7, expected 5, losing the 5 bytes of a cut frame")
    ]
    bad = b"\x00\x00\x00\x05\x00\x00\x00\x00"  # type code 5: not an inline frame
    stream = stream_module.Stream(FRAMES, start=0)
    assert payloads(stream.feed(0, good + bad + good)) == [
        (0, b"one", None),
        (11, None, "type code 5 is not an inline frame (Event) (offset 11)"),
    ]
    assert payloads(stream.feed(30, good)) == [
        (30, None, "not read: the stream is unreadable after the bad frame header at offset 11")
    ]
    stream = stream_module.Stream(FRAMES, start=0)
    assert payloads(stream.feed(0, b"\x00\x00\x00\x00\x7f\xff\xff\xff")) == [
        (0, None, f"payload length {2**31 - 1} outside 0..{messages.MAX_FRAME - 8} (offset 4)")
    ]
    stream = stream_module.Stream(FRAMES, start=0)
    stream.feed(0, good[:-1])
    assert payloads(stream.finish()) == [(0, None, "the data ends inside a frame (10 of 11 bytes) (offset 0)")]


def test_pieces_wait_for_a_gap_up_to_max_frame_bytes() -> None:
    """The bound on what waits per stream: beyond ``MAX_FRAME`` bytes behind a gap, the gap is a problem."""
    whole = blob(b"one", b"two", b"three")
    stream = stream_module.Stream(FRAMES, start=0)
    assert stream.take([(22, whole[22:])], wait=True) == ([], [(22, whole[22:])])
    filler = blob(bytes(messages.MAX_FRAME - 8 - len(whole) + 22))
    found, waiting = stream.take([(22, whole[22:]), (len(whole), filler)], wait=True)
    assert (found, len(filler) + len(whole) - 22) == ([], messages.MAX_FRAME)  # exactly MAX_FRAME bytes wait
    found, waiting = stream.take([*waiting, (len(whole) + len(filler), b"\0")], wait=True)  # one byte more
    assert [(at, error) for at, _, error in found] == [
        (22, "data for offset 22, expected 0"),
        (22, None),
        (len(whole), None),
    ]
    assert waiting == [] and stream.pending == b"\0"


def test_what_the_state_store_keeps_reads_back() -> None:
    """The layout of a stream's state (a checkpoint holds it: it must not change), and a stream restored from it
    going on where the saved one stopped."""
    assert inline_module.STATE.simpleString() == "struct<offset:bigint,pending:binary,broken:string,waiting:binary>"
    assert stream_module.packed([(5, b"ab"), (9, b"")]) == bytes.fromhex(
        "000000000000000500000002" + "6162"
    ) + bytes.fromhex("000000000000000900000000")
    assert stream_module.unpacked(stream_module.packed([(5, b"ab"), (9, b"")])) == [(5, b"ab"), (9, b"")]
    assert stream_module.unpacked(None) == []
    whole = blob(b"one", b"two")
    stream = stream_module.Gathering(FRAMES, start=0)
    assert [f[1] for f in stream.feed(0, whole[:14])] == [whole[:11]]
    saved = stream.saved()
    assert saved == (11, whole[11:14], None)
    again = stream_module.Gathering(FRAMES)
    again.restore(saved)
    assert again.feed(14, whole[14:]) == [(11, whole[11:], None)] and again.finish() == []


def test_split_batch() -> None:
    values = pa.array([blob(b"a", b"bc"), None, b"", blob(b"x")[:-1]], pa.binary())
    rows = INLINE.split_batch(values, False).to_pylist()
    assert [
        [(r["offset"], r["message"], r["event"], r["error"]) for r in row] if row is not None else None for row in rows
    ] == [
        [(0, "Event", {"data": b"a"}, None), (9, "Event", {"data": b"bc"}, None)],
        None,
        [],
        [(0, None, None, "the data ends inside a frame (8 of 9 bytes) (offset 0)")],
    ]
    with pytest.raises(pv.DecodeError, match=r"ends inside a frame .* \(input of 8 bytes starts 0000000000000001\)"):
        INLINE.split_batch(values, True)


def test_explode_batches_in_a_batch_and_gathered_for_the_jvm() -> None:
    whole = blob(b"one", b"two")
    schema = pa.schema([("s", pa.string()), ("at", pa.int64()), ("data", pa.binary())])
    rows = pa.RecordBatch.from_pylist(
        [
            {"s": "a", "at": 0, "data": whole[:5]},
            {"s": "a", "at": 5, "data": whole[5:]},
            {"s": "b", "at": 3, "data": whole},
            {"s": "b", "at": None, "data": b"x"},
        ],
        schema=schema,
    )
    decoded = pa.schema(
        [pa.field("s", pa.string()), pa.field("at", pa.int64())]
        + [INLINE.arrow.field(i) for i in range(1, INLINE.arrow.num_fields)]
    )
    found = [b.to_pylist() for b in INLINE.explode_batches([rows], True, False, decoded, None)]
    assert [(r["s"], r["at"], r["event"] and r["event"]["data"], r["error"]) for b in found for r in b] == [
        ("a", 0, b"one", None),
        ("a", 11, b"two", None),
        ("b", 3, b"one", None),
        ("b", 14, b"two", None),
        ("b", 0, None, "no offset"),
    ]
    gathered = pa.schema([("s", pa.string()), ("at", pa.int64()), ("frame", pa.binary()), ("problem", pa.string())])
    found = [b.to_pylist() for b in INLINE.explode_batches([rows], True, False, gathered, 0, gather=True)]
    assert [(r["s"], r["at"], r["frame"], r["problem"]) for b in found for r in b] == [
        ("a", 0, whole[:11], None),
        ("a", 11, whole[11:], None),
        ("b", 3, None, "data for offset 3, expected 0"),
        ("b", 3, whole[:11], None),
        ("b", 14, whole[11:], None),
        ("b", 0, None, "no offset"),
    ]


class State:
    """What ``applyInPandasWithState`` hands its function: the group's state (a stand-in)."""

    def __init__(self, saved: tuple[Any, ...] | None = None, timed_out: bool = False) -> None:
        self.saved = saved
        self.hasTimedOut = timed_out
        self.timeout: int | None = None

    @property
    def exists(self) -> bool:
        return self.saved is not None

    @property
    def get(self) -> tuple[Any, ...]:
        assert self.saved is not None
        return self.saved

    def update(self, saved: tuple[Any, ...]) -> None:
        self.saved = saved

    def remove(self) -> None:
        self.saved = None

    def setTimeoutDuration(self, milliseconds: int) -> None:  # noqa: N802 - Spark's name
        self.timeout = milliseconds


def test_gather_keeps_a_cut_frame_and_pieces_behind_a_gap_in_the_state() -> None:
    pd = pytest.importorskip("pandas")
    offset, frame, problem, no_offset = inline_module.GATHERED
    whole = blob(b"one", b"two", b"three")

    def micro_batch(state: State, pieces: list[tuple[int, bytes]], **options: Any) -> list[tuple[Any, ...]]:
        chunk = pd.DataFrame({offset: [p[0] for p in pieces], "data": [p[1] for p in pieces], no_offset: False})
        settings = {"data": "data", "key_name": "s", "timeout": 1000, "start": 0, "failfast": False, **options}
        out = list(INLINE.gather(("k",), iter([chunk]), state, **settings))
        return [] if not out else list(zip(out[0][offset], out[0][frame], out[0][problem], strict=True))

    state = State()
    assert micro_batch(state, [(0, whole[:5]), (22, whole[22:])]) == []
    assert state.saved == (0, whole[:5], None, stream_module.packed([(22, whole[22:])])) and state.timeout == 1000
    assert micro_batch(state, [(5, whole[5:22])]) == [
        (0, whole[:11], None),
        (11, whole[11:22], None),
        (22, whole[22:], None),
    ]
    assert state.saved == (len(whole), b"", None, b"")
    assert micro_batch(state, [(len(whole), whole[:3])]) == []
    ended = State(state.saved, timed_out=True)
    assert micro_batch(ended, []) == [
        (len(whole), None, f"the data ends inside a frame (3 of 8 bytes) (offset {len(whole)})")
    ]
    assert ended.saved is None
    failing = State((11, b"", None, b""))
    with pytest.raises(pv.DecodeError, match="data for offset 5, expected 11"):
        micro_batch(failing, [(5, whole[5:])], failfast=True)
    assert failing.saved == (11, b"", None, b"")  # FAILFAST fails before the state is saved


def test_decode_gathered() -> None:
    whole = blob(b"one")
    bad = whole[:8] + b"\xff" * 3
    rows = pa.RecordBatch.from_pylist(
        [
            {"s": "a", "at": 4, "frame": whole, "problem": None},
            {"s": "a", "at": 0, "frame": None, "problem": "no offset"},
        ],
        schema=pa.schema([("s", pa.string()), ("at", pa.int64()), ("frame", pa.binary()), ("problem", pa.string())]),
    )
    schema = pa.schema(
        [pa.field("s", pa.string()), pa.field("at", pa.int64())]
        + [INLINE.arrow.field(i) for i in range(1, INLINE.arrow.num_fields)]
    )
    out = [r for b in INLINE.decode_gathered([rows], True, False, schema) for r in b.to_pylist()]
    assert [(r["s"], r["at"], r["event"], r["error"]) for r in out] == [
        ("a", 4, {"data": b"one"}, None),
        ("a", 0, None, "no offset"),
    ]
    assert FRAMES.frame(bad, 0, len(bad), 100)[0] == 100


def test_binary_decode_and_encode_batches() -> None:
    functions = binary_module.BinaryFunctions(
        "unused",
        "unused",
        codec=pv,
        protocol="pravega",
        directions=spv.DIRECTIONS,
        decoded=spv.DECODED,
        encoded_from=spv._ENCODED_FROM,
        kinds=spv._KINDS,
    )
    frames = pa.array([pv.encode(pv.KeepAlive()), None, b"\x00\x00"], pa.binary())
    decoded = functions.decode_batch(frames, None, False)
    assert [(r and r["message"], r and r["error"]) for r in decoded.to_pylist()] == [
        ("KeepAlive", None),
        (None, None),
        (None, "frame of 2 bytes is shorter than the 8-byte header (offset 0)"),
    ]
    with pytest.raises(pv.DecodeError, match=r"\(input of 2 bytes starts 0000\)$"):
        functions.decode_batch(frames, None, True)
    assert functions.encode_batch(decoded).to_pylist()[0] == {"data": pv.encode(pv.KeepAlive()), "error": None}


def test_the_functions_pickle_as_their_modules_global() -> None:
    """Spark pickles a UDF's function with the objects it names: these go as the global of the generated module
    that holds them, which an executor imports, not as a copy of the codec's tables."""
    for shipped in (spv._FUNCTIONS, spv._INLINE):
        assert len(pickle.dumps(shipped)) < 200 and pickle.loads(pickle.dumps(shipped)) is shipped
    stray = shipped_module.Shipped(spv.__name__, "_FUNCTIONS")
    with pytest.raises(TypeError, match="is not streamcodecs.spark.pravega._FUNCTIONS"):
        pickle.dumps(stray)
