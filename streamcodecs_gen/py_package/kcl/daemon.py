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
does), a status for another action raises :class:`ProtocolError`, and everything is bounded by ``timeout``, writes
included.

Under faults the driver keeps to one rule: it never reports a status the child did not give for that exchange.
An exchange that ends without its status (a timeout, a child that stops reading, an unreadable line in strict
mode, the child exiting: :class:`ChildExited` with its exit status, also when it dies in the middle of a line)
breaks the driver, as the Java daemon halts: a late status could not be told from the next one (both carry the
same ``responseFor``), so every later call raises :class:`ChildBroken` without writing; :meth:`close` still ends
the child. Memory is bounded: the child's lines are read ahead into at most 1 MiB (the reading thread then stops,
and a child that floods stdout between exchanges blocks on its full pipe); a line longer than ``max_message`` is
dropped as it comes and kept in the transcript as its first bytes and a note; ``exchanges`` (and so
``transcript``) keep the most recent exchanges whose lines total at most ``keep_bytes``, and an exchange keeps
its lines up to that too (the rest are counted in :attr:`Exchange.dropped`); ``stderr`` keeps the child's last
1 MiB.

The Java daemon silently skips a child line it cannot read: bad JSON, an unknown ``action``, a key it does not
know (it then waits forever for a status). With ``strict=True`` (the default) such a line raises
:class:`ProtocolError` instead; with ``strict=False`` it is skipped as in Java and listed in
:attr:`Exchange.skipped`. Empty lines are skipped either way. The codec is stricter than Jackson on types: a
number where a string is expected (``"sequenceNumber": 123``), which Jackson would coerce, counts as unreadable.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import msgspec

from .._runtime.stdio import Broken, LineQueue, Tail, Writer, drain_into
from .child import action_of
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
    "KEEP_BYTES",
    "ChildBroken",
    "ChildDriver",
    "ChildExited",
    "Exchange",
    "ProtocolError",
    "accept_every_checkpoint",
]

DEFAULT_TIMEOUT = 30.0
"""Default seconds one exchange (a lifecycle message, its checkpoints and its status) may take."""
KEEP_BYTES = 64 << 20
"""Default bytes of lines a :class:`ChildDriver` keeps for inspection (``exchanges``, ``transcript``)."""
_ENTRY_COST = 64  # what a kept line costs beyond its bytes, roughly (the tuple, the list slot)
_LONG_LINE_KEPT = 256  # bytes of an over-long line kept in the transcript
_EXIT_GRACE = 0.1  # seconds a child whose stdout ended is given to be seen exiting, even past the call's deadline

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
    """The child closed its stdout (or its stdin broke) in the middle of an exchange; ``returncode`` is its exit
    status when it is known by the call's deadline (at least 0.1 s after its stdout ended, at most 2 s), ``stderr``
    the end of what it wrote there by then."""

    def __init__(
        self, message: str, *, exchange: Exchange | None = None, returncode: int | None = None, stderr: str = ""
    ) -> None:
        super().__init__(message, exchange=exchange)
        self.returncode = returncode
        self.stderr = stderr


class ChildBroken(ProtocolError):
    """An earlier exchange ended without its status, so no later line can be matched to a request: every call
    after that raises this, without writing. ``cause`` is the first failure."""

    def __init__(self, message: str, *, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


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
    dropped: int = 0
    """Lines (and skipped entries) not kept in ``lines`` (``skipped``): beyond the driver's ``keep_bytes``."""
    kept_bytes: int = field(default=0, repr=False, compare=False)
    """What the kept lines cost, as the driver counts it against ``keep_bytes``."""

    @property
    def action(self) -> str:
        return action_of(self.sent)


class ChildDriver:
    """Plays the MultiLangDaemon for one child: writes lifecycle messages, answers checkpoints, checks statuses.

    ``stdin``/``stdout`` are the child's, as binary streams (``launch`` and ``attach`` take them from a process).
    ``timeout`` bounds each exchange and :meth:`close`; ``on_checkpoint`` decides each checkpoint (see
    :data:`CheckpointCallback`); ``strict`` decides what happens to child lines the Java daemon would skip.
    ``exchanges`` keeps the exchanges, ``transcript`` every non-empty line both ways, ``stderr`` what the child
    wrote there (the Java daemon logs it), within the bounds of the module's docstring (``keep_bytes``).
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
        keep_bytes: int = KEEP_BYTES,
    ) -> None:
        self.process = process
        self.on_checkpoint: CheckpointCallback = on_checkpoint or accept_every_checkpoint
        self.timeout = timeout
        self.strict = strict
        self.keep_bytes = keep_bytes
        self.exchanges: list[Exchange] = []
        """The most recent exchanges (see ``keep_bytes``), oldest first."""
        self.forgotten = 0
        """How many older exchanges were dropped from ``exchanges`` to keep within ``keep_bytes``."""
        self._after: list[tuple[str, bytes]] = []  # lines read by close()
        self._kept = 0  # bytes of lines kept, as counted against keep_bytes
        # A child's stdin pipe is this side's own: written without blocking. A stream given by the caller is
        # written by a thread through its own write(), whatever else writes to it.
        self._writer = Writer(stdin, "kcl-daemon-stdin", own=process is not None)
        self._limit = max_message + 2
        self._lines = LineQueue(stdout, self._limit, "kcl-daemon-stdout")
        self._reader = Reader(direction="to_daemon", max_message=max_message)
        self._long = False  # inside a line longer than max_message
        self._unfinished = b""  # a last line without its line end, until the stream ends
        self._ended = False
        self._closed = False
        self._broken: BaseException | None = None
        self._stderr = Tail()
        self._stderr_thread: threading.Thread | None = None
        if stderr is not None:
            self._stderr_thread = threading.Thread(
                target=drain_into, args=(stderr, self._stderr), name="kcl-daemon-stderr", daemon=True
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
        """What the child wrote to stderr so far (when the driver has its stderr): its last 1 MiB."""
        return self._stderr.value().decode("utf-8", "replace")

    @property
    def transcript(self) -> list[tuple[str, bytes]]:
        """Every non-empty line both ways, in order, ``("to_child" | "to_daemon", line without its line end)``: the
        lines of :attr:`exchanges`, then those :meth:`close` read."""
        return [line for exchange in self.exchanges for line in exchange.lines] + self._after

    @property
    def broken(self) -> BaseException | None:
        """The failure that broke the driver (an exchange that ended without its status), or ``None``."""
        return self._broken

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
        if self._broken is not None:
            raise ChildBroken(
                f"not sending {action_of(message)!r}: an earlier exchange ended without its status ({self._broken})",
                cause=self._broken,
            )
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        exchange = Exchange(message)
        self.exchanges.append(exchange)
        try:
            return self._exchange(exchange, deadline, limit)
        except BaseException as exc:
            if exchange.status is None:  # the status may still come: nothing later can be matched
                self._broken = exc
            raise

    def _exchange(self, exchange: Exchange, deadline: float, limit: float) -> Exchange:
        self._write(exchange, encode(exchange.sent), deadline, limit)
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
            self._writer.close(deadline)
            while not self._ended:
                raw = self._lines.get(max(0.0, deadline - time.monotonic()))
                if raw is None:
                    self._ended = True
                elif raw.strip():
                    text = self._kept_text(raw)
                    if text is not None and self._kept + len(text) + _ENTRY_COST <= self.keep_bytes:
                        self._after.append(("to_daemon", text))
                        self._kept += len(text) + _ENTRY_COST
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

    def _keep(self, exchange: Exchange, entries: list[Any], entry: Any, size: int) -> None:
        """Keep ``entry`` (of ``size`` bytes) in one of the exchange's lists, within ``keep_bytes``."""
        cost = size + _ENTRY_COST
        if exchange.kept_bytes + cost > self.keep_bytes and exchange.lines:  # the line sent is always kept
            exchange.dropped += 1
            return
        entries.append(entry)
        exchange.kept_bytes += cost
        self._kept += cost
        if self._kept > self.keep_bytes:  # forget the oldest exchanges, never the current one
            drop = 0
            while self._kept > self.keep_bytes and drop < len(self.exchanges) - 1:
                self._kept -= self.exchanges[drop].kept_bytes
                drop += 1
            del self.exchanges[:drop]
            self.forgotten += drop

    def _kept_text(self, raw: bytes) -> bytes | None:
        """What the transcript keeps of a piece of a child line: the line without its end; for a line longer than
        ``max_message`` (read in pieces), its first bytes and a note, once; ``None`` for its other pieces."""
        if self._long:
            self._long = not raw.endswith(b"\n")
            return None
        if len(raw) >= self._limit and not raw.endswith(b"\n"):
            self._long = True
            note = b"... [a line longer than %d bytes: the rest is not kept]" % (self._limit - 2)
            return raw[:_LONG_LINE_KEPT] + note
        return raw.rstrip(b"\r\n")

    def _write(self, exchange: Exchange, line: bytes, deadline: float, limit: float) -> None:
        text = line.rstrip(b"\n")
        self._keep(exchange, exchange.lines, ("to_child", text), len(text))
        try:
            self._writer.write(line, deadline)
        except TimeoutError:
            raise TimeoutError(
                f"the child did not read {exchange.action!r} within {limit:g} s (is it reading stdin?)"
            ) from None
        except Broken as exc:
            raise ChildBroken(f"writing to the child failed earlier ({exc.cause})", cause=exc.cause) from None
        except (OSError, ValueError) as exc:
            raise self._exited(exchange, f"writing to the child failed ({exc})", deadline) from None

    def _receive(self, exchange: Exchange, deadline: float, limit: float) -> Status | Checkpoint:
        while True:
            try:
                raw = self._lines.get(max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise TimeoutError(f"the child sent no status for {exchange.action!r} within {limit:g} s") from None
            except (OSError, ValueError) as exc:
                raise self._exited(exchange, f"reading the child's stdout failed ({exc})", deadline) from None
            if raw is None:
                if self._ended or not self._reader.buffered:
                    self._ended = True
                    what = f"the child closed its stdout while {exchange.action!r} waited"
                    raise self._exited(exchange, what, deadline)
                self._ended = True
                try:
                    messages = self._reader.feed(b"\n")  # the last line, which had no line end
                except DecodeError:
                    what = f"the child closed its stdout in the middle of a line while {exchange.action!r} waited"
                    raise self._exited(exchange, what, deadline) from None
                text = self._unfinished
            else:
                kept = self._kept_text(raw)
                text = raw.rstrip(b"\r\n") if kept is None else kept
                self._unfinished = b"" if raw.endswith(b"\n") else text
                if kept is not None and kept.strip():
                    self._keep(exchange, exchange.lines, ("to_daemon", kept), len(kept))
                try:
                    messages = self._reader.feed(raw)
                except DecodeError as exc:
                    self._skip(exchange, text if kept is not None else text[:_LONG_LINE_KEPT], str(exc))
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
        self._keep(exchange, exchange.skipped, (text, why), len(text) + len(why))

    def _answer(self, request: Checkpoint, exchange: Exchange) -> CheckpointReply:
        error: str | None
        if type(exchange.sent) not in _WITH_CHECKPOINTER:
            error = INVALID_STATE_EXCEPTION
        else:
            try:
                error = self.on_checkpoint(request, exchange.action)
            except Exception as exc:  # the daemon reports any Throwable from the checkpointer by its class name
                error = type(exc).__name__
        return CheckpointReply(
            sequence_number=request.sequence_number, sub_sequence_number=request.sub_sequence_number, error=error
        )

    def _exited(self, exchange: Exchange, what: str, deadline: float) -> ChildExited:
        """The error for a child whose stdout ended or whose stdin broke: its exit status and stderr as far as they
        are known by the exchange's deadline (at least :data:`_EXIT_GRACE` after the stream ended, at most 2 s): a
        child that closed its stdout and lives on must not stretch the call's bound."""
        now = time.monotonic()
        until = min(max(deadline, now + _EXIT_GRACE), now + 2.0)
        code = None
        if self.process is not None:
            try:
                code = self.process.wait(max(0.0, until - time.monotonic()))
            except subprocess.TimeoutExpired:
                code = None
        if self._stderr_thread is not None:
            self._stderr_thread.join(max(0.0, until - time.monotonic()))
        detail = f" (exit code {code})" if code is not None else ""
        return ChildExited(what + detail, exchange=exchange, returncode=code, stderr=self.stderr)


def _unknown_keys(text: bytes, message: Message) -> list[str]:
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return []
    known = _KNOWN_KEYS.get(type(message), frozenset())
    return sorted(key for key in value if key not in known) if isinstance(value, dict) else []
