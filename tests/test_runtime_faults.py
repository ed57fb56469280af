"""Fault injection: every stdio runtime against a real process that fails, each fault with its documented outcome.

The runtimes: the KCL daemon driver (``kcl.ChildDriver``), the KCL child runner (``kcl.run_child``), the Storm
shell drivers (``storm.ShellBolt``, ``storm.ShellSpout``) and the Storm component (``storm.Bolt``). The faults: the
other side dies in the middle of a message, exits, never reads, never answers, answers late, floods, writes a
message past the limit, writes from many threads. The outcomes (README, "Runtimes, and what they guarantee under
faults"): an error or a timeout within the call's bound, never a success that was not given, the connection
broken after a reply could no longer be matched, memory within its bound, nothing lost or doubled.

The failing peers are tests/peers/kcl_faulty_child.py and storm_faulty_component.py (standard library only); the
subjects run as processes of their own are tests/peers/kcl_fault_subject.py and storm_streamcodecs_bolt.py, under
peak_rss.py where their memory is checked, and the drivers' memory scenarios are tests/peers/fault_scenarios.py.

Timeouts are sub-second. The only timing assertions are "within the bound": a call that times out must return
within its timeout plus ``GRACE`` (start-up and scheduling on a loaded machine), and a call that could block for
ever on a broken runtime runs in a thread (``within``), so that it fails the test instead of hanging it.

Not here: a Storm component whose stdout Storm stops reading, or that waits for task ids Storm never sends. The
component does not bound those waits itself: Storm does, killing a component that answers no heartbeat within
``topology.subprocess.timeout.secs``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

import pytest
from streamcodecs import kcl, storm

PEERS = Path(__file__).resolve().parent / "peers"
GRACE = 10.0
"""Seconds a call may overrun its timeout (interpreter start-up, a loaded machine); the bound, not a measurement."""
START = 20.0
"""The timeout of a call that starts a process."""
SHARD = "shardId-000000000001"
T = TypeVar("T")

linux = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from /proc (Linux)")


def within(seconds: float, call: Callable[[], T]) -> T:
    """``call()`` in a thread; its result or exception, or a failure if it still runs after ``seconds``."""
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append((False, exc))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still blocked after {seconds:g} s"
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def status(action: str) -> bytes:
    return b'{"action":"status","responseFor":"%s"}' % action.encode()


def record(sequence_number: str) -> kcl.Record:
    return kcl.Record(
        data=b"d", partition_key="pk", sequence_number=sequence_number, approximate_arrival_timestamp=0,
        sub_sequence_number=0,
    )  # fmt: skip


def peak_kib(stderr: bytes) -> int:
    found = re.findall(rb"peak_rss_kib=(\d+)", stderr)
    assert found, stderr[-2000:]
    return int(found[-1])


def scenario(name: str) -> dict[str, Any]:
    """A driver memory scenario of tests/peers/fault_scenarios.py, in a process of its own."""
    result = subprocess.run(
        [sys.executable, str(PEERS / "fault_scenarios.py"), name], capture_output=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-3000:]
    return dict(json.loads(result.stdout.splitlines()[-1]))


# ============================================================================================ the plumbing
def test_writer_writes_nothing_after_it_broke(tmp_path: Path) -> None:
    """A 1 MB message is stuck on a full pipe when the writer breaks (a reading thread posted more than
    ``max_posted`` replies) and is closed; the next file opened gets the pipe's descriptor number. On main the
    writer's thread went on with the message it had begun and wrote the rest of it (960 KiB) into that file."""
    import fcntl
    import termios

    from streamcodecs._runtime.stdio import Broken, Writer

    read_end, write_end = os.pipe()
    writer = Writer(os.fdopen(write_end, "wb"), "test", own=True, max_posted=1)
    failures: list[BaseException] = []

    def write() -> None:
        try:
            writer.write(b"x" * (1 << 20), time.monotonic() + START)
        except Broken as exc:
            failures.append(exc)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    try:
        until = time.monotonic() + START
        while fcntl.ioctl(read_end, termios.FIONREAD, b"\0\0\0\0") != (65536).to_bytes(4, sys.byteorder):
            assert time.monotonic() < until, "the pipe never filled"
            time.sleep(0.01)
        writer.post(b"a", time.monotonic() + START)
        with pytest.raises(Broken, match="more than 1 messages queued unwritten"):
            writer.post(b"b", time.monotonic() + START)
        writer.close(time.monotonic() + START)
        unrelated = os.open(tmp_path / "unrelated", os.O_WRONLY | os.O_CREAT)
        if unrelated != write_end:
            os.dup2(unrelated, write_end)
            os.close(unrelated)
        thread.join(START)
        assert not thread.is_alive() and failures
        assert (tmp_path / "unrelated").stat().st_size == 0
    finally:
        os.close(read_end)
        os.close(write_end)


# ============================================================================================ KCL daemon driver
def faulty_child(mode: str, *args: str, **options: Any) -> kcl.ChildDriver:
    return kcl.ChildDriver.launch([sys.executable, str(PEERS / "kcl_faulty_child.py"), mode, *args], **options)


def test_kcl_driver_child_dies_in_the_middle_of_a_line() -> None:
    """ChildExited with the exit status (on main: a ProtocolError about malformed JSON, no status)."""
    with pytest.raises(kcl.ChildExited) as caught, faulty_child("die-mid-line", timeout=START) as driver:
        driver.initialize(SHARD)
    assert caught.value.returncode == 5 and "in the middle of a line" in str(caught.value)
    assert driver.exchanges[0].lines[-1] == ("to_daemon", status("initialize")[:20])
    assert driver.exchanges[0].status is None and isinstance(driver.broken, kcl.ChildExited)


def test_kcl_driver_child_exits_non_zero() -> None:
    with faulty_child("exit", "3", timeout=START) as driver:
        with pytest.raises(kcl.ChildExited) as caught:
            driver.initialize(SHARD)
        assert caught.value.returncode == 3 and "exit code 3" in str(caught.value)
        assert "exiting with 3" in caught.value.stderr
        with pytest.raises(kcl.ChildBroken):
            driver.process_records([record("1")])


def test_kcl_driver_child_never_reads() -> None:
    """A 4 MB message to a child that never reads: TimeoutError within the bound; then every call raises, and
    close() kills the child within its bound."""
    driver = faulty_child("never-read", timeout=0.5)
    try:
        start = time.monotonic()
        with pytest.raises(TimeoutError, match="did not read 'initialize' within 0.5 s"):
            within(0.5 + GRACE, lambda: driver.initialize("x" * (4 << 20)))
        assert time.monotonic() - start < 0.5 + GRACE
        with pytest.raises(kcl.ChildBroken) as caught:
            driver.lease_lost()
        assert isinstance(caught.value.cause, TimeoutError)
        start = time.monotonic()
        with pytest.raises(TimeoutError, match="killed"):
            within(0.5 + GRACE, driver.close)
        assert time.monotonic() - start < 0.5 + GRACE
        assert driver.process is not None and driver.process.poll() is not None
    finally:
        driver.kill()


def test_kcl_driver_child_never_answers() -> None:
    with faulty_child("never-answer", timeout=0.5) as driver:
        start = time.monotonic()
        with pytest.raises(TimeoutError, match="no status for 'initialize' within 0.5 s"):
            driver.initialize(SHARD)
        assert time.monotonic() - start < 0.5 + GRACE
        assert driver.exchanges[0].status is None
        with pytest.raises(kcl.ChildBroken):
            driver.initialize(SHARD)
        # It exits once its stdin closes; the bound for that is start-up's, not the call's 0.5 s (on a loaded
        # machine the child may take longer, and close() would kill it and raise).
        driver.close(timeout=START)
    assert driver.process is not None and driver.process.returncode == 0


def test_kcl_driver_child_answers_late() -> None:
    """The first status comes after the timeout. It carries the same responseFor as the next one would, so the
    driver cannot tell them apart: it is broken, and nothing later is written or reported as answered (on main
    the next call returned the late status as its own, before the child had read its message)."""
    with faulty_child("late", "1.5", timeout=START) as driver:
        with pytest.raises(TimeoutError, match="no status for 'processRecords' within 0.3 s"):
            driver.process_records([record("1")], timeout=0.3)
        with pytest.raises(kcl.ChildBroken) as caught:
            driver.process_records([record("2")])
        assert isinstance(caught.value.cause, TimeoutError) and isinstance(driver.broken, TimeoutError)
        with pytest.raises(kcl.ChildBroken):
            driver.shard_ended()
    assert [e.action for e in driver.exchanges] == ["processRecords"]  # nothing more was written
    assert driver.exchanges[0].status is None


@linux
def test_kcl_driver_child_floods_stdout() -> None:
    """Between exchanges and during one: the lines read ahead stay within 1 MiB (the child then blocks on its
    pipe), the exchange keeps its lines within keep_bytes (on main: 962 MB after 6 s)."""
    seen = scenario("kcl-flood")
    assert seen["outcome"] == "timeout" and seen["skipped"] > 0 and seen["dropped"] > 0
    assert seen["peak_kib"] - seen["base_kib"] < 32 << 10, seen


@linux
def test_kcl_driver_child_floods_short_lines() -> None:
    """2-byte lines between exchanges: what is read ahead stays near its 1 MiB bound, each line counted with what
    it costs beyond its bytes (on main 512 Ki lines were held: about 28 MiB)."""
    seen = scenario("kcl-short-lines")
    assert seen["peak_kib"] - seen["base_kib"] < 8 << 10, seen


def test_kcl_driver_line_past_the_limit() -> None:
    """Strict: a ProtocolError naming the limit (and the driver is broken: the status may still come)."""
    with faulty_child("long-line", "5000000", timeout=START, max_message=1 << 20) as driver:
        with pytest.raises(kcl.ProtocolError, match="longer than 1048576 bytes"):
            driver.initialize(SHARD)
        with pytest.raises(kcl.ChildBroken):
            driver.initialize(SHARD)


def test_kcl_driver_line_past_the_limit_is_not_kept_whole() -> None:
    """Lenient: skipped, and kept in the transcript as its first bytes and a note (on main, all 5 MB were kept)."""
    with faulty_child("long-line", "5000000", timeout=START, strict=False, max_message=1 << 20) as driver:
        exchange = driver.initialize(SHARD)
    assert exchange.status == kcl.Status(response_for="initialize")
    assert len(exchange.skipped) == 1 and "longer than 1048576 bytes" in exchange.skipped[0][1]
    assert sum(len(line) for _, line in driver.transcript) < 4096
    assert exchange.lines[1][1].endswith(b"... [a line longer than 1048576 bytes: the rest is not kept]")


def test_kcl_driver_last_line_without_its_end() -> None:
    """Java's readLine returns the last line of a stream even without its line end; so does the driver."""
    with faulty_child("no-line-end", timeout=START) as driver:
        assert driver.initialize(SHARD).status == kcl.Status(response_for="initialize")
    assert driver.process is not None and driver.process.returncode == 0


def test_kcl_driver_child_closes_stdout_and_lives_on() -> None:
    """The exchange fails within its timeout, its exit status unknown (on main it waited 2 s for the exit and 1 s
    for stderr whatever the timeout: 3 s for a call bounded by 0.3 s)."""
    driver = faulty_child("close-stdout", timeout=START)
    try:
        until = time.monotonic() + START
        while "closed" not in driver.stderr and time.monotonic() < until:
            time.sleep(0.01)
        start = time.monotonic()
        with pytest.raises(kcl.ChildExited, match="closed its stdout") as caught:
            driver.initialize(SHARD, timeout=0.3)
        assert time.monotonic() - start < 1.5  # 0.3 s and scheduling
        assert caught.value.returncode is None and "closed" in caught.value.stderr
    finally:
        driver.kill()


@linux
def test_kcl_driver_child_writes_stderr_from_threads() -> None:
    seen = scenario("kcl-stderr")
    assert seen["status"] == "shardEnded"
    assert 0 < seen["stderr"] <= 1 << 20  # the last 1 MiB
    assert seen["peak_kib"] - seen["base_kib"] < 32 << 10, seen


# ============================================================================================ KCL child runner
class Subject:
    """kcl_fault_subject.py (``run_child``) under peak_rss.py, with the daemon's ends of its pipes."""

    def __init__(self, *options: str) -> None:
        command = [sys.executable, str(PEERS / "peak_rss.py"), sys.executable, str(PEERS / "kcl_fault_subject.py")]
        self.process = subprocess.Popen(
            [*command, *options], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin: IO[bytes] = self.process.stdin
        self.reader = kcl.Reader(direction="to_daemon")
        self.got: list[kcl.Message] = []
        self._stdout = self.process.stdout

    def send(self, *lines: bytes) -> None:
        self.stdin.write(b"".join(line + b"\n" for line in lines))
        self.stdin.flush()

    def wait_for(self, count: int) -> list[kcl.Message]:
        """Read the child's messages until ``count`` have come (or its stdout ends)."""
        while len(self.got) < count and not self._stdout.closed and (data := self._stdout.read1(65536)):  # type: ignore[attr-defined]
            self.got += self.reader.feed(data)
        return self.got

    def end(self, timeout: float = START) -> tuple[int, str]:
        """Close its stdin; its exit status and stderr (what it still writes to stdout is read on the way)."""
        return _end(self, timeout)

    def wait(self, timeout: float) -> tuple[int, str]:
        """Wait for it to exit by itself, reading nothing of its stdout; its exit status and stderr."""
        code = self.process.wait(timeout)
        assert self.process.stderr is not None
        return code, self.process.stderr.read().decode(errors="replace")


def _end(subject: Any, timeout: float) -> tuple[int, str]:
    try:
        subject.stdin.close()
    except OSError:
        pass
    subject.process.stdin = None  # closed: communicate() must not flush it
    stdout, stderr = subject.process.communicate(timeout=timeout)
    subject.got += subject.reader.feed(stdout)
    return int(subject.process.returncode), stderr.decode(errors="replace")


def quietly(send: Callable[..., None], *data: bytes) -> threading.Thread:
    """``send(*data)`` in a thread, for writes the other side may stop reading (it exits: a broken pipe)."""

    def run() -> None:
        try:
            send(*data)
        except (BrokenPipeError, ValueError):
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def started() -> Iterator[list[Any]]:
    """The subjects a test starts (anything with a ``process``): killed after it if still running."""
    subjects: list[Any] = []
    yield subjects
    for subject in subjects:
        if subject.process.poll() is None:
            subject.process.kill()
            subject.process.communicate()


def process_records(*sequence_numbers: str) -> bytes:
    return kcl.encode(kcl.ProcessRecords(records=[record(n) for n in sequence_numbers], millis_behind_latest=0))


def checkpoint_reply(sequence_number: str | None, error: str | None = None) -> bytes:
    return kcl.encode(kcl.CheckpointReply(sequence_number=sequence_number, sub_sequence_number=None, error=error))


def test_kcl_child_daemon_dies_in_the_middle_of_a_line(started: list[Any]) -> None:
    started.append(child := Subject())
    child.send(kcl.encode(kcl.Initialize(shard_id=SHARD)).rstrip(b"\n"))
    assert child.wait_for(1) == [kcl.Status(response_for="initialize")]
    child.stdin.write(process_records("1")[:40])
    code, stderr = child.end()
    assert code != 0 and "cannot read the daemon's message" in stderr and "DecodeError" in stderr
    assert child.wait_for(2) == [kcl.Status(response_for="initialize")]  # no status for the cut message


def test_kcl_child_daemon_exits_between_messages(started: list[Any]) -> None:
    started.append(child := Subject())
    child.send(kcl.encode(kcl.Initialize(shard_id=SHARD)).rstrip(b"\n"))
    assert child.wait_for(1) == [kcl.Status(response_for="initialize")]
    assert child.end()[0] == 0


def test_kcl_child_daemon_never_reads(started: list[Any]) -> None:
    """The daemon sends and never reads: once the child's stdout pipe is full, a status write times out, and
    run_child ends (TimeoutError) within the write bound rather than block for ever."""
    started.append(child := Subject("--write-timeout", "0.5"))
    quietly(child.send, *[kcl.encode(kcl.LeaseLost()).rstrip(b"\n")] * 5000)
    code, stderr = child.wait(timeout=0.5 + 2 * GRACE)
    assert code == 1 and "TimeoutError: the daemon did not take the status for 'leaseLost' in time" in stderr


def test_kcl_child_daemon_never_answers_a_checkpoint(started: list[Any]) -> None:
    started.append(child := Subject("--checkpoint-timeout", "0.3"))
    child.send(process_records("7").rstrip(b"\n"))
    assert child.wait_for(2) == [kcl.Checkpoint(sequence_number="7"), kcl.Status(response_for="processRecords")]
    code, stderr = child.end()
    assert code == 0 and "checkpoint 7: timed out" in stderr


def test_kcl_child_daemon_answers_late(started: list[Any]) -> None:
    """The reply to checkpoint 7 comes after it timed out, then 8 is refused: 8 is reported refused."""
    started.append(child := Subject("--checkpoint-timeout", "0.3"))
    child.send(process_records("7").rstrip(b"\n"))
    assert child.wait_for(2)[1] == kcl.Status(response_for="processRecords")
    child.send(checkpoint_reply("7").rstrip(b"\n"), process_records("8").rstrip(b"\n"))
    assert child.wait_for(3)[2] == kcl.Checkpoint(sequence_number="8")
    child.send(checkpoint_reply("8", "ThrottlingException").rstrip(b"\n"))
    assert child.wait_for(4)[3] == kcl.Status(response_for="processRecords")
    code, stderr = child.end()
    assert code == 0
    assert "checkpoint 7: timed out" in stderr and "checkpoint 8: ThrottlingException" in stderr
    assert "the daemon accepted the checkpoint at '7' after it had timed out; the late reply is dropped" in stderr


def test_kcl_child_checkpoint_after_an_unreadable_line(started: list[Any]) -> None:
    """An unreadable line comes before the reply to checkpoint 7; the processor catches the DecodeError and asks
    again. The conversation cannot go on: the retry raises unsent, and no status follows (on main the retry was
    written and took the first request's reply as its own success)."""
    started.append(child := Subject("--retry-unreadable"))
    child.send(process_records("7").rstrip(b"\n"))
    assert child.wait_for(1) == [kcl.Checkpoint(sequence_number="7")]
    child.send(b"not json", checkpoint_reply("7").rstrip(b"\n"))
    code, stderr = child.end()
    assert code == 1 and "checkpoint 7: DecodeError" in stderr and "retry 7: DecodeError" in stderr
    assert child.got == [kcl.Checkpoint(sequence_number="7")]


@linux
def test_kcl_child_daemon_floods_stdin(started: list[Any]) -> None:
    """100 MB of blank lines (the child skips them), then a message: answered; memory stays small."""
    started.append(child := Subject())
    writer = quietly(child.send, *[b" " * 65535] * 1600, kcl.encode(kcl.LeaseLost()))
    assert child.wait_for(1) == [kcl.Status(response_for="leaseLost")]
    writer.join(START)
    code, stderr = child.end()
    assert code == 0 and peak_kib(stderr.encode()) < 150 << 10


@linux
def test_kcl_child_line_past_the_limit(started: list[Any]) -> None:
    """A 50 MB line against a 1 MiB limit: DecodeError (the process ends, KCL restarts the shard), and the line is
    dropped as it comes, never held."""
    started.append(child := Subject("--max-message", str(1 << 20)))
    quietly(child.send, b"x" * (50 << 20), process_records("1"))
    code, stderr = child.wait(START)
    assert code == 1 and "line longer than 1048576 bytes" in stderr
    assert peak_kib(stderr.encode()) < 150 << 10
    assert child.wait_for(1) == []


def test_kcl_child_processor_prints_from_threads() -> None:
    """Four threads print to stdout while the runtime writes statuses and checkpoints: every message arrives
    whole (each follows an empty line), and a lenient driver skips the stray lines as the Java daemon does."""
    child = [sys.executable, str(PEERS / "kcl_fault_subject.py"), "--print-threads"]
    with kcl.ChildDriver.launch(child, timeout=START, strict=False) as driver:
        exchanges = [driver.process_records([record(str(n))]) for n in range(5)]
    assert [e.status for e in exchanges] == [kcl.Status(response_for="processRecords")] * 5
    assert [e.checkpoints[0][0].sequence_number for e in exchanges] == ["0", "1", "2", "3", "4"]
    assert all(e.skipped for e in exchanges)
    assert all(b"prints line" in text for e in exchanges for text, _ in e.skipped)


# ============================================================================================ Storm shell drivers
def faulty_component(kind: type[storm.ShellComponent], mode: str, *args: str, **options: Any) -> Any:
    command = [sys.executable, str(PEERS / "storm_faulty_component.py"), mode, *args]
    return kind(command, **{"timeout": START, **options})


def test_storm_driver_component_dies_in_the_middle_of_a_message() -> None:
    with faulty_component(storm.ShellBolt, "die-mid-message") as bolt:
        tuple_id = bolt.execute(["x"])
        with pytest.raises(storm.ShellExited, match="in the middle of a message") as caught:
            bolt.wait_result(tuple_id)
    assert caught.value.returncode == 5 and bolt.results == {}


def test_storm_driver_component_exits_non_zero() -> None:
    with faulty_component(storm.ShellSpout, "exit", "3") as spout:
        with pytest.raises(storm.ShellExited) as caught:
            spout.next_tuple()
    assert caught.value.returncode == 3


def test_storm_driver_component_never_reads() -> None:
    """A 4 MB tuple to a component that stopped reading: ShellTimeout within the bound (on main: blocked for
    ever), then every call raises ShellBroken without writing, and close() ends it within its bound."""
    bolt = faulty_component(storm.ShellBolt, "never-read").start()
    try:
        bolt.timeout = 0.5
        start = time.monotonic()
        with pytest.raises(storm.ShellTimeout, match="took nothing of a"):
            within(0.5 + GRACE, lambda: bolt.execute(["x" * (4 << 20)]))
        assert time.monotonic() - start < 0.5 + GRACE
        with pytest.raises(storm.ShellBroken) as caught:
            within(GRACE, lambda: bolt.execute(["small"]))
        assert isinstance(caught.value.cause, TimeoutError) and isinstance(bolt.broken, TimeoutError)
        with pytest.raises(storm.ShellBroken):
            within(GRACE, bolt.heartbeat)
        start = time.monotonic()
        within(0.5 + GRACE, lambda: bolt.close(timeout=0.5))
        assert time.monotonic() - start < 0.5 + GRACE and bolt.returncode is not None
    except BaseException:
        os.kill(bolt.pid, signal.SIGKILL)  # a driver stuck in a write (main) could not even close
        raise
    finally:
        bolt.close(timeout=0.5)


@pytest.mark.parametrize("kind", [storm.ShellBolt, storm.ShellSpout])
def test_storm_driver_component_never_answers(kind: type[storm.ShellComponent]) -> None:
    with faulty_component(kind, "never-answer") as component:
        component.timeout = 0.5
        start = time.monotonic()
        with pytest.raises(storm.ShellTimeout):
            if isinstance(component, storm.ShellBolt):
                component.wait_result(component.execute(["x"]))
            else:
                component.next_tuple()
        assert time.monotonic() - start < 0.5 + GRACE
        assert component.received == [] and component.problems == []


def test_storm_driver_component_closes_stdout_and_lives_on() -> None:
    """The wait fails within its timeout, the exit status unknown (on main it waited 1 s for the exit whatever the
    timeout: 1 s for a call bounded by 0.1 s)."""
    with faulty_component(storm.ShellBolt, "close-stdout") as bolt:
        bolt.timeout = 0.1  # and close() kills it after that
        until = time.monotonic() + START
        while b"closed" not in bolt.stderr and time.monotonic() < until:
            time.sleep(0.01)
        start = time.monotonic()
        with pytest.raises(storm.ShellExited, match="closed its stdout") as caught:
            bolt.heartbeat(timeout=0.1)
        assert time.monotonic() - start < 0.7  # 0.1 s and scheduling
        assert caught.value.returncode is None


def test_storm_driver_spout_answers_late() -> None:
    """next_tuple times out; the next next_tuple returns its own answer, not the first's (on main it returned the
    first call's emit, and the second answer was never returned)."""
    with faulty_component(storm.ShellSpout, "slow-spout", "1.5") as spout:
        with pytest.raises(storm.ShellTimeout):
            spout.next_tuple(timeout=0.3)
        assert spout.next_tuple() == [storm.Emit(values=["n", 2], need_task_ids=False), storm.Sync()]
        assert spout.late == 1
        assert spout.next_tuple() == [storm.Emit(values=["n", 3], need_task_ids=False), storm.Sync()]
        assert [m for m in spout.received if isinstance(m, storm.Emit)][0].values == ["first"]  # still on record


def test_storm_driver_heartbeat_answered_late() -> None:
    """A heartbeat is answered by its own sync: the late sync of one that timed out is not the next one's."""
    with faulty_component(storm.ShellBolt, "late-heartbeat", "1.5") as bolt:
        with pytest.raises(storm.ShellTimeout):
            bolt.heartbeat(timeout=0.3)
        bolt.heartbeat()
        assert bolt.syncs == 2  # on main the late sync answered this call too, and it returned after one


def test_storm_driver_no_deadlock_when_both_sides_write() -> None:
    """The component asks for task ids, then writes a 4 MB log before it reads; meanwhile the driver writes a 2 MB
    tuple. On main the tuple's write held the lock the reading thread needed to answer the ids: a deadlock."""
    bolt = faulty_component(storm.ShellBolt, "ids-while-logging", task_ids=[7, 8]).start()
    try:
        tuple_id = within(START, lambda: bolt.execute(["y" * (2 << 20)]))
        assert within(START, lambda: bolt.wait_result(tuple_id)) == "ack"
        assert bolt.emits == [storm.Emit(values=["asking"], need_task_ids=True)]
        assert [log.msg for log in bolt.logs][-1] == "task ids [7, 8]"
    except BaseException:
        os.kill(bolt.pid, signal.SIGKILL)  # a deadlocked driver (main) could not even close
        raise
    finally:
        bolt.close()


@linux
def test_storm_driver_component_floods_stdout() -> None:
    seen = scenario("storm-flood")
    assert seen["forgotten"] > 0 and 0 < seen["logs"] == seen["received"]
    assert seen["peak_kib"] - seen["base_kib"] < 32 << 10, seen


def test_storm_driver_message_past_the_limit() -> None:
    with faulty_component(storm.ShellBolt, "long-message", str(3 << 20), max_message=1 << 20) as bolt:
        tuple_id = bolt.execute(["x"])
        with pytest.raises(storm.ShellProtocolError, match="longer than 1048576 bytes"):
            bolt.wait_result(tuple_id)
    assert bolt.logs == []


def test_storm_driver_component_logs_from_threads() -> None:
    """A streamcodecs bolt whose four threads print 2000 lines each: every line reaches Storm once, in each
    thread's order (on main, lines were lost and doubled)."""
    command = [sys.executable, str(PEERS / "storm_streamcodecs_bolt.py"), "threads"]
    with storm.ShellBolt(command, timeout=START) as bolt:
        assert bolt.wait_result(bolt.execute(["go"])) == "ack"
        logs = [log.msg for log in bolt.logs]
    for n in range(4):
        assert [line for line in logs if line.startswith(f"thread {n} ")] == [
            f"thread {n} line {i}" for i in range(2000)
        ]
    assert len(logs) == 8000


# ============================================================================================ Storm component
class Component:
    """storm_streamcodecs_bolt.py under peak_rss.py, with Storm's ends of its pipes (JSON framing)."""

    def __init__(self, mode: str, tmp_path: Path) -> None:
        command = [sys.executable, str(PEERS / "peak_rss.py"), sys.executable]
        self.process = subprocess.Popen(
            [*command, str(PEERS / "storm_streamcodecs_bolt.py"), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin: IO[bytes] = self.process.stdin
        self._stdout = self.process.stdout
        self.reader = storm.Reader(direction="to_storm")
        self.got: list[storm.Message] = []
        handshake = storm.Handshake(conf={}, pid_dir=str(tmp_path), context=storm.topology_context("bolt"))
        self.send(storm.encode(handshake))
        assert isinstance(self.wait_for(1)[0], storm.PidReply)

    def send(self, data: bytes) -> None:
        self.stdin.write(data)
        self.stdin.flush()

    def wait_for(self, count: int) -> list[storm.Message]:
        while len(self.got) < count and not self._stdout.closed and (data := self._stdout.read1(65536)):  # type: ignore[attr-defined]
            self.got += self.reader.feed(data)
        return self.got

    def end(self) -> tuple[int, str]:
        return _end(self, START)

    wait = Subject.wait


def storm_tuple(tuple_id: str, *values: Any) -> bytes:
    return storm.encode(storm.BoltTuple(id=tuple_id, comp="spout", stream="default", task=4, values=list(values)))


def test_storm_component_storm_dies_in_the_middle_of_a_message(started: list[Any], tmp_path: Path) -> None:
    started.append(bolt := Component("echo", tmp_path))
    bolt.send(storm_tuple("1", "whole") + storm_tuple("2", "cut")[:30])
    code, stderr = bolt.end()
    assert code == 1 and "ended inside a message" in stderr
    assert [m for m in bolt.wait_for(10) if isinstance(m, storm.Ack)] == [storm.Ack(id="1")]


def test_storm_component_storm_exits_between_messages(started: list[Any], tmp_path: Path) -> None:
    started.append(bolt := Component("echo", tmp_path))
    bolt.send(storm_tuple("1", "x"))
    assert bolt.wait_for(3)[-1] == storm.Ack(id="1")
    assert bolt.end()[0] == 0


def test_storm_component_thread_that_ends_after_storm_went_is_quiet(started: list[Any], tmp_path: Path) -> None:
    """A thread's unfinished line is sent when it ends while Storm reads; one that ends after Storm stopped
    reading has nobody to send it to, and neither its end nor the component's stop may say so with a traceback:
    on main the thread's end printed "Exception ignored in: <function _ThreadEnd.__del__>" and a BrokenPipeError,
    or, when Storm closed stdin first, run raised it from its stop (exit status 1)."""
    started.append(bolt := Component("late-thread", tmp_path))
    bolt.send(storm_tuple("1", "x"))
    got = bolt.wait_for(4)
    assert storm.Log(msg="ended while Storm reads", level=storm.LogLevel.INFO) in got and storm.Ack(id="1") in got
    bolt._stdout.close()  # Storm stops reading: the second thread ends
    time.sleep(0.3)  # (not a bound: either order of its end and Storm's closing stdin must be quiet)
    bolt.stdin.close()
    code, stderr = bolt.wait(START)
    assert code == 0 and "Exception" not in stderr and "Traceback" not in stderr, stderr


def test_storm_component_task_ids_come_late(started: list[Any], tmp_path: Path) -> None:
    started.append(bolt := Component("ids", tmp_path))
    bolt.send(storm_tuple("1", "a") + storm_tuple("2", "b"))  # the second arrives while the first waits for ids
    assert bolt.wait_for(2)[1] == storm.Emit(values=["ids-out", "a"], anchors=["1"], need_task_ids=True)
    time.sleep(0.3)  # late, not a bound: the component must simply still be waiting
    bolt.send(storm.encode(storm.TaskIds(task_ids=[5])) + storm.encode(storm.TaskIds(task_ids=[6])))
    got = bolt.wait_for(9)
    assert [m.values for m in got if isinstance(m, storm.Emit) and m.values[0] == "got"] == [["got", [5]], ["got", [6]]]
    assert [m for m in got if isinstance(m, storm.Ack)] == [storm.Ack(id="1"), storm.Ack(id="2")]
    assert bolt.end()[0] == 0


def test_storm_component_ids_of_an_interrupted_wait_are_not_the_next_emits(started: list[Any], tmp_path: Path) -> None:
    """process() cuts an emit's wait for task ids (a SIGALRM handler raises) and goes on. Storm answers emits in
    order, so the ids that come next are that emit's: the next emit must get the list after them (on main it
    returned [5], the first emit's)."""
    started.append(bolt := Component("ids-alarm", tmp_path))
    bolt.send(storm_tuple("1", "alarm"))
    assert bolt.wait_for(3)[2] == storm.Emit(values=["got", "alarm", "timed out"], anchors=["1"], need_task_ids=False)
    bolt.send(storm.encode(storm.TaskIds(task_ids=[5])) + storm_tuple("2", "b"))
    assert bolt.wait_for(5)[4] == storm.Emit(values=["ids-out", "b"], anchors=["2"], need_task_ids=True)
    bolt.send(storm.encode(storm.TaskIds(task_ids=[6])))
    got = bolt.wait_for(7)
    assert [m.values for m in got if isinstance(m, storm.Emit) and m.values[0] == "got"][1:] == [["got", "b", [6]]]
    assert got[-1] == storm.Ack(id="2") and bolt.end()[0] == 0


def test_storm_component_serves_nothing_after_a_malformed_message(started: list[Any], tmp_path: Path) -> None:
    """A malformed message while an emit waits for task ids: the emit raises, the tuple fails and the bolt goes on
    (exit_on_exception off), but the stream cannot be trusted after it (the bad message may have been the ids): the
    main loop's next read raises it again and run ends (on main the bolt went on, and the next emit took the first
    emit's ids, [5], as its own)."""
    started.append(bolt := Component("ids-go-on", tmp_path))
    bolt.send(storm_tuple("1", "a"))
    assert bolt.wait_for(2)[1] == storm.Emit(values=["ids-out", "a"], anchors=["1"], need_task_ids=True)
    bolt.send(b"not json\nend\n" + storm.encode(storm.TaskIds(task_ids=[5])) + storm_tuple("2", "b"))
    code, stderr = bolt.end()
    assert code == 1 and "DecodeError" in stderr
    assert storm.Fail(id="1") in bolt.got and not [m for m in bolt.got if isinstance(m, storm.Emit) and "b" in m.values]


def test_storm_component_serves_nothing_after_a_queue_overflow(started: list[Any], tmp_path: Path) -> None:
    """More tuples than max_queued (3) while an emit waits: the emit raises ProtocolError and the bolt goes on
    (exit_on_exception off), but a tuple was dropped: the main loop's next read raises it again and run ends (on
    main the bolt went on serving the queued tuples)."""
    started.append(bolt := Component("ids-go-on", tmp_path))
    bolt.send(storm_tuple("1", "a"))
    assert bolt.wait_for(2)[1] == storm.Emit(values=["ids-out", "a"], anchors=["1"], need_task_ids=True)
    bolt.send(b"".join(storm_tuple(str(n), "q") for n in range(2, 6)))
    code, stderr = bolt.wait(START)
    assert code == 1 and "more than 3 messages while an emit waited for its task ids" in stderr
    assert not [m for m in bolt.wait_for(10) if isinstance(m, storm.Emit) and "q" in m.values]


@linux
def test_storm_component_storm_floods_while_an_emit_waits(started: list[Any], tmp_path: Path) -> None:
    """20,000 tuples while an emit waits for task ids that never come: ProtocolError past 10,000 queued."""
    started.append(bolt := Component("ids", tmp_path))
    flood = storm_tuple("0", "ask") + b"".join(storm_tuple(str(n), "x" * 100) for n in range(1, 20_001))
    quietly(bolt.send, flood)
    code, stderr = bolt.wait(START)
    assert code == 1 and "more than 10000 messages while an emit waited for its task ids" in stderr
    assert peak_kib(stderr.encode()) < 150 << 10


@linux
def test_storm_component_storm_floods_large_tuples_while_an_emit_waits(started: list[Any], tmp_path: Path) -> None:
    """100 tuples of 1 MiB while an emit waits for task ids that never come: ProtocolError past 64 MiB queued (on
    main the queues counted messages only, 10,000 of up to 16 MiB each: the bolt held them all and waited on)."""
    started.append(bolt := Component("ids", tmp_path))
    flood = storm_tuple("0", "ask") + b"".join(storm_tuple(str(n), "x" * (1 << 20)) for n in range(1, 101))
    quietly(bolt.send, flood)
    code, stderr = bolt.wait(START)
    assert code == 1 and "more than 67108864 bytes of messages while an emit waited for its task ids" in stderr
    assert peak_kib(stderr.encode()) < 150 << 10


@linux
def test_storm_component_message_past_the_limit(started: list[Any], tmp_path: Path) -> None:
    """A 40 MB tuple against the 16 MiB limit: reported to Storm, DecodeError, dropped as it comes."""
    started.append(bolt := Component("echo", tmp_path))
    quietly(bolt.send, storm_tuple("1", "x" * (40 << 20)))
    code, stderr = bolt.wait(START)
    assert code == 1 and "longer than 16777216 bytes" in stderr
    errors = [m for m in bolt.wait_for(10) if isinstance(m, storm.Error)]
    assert len(errors) == 1 and "could not read a message from Storm" in errors[0].msg
    assert peak_kib(stderr.encode()) < 150 << 10
