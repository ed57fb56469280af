# Copied from streamcodecs_gen/py_package/storm/shell/driver.py by ./generator.py; edit that file, not this copy.
"""What :class:`~.bolt.ShellBolt` and :class:`~.spout.ShellSpout` share (:class:`ShellComponent`): the process and
its handshake, writing through a thread the reader never waits for, reading the component's stdout on a daemon
thread, waiting, and the bounded record of what it sent. The roles add their own commands and checks through the
hooks ``_note_sent``, ``_on_message`` and ``_forget_role``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..._runtime.stdio import Broken, Tail, Writer, drain_into
from ..messages import (
    MAX_MESSAGE,
    DecodeError,
    Emit,
    Error,
    Handshake,
    Log,
    Message,
    Metrics,
    PidReply,
    Reader,
    Sync,
    TaskIds,
    TopologyContext,
    encode,
)
from .context import topology_context
from .errors import ShellBroken, ShellError, ShellExited, ShellProtocolError, ShellTimeout

KEEP_BYTES = 64 << 20
"""Default wire bytes of messages a driver keeps for inspection (``received`` and the lists drawn from it)."""
MAX_PROBLEMS = 1000
"""Problems a driver keeps (the most recent)."""
_EXIT_GRACE = 0.1  # seconds a component whose stdout ended is given to be seen exiting, even past a call's deadline
MESSAGE_COST = 256
"""What a kept message costs beyond its wire bytes, roughly (counted against ``keep_bytes``)."""


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
        """The component run as ``command`` (its argv, with ``env`` and ``cwd``), not started yet. The handshake
        gives it ``conf``, ``pid_dir`` (a new temporary directory when None) and ``context`` (else one of
        ``component`` with ``task_id``); ``task_ids`` answer its emits; ``timeout`` bounds every wait; ``strict``
        raises what Storm's Java side would die on; ``max_message``, ``keep_bytes`` and ``serializer`` are the
        limits and the framing (the package's docstring says more)."""
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
        self._role_state()

    def _role_state(self) -> None:
        """Sets up the state of a role (bolt or spout) beside what both share: the last step of ``__init__``, whose
        keyword arguments the roles take as they are (so that ``help()`` shows them)."""

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
        deadline = time.monotonic() + self.timeout
        try:
            self._writer.write(data, deadline)
        except TimeoutError:
            raise ShellTimeout(
                f"the component took nothing of a {len(data)}-byte message within {self.timeout:g} s"
                " (is it reading its stdin?); the connection is broken"
            ) from None
        except Broken as exc:
            raise self._broken_error(exc) from None
        except (OSError, ValueError) as exc:
            status = self._exit_status(deadline)
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
                    status = self._exit_status(deadline)
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

    def _exit_status(self, deadline: float) -> int | None:
        """The exit status if the process ends by ``deadline`` (a call's; at least :data:`_EXIT_GRACE` from now, at
        most 1 s), else ``None``: a component that closed its stdout and lives on must not stretch the call's bound."""
        process = self._require_process()
        now = time.monotonic()
        try:
            return process.wait(min(max(deadline - now, _EXIT_GRACE), 1.0))
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
                cost = size + MESSAGE_COST
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
