"""The daemon-side driver ``kcl.ChildDriver``: lifecycle messages, checkpoint answers through the callback,
status checks, lines the Java daemon would skip, timeouts, child exits, and replaying recorded traffic."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamcodecs import kcl

PEERS = Path(__file__).resolve().parent / "peers"
sys.path.insert(0, str(PEERS))
from kcl_observe import observations  # noqa: E402

SHARD = "shardId-000000000007"


def record(seq: str, data: bytes = b"d", sub: int = 0) -> kcl.Record:
    return kcl.Record(
        data=data, partition_key="pk", sequence_number=seq, approximate_arrival_timestamp=1000, sub_sequence_number=sub
    )


class Collector(kcl.RecordProcessor):
    def __init__(self) -> None:
        self.batches: list[kcl.ProcessRecords] = []
        self.refusals: list[str] = []

    def process_records(self, message: kcl.ProcessRecords, checkpointer: kcl.Checkpointer) -> None:
        self.batches.append(message)
        try:
            checkpointer.checkpoint(message.records[-1].sequence_number if message.records else None)
        except kcl.CheckpointError as error:
            self.refusals.append(error.error)


@pytest.fixture
def in_process() -> Iterator[tuple[Collector, dict[str, Any]]]:
    """A run_child thread over OS pipes; yields the processor and the driver's stream arguments."""
    read_in, write_in = os.pipe()
    read_out, write_out = os.pipe()
    child_in, child_out = open(read_in, "rb"), open(write_out, "wb")
    processor = Collector()
    stderr = io.StringIO()

    def child() -> None:
        try:
            kcl.run_child(processor, child_in, child_out, stderr)
        finally:
            child_out.close()
            child_in.close()

    thread = threading.Thread(target=child, daemon=True)
    thread.start()
    yield processor, {"stdin": open(write_in, "wb"), "stdout": open(read_out, "rb")}
    thread.join(10)
    assert not thread.is_alive()


def scripted(*replies: str, **options: Any) -> kcl.ChildDriver:
    """A child that answers the n-th line it reads with the n-th reply (``-``: nothing)."""
    return kcl.ChildDriver.launch([sys.executable, str(PEERS / "kcl_scripted_child.py"), *replies], **options)


def test_driver_and_run_child_in_one_process(in_process: tuple[Collector, dict[str, Any]]) -> None:
    processor, streams = in_process
    calls: list[tuple[str | None, str]] = []

    def on_checkpoint(request: kcl.Checkpoint, action: str) -> str | None:
        calls.append((request.sequence_number, action))
        raise ValueError("the Java daemon reports any Throwable by its simple class name")

    with kcl.ChildDriver(streams["stdin"], streams["stdout"], on_checkpoint=on_checkpoint, timeout=10) as driver:
        first = driver.initialize(SHARD, kcl.SENTINEL_TRIM_HORIZON, 0)
        second = driver.process_records([record("1"), record("2")], millis_behind_latest=None)
    assert driver.close() is None  # no process: no exit code; closing twice is fine
    assert first.status == kcl.Status(response_for="initialize") and first.checkpoints == []
    assert second.status == kcl.Status(response_for="processRecords")
    assert second.checkpoints == [
        (
            kcl.Checkpoint(sequence_number="2"),
            kcl.CheckpointReply(sequence_number="2", sub_sequence_number=None, error="ValueError"),
        )
    ]
    assert calls == [("2", "processRecords")]
    assert processor.refusals == ["ValueError"]
    assert processor.batches == [kcl.ProcessRecords(records=[record("1"), record("2")], millis_behind_latest=None)]
    assert [d for d, _ in driver.transcript] == [
        "to_child",
        "to_daemon",
        "to_child",
        "to_daemon",
        "to_child",
        "to_daemon",
    ]
    assert driver.transcript == first.lines + second.lines
    assert driver.exchanges == [first, second]


def test_status_for_another_action_is_a_protocol_error() -> None:
    with scripted('{"action":"status","responseFor":"processRecords"}', timeout=10) as driver:
        with pytest.raises(kcl.ProtocolError) as caught:
            driver.initialize(SHARD)
    assert "'initialize'" in str(caught.value) and "'processRecords'" in str(caught.value)
    assert caught.value.exchange is driver.exchanges[0]
    assert caught.value.exchange.status == kcl.Status(response_for="processRecords")


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ('{"action":"status","responseFor":"initialize","extra":1}', "'extra' unknown to the daemon"),
        ('{"action":"checkpoint","checkpoint":"5"}', "'checkpoint' unknown to the daemon"),
        ("Starting my processor...", "malformed JSON"),
        ('{"action":"initialize","shardId":"s"}', "field action"),
        ('{"action": "checkpoint", "sequenceNumber": 123, "subSequenceNumber": null}', "field sequenceNumber"),
    ],
)
def test_lines_the_java_daemon_would_skip(bad: str, why: str) -> None:
    good = '{"action":"status","responseFor":"initialize"}'
    with scripted(bad + "\n\n" + good, timeout=10) as driver, pytest.raises(kcl.ProtocolError) as caught:
        driver.initialize(SHARD)
    assert why in str(caught.value) and "would skip" in str(caught.value)

    with scripted(bad + "\n\n" + good, timeout=10, strict=False) as lenient:
        exchange = lenient.initialize(SHARD)
    assert exchange.status == kcl.Status(response_for="initialize")
    assert len(exchange.skipped) == 1 and exchange.skipped[0][0] == bad.encode() and why in exchange.skipped[0][1]
    assert [line for _, line in exchange.lines[1:]] == [bad.encode(), good.encode()]  # the empty line is not listed


def test_checkpoints_during_lease_lost_are_refused_without_asking() -> None:
    asked: list[str] = []
    with scripted(
        '{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null}',
        '{"action":"status","responseFor":"leaseLost"}',
        timeout=10,
        on_checkpoint=lambda request, action: asked.append(action),
    ) as driver:
        exchange = driver.lease_lost()
    assert asked == []
    assert exchange.checkpoints[0][1].error == kcl.INVALID_STATE_EXCEPTION
    assert exchange.lines[2] == (
        "to_child",
        b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":"InvalidStateException"}',
    )


def test_exchanges_are_kept_within_keep_bytes(in_process: tuple[Collector, dict[str, Any]]) -> None:
    processor, streams = in_process
    with kcl.ChildDriver(streams["stdin"], streams["stdout"], timeout=10, keep_bytes=20_000) as driver:
        for n in range(40):
            driver.process_records([record(str(n), b"x" * 1000)])
    assert len(processor.batches) == 40
    assert 0 < len(driver.exchanges) < 40 and driver.forgotten == 40 - len(driver.exchanges)
    assert driver.exchanges[-1].sent.records[0].sequence_number == "39"
    assert sum(e.kept_bytes for e in driver.exchanges) <= 20_000


def test_close_kills_a_child_that_ignores_the_end_of_its_input() -> None:
    stubborn = [sys.executable, "-c", "import sys, time; sys.stdin.read(); time.sleep(60)"]
    driver = kcl.ChildDriver.launch(stubborn, timeout=0.5)
    with pytest.raises(TimeoutError, match="killed"):
        driver.close()
    assert driver.process is not None and driver.process.poll() is not None


def test_close_returns_the_exit_code_and_keeps_late_lines() -> None:
    late = [sys.executable, "-c", "import sys; sys.stdin.read(); print('{\"late\": 1}'); sys.exit(4)"]
    driver = kcl.ChildDriver.launch(late, timeout=10)
    assert driver.close() == 4
    assert driver.transcript == [("to_daemon", b'{"late": 1}')]


def test_send_takes_only_lifecycle_messages() -> None:
    driver = kcl.ChildDriver(io.BytesIO(), io.BytesIO(), timeout=1)
    for message in (kcl.CheckpointReply(error=None), kcl.Status(response_for="x"), kcl.Checkpoint()):
        with pytest.raises(TypeError):
            driver.send(message)


def test_replay_recorded_daemon_lines_and_records(in_process: tuple[Collector, dict[str, Any]]) -> None:
    processor, streams = in_process
    recording = io.BytesIO(
        b'{"action":"initialize","shardId":"shardId-000000000007","sequenceNumber":"LATEST","subSequenceNumber":0}\n'
        b'{"action":"processRecords","records":[{"data":"aGk=","partitionKey":"pk","sequenceNumber":"1",'
        b'"approximateArrivalTimestamp":1000,"subSequenceNumber":0,"action":"record"}],"millisBehindLatest":5}\n'
        b'{"action":"checkpoint","sequenceNumber":"1","subSequenceNumber":null,"error":"ThrottlingException"}\n'
        b"\n"
    )
    with kcl.ChildDriver(streams["stdin"], streams["stdout"], timeout=10) as driver:
        played = driver.replay(recording)
        more = driver.replay(
            [record(str(n)) for n in range(2, 7)] + [kcl.ShardEnded()], batch_size=2, millis_behind_latest=None
        )
    assert [e.action for e in played] == ["initialize", "processRecords"]
    assert played[1].lines[0][1] == recording.getvalue().split(b"\n")[1]  # re-sent byte for byte
    assert [e.action for e in more] == ["processRecords"] * 3 + ["shardEnded"]
    assert [[r.sequence_number for r in b.records] for b in processor.batches] == [["1"], ["2", "3"], ["4", "5"], ["6"]]
    assert processor.batches[0].records[0].data == b"hi"
    assert all(reply.error is None for e in played + more for _, reply in e.checkpoints)
    assert more[-1].checkpoints[0][0] == kcl.Checkpoint()  # RecordProcessor.shard_ended checkpoints by default


def test_a_run_child_subprocess_that_prints_to_stdout() -> None:
    """Stray stdout text cannot run into a protocol line (each is preceded by an empty line); the driver in
    lenient mode skips it like the Java daemon, in strict mode reports it."""
    child = [sys.executable, str(PEERS / "kcl_streamcodecs_child.py"), "print"]
    with kcl.ChildDriver.launch(child, timeout=20, strict=False) as driver:
        driver.initialize(SHARD, "1", 0)
        exchange = driver.process_records([record("1")])
    assert exchange.status == kcl.Status(response_for="processRecords")
    assert [text for text, _ in driver.exchanges[0].skipped] == [b"stray output from initialize"]
    assert [text for text, _ in exchange.skipped] == [b"stray output from process_records"]
    assert observations(driver.stderr)[-1] == {"event": "checkpointed", "attempt": 1, "sequence_number": "1"}
    with pytest.raises(kcl.ProtocolError), kcl.ChildDriver.launch(child, timeout=20) as strict:
        strict.initialize(SHARD)
        strict.process_records([record("1")])


def test_a_run_child_subprocess_whose_processor_raises_still_answers() -> None:
    child = [sys.executable, str(PEERS / "kcl_streamcodecs_child.py"), "raise"]
    with kcl.ChildDriver.launch(child, timeout=20) as driver:
        driver.initialize(SHARD, "1", 0)
        driver.process_records([record("1")])
        driver.shard_ended()
    assert driver.process is not None and driver.process.returncode == 0
    assert [e.status for e in driver.exchanges] == [
        kcl.Status(response_for=a) for a in ("initialize", "processRecords", "shardEnded")
    ]
    assert driver.stderr.count("RuntimeError: ") == 3


def test_attach_needs_pipes() -> None:
    process = subprocess.Popen([sys.executable, "-c", "pass"], stdout=subprocess.PIPE)
    try:
        with pytest.raises(ValueError, match="stdin=subprocess.PIPE"):
            kcl.ChildDriver.attach(process)
    finally:
        process.communicate(timeout=10)
