"""Bounded plumbing for the stdio runtimes (the KCL child and daemon driver, the Storm shell driver).

Three pieces, each with a bound it keeps whatever the other side does:

- :class:`LineQueue`: the lines of a binary stream, read by a daemon thread so that every wait for one can have a
  timeout. The thread stops reading while ``budget`` bytes wait unread, each line counted 48 bytes more (what it
  costs beyond its bytes); the writer then blocks on the full pipe (back-pressure, as a peer that reads only when it
  waits would give), so at most ``budget`` bytes, or one line if longer, plus the line being read (at most
  ``limit`` bytes) are held.
- :class:`Writer`: whole messages written to a binary stream, each ``write`` waiting at most until its deadline,
  from any thread, in the order of the calls; the reading side never waits for a writer (``post`` queues a message
  without waiting). A write that misses its deadline or fails breaks the writer: the stream is no longer at a
  message boundary, so every later call raises :class:`Broken`, and nothing more is written, not even the rest of
  a message begun.
- :class:`Tail`: the last ``limit`` bytes of a stream (a peer's stderr).
"""

from __future__ import annotations

import math
import os
import select
import stat
import threading
import time
from collections import deque
from typing import IO

__all__ = ["QUEUE_BYTES", "TAIL_BYTES", "Broken", "LineQueue", "Tail", "Writer", "drain_into"]

QUEUE_BYTES = 1 << 20
"""Default bytes a :class:`LineQueue` lets wait unread before its thread stops reading."""
TAIL_BYTES = 1 << 20
"""Default bytes of a peer's stderr a runtime keeps (the last ones)."""

_CHUNK = 1 << 16
_LINE_COST = 48
"""What a queued line costs beyond its bytes (the bytes object's header, its slot in the queue), counted against a
:class:`LineQueue`'s budget: counted by their bytes alone, 2-byte lines held about 28 times the budget."""


class Broken(ConnectionError):
    """An earlier write missed its deadline or failed: the stream may end inside a message, so nothing more is
    written. ``cause`` is that first failure."""

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


class LineQueue:
    """The lines of a binary stream (newline included; the last may lack it; a line longer than ``limit`` comes in
    pieces of ``limit`` bytes), read by a daemon thread.

    :meth:`get` returns the next line, ``None`` once the stream ended, or raises the error that ended the reading
    (a closed or broken stream, a text stream). See the module's docstring for the memory bound.
    """

    def __init__(self, stream: IO[bytes], limit: int, name: str, budget: int = QUEUE_BYTES) -> None:
        self._stream = stream
        self._limit = limit
        self._budget = budget
        self._items: deque[bytes | BaseException | None] = deque()
        self._queued = 0
        self._ready = threading.Condition(threading.Lock())
        self._ended = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def queued(self) -> int:
        """What the lines read and not yet taken count against the budget: their bytes, and 48 more for each."""
        with self._ready:
            return self._queued

    def _put(self, item: bytes | BaseException | None) -> None:
        with self._ready:
            if isinstance(item, bytes):
                cost = len(item) + _LINE_COST
                while self._queued and self._queued + cost > self._budget:
                    self._ready.wait()
                self._queued += cost
            self._items.append(item)
            self._ready.notify_all()

    def _run(self) -> None:
        try:
            fd = _descriptor(self._stream)
            if fd is None:
                while line := self._stream.readline(self._limit):
                    if not isinstance(line, bytes | bytearray):
                        raise TypeError(f"expected a binary stream, got {type(line).__name__} lines")
                    self._put(bytes(line))
            else:
                self._read_lines(fd)
        except (OSError, ValueError, TypeError) as exc:  # closed or broken stream: reported to the reader
            self._put(exc)
        finally:
            self._put(None)

    def _read_lines(self, fd: int) -> None:
        """Cut what the descriptor gives into lines (as ``readline(limit)`` would), holding no lock of the stream's:
        a thread blocked inside a buffered stream's read would abort the interpreter at its exit."""
        limit, pending, searched = self._limit, bytearray(), 0
        while data := os.read(fd, _CHUNK):
            pending += data
            start = 0
            while (end := pending.find(b"\n", searched) + 1) > 0:
                while end - start > limit:
                    self._put(bytes(pending[start : start + limit]))
                    start += limit
                self._put(bytes(pending[start:end]))
                start = searched = end
            while len(pending) - start >= limit:  # a line longer than the limit: its pieces as they come
                self._put(bytes(pending[start : start + limit]))
                start += limit
            del pending[:start]
            searched = len(pending)
        if pending:
            self._put(bytes(pending))

    def get(self, timeout: float | None) -> bytes | None:
        """The next line; ``None`` at the end of the stream; ``TimeoutError`` after ``timeout`` seconds, and at once
        when ``timeout`` is not positive (a caller's deadline passed), even with lines waiting: a peer that writes
        without end cannot stretch a bounded wait."""
        if self._ended:
            return None
        if timeout is not None and timeout <= 0:
            raise TimeoutError(f"no line within {timeout:g} s")
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._ready:
            while not self._items:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise TimeoutError(f"no line within {timeout:g} s")
                self._ready.wait(left)
            item = self._items.popleft()
            if isinstance(item, bytes):
                self._queued -= len(item) + _LINE_COST
                self._ready.notify_all()
        if isinstance(item, BaseException):
            self._ended = True
            raise item
        if item is None:
            self._ended = True
        return item


class _Job:
    __slots__ = ("data", "deadline", "done", "error", "close", "raw")

    def __init__(self, data: bytes, deadline: float, raw: bool, close: bool = False) -> None:
        self.data = memoryview(data)
        self.deadline = deadline
        self.done = threading.Event()
        self.error: BaseException | None = None
        self.raw = raw  # written on the non-blocking descriptor (else through the stream's own write)
        self.close = close


def _descriptor(stream: IO[bytes]) -> int | None:
    """The descriptor a stream reads, or ``None`` (an in-memory stream). Bytes the stream had already read ahead
    into its own buffer are not seen through it: the runtimes read their streams from the start."""
    try:
        return stream.fileno()
    except (OSError, ValueError, AttributeError):
        return None


def _private_descriptor(stream: IO[bytes]) -> int | None:
    """A non-blocking descriptor of its own onto the pipe ``stream`` writes to, or ``None`` (not a pipe, not Linux).

    Opening ``/proc/self/fd/N`` gives a new open file description of the same pipe, so making it non-blocking
    changes nothing for the other writers of ``stream`` (a regular file is never reopened: it would not append).
    """
    try:
        fd = stream.fileno()
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return None
        return os.open(f"/proc/self/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError, AttributeError):
        return None


class Writer:
    """Writes whole messages to ``stream`` from any thread, none waiting past its deadline.

    No thread ever blocks inside a write of this class's own: messages go out on a non-blocking descriptor, at once
    by the caller when the pipe has room, else by a daemon thread that waits for room with ``select`` until the
    deadline. With ``own=True`` the stream is a pipe this side owns (a child's stdin) and its descriptor is made
    non-blocking. Otherwise others may write to the stream too (a process's own stdout): a message of at most
    ``PIPE_BUF`` bytes, which a pipe takes whole or not at all, is written on a non-blocking descriptor of its own
    onto the same pipe (Linux), so nobody else's writes can cut into it; a longer one, or any on a stream that is not
    a pipe, goes through the stream's own ``write`` and ``flush`` on the daemon thread while the caller waits until
    its deadline (that thread may then stay blocked, the writer being broken).

    Memory: a ``write`` waits for its message, so each calling thread has at most one queued; ``post`` (used by
    reading threads, which must not wait) queues at most ``max_posted`` messages, beyond which the writer breaks.
    """

    def __init__(self, stream: IO[bytes], name: str, *, own: bool = False, max_posted: int = 10_000) -> None:
        self._stream = stream
        self._name = name
        self._fd: int | None = None
        self._private = False  # self._fd is a descriptor of this writer's own (closed with it)
        self._whole = math.inf  # largest message written on self._fd
        if own:
            try:
                self._fd = stream.fileno()
                stream.flush()
                os.set_blocking(self._fd, False)
            except (OSError, ValueError, AttributeError):
                self._fd = None
        else:
            self._fd = _private_descriptor(stream)
            self._private = self._fd is not None
            self._whole = select.PIPE_BUF
        self._max_posted = max_posted
        self._lock = threading.Condition(threading.Lock())
        self._urgent: deque[_Job] = deque()
        self._normal: deque[_Job] = deque()
        self._current: _Job | None = None  # the job the thread is writing (maybe partly written)
        self._posted = 0
        self._broken: Broken | None = None
        self._closed = False
        self._stuck = False  # the thread is inside the stream's own write: closing the stream could block
        self._thread: threading.Thread | None = None

    @property
    def broken(self) -> Broken | None:
        """The failure that broke the writer, or ``None``."""
        return self._broken

    def write(self, data: bytes, deadline: float = math.inf) -> None:
        """Write ``data`` whole by ``deadline`` (a ``time.monotonic()`` value; ``math.inf``: no limit).

        Raises ``TimeoutError`` when it cannot (the writer is then broken), :class:`Broken` after an earlier
        failure, or the ``OSError`` that failed the write (a closed pipe: ``BrokenPipeError``).
        """
        job = self._submit(data, deadline, urgent=False)
        if job is None:
            return
        # The thread ends a raw job by its deadline (its waits are bounded); the margin only guards against a bug.
        if not job.done.wait(_wait(deadline, 5.0 if job.raw else 0.0)):
            with self._lock:
                if not job.done.is_set():  # else it was written just now
                    self._break_locked(TimeoutError(f"{self._name}: could not write {len(data)} bytes in time"), job)
        if job.error is not None:
            raise job.error

    def post(self, data: bytes, deadline: float) -> None:
        """Queue ``data`` ahead of messages not yet begun and return at once; a failure breaks the writer (see
        :attr:`broken`). Raises :class:`Broken` if it is already broken."""
        self._submit(data, deadline, urgent=True)

    def close(self, deadline: float) -> None:
        """Close the stream after what is queued, by ``deadline``; on a broken writer, close it at once."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            idle = self._broken is not None or (self._current is None and not self._urgent and not self._normal)
            if not idle:
                job = _Job(b"", deadline, raw=False, close=True)
                self._normal.append(job)
                self._lock.notify_all()
        if idle:
            self._close_stream()
            return
        if not job.done.wait(_wait(deadline, 1.0)):
            with self._lock:
                if not job.done.is_set():
                    self._break_locked(TimeoutError(f"{self._name}: could not close in time"), job)
        if job.error is not None:
            self._close_stream()
            if not isinstance(job.error, Broken):
                raise job.error

    def release(self) -> None:
        """Close the descriptor of this writer's own onto the stream's pipe (not the stream): once done with it, so
        that the pipe ends when its owner closes the stream. Later messages go through the stream's own write."""
        with self._lock:
            fd = self._fd if self._private else None
            if fd is not None:
                self._fd = None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def _close_stream(self) -> None:
        """Close the stream, unless a thread is inside its write (it could hold the stream's lock for ever).

        The descriptor is let go of under the lock, under which every write on it is made: once closed, its number
        may be reused by any file the process opens next, and no write of this writer's may land there."""
        with self._lock:
            fd, self._fd = self._fd, None
        if self._private and fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
            fd = None
        if self._stuck:
            return
        try:
            if fd is not None:
                os.set_blocking(fd, True)
            self._stream.close()
        except (OSError, ValueError):
            pass

    def _submit(self, data: bytes, deadline: float, urgent: bool) -> _Job | None:
        with self._lock:
            if self._broken is not None:
                raise self._broken
            if self._closed:
                raise Broken(f"{self._name}: the stream is closed")
            raw = self._fd is not None and len(data) <= self._whole
            if raw and self._current is None and not self._urgent and not self._normal:
                assert self._fd is not None
                try:
                    written = os.write(self._fd, data)
                except BlockingIOError:
                    written = 0
                except OSError as exc:
                    self._break_locked(exc, None)
                    raise
                if written == len(data):
                    return None
                job = _Job(data[written:], deadline, raw)
                self._current = job  # begun: nothing may come before its rest
            else:
                job = _Job(data, deadline, raw)
                if urgent:
                    if self._posted >= self._max_posted:
                        error = Broken(f"{self._name}: more than {self._max_posted} messages queued unwritten")
                        self._break_locked(error, None)
                        raise error
                    self._urgent.append(job)
                    self._posted += 1
                else:
                    self._normal.append(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._lock.notify_all()
            return job

    def _break(self, error: BaseException, job: _Job | None) -> None:
        with self._lock:
            self._break_locked(error, job)

    def _break_locked(self, error: BaseException, job: _Job | None) -> None:
        if self._broken is None:
            self._broken = Broken(f"{self._name}: the stream is broken ({error})", error)
        if job is not None and not job.done.is_set():
            job.error = error
            job.done.set()
        for other in (self._current, *self._urgent, *self._normal):
            if other is not None and not other.done.is_set():
                other.error = self._broken
                other.done.set()
        self._current = None
        self._urgent.clear()
        self._normal.clear()
        self._posted = 0
        self._lock.notify_all()

    def _next_job(self) -> _Job | None:
        """The job to write next (the one begun, then posted ones, then the others); ``None`` once broken."""
        with self._lock:
            while True:
                if self._broken is not None:
                    return None
                if self._current is None:
                    if self._urgent:
                        self._current = self._urgent.popleft()
                        self._posted -= 1
                    elif self._normal:
                        self._current = self._normal.popleft()
                if self._current is not None:
                    return self._current
                if self._closed:
                    return None
                self._lock.wait()

    def _finish(self, job: _Job) -> None:
        with self._lock:
            if self._current is job:
                self._current = None
            job.done.set()

    def _earliest(self, job: _Job) -> float:
        with self._lock:
            return min([job.deadline, *(j.deadline for j in self._urgent), *(j.deadline for j in self._normal)])

    def _run(self) -> None:
        while (job := self._next_job()) is not None:
            try:
                if job.close:
                    self._close_stream()
                elif job.raw:
                    self._write_fd(job)
                else:
                    self._stuck = True
                    self._stream.write(job.data)
                    self._stream.flush()
                    self._stuck = False
            except (OSError, ValueError) as exc:  # TimeoutError included: the deadline passed in _write_fd
                self._stuck = False
                self._break(exc, job)
                continue
            self._finish(job)

    def _write_fd(self, job: _Job) -> None:
        data = job.data
        while data:
            fd = self._fd
            if fd is None:
                raise Broken(f"{self._name}: the stream is closed")
            left = self._earliest(job) - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self._name}: the reader took nothing for the time allowed")
            _, ready, _ = select.select([], [fd], [], None if left == math.inf else left)
            if not ready:
                continue
            with self._lock:  # not after a break (nothing more is written), nor on a descriptor closed meanwhile
                if self._broken is not None:
                    raise self._broken
                if self._fd != fd:
                    raise Broken(f"{self._name}: the stream is closed")
                try:
                    written = os.write(fd, data[:_CHUNK])
                except BlockingIOError:
                    continue
            data = data[written:]
            job.data = data


def _wait(deadline: float, margin: float) -> float | None:
    """Seconds to wait for ``deadline`` plus ``margin``; ``None`` (for ever) for an infinite deadline."""
    return None if deadline == math.inf else max(0.0, deadline - time.monotonic()) + margin


class Tail:
    """The last ``limit`` bytes written to it (thread-safe), and how many were dropped before them.

    Memory: at most ``2 * limit`` bytes plus the last ``append``'s (older bytes go in steps of more than ``limit``,
    so that keeping the tail costs amortised linear time)."""

    def __init__(self, limit: int = TAIL_BYTES) -> None:
        self.limit = limit
        self.dropped = 0
        self._data = bytearray()
        self._lock = threading.Lock()

    def append(self, data: bytes) -> None:
        with self._lock:
            self._data += data
            excess = len(self._data) - self.limit
            if excess > self.limit:  # trimmed in large steps: amortised linear
                del self._data[:excess]
                self.dropped += excess

    def value(self) -> bytes:
        with self._lock:
            excess = max(0, len(self._data) - self.limit)
            return bytes(self._data[excess:])


def drain_into(stream: IO[bytes], tail: Tail) -> None:
    """Read ``stream`` to its end into ``tail`` (a thread's target); a closed or broken stream just ends it."""
    fd = _descriptor(stream)
    try:
        # On the descriptor: a thread blocked inside a buffered stream's read would abort the interpreter at exit.
        read = (lambda size: os.read(fd, size)) if fd is not None else getattr(stream, "read1", None) or stream.read
        while data := read(_CHUNK):
            tail.append(data)
    except (OSError, ValueError):
        pass
