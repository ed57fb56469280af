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
import dataclasses
import datetime
import enum
import json
import math
import os
import sys
import uuid
from collections.abc import Callable, Sequence
from typing import IO, Any

from .kafkarules import MISSING as _MISSING  # the kafka runtime is part of every package
from .traffic import (
    SAMPLE_LIMIT,
    Decoder,
    HexText,
    Item,
    carries_records,
    chunks,
    decoder,
    detect,
    load,
    looks_hex,
    looks_like_record,
    protocols,
)

__all__ = ["Item", "decode_all", "main", "protocols"]

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
    if looks_like_record(complete):
        return "records"
    return "hex" if looks_hex(complete) else "raw"


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


def _counted(count: int, noun: str) -> str:
    """``1 message``, ``2 messages``: a count as a reader says it."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _list() -> str:
    rows = []
    for name in protocols():
        module = load(name)
        kinds = "records or bytes" if carries_records(module) else "bytes"
        rows.append(
            f"{name}: version {module.VERSION}, {_counted(len(module.MESSAGES), 'message')}, "
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
    print(f"{run.protocol}: {_counted(run.good, 'message')}, {run.bad} bad", file=sys.stderr)
    return 1 if run.bad else 0
