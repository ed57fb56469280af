# Copied from streamcodecs_gen/py_package/pravega/appends.py by ./generator.py; edit that file, not this copy.
"""Appends as a Pravega segment store sees them, and append streams as the Java client writes them.

:func:`reassemble_appends` / :class:`AppendDecoder` rebuild appends from the commands of a connection the way the
server's ``AppendDecoder`` does (``shared/protocol/.../netty/AppendDecoder.java``): an ``AppendBlock`` holds whole
Event frames, then possibly one ``PartialEvent`` (the head of an event the block could not hold) or ``Padding`` (a
block closed early); the ``AppendBlockEnd`` that must follow says how many block bytes are whole events and carries
the tail of the split event.  An ``AppendBlockEnd`` with no block before it carries a whole append on its own (the
Rust client's form); ``ConditionalAppend`` and ``ConditionalBlockEnd`` are single conditional appends.

:class:`AppendEncoder` writes the byte stream the Java client's ``CommandEncoder`` writes for the same appends:
blocks of ``block_size`` bytes (as its ``AppendBatchSizeTracker`` chooses), events split across the block end as
``PartialEvent`` + ``AppendBlockEnd.data``, ``Padding`` when a block is closed early, and appends of other writers
queued until the block is done.

Errors: a sequence the server rejects raises :class:`AppendSequenceError`, a subclass of the module's
:class:`~.messages.DecodeError`, with the server's own exception message (typos included, so logs compare); the
server closes the connection after one, so a caller should stop too.  Appends the Java client refuses to write
raise :class:`~.messages.EncodeError` with the client's message.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from .messages import (
    _HEADER,
    MESSAGES,
    AppendBlock,
    AppendBlockEnd,
    ConditionalAppend,
    ConditionalBlockEnd,
    DecodeError,
    EncodeError,
    Hello,
    Message,
    Padding,
    PartialEvent,
    SetupAppend,
    decode,
    encode,
)

__all__ = [
    "Append",
    "AppendDecoder",
    "AppendEncoder",
    "AppendSequenceError",
    "command_type_name",
    "frame_event",
    "reassemble_appends",
]

_EVENT_CODE = 0
_TYPE_NAMES_DIFFERENT = {"StorageFlushed": "FLUSHED_TO_STORAGE"}  # the one class not named after its type
_BY_CODE: dict[int, type] = {cls.CODE: cls for cls in MESSAGES.values()}
_NO_PREVIOUS_EVENT = -1  # CommandEncoder.Session.lastEventNumber before the first append


def command_type_name(message: Message | type) -> str:
    """The Java ``WireCommandType`` name of a message (``APPEND_BLOCK`` for AppendBlock), as Java's errors print it."""
    name = message.__name__ if isinstance(message, type) else type(message).__name__
    return _TYPE_NAMES_DIFFERENT.get(name) or re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def frame_event(payload: bytes | memoryview) -> bytes:
    """An event as it travels in append data and is stored in the segment: type 0, payload length, payload."""
    return _HEADER.pack(_EVENT_CODE, len(payload)) + payload


@dataclass(slots=True, kw_only=True)
class Append:
    """One append as the server's AppendDecoder hands it on (``io.pravega.shared.protocol.netty.Append``)."""

    segment: str
    """Segment named by the writer's SetupAppend."""
    writer_id: uuid.UUID
    event_number: int
    """Event number of the last event in ``data``."""
    event_count: int
    """Number of events the client says ``data`` holds (1 for conditional appends)."""
    data: bytes
    """Bytes appended to the segment verbatim: Event frames (type 0, length, payload) back to back."""
    expected_offset: int | None = None
    """Segment length the append is conditional on; None for unconditional appends."""
    request_id: int = -1
    """Request id carried by the closing command (the writer's SetupAppend request id for Java clients)."""


class AppendSequenceError(DecodeError):
    """A sequence of append commands Pravega's server rejects (``InvalidMessageException`` in AppendDecoder)."""


@dataclass(slots=True)
class _Writer:
    segment: str
    last_event_number: int = 0  # AppendDecoder.Segment starts at 0 (not at AppendSetup's value)


class AppendDecoder:
    """The server's AppendDecoder: feed it every command of a connection, in order, with :meth:`process`.

    SetupAppend is registered and returned; AppendBlock and Padding return None; AppendBlockEnd, ConditionalAppend
    and ConditionalBlockEnd return an :class:`Append`.  Every other command is returned unchanged: the server's
    decoder lets it through, even between an AppendBlock and its AppendBlockEnd.
    """

    def __init__(self) -> None:
        self._writers: dict[uuid.UUID, _Writer] = {}
        self._block: AppendBlock | None = None

    def process(self, message: Message) -> Append | Message | None:
        handled = (SetupAppend, AppendBlock, AppendBlockEnd, Padding, ConditionalAppend, ConditionalBlockEnd)
        if not isinstance(message, handled):
            return message
        try:
            return self._process(message)
        except AppendSequenceError:
            self._block = None  # the server releases the open block, then closes the connection
            raise

    def _process(self, message: Message) -> Append | Message | None:
        if self._block is not None and not isinstance(message, AppendBlockEnd):
            raise AppendSequenceError(f"Unexpected {command_type_name(message)} following a append block.")
        if isinstance(message, SetupAppend):
            self._writers[message.writer_id] = _Writer(message.segment)
            return message
        if isinstance(message, AppendBlock):
            self._block = message
            self._writer(message.writer_id)
            return None
        if isinstance(message, AppendBlockEnd):
            return self._block_end(message)
        if isinstance(message, ConditionalAppend | ConditionalBlockEnd):
            writer = self._writer(message.writer_id)
            if message.event_number < writer.last_event_number:
                raise AppendSequenceError("Last event number went backwards.")
            writer.last_event_number = message.event_number
            data = frame_event(message.event.data) if isinstance(message, ConditionalAppend) else message.data
            return Append(
                segment=writer.segment,
                writer_id=message.writer_id,
                event_number=message.event_number,
                event_count=1,
                data=bytes(data),  # its own bytes (free when data is bytes), whatever the message held
                expected_offset=message.expected_offset,
                request_id=message.request_id,
            )
        return None  # Padding outside a block: nothing to do

    def _writer(self, writer_id: uuid.UUID) -> _Writer:
        writer = self._writers.get(writer_id)
        if writer is None:
            raise AppendSequenceError("ConnectionID refrenced before SetupAppend")
        return writer

    def _block_end(self, end: AppendBlockEnd) -> Append:
        writer = self._writer(end.writer_id)
        size = end.size_of_whole_events
        if end.num_events <= 0:
            raise AppendSequenceError(f"Invalid number of events in block. numEvents : {end.num_events}")
        if end.last_event_number < writer.last_event_number:
            raise AppendSequenceError(
                "Last event number went backwards, Segment last Event number : "
                f"{writer.last_event_number} , Append block End Event number : {end.last_event_number},"
                f"for writer ID: {end.writer_id} and Segment Name: {writer.segment}"
            )
        block = self._block
        if block is None:
            data = end.data  # a standalone AppendBlockEnd: sizeOfWholeEvents is not used
        else:
            if block.writer_id != end.writer_id:
                raise AppendSequenceError(
                    "Writer ID mismatch between Append Block and Append block End, Append block Writer ID : "
                    f"{block.writer_id}, Append block End Writer ID: {end.writer_id}"
                )
            if size > len(block.data) or size < 0:
                raise AppendSequenceError(
                    f"Invalid SizeOfWholeEvents in block : {size}, Append block data bytes : {len(block.data)}"
                )
            data = block.data[:size]
            rest = block.data[size:]
            if rest:  # one command follows the whole events: the head of a split event, or padding
                command = _parse_command(rest)
                if isinstance(command, Padding):
                    if end.data:
                        raise AppendSequenceError("Unexpected data in BlockEnd")
                elif isinstance(command, PartialEvent):
                    data = b"".join((data, command.data, end.data))
                else:
                    raise AppendSequenceError(
                        f"Found {command_type_name(command)} at end of append block but was expecting a partialEvent "
                        "or padding."
                    )
            # With nothing after the whole events the server ignores AppendBlockEnd.data.
        writer.last_event_number = end.last_event_number
        self._block = None
        return Append(
            segment=writer.segment,
            writer_id=end.writer_id,
            event_number=end.last_event_number,
            event_count=end.num_events,
            data=bytes(data),  # its own bytes (free when data is bytes), whatever the messages held
            request_id=end.request_id,
        )


def _parse_command(data: bytes | memoryview) -> Message:
    """CommandDecoder.parseCommand on the block bytes after the whole events: one command; bytes after it ignored."""
    if len(data) < _HEADER.size:
        raise AppendSequenceError("Not enough bytes to read.")
    code, length = _HEADER.unpack_from(data, 0)
    if code not in _BY_CODE:
        raise AppendSequenceError(f"Unknown wire command: {code}")
    if length < 0:
        raise AppendSequenceError("Length read from wire was negitive.")
    if length > len(data) - _HEADER.size:
        raise AppendSequenceError("Header indicated more bytes than exist.")
    try:
        return decode(data[: _HEADER.size + length])
    except DecodeError as exc:  # an Event frame here, or a malformed command: the server fails the same way
        raise AppendSequenceError(f"Cannot parse the command at the end of the append block: {exc.reason}") from None


def reassemble_appends(frames: Iterable[Message | bytes]) -> list[Append]:
    """The appends the server rebuilds from a connection's commands (decoded messages or whole frames), in order.

    Commands other than the append commands are skipped.  Raises :class:`AppendSequenceError` where the server
    would reject the sequence, and the module's DecodeError for a frame that does not decode.
    """
    decoder = AppendDecoder()
    appends: list[Append] = []
    for frame in frames:
        message = decode(frame) if isinstance(frame, bytes | bytearray | memoryview) else frame
        result = decoder.process(message)
        if isinstance(result, Append):
            appends.append(result)
    return appends


@dataclass(slots=True)
class _Session:
    """CommandEncoder.Session: one writer's state on the connection."""

    writer_id: uuid.UUID
    segment: str
    request_id: int
    last_event_number: int = _NO_PREVIOUS_EVENT
    event_count: int = 0  # events since the last AppendBlockEnd
    pending: list[bytes] = field(default_factory=list)  # appends queued while another writer held the block
    pending_bytes: int = 0


class AppendEncoder:
    """The Java client's CommandEncoder: turns SetupAppend, appends and other commands into the connection's bytes.

    Every method returns the bytes to send now (possibly none: a block being filled is sent as it fills, but its
    AppendBlockEnd waits for the block to complete).  ``block_size`` plays AppendBatchSizeTracker: when it exceeds
    an append that starts a block, the block is opened that large and later appends of the same writer fill it; 0
    (the default) writes each append as its own AppendBlock + AppendBlockEnd.  A block still open must be closed
    by :meth:`flush` (the client's block timeout) or by the next command.  Queued appends of other writers are sent
    in the order their writers first queued (the Java client iterates a HashMap).

    One writer id may be set up on several segments, but the queue holds one entry per writer id (as the Java
    client's ``pendingWrites.putIfAbsent(writerId, session)`` does): an append that would be queued for one segment
    while the same writer id's append for another segment is queued raises :class:`~.messages.EncodeError` and
    changes nothing, where the Java client would never send it.  Send or :meth:`flush` the first, then append.
    (The server's AppendDecoder also keys a connection's writers by writer id alone: after a second SetupAppend
    it credits that writer's appends to the second segment.)
    """

    MAX_EVENTS = 500
    """A writer's queue is sent once it holds more events than this (Session.MAX_EVENTS)."""
    MAX_DATA_SIZE = 1024 * 1024
    """... or more bytes than this (Session.MAX_DATA_SIZE)."""

    def __init__(self, *, block_size: int = 0) -> None:
        self.block_size = block_size
        self._sessions: dict[tuple[str, uuid.UUID], _Session] = {}
        self._queued: dict[uuid.UUID, _Session] = {}  # pendingWrites, in insertion order
        self._owner: _Session | None = None  # the session whose block is open on the connection
        self._block_size = 0
        self._left = 0  # bytesLeftInBlock

    @property
    def block_open(self) -> bool:
        return self._owner is not None

    def write(self, message: Message) -> bytes:
        """Any command other than an append: closes the open block and sends queued appends first."""
        out: list[bytes] = []
        if isinstance(message, Hello):
            if self._owner is not None or self._queued:
                raise EncodeError("Hello must be the first command on a connection (appends are in progress)")
        else:
            self._break(out)
            self._flush_all(out)
        out.append(encode(message))
        if isinstance(message, SetupAppend):
            key = (message.segment, message.writer_id)
            self._sessions[key] = _Session(message.writer_id, message.segment, message.request_id)
        return b"".join(out)

    def append_event(self, writer_id: uuid.UUID, segment: str, event_number: int, payload: bytes) -> bytes:
        """Append one event (its payload; it is framed here)."""
        return self.append(writer_id, segment, event_number, frame_event(payload))

    def append(
        self, writer_id: uuid.UUID, segment: str, event_number: int, data: bytes, *, event_count: int = 1
    ) -> bytes:
        """Append ``data`` (Event frames) whose last event has ``event_number``; as CommandEncoder.encode(Append)."""
        session = self._sessions.get((segment, writer_id))
        if event_count <= 0:
            raise EncodeError(f"Invalid eventCount : {event_count} in the append for Writer id: {writer_id}")
        if session is None:
            raise EncodeError(f"Sending appends without setting up the append. Append Writer id: {writer_id}")
        if event_number <= session.last_event_number:
            raise EncodeError(
                f"Events written out of order. Received: {event_number} following: {session.last_event_number} "
                f"for Writer id: {writer_id}"
            )
        if self._queued and self._owner is not session:
            queued = self._queued.get(writer_id)
            # this append would be queued, behind the other segment's entry: never sent
            if queued is not None and queued is not session and (self._owner is not None or session.event_count):
                raise EncodeError(
                    f"Writer id: {writer_id} has appends queued for segment {queued.segment}; an append for "
                    f"{segment} queued now would never be sent (one queue entry per writer id, as in the Java "
                    "client): flush() first"
                )
        data = bytes(data)
        out: list[bytes] = []
        session.last_event_number = event_number
        session.event_count += event_count
        if self._owner is None:
            if session.event_count == event_count:  # the session was free: this append opens a block
                self._start(session, data, out)
                if self._left == 0:
                    self._complete(None, out)
            else:
                self._queue(session, data, out)
                self._send_queued(session, out)
        elif self._owner is session:
            if self._left > len(data):
                self._left -= len(data)
                out.append(data)
            else:  # the block ends inside (or right at the end of) this append: split it
                inside, tail = data[: self._left], data[self._left :]
                out.append(_HEADER.pack(PartialEvent.CODE, len(inside)) + inside)
                self._complete(tail, out)  # sizeOfWholeEvents excludes the partial event
                self._flush_all(out)
        else:
            self._queue(session, data, out)
        return b"".join(out)

    def flush(self) -> bytes:
        """The block timeout: close the open block with Padding and send every queued append."""
        out: list[bytes] = []
        self._break(out)
        self._flush_all(out)
        return b"".join(out)

    def _start(self, session: _Session, data: bytes, out: list[bytes]) -> None:
        self._owner = session
        reserved = 0
        if self.block_size > len(data):
            self._block_size = self.block_size
            reserved = _HEADER.size  # room for the PartialEvent or Padding header that will close the block
        else:
            self._block_size = len(data)
        out.append(_block_header(session.writer_id, self._block_size + reserved))
        self._left = self._block_size - len(data)
        out.append(data)

    def _complete(self, tail: bytes | None, out: list[bytes]) -> None:
        owner = self._owner
        assert owner is not None
        self._end_block(owner, self._block_size - self._left, tail or b"", out)
        self._owner = None
        self._block_size = self._left = 0

    def _break(self, out: list[bytes]) -> None:
        if self._owner is None:
            return
        out.append(_HEADER.pack(Padding.CODE, self._left) + bytes(self._left))
        self._complete(None, out)

    def _end_block(self, session: _Session, size: int, tail: bytes, out: list[bytes]) -> None:
        out.append(
            encode(
                AppendBlockEnd(
                    writer_id=session.writer_id,
                    size_of_whole_events=size,
                    data=tail,
                    num_events=session.event_count,
                    last_event_number=session.last_event_number,
                    request_id=session.request_id,
                )
            )
        )
        session.event_count = 0

    def _queue(self, session: _Session, data: bytes, out: list[bytes]) -> None:
        self._queued.setdefault(session.writer_id, session)
        if data:
            session.pending.append(data)
            session.pending_bytes += len(data)
        if session.pending_bytes > self.MAX_DATA_SIZE or session.event_count > self.MAX_EVENTS:
            self._break(out)
            self._send_queued(session, out)

    def _send_queued(self, session: _Session, out: list[bytes]) -> None:
        if session.event_count == 0:
            return
        self._queued.pop(session.writer_id, None)
        out.append(_block_header(session.writer_id, session.pending_bytes))
        out.extend(session.pending)
        session.pending.clear()
        self._end_block(session, session.pending_bytes, b"", out)
        session.pending_bytes = 0

    def _flush_all(self, out: list[bytes]) -> None:
        for session in list(self._queued.values()):
            self._send_queued(session, out)


def _block_header(writer_id: uuid.UUID, block_bytes: int) -> bytes:
    """An AppendBlock's header and writer id; its data (``block_bytes`` of them) follows as it is written."""
    return _HEADER.pack(AppendBlock.CODE, 16 + block_bytes) + writer_id.bytes
