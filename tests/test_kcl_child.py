"""The child-side runtime ``kcl.run_child``, driven with lines exactly as the Java MultiLangDaemon writes them.

The daemon lines below are written out by hand (Jackson's compact output, action first, fields in declaration
order, nulls written, ``"action":"record"`` last, upper-case ``\\u00XX``, raw UTF-8), including the checkpoint
replies in the order the processor asks for them, as amazon-kclpy's own integration test does.
"""

from __future__ import annotations

import io
import os
import select
import threading
import time
from typing import Any

import pytest
from streamcodecs import kcl

SEQ = "49590338271490256608559692538361571095921575989136588898"

DAEMON_LINES = [
    b'{"action":"initialize","shardId":"shardId-000000000000","sequenceNumber":"TRIM_HORIZON","subSequenceNumber":0}',
    b'{"action":"processRecords","records":[{"data":"aGk=","partitionKey":"pk\\u001F/\xc3\xa9\xe2\x80\xa8",'
    b'"sequenceNumber":"' + SEQ.encode() + b'","approximateArrivalTimestamp":1476889707000,"subSequenceNumber":0,'
    b'"action":"record"},{"data":"AP/+","partitionKey":"p\\"k\\\\","sequenceNumber":"'
    + SEQ.encode()
    + b'","approximateArrivalTimestamp":1476889707001,"subSequenceNumber":3,"action":"record"}],'
    b'"millisBehindLatest":1234}',
    b'{"action":"checkpoint","sequenceNumber":"' + SEQ.encode() + b'","subSequenceNumber":3,'
    b'"error":"ThrottlingException"}',
    b'{"action":"checkpoint","sequenceNumber":"' + SEQ.encode() + b'","subSequenceNumber":3,"error":null}',
    b'{"action":"shardEnded"}',
    b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":null}',
    b'{"action":"shutdownRequested"}',
    b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":"ShutdownException"}',
    b'{"action":"leaseLost"}',
]

EXPECTED_OUTPUT = (
    b'\n{"action":"status","responseFor":"initialize"}\n'
    b'\n{"action":"checkpoint","sequenceNumber":"' + SEQ.encode() + b'","subSequenceNumber":3}\n'
    b'\n{"action":"checkpoint","sequenceNumber":"' + SEQ.encode() + b'","subSequenceNumber":3}\n'
    b'\n{"action":"status","responseFor":"processRecords"}\n'
    b'\n{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null}\n'
    b'\n{"action":"status","responseFor":"shardEnded"}\n'
    b'\n{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null}\n'
    b'\n{"action":"status","responseFor":"shutdownRequested"}\n'
    b'\n{"action":"status","responseFor":"leaseLost"}\n'
)


class Recorder(kcl.RecordProcessor):
    """Records every call; checkpoints after each batch at its last record, retrying a ThrottlingException."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def initialize(self, message: kcl.Initialize) -> None:
        self.calls.append(("initialize", message))

    def process_records(self, message: kcl.ProcessRecords, checkpointer: kcl.Checkpointer) -> None:
        self.calls.append(("process_records", message))
        last = message.records[-1]
        for _ in range(3):
            try:
                checkpointer.checkpoint(last.sequence_number, last.sub_sequence_number)
            except kcl.CheckpointError as error:
                self.calls.append(("refused", error.error))
                if error.error != "ThrottlingException":
                    return
            else:
                self.calls.append(("checkpointed", last.sequence_number))
                return

    def lease_lost(self, message: kcl.LeaseLost) -> None:
        self.calls.append(("lease_lost", message))

    def shard_ended(self, message: kcl.ShardEnded, checkpointer: kcl.Checkpointer) -> None:
        self.calls.append(("shard_ended", message))
        checkpointer.checkpoint()
        self.calls.append(("checkpointed", None))

    def shutdown_requested(self, message: kcl.ShutdownRequested, checkpointer: kcl.Checkpointer) -> None:
        self.calls.append(("shutdown_requested", message))
        try:
            checkpointer.checkpoint()
        except kcl.CheckpointError as error:
            self.calls.append(("refused", error.value))

    def shutdown(self, message: kcl.Shutdown, checkpointer: kcl.Checkpointer) -> None:
        self.calls.append(("shutdown", message))
        if message.reason is kcl.ShutdownReason.TERMINATE:
            checkpointer.checkpoint()


def run(processor: Any, stream: bytes, **options: Any) -> tuple[bytes, str]:
    stdout, stderr = io.BytesIO(), io.StringIO()
    kcl.run_child(processor, io.BytesIO(stream), stdout, stderr, **options)
    return stdout.getvalue(), stderr.getvalue()


@pytest.mark.parametrize("line_end", [b"\n", b"\r\n"], ids=["LF", "CRLF (Windows daemon)"])
def test_a_whole_session_as_the_java_daemon_writes_it(line_end: bytes) -> None:
    processor = Recorder()
    out, err = run(processor, b"".join(line + line_end for line in DAEMON_LINES))
    assert out == EXPECTED_OUTPUT
    assert err == ""
    batch = processor.calls[1][1]
    assert processor.calls == [
        (
            "initialize",
            kcl.Initialize(shard_id="shardId-000000000000", sequence_number="TRIM_HORIZON", sub_sequence_number=0),
        ),
        ("process_records", batch),
        ("refused", "ThrottlingException"),
        ("checkpointed", SEQ),
        ("shard_ended", kcl.ShardEnded()),
        ("checkpointed", None),
        ("shutdown_requested", kcl.ShutdownRequested()),
        ("refused", "ShutdownException"),
        ("lease_lost", kcl.LeaseLost()),
    ]
    assert batch.millis_behind_latest == 1234
    assert [
        (r.data, r.partition_key, r.sub_sequence_number, r.approximate_arrival_timestamp) for r in batch.records
    ] == [(b"hi", "pk\x1f/\u00e9\u2028", 0, 1476889707000), (b"\x00\xff\xfe", 'p"k\\', 3, 1476889707001)]


def test_every_output_line_decodes_as_a_daemon_bound_message() -> None:
    out, _ = run(Recorder(), b"".join(line + b"\n" for line in DAEMON_LINES))
    messages = kcl.Reader(direction="to_daemon").feed(out)
    assert [type(m).__name__ for m in messages] == [
        "Status",
        "Checkpoint",
        "Checkpoint",
        "Status",
        "Checkpoint",
        "Status",
        "Checkpoint",
        "Status",
        "Status",
    ]


def test_the_1x_shutdown_is_answered_with_its_status() -> None:
    processor = Recorder()
    stream = (
        b'{"action":"initialize","shardId":"s"}\n'
        b'{"action":"shutdown","reason":"TERMINATE"}\n'
        b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":null}\n'
    )
    out, _ = run(processor, stream)
    assert processor.calls[-1] == ("shutdown", kcl.Shutdown(reason=kcl.ShutdownReason.TERMINATE))
    assert out.endswith(
        b'\n{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null}\n'
        b'\n{"action":"status","responseFor":"shutdown"}\n'
    )


def test_a_processor_exception_is_reported_and_the_status_still_sent() -> None:
    class Failing(kcl.RecordProcessor):
        def initialize(self, message: kcl.Initialize) -> None:
            raise RuntimeError("boom in initialize")

    out, err = run(Failing(), DAEMON_LINES[0] + b"\n" + b'{"action":"leaseLost"}\n')
    assert out == b'\n{"action":"status","responseFor":"initialize"}\n\n{"action":"status","responseFor":"leaseLost"}\n'
    assert "Failing.initialize raised" in err and "RuntimeError: boom in initialize" in err
    assert "Traceback" in err


def test_a_processor_without_a_method_is_reported_and_answered() -> None:
    class Minimal:
        def initialize(self, message: kcl.Initialize) -> None:
            pass

    out, err = run(Minimal(), DAEMON_LINES[0] + b"\n" + b'{"action":"leaseLost"}\n')
    assert out.endswith(b'\n{"action":"status","responseFor":"leaseLost"}\n')
    assert "Minimal.lease_lost raised" in err and "AttributeError" in err


def test_another_message_instead_of_a_checkpoint_reply_counts_as_invalid_state_and_is_then_handled() -> None:
    processor = Recorder()
    out, _ = run(
        processor,
        DAEMON_LINES[1]
        + b"\n"
        + b'{"action":"shardEnded"}\n'
        + b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":null}\n',
    )
    assert ("refused", "InvalidStateException") in processor.calls
    assert [c[0] for c in processor.calls][-2:] == ["shard_ended", "checkpointed"]
    assert out.endswith(
        b'\n{"action":"status","responseFor":"processRecords"}\n'
        b'\n{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null}\n'
        b'\n{"action":"status","responseFor":"shardEnded"}\n'
    )


def test_a_checkpointer_kept_after_its_call_refuses_without_writing() -> None:
    kept: list[kcl.Checkpointer] = []

    class Keeper(kcl.RecordProcessor):
        def process_records(self, message: kcl.ProcessRecords, checkpointer: kcl.Checkpointer) -> None:
            kept.append(checkpointer)

    out, _ = run(Keeper(), DAEMON_LINES[1] + b"\n")
    with pytest.raises(kcl.CheckpointError) as caught:
        kept[0].checkpoint()
    assert caught.value.error == "InvalidStateException"
    assert out == b'\n{"action":"status","responseFor":"processRecords"}\n'


def test_an_integer_sequence_number_is_sent_as_a_string_and_bad_values_are_not_sent() -> None:
    errors: list[Exception] = []

    class Numbers(kcl.RecordProcessor):
        def process_records(self, message: kcl.ProcessRecords, checkpointer: kcl.Checkpointer) -> None:
            checkpointer.checkpoint(12345, 2)
            try:
                checkpointer.checkpoint("1", 2**63)
            except kcl.EncodeError as error:
                errors.append(error)

    reply = b'{"action":"checkpoint","sequenceNumber":"12345","subSequenceNumber":2,"error":null}\n'
    out, _ = run(Numbers(), DAEMON_LINES[1] + b"\n" + reply)
    assert out == (
        b'\n{"action":"checkpoint","sequenceNumber":"12345","subSequenceNumber":2}\n'
        b'\n{"action":"status","responseFor":"processRecords"}\n'
    )
    assert len(errors) == 1 and errors[0].field == "Checkpoint.subSequenceNumber"


def test_end_of_input_while_a_checkpoint_waits_is_an_eof_error_in_the_processor() -> None:
    processor = Recorder()
    out, err = run(processor, DAEMON_LINES[1] + b"\n")
    assert "EOFError" in err
    assert out.endswith(b'\n{"action":"status","responseFor":"processRecords"}\n')


def test_an_unreadable_daemon_line_stops_the_child_without_a_status() -> None:
    processor = Recorder()
    stream = DAEMON_LINES[0] + b"\n\n" + b'{"action":"processRecords","records":[{"data":"aGk"}]}\n' + DAEMON_LINES[8]
    stdout, stderr = io.BytesIO(), io.StringIO()
    with pytest.raises(kcl.DecodeError) as caught:
        kcl.run_child(processor, io.BytesIO(stream), stdout, stderr)
    assert caught.value.line == 3
    assert stdout.getvalue() == b'\n{"action":"status","responseFor":"initialize"}\n'
    assert "cannot read the daemon's message" in stderr.getvalue()
    assert [c[0] for c in processor.calls] == ["initialize"]


def test_an_unreadable_checkpoint_reply_stops_the_child_without_a_status() -> None:
    processor = Recorder()
    stream = DAEMON_LINES[1] + b'\n{"action":"checkpoint","error":7}\n' + DAEMON_LINES[8]
    stdout = io.BytesIO()
    with pytest.raises(kcl.DecodeError) as caught:
        kcl.run_child(processor, io.BytesIO(stream), stdout, io.StringIO())
    assert caught.value.field == "error"
    assert b"status" not in stdout.getvalue()


def test_text_streams_are_refused() -> None:
    with pytest.raises(TypeError):
        kcl.run_child(Recorder(), io.StringIO('{"action":"leaseLost"}\n'), io.BytesIO(), io.StringIO())


def test_a_checkpoint_reply_that_comes_too_late_is_recognised_and_dropped() -> None:
    """Over real pipes: the reply misses the checkpoint timeout, arrives after the status, is recognised as the
    timed-out checkpoint's own, reported and dropped."""
    errors: list[Exception] = []

    class Impatient(kcl.RecordProcessor):
        def process_records(self, message: kcl.ProcessRecords, checkpointer: kcl.Checkpointer) -> None:
            try:
                checkpointer.checkpoint()
            except TimeoutError as error:
                errors.append(error)

    read_in, write_in = os.pipe()
    read_out, write_out = os.pipe()
    stdin, daemon = open(read_in, "rb"), open(write_in, "wb")
    from_child, stdout = open(read_out, "rb"), open(write_out, "wb")
    stderr = io.StringIO()
    child = threading.Thread(
        target=kcl.run_child, args=(Impatient(), stdin, stdout, stderr), kwargs={"checkpoint_timeout": 0.2}, daemon=True
    )
    child.start()
    try:
        daemon.write(DAEMON_LINES[1] + b"\n")
        daemon.flush()
        reader = kcl.Reader(direction="to_daemon")
        got: list[kcl.Message] = []
        deadline = time.monotonic() + 10
        while len(got) < 2 and select.select([from_child], [], [], max(0.0, deadline - time.monotonic()))[0]:
            got += reader.feed(os.read(from_child.fileno(), 65536))
        assert got == [kcl.Checkpoint(), kcl.Status(response_for="processRecords")]
        daemon.write(
            b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":null}\n'
            + b'{"action":"leaseLost"}\n'
        )
        daemon.close()
        child.join(10)
        assert not child.is_alive()
        stdout.close()
        got += reader.feed(from_child.read())
        assert got[-1] == kcl.Status(response_for="leaseLost")
    finally:
        stdout.close()
        from_child.close()
    assert len(errors) == 1 and "0.2 s" in str(errors[0])
    assert stderr.getvalue() == (
        "kcl child: the daemon accepted the checkpoint at the last record delivered after it had timed out; "
        "the late reply is dropped\n"
    )


def test_idle_timeout_bounds_the_wait_for_the_daemon() -> None:
    read_in, write_in = os.pipe()
    stdin, daemon = open(read_in, "rb"), open(write_in, "wb")
    try:
        with pytest.raises(TimeoutError, match="no message from the daemon within 0.2 s"):
            kcl.run_child(Recorder(), stdin, io.BytesIO(), io.StringIO(), idle_timeout=0.2)
    finally:
        daemon.close()
        stdin.close()


class PipedChild:
    """``run_child`` in a thread over OS pipes, and the daemon's ends of them, for the tests that need real waits."""

    def __init__(self, processor: Any, **options: Any) -> None:
        read_in, write_in = os.pipe()
        read_out, write_out = os.pipe()
        self.stdin, self.daemon = open(read_in, "rb"), open(write_in, "wb")
        self.from_child, self.stdout = open(read_out, "rb"), open(write_out, "wb")
        self.stderr = io.StringIO()
        self.reader = kcl.Reader(direction="to_daemon")
        self.got: list[kcl.Message] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(processor, options), daemon=True)
        self.thread.start()

    def _run(self, processor: Any, options: dict[str, Any]) -> None:
        try:
            kcl.run_child(processor, self.stdin, self.stdout, self.stderr, **options)
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            self.error = exc
        finally:
            self.stdout.close()

    def send(self, *lines: bytes) -> None:
        self.daemon.write(b"".join(line + b"\n" for line in lines))
        self.daemon.flush()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[kcl.Message]:
        """Read the child's messages until ``count`` have come (or the stream ends, or ``timeout``)."""
        deadline = time.monotonic() + timeout
        while (
            len(self.got) < count and select.select([self.from_child], [], [], max(0.0, deadline - time.monotonic()))[0]
        ):
            data = os.read(self.from_child.fileno(), 65536)
            if not data:
                break
            self.got += self.reader.feed(data)
        return self.got

    def finish(self) -> None:
        self.daemon.close()
        self.thread.join(10)
        assert not self.thread.is_alive()
        self.wait_for(len(self.got) + 1000, timeout=5)
        self.from_child.close()


def reply(sequence_number: str | None, error: str | None = None) -> bytes:
    return kcl.encode(kcl.CheckpointReply(sequence_number=sequence_number, sub_sequence_number=None, error=error))


def test_a_late_reply_is_never_taken_for_the_answer_to_a_later_checkpoint() -> None:
    """Checkpoint "100" times out; its late acceptance arrives, then the daemon refuses "200": the processor is told
    "200" was refused (on main it was told "200" succeeded, and the refusal was dropped)."""
    outcomes: list[tuple[str, str]] = []

    class Retrying(kcl.RecordProcessor):
        def process_records(self, message: kcl.ProcessRecords, checkpointer: kcl.Checkpointer) -> None:
            for sequence_number in ("100", "200"):
                try:
                    checkpointer.checkpoint(sequence_number)
                    outcomes.append((sequence_number, "accepted"))
                except TimeoutError:
                    outcomes.append((sequence_number, "timed out"))
                except kcl.CheckpointError as error:
                    outcomes.append((sequence_number, error.error))

    child = PipedChild(Retrying(), checkpoint_timeout=0.3)
    try:
        child.send(DAEMON_LINES[1])
        # The second request comes only once the first timed out; the daemon answers both, in order, as Java does.
        assert child.wait_for(2) == [kcl.Checkpoint(sequence_number="100"), kcl.Checkpoint(sequence_number="200")]
        child.send(reply("100").rstrip(b"\n"), reply("200", "ThrottlingException").rstrip(b"\n"))
        assert child.wait_for(3)[2] == kcl.Status(response_for="processRecords")
    finally:
        child.finish()
    assert child.error is None
    assert outcomes == [("100", "timed out"), ("200", "ThrottlingException")]
    assert "the daemon accepted the checkpoint at '100' after it had timed out" in child.stderr.getvalue()


def test_a_reply_for_another_position_is_not_an_answer() -> None:
    """A reply must echo the request's position; one that does not is reported and dropped, never taken."""
    outcomes: list[str] = []

    class Once(kcl.RecordProcessor):
        def process_records(self, message: kcl.ProcessRecords, checkpointer: kcl.Checkpointer) -> None:
            try:
                checkpointer.checkpoint("300")
                outcomes.append("accepted")
            except kcl.CheckpointError as error:
                outcomes.append(error.error)

    out, err = run(Once(), DAEMON_LINES[1] + b"\n" + reply("299") + reply("300", "ShutdownException"))
    assert outcomes == ["ShutdownException"]
    assert "dropped a checkpoint reply for '299' while the checkpoint at '300' waited for its own" in err
    assert out.endswith(b'\n{"action":"status","responseFor":"processRecords"}\n')
