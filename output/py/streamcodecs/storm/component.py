# Copied from streamcodecs_gen/py_package/storm/component.py by ./generator.py; edit that file, not this copy.
"""Component side of Storm multilang: write a bolt or a spout that a Storm worker runs as a shell component.

The API is the one users of Storm's ``storm.py`` and of pystorm know::

    from streamcodecs import storm

    class SplitBolt(storm.Bolt):
        def process(self, tup):
            for word in tup.values[0].split():
                self.emit([word])  # anchored to ``tup``; acked after ``process`` returns (auto_ack)

    if __name__ == "__main__":
        SplitBolt().run()

:meth:`Component.run` reads the handshake, creates the pid file in ``pidDir``, answers with the pid, calls
``initialize(conf, context)`` and then serves Storm until it closes the component's stdin (then ``run`` returns).

- A :class:`Bolt` gets each tuple in ``process(tup)`` and each tick tuple in ``process_tick(tup)``, then acks it
  (``auto_ack``); when either raises, the bolt reports the error, fails the tuple (``auto_fail``) and, with
  ``exit_on_exception`` (the default, as in pystorm), re-raises, ending ``run``. Heartbeats are answered with
  ``sync`` and never acked.
- A :class:`Spout` gets ``next_tuple``, ``ack(tup_id)``, ``fail(tup_id)``, ``activate`` and ``deactivate``; after
  each it sends the ``sync`` Storm waits for, also when the method raised (after reporting the error).

``emit`` writes ``need_task_ids`` explicitly: with ``need_task_ids=True`` (and no ``direct_task``, or 0) it waits for
the list of task ids Storm answers with and returns it. Storm may send tuples and task-id lists in either order,
so tuples read while waiting for ids are queued for the main loop, and id lists read while waiting for a tuple are
queued for ``emit``; an emit whose wait raised (the stream failed, a queue overflowed) leaves its list to be dropped
when it comes, never taken for a later emit's. Messages are read and written on binary streams (``sys.stdin.buffer`` and
``sys.stdout.buffer`` by default); while ``run`` serves the real stdout, ``print`` output is sent to Storm as
``log`` commands so that it cannot break the protocol.

Threads: ``emit``, ``log``, ``report_error``, ``report_metric``, ``ack``, ``fail``, ``sync`` and ``print`` may be
called from any thread. Each message is written whole, a thread's messages in the order it wrote them, none lost
or doubled; ``print`` output is cut into lines per thread (a log line never holds two threads' text), and a
thread's unfinished line is sent as it is once it passes 64 KiB, or when the thread ends (so the lines held are one
per live thread); one held when Storm has gone (writing to it failed) is dropped, without a word on stderr. An
``emit`` that waits for task ids takes the next id list, so two threads' waits are served in the order of their
emits.

Faults: a malformed message from Storm is reported to it (``error``) and raised (``DecodeError``), also an ``end``
line with nothing before it, as soon as it arrives, and again at every later read (so by ``run`` too when an
``emit`` raised it first and the bolt went on): nothing Storm sent after it is served. Storm closing the stream in
the middle of a message is a ``DecodeError``; at its end between messages ``run`` returns. Memory is bounded:
Storm's bytes are read 64 KiB at a time, a message longer than ``max_message`` is dropped as it comes (a
``DecodeError``), and at most ``max_queued`` (10,000) tuples (read while an ``emit`` waits for its task ids) or id
lists (read while the main loop waits for a tuple) wait in the queues, counting together at most
``max_queued_bytes`` (64 MiB): each its wire bytes (an even share of the read of 64 KiB or less that completed it)
and 256. Past either bound every later read raises :class:`ProtocolError`, so ``run`` does (Storm keeps at most
``topology.shellbolt.max.pending``, 100 by default, tuples in flight to a bolt). Decoded, a message takes more
memory than its wire bytes: from about as much (a long string) up to 24 times its JSON bytes and 72 times its
MessagePack bytes (empty maps, a byte each). Waits are not bounded here: Storm
bounds them, killing a component that answers no heartbeat within ``topology.subprocess.timeout.secs``.

``serializer`` chooses the framing, as pystorm's ``serializer=`` does: ``"json"`` (JSON and an ``end`` line, what
Storm's ``JsonSerializer`` speaks) or ``"msgpack"`` (MessagePack values back to back, as pystorm's
``MsgpackSerializer`` writes them); set it as a class attribute or pass ``SplitBolt(serializer="msgpack")``.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import traceback
from collections import deque
from collections.abc import Sequence
from typing import Any, BinaryIO, NamedTuple

from .._runtime import messages as _m
from .messages import (
    MAX_MESSAGE,
    SERIALIZERS,
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
    LogLevel,
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
    message_writers,
)

__all__ = [
    "Bolt",
    "Component",
    "ProtocolError",
    "Spout",
    "Tuple",
]

_LEVELS = {
    "trace": LogLevel.TRACE,
    "debug": LogLevel.DEBUG,
    "info": LogLevel.INFO,
    "warn": LogLevel.WARN,
    "warning": LogLevel.WARN,
    "error": LogLevel.ERROR,
    "critical": LogLevel.ERROR,
}


_JOIN = "".join  # TypeError for an item that is not a str


class ProtocolError(Exception):
    """Storm sent something this kind of component cannot take (a spout command to a bolt, a second handshake)."""


class Tuple(NamedTuple):
    """A tuple as a bolt sees it, with the fields of pystorm's and storm.py's ``Tuple``."""

    id: str
    """Storm's id for this delivery: what :meth:`Bolt.ack`, :meth:`Bolt.fail` and anchors refer to."""
    component: str | None
    """The component that emitted it (``__system`` for tick tuples)."""
    stream: str
    """The stream it was emitted on."""
    task: int
    """The task that emitted it (-1 for tick tuples)."""
    values: list[Any]
    """The values, as JSON gave them."""

    @classmethod
    def of(cls, message: BoltTuple | Tick | Heartbeat) -> Tuple:
        return cls(message.id, message.comp, message.stream, message.task, message.values)


MAX_QUEUED_BYTES = 64 << 20
"""What a component's two queues may hold together, in bytes as :meth:`_Channel._queue` counts them."""
QUEUED_COST = 256
"""What a queued message counts beyond its wire bytes (a small message takes that much more memory decoded)."""


class _Channel:
    """The two streams to Storm: whole messages out (one writer at a time), messages in, with the two queues."""

    def __init__(
        self,
        stdin: BinaryIO,
        stdout: BinaryIO,
        max_message: int,
        serializer: str,
        max_queued: int,
        max_queued_bytes: int = MAX_QUEUED_BYTES,
    ) -> None:
        self._read = getattr(stdin, "read1", None) or stdin.read
        self._stdout = stdout
        self._serializer = serializer
        self._packed = serializer != "json"
        self._writers = message_writers()
        self._reader = Reader(direction="to_component", max_message=max_message, serializer=serializer)
        self._incoming: deque[Message] = deque()  # decoded, not yet looked at (all from one read)
        self._share = 0  # the wire bytes each of them counts: an even share of those their read completed
        self._commands: deque[tuple[Message, int]] = deque()  # tuples and commands read while waiting for task ids
        self._task_ids: deque[tuple[list[int], int]] = deque()  # task-id lists read while waiting for a command
        self._queued = 0  # what the two queues' entries count, in bytes (:meth:`_queue`)
        self._failure: DecodeError | None = None  # sticky: Storm's stream cannot be trusted after it
        self._overflow: ProtocolError | None = None  # sticky too: a message was dropped
        self._orphans = 0  # emits that stopped waiting for their task ids: the next id lists read are theirs
        self._max_queued = max_queued
        self._max_queued_bytes = max_queued_bytes
        self.reading = threading.RLock()
        self.writing = threading.RLock()
        self.gone: BaseException | None = None
        """What writing to Storm raised (a broken pipe, a closed stream): Storm has gone, nothing reaches it."""

    def send(self, message: Message) -> None:
        try:  # the message's writer, called as encode calls it (one lookup and one call less on every message)
            data = self._writers[type(message)](message, self._packed)
        except Exception:  # anything it refuses, or cannot write: encode again, which decides in its own words
            data = encode(message, serializer=self._serializer)
        with self.writing:
            try:
                self._stdout.write(data)
                self._stdout.flush()
            except (OSError, ValueError) as exc:  # (ValueError: the stream is closed)
                self.gone = exc
                raise

    def _next(self) -> Message | None:
        """The next message in stream order; ``None`` when Storm closed the stream between messages."""
        while not self._incoming:
            if self._failure is not None:  # raised once the messages before it are taken, then at every read
                raise self._failure
            data = self._read(65536)
            if not data:
                if self._reader.buffered:
                    if self._serializer == "json":
                        raise DecodeError("the stream ended inside a message", line=self._reader.line + 1)
                    raise DecodeError(f"the stream ended inside a message ({self._reader.buffered} bytes of it)")
                return None
            before = self._reader.buffered
            try:
                self._incoming.extend(self._reader.feed(data))
            except DecodeError as exc:
                self._incoming.extend(exc.decoded)
                self._failure = exc
            if self._incoming:
                self._share = (before + len(data) - self._reader.buffered) // len(self._incoming)
        return self._incoming.popleft()

    def command(self) -> Message | None:
        """The next message that is not a task-id list (those are queued); ``None`` at the end of the stream."""
        with self.reading:
            if self._overflow is not None:
                raise self._overflow
            if self._commands:
                command, cost = self._commands.popleft()
                self._queued -= cost
                return command
            while True:
                message = self._next()
                if not isinstance(message, TaskIds):
                    return message
                if self._orphans:  # the answer to an emit that gave up waiting: nobody else's
                    self._orphans -= 1
                    continue
                self._queue(self._task_ids, message.task_ids, "task-id lists nobody asked for")

    def task_ids(self) -> list[int]:
        """The next task-id list (other messages read meanwhile are queued).

        Storm answers emits in order, so when this raises (the stream failed, a queue overflowed, an interrupt)
        the list it waited for is still to come: it is dropped when it does, never taken for a later emit's.
        """
        with self.reading:
            if self._overflow is not None:
                raise self._overflow
            if self._task_ids:
                ids, cost = self._task_ids.popleft()
                self._queued -= cost
                return ids
            try:
                while True:
                    message = self._next()
                    if message is None:
                        raise EOFError("Storm closed the stream while the component waited for task ids")
                    if isinstance(message, TaskIds):
                        if self._orphans:
                            self._orphans -= 1
                            continue
                        return message.task_ids
                    self._queue(self._commands, message, "messages while an emit waited for its task ids")
            except BaseException:
                self._orphans += 1
                raise

    def _queue(self, queue: deque[tuple[Any, int]], item: Any, what: str) -> None:
        """Queue ``item``, the message just read, counted as its wire bytes (its read's even share) and
        :data:`QUEUED_COST`; past either bound the queues overflow."""
        cost = self._share + QUEUED_COST
        if len(queue) >= self._max_queued:
            self._overflow = ProtocolError(f"more than {self._max_queued} {what}")
            raise self._overflow
        if self._queued + cost > self._max_queued_bytes:
            self._overflow = ProtocolError(f"more than {self._max_queued_bytes} bytes of {what}")
            raise self._overflow
        queue.append((item, cost))
        self._queued += cost


_LOG_PIECE = 1 << 16  # characters of an unfinished line a thread may leave before it is sent as it is


class _LogStream(io.TextIOBase):
    """Stands in for ``sys.stdout`` while a component serves the real one: each line written becomes a ``log``.

    Lines are cut per thread, so a line never mixes two threads' text, and a thread's lines go out in its order. A
    thread's unfinished line is sent as it is once it passes 64 KiB, when the thread flushes, when it ends, or when
    the component stops: the lines held are at most one per live thread, each under 64 KiB.
    """

    def __init__(self, component: Component) -> None:
        self._component = component
        self._lock = threading.Lock()
        self._pending: dict[int, str] = {}  # each thread's unfinished line
        self._watched = threading.local()  # in each thread that left a line: what sends it when the thread ends

    def _ended(self, thread: int) -> None:
        """Send the unfinished line of ``thread``, which is ending (its ident may be another thread's next)."""
        with self._lock:
            rest = self._pending.pop(thread, "")
        if rest.strip():
            self._held(rest)

    def _held(self, rest: str) -> None:
        """Send a line held for a thread that ended or for the component that stops, which nobody is there to be
        told that it could not go: when Storm has gone (writing to it failed, now or before) it is dropped, as
        nothing reaches Storm any more, not raised where nobody catches it (a thread's end: ``Exception ignored``
        and a traceback on stderr) or over the end of ``run``."""
        channel = self._component._channel
        if channel is None or channel.gone is not None:
            return
        try:
            self._component.log(rest)
        except Exception:
            if channel.gone is None:
                raise

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        thread = threading.get_ident()
        with self._lock:
            *lines, rest = (self._pending.pop(thread, "") + text).split("\n")
            if len(rest) > _LOG_PIECE:
                lines.append(rest)
            elif rest:
                self._pending[thread] = rest
                if not hasattr(self._watched, "end"):  # dropped with the thread's locals, as the thread ends
                    self._watched.end = _ThreadEnd(self, thread)
        for line in lines:  # outside the lock: the thread's next write waits for these anyway
            if line.strip():
                self._component.log(line)
        return len(text)

    def flush(self) -> None:
        """Send the calling thread's unfinished line."""
        with self._lock:
            rest = self._pending.pop(threading.get_ident(), "")
        if rest.strip():
            self._component.log(rest)

    def flush_all(self) -> None:
        """Send every thread's unfinished line (when the component stops)."""
        with self._lock:
            rests, self._pending = list(self._pending.values()), {}
        for rest in rests:
            if rest.strip():
                self._held(rest)


class _ThreadEnd:
    """Held in a thread's locals only: when the thread ends they are dropped, and so this is, which sends the line
    the thread left unfinished (in that thread, before its ident can be another's)."""

    __slots__ = ("_stream", "_thread")

    def __init__(self, stream: _LogStream, thread: int) -> None:
        self._stream = stream
        self._thread = thread

    def __del__(self) -> None:
        self._stream._ended(self._thread)


class Component:
    """What bolts and spouts share: the handshake, ``emit``, ``log``, ``report_error``, ``report_metric``.

    After the handshake, ``conf`` is the topology configuration, ``context`` the :class:`TopologyContext`,
    ``pid_dir`` the directory of the pid file, ``task_id`` and ``component_name`` where this task sits.
    """

    max_message = MAX_MESSAGE
    """Largest message accepted from Storm, in bytes."""
    serializer = "json"
    """The framing spoken with Storm: one of :data:`SERIALIZERS` (``"json"`` or ``"msgpack"``)."""
    max_queued = 10_000
    """Messages read ahead of their turn (see the module's docstring) that may wait, at most."""
    max_queued_bytes = MAX_QUEUED_BYTES
    """What those messages may count together, at most: each its wire bytes and 256 (see the module's docstring)."""

    def __init__(self, *, serializer: str | None = None) -> None:
        if serializer is not None:
            self.serializer = serializer
        if self.serializer not in SERIALIZERS:
            raise ValueError(_m.unknown_serializer(name=repr(self.serializer), serializers=SERIALIZERS))
        self.conf: dict[str, Any] = {}
        self.context = TopologyContext(task_to_component={})
        self.pid_dir = ""
        self.pid = os.getpid()
        self.task_id = -1
        self.component_name = ""
        self._channel: _Channel | None = None

    # -- what subclasses override

    def initialize(self, conf: dict[str, Any], context: TopologyContext) -> None:
        """Called once after the handshake, before the first tuple or command."""

    # -- what components call

    def emit(
        self,
        values: Sequence[Any],
        *,
        stream: str | None = None,
        anchors: Sequence[str | Tuple] | None = None,
        tup_id: Any = None,
        direct_task: int | None = None,
        need_task_ids: bool = False,
    ) -> list[int] | None:
        """Emit a tuple (the methods of :class:`Bolt` and :class:`Spout` fill in anchors and ids).

        Returns the task ids the tuple went to when ``need_task_ids`` is true (for a direct emit, ``[direct_task]``
        without asking Storm, as pystorm does), else ``None``. A ``direct_task`` of 0 is a normal emit, as Storm's
        ShellBolt and ShellSpout read it (task 0 is none): its ids are asked for, and the 0 is not written (Storm
        2.6.0+ fails on a small integer task).
        """
        return self._emit(values, stream, anchors, tup_id, direct_task, need_task_ids)

    def _emit(
        self,
        values: Sequence[Any],
        stream: str | None,
        anchors: Sequence[str | Tuple] | None,
        tup_id: Any,
        direct_task: int | None,
        need_task_ids: bool,
    ) -> list[int] | None:
        """:meth:`emit`, with its arguments by position: what :meth:`Bolt.emit` and :meth:`Spout.emit` call (an emit
        is the call a component makes most; keywords and ``super()`` cost about a tenth of it)."""
        if type(values) is not list and not isinstance(values, list | tuple):
            raise TypeError(f"tuple values must be a list or a tuple, not {type(values).__name__}")
        channel = self._channel
        if channel is None:
            channel = self._require_channel()
        if not direct_task:  # None, or 0: Storm's shell components read a task of 0 as none (a normal emit)
            direct_task = None
        wait = need_task_ids and direct_task is None
        ids: Any = anchors
        if anchors is not None:
            try:  # ids, as a list (the common case: one C pass, no copy; the message is written before this returns)
                if type(anchors) is not list:
                    raise TypeError
                _JOIN(anchors)
            except TypeError:  # a Tuple among them (or another sequence): their ids
                ids = [a.id if isinstance(a, Tuple) else a for a in anchors]
        message = Emit(
            values=values if type(values) is list else list(values),
            anchors=ids,
            id=tup_id,
            stream=stream,
            task=direct_task,
            need_task_ids=wait,
        )
        if not wait:
            channel.send(message)
            return [direct_task] if need_task_ids and direct_task is not None else None
        with channel.reading, channel.writing:  # no other emit may take this emit's ids
            channel.send(message)
            return channel.task_ids()

    def log(self, message: str, level: LogLevel | int | str = LogLevel.INFO) -> None:
        """Log a line in the worker's log; ``level`` is a :class:`LogLevel`, its number, or a name (``"warn"``)."""
        if isinstance(level, str):
            level = _LEVELS.get(level.lower(), LogLevel.INFO)
        self._require_channel().send(Log(msg=str(message), level=LogLevel(level)))

    def report_error(self, message: str) -> None:
        """Report an error to Storm (shown in the UI; nothing stops). storm.py calls it ``reportError``."""
        self._require_channel().send(Error(msg=str(message)))

    def report_metric(self, name: str, value: Any) -> None:
        """Update the metric ``name``, which the topology must have registered as an IShellMetric."""
        self._require_channel().send(Metrics(name=name, params=value))

    def sync(self) -> None:
        """Send ``sync``; :meth:`run` does it where the protocol wants it."""
        self._require_channel().send(Sync())

    # -- running

    def run(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve Storm on these binary streams until it closes ``stdin``.

        Raises :class:`DecodeError` for a malformed message (after reporting it to Storm) and
        :class:`ProtocolError` for one this component cannot take.
        """
        real_stdout = stdout is None
        self._channel = _Channel(
            sys.stdin.buffer if stdin is None else stdin,
            sys.stdout.buffer if stdout is None else stdout,
            self.max_message,
            self.serializer,
            self.max_queued,
            self.max_queued_bytes,
        )
        saved = sys.stdout
        try:
            if not self._handshake():
                return
            if real_stdout:
                sys.stdout = _LogStream(self)
            self.initialize(self.conf, self.context)
            while True:
                try:
                    message = self._channel.command()
                except DecodeError as exc:
                    self.report_error(f"{type(self).__name__} could not read a message from Storm: {exc}")
                    raise
                if message is None:
                    return
                self._serve(message)
        finally:
            if real_stdout:
                if isinstance(sys.stdout, _LogStream):
                    sys.stdout.flush_all()
                sys.stdout = saved

    def _handshake(self) -> bool:
        channel = self._require_channel()
        message = channel.command()
        if message is None:
            return False
        if not isinstance(message, Handshake):
            raise ProtocolError(f"the first message from Storm must be the handshake, not {type(message).__name__}")
        self.conf = message.conf
        self.context = message.context
        self.pid_dir = message.pid_dir
        self.task_id = message.context.task_id
        self.component_name = message.context.component_id or message.context.task_to_component.get(
            str(self.task_id), ""
        )
        with open(os.path.join(self.pid_dir, str(self.pid)), "w"):  # before the reply: Storm may look for it
            pass
        channel.send(PidReply(pid=self.pid))
        return True

    def _serve(self, message: Message) -> None:
        raise NotImplementedError

    def _require_channel(self) -> _Channel:
        if self._channel is None:
            raise RuntimeError("not connected to Storm: call run() first")
        return self._channel

    def _describe(self, exc: BaseException, what: str) -> str:
        trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        return f"Python {type(exc).__name__} raised {what}\n{trace}"


class Bolt(Component):
    """A bolt: override :meth:`process` (and :meth:`process_tick` for tick tuples)."""

    auto_ack = True
    """Ack each tuple after ``process``/``process_tick`` returns."""
    auto_fail = True
    """Fail the tuple when ``process``/``process_tick`` raises."""
    auto_anchor = True
    """Anchor emits to the tuple being processed when no ``anchors`` are given."""
    exit_on_exception = True
    """Re-raise what ``process`` raised (ending :meth:`run`, as pystorm exits); otherwise go on with the next."""

    def __init__(self, *, serializer: str | None = None) -> None:
        super().__init__(serializer=serializer)
        self.current: Tuple | None = None
        """The tuple being processed."""

    def process(self, tup: Tuple) -> None:
        """Handle one input tuple."""
        raise NotImplementedError

    def process_tick(self, tup: Tuple) -> None:
        """Handle a tick tuple (``topology.tick.tuple.freq.secs``); ``tup.values[0]`` is the frequency."""

    def emit(  # type: ignore[override]
        self,
        values: Sequence[Any],
        stream: str | None = None,
        anchors: Sequence[str | Tuple] | None = None,
        direct_task: int | None = None,
        need_task_ids: bool = False,
    ) -> list[int] | None:
        """Emit ``values``, anchored to ``anchors`` (tuples or ids; by default the tuple being processed)."""
        if anchors is None:
            anchors = [self.current] if self.auto_anchor and self.current is not None else []
        return self._emit(values, stream, anchors, None, direct_task, need_task_ids)

    def ack(self, tup: Tuple | str) -> None:
        """Tell Storm that ``tup`` (a tuple or its id) was processed."""
        self._require_channel().send(Ack(id=tup.id if isinstance(tup, Tuple) else tup))

    def fail(self, tup: Tuple | str) -> None:
        """Tell Storm that processing ``tup`` (a tuple or its id) failed."""
        self._require_channel().send(Fail(id=tup.id if isinstance(tup, Tuple) else tup))

    def _serve(self, message: Message) -> None:
        if isinstance(message, Heartbeat):
            self.sync()
            return
        if not isinstance(message, BoltTuple | Tick):
            raise ProtocolError(f"a bolt cannot take {type(message).__name__} from Storm")
        tup = Tuple.of(message)
        self.current = tup
        try:
            if isinstance(message, Tick):
                self.process_tick(tup)
            else:
                self.process(tup)
        except Exception as exc:
            self.report_error(self._describe(exc, f"while processing {tup!r}"))
            if self.auto_fail:
                self.fail(tup)
            if self.exit_on_exception:
                raise
            return
        finally:
            self.current = None
        if self.auto_ack:
            self.ack(tup)


class Spout(Component):
    """A spout: override :meth:`next_tuple`, and :meth:`ack`/:meth:`fail` for reliable emits."""

    def next_tuple(self) -> None:
        """Emit the next tuple(s), if any; do not block (Storm waits for the ``sync`` sent after this returns)."""
        raise NotImplementedError

    def ack(self, tup_id: Any) -> None:
        """The tuple emitted with ``tup_id`` was fully processed."""

    def fail(self, tup_id: Any) -> None:
        """The tuple emitted with ``tup_id`` failed or timed out."""

    def activate(self) -> None:
        """The spout was activated (Storm 1.1.0+)."""

    def deactivate(self) -> None:
        """The spout was deactivated (Storm 1.1.0+)."""

    def emit(  # type: ignore[override]
        self,
        values: Sequence[Any],
        tup_id: Any = None,
        stream: str | None = None,
        direct_task: int | None = None,
        need_task_ids: bool = False,
    ) -> list[int] | None:
        """Emit ``values``; with a ``tup_id`` Storm tracks the tuple and calls back :meth:`ack` or :meth:`fail`."""
        return self._emit(values, stream, None, tup_id, direct_task, need_task_ids)

    def _serve(self, message: Message) -> None:
        try:
            if isinstance(message, Next):
                self.next_tuple()
            elif isinstance(message, SpoutAck):
                self.ack(message.id)
            elif isinstance(message, SpoutFail):
                self.fail(message.id)
            elif isinstance(message, Activate):
                self.activate()
            elif isinstance(message, Deactivate):
                self.deactivate()
            else:
                raise ProtocolError(f"a spout cannot take {type(message).__name__} from Storm")
        except Exception as exc:
            self.report_error(self._describe(exc, f"while handling {type(message).__name__}"))
            self.sync()
            raise
        self.sync()
