"""Child side of the KCL MultiLang protocol: run a record processor under the MultiLangDaemon.

The MultiLangDaemon starts one child process per shard and talks to it over the child's stdin and stdout. A
child written with this module needs nothing but streamcodecs::

    import sys
    from streamcodecs import kcl

    class Printer(kcl.RecordProcessor):
        def process_records(self, message, checkpointer):
            for record in message.records:
                print(record.partition_key, record.data, file=sys.stderr)  # stdout belongs to the protocol
            checkpointer.checkpoint()  # at the last record of this batch

    if __name__ == "__main__":
        kcl.run_child(Printer())

:func:`run_child` reads each message the daemon sends, calls the processor method for it and answers with the
``status`` the daemon waits for, also when the method raised (the traceback goes to stderr, as amazon-kclpy does).
Methods that get a :class:`Checkpointer` may checkpoint any number of times before they return; a refused
checkpoint raises :class:`CheckpointError` with the daemon's error name (``ThrottlingException``,
``ShutdownException``, ``InvalidStateException``, ...). Every line this side writes is preceded by an empty line,
which the daemon skips: whatever else reached stdout (a stray ``print``) then cannot run into a message.
"""

from __future__ import annotations

import math
import sys
import threading
import time
import traceback
from collections import deque
from typing import IO, Any, TextIO

import msgspec

from .._runtime.stdio import LineQueue, Writer
from .messages import (
    INVALID_STATE_EXCEPTION,
    MAX_MESSAGE,
    Checkpoint,
    CheckpointReply,
    DecodeError,
    Initialize,
    LeaseLost,
    Message,
    ProcessRecords,
    Reader,
    ShardEnded,
    Shutdown,
    ShutdownReason,
    ShutdownRequested,
    Status,
    encode,
)

__all__ = [
    "CHECKPOINT_TIMEOUT",
    "MAX_OWED",
    "WRITE_TIMEOUT",
    "CheckpointError",
    "Checkpointer",
    "RecordProcessor",
    "action_of",
    "run_child",
]

CHECKPOINT_TIMEOUT = 300.0
"""Default seconds a :meth:`Checkpointer.checkpoint` waits for the daemon's reply (KCL retries DynamoDB inside)."""
WRITE_TIMEOUT = 300.0
"""Default seconds a status may take to reach the daemon (it reads the child's stdout while it waits for one)."""
MAX_OWED = 1000
"""Checkpoints that timed out and are still owed a reply, at most; the next one raises TimeoutError unsent."""


def action_of(message: Message) -> str:
    """The ``action`` value a message carries on the wire, e.g. ``"processRecords"``."""
    tag = getattr(getattr(type(message), "__struct_config__", None), "tag", None)
    if not isinstance(tag, str):
        raise TypeError(f"action_of takes a kcl message, not {type(message).__name__}")
    return tag


class CheckpointError(Exception):
    """The daemon refused a checkpoint. ``error`` is the name it gave: a Java exception's simple class name."""

    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error

    @property
    def value(self) -> str:
        """The error name, under the attribute name amazon-kclpy's ``CheckpointError`` uses."""
        return self.error


class _Inbox:
    """Messages from the daemon, decoded as they are asked for; a message can be put back for the main loop."""

    def __init__(self, stream: IO[bytes], max_message: int) -> None:
        self._lines = LineQueue(stream, max_message + 2, "kcl-child-stdin")
        self._reader = Reader(direction="to_child", max_message=max_message)
        self._pending: deque[Message] = deque()
        self.failure: DecodeError | None = None
        """The first line that could not be decoded; the conversation cannot go on after it."""

    def next(self, timeout: float | None) -> Message | None:
        """The next message, or ``None`` when the daemon closed the stream."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._pending:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self._lines.get(remaining)
            try:
                if line is None:
                    self._pending.extend(self._reader.feed(b"\n"))  # a last line without its newline
                    if not self._pending:
                        return None
                else:
                    self._pending.extend(self._reader.feed(line))
            except DecodeError as exc:
                self.failure = self.failure or exc
                raise
        return self._pending.popleft()

    def put_back(self, message: Message) -> None:
        self._pending.appendleft(message)


class _Outbox:
    """Writes whole lines to the daemon, each preceded by an empty line, from any thread, each write bounded."""

    def __init__(self, stream: IO[bytes], timeout: float | None) -> None:
        self._writer = Writer(stream, "kcl-child-stdout")
        self._timeout = timeout

    def release(self) -> None:
        """Let go of the stream (the descriptor of the writer's own onto it), when the conversation is over."""
        self._writer.release()

    def send(self, message: Message, deadline: float | None = None) -> None:
        """Write ``message`` by ``deadline`` (default: ``write_timeout`` from now).

        Encodes first (an EncodeError writes nothing). ``TimeoutError`` when the daemon does not take it in time;
        the connection is then broken and every later write raises :class:`~.._runtime.stdio.Broken` (a
        ``ConnectionError``), as does a write after a failed one.
        """
        data = b"\n" + encode(message)
        if deadline is None:
            deadline = math.inf if self._timeout is None else time.monotonic() + self._timeout
        try:
            self._writer.write(data, deadline)
        except TimeoutError:
            what = f"status for {message.response_for!r}" if isinstance(message, Status) else "checkpoint request"
            raise TimeoutError(f"the daemon did not take the {what} in time; the connection is broken") from None


def _position(request: Checkpoint | CheckpointReply) -> str:
    """Where a checkpoint request (or the reply echoing it) asks to checkpoint, for reports."""
    sequence_number: object = request.sequence_number
    sub_sequence_number = request.sub_sequence_number
    if isinstance(request, CheckpointReply) and request.checkpoint is not msgspec.UNSET:
        sequence_number, sub_sequence_number = request.checkpoint, None
    if sequence_number is None:
        return "the last record delivered"
    return repr(sequence_number) + ("" if sub_sequence_number is None else f"/{sub_sequence_number}")


def _answers(reply: CheckpointReply, request: Checkpoint) -> bool:
    """Whether ``reply`` is the daemon's answer to ``request``: the daemon echoes the position asked for."""
    if reply.checkpoint is not msgspec.UNSET:  # KCL before 1.7.2 echoes it as "checkpoint"
        return reply.checkpoint == request.sequence_number
    return reply.sequence_number == request.sequence_number and reply.sub_sequence_number == request.sub_sequence_number


class _Conversation:
    """What the main loop and every checkpointer share: the streams, and the checkpoints still owed a reply."""

    def __init__(self, inbox: _Inbox, outbox: _Outbox, stderr: TextIO) -> None:
        self.inbox = inbox
        self.outbox = outbox
        self.stderr = stderr
        self.owed: deque[Checkpoint] = deque()
        """Checkpoints whose reply did not come in time, oldest first. The daemon answers every request, in order
        (``MultiLangProtocol`` handles one line at a time), so the next replies are theirs."""

    def late(self, reply: CheckpointReply) -> bool:
        """Whether ``reply`` is the late reply to the oldest timed-out checkpoint (it is then reported and dropped)."""
        if not self.owed or not _answers(reply, self.owed[0]):
            return False
        request = self.owed.popleft()
        outcome = "accepted" if reply.error is None else f"refused ({reply.error})"
        _report(
            self.stderr,
            f"kcl child: the daemon {outcome} the checkpoint at {_position(request)} after it had timed out; "
            "the late reply is dropped",
        )
        return True


class Checkpointer:
    """Asks the daemon to checkpoint, for the processor call it was passed to.

    It is valid only during that call (``process_records``, ``shard_ended``, ``shutdown_requested`` and the 1.x
    ``shutdown``); afterwards :meth:`checkpoint` raises :class:`CheckpointError` (``InvalidStateException``)
    without writing anything. Calls from several threads are serialised.
    """

    def __init__(self, conversation: _Conversation, timeout: float | None) -> None:
        self._conversation = conversation
        self._timeout = timeout
        self._lock = threading.Lock()
        self._open = True

    def checkpoint(self, sequence_number: str | int | None = None, sub_sequence_number: int | None = None) -> None:
        """Checkpoint at ``sequence_number`` (``None``: after the last record delivered), wait for the reply.

        An integer sequence number is sent as its decimal string, which is what the Java daemon makes of a JSON
        number there. Raises :class:`CheckpointError` with the daemon's error name when it refuses (a reply other
        than a checkpoint reply counts as ``InvalidStateException``, and that message is then handled by
        :func:`run_child` as usual), ``TimeoutError`` when no reply comes within the timeout (writing the request
        included), ``EOFError`` when the daemon closes the stream first, the codec's ``EncodeError`` for values
        the daemon cannot take, and its ``DecodeError`` for a line from the daemon that does not decode: the
        conversation cannot go on after one (the line may have been the reply), so every later call raises it again
        without writing, and :func:`run_child` stops once the processor method returns.

        Returning means the daemon accepted *this* request: its reply echoes the position asked for, and the late
        reply to a checkpoint that timed out is recognised (the daemon answers requests in order), reported on
        stderr and dropped, never taken for the answer to a later one.
        """
        if isinstance(sequence_number, int) and not isinstance(sequence_number, bool):
            sequence_number = str(sequence_number)
        # A bool (an int to the type checker) goes on as it is, for the encoder to refuse with an EncodeError.
        request = Checkpoint(sequence_number=sequence_number, sub_sequence_number=sub_sequence_number)  # type: ignore[arg-type]
        conversation = self._conversation
        with self._lock:
            if not self._open:
                raise CheckpointError(INVALID_STATE_EXCEPTION)
            if conversation.inbox.failure is not None:  # a line was lost: no reply can be matched to a request now
                raise conversation.inbox.failure
            if len(conversation.owed) >= MAX_OWED:
                raise TimeoutError(f"the daemon has not answered the last {MAX_OWED} checkpoints; not sending another")
            deadline = None if self._timeout is None else time.monotonic() + self._timeout
            conversation.outbox.send(request, math.inf if deadline is None else deadline)
            while True:
                try:
                    reply = conversation.inbox.next(None if deadline is None else max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    conversation.owed.append(request)
                    raise TimeoutError(f"no checkpoint reply from the daemon within {self._timeout:g} s") from None
                if reply is None:
                    raise EOFError("the daemon closed the stream before it replied to a checkpoint")
                if not isinstance(reply, CheckpointReply):
                    conversation.inbox.put_back(reply)
                    raise CheckpointError(INVALID_STATE_EXCEPTION)
                if conversation.late(reply):
                    continue
                if _answers(reply, request):
                    break
                _report(
                    conversation.stderr,
                    f"kcl child: dropped a checkpoint reply for {_position(reply)} while the checkpoint at "
                    f"{_position(request)} waited for its own",
                )
            if reply.error is not None:
                raise CheckpointError(reply.error)

    def _close(self) -> None:
        with self._lock:
            self._open = False


class RecordProcessor:
    """A base for record processors: :func:`run_child` calls these methods, one per message from the daemon.

    Any object with these methods will do; this class gives each a default. Override ``process_records``.
    """

    def initialize(self, message: Initialize) -> None:
        """The shard this process reads (``message.shard_id``) and its checkpoint; no checkpointing here."""

    def process_records(self, message: ProcessRecords, checkpointer: Checkpointer) -> None:
        """A batch of records (``message.records``, each ``data`` already decoded to bytes)."""

    def lease_lost(self, message: LeaseLost) -> None:
        """Another worker owns the shard now; checkpointing is no longer possible. The process ends next."""

    def shard_ended(self, message: ShardEnded, checkpointer: Checkpointer) -> None:
        """The shard is fully read. KCL needs a checkpoint here, so the default takes it."""
        checkpointer.checkpoint()

    def shutdown_requested(self, message: ShutdownRequested, checkpointer: Checkpointer) -> None:
        """The worker is shutting down; a last chance to checkpoint."""

    def shutdown(self, message: Shutdown, checkpointer: Checkpointer) -> None:
        """KCL 1.x/2.0.x: the shard ended (checkpoint, which the default does) or the lease was lost (do not)."""
        if message.reason in (ShutdownReason.TERMINATE, ShutdownReason.SHARD_END):
            checkpointer.checkpoint()


_HANDLERS: dict[type[Any], tuple[str, bool]] = {
    # message class -> (processor method, whether it gets a checkpointer)
    Initialize: ("initialize", False),
    ProcessRecords: ("process_records", True),
    LeaseLost: ("lease_lost", False),
    ShardEnded: ("shard_ended", True),
    ShutdownRequested: ("shutdown_requested", True),
    Shutdown: ("shutdown", True),
}


def _report(stderr: TextIO, text: str) -> None:
    stderr.write(text if text.endswith("\n") else text + "\n")
    stderr.flush()


def run_child(
    processor: Any,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    stderr: TextIO | None = None,
    *,
    checkpoint_timeout: float | None = CHECKPOINT_TIMEOUT,
    idle_timeout: float | None = None,
    write_timeout: float | None = WRITE_TIMEOUT,
    max_message: int = MAX_MESSAGE,
) -> None:
    """Serve the daemon until it closes ``stdin``: call ``processor`` for each message, answer each with a status.

    ``stdin``/``stdout`` are binary streams (default: the process's); ``stderr`` is a text stream for reports
    (default ``sys.stderr``). A processor method that raises is reported on ``stderr`` with its traceback, and its
    status is sent all the same, as the daemon expects. A line from the daemon that does not decode is reported
    and raised as the codec's ``DecodeError`` without a status, so the process ends and KCL restarts the shard
    from its last checkpoint instead of counting unseen records as processed. The late reply to a checkpoint that
    timed out is recognised, reported and dropped (see :meth:`Checkpointer.checkpoint`); any other checkpoint reply
    that arrives when no checkpoint is waiting is reported and dropped too. Returns at the end of ``stdin``.

    ``checkpoint_timeout`` bounds each checkpoint, request and reply (``TimeoutError`` in the processor).
    ``idle_timeout`` bounds each wait for the daemon's next message (``TimeoutError`` out of ``run_child``); it is
    off by default because KCL sends nothing while a shard has no new records. ``write_timeout`` bounds writing a
    status: a daemon that takes nothing for that long makes ``run_child`` raise ``TimeoutError``, and a write that
    timed out or failed breaks the connection (every later write raises ``ConnectionError``), so the process ends
    rather than send a line cut in two. ``None`` lifts a bound.

    Memory: lines from the daemon are read ahead by a thread into a queue of at most 1 MiB (or one line, when
    longer; the thread then stops reading until the queue is taken), and a line is at most ``max_message`` bytes;
    a longer one is dropped as it comes and raised as a ``DecodeError``.
    """
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout.buffer if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    inbox = _Inbox(stdin, max_message)
    conversation = _Conversation(inbox, _Outbox(stdout, write_timeout), stderr)
    try:
        _serve(processor, conversation, checkpoint_timeout, idle_timeout)
    finally:
        conversation.outbox.release()


def _serve(
    processor: Any, conversation: _Conversation, checkpoint_timeout: float | None, idle_timeout: float | None
) -> None:
    inbox, stderr = conversation.inbox, conversation.stderr
    while True:
        try:
            message = inbox.next(idle_timeout)
        except TimeoutError:
            raise TimeoutError(f"no message from the daemon within {idle_timeout:g} s") from None
        except DecodeError as exc:
            _report(stderr, f"kcl child: cannot read the daemon's message, stopping: {exc}")
            raise
        if message is None:
            return
        handler = _HANDLERS.get(type(message))
        if handler is None:
            if not (isinstance(message, CheckpointReply) and conversation.late(message)):
                what = f"a {action_of(message)!r} message nobody was waiting for: {message!r}"
                _report(stderr, f"kcl child: dropped {what}")
            continue
        method_name, with_checkpointer = handler
        checkpointer = Checkpointer(conversation, checkpoint_timeout) if with_checkpointer else None
        try:
            method = getattr(processor, method_name)
            if checkpointer is None:
                method(message)
            else:
                method(message, checkpointer)
        except Exception:
            _report(
                stderr,
                f"kcl child: {type(processor).__name__}.{method_name} raised; answering the daemon anyway\n"
                + traceback.format_exc(),
            )
        finally:
            if checkpointer is not None:
                checkpointer._close()
        if inbox.failure is not None:
            _report(stderr, f"kcl child: cannot read the daemon's message, stopping: {inbox.failure}")
            raise inbox.failure
        conversation.outbox.send(Status(response_for=action_of(message)))
