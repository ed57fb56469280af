"""Storm multilang interop: real pystorm 3.1.4 bolts and spouts run as shell components under streamcodecs' Storm-side
driver (``storm.ShellBolt`` / ``storm.ShellSpout``), and the same components written with ``storm.Bolt`` /
``storm.Spout`` under the same driver, so both sides of the codec meet the real peer. Each conversation is run in
both framings: JSON with ``end`` lines, and MessagePack as pystorm's ``serializer="msgpack"`` speaks it (raw frames
for it are written with the ``msgpack`` package pystorm uses). The components are in tests/peers/storm_*.py; each
test runs one process, bounded by the driver's timeouts.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from streamcodecs import storm

PEERS = Path(__file__).resolve().parent / "peers"
TIMEOUT = 20.0  # interpreter start-up included

pystorm = pytest.importorskip("pystorm", reason="pystorm is the real peer of these tests (requirements.txt)")
msgpack = pytest.importorskip("msgpack", reason="pystorm's MessagePack serializer needs it (requirements.txt)")

IMPLEMENTATIONS = [
    pytest.param("pystorm", marks=pytest.mark.peer, id="pystorm"),
    pytest.param("streamcodecs", id="streamcodecs"),
]
SERIALIZERS = ["json", "msgpack"]
JAVA_ACK = b'{"id":"m\\/1","command":"ack"}\nend\n'  # as ShellSpout writes an ack of the message id "m/1"


def raw(serializer: str, json_frame: bytes, value: Any) -> bytes:
    """A frame as the Java side writes it: the JSON text given, or ``value`` packed by the msgpack package."""
    return json_frame if serializer == "json" else msgpack.packb(value)


def command(implementation: str, role: str, mode: str, serializer: str = "json") -> list[str]:
    return [sys.executable, str(PEERS / f"storm_{implementation}_{role}.py"), mode, serializer]


def bolt(implementation: str, mode: str, serializer: str = "json", **options: Any) -> storm.ShellBolt:
    argv = command(implementation, "bolt", mode, serializer)
    return storm.ShellBolt(argv, component="split", timeout=TIMEOUT, serializer=serializer, **options)


def spout(implementation: str, mode: str, serializer: str = "json", **options: Any) -> storm.ShellSpout:
    argv = command(implementation, "spout", mode, serializer)
    return storm.ShellSpout(argv, component="words", timeout=TIMEOUT, serializer=serializer, **options)


def announcement(message: storm.Message) -> bool:
    """pystorm's log announcing its logging handler, sent once after the pid (it may land in the first answer)."""
    return isinstance(message, storm.Log) and "StormHandler logging enabled" in message.msg


def user_logs(component: storm.ShellComponent) -> list[str]:
    """Log lines, without pystorm's announcement."""
    return [log.msg for log in component.logs if not announcement(log)]


def answer(messages: list[storm.Message]) -> list[storm.Message]:
    """A spout's answer to a command, without pystorm's announcement."""
    return [m for m in messages if not announcement(m)]


def test_pystorm_is_the_version_the_tests_were_written_for() -> None:
    from pystorm.version import __version__

    assert __version__ == "3.1.4"


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_bolt_handshake_tuple_heartbeat_and_tick(implementation: str, serializer: str) -> None:
    with bolt(implementation, "echo", serializer) as shell:
        assert shell.pid is not None and shell.pid_file_exists
        tuple_id = shell.execute(["hello", 2], source="spout", stream="default", task=4)
        assert shell.wait_result(tuple_id) == "ack"
        assert shell.emits == [storm.Emit(values=["hello", 2, "seen"], anchors=[tuple_id], need_task_ids=False)]
        shell.heartbeat()  # answered with sync only: acking its id would be a problem (strict mode raises)
        tick_id = shell.tick(5)
        assert shell.wait_result(tick_id) == "ack"
        assert shell.emits[-1] == storm.Emit(values=["tick", 5], anchors=[tick_id], need_task_ids=False)
        assert user_logs(shell) == ["tick 5"]
        assert [log.level for log in shell.logs if log.msg == "tick 5"] == [storm.LogLevel.WARN]
        assert shell.acks == [tuple_id, tick_id] and shell.fails == [] and shell.problems == []
    assert shell.returncode is not None


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_bolt_need_task_ids_round_trip(implementation: str, serializer: str) -> None:
    with bolt(implementation, "ids", serializer, task_ids=[7, 8]) as shell:
        first = shell.execute(["a"])
        second = shell.execute(["b"])  # arrives while the bolt may be waiting for the first emit's ids
        assert shell.wait_result(first) == "ack" and shell.wait_result(second) == "ack"
        asks = [e for e in shell.emits if e.values[0] == "ids-out"]
        assert [e.values for e in asks] == [["ids-out", "a"], ["ids-out", "b"]]
        assert all(e.need_task_ids and e.task is None for e in asks)  # pystorm leaves the key out: true
        assert [e.values for e in shell.emits if e.values[0] == "got"] == [["got", [7, 8]], ["got", [7, 8]]]
        assert user_logs(shell) == ["task ids [7, 8]", "task ids [7, 8]"]


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_bolt_direct_emit_gets_no_task_ids_from_storm(implementation: str, serializer: str) -> None:
    asked: list[storm.Emit] = []
    with bolt(implementation, "direct", serializer, task_ids=lambda emit: asked.append(emit) or [1]) as shell:
        tuple_id = shell.execute(["x"])
        assert shell.wait_result(tuple_id) == "ack"
        assert shell.emits[0].task == 9 and shell.emits[0].values == ["direct", "x"]
        assert shell.emits[1].values == ["got", [9]]
    assert asked == []  # Storm answers no direct emit with task ids


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_bolt_fail_path(implementation: str, serializer: str) -> None:
    shell = bolt(implementation, "fail", serializer).start()
    try:
        ok = shell.execute(["fine"])
        assert shell.wait_result(ok) == "ack"
        boom = shell.execute(["boom"])
        assert shell.wait_result(boom) == "fail"
        assert len(shell.errors) == 1 and "ValueError" in shell.errors[0] and "boom requested" in shell.errors[0]
        assert shell.wait_exit() == 1  # both exit after reporting (pystorm's exit_on_exception, our re-raise)
        assert shell.fails == [boom]
    finally:
        shell.close()


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_malformed_message_makes_the_component_exit(implementation: str, serializer: str) -> None:
    shell = bolt(implementation, "echo", serializer).start()
    try:
        # JSON that does not parse; a map whose first key is followed by 0xc1, a byte MessagePack never uses
        shell.send_raw(b'{"comp": "spout", "tuple": [oops]}\nend\n' if serializer == "json" else b"\x85\xa4comp\xc1")
        assert shell.wait_exit() == 1
        assert shell.acks == [] and shell.emits == []
    finally:
        shell.close()


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_end_of_input_ends_the_component(implementation: str, serializer: str) -> None:
    shell = bolt(implementation, "echo", serializer).start()
    status = shell.close()
    assert status == (2 if implementation == "pystorm" else 0)  # pystorm exits 2 when Storm goes away


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_frames_cut_anywhere_reach_the_bolt(implementation: str, serializer: str) -> None:
    """Two tuples written in pieces, cut inside the values and between them, each piece flushed on its own."""
    first = storm.BoltTuple(id="1", comp="spout", stream="default", task=4, values=["cut", "in é pieces", 3])
    second = storm.BoltTuple(id="2", comp="spout", stream="default", task=4, values=[2.5, None])
    data = storm.encode(first, serializer=serializer) + storm.encode(second, serializer=serializer)
    with bolt(implementation, "echo", serializer) as shell:
        cuts = [0, 1, 9, 23, len(data) - 1, len(data)]  # inside the first map's header, a key, a value; the last byte
        pieces = [data[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]
        for piece in pieces:
            shell.send_raw(piece)
            time.sleep(0.05)  # lets the component read each piece separately
        assert shell.wait_result("1") == "ack" and shell.wait_result("2") == "ack"
        assert [e.values for e in shell.emits] == [["cut", "in é pieces", 3, "seen"], [2.5, None, "seen"]]


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_msgpack_carries_bytes_both_ways(implementation: str) -> None:
    """MessagePack has a binary type (JSON has none): bytes in a tuple reach the bolt and come back as bytes."""
    with bolt(implementation, "echo", "msgpack") as shell:
        tuple_id = shell.execute([b"\x00\xff raw", {"k": b"v"}])
        assert shell.wait_result(tuple_id) == "ack"
        assert shell.emits == [
            storm.Emit(values=[b"\x00\xff raw", {"k": b"v"}, "seen"], anchors=[tuple_id], need_task_ids=False)
        ]


def test_print_in_a_streamcodecs_bolt_becomes_a_log_command() -> None:
    with bolt("streamcodecs", "print") as shell:
        tuple_id = shell.execute(["hello"])
        assert shell.wait_result(tuple_id) == "ack"
        assert [log.msg for log in shell.logs] == ["printed hello"]


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_java_written_frames_reach_the_bolt(implementation: str, serializer: str) -> None:
    java_tuple = (
        b'{"comp":"spout","tuple":["a\\/b","caf\xc3\xa9 \\u20AC \xf0\x9f\x98\x80",1,3000000000,2.5,true,null],'
        b'"task":9,"stream":"default","id":"-6955325049453591163"}\nend\n'
    )
    java_heartbeat = b'{"comp":null,"tuple":[],"task":-1,"stream":"__heartbeat","id":"4372932457817452154"}\nend\n'
    if serializer == "msgpack":
        java_tuple = msgpack.packb(
            {
                "comp": "spout",
                "tuple": ["a/b", "café € 😀", 1, 3000000000, 2.5, True, None],
                "task": 9,
                "stream": "default",
                "id": "-6955325049453591163",
            }
        )
        java_heartbeat = msgpack.packb(
            {"comp": None, "tuple": [], "task": -1, "stream": "__heartbeat", "id": "4372932457817452154"}
        )
    with bolt(implementation, "echo", serializer) as shell:
        before = shell.syncs
        shell.send_raw(java_heartbeat + java_tuple)
        assert shell.wait_result("-6955325049453591163") == "ack"
        shell.wait_for(lambda: shell.syncs > before, "the heartbeat's sync")
        assert shell.emits[-1].values == ["a/b", "café € 😀", 1, 3000000000, 2.5, True, None, "seen"]


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_spout_commands(implementation: str, serializer: str) -> None:
    with spout(implementation, "count", serializer) as shell:
        assert shell.pid_file_exists
        assert answer(shell.activate()) == [storm.Log(msg="activated"), storm.Sync()]
        assert shell.next_tuple() == [storm.Emit(values=["n", 1], id=1, need_task_ids=False), storm.Sync()]
        assert shell.next_tuple()[0].id == 2
        assert shell.ack(1) == [storm.Log(msg="ack 1 int"), storm.Sync()]
        assert shell.fail({"a": [1, "x"], "b": 1}) == [storm.Log(msg="fail {'a': [1, 'x'], 'b': 1} dict"), storm.Sync()]
        before = len(shell.received)
        shell.send_raw(raw(serializer, JAVA_ACK, {"id": "m/1", "command": "ack"}))  # JSON: "/" escaped, as Java does
        shell.wait_for(lambda: shell.syncs == 6, "the sync after a raw ack")
        assert shell.received[before:] == [storm.Log(msg="ack 'm/1' str"), storm.Sync()]
        assert shell.deactivate() == [storm.Log(msg="deactivated"), storm.Sync()]
        assert shell.problems == []


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_spout_need_task_ids_round_trip(implementation: str, serializer: str) -> None:
    with spout(implementation, "ids", serializer, task_ids=[5, 6]) as shell:
        got = answer(shell.next_tuple())
        assert got[0] == storm.Emit(values=["n", 1], id=1, need_task_ids=True)
        assert got[1:] == [storm.Log(msg="task ids [5, 6]"), storm.Sync()]


@pytest.mark.parametrize("serializer", SERIALIZERS)
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_spout_exception_is_reported_then_the_component_exits(implementation: str, serializer: str) -> None:
    shell = spout(implementation, "raise", serializer).start()
    try:
        got = shell.next_tuple()
        errors = [m for m in got if isinstance(m, storm.Error)]
        assert len(errors) == 1 and "RuntimeError" in errors[0].msg and "failed on purpose" in errors[0].msg
        assert got[-1] == storm.Sync()
        assert shell.wait_exit() == 1
    finally:
        shell.close()


def test_the_driver_reports_what_java_would_die_on() -> None:
    # A bolt that acks an id Storm never sent (here: a heartbeat's), driven by a one-line script.
    script = (
        "from streamcodecs import storm\n"
        "class B(storm.Bolt):\n"
        "    def process(self, tup):\n"
        "        self.ack('not-a-tuple-id')\n"
        "B().run()\n"
    )
    shell = storm.ShellBolt([sys.executable, "-c", script], timeout=TIMEOUT, env={**os.environ}).start()
    try:
        tuple_id = shell.execute(["x"])
        with pytest.raises(storm.ShellProtocolError, match="non-existent or already acked"):
            shell.wait_result(tuple_id)
    finally:
        shell.close()


def test_the_driver_times_out_and_notices_an_exit() -> None:
    sleeper = storm.ShellBolt([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.5)
    with pytest.raises(storm.ShellTimeout, match="timed out after 0.5 s waiting for the pid"):
        sleeper.start()
    sleeper.close(timeout=0.1)
    quitter = storm.ShellBolt([sys.executable, "-c", "import sys; sys.exit(3)"], timeout=TIMEOUT)
    with pytest.raises(storm.ShellExited) as info:
        quitter.start()
    assert info.value.returncode == 3
    quitter.close()


def test_the_driver_collects_metrics_and_refuses_a_nameless_one() -> None:
    script = (
        "from streamcodecs import storm\n"
        "class B(storm.Bolt):\n"
        "    def process(self, tup):\n"
        "        self.report_metric('latency', {'ms': tup.values[0]})\n"
        "        self.report_metric('', 1)\n"
        "B().run()\n"
    )
    shell = storm.ShellBolt([sys.executable, "-c", script], timeout=TIMEOUT, strict=False).start()
    try:
        tuple_id = shell.execute([12])
        assert shell.wait_result(tuple_id) == "ack"
        assert shell.metrics == [storm.Metrics(name="latency", params={"ms": 12}), storm.Metrics(name="", params=1)]
        assert shell.problems == ["a metrics message without a name"]
    finally:
        shell.close()


def test_a_spout_that_sends_ack_is_refused_as_java_does() -> None:
    # Written with the bare codec: storm.Spout cannot send an ack.
    script = (
        "import os, sys\n"
        "from streamcodecs import storm\n"
        "reader, out = storm.Reader(direction='to_component'), sys.stdout.buffer\n"
        "def wait():\n"
        "    while data := os.read(0, 65536):\n"
        "        if reader.feed(data):\n"
        "            return\n"
        "    sys.exit(0)\n"
        "wait()\n"
        "out.write(storm.encode(storm.PidReply(pid=os.getpid()))); out.flush()\n"
        "wait()\n"
        "out.write(storm.encode(storm.Ack(id='1')) + storm.encode(storm.Sync())); out.flush()\n"
        "wait()\n"
    )
    shell = storm.ShellSpout([sys.executable, "-c", script], timeout=TIMEOUT).start()
    try:
        with pytest.raises(storm.ShellProtocolError, match="Unknown command received: a spout sent Ack"):
            shell.next_tuple()
    finally:
        shell.close()
