# Copied from streamcodecs_gen/py_package/kcl/daemon.py by ./generator.py; edit that file, not this copy.
"""Daemon side of the KCL MultiLang protocol: drive a record-processor child as the Java MultiLangDaemon does.

Meant for testing children (any language) without Java, Kinesis or DynamoDB::

    from streamcodecs import kcl

    refused = []

    def on_checkpoint(request, action):  # return None to accept, or the Java exception name to refuse
        if not refused:
            refused.append(request)
            return "ThrottlingException"
        return None

    with kcl.ChildDriver.launch(["python", "my_processor.py"], on_checkpoint=on_checkpoint) as child:
        child.initialize("shardId-000000000000", kcl.SENTINEL_TRIM_HORIZON, 0)
        exchange = child.process_records([kcl.Record(data=b"hi", partition_key="pk", sequence_number="1",
                                                     approximate_arrival_timestamp=0, sub_sequence_number=0)])
        child.shard_ended()
    # leaving the block closes the child's stdin, as the daemon does, and waits for the process to exit

Each lifecycle call writes one message, exactly as the Java daemon writes it, then reads the child's lines until
the ``status`` for that action: each ``checkpoint`` request in between is answered through ``on_checkpoint``
(during ``initialize`` and ``leaseLost``, which have no checkpointer, with ``InvalidStateException`` as the daemon
does), a status for another action raises :class:`ProtocolError`, and everything is bounded by ``timeout``.

The Java daemon silently skips a child line it cannot read: bad JSON, an unknown ``action``, a key it does not
know (it then waits forever for a status). With ``strict=True`` (the default) such a line raises
:class:`ProtocolError` instead; with ``strict=False`` it is skipped as in Java and listed in
:attr:`Exchange.skipped`. Empty lines are skipped either way. The codec is stricter than Jackson on types: a
number where a string is expected (``"sequenceNumber": 123``), which Jackson would coerce, counts as unreadable.
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import msgspec

from .child import _Lines, action_of
from .messages import (
    INVALID_STATE_EXCEPTION,
    MAX_MESSAGE,
    MESSAGES,
    Checkpoint,
    CheckpointReply,
    DecodeError,
    Initialize,
    LeaseLost,
    Message,
    ProcessRecords,
    Reader,
    Record,
    ShardEnded,
    Shutdown,
    ShutdownReason,
    ShutdownRequested,
    Status,
    encode,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "CheckpointCallback",
    "ChildDriver",
    "ChildExited",
    "Exchange",
    "ProtocolError",
    "accept_every_checkpoint",
]

DEFAULT_TIMEOUT = 30.0
"""Default seconds one exchange (a lifecycle message, its checkpoints and its status) may take."""

CheckpointCallback = Callable[[Checkpoint, str], "str | None"]
"""``on_checkpoint(request, action)``: ``None`` accepts the checkpoint; a string refuses it with that error name
(``"ThrottlingException"``); an exception refuses it with the exception's class name, as the Java daemon does."""

_TO_CHILD = "to_child"
_WITH_CHECKPOINTER = frozenset({ProcessRecords, ShardEnded, ShutdownRequested, Shutdown})
_KNOWN_KEYS: dict[type[Any], frozenset[str]] = {
    # keys the current Java daemon accepts in each message a child sends (any other key: the line is skipped)
    cls: cls.WIRE_KEYS
    for cls in MESSAGES.values()
    if "to_daemon" in cls.DIRECTIONS
}


def accept_every_checkpoint(request: Checkpoint, action: str) -> str | None:
    """The default ``on_checkpoint``: every checkpoint succeeds."""
    return None


class ProtocolError(Exception):
    """The child broke the protocol; ``exchange`` is the exchange it happened in, lines included."""

    def __init__(self, message: str, *, exchange: Exchange | None = None) -> None:
        super().__init__(message)
        self.exchange = exchange


class ChildExited(ProtocolError):
    """The child closed its stdout (or its stdin broke) in the middle of an exchange."""

    def __init__(
        self, message: str, *, exchange: Exchange | None = None, returncode: int | None = None, stderr: str = ""
    ) -> None:
        super().__init__(message, exchange=exchange)
        self.returncode = returncode
        self.stderr = stderr


@dataclass
class Exchange:
    """One lifecycle message and everything the child and the driver said until its status."""

    sent: Message
    """The lifecycle message written to the child."""
    status: Status | None = None
    """The child's status (``None`` if the exchange failed before one arrived)."""
    checkpoints: list[tuple[Checkpoint, CheckpointReply]] = field(default_factory=list)
    """Each checkpoint request with the reply it got, in order."""
    lines: list[tuple[str, bytes]] = field(default_factory=list)
    """Every non-empty line both ways, in order: ``("to_child" | "to_daemon", line without its line end)``."""
    skipped: list[tuple[bytes, str]] = field(default_factory=list)
    """Child lines the Java daemon would skip, with the reason (``strict=False`` only)."""

    @property
    def action(self) -> str:
        return action_of(self.sent)


class _Writer:
    """Writes to the child's stdin from a daemon thread, so that a child that stops reading cannot hang us."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._jobs: queue.Queue[tuple[bytes | None, threading.Event, list[Exception]]] = queue.Queue()
        threading.Thread(target=self._run, name="kcl-daemon-stdin", daemon=True).start()

    def _run(self) -> None:
        while True:
            data, done, errors = self._jobs.get()
            try:
                if data is None:
                    self._stream.close()
                    return
                self._stream.write(data)
                self._stream.flush()
            except (OSError, ValueError) as exc:
                errors.append(exc)
            finally:
                done.set()

    def _submit(self, data: bytes | None, timeout: float) -> None:
        done = threading.Event()
        errors: list[Exception] = []
        self._jobs.put((data, done, errors))
        if not done.wait(timeout):
            raise TimeoutError(f"the child did not take the data within {timeout:g} s")
        if errors:
            raise errors[0]

    def write(self, data: bytes, timeout: float) -> None:
        self._submit(data, timeout)

    def close(self, timeout: float) -> None:
        self._submit(None, timeout)


def _drain(stream: IO[bytes], sink: list[str]) -> None:
    try:
        for raw in iter(stream.readline, b""):
            sink.append(raw.decode("utf-8", "replace"))
    except (OSError, ValueError):
        pass


class ChildDriver:
    """Plays the MultiLangDaemon for one child: writes lifecycle messages, answers checkpoints, checks statuses.

    ``stdin``/``stdout`` are the child's, as binary streams (``launch`` and ``attach`` take them from a process).
    ``timeout`` bounds each exchange and :meth:`close`; ``on_checkpoint`` decides each checkpoint (see
    :data:`CheckpointCallback`); ``strict`` decides what happens to child lines the Java daemon would skip.
    ``transcript`` keeps every non-empty line both ways, ``exchanges`` every exchange, ``stderr`` what the child
    wrote there (the Java daemon logs it).
    """

    def __init__(
        self,
        stdin: IO[bytes],
        stdout: IO[bytes],
        *,
        process: subprocess.Popen[bytes] | None = None,
        stderr: IO[bytes] | None = None,
        on_checkpoint: CheckpointCallback | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        strict: bool = True,
        max_message: int = MAX_MESSAGE,
    ) -> None:
        self.process = process
        self.on_checkpoint: CheckpointCallback = on_checkpoint or accept_every_checkpoint
        self.timeout = timeout
        self.strict = strict
        self.transcript: list[tuple[str, bytes]] = []
        self.exchanges: list[Exchange] = []
        self._writer = _Writer(stdin)
        self._lines = _Lines(stdout, max_message + 2, "kcl-daemon-stdout")
        self._reader = Reader(direction="to_daemon", max_message=max_message)
        self._ended = False
        self._closed = False
        self._stderr: list[str] = []
        self._stderr_thread: threading.Thread | None = None
        if stderr is not None:
            self._stderr_thread = threading.Thread(
                target=_drain, args=(stderr, self._stderr), name="kcl-daemon-stderr", daemon=True
            )
            self._stderr_thread.start()

    @classmethod
    def launch(
        cls,
        args: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        **options: Any,
    ) -> ChildDriver:
        """Start ``args`` as the child, with pipes on its stdin, stdout and stderr, and drive it."""
        process = subprocess.Popen(
            list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
        )
        return cls.attach(process, **options)

    @classmethod
    def attach(cls, process: subprocess.Popen[bytes], **options: Any) -> ChildDriver:
        """Drive a process started with ``stdin=PIPE, stdout=PIPE`` (binary); its stderr is collected if piped."""
        if process.stdin is None or process.stdout is None:
            raise ValueError("the child needs stdin=subprocess.PIPE and stdout=subprocess.PIPE")
        return cls(process.stdin, process.stdout, process=process, stderr=process.stderr, **options)

    def __enter__(self) -> ChildDriver:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.close()
            return
        self.kill()
        try:
            self.close(timeout=5.0)
        except (TimeoutError, OSError, ValueError):
            pass

    @property
    def stderr(self) -> str:
        """What the child wrote to stderr so far (when the driver has its stderr)."""
        return "".join(self._stderr)

    # ------------------------------------------------------------------ lifecycle messages

    def initialize(
        self,
        shard_id: str,
        sequence_number: str | None = None,
        sub_sequence_number: int | None = None,
        *,
        timeout: float | None = None,
    ) -> Exchange:
        """``initialize``: the shard and its checkpoint (a sequence number or a ``SENTINEL_*``, usually with 0)."""
        message = Initialize(
            shard_id=shard_id, sequence_number=sequence_number, sub_sequence_number=sub_sequence_number
        )
        return self.send(message, timeout=timeout)

    def process_records(
        self, records: Iterable[Record], millis_behind_latest: int | None = 0, *, timeout: float | None = None
    ) -> Exchange:
        """``processRecords`` with these records."""
        message = ProcessRecords(records=list(records), millis_behind_latest=millis_behind_latest)
        return self.send(message, timeout=timeout)

    def lease_lost(self, *, timeout: float | None = None) -> Exchange:
        """``leaseLost``: checkpoints are refused with ``InvalidStateException``."""
        return self.send(LeaseLost(), timeout=timeout)

    def shard_ended(self, *, timeout: float | None = None) -> Exchange:
        """``shardEnded``: the child should checkpoint before its status."""
        return self.send(ShardEnded(), timeout=timeout)

    def shutdown_requested(self, *, timeout: float | None = None) -> Exchange:
        """``shutdownRequested``: the child may checkpoint before its status."""
        return self.send(ShutdownRequested(), timeout=timeout)

    def shutdown(self, reason: ShutdownReason | str, *, timeout: float | None = None) -> Exchange:
        """The KCL 1.x ``shutdown`` (``TERMINATE`` or ``ZOMBIE``); amazon-kclpy 2.x and later cannot read it."""
        return self.send(Shutdown(reason=ShutdownReason(reason)), timeout=timeout)

    def send(self, message: Message, *, timeout: float | None = None) -> Exchange:
        """Write one lifecycle message and serve the child until its status; return the whole exchange."""
        if _TO_CHILD not in type(message).DIRECTIONS or isinstance(message, CheckpointReply):
            raise TypeError(f"{type(message).__name__} is not a lifecycle message the daemon sends")
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        exchange = Exchange(message)
        self.exchanges.append(exchange)
        self._write(exchange, encode(message), deadline, limit)
        while True:
            reply = self._receive(exchange, deadline, limit)
            if isinstance(reply, Checkpoint):
                answer = self._answer(reply, exchange)
                exchange.checkpoints.append((reply, answer))
                self._write(exchange, encode(answer), deadline, limit)
                continue
            exchange.status = reply
            if reply.response_for != exchange.action:
                raise ProtocolError(
                    f"the child answered {exchange.action!r} with a status for {reply.response_for!r}",
                    exchange=exchange,
                )
            return exchange

    def replay(
        self,
        recording: Iterable[bytes | Message | Record],
        *,
        batch_size: int = 1000,
        millis_behind_latest: int | None = 0,
        timeout: float | None = None,
    ) -> list[Exchange]:
        """Send recorded traffic again: daemon lines (a file opened ``"rb"`` will do), messages, or records.

        Lines are decoded as daemon-to-child messages and each lifecycle message is sent as it was; recorded
        checkpoint replies are left out, since ``on_checkpoint`` answers the child now. Consecutive
        :class:`Record` items are sent in ``processRecords`` batches of at most ``batch_size``.
        """
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        exchanges: list[Exchange] = []
        reader = Reader(direction=_TO_CHILD)
        batch: list[Record] = []

        def flush() -> None:
            if batch:
                exchanges.append(self.process_records(batch, millis_behind_latest, timeout=timeout))
                batch.clear()

        def play(messages: list[Message]) -> None:
            for message in messages:
                if not isinstance(message, CheckpointReply):
                    exchanges.append(self.send(message, timeout=timeout))

        for item in recording:
            if isinstance(item, Record):
                batch.append(item)
                if len(batch) >= batch_size:
                    flush()
                continue
            flush()
            play(reader.feed(item) if isinstance(item, bytes | bytearray | memoryview) else [item])
        flush()
        play(reader.feed(b"\n"))  # a last recorded line without its line end
        return exchanges

    # ------------------------------------------------------------------ ending

    def close(self, timeout: float | None = None) -> int | None:
        """Close the child's stdin (as the daemon does after ``leaseLost``/``shardEnded``) and wait for it to end.

        Lines the child still writes are added to the transcript. Returns the exit code (``None`` without a
        process); if the child does not end within ``timeout`` it is killed and ``TimeoutError`` is raised.
        """
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        if self._closed:
            return self.process.returncode if self.process else None
        self._closed = True
        try:
            self._writer.close(max(0.0, deadline - time.monotonic()))
            while not self._ended:
                raw = self._lines.get(max(0.0, deadline - time.monotonic()))
                if raw is None:
                    self._ended = True
                elif raw.strip():
                    self.transcript.append(("to_daemon", raw.rstrip(b"\r\n")))
            code = self.process.wait(max(0.0, deadline - time.monotonic())) if self.process else None
        except (TimeoutError, subprocess.TimeoutExpired):
            self.kill()
            raise TimeoutError(f"the child did not end within {limit:g} s of closing its stdin; killed") from None
        except (OSError, ValueError):
            code = self.process.wait(max(0.0, deadline - time.monotonic())) if self.process else None
        if self._stderr_thread is not None:
            self._stderr_thread.join(max(0.0, deadline - time.monotonic()))
        return code

    def kill(self) -> None:
        """Kill the child process (no-op without one, or once it has ended)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            try:
                self.process.wait(5.0)
            except subprocess.TimeoutExpired:
                pass

    # ------------------------------------------------------------------ internals

    def _write(self, exchange: Exchange, line: bytes, deadline: float, limit: float) -> None:
        record = ("to_child", line.rstrip(b"\n"))
        exchange.lines.append(record)
        self.transcript.append(record)
        try:
            self._writer.write(line, max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            raise TimeoutError(
                f"the child did not read {exchange.action!r} within {limit:g} s (is it reading stdin?)"
            ) from None
        except (OSError, ValueError) as exc:
            raise self._exited(exchange, f"writing to the child failed ({exc})") from None

    def _receive(self, exchange: Exchange, deadline: float, limit: float) -> Status | Checkpoint:
        while True:
            try:
                raw = self._lines.get(max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise TimeoutError(f"the child sent no status for {exchange.action!r} within {limit:g} s") from None
            except (OSError, ValueError) as exc:
                raise self._exited(exchange, f"reading the child's stdout failed ({exc})") from None
            if raw is None:
                if self._ended or not self._reader.buffered:
                    self._ended = True
                    raise self._exited(exchange, f"the child closed its stdout while {exchange.action!r} waited")
                self._ended = True
                raw = b"\n"  # end the last line, which had no line end
            text = raw.rstrip(b"\r\n")
            if text.strip():
                record = ("to_daemon", text)
                exchange.lines.append(record)
                self.transcript.append(record)
            try:
                messages = self._reader.feed(raw)
            except DecodeError as exc:
                self._skip(exchange, text, str(exc))
                continue
            for message in messages:
                unknown = _unknown_keys(text, message)
                if unknown:
                    self._skip(
                        exchange,
                        text,
                        f"line {self._reader.line}: key(s) {', '.join(map(repr, unknown))} unknown to the daemon",
                    )
                    continue
                assert isinstance(message, Status | Checkpoint)
                return message

    def _skip(self, exchange: Exchange, text: bytes, why: str) -> None:
        if self.strict:
            raise ProtocolError(
                f"the Java daemon would skip this child line and keep waiting: {why}", exchange=exchange
            )
        exchange.skipped.append((text, why))

    def _answer(self, request: Checkpoint, exchange: Exchange) -> CheckpointReply:
        error: str | None
        if type(exchange.sent) not in _WITH_CHECKPOINTER:
            error = INVALID_STATE_EXCEPTION
        else:
            try:
                error = self.on_checkpoint(request, exchange.action)
            except Exception as exc:  # the daemon reports any Throwable from the checkpointer by its class name
                error = type(exc).__name__
        sequence_number, sub_sequence_number = request.sequence_number, request.sub_sequence_number
        # Never UNSET in a decoded Checkpoint: its __post_init__ turns an absent key into None.
        assert sequence_number is not msgspec.UNSET and sub_sequence_number is not msgspec.UNSET
        return CheckpointReply(sequence_number=sequence_number, sub_sequence_number=sub_sequence_number, error=error)

    def _exited(self, exchange: Exchange, what: str) -> ChildExited:
        code = None
        if self.process is not None:
            try:
                code = self.process.wait(2.0)
            except subprocess.TimeoutExpired:
                code = None
        if self._stderr_thread is not None:
            self._stderr_thread.join(1.0)
        detail = f" (exit code {code})" if code is not None else ""
        return ChildExited(what + detail, exchange=exchange, returncode=code, stderr=self.stderr)


def _unknown_keys(text: bytes, message: Message) -> list[str]:
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return []
    known = _KNOWN_KEYS.get(type(message), frozenset())
    return sorted(key for key in value if key not in known) if isinstance(value, dict) else []
