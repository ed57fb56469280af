"""The binary family's Java target beyond Pravega: the generated Java reads like hand-written Java, and another
binary protocol (UTF-8 text, floats, a 16-bit open enum, a list of structs) compiles and decodes and encodes as its
Python codec does, error texts included (the Java codec run by a small program on the JVM, no Spark)."""

from __future__ import annotations

import importlib
import io
import math
import random
import shutil
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path
from typing import Any

import pytest

from streamcodecs_gen import jar
from streamcodecs_gen.cli import main as generate
from streamcodecs_gen.filters import LINE_LENGTH, java_lines, java_sum, javadoc_comment, javastr
from streamcodecs_gen.java_sources import java_sources
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.render import Options

REPO = Path(__file__).resolve().parent.parent

SIBLING = """\
protocol: blip
title: Blip
family: binary
versions: ["1"]
directions: [{name: up}, {name: down}]
framing:
  {byte_order: big, code_type: int32, length_type: int32, list_count: int32, bytes_length: int32, max_frame: 4096}
enums:
  - name: Mood
    type: int16
    values: [{name: CALM, value: 0}, {name: LOUD, value: 7}]
    unknown: keep
  - name: Level
    type: int8
    values: [{name: LOW, value: 1}, {name: HIGH, value: 2}]
types:
  - name: Tag
    fields:
      - {name: id, type: uuid}
      - {name: weight, type: float64}
messages:
  - name: Note
    code: 5
    directions: [up]
    fields:
      - {name: who, type: uuid}
      - {name: mood, type: Mood}
      - {name: tags, type: list<Tag>}
      - {name: text, type: string}
      - {name: ratio, type: float32}
      - {name: level, type: Level}
  - name: Ping
    code: 6
    directions: [up, down]
    fields: []
  - name: Chunk
    code: 9
    directions: [down]
    inline_only: true
    fields:
      - {name: seq, type: int16}
      - {name: body, type: rest}
"""

HARNESS = """\
import blip_java_codecs.blip.Codec;
import blip_java_codecs.runtime.DecodeException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.HexFormat;

public class Harness {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            try {
                byte[] frame = Codec.encode(Codec.decode(HexFormat.of().parseHex(line)));
                System.out.println("ok " + HexFormat.of().formatHex(frame));
            } catch (DecodeException e) {
                System.out.println("error " + e.getMessage());
            }
        }
    }
}
"""


def test_the_generated_java_reads_like_hand_written_java() -> None:
    """Every Java source of every family, rendered or copied, header included: no line past the line length, no
    trailing space, no tab, indented by fours."""
    files = java_sources(load_protocols(REPO / "protocol-definitions", REPO), Options())
    assert {f.path.name for f in files} >= {"Codec.java", "Decode.java", "Encode.java", "SplitInline.java"}
    assert {f.path.name for f in files} >= {"Messages.java", "KafkaRules.java", "JsonWire.java", "SqlExtensions.java"}
    for f in files:
        assert isinstance(f.content, str)
        for number, line in enumerate(f.content.splitlines(), start=1):
            assert len(line) <= LINE_LENGTH and line == line.rstrip() and "\t" not in line, (f.path, number, line)
            assert (len(line) - len(line.lstrip())) % 4 == 0 or line.lstrip().startswith("*"), (f.path, number)


def test_long_statements_wrap_at_their_outermost_call() -> None:
    line = "        return new Thing(" + ", ".join(f'call{i}(row, "field_{i}")' for i in range(8)) + ");"
    wrapped = java_lines(line)
    assert wrapped.splitlines()[0] == "        return new Thing("
    assert all(len(part) <= 120 for part in wrapped.splitlines())
    assert "".join(wrapped.split()) == "".join(line.split())  # the same statement, only the lines differ
    assert java_lines('    String s = "(, not a call" + x;   ') == '    String s = "(, not a call" + x;'
    assert javastr('a"\\\n\x00é😀') == '"a\\"\\\\\\n\\000\\u00e9\\ud83d\\ude00"'


def test_a_declaration_too_long_takes_its_value_to_the_next_line() -> None:
    head = "            Map<String, Map<String, List<String>>> sourceToStreamToFields = "
    assert java_lines(head + "JsonSpark.fromMap(r.get(7), x);") == head + "JsonSpark.fromMap(r.get(7), x);"  # fits
    value = "JsonSpark.fromMap(r.get(7), Codec::fromMapOfListOfStrAndMoreBesidesToPassTheLineLength);"
    assert java_lines(head + value).splitlines() == [head.rstrip(" ="), " " * 20 + value] or java_lines(
        head + value
    ).splitlines() == [head.rstrip(), " " * 20 + value]


def test_a_long_concatenation_breaks_before_a_plus_and_a_long_literal_between_words() -> None:
    pieces = [(True, "word " * 10), (False, "field"), (True, " and then " * 8), (False, "other")]
    said = java_sum("return ", pieces, indent=8, width=80)
    lines = said.splitlines()
    assert lines[0].startswith("        return ") and all(line.startswith("                + ") for line in lines[1:])
    assert all(len(line) <= 80 for line in lines) and said.endswith(" + other;")
    assert eval(f"({said.strip().removeprefix('return ').removesuffix(';')})", {"field": "F", "other": "O"}) == (
        "word " * 10 + "F" + " and then " * 8 + "O"
    )  # (Java's literals and + read as Python's here: the same text, only the lines differ)
    constant = java_sum("public static final String NAME = ", [(True, "x" * 60)], width=80)
    assert constant.splitlines() == ["public static final String NAME =", "        " + javastr("x" * 60) + ";"]
    assert java_sum("return ", [(True, "short")]) == 'return "short";'


def test_javadoc_comments_are_one_line_when_they_fit_and_never_close_early() -> None:
    assert javadoc_comment("Short, with @tag and */.", 4) == "    /** Short, with &#64;tag and *&#47;. */"
    long = javadoc_comment("word " * 40, 4)
    lines = long.splitlines()
    assert lines[0] == "    /**" and lines[-1] == "     */"
    assert all(line.startswith("     * ") and len(line) <= 120 for line in lines[1:-1])


@pytest.fixture(scope="module")
def sibling(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("needs a JDK (javac, java)")
    root = tmp_path_factory.mktemp("blip-java")
    (root / "defs").mkdir()
    (root / "defs" / "blip.yaml").write_text(SIBLING, encoding="utf-8")
    out = root / "out"
    assert generate(["-p", str(root / "defs"), "-r", str(out), "-n", "blip_java_codecs", "--no-binary", "-q"]) == 0
    sources = java_sources(load_protocols(root / "defs", root), Options(namespace="blip_java_codecs"))
    classes = root / "classes"
    with zipfile.ZipFile(io.BytesIO(jar.build(sources, "test"))) as z:
        z.extractall(classes)
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("blip_java_codecs.blip"), classes
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m.split(".")[0] == "blip_java_codecs"]:
            del sys.modules[name]  # another test generates a package of its own from another definition


def _java(classes: Path, frames: list[bytes], tmp_path: Path) -> list[str]:
    harness = tmp_path / "Harness.java"
    harness.write_text(HARNESS, encoding="utf-8")
    classpath = ":".join([str(classes), *map(str, jar.classpath())])
    result = subprocess.run(
        ["java", "-cp", classpath, str(harness)],
        input="\n".join(f.hex() for f in frames) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return result.stdout.splitlines()


def test_another_binary_protocol_decodes_and_encodes_as_its_python_codec(sibling: Any, tmp_path: Path) -> None:
    codec, classes = sibling
    tag = codec.Tag(id=uuid.UUID(int=5), weight=0.5)
    good = [
        codec.encode(codec.Note(who=tag.id, mood=7, tags=[tag, tag], text="hé😀", ratio=1.5, level=2)),
        codec.encode(codec.Note(who=tag.id, mood=3, tags=[], text="", ratio=-0.0, level=1)),  # open enum: kept
        codec.encode(codec.Ping()),
    ]
    rng = random.Random(9)
    # float32 on the binary wire: 4 bytes, which both codecs read and write back alike (0.1 and 16777217 round)
    floats = [0.1, 16777217.0, 3.4028234663852886e38, 1.401298464324817e-45, -1e-40, math.inf, math.nan]
    edges = [codec.encode(codec.Note(who=tag.id, mood=0, tags=[], text="", ratio=f, level=1)) for f in floats]
    frames = list(good)
    text_at = len(good[0]) - 1 - 4 - len("hé😀".encode())  # the text's first byte
    for bad in (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe0\x80\x80", b"\xf4\x90\x80\x80", b"\xc3\x28"):
        frame = bytearray(good[0])
        frame[text_at : text_at + len(bad)] = bad
        frames.append(bytes(frame))
    for _ in range(400):
        frame = bytearray(rng.choice(good))
        for _ in range(rng.randint(1, 3)):
            frame[rng.randrange(len(frame))] = rng.randrange(256)
        frames.append(bytes(frame[: rng.randint(len(frame) - 3, len(frame))]))
    frames.append(b"\x00\x00\x00\x09\x00\x00\x00\x00")
    frames += edges
    refused = 0
    for data, line in zip(frames, _java(classes, frames, tmp_path), strict=True):
        try:
            expected = "ok " + codec.encode(codec.decode(data)).hex()
        except codec.DecodeError as exc:
            expected = f"error {exc}"
            refused += 1
        assert line == expected, data.hex()
    assert 50 < refused < len(frames)
