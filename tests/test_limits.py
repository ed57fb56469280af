"""Bounded memory: every Reader enforces its protocol's size limit, and a length claiming gigabytes is refused
before anything is allocated (checked under an address-space cap, in a subprocess)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import streamcodecs
from streamcodecs import cloudevents, kcl, pravega, storm

REPO = Path(__file__).resolve().parent.parent


def test_default_limits() -> None:
    assert pravega.MAX_FRAME == 0x00FFFFFF == pravega.MAX_WIRECOMMAND_SIZE
    for module in (kcl, storm, cloudevents):
        assert 1 << 20 <= module.MAX_MESSAGE <= 1 << 27, module.__name__


def test_pravega_header_claiming_two_gib_is_refused_at_once() -> None:
    reader = pravega.Reader()
    with pytest.raises(pravega.DecodeError) as info:
        reader.feed(bytes.fromhex("0000000a7fffffff"))
    assert info.value.offset == 4 and reader.buffered == 0
    with pytest.raises(pravega.DecodeError):
        reader.feed(b"more")  # the stream cannot be resynchronised after a bad header
    with pytest.raises(pravega.DecodeError):
        pravega.decode(bytes.fromhex("0000000a7fffffff") + b"x" * 16)


def test_pravega_reader_limit_is_configurable() -> None:
    frame = pravega.encode(pravega.SegmentCreated(request_id=1, segment="s" * 100))
    with pytest.raises(pravega.DecodeError):
        pravega.Reader(max_frame=64).feed(frame)
    assert pravega.Reader(max_frame=len(frame)).feed(frame)


def test_pravega_counts_and_lengths_that_cannot_fit_are_refused() -> None:
    # UpdateTableEntries with a table-entry count of 2^31-1 but no entries: refused before any list is built.
    frame = bytearray(pravega.encode(pravega.ReadTable(request_id=1, segment="t", delegation_token="", keys=[])))
    frame[-4:] = (0x7FFFFFFF).to_bytes(4, "big")
    with pytest.raises(pravega.DecodeError, match="count"):
        pravega.decode(bytes(frame))


@pytest.mark.parametrize("module", [kcl, storm, cloudevents], ids=lambda m: m.__name__.split(".")[-1])
def test_line_readers_refuse_an_endless_message_and_recover(module) -> None:  # noqa: ANN001
    reader = module.Reader(max_message=1024)
    errors = 0
    for _ in range(64):  # 64 KiB without a line end, fed in 1 KiB pieces
        try:
            reader.feed(b"x" * 1024)
        except module.DecodeError:
            errors += 1
        assert reader.buffered <= 2048, "the reader must not keep an over-long message"
    assert errors >= 1


def test_huge_lengths_under_a_memory_cap() -> None:
    """With the address space capped at 512 MiB, lengths and counts claiming gigabytes still give DecodeError."""
    probe = r"""
import resource, sys
sys.path.insert(0, sys.argv[1])
cap = 512 * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from streamcodecs import pravega, kcl
header = bytes.fromhex("0000000a7fffffff")
for data in (header, header + b"\0" * 64, bytes.fromhex("0000000a00000010") + b"\x7f\xff\xff\xff" * 4):
    for call in (pravega.decode, lambda d: pravega.Reader().feed(d)):
        try:
            call(data)
        except pravega.DecodeError:
            pass
try:
    kcl.Reader().feed(b'{"action":"processRecords","records":[{"data":"' + b"A" * (1 << 20))
except kcl.DecodeError:
    pass
print("bounded")
"""
    result = subprocess.run(
        [sys.executable, "-c", probe, str(REPO / "output" / "py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "bounded"


@pytest.mark.parametrize("module", [kcl, storm, cloudevents], ids=lambda m: m.__name__.split(".")[-1])
def test_text_that_is_not_unicode_is_a_decode_error(module) -> None:  # noqa: ANN001
    with pytest.raises(module.DecodeError, match="not valid Unicode"):
        module.decode('{"a": "\ud800"}')


# Feeds one message of a single long line to the Java Reader's framing in pieces and prints what it allocated
# meanwhile (HotSpot's count for the thread), the text of the message it cut and what it still holds.
FRAMES_HARNESS = r"""
import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import streamcodecs.runtime.JsonReader;

public class Harness {
    public static void main(String[] args) {
        boolean endLine = args[0].equals("end");
        int length = Integer.parseInt(args[1]);
        int piece = Integer.parseInt(args[2]);
        String text = "{\"command\":\"log\",\"msg\":\"" + "x".repeat(length) + "\",\"level\":2}";
        byte[] data = (text + (endLine ? "\r\nend\r\n" : "\r\n")).getBytes(StandardCharsets.UTF_8);
        ThreadMXBean bean = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        JsonReader.Frames frames = new JsonReader.Frames(endLine, 1 << 24);
        long before = bean.getCurrentThreadAllocatedBytes();
        int most = 0;
        for (int at = 0; at < data.length; at += piece) {
            frames.feed(data, at, Math.min(piece, data.length - at));
            most = Math.max(most, frames.buffered());
        }
        long allocated = bean.getCurrentThreadAllocatedBytes() - before;
        JsonReader.Frame frame = frames.next();
        System.out.println(allocated + " " + data.length + " " + frame.text().length + " " + most + " "
            + frames.buffered());
    }
}
"""


@pytest.mark.skipif(shutil.which("java") is None, reason="needs a JDK (java)")
@pytest.mark.parametrize(
    ("mode", "length", "piece"), [("end", 1 << 20, 64), ("end", 1 << 16, 1), ("line", 1 << 20, 16)]
)
def test_the_java_reader_reads_a_long_line_fed_in_small_pieces_in_linear_time(
    tmp_path: Path, mode: str, length: int, piece: int
) -> None:
    """The Java Reader's framing holds the line being received in a buffer that grows by doubling and searches
    only the new bytes for a line end: a message of one long line fed in small pieces allocates a few times its
    length (it copied all it held on every feed: about a gigabyte for 64 KiB fed a byte at a time, tens of
    gigabytes for 1 MiB fed in 64-byte pieces). ``buffered`` counts every byte of it, a CR included."""
    harness = tmp_path / "Harness.java"
    harness.write_text(FRAMES_HARNESS, encoding="utf-8")
    jar = Path(streamcodecs.__file__).parent / "spark" / "streamcodecs-spark.jar"
    result = subprocess.run(
        ["java", "-Xmx256m", "-cp", str(jar), str(harness), mode, str(length), str(piece)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    allocated, size, text, most, left = map(int, result.stdout.split())
    assert size == length + len('{"command":"log","msg":"","level":2}') + (7 if mode == "end" else 2)
    assert text == size - (7 if mode == "end" else 1)  # (less CRLF end CRLF; a line keeps its CR: whitespace)
    assert most == (size - 1) // piece * piece and left == 0  # before the last feed: all it had, as received
    assert allocated < 16 * size, allocated
