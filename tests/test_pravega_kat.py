"""Pravega: the known-answer vectors made by Pravega's own Java code (``pravega-java-kat.txt``).

The file is parsed here, nothing is copied from it by hand: each ``###`` entry gives a whole frame in hex and the
Java ``toString`` of the command Java decoded from it; a ``batch`` entry gives the bytes a Java client wrote after a
SetupAppend, the frames in them, and the appends the server's AppendDecoder rebuilt.  Every frame must decode to the
values Java printed and re-encode to the same bytes; every batch must reassemble to the appends shown, and the
append writer must write the same bytes for the same appends.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from streamcodecs import pravega as pv

KAT = Path(__file__).resolve().parent / "fixtures" / "pravega" / "pravega-java-kat.txt"
"""The known-answer file, committed with the tests (a missing file is a failure, not a skip)."""


@dataclass
class Entry:
    title: str
    size: int
    frame: bytes
    decoded: str | None = None
    frames: list[tuple[str, int]] = field(default_factory=list)  # batch: (Java type name, payload length)
    appends: list[dict[str, str]] = field(default_factory=list)  # batch: the '->' lines

    @property
    def is_batch(self) -> bool:
        return self.title.startswith("batch")


def parse_kat(text: str) -> list[Entry]:
    entries: list[Entry] = []
    for line in text.splitlines():
        if line.startswith("### "):
            title = line[4:]
            size = re.search(r"\((\d+) bytes", title)
            assert size, f"no byte count in {title!r}"
            entries.append(Entry(title, int(size.group(1)), b""))
        elif not line.strip() or line.startswith("#"):
            continue
        elif line.startswith("decoded: "):
            entries[-1].decoded = line[len("decoded: ") :]
        elif line.strip().startswith("frame type="):
            match = re.fullmatch(r"\s*frame type=(\w+) len=(\d+)", line)
            assert match, line
            entries[-1].frames.append((match.group(1), int(match.group(2))))
        elif line.strip().startswith("-> Append"):
            entries[-1].appends.append(dict(re.findall(r"(\w+)=(\S+)", line)))
        else:
            assert re.fullmatch(r"[0-9a-f]+", line), f"unexpected line {line!r}"
            entries[-1].frame += bytes.fromhex(line)
    for entry in entries:
        assert len(entry.frame) == entry.size, f"{entry.title}: {len(entry.frame)} bytes, header says {entry.size}"
    return entries


def entries() -> list[Entry]:
    return parse_kat(KAT.read_text(encoding="utf-8"))


# -- Java's toString, parsed ------------------------------------------------------------------------------------------


@dataclass
class Call:
    name: str
    args: dict[str, Any]


@dataclass
class MapEntry:
    key: Any
    value: Any


@dataclass
class Quoted:
    text: str


class JavaToString:
    """A parser for the Lombok ``toString`` output in the vectors: ``Name(k=v, ...)``, lists, ``k=v`` map entries,
    quoted strings with ``\\u``/``\\U`` escapes, and bare atoms."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def parse(self) -> Any:
        value = self.value(")")
        return value  # anything after the command (a note in parentheses) is commentary

    def peek(self, s: str) -> bool:
        return self.text.startswith(s, self.pos)

    def expect(self, s: str) -> None:
        assert self.peek(s), f"expected {s!r} at {self.pos} in {self.text!r}"
        self.pos += len(s)

    def value(self, stop: str) -> Any:
        if self.peek('"'):
            end = self.text.index('"', self.pos + 1)
            raw = self.text[self.pos + 1 : end]
            self.pos = end + 1
            note = re.compile(r" \([^()]*\)").match(self.text, self.pos)  # the vector's own note, e.g. about NUL
            if note:
                self.pos = note.end()
            return Quoted(re.sub(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})", lambda m: chr(int(m[1] or m[2], 16)), raw))
        if self.peek("["):
            self.pos += 1
            items = []
            while not self.peek("]"):
                item = self.value("],=")
                if self.peek("="):
                    self.pos += 1
                    item = MapEntry(item, self.value("],"))
                items.append(item)
                if self.peek(", "):
                    self.pos += 2
            self.pos += 1
            return items
        match = re.compile(r"[\w.]+\(").match(self.text, self.pos)
        if match:
            self.pos = match.end()
            args: dict[str, Any] = {}
            while not self.peek(")"):
                key = re.compile(r"\w+").match(self.text, self.pos)
                assert key, f"no field name at {self.pos} in {self.text!r}"
                self.pos = key.end()
                self.expect("=")
                args[key.group()] = self.value(",)")
                if self.peek(", "):
                    self.pos += 2
            self.pos += 1
            return Call(match.group()[:-1].rsplit(".", 1)[-1], args)
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in stop:
            self.pos += 1
        return self.text[start : self.pos]


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def check_value(java: Any, ours: Any, where: str) -> int:
    """Assert that our decoded value is what Java printed; returns how many values were compared."""
    if isinstance(java, Call):
        assert type(ours).__name__ == java.name, f"{where}: Java has {java.name}, we have {type(ours).__name__}"
        compared = 0
        for key, value in java.args.items():
            if key == "type":  # the WireCommandType of the class
                assert pv.command_type_name(ours) == value, f"{where}.type"
                compared += 1
                continue
            attr = snake(key)
            assert hasattr(ours, attr), f"{where}: Java prints {key}, which {type(ours).__name__} does not have"
            compared += check_value(value, getattr(ours, attr), f"{where}.{attr}")
        return compared
    if isinstance(java, list):
        assert isinstance(ours, list) and len(ours) == len(java), f"{where}: {java!r} vs {ours!r}"
        return sum(check_value(j, o, f"{where}[{i}]") for i, (j, o) in enumerate(zip(java, ours, strict=True)))
    if isinstance(java, MapEntry):  # a Map.Entry: our pair struct has key and value
        return check_value(java.key, ours.key, f"{where}.key") + check_value(java.value, ours.value, f"{where}.value")
    if isinstance(java, Quoted):
        assert ours == java.text, f"{where}: {java.text!r} vs {ours!r}"
        return 1
    if java == "<buf>":  # Java printed no contents; the bytes are checked by re-encoding
        assert isinstance(ours, bytes), where
        return 0
    if isinstance(ours, bool):
        assert java == ("true" if ours else "false"), f"{where}: {java} vs {ours}"
    elif isinstance(ours, pv.ScaleType | pv.AttributeUpdateType):  # Java keeps the raw byte
        assert java == str(int(ours)), f"{where}: {java} vs {ours!r}"
    elif hasattr(ours, "name") and isinstance(ours, int):  # an enum Java prints by name
        assert java == ours.name, f"{where}: {java} vs {ours!r}"
    elif isinstance(ours, int):
        assert int(java) == ours, f"{where}: {java} vs {ours}"
    elif isinstance(ours, uuid.UUID):
        assert uuid.UUID(java) == ours, f"{where}: {java} vs {ours}"
    else:
        assert isinstance(ours, str) and java == ours, f"{where}: {java!r} vs {ours!r}"
    return 1


def frame_entries() -> list[Entry]:
    return [e for e in entries() if not e.is_batch]


def batch_entries() -> list[Entry]:
    return [e for e in entries() if e.is_batch]


def test_the_file_has_the_vectors_the_issue_names() -> None:
    found = entries()
    titles = " ".join(e.title for e in found)
    assert len([e for e in found if not e.is_batch]) >= 15 and len([e for e in found if e.is_batch]) >= 1
    for name in ("Hello", "SetupAppend", "AppendBlockEnd", "SegmentRead", "UpdateTableEntries", "modified-utf8"):
        assert name in titles


@pytest.mark.parametrize("entry", frame_entries(), ids=lambda e: e.title)
def test_vector_decodes_to_java_values_and_reencodes(entry: Entry) -> None:
    message = pv.decode(entry.frame)
    assert entry.decoded, entry.title
    java = JavaToString(entry.decoded).parse()
    compared = check_value(java, message, type(message).__name__)
    assert compared >= 1
    assert pv.encode(message) == entry.frame
    for direction in message.DIRECTIONS:
        assert pv.decode(entry.frame, direction=direction) == message


@pytest.mark.parametrize("entry", batch_entries(), ids=lambda e: e.title)
def test_batch_frames_and_appends(entry: Entry) -> None:
    setup = next(e for e in frame_entries() if e.title.startswith("SetupAppend"))
    stream = setup.frame + entry.frame
    messages = pv.Reader(direction="request").feed(stream)
    assert isinstance(messages[0], pv.SetupAppend)
    # The frames Java listed: type names and payload lengths, in order.
    frames, pos = [], len(setup.frame)
    while pos < len(stream):
        code, length = (
            int.from_bytes(stream[pos : pos + 4], "big", signed=True),
            int.from_bytes(stream[pos + 4 : pos + 8], "big"),
        )
        frames.append((code, length))
        pos += 8 + length
    assert [(pv.command_type_name(m), length) for m, (_, length) in zip(messages[1:], frames, strict=True)] == (
        entry.frames
    )
    appends = pv.reassemble_appends(messages)
    assert len(appends) == len(entry.appends) >= 1
    for ours, java in zip(appends, entry.appends, strict=True):
        assert ours.event_number == int(java["eventNumber"])
        assert ours.event_count == int(java["eventCount"])
        assert ours.request_id == int(java["requestId"])
        assert ours.data == bytes.fromhex(java["data"])
        assert ours.segment == messages[0].segment and ours.writer_id == messages[0].writer_id


@pytest.mark.parametrize("entry", batch_entries(), ids=lambda e: e.title)
def test_writer_writes_the_java_batch(entry: Entry) -> None:
    """The append writer, given the same appends and block size, writes exactly the bytes the Java client wrote."""
    setup_entry = next(e for e in frame_entries() if e.title.startswith("SetupAppend"))
    setup = pv.decode(setup_entry.frame)
    block = re.search(r"blockSize=(\d+)", entry.title)
    assert block, entry.title
    writer = pv.AppendEncoder(block_size=int(block.group(1)))
    assert writer.write(setup) == setup_entry.frame
    out = b""
    for java in entry.appends:
        events, used = pv.split_events(bytes.fromhex(java["data"]))
        assert used == len(bytes.fromhex(java["data"])) and len(events) == int(java["eventCount"])
        first = int(java["eventNumber"]) - len(events) + 1
        for number, payload in enumerate(events, start=first):
            out += writer.append_event(setup.writer_id, setup.segment, number, payload)
    closing = pv.Reader().feed(entry.frame)[-1]  # the command that ends the batch (a KeepAlive)
    assert not isinstance(closing, pv.AppendBlock | pv.AppendBlockEnd | pv.PartialEvent | pv.Padding)
    out += writer.write(closing)
    assert out == entry.frame
