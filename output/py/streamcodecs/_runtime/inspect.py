# Copied from streamcodecs_gen/py_package/_runtime/inspect.py by ./generator.py; edit that file, not this copy.
"""``python -m <package> inspect``: decode captured traffic and print one message per line.

Nothing here knows a protocol.  The protocols are the package's ``PROTOCOLS``; each module gives ``MESSAGES``,
``DIRECTIONS``, ``Reader`` and ``DecodeError`` (and, for protocols carried in Kafka records, ``KafkaRecord`` and
``from_kafka``).  What the tool needs beyond that it learns from the readers' public attributes: a reader with a
``line`` counter reads text (the input is fed to it line by line, so every message gets its line), a reader with
a stream ``offset`` reads bytes (every message gets its byte offset and length).

Input (``--input``): ``raw`` bytes as they went over the wire; ``hex`` text (whitespace ignored, ``#`` starts a
comment), decoded to bytes first, offsets counting those bytes; ``records``, JSON lines of Kafka records (``key``,
``value``, ``headers`` as ``[name, value]`` pairs, a flat ``[name, value, ...]`` list or an object; strings are
UTF-8 unless ``key_encoding``/``value_encoding`` say ``base64``; kcat's ``payload`` is read as ``value``).
``auto`` (the default) picks ``records`` when the first line is such a record, ``hex`` when the input is only hex
digits, whitespace and comments, and ``raw`` otherwise.

Protocol: ``--protocol``, or auto-detected: every protocol (in ``--direction``, when given) decodes the start of the
input, and the one whose decoding yields a message before any error is chosen.  When none or several do, the tool
says so and asks for ``--protocol``.

Output: one JSON object per line, ``{"offset", "length" | "line", "message", "fields"}`` for a message and
``{"offset", "length" | "line", "error", "field"}`` for a bad frame; ``fields`` is the message's ``to_dict()``
with bytes as base64 (``--bytes hex`` for hex), UUIDs and times as strings.  ``--pretty`` prints a table instead.
A bad frame is reported with its offset and decoding goes on after it; when a frame header is unreadable the tool
looks for the next offset where frames decode again and reports the bytes it skipped.  Exit status: 0 when every
frame decoded, 1 when any was bad, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import dataclasses
import datetime
import enum
import importlib
import json
import math
import os
import sys
import uuid
from array import array
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import IO, Any

from .kafkawire import MISSING as _MISSING  # the kafka runtime is part of every package

__all__ = ["Item", "decode_all", "main", "protocols"]

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
                items.append(Item(error=_error_text(exc), field=exc.field, offset=offset, line=line))
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
            if self.first is None and rest.strip():
                self.first = self.lines + 1
        items = self._run(rest) if rest else []
        held = len(rest) if rest.strip() else 0
        buffered = getattr(self.reader, "buffered", 0)
        if held or buffered:
            line = self.first or self.lines + 1
            offset = self.starts[line - 1] if line <= len(self.starts) else self.offset
            items.append(
                Item(
                    error=f"the input ends inside a message ({self.offset + len(rest) - offset} bytes not decoded)",
                    offset=offset,
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
            return Item(error=str(exc), offset=offset, line=line)
        try:
            event = self.module.from_kafka(record)
        except self.module.DecodeError as exc:
            return Item(error=_error_text(exc), field=exc.field, offset=offset, line=line)
        extra = {"key": record.key} if record.key is not None else {}
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


def _looks_hex(sample: bytes) -> bool:
    text = b"\n".join(line.split(b"#", 1)[0] for line in sample.split(b"\n"))
    digits = b"".join(text.split())
    return len(digits) >= 2 and all(c in b"0123456789abcdefABCDEF" for c in digits)


def _looks_like_record(sample: bytes) -> bool:
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


# --- output -------------------------------------------------------------------------------------------------------


def plain(value: Any, as_bytes: Callable[[bytes], str]) -> Any:
    """A JSON-ready copy of a ``to_dict()`` value."""
    if isinstance(value, dict):
        return {str(k): plain(v, as_bytes) for k, v in value.items() if v is not _MISSING}
    if isinstance(value, list | tuple):
        return [plain(v, as_bytes) for v in value]
    if isinstance(value, bytes | bytearray | memoryview):
        return as_bytes(bytes(value))
    if isinstance(value, enum.Enum):
        return plain(value.value, as_bytes)
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    return str(value)


def _bytes_writer(kind: str) -> Callable[[bytes], str]:
    if kind == "hex":
        return bytes.hex
    return lambda b: base64.b64encode(b).decode("ascii")


def as_json(item: Item, protocol: str, as_bytes: Callable[[bytes], str]) -> dict[str, Any]:
    out: dict[str, Any] = {"protocol": protocol}
    if item.line is not None:
        out["line"] = item.line
    if item.offset is not None:
        out["offset"] = item.offset
    if item.length is not None:
        out["length"] = item.length
    if item.bad:
        out["error"] = item.error
        if item.field:
            out["field"] = item.field
    else:
        out["message"] = type(item.message).__name__
        out["fields"] = plain(item.message.to_dict(), as_bytes)
    out.update(plain(item.extra, as_bytes))
    return out


def _short(value: Any, limit: int = 40) -> str:
    """A value for the readable table: enums by name, long bytes and strings cut short."""
    if hasattr(value, "to_dict"):
        return "{" + ", ".join(f"{k}: {_short(_typed(value, k, v), limit)}" for k, v in _fields(value)) + "}"
    if isinstance(value, bytes | bytearray | memoryview):
        data = bytes(value)
        return f"0x{data[:16].hex()}" + (f"…({len(data)} bytes)" if len(data) > 16 else "")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_short(v, limit)}" for k, v in value.items() if v is not _MISSING) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_short(v, limit) for v in value) + "]"
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= limit else text[: limit - 2] + '…"'
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    return str(value)


def _typed(message: Any, name: str, plain_value: Any) -> Any:
    """The attribute itself where it says more than its plain value (an enum member, a struct, a list)."""
    typed = getattr(message, name, plain_value)
    return typed if isinstance(typed, enum.Enum | list | tuple) or hasattr(typed, "to_dict") else plain_value


def _fields(message: Any) -> list[tuple[str, Any]]:
    return [(k, v) for k, v in message.to_dict().items() if v is not _MISSING]


HEADER = f"{'where':>14} {'length':>7}  message"


def as_row(item: Item) -> str:
    where = f"line {item.line}" if item.line is not None else ""
    if item.offset is not None:
        where = f"{where} @{item.offset}" if where else f"@{item.offset}"
    size = f"{item.length}" if item.length is not None else ""
    if item.bad:
        text = f"!! {item.error}" + (f" (field {item.field})" if item.field else "")
        return f"{where:>14} {size:>7}  {text}"
    message = item.message
    fields = ", ".join(f"{k}={_short(_typed(message, k, v))}" for k, v in _fields(message))
    extra = "".join(f"  [{k}={_short(v)}]" for k, v in item.extra.items())
    return f"{where:>14} {size:>7}  {type(message).__name__}({fields}){extra}"


# --- the command ----------------------------------------------------------------------------------------------------


def parser(prog: str | None = None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Decode captured traffic (a TCP capture, a stdio log, a Kafka topic dump) and print one "
        "message per line as JSON. Bad frames are reported with their offset and decoding goes on; the exit "
        "status is 1 if any frame was bad.",
    )
    p.add_argument("file", nargs="?", default="-", help="input file (default: standard input)")
    p.add_argument("-p", "--protocol", help="protocol to decode with (default: detected from the input)")
    p.add_argument("-d", "--direction", help="only messages sent in this direction")
    p.add_argument(
        "-i",
        "--input",
        choices=("auto", "raw", "hex", "records"),
        default="auto",
        help="raw bytes, hex text, or JSON lines of Kafka records (default: auto)",
    )
    p.add_argument("--bytes", choices=("base64", "hex"), default="base64", help="how bytes are printed in JSON")
    p.add_argument("--pretty", action="store_true", help="a readable table instead of JSON lines")
    p.add_argument("--list", action="store_true", help="list the protocols and their directions, then exit")
    return p


class Usage(Exception):
    pass


@dataclasses.dataclass
class Run:
    """One run: the chosen protocol and decoder, and how many messages and bad frames it found."""

    protocol: str
    decoder: Decoder
    emit: Callable[[str, Item], None]
    bad: int = 0
    good: int = 0

    def take(self, items: list[Item]) -> None:
        for item in items:
            if item.bad:
                self.bad += 1
            else:
                self.good += 1
            self.emit(self.protocol, item)


def _choose(args: argparse.Namespace, sample: bytes, final: bool, records: bool) -> str | None:
    """The protocol to decode with, or None when the sample does not decide yet."""
    if args.protocol:
        return str(args.protocol)
    found = detect(sample, final, args.direction, records)
    if found.undecided and not final and len(sample) < SAMPLE_LIMIT:
        return None
    if len(found.decodes) == 1:
        return found.decodes[0]
    if found.decodes:
        raise Usage(f"the input decodes as {', '.join(found.decodes)}; choose one with --protocol")
    why = "".join(f"\n  {name}: {reason}" for name, reason in found.refused.items())
    raise Usage(f"no protocol decodes the start of the input; choose one with --protocol (see --list){why}")


def _input_mode(sample: bytes, final: bool) -> str | None:
    """raw, hex or records, or None when the first line is not complete yet."""
    complete = sample if final else sample[: sample.rfind(b"\n") + 1]
    if not complete.strip() and not final and len(sample) < SAMPLE_LIMIT:
        return None
    if not complete.strip():
        complete = sample
    if _looks_like_record(complete):
        return "records"
    return "hex" if _looks_hex(complete) else "raw"


def decode_all(stream: IO[bytes], args: argparse.Namespace, emit: Callable[[str, Item], None]) -> Run | None:
    """Decode ``stream`` as ``args`` say, handing every item to ``emit``; None when the input is empty."""
    source = chunks(stream)
    sample = bytearray()
    final = False

    def read() -> bytes:
        nonlocal final
        data = next(source, None)
        if data is None:
            final = True
            return b""
        sample.extend(data)
        return data

    mode = args.input
    while mode == "auto":
        read()
        mode = _input_mode(bytes(sample), final) or "auto"
    hex_text = HexText() if mode == "hex" else None

    def convert(data: bytes, last: bool) -> bytes:
        return hex_text.feed(data, last) if hex_text is not None else data

    decoded = bytearray(convert(bytes(sample), final))
    while True:
        if final and not decoded.strip():
            return None
        name = _choose(args, bytes(decoded), final, mode == "records")
        if name is not None:
            break
        decoded += convert(read(), final)
    if name not in protocols():
        raise Usage(f"unknown protocol {name!r}; known: {', '.join(protocols())}")
    module = load(name)
    if args.direction is not None and args.direction not in module.DIRECTIONS:
        raise Usage(f"{name} has no direction {args.direction!r}; it has {', '.join(module.DIRECTIONS)}")
    if mode == "records" and not carries_records(module):
        raise Usage(f"{name} is not carried in Kafka records; use --input raw or hex")
    run = Run(name, decoder(module, args.direction, mode == "records"), emit)

    def take(data: bytes) -> None:
        if hex_text is not None:
            run.take([Item(error=e) for e in hex_text.errors])
            hex_text.errors.clear()
        run.take(run.decoder.feed(data))

    take(bytes(decoded))
    while not final:
        data = read()
        if data:
            take(convert(data, False))
    if hex_text is not None:
        take(convert(b"", True))
    run.take(run.decoder.finish())
    return run


def _list() -> str:
    rows = []
    for name in protocols():
        module = load(name)
        kinds = "records or bytes" if carries_records(module) else "bytes"
        rows.append(
            f"{name}: version {module.VERSION}, {len(module.MESSAGES)} messages, "
            f"directions {', '.join(module.DIRECTIONS)}; reads {kinds}"
        )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    args = parser(prog).parse_args(argv)
    out = sys.stdout
    if args.list:
        print(_list(), file=out)
        return 0
    as_bytes = _bytes_writer(args.bytes)

    header = [HEADER] if args.pretty else []

    def emit(protocol: str, item: Item) -> None:
        if args.pretty:
            if header:
                out.write(header.pop() + "\n")
            out.write(as_row(item) + "\n")
        else:
            out.write(json.dumps(as_json(item, protocol, as_bytes), ensure_ascii=False) + "\n")

    try:
        stream: IO[bytes] = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")  # noqa: SIM115
    except OSError as exc:
        print(f"error: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        with stream:
            run = decode_all(stream, args, emit)
        out.flush()
    except Usage as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader of our output went away (``| head``): say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if run is None:
        print("no input", file=sys.stderr)
        return 0
    print(f"{run.protocol}: {run.good} messages, {run.bad} bad", file=sys.stderr)
    return 1 if run.bad else 0
