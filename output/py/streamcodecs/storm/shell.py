# Copied from streamcodecs_gen/py_package/storm/shell.py by ./generator.py; edit that file, not this copy.
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
:class:`ShellProtocolError` by the next call that waits. Every wait is bounded by ``timeout`` seconds.

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
from collections.abc import Callable, Mapping, Sequence
from typing import Any

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
    "ShellBolt",
    "ShellComponent",
    "ShellError",
    "ShellExited",
    "ShellProtocolError",
    "ShellSpout",
    "ShellTimeout",
    "topology_context",
]


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
    ) -> None:
        self.argv = list(command)
        self.serializer = serializer
        """The framing spoken with the component (``"json"`` or ``"msgpack"``)."""
        self.conf: dict[str, Any] = {"topology.name": "streamcodecs", "topology.debug": False, **(conf or {})}
        self.context = context or topology_context(component, task_id=task_id)
        self.timeout = timeout
        self.strict = strict
        self._task_ids = task_ids
        self._env = None if env is None else dict(env)
        self._cwd = cwd
        self._own_pid_dir = pid_dir is None
        self.pid_dir = tempfile.mkdtemp(prefix="streamcodecs-storm-") if pid_dir is None else pid_dir
        self._reader = Reader(direction="to_storm", max_message=max_message, serializer=serializer)
        self._raw_reader = Reader(direction="to_component", serializer=serializer)  # what send_raw wrote
        self._process: subprocess.Popen[bytes] | None = None
        self._changed = threading.Condition()
        self._write = threading.Lock()
        self._stderr = bytearray()
        self._eof = False
        self.pid: int | None = None
        """The pid the component answered the handshake with."""
        self.received: list[Message] = []
        """Every message the component sent after its pid, in order."""
        self.emits: list[Emit] = []
        self.logs: list[Log] = []
        self.errors: list[str] = []
        self.metrics: list[Metrics] = []
        self.syncs = 0
        """How many ``sync`` messages arrived."""
        self.problems: list[str] = []
        """What Storm's Java side would have died on, in order."""

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
        for target, name in ((self._read_stdout, "stdout"), (self._read_stderr, "stderr")):
            threading.Thread(target=target, name=f"storm-shell-{name}", daemon=True).start()
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
        try:
            if process.stdin and not process.stdin.closed:
                process.stdin.close()
        except OSError:
            pass
        try:
            status = process.wait(self.timeout if timeout is None else timeout)
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
        """What the component wrote to its stderr so far."""
        with self._changed:
            return bytes(self._stderr)

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
        process = self._require_process()
        assert process.stdin is not None
        try:
            with self._write:
                process.stdin.write(data)
                process.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise ShellExited(f"cannot write to the component: {exc}", process.poll(), self.stderr) from None

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
                    raise ShellExited(
                        f"the component closed its stdout while Storm waited for {what}"
                        f" (exit status {self._exit_status()}); stderr:\n{self._stderr.decode(errors='replace')}",
                        self._exit_status(),
                        bytes(self._stderr),
                    )
                left = deadline - time.monotonic()
                if left <= 0:
                    stderr = self._stderr.decode(errors="replace")
                    raise ShellTimeout(f"timed out after {limit:g} s waiting for {what}; stderr:\n{stderr}")
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
        try:
            while True:
                data = os.read(fd, 65536)
                try:
                    messages = self._reader.feed(data) if data else []
                except DecodeError as exc:
                    messages = exc.decoded
                    self._problem(f"unreadable message from the component: {exc}")
                for message in messages:
                    self._dispatch(message)
                if not data:
                    if self._reader.buffered:
                        self._problem("the component's stdout ended inside a message")
                    break
        except OSError as exc:
            self._problem(f"reading the component's stdout failed: {exc}")
        finally:
            with self._changed:
                self._eof = True
                self._changed.notify_all()

    def _read_stderr(self) -> None:
        process = self._require_process()
        assert process.stderr is not None
        fd = process.stderr.fileno()
        while data := os.read(fd, 65536):
            with self._changed:
                self._stderr += data

    def _problem(self, text: str) -> None:
        with self._changed:
            self.problems.append(text)
            self._changed.notify_all()

    def _dispatch(self, message: Message) -> None:
        reply: TaskIds | None = None
        with self._changed:
            if self.pid is None:
                if isinstance(message, PidReply):
                    self.pid = message.pid
                else:  # Storm takes whatever comes first as the pid reply
                    self.problems.append(f"the component answered the handshake with {type(message).__name__}")
            else:
                self.received.append(message)
                if isinstance(message, Emit):
                    self.emits.append(message)
                    if message.need_task_ids and not message.task:
                        try:
                            ids = self._task_ids(message) if callable(self._task_ids) else self._task_ids
                            reply = TaskIds(task_ids=list(ids))
                        except Exception as exc:  # the test's function failed: report it, do not stop reading
                            self.problems.append(f"task_ids({message!r}) raised {exc!r}")
                elif isinstance(message, Log):
                    self.logs.append(message)
                elif isinstance(message, Error):
                    self.errors.append(message.msg)
                elif isinstance(message, Metrics):
                    self.metrics.append(message)
                    if not message.name:
                        self.problems.append("a metrics message without a name")
                elif isinstance(message, Sync):
                    self.syncs += 1
                elif isinstance(message, PidReply):
                    self.problems.append("a second pid reply (no command: Storm fails on it)")
                self._on_message(message)
            self._changed.notify_all()
        if reply is not None:
            try:
                self._write_bytes(encode(reply, serializer=self.serializer))
            except ShellExited as exc:
                self._problem(str(exc))

    def _on_message(self, message: Message) -> None:
        """Role-specific checks, called with the lock held."""

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
        """Send a heartbeat tuple and wait for a ``sync`` after it."""
        with self._changed:
            before = self.syncs
        self.send(Heartbeat(id=_random_id(), comp=None, stream=HEARTBEAT_STREAM, task=SYSTEM_TASK_ID, values=[]))
        self.wait_for(lambda: self.syncs > before, "a sync answering the heartbeat", timeout)

    def wait_result(self, tuple_id: str, timeout: float | None = None) -> str:
        """Wait until the bolt acks or fails ``tuple_id``; ``"ack"`` or ``"fail"``."""
        self.wait_for(lambda: tuple_id in self.results, f"an ack or fail of tuple {tuple_id}", timeout)
        return self.results[tuple_id]

    def _note_sent(self, message: Message) -> None:
        if isinstance(message, BoltTuple | Tick):
            with self._changed:
                self.pending[message.id] = message

    def _on_message(self, message: Message) -> None:
        if isinstance(message, Ack | Fail):
            kind = "ack" if isinstance(message, Ack) else "fail"
            if self.pending.pop(message.id, None) is None:
                self.problems.append(f"{kind} of {message.id!r}, a non-existent or already acked/failed id")
            self.results[message.id] = kind
            (self.acks if kind == "ack" else self.fails).append(message.id)
        elif isinstance(message, Emit):
            for anchor in message.anchors or []:
                if anchor not in self.pending:
                    self.problems.append(f"an emit anchored onto {anchor!r}, not a pending tuple")


class ShellSpout(ShellComponent):
    """Drives a shell spout: each command is answered by emits and logs, then ``sync``."""

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
        """Send a spout command and wait for the ``sync`` that ends the answer; the answer's messages."""
        with self._changed:
            start, before = len(self.received), self.syncs
        self.send(message)
        self.wait_for(lambda: self.syncs > before, f"the sync ending the answer to {type(message).__name__}", timeout)
        with self._changed:
            answer = self.received[start:]
        end = next(i for i, m in enumerate(answer) if isinstance(m, Sync))
        return answer[: end + 1]

    def _on_message(self, message: Message) -> None:
        if not isinstance(message, Emit | Log | Error | Metrics | Sync):
            self.problems.append(f"Unknown command received: a spout sent {type(message).__name__}")
