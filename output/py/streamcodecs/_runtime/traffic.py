# Copied from streamcodecs_gen/py_package/_runtime/traffic.py by ./generator.py; edit that file, not this copy.
"""The input side of ``inspect``: captured traffic in, items out.

Decoders feed a protocol's ``Reader`` (by line for a text protocol, by byte range for a binary one, one Kafka record
at a time for a protocol carried in records) and turn each message or refusal into an :class:`Item` with where it
is in the input; a binary decoder resynchronises after a frame whose header is unreadable. The input forms (raw, hex
text, Kafka records as JSON lines) and auto-detection of the protocol live here too. Nothing here prints; the
command and its output forms are in ``inspect``.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import importlib
import json
from array import array
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import IO, Any

__all__ = [
    "CHUNK",
    "SAMPLE_LIMIT",
    "Decoder",
    "Detection",
    "HexText",
    "Item",
    "carries_records",
    "chunks",
    "decoder",
    "detect",
    "load",
    "looks_hex",
    "looks_like_record",
    "protocols",
]

CHUNK = 1 << 16
"""Bytes read from the input at a time."""
SAMPLE_LIMIT = 1 << 20
"""Auto-detection reads at most this much input before it decides."""
RESYNC_PROBE = 64
"""Resynchronising: bytes a candidate offset gets first (most candidates fail on them)."""
RESYNC_WINDOW = 1 << 16
"""Resynchronising: a candidate offset is accepted when a whole frame decodes within this many bytes."""
PACKAGE = __name__.rsplit(".", 2)[0]


@dataclasses.dataclass
class Item:
    """One decoded message or one bad frame, with where it is in the input."""

    message: Any = None
    error: str | None = None
    field: str | None = None
    offset: int | None = None  # bytes from the start of the (hex-decoded) input
    length: int | None = None
    line: int | None = None  # text protocols: the first line of the message
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def bad(self) -> bool:
        return self.error is not None


# --- protocols ----------------------------------------------------------------------------------------------------


def protocols() -> tuple[str, ...]:
    return tuple(importlib.import_module(PACKAGE).PROTOCOLS)


def load(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.{name}")


def carries_records(module: ModuleType) -> bool:
    """The protocol travels in Kafka records (it can decode a record, not only a byte stream)."""
    return hasattr(module, "KafkaRecord") and hasattr(module, "from_kafka")


def _error_text(exc: Exception) -> str:
    return str(getattr(exc, "reason", None) or exc)


# --- decoders: feed bytes, get items --------------------------------------------------------------------------------


class LineDecoder:
    """A text protocol's Reader, fed one line at a time so every message gets its line and byte offset."""

    def __init__(self, module: ModuleType, direction: str | None) -> None:
        self.module = module
        self.reader = module.Reader(direction=direction)
        self.partial = bytearray()
        self.offset = 0  # input bytes seen
        self.lines = 0  # whole lines seen
        self.starts = array("q")  # byte offset of every line
        self.first: int | None = None  # first non-blank line of the message being read

    def _position(self, line: int | None) -> tuple[int | None, int | None]:
        if line is None or not 1 <= line <= len(self.starts):
            return None, line
        return self.starts[line - 1], line

    def _run(self, data: bytes) -> list[Item]:
        items: list[Item] = []
        while True:
            try:
                messages = self.reader.feed(data)
            except self.module.DecodeError as exc:
                items += self._messages(exc.decoded)
                offset, line = self._position(exc.line)
                # The message it refuses ends with the line just fed; the codec's offset counts from its first line.
                length = None if offset is None else self.offset - offset
                where = {"error_offset": offset + exc.offset} if offset is not None and exc.offset is not None else {}
                items.append(
                    Item(error=_error_text(exc), field=exc.field, offset=offset, length=length, line=line, extra=where)
                )
                self.first = None
                data = b""  # drain what the reader still holds
                continue
            items += self._messages(messages)
            return items

    def _messages(self, messages: Sequence[Any]) -> list[Item]:
        items = []
        for message in messages:
            offset, line = self._position(self.first if self.first is not None else self.lines)
            length = None if offset is None else self.offset - offset
            items.append(Item(message, offset=offset, length=length, line=line))
            self.first = None
        return items

    def feed(self, data: bytes) -> list[Item]:
        items: list[Item] = []
        self.partial += data
        start = 0
        while True:
            end = self.partial.find(b"\n", start)
            if end < 0:
                break
            text = bytes(self.partial[start : end + 1])
            self.starts.append(self.offset)
            self.lines += 1
            self.offset += len(text)
            if self.first is None and text.strip():
                self.first = self.lines
            items += self._run(text)
            start = end + 1
        del self.partial[:start]
        return items

    def finish(self) -> list[Item]:
        rest = bytes(self.partial)
        self.partial.clear()
        if rest:
            self.starts.append(self.offset)
            self.offset += len(rest)
            if self.first is None and rest.strip():
                self.first = self.lines + 1
        items = self._run(rest) if rest else []
        held = len(rest) if rest.strip() else 0
        buffered = getattr(self.reader, "buffered", 0)
        if held or buffered:
            line = self.first or self.lines + 1
            offset = self.starts[line - 1] if line <= len(self.starts) else self.offset - len(rest)
            items.append(
                Item(
                    error=f"the input ends inside a message ({self.offset - offset} bytes not decoded)",
                    offset=offset,
                    length=self.offset - offset,
                    line=line,
                )
            )
        return items


class ByteDecoder:
    """A byte protocol's Reader.  Every message gets its offset and length; after a frame whose header cannot be
    read (the reader cannot go on) it looks for the next offset where whole frames decode again."""

    def __init__(self, module: ModuleType, direction: str | None, resync: bool = True) -> None:
        self.module = module
        self.direction = direction
        self.resync = resync  # False: stop at an unreadable header (auto-detection needs no more)
        self.base = 0  # input offset where the current reader started
        self.reader = self._reader()
        self.history = bytearray()  # input from offset `kept` on, not yet known to be decoded
        self.kept = 0
        self.broken: tuple[int, Any, int | None] | None = None  # the unreadable frame: offset, error, error offset
        self.cursor = 0  # resynchronising: the next candidate offset

    def _reader(self) -> Any:
        return self.module.Reader(direction=self.direction)

    @property
    def consumed(self) -> int:
        return self.base + int(self.reader.offset)

    def _bytes(self, start: int, end: int) -> bytes:
        return bytes(self.history[start - self.kept : end - self.kept])

    def _probe(self, start: int, size: int) -> tuple[int, int]:
        """A fresh reader fed ``size`` bytes from ``start``: (messages it yields before any error, bytes it consumed
        without error)."""
        probe = self._reader()
        try:
            return len(probe.feed(self._bytes(start, start + size))), int(probe.offset)
        except self.module.DecodeError as exc:
            return len(exc.decoded), -1

    def _frame_end(self, start: int, stop: int, message: Any) -> int:
        """Where the frame of ``message`` that starts at ``start`` ends: the message re-encoded gives the likely
        size, checked by decoding exactly that; otherwise the smallest prefix a fresh reader decodes a message from
        (older or newer layouts)."""
        try:
            guess = len(self.module.encode(message))
        except Exception:  # a decoded value the encoder refuses: search without a guess
            guess = 0
        if 0 < guess <= stop - start and self._probe(start, guess) == (1, guess):
            return start + guess
        low, high = 0, 1
        while self._probe(start, high)[0] == 0:  # the smallest size with a message is in (low, high]
            if start + high >= stop:
                raise AssertionError("a decoded message was not found again")  # the reader changed under us
            low, high = high, min(2 * high, stop - start)
        while high - low > 1:
            middle = (low + high) // 2
            if self._probe(start, middle)[0]:
                high = middle
            else:
                low = middle
        return start + high

    def _place(self, messages: Sequence[Any], start: int, stop: int, exact: bool) -> tuple[list[Item], int]:
        """Items for ``messages``, whose frames follow one another from ``start``; ``exact``: the last one ends at
        ``stop``."""
        items = []
        for i, message in enumerate(messages):
            end = stop if exact and i == len(messages) - 1 else self._frame_end(start, stop, message)
            items.append(Item(message, offset=start, length=end - start))
            start = end
        return items, start

    def _trim(self, upto: int) -> None:
        del self.history[: upto - self.kept]
        self.kept = upto

    def _run(self, data: bytes) -> list[Item]:
        items: list[Item] = []
        while True:
            before = self.consumed
            try:
                messages = self.reader.feed(data)
            except self.module.DecodeError as exc:
                after = self.consumed
                placed, end = self._place(exc.decoded, before, after, exact=False)
                items += placed
                if after > end:  # a whole bad frame: the reader goes on after it
                    where = {"error_offset": self.base + exc.offset} if exc.offset is not None else {}
                    items.append(
                        Item(error=_error_text(exc), field=exc.field, offset=end, length=after - end, extra=where)
                    )
                    self._trim(after)
                    data = b""
                    continue
                self._trim(end)
                self.broken = (
                    end,
                    exc,
                    None if exc.offset is None else self.base + exc.offset,
                )  # the header is unreadable: find where frames start again
                self.cursor = end + 1
                return items
            after = self.consumed
            items += self._place(messages, before, after, exact=True)[0]
            self._trim(after)
            return items

    def _resync(self, final: bool) -> list[Item]:
        assert self.broken is not None
        start, exc, error_offset = self.broken
        end = self.kept + len(self.history)
        while self.cursor < end:
            p = self.cursor
            if not final and end - p < RESYNC_WINDOW:
                return []  # wait for more input before judging this offset
            probe = self._reader()
            found = False
            try:
                found = bool(probe.feed(self._bytes(p, min(p + RESYNC_PROBE, end))))
                if not found and end > p + RESYNC_PROBE:
                    found = bool(probe.feed(self._bytes(p + RESYNC_PROBE, min(p + RESYNC_WINDOW, end))))
            except self.module.DecodeError as err:
                found = bool(err.decoded)
            if found:
                break
            self.cursor += 1
        skipped = self.cursor - start
        items = [
            Item(
                error=f"{_error_text(exc)}; {skipped} bytes skipped"
                + (" to the next readable frame" if self.cursor < end else " (no readable frame after it)"),
                field=exc.field,
                offset=start,
                length=skipped,
                extra={"error_offset": error_offset} if error_offset is not None else {},
            )
        ]
        self.broken = None
        self.base = self.cursor
        self.reader = self._reader()
        rest = self._bytes(self.cursor, end)
        self._trim(self.cursor)
        self.history.clear()
        if rest:
            items += self._continue(rest, final)
        return items

    def _continue(self, data: bytes, final: bool) -> list[Item]:
        self.history += data
        items = self._run(data) if self.broken is None else []
        while self.broken is not None and self.resync:
            more = self._resync(final)
            if not more and self.broken is not None:
                break  # waiting for input
            items += more
        return items

    def feed(self, data: bytes) -> list[Item]:
        if self.broken is not None:
            if not self.resync:
                return []
            self.history += data
            items: list[Item] = []
            while self.broken is not None:
                more = self._resync(False)
                if not more and self.broken is not None:
                    return items
                items += more
            return items
        return self._continue(data, False)

    def finish(self) -> list[Item]:
        items: list[Item] = []
        if not self.resync:
            return items
        while self.broken is not None:
            items += self._resync(True)
        if self.history:
            start = self.kept
            items.append(
                Item(
                    error=f"the input ends inside a frame ({len(self.history)} bytes not decoded)",
                    offset=start,
                    length=len(self.history),
                )
            )
            self._trim(start + len(self.history))
        return items


class RecordDecoder:
    """JSON lines of Kafka records, each decoded with the protocol's ``from_kafka``."""

    def __init__(self, module: ModuleType, direction: str | None) -> None:
        self.module = module
        self.partial = bytearray()
        self.offset = 0
        self.lines = 0

    def _record(self, text: bytes) -> Any:
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ValueError(f"not a JSON record: {exc}") from None
        if not isinstance(data, dict):
            raise ValueError("not a JSON record: a record is an object with key, value and headers")
        return self.module.KafkaRecord(
            key=_record_bytes(data, "key"),
            value=_record_bytes(data, "value" if "value" in data else "payload"),
            headers=_record_headers(data.get("headers")),
        )

    def _line(self, text: bytes, offset: int, line: int, length: int) -> Item:
        try:
            record = self._record(text)
        except ValueError as exc:
            return Item(error=str(exc), offset=offset, length=length, line=line)
        extra = {"key": record.key} if record.key is not None else {}
        try:
            event = self.module.from_kafka(record)
        except self.module.DecodeError as exc:  # (its offset is in the record's value, not in the input)
            return Item(error=_error_text(exc), field=exc.field, offset=offset, length=length, line=line, extra=extra)
        return Item(event, offset=offset, length=length, line=line, extra=extra)

    def feed(self, data: bytes) -> list[Item]:
        items = []
        self.partial += data
        start = 0
        while True:
            end = self.partial.find(b"\n", start)
            if end < 0:
                break
            text = bytes(self.partial[start:end])
            self.lines += 1
            if text.strip():
                items.append(self._line(text, self.offset, self.lines, end + 1 - start))
            self.offset += end + 1 - start
            start = end + 1
        del self.partial[:start]
        return items

    def finish(self) -> list[Item]:
        rest = bytes(self.partial)
        self.partial.clear()
        return self.feed(rest + b"\n") if rest.strip() else []


def _record_bytes(data: dict[str, Any], key: str) -> bytes | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"record {key} must be a string or null")
    if data.get(f"{key}_encoding", "utf8") == "base64":
        try:
            return base64.b64decode(value, validate=True)
        except binascii.Error:
            raise ValueError(f"record {key} is not base64") from None
    return value.encode("utf-8")


def _record_headers(headers: Any) -> list[tuple[str, bytes | None]]:
    if headers is None:
        return []
    if isinstance(headers, dict):
        pairs = list(headers.items())
    elif isinstance(headers, list) and all(isinstance(h, list) and len(h) == 2 for h in headers):
        pairs = [(h[0], h[1]) for h in headers]
    elif isinstance(headers, list) and len(headers) % 2 == 0:
        pairs = list(zip(headers[::2], headers[1::2], strict=True))
    else:
        raise ValueError("record headers must be [name, value] pairs, a flat [name, value, ...] list or an object")
    result = []
    for name, value in pairs:
        if not isinstance(name, str) or not (value is None or isinstance(value, str)):
            raise ValueError("record header names and values must be strings (a value may be null)")
        result.append((name, None if value is None else value.encode("utf-8")))
    return result


Decoder = LineDecoder | ByteDecoder | RecordDecoder


def decoder(module: ModuleType, direction: str | None, records: bool = False, resync: bool = True) -> Decoder:
    if records:
        return RecordDecoder(module, direction)
    reader = module.Reader(direction=direction)
    if hasattr(reader, "line"):
        return LineDecoder(module, direction)
    return ByteDecoder(module, direction, resync)


# --- input --------------------------------------------------------------------------------------------------------


class HexText:
    """Hex text to bytes, line by line (whitespace ignored, ``#`` to the end of a line is a comment)."""

    def __init__(self) -> None:
        self.partial = bytearray()
        self.nibble = ""
        self.line = 0
        self.errors: list[str] = []

    def feed(self, text: bytes, final: bool = False) -> bytes:
        self.partial += text
        out = bytearray()
        while True:
            end = self.partial.find(b"\n")
            if end < 0:
                if not final or not self.partial:
                    break
                end = len(self.partial)
            raw = bytes(self.partial[:end])
            del self.partial[: end + 1]
            self.line += 1
            digits = "".join(raw.split(b"#", 1)[0].decode("ascii", "replace").split())
            try:
                out += bytes.fromhex(self.nibble + digits[: len(digits) - (len(self.nibble + digits) % 2)])
                self.nibble = (self.nibble + digits)[-1] if len(self.nibble + digits) % 2 else ""
            except ValueError:
                self.errors.append(f"line {self.line} of the hex input is not hex; it was skipped")
        if final and self.nibble:
            self.errors.append("the hex input has an odd number of digits; the last one was dropped")
            self.nibble = ""
        return bytes(out)


def looks_hex(sample: bytes) -> bool:
    text = b"\n".join(line.split(b"#", 1)[0] for line in sample.split(b"\n"))
    digits = b"".join(text.split())
    return len(digits) >= 2 and all(c in b"0123456789abcdefABCDEF" for c in digits)


def looks_like_record(sample: bytes) -> bool:
    for line in sample.split(b"\n"):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            return False
        return (
            isinstance(data, dict)
            and ("value" in data or "payload" in data)
            and any(k in data for k in ("headers", "key", "topic", "partition"))
        )
    return False


def chunks(stream: IO[bytes]) -> Iterator[bytes]:
    read = getattr(stream, "read1", stream.read)
    while True:
        data = read(CHUNK)
        if not data:
            return
        yield data


# --- choosing the protocol ------------------------------------------------------------------------------------------


def _verdict(items: list[Item]) -> Item | None:
    """The first message or error decoding yielded; None: no verdict yet."""
    return items[0] if items else None


def _refusal(item: Item) -> str:
    where = [f"line {item.line}"] if item.line is not None else [f"offset {item.offset}"] if item.offset else []
    where += [f"field {item.field}"] if item.field else []
    return f"{item.error}" + (f" ({', '.join(where)})" if where else "")


DETECT_STEP = 4096
"""Auto-detection feeds each candidate this much at a time and stops at its first message or error."""


@dataclasses.dataclass
class Detection:
    """What auto-detection found in the sample, protocol by protocol."""

    decodes: list[str] = dataclasses.field(default_factory=list)
    """Protocols that decode the start of the sample into a message before any error."""
    undecided: list[str] = dataclasses.field(default_factory=list)
    """Protocols that need more input to say."""
    refused: dict[str, str] = dataclasses.field(default_factory=dict)
    """Protocol -> why it does not decode the start (its first error)."""


def detect(sample: bytes, final: bool, direction: str | None, records: bool) -> Detection:
    """Which protocols decode the start of ``sample``, which cannot say yet, and why the others refuse it."""
    found = Detection()
    for name in protocols():
        module = load(name)
        if direction is not None and direction not in module.DIRECTIONS:
            continue
        if records and not carries_records(module):
            continue
        d = decoder(module, direction, records, resync=False)
        first: Item | None = None
        try:
            for start in range(0, len(sample), DETECT_STEP):
                first = _verdict(d.feed(sample[start : start + DETECT_STEP]))
                if first is None and getattr(d, "broken", None) is not None:
                    first = Item(error="the first frame's header is unreadable")
                if first is not None:
                    break
            if first is None and final:
                first = _verdict(d.finish()) or Item(error="the input ends before a whole message")
        except Exception as exc:  # a reader failing in any other way: not this protocol
            first = Item(error=str(exc) or type(exc).__name__)
        if first is None:
            found.undecided.append(name)
        elif first.bad:
            found.refused[name] = _refusal(first)
        else:
            found.decodes.append(name)
    return found
