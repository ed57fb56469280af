"""streamcodecs' ``storm.Bolt`` and ``storm.Spout`` fed exactly what Storm's Java side writes (compact JSON, HashMap
key order, ``\\/`` escapes, ``"comp":null`` heartbeats; samples from json-simple 1.1 / json-smart 2.6.0 runs), in
process over binary streams; the answers are read back with the codec.
"""

from __future__ import annotations

import inspect
import io
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from streamcodecs import storm

TUPLE_ID = "-6955325049453591163"
JAVA_TUPLE = (
    b'{"comp":"spout","tuple":["a\\/b","caf\xc3\xa9 \\u20AC \xf0\x9f\x98\x80",1,3000000000,2.5,true,null],'
    b'"task":9,"stream":"default","id":"-6955325049453591163"}\nend\n'
)
JAVA_HEARTBEAT = b'{"comp":null,"tuple":[],"task":-1,"stream":"__heartbeat","id":"4372932457817452154"}\nend\n'
JAVA_TICK = b'{"comp":"__system","tuple":[5],"task":-1,"stream":"__tick","id":"-123"}\nend\n'


def java_tuple(tuple_id: str, *values: str) -> bytes:
    return (
        b'{"comp":"spout","tuple":['
        + b",".join(b'"' + v.encode() + b'"' for v in values)
        + b'],"task":4,"stream":"default","id":"'
        + tuple_id.encode()
        + b'"}\nend\n'
    )


def java_handshake(pid_dir: Path) -> bytes:
    escaped = str(pid_dir).replace("/", "\\/").encode()
    return (
        b'{"pidDir":"' + escaped + b'","context":{"componentid":"split","streams":["default"],'
        b'"stream->target->grouping":{"default":{"count":{"type":"FIELDS","fields":["word"]}}},'
        b'"stream->outputfields":{"default":["word"]},'
        b'"source->stream->grouping":{"spout":{"default":{"type":"SHUFFLE"}}},'
        b'"task->component":{"1":"__acker","2":"count","3":"split","4":"spout"},'
        b'"source->stream->fields":{"spout":{"default":["sentence"]}},"taskid":3},'
        b'"conf":{"topology.workers":1,"topology.kryo.register":null,"topology.debug":false,"topology.name":"wc"}}'
        b"\nend\n"
    )


def serve(component: storm.Component, stream: bytes) -> list[storm.Message]:
    """Run the component on ``stream`` until its end; what it wrote, decoded."""
    out = io.BytesIO()
    component.run(io.BytesIO(stream), out)
    return messages_of(out)


def messages_of(out: io.BytesIO) -> list[storm.Message]:
    data = out.getvalue()
    assert data.endswith(b"\nend\n") or not data
    return storm.Reader(direction="to_storm").feed(data)


class Recorder(storm.Bolt):
    """Records what it is given; ``process`` emits the values with ``" seen"`` appended to the first."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def initialize(self, conf: dict[str, Any], context: storm.TopologyContext) -> None:
        self.calls.append(("initialize", (conf["topology.name"], context.task_id, self.component_name)))

    def process(self, tup: storm.Tuple) -> None:
        self.calls.append(("process", tup))
        self.emit([f"{tup.values[0]} seen", *tup.values[1:]])

    def process_tick(self, tup: storm.Tuple) -> None:
        self.calls.append(("tick", tup))


def test_bolt_handshake_pid_file_and_initialize(tmp_path: Path) -> None:
    bolt = Recorder()
    out = serve(bolt, java_handshake(tmp_path))
    assert out == [storm.PidReply(pid=os.getpid())]
    assert (tmp_path / str(os.getpid())).is_file()
    assert bolt.calls == [("initialize", ("wc", 3, "split"))]
    assert bolt.pid_dir == str(tmp_path)
    assert bolt.context.source_to_stream_to_fields == {"spout": {"default": ["sentence"]}}


def test_bolt_processes_a_java_tuple_then_acks_it(tmp_path: Path) -> None:
    bolt = Recorder()
    out = serve(bolt, java_handshake(tmp_path) + JAVA_TUPLE)
    tup = storm.Tuple(TUPLE_ID, "spout", "default", 9, ["a/b", "café € 😀", 1, 3000000000, 2.5, True, None])
    assert bolt.calls[1] == ("process", tup)
    assert out[1:] == [
        storm.Emit(
            values=["a/b seen", "café € 😀", 1, 3000000000, 2.5, True, None], anchors=[TUPLE_ID], need_task_ids=False
        ),
        storm.Ack(id=TUPLE_ID),
    ]


def test_heartbeat_is_answered_with_sync_and_never_acked(tmp_path: Path) -> None:
    bolt = Recorder()
    out = serve(bolt, java_handshake(tmp_path) + JAVA_HEARTBEAT + JAVA_HEARTBEAT)
    assert out[1:] == [storm.Sync(), storm.Sync()]
    assert [name for name, _ in bolt.calls] == ["initialize"]


def test_tick_tuple_goes_to_process_tick_and_is_acked(tmp_path: Path) -> None:
    bolt = Recorder()
    out = serve(bolt, java_handshake(tmp_path) + JAVA_TICK)
    assert bolt.calls[1] == ("tick", storm.Tuple("-123", "__system", "__tick", -1, [5]))
    assert out[1:] == [storm.Ack(id="-123")]


class AskingBolt(storm.Bolt):
    """Emits with need_task_ids=True for tuples whose value is "ask", and records the ids it got."""

    def __init__(self) -> None:
        super().__init__()
        self.got: list[Any] = []
        self.order: list[str] = []

    def process(self, tup: storm.Tuple) -> None:
        self.order.append(tup.values[0])
        if tup.values[0] == "ask":
            self.got.append(self.emit(["asked"], need_task_ids=True))
        elif tup.values[0] == "direct":
            self.got.append(self.emit(["d"], direct_task=9, need_task_ids=True))
        elif tup.values[0] == "task 0":
            self.got.append(self.emit(["z"], direct_task=0, need_task_ids=True))
        else:
            self.emit(["plain"])


def test_need_task_ids_round_trip_queues_a_tuple_that_comes_first(tmp_path: Path) -> None:
    bolt = AskingBolt()
    stream = java_handshake(tmp_path) + java_tuple("1", "ask") + java_tuple("2", "next") + b"[3,7]\nend\n"
    out = serve(bolt, stream)
    assert bolt.got == [[3, 7]]
    assert bolt.order == ["ask", "next"]  # the second tuple waited in the queue, then was processed
    assert out[1:] == [
        storm.Emit(values=["asked"], anchors=["1"], need_task_ids=True),
        storm.Ack(id="1"),
        storm.Emit(values=["plain"], anchors=["2"], need_task_ids=False),
        storm.Ack(id="2"),
    ]


def test_task_ids_that_arrive_before_they_are_asked_for_are_queued(tmp_path: Path) -> None:
    bolt = AskingBolt()
    stream = java_handshake(tmp_path) + b"[5]\nend\n" + java_tuple("1", "ask") + java_tuple("2", "ask") + b"[]\nend\n"
    out = serve(bolt, stream)
    assert bolt.got == [[5], []]
    assert [type(m).__name__ for m in out[1:]] == ["Emit", "Ack", "Emit", "Ack"]


def test_direct_emit_returns_the_task_without_asking_storm(tmp_path: Path) -> None:
    bolt = AskingBolt()
    out = serve(bolt, java_handshake(tmp_path) + java_tuple("1", "direct"))
    assert bolt.got == [[9]]
    assert out[1] == storm.Emit(values=["d"], anchors=["1"], task=9, need_task_ids=False)


def test_an_emit_to_task_0_is_a_normal_emit_as_storm_reads_it(tmp_path: Path) -> None:
    """Storm's ShellBolt and ShellSpout take task 0 (as an absent task) for a normal emit, answered with its task ids
    when they are needed: the ids are waited for, not made up as [0] (pystorm's answer, which leaves Storm's list to
    be taken by a later emit); and the 0 is not written (Storm 2.6.0+ fails on a small integer task)."""
    bolt = AskingBolt()
    stream = java_handshake(tmp_path) + java_tuple("1", "task 0") + b"[4,6]\nend\n" + java_tuple("2", "ask")
    out = serve(bolt, stream + b"[8]\nend\n")
    assert bolt.got == [[4, 6], [8]]
    assert out[1] == storm.Emit(values=["z"], anchors=["1"], need_task_ids=True)


class Failing(storm.Bolt):
    def process(self, tup: storm.Tuple) -> None:
        if tup.values[0] == "boom":
            raise ValueError("boom requested")
        self.emit([tup.values[0]], anchors=[])


def test_an_exception_reports_fails_and_ends_run(tmp_path: Path) -> None:
    out = io.BytesIO()
    stream = java_handshake(tmp_path) + java_tuple("1", "ok") + java_tuple("2", "boom") + java_tuple("3", "ok")
    with pytest.raises(ValueError, match="boom requested"):
        Failing().run(io.BytesIO(stream), out)
    written = messages_of(out)
    assert written[1:3] == [storm.Emit(values=["ok"], anchors=[], need_task_ids=False), storm.Ack(id="1")]
    error, fail = written[3:]
    assert isinstance(error, storm.Error) and "Python ValueError raised" in error.msg and "boom requested" in error.msg
    assert fail == storm.Fail(id="2")


def test_without_exit_on_exception_the_bolt_goes_on(tmp_path: Path) -> None:
    bolt = Failing()
    bolt.exit_on_exception = False
    bolt.auto_fail = False
    out = serve(bolt, java_handshake(tmp_path) + java_tuple("2", "boom") + java_tuple("3", "ok"))
    assert [type(m).__name__ for m in out[1:]] == ["Error", "Emit", "Ack"]
    assert out[3] == storm.Ack(id="3")


def test_auto_ack_off_leaves_acking_to_the_bolt(tmp_path: Path) -> None:
    class Manual(storm.Bolt):
        auto_ack = False
        auto_anchor = False

        def process(self, tup: storm.Tuple) -> None:
            self.emit(["x"])
            self.fail(tup)
            self.ack("other-id")

    out = serve(Manual(), java_handshake(tmp_path) + java_tuple("1", "a"))
    assert out[1:] == [
        storm.Emit(values=["x"], anchors=[], need_task_ids=False),
        storm.Fail(id="1"),
        storm.Ack(id="other-id"),
    ]


def test_log_error_metric_and_explicit_anchors(tmp_path: Path) -> None:
    class Chatty(storm.Bolt):
        def process(self, tup: storm.Tuple) -> None:
            self.log("plain")
            self.log("warned", level="warn")
            self.log("numbered", level=0)
            self.report_error("went wrong")
            self.report_metric("count", {"n": 1})
            self.emit(["x"], stream="side", anchors=[tup, "other"])

    out = serve(Chatty(), java_handshake(tmp_path) + java_tuple("1", "a"))
    assert out[1:] == [
        storm.Log(msg="plain", level=storm.LogLevel.INFO),
        storm.Log(msg="warned", level=storm.LogLevel.WARN),
        storm.Log(msg="numbered", level=storm.LogLevel.TRACE),
        storm.Error(msg="went wrong"),
        storm.Metrics(name="count", params={"n": 1}),
        storm.Emit(values=["x"], anchors=["1", "other"], stream="side", need_task_ids=False),
        storm.Ack(id="1"),
    ]


def test_a_malformed_message_is_reported_then_raised(tmp_path: Path) -> None:
    out = io.BytesIO()
    stream = java_handshake(tmp_path) + java_tuple("1", "a") + b'{"comp": bad}\nend\n' + java_tuple("2", "b")
    with pytest.raises(storm.DecodeError) as info:
        Recorder().run(io.BytesIO(stream), out)
    assert info.value.line == 5
    written = messages_of(out)
    assert [type(m).__name__ for m in written] == ["PidReply", "Emit", "Ack", "Error"]
    assert "could not read a message from Storm" in written[-1].msg


def test_a_spout_command_sent_to_a_bolt_is_a_protocol_error(tmp_path: Path) -> None:
    with pytest.raises(storm.ProtocolError, match="a bolt cannot take Next"):
        Recorder().run(io.BytesIO(java_handshake(tmp_path) + b'{"id":"","command":"next"}\nend\n'), io.BytesIO())


def test_the_first_message_must_be_the_handshake() -> None:
    with pytest.raises(storm.ProtocolError, match="must be the handshake"):
        Recorder().run(io.BytesIO(JAVA_TUPLE), io.BytesIO())


def test_end_of_stream_inside_a_message_is_a_decode_error(tmp_path: Path) -> None:
    with pytest.raises(storm.DecodeError, match="ended inside a message"):
        Recorder().run(io.BytesIO(java_handshake(tmp_path) + JAVA_TUPLE[:40]), io.BytesIO())


def test_no_handshake_at_all_returns_quietly() -> None:
    out = io.BytesIO()
    Recorder().run(io.BytesIO(b""), out)
    assert out.getvalue() == b""


def test_methods_need_a_connection() -> None:
    with pytest.raises(RuntimeError, match="call run"):
        Recorder().log("x")


def test_emit_refuses_values_that_are_not_a_list(tmp_path: Path) -> None:
    class Bad(storm.Bolt):
        def process(self, tup: storm.Tuple) -> None:
            self.emit("not a list")  # type: ignore[arg-type]

    with pytest.raises(TypeError, match="must be a list or a tuple"):
        Bad().run(io.BytesIO(java_handshake(tmp_path) + java_tuple("1", "a")), io.BytesIO())


@pytest.mark.parametrize("serializer", ["json", "msgpack"])
@pytest.mark.parametrize(
    ("values", "anchors"),
    [([float("nan")], ["1"]), ([object()], ["1"]), ([2**70], ["1"]), (["a"], [7]), (["\ud800"], ["1"])],
    ids=["nan", "an object", "an int too long", "an int anchor", "a lone surrogate"],
)
def test_an_emit_encode_refuses_raises_its_error_and_writes_nothing(
    tmp_path: Path, serializer: str, values: list[Any], anchors: list[Any]
) -> None:
    # The channel calls the message's writer itself; what that refuses or cannot write, encode decides, word for word
    # (what encode takes, such as NaN in MessagePack or a long integer in JSON, the emit writes as encode does)
    message = storm.Emit(values=values, anchors=anchors, need_task_ids=False)
    bolt = storm.Bolt(serializer=serializer)
    out = io.BytesIO()
    bolt._channel = storm.component._Channel(io.BytesIO(), out, bolt.max_message, serializer, bolt.max_queued)
    try:
        written = storm.encode(message, serializer=serializer)
    except storm.EncodeError as exc:
        with pytest.raises(storm.EncodeError) as raised:
            bolt.emit(values, anchors=anchors)
        assert str(raised.value) == str(exc)
        assert out.getvalue() == b""
    else:
        assert values[0] != values[0] or values[0] == 2**70  # NaN (MessagePack), a long integer (JSON)
        bolt.emit(values, anchors=anchors)
        assert out.getvalue() == written


# ------------------------------------------------------------------------------------------------------- spouts
class Counter(storm.Spout):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []
        self.n = 0

    def next_tuple(self) -> None:
        self.n += 1
        self.calls.append(("next", self.n))
        if self.n == 2:
            self.calls.append(("ids", self.emit(["n", self.n], tup_id=f"m/{self.n}", need_task_ids=True)))
        else:
            self.emit(["n", self.n], tup_id=self.n)

    def ack(self, tup_id: Any) -> None:
        self.calls.append(("ack", tup_id))

    def fail(self, tup_id: Any) -> None:
        self.calls.append(("fail", tup_id))

    def activate(self) -> None:
        self.calls.append(("activate", None))

    def deactivate(self) -> None:
        self.calls.append(("deactivate", None))


def test_spout_serves_every_java_command_with_a_sync_after_each(tmp_path: Path) -> None:
    stream = (
        java_handshake(tmp_path)
        + b'{"id":"","command":"activate"}\nend\n'
        + b'{"id":"","command":"next"}\nend\n'
        + b'{"id":"","command":"next"}\nend\n'
        + b"[4,6]\nend\n"
        + b'{"id":"m\\/2","command":"ack"}\nend\n'
        + b'{"id":1,"command":"fail"}\nend\n'
        + b'{"id":{"a":[1,"x"],"b":1},"command":"fail"}\nend\n'
        + b'{"id":"","command":"deactivate"}\nend\n'
    )
    spout = Counter()
    out = serve(spout, stream)
    assert spout.calls == [
        ("activate", None),
        ("next", 1),
        ("next", 2),
        ("ids", [4, 6]),
        ("ack", "m/2"),
        ("fail", 1),
        ("fail", {"a": [1, "x"], "b": 1}),
        ("deactivate", None),
    ]
    assert out[1:] == [
        storm.Sync(),
        storm.Emit(values=["n", 1], id=1, need_task_ids=False),
        storm.Sync(),
        storm.Emit(values=["n", 2], id="m/2", need_task_ids=True),
        storm.Sync(),
        storm.Sync(),
        storm.Sync(),
        storm.Sync(),
        storm.Sync(),
    ]


def test_a_spout_that_raises_reports_syncs_and_ends_run(tmp_path: Path) -> None:
    class Broken(storm.Spout):
        def next_tuple(self) -> None:
            raise RuntimeError("no more")

    out = io.BytesIO()
    with pytest.raises(RuntimeError, match="no more"):
        Broken().run(io.BytesIO(java_handshake(tmp_path) + b'{"id":"","command":"next"}\nend\n'), out)
    written = messages_of(out)
    assert isinstance(written[1], storm.Error) and "Python RuntimeError raised" in written[1].msg
    assert written[2:] == [storm.Sync()]


def test_a_bolt_tuple_sent_to_a_spout_is_a_protocol_error(tmp_path: Path) -> None:
    out = io.BytesIO()
    with pytest.raises(storm.ProtocolError, match="a spout cannot take BoltTuple"):
        Counter().run(io.BytesIO(java_handshake(tmp_path) + JAVA_TUPLE), out)
    assert messages_of(out)[-1] == storm.Sync()


# ---------------------------------------------------------------------------------------------- threads and faults
def test_print_from_many_threads_loses_and_doubles_nothing(tmp_path: Path) -> None:
    """Four threads print 20,000 lines each through the log stream that stands in for stdout: every line arrives
    once, whole, in each thread's order (on main, 66 were lost and 201 doubled)."""
    from streamcodecs.storm.component import _LogStream

    bolt = Recorder()
    out = io.BytesIO()
    bolt.run(io.BytesIO(java_handshake(tmp_path)), out)  # the handshake only: connects the bolt to ``out``
    stream = _LogStream(bolt)
    barrier = threading.Barrier(4)

    def printer(n: int) -> None:
        barrier.wait()
        for i in range(20_000):
            print(f"thread {n} line {i}", file=stream)

    threads = [threading.Thread(target=printer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    logs = [m.msg for m in messages_of(out) if isinstance(m, storm.Log)]
    assert len(logs) == 80_000
    for n in range(4):
        assert [line for line in logs if line.startswith(f"thread {n} ")] == [
            f"thread {n} line {i}" for i in range(20_000)
        ]


def test_a_thread_that_ends_mid_line_has_its_line_sent_when_it_ends(tmp_path: Path) -> None:
    """A thread's unfinished line is sent when the thread ends, as a line of its own: not held until the component
    stops (on main, every ended thread's line stayed, so many short threads' lines grew without bound), nor taken up
    by a later thread that got the same ident (its line then held two threads' text)."""
    from streamcodecs.storm.component import _LogStream

    bolt = Recorder()
    out = io.BytesIO()
    bolt.run(io.BytesIO(java_handshake(tmp_path)), out)
    stream = _LogStream(bolt)
    for n in range(50):
        thread = threading.Thread(target=lambda n=n: print(f"left by {n}", end="", file=stream))
        thread.start()
        thread.join()
    print("whole", file=stream)
    logs = [m.msg for m in messages_of(out) if isinstance(m, storm.Log)]
    assert logs == [f"left by {n}" for n in range(50)] + ["whole"]
    assert not stream._pending


def test_a_bare_end_line_is_reported_without_waiting_for_more(tmp_path: Path) -> None:
    """An end line with nothing before it, last in what Storm sent, over a pipe left open: run raises at once
    (on main the line stayed buffered until more data came, so the bolt waited for ever)."""
    read_fd, write_fd = os.pipe()
    storm_side = open(write_fd, "wb")
    storm_side.write(java_handshake(tmp_path) + JAVA_TUPLE + b"end\n")
    storm_side.flush()
    out = io.BytesIO()
    errors: list[BaseException] = []

    def serve_pipe() -> None:
        try:
            Recorder().run(open(read_fd, "rb"), out)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            errors.append(exc)

    thread = threading.Thread(target=serve_pipe, daemon=True)
    thread.start()
    thread.join(10)
    try:
        assert not thread.is_alive(), "the bolt still waits for more data"
        assert len(errors) == 1 and isinstance(errors[0], storm.DecodeError)
        assert "empty message" in str(errors[0]) and errors[0].line == 5
        assert [type(m).__name__ for m in messages_of(out)] == ["PidReply", "Emit", "Ack", "Error"]
    finally:
        storm_side.close()
        thread.join(10)


def test_a_flood_of_tuples_while_an_emit_waits_for_ids_is_bounded(tmp_path: Path) -> None:
    bolt = AskingBolt()
    bolt.max_queued = 100
    stream = java_handshake(tmp_path) + java_tuple("1", "ask") + b"".join(java_tuple(str(n), "x") for n in range(200))
    with pytest.raises(storm.ProtocolError, match="more than 100 messages while an emit waited for its task ids"):
        bolt.run(io.BytesIO(stream), io.BytesIO())


@pytest.mark.parametrize("role", [storm.ShellBolt, storm.ShellSpout])
def test_each_role_shows_its_keyword_arguments(role: type) -> None:
    """help() and a type checker see each option of both roles, with its default: no ``**options`` hides them."""
    parameters = inspect.signature(role).parameters
    assert all(p.kind is not inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    assert {"component", "task_ids", "timeout", "strict", "serializer", "keep_bytes"} <= set(parameters)
    assert parameters["timeout"].default == 10.0
