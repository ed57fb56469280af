"""Storm side of multilang: run a shell component as a worker's ShellBolt or ShellSpout does, without a JVM.

Meant for testing components written in any language (pystorm, storm.py, :mod:`.component`)::

    from streamcodecs import storm

    with storm.ShellBolt(["python", "split.py"], component="split", task_ids=[4, 5]) as bolt:
        tuple_id = bolt.execute(["the cat"], source="spout")
        assert bolt.wait_result(tuple_id) == "ack"
        print(bolt.emits)  # the Emit messages, in order
        bolt.heartbeat()  # waits for the sync that answers it

    with storm.ShellSpout(["python", "words.py"], component="words") as spout:
        exchange = spout.next_tuple()  # the messages up to the sync that ends the answer
        spout.ack(exchange[0].id)

Starting the component writes the handshake (configuration, pid directory, topology context) and waits for the
pid; leaving the ``with`` block closes the component's stdin, as a worker does when it shuts down, and waits for
the process to exit. A daemon thread reads the component's stdout, collects what it sends (``emits``, ``acks``,
``fails``, ``logs``, ``errors``, ``metrics``) and answers each emit that wants task ids at once, as Storm does,
with ``task_ids`` (a list, or a function of the Emit). Everything the Java side would die on (an ack of an id it
does not know or of a heartbeat, an anchor on an acked tuple, a spout sending ``ack``, an unreadable message, a
metric without a name) is listed in ``problems`` and, with ``strict=True`` (the default), raised as
:class:`ShellProtocolError` by the next call that waits. Every wait is bounded by ``timeout`` seconds, writes
included.

Under faults: a reply answers only its own request. A spout answers each command with messages ending in one
``sync`` and commands are answered in order, so the n-th sync ends the n-th command's answer: a command that timed
out stays owed, its late answer is recognised when it comes (it stays in ``received``) and the next command returns
only its own. A heartbeat is answered by the first sync after every earlier heartbeat has had its own; an id's
``ack`` or ``fail`` names the id. Writes go through a thread the reading side never waits for: the task ids Storm
owes an emit are queued ahead of messages not yet begun (as Storm's writer gives them priority), so a component
that writes while Storm writes to it cannot deadlock the two. A write the component does not take within
``timeout`` raises :class:`ShellTimeout` and breaks the connection (a message may be cut in two): every later call
raises :class:`ShellBroken`. A component that exits raises :class:`ShellExited` with its exit status and the end of
its stderr. Memory is bounded: ``received`` (and ``emits``, ``logs``, ``errors``, ``metrics``, ``acks``,
``fails``, ``results``, which hold the same messages) keeps the most recent messages within ``keep_bytes`` of the
wire bytes they came in (each counted 256 bytes more); older ones are dropped, counted in ``forgotten``;
``problems`` keeps the last 1000; ``stderr`` the last 1 MiB; a message longer than ``max_message`` is dropped as
it comes (a problem).

``serializer="msgpack"`` speaks MessagePack instead of JSON and ``end`` lines, as a worker configured with a
MessagePack ``topology.multilang.serializer`` does for components run with pystorm's ``serializer="msgpack"``.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._runtime.stdio import Broken, Tail, Writer, drain_into
from .messages import (
    DEFAULT_STREAM,
    HEARTBEAT_STREAM,
    MAX_MESSAGE,
    SYSTEM_COMPONENT,
    SYSTEM_TASK_ID,
    TICK_STREAM,
    Ack,
    Activate,
    BoltTuple,
    Deactivate,
    DecodeError,
    Emit,
    Error,
    Fail,
    Handshake,
    Heartbeat,
    Log,
    Message,
    Metrics,
    Next,
    PidReply,
    Reader,
    SpoutAck,
    SpoutFail,
    Sync,
    TaskIds,
    Tick,
    TopologyContext,
    encode,
)

__all__ = [
    "KEEP_BYTES",
    "MAX_PROBLEMS",
    "ShellBolt",
    "ShellBroken",
    "ShellComponent",
    "ShellError",
    "ShellExited",
    "ShellProtocolError",
    "ShellSpout",
    "ShellTimeout",
    "topology_context",
]


KEEP_BYTES = 64 << 20
"""Default wire bytes of messages a driver keeps for inspection (``received`` and the lists drawn from it)."""
MAX_PROBLEMS = 1000
"""Problems a driver keeps (the most recent)."""
_MESSAGE_COST = 256  # what a kept message costs beyond its wire bytes, roughly


class ShellError(Exception):
    """Something went wrong with the shell component."""


class ShellTimeout(ShellError, TimeoutError):
    """The component did not answer in time."""


class ShellExited(ShellError):
    """The component exited (or closed its stdout) while something was expected of it."""

    def __init__(self, message: str, returncode: int | None, stderr: bytes) -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class ShellProtocolError(ShellError):
    """The component sent something Storm's Java side would die on."""


class ShellBroken(ShellError):
    """An earlier write timed out or failed, so the component's stdin may end inside a message: every call after
    that raises this. ``cause`` is the first failure."""

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


def topology_context(
    component: str,
    *,
    task_id: int = 3,
    tasks: Mapping[int, str] | None = None,
    streams: Sequence[str] = (DEFAULT_STREAM,),
    output_fields: Mapping[str, Sequence[str]] | None = None,
    source_fields: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
) -> TopologyContext:
    """A handshake context for ``component`` as task ``task_id`` (Storm 0.10.0+ layout, groupings left empty).

    ``tasks`` maps the other task ids to their components (an ``__acker`` task 1 by default), ``output_fields``
    each output stream to its field names, ``source_fields`` each input component to its streams' field names.
    """
    every = {1: "__acker", **(tasks or {}), task_id: component}
    return TopologyContext(
        task_to_component={str(task): name for task, name in sorted(every.items())},
        task_id=task_id,
        component_id=component,
        streams=list(streams),
        stream_to_output_fields={k: list(v) for k, v in (output_fields or {}).items()},
        source_to_stream_to_fields={
            source: {stream: list(fields) for stream, fields in by_stream.items()}
            for source, by_stream in (source_fields or {}).items()
        },
    )


def _random_id() -> str:
    """A tuple id as Storm makes one: a random Java long in decimal."""
    return str(random.randint(-(2**63), 2**63 - 1))


class ShellComponent:
    """What :class:`ShellBolt` and :class:`ShellSpout` share: the process, the handshake, what it sent."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        component: str = "component",
        task_id: int = 3,
        conf: Mapping[str, Any] | None = None,
        context: TopologyContext | None = None,
        pid_dir: str | None = None,
        task_ids: Sequence[int] | Callable[[Emit], Sequence[int]] = (2,),
        timeout: float = 10.0,
        strict: bool = True,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        max_message: int = MAX_MESSAGE,
        serializer: str = "json",
        keep_bytes: int = KEEP_BYTES,
    ) -> None:
        self.argv = list(command)
        self.serializer = serializer
        """The framing spoken with the component (``"json"`` or ``"msgpack"``)."""
        self.conf: dict[str, Any] = {"topology.name": "streamcodecs", "topology.debug": False, **(conf or {})}
        self.context = context or topology_context(component, task_id=task_id)
        self.timeout = timeout
        self.strict = strict
        self.keep_bytes = keep_bytes
        self._task_ids = task_ids
        self._env = None if env is None else dict(env)
        self._cwd = cwd
        self._own_pid_dir = pid_dir is None
        self.pid_dir = tempfile.mkdtemp(prefix="streamcodecs-storm-") if pid_dir is None else pid_dir
        self._reader = Reader(direction="to_storm", max_message=max_message, serializer=serializer)
        self._raw_reader = Reader(direction="to_component", serializer=serializer)  # what send_raw wrote
        self._process: subprocess.Popen[bytes] | None = None
        self._writer: Writer | None = None
        self._changed = threading.Condition()
        self._stderr = Tail()
        self._sizes: deque[int] = deque()  # what each message in ``received`` counts against keep_bytes
        self._kept = 0
        self._eof = False
        self._cut = False
        self.pid: int | None = None
        """The pid the component answered the handshake with."""
        self.received: list[Message] = []
        """The messages the component sent after its pid, in order (the most recent, within ``keep_bytes``)."""
        self.forgotten = 0
        """How many older messages were dropped from ``received`` (and the lists drawn from it)."""
        self.emits: list[Emit] = []
        self.logs: list[Log] = []
        self.errors: list[str] = []
        self.metrics: list[Metrics] = []
        self.syncs = 0
        """How many ``sync`` messages arrived."""
        self.problems: list[str] = []
        """What Storm's Java side would have died on, in order (the last :data:`MAX_PROBLEMS`)."""

    # -- lifecycle

    def start(self, *, raw_handshake: bytes | None = None) -> ShellComponent:
        """Start the process, write the handshake (or ``raw_handshake`` as it is) and wait for the pid."""
        self._process = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self._env,
            cwd=self._cwd,
        )
        assert self._process.stdin is not None and self._process.stderr is not None
        self._writer = Writer(self._process.stdin, "storm-shell-stdin", own=True)
        threading.Thread(target=self._read_stdout, name="storm-shell-stdout", daemon=True).start()
        threading.Thread(
            target=drain_into, args=(self._process.stderr, self._stderr), name="storm-shell-stderr", daemon=True
        ).start()
        if raw_handshake is None:
            self.send(Handshake(conf=dict(self.conf), pid_dir=self.pid_dir, context=self.context))
        else:
            self.send_raw(raw_handshake)
        self.wait_for(lambda: self.pid is not None, "the pid")
        return self

    def close(self, timeout: float | None = None) -> int:
        """Close the component's stdin (Storm went away), wait for it to exit, return its exit status.

        A component still running after ``timeout`` is killed. The pid directory made for it is removed.
        """
        process = self._require_process()
        limit = self.timeout if timeout is None else timeout
        try:
            if self._writer is not None:
                self._writer.close(time.monotonic() + limit)
        except (OSError, ValueError):
            pass
        try:
            status = process.wait(limit)
        except subprocess.TimeoutExpired:
            process.kill()
            status = process.wait()
        if self._own_pid_dir:
            shutil.rmtree(self.pid_dir, ignore_errors=True)
        return status

    def __enter__(self) -> ShellComponent:
        return self.start() if self._process is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def returncode(self) -> int | None:
        """The exit status, or None while the process runs."""
        return self._require_process().poll()

    @property
    def stderr(self) -> bytes:
        """What the component wrote to its stderr so far (the last 1 MiB)."""
        return self._stderr.value()

    @property
    def broken(self) -> BaseException | None:
        """The failure that broke the connection (a write that timed out or failed), or ``None``."""
        broken = self._writer.broken if self._writer is not None else None
        return None if broken is None else broken.cause

    @property
    def pid_file_exists(self) -> bool:
        """Whether the component created the file named after its pid in the pid directory."""
        return self.pid is not None and os.path.exists(os.path.join(self.pid_dir, str(self.pid)))

    def wait_exit(self, timeout: float | None = None) -> int:
        """Wait for the component to exit by itself; its exit status."""
        try:
            return self._require_process().wait(self.timeout if timeout is None else timeout)
        except subprocess.TimeoutExpired:
            raise ShellTimeout(f"the component did not exit within {timeout or self.timeout:g} s") from None

    # -- writing

    def send(self, message: Message) -> None:
        """Write one message to the component."""
        self._note_sent(message)
        self._write_bytes(encode(message, serializer=self.serializer))

    def send_raw(self, data: bytes) -> None:
        """Write bytes as they are (a frame as Java writes it, or a malformed one).

        Bolt tuples among them (when they decode) are registered as pending, as if sent with :meth:`send`; a frame
        may be written in several pieces, cut anywhere.
        """
        try:
            messages = self._raw_reader.feed(data)
        except DecodeError as exc:
            messages = exc.decoded
        for message in messages:
            self._note_sent(message)
        self._write_bytes(data)

    def _write_bytes(self, data: bytes) -> None:
        self._require_process()
        assert self._writer is not None
        try:
            self._writer.write(data, time.monotonic() + self.timeout)
        except TimeoutError:
            raise ShellTimeout(
                f"the component took nothing of a {len(data)}-byte message within {self.timeout:g} s"
                " (is it reading its stdin?); the connection is broken"
            ) from None
        except Broken as exc:
            raise self._broken_error(exc) from None
        except (OSError, ValueError) as exc:
            status = self._exit_status()
            raise ShellExited(f"cannot write to the component: {exc}", status, self.stderr) from None

    def _broken_error(self, exc: Broken) -> ShellBroken:
        return ShellBroken(f"the connection to the component is broken: {exc.cause}", exc.cause)

    def _note_sent(self, message: Message) -> None:
        """Bookkeeping for a message about to be written (pending tuple ids)."""

    # -- reading

    def wait_for(self, done: Callable[[], bool], what: str, timeout: float | None = None) -> None:
        """Wait until ``done()`` holds (checked whenever something arrives), at most ``timeout`` seconds."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        with self._changed:
            while True:
                self._raise_problems()
                if done():
                    return
                if self._eof:
                    status = self._exit_status()
                    stderr = self.stderr
                    where = " in the middle of a message" if self._cut else ""
                    raise ShellExited(
                        f"the component closed its stdout{where} while Storm waited for {what}"
                        f" (exit status {status}); stderr:\n{stderr.decode(errors='replace')}",
                        status,
                        stderr,
                    )
                broken = self._writer.broken if self._writer is not None else None
                if broken is not None:
                    raise self._broken_error(broken)
                left = deadline - time.monotonic()
                if left <= 0:
                    text = self.stderr.decode(errors="replace")
                    raise ShellTimeout(f"timed out after {limit:g} s waiting for {what}; stderr:\n{text}")
                self._changed.wait(left)

    def _raise_problems(self) -> None:
        if self.strict and self.problems:
            raise ShellProtocolError("; ".join(self.problems))

    def _exit_status(self) -> int | None:
        process = self._require_process()
        try:
            return process.wait(1.0)
        except subprocess.TimeoutExpired:
            return None

    def _read_stdout(self) -> None:
        process = self._require_process()
        assert process.stdout is not None
        fd = process.stdout.fileno()
        reader = self._reader
        try:
            while True:
                data = os.read(fd, 65536)
                before = reader.buffered
                try:
                    messages = reader.feed(data) if data else []
                except DecodeError as exc:
                    messages = exc.decoded
                    self._problem(f"unreadable message from the component: {exc}")
                if messages:  # the wire bytes they took, shared out evenly
                    size = (before + len(data) - reader.buffered) // len(messages)
                    for message in messages:
                        self._dispatch(message, size)
                if not data:
                    self._cut = reader.buffered > 0  # it died writing a message: said when its exit is raised
                    break
        except OSError as exc:
            self._problem(f"reading the component's stdout failed: {exc}")
        finally:
            with self._changed:
                self._eof = True
                self._changed.notify_all()

    def _problem(self, text: str) -> None:
        with self._changed:
            self._note_problem(text)
            self._changed.notify_all()

    def _note_problem(self, text: str) -> None:
        """Add a problem (with the lock held), keeping the last :data:`MAX_PROBLEMS`."""
        self.problems.append(text)
        if len(self.problems) > 2 * MAX_PROBLEMS:
            del self.problems[:-MAX_PROBLEMS]

    def _forget(self) -> None:
        """Drop the oldest messages (with the lock held) until those kept are within ``keep_bytes``."""
        drop, freed, sizes = 0, 0, self._sizes
        target = self._kept - self.keep_bytes * 3 // 4  # in large steps: amortised linear
        while freed < target and drop < len(sizes):
            freed += sizes[drop]
            drop += 1
        dropped = self.received[:drop]
        del self.received[:drop]
        for _ in range(drop):
            sizes.popleft()
        self._kept -= freed
        self.forgotten += drop
        counts: dict[type, int] = {}
        for message in dropped:
            counts[type(message)] = counts.get(type(message), 0) + 1
        for kind, entries in ((Emit, self.emits), (Log, self.logs), (Error, self.errors), (Metrics, self.metrics)):
            del entries[: counts.get(kind, 0)]
        self._forget_role(dropped)

    def _forget_role(self, dropped: list[Message]) -> None:
        """Role-specific lists drawn from the messages ``dropped`` (with the lock held)."""

    def _dispatch(self, message: Message, size: int = 0) -> None:
        reply: TaskIds | None = None
        with self._changed:
            if self.pid is None:
                if isinstance(message, PidReply):
                    self.pid = message.pid
                else:  # Storm takes whatever comes first as the pid reply
                    self._note_problem(f"the component answered the handshake with {type(message).__name__}")
            else:
                self.received.append(message)
                cost = size + _MESSAGE_COST
                self._sizes.append(cost)
                self._kept += cost
                if isinstance(message, Emit):
                    self.emits.append(message)
                    if message.need_task_ids and not message.task:
                        try:
                            ids = self._task_ids(message) if callable(self._task_ids) else self._task_ids
                            reply = TaskIds(task_ids=list(ids))
                        except Exception as exc:  # the test's function failed: report it, do not stop reading
                            self._note_problem(f"task_ids({message!r}) raised {exc!r}")
                elif isinstance(message, Log):
                    self.logs.append(message)
                elif isinstance(message, Error):
                    self.errors.append(message.msg)
                elif isinstance(message, Metrics):
                    self.metrics.append(message)
                    if not message.name:
                        self._note_problem("a metrics message without a name")
                elif isinstance(message, Sync):
                    self.syncs += 1
                elif isinstance(message, PidReply):
                    self._note_problem("a second pid reply (no command: Storm fails on it)")
                self._on_message(message, size)
                if self._kept > self.keep_bytes:
                    self._forget()
            self._changed.notify_all()
        if reply is not None:  # queued ahead of what is not begun, never waited for: this thread must keep reading
            assert self._writer is not None
            try:
                self._writer.post(encode(reply, serializer=self.serializer), time.monotonic() + self.timeout)
            except (OSError, ValueError) as exc:  # Broken included
                self._problem(f"cannot write the task ids to the component: {exc}")

    def _on_message(self, message: Message, size: int) -> None:
        """Role-specific checks and bookkeeping, called with the lock held (``size``: its wire bytes)."""

    def _require_process(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            raise ShellError("the component is not started: call start() or use a with block")
        return self._process


class ShellBolt(ShellComponent):
    """Drives a shell bolt: tuples, tick tuples and heartbeats in; emits, acks, fails and the rest out."""

    def __init__(self, command: Sequence[str], **options: Any) -> None:
        super().__init__(command, **options)
        self.pending: dict[str, Message] = {}
        """Tuples sent and not yet acked or failed, by id."""
        self.results: dict[str, str] = {}
        """``"ack"`` or ``"fail"`` for each tuple id the bolt answered."""
        self.acks: list[str] = []
        self.fails: list[str] = []
        self._heartbeats = 0  # heartbeats sent
        self._answered = 0  # heartbeats answered by a sync (each sync answers the oldest one unanswered)

    def __enter__(self) -> ShellBolt:
        super().__enter__()
        return self

    def execute(
        self,
        values: Sequence[Any],
        *,
        source: str = "spout",
        stream: str = DEFAULT_STREAM,
        task: int = 1,
        tuple_id: str | None = None,
    ) -> str:
        """Send an input tuple; its id (random, as Storm makes them, unless given)."""
        tuple_id = _random_id() if tuple_id is None else tuple_id
        self.send(BoltTuple(id=tuple_id, comp=source, stream=stream, task=task, values=list(values)))
        return tuple_id

    def tick(self, frequency: int = 1) -> str:
        """Send a tick tuple (``__system``/``__tick``, values ``[frequency]``); its id."""
        tuple_id = _random_id()
        self.send(Tick(id=tuple_id, comp=SYSTEM_COMPONENT, stream=TICK_STREAM, task=SYSTEM_TASK_ID, values=[frequency]))
        return tuple_id

    def heartbeat(self, timeout: float | None = None) -> None:
        """Send a heartbeat tuple and wait for the ``sync`` that answers it.

        A bolt answers heartbeats in order, so this one's sync is the first after every earlier heartbeat had its
        own: the late sync of a heartbeat that timed out is not taken for this one's. A sync that comes while no
        heartbeat waits (pystorm sends one after reporting an exception) answers none.
        """
        with self._changed:
            self._heartbeats += 1
            mine = self._heartbeats
        self.send(Heartbeat(id=_random_id(), comp=None, stream=HEARTBEAT_STREAM, task=SYSTEM_TASK_ID, values=[]))
        self.wait_for(lambda: self._answered >= mine, "a sync answering the heartbeat", timeout)

    def wait_result(self, tuple_id: str, timeout: float | None = None) -> str:
        """Wait until the bolt acks or fails ``tuple_id``; ``"ack"`` or ``"fail"``."""
        self.wait_for(lambda: tuple_id in self.results, f"an ack or fail of tuple {tuple_id}", timeout)
        return self.results[tuple_id]

    def _note_sent(self, message: Message) -> None:
        if isinstance(message, BoltTuple | Tick):
            with self._changed:
                self.pending[message.id] = message

    def _on_message(self, message: Message, size: int) -> None:
        if isinstance(message, Ack | Fail):
            kind = "ack" if isinstance(message, Ack) else "fail"
            if self.pending.pop(message.id, None) is None:
                self._note_problem(f"{kind} of {message.id!r}, a non-existent or already acked/failed id")
            self.results[message.id] = kind
            (self.acks if kind == "ack" else self.fails).append(message.id)
        elif isinstance(message, Emit):
            for anchor in message.anchors or []:
                if anchor not in self.pending:
                    self._note_problem(f"an emit anchored onto {anchor!r}, not a pending tuple")
        elif isinstance(message, Sync) and self._answered < self._heartbeats:
            self._answered += 1

    def _forget_role(self, dropped: list[Message]) -> None:
        acks = [m.id for m in dropped if isinstance(m, Ack)]
        fails = [m.id for m in dropped if isinstance(m, Fail)]
        del self.acks[: len(acks)]
        del self.fails[: len(fails)]
        for tuple_id in acks + fails:
            self.results.pop(tuple_id, None)


class _Answer:
    """A spout command sent and the messages of its answer; ``done`` once its sync came."""

    __slots__ = ("command", "messages", "kept", "done", "abandoned", "claimed")

    def __init__(self, command: str, messages: list[Message], kept: int, claimed: bool) -> None:
        self.command = command
        self.messages = messages
        self.kept = kept
        self.done = False
        self.claimed = claimed  # a command() call waits for it (not one written with send or send_raw)
        self.abandoned = not claimed  # nobody will take it (its caller timed out): dropped when it comes


class ShellSpout(ShellComponent):
    """Drives a shell spout: each command is answered by emits and logs, then ``sync``."""

    def __init__(self, command: Sequence[str], **options: Any) -> None:
        super().__init__(command, **options)
        self._answers: deque[_Answer] = deque()  # commands sent whose sync has not come, oldest first
        self._unasked: list[Message] = []  # read while no command was owed: Storm reads them as the next answer's
        self._unasked_kept = 0
        self.late = 0
        """How many answers came after their command had timed out (and were dropped)."""

    def __enter__(self) -> ShellSpout:
        super().__enter__()
        return self

    def next_tuple(self, timeout: float | None = None) -> list[Message]:
        """Send ``next``; the messages of the answer, up to and including its ``sync``."""
        return self.command(Next(), timeout)

    def ack(self, message_id: Any, timeout: float | None = None) -> list[Message]:
        """Tell the spout the tuple it emitted with ``message_id`` was processed."""
        return self.command(SpoutAck(id=message_id), timeout)

    def fail(self, message_id: Any, timeout: float | None = None) -> list[Message]:
        """Tell the spout the tuple it emitted with ``message_id`` failed."""
        return self.command(SpoutFail(id=message_id), timeout)

    def activate(self, timeout: float | None = None) -> list[Message]:
        return self.command(Activate(), timeout)

    def deactivate(self, timeout: float | None = None) -> list[Message]:
        return self.command(Deactivate(), timeout)

    def command(
        self, message: Next | SpoutAck | SpoutFail | Activate | Deactivate, timeout: float | None = None
    ) -> list[Message]:
        """Send a spout command and wait for the ``sync`` that ends the answer; the answer's messages.

        The spout answers commands in order, each answer ending with one sync: the answer to this command is what
        comes after the sync ending the previous command's answer, up to its own sync (messages the spout sent while
        no command was owed begin it, as Storm reads them then). When this call times out the command stays owed,
        and its answer is dropped when it comes, so a later call returns only its own.
        """
        name = type(message).__name__
        answer = self._owe(name, claimed=True)
        try:
            self._write_bytes(encode(message, serializer=self.serializer))
            self.wait_for(lambda: answer.done, f"the sync ending the answer to {name}", timeout)
        except BaseException:
            with self._changed:
                answer.abandoned = True
                answer.messages = []
            raise
        return answer.messages

    def _owe(self, name: str, claimed: bool) -> _Answer:
        """Register a command about to be written: its answer comes after those of the commands before it."""
        with self._changed:
            answer = _Answer(name, self._unasked, self._unasked_kept, claimed)
            self._unasked, self._unasked_kept = [], 0
            self._answers.append(answer)
        return answer

    def _note_sent(self, message: Message) -> None:
        if isinstance(message, Next | SpoutAck | SpoutFail | Activate | Deactivate):  # written by send or send_raw
            self._owe(type(message).__name__, claimed=False)

    def _on_message(self, message: Message, size: int) -> None:
        if not isinstance(message, Emit | Log | Error | Metrics | Sync):
            self._note_problem(f"Unknown command received: a spout sent {type(message).__name__}")
        cost = size + _MESSAGE_COST
        if self._answers:
            answer = self._answers[0]
            if isinstance(message, Sync):
                self._answers.popleft()
                answer.done = True
                if answer.abandoned and answer.claimed:
                    self.late += 1
            if answer.abandoned:
                return
            if answer.kept + cost > self.keep_bytes:
                if answer.kept <= self.keep_bytes:
                    self._note_problem(f"the answer to {answer.command} is longer than {self.keep_bytes} bytes")
                answer.kept = self.keep_bytes + 1
                if not isinstance(message, Sync):
                    return
            answer.kept += cost
            answer.messages.append(message)
        elif isinstance(message, Sync):
            self._note_problem("a sync while no command was owed one (Storm would take it for the next answer's)")
        elif self._unasked_kept + cost <= self.keep_bytes:
            self._unasked.append(message)
            self._unasked_kept += cost
