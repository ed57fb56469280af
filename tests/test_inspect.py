"""``python -m streamcodecs inspect`` on captures built from the generated vectors, the Java known-answer file,
corrupted captures, KCL/Storm stdio logs and Kafka record dumps.

Captures are built from the compatibility vectors under output/py/vectors (the bytes the reference encoders
wrote), and every expectation (message names, offsets, lengths, field values) is read from their manifests.
"""

from __future__ import annotations

import base64
import functools
import importlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from streamcodecs_gen.families.registry import family
from streamcodecs_gen.pipeline import load_protocols

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "output" / "py"
VECTORS = GENERATED / "vectors"
JAVA_KAT = REPO / "tests" / "fixtures" / "pravega" / "pravega-java-kat.txt"  # the Java known-answer vectors
CLOUDEVENTS_CASES = REPO / "tests" / "fixtures" / "cloudevents" / "conformance.json"


def inspect(*args: str, data: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(GENERATED), env.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-m", "streamcodecs", "inspect", *args],
        input=data,
        capture_output=True,
        timeout=120,
        env=env,
        check=False,
    )


def lines(result: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in result.stdout.decode("utf-8").splitlines()]


def protocols() -> list[str]:
    return list(importlib.import_module("streamcodecs").PROTOCOLS)


def module(name: str) -> Any:
    return importlib.import_module(f"streamcodecs.{name}")


def current_vectors(protocol: str) -> tuple[bytes, list[dict[str, Any]]]:
    """The vectors of a protocol's current version: the bytes and the manifest entries."""
    version = module(protocol).VERSION
    base = VECTORS / protocol / version
    manifest = json.loads((base / "manifest.json").read_text(encoding="utf-8"))
    return (base / manifest["file"]).read_bytes(), manifest["vectors"]


def has_vectors(protocol: str) -> bool:
    return (VECTORS / protocol / module(protocol).VERSION / "manifest.json").is_file()


def reads_text(protocol: str) -> bool:
    """The protocol's Reader counts lines (a text protocol) rather than bytes."""
    return hasattr(module(protocol).Reader(), "line")


def need_vectors(protocol: str) -> None:
    if not has_vectors(protocol):
        pytest.skip(f"{protocol} has no compatibility vectors (its wire family has no reference encoder yet)")


@functools.cache
def family_of(protocol: str) -> str:
    return next(p.family for p in load_protocols(REPO / "protocol-definitions", REPO) if p.name == protocol)


def by_direction(protocol: str) -> dict[str, tuple[bytes, list[dict[str, Any]]]]:
    """Per direction, a capture of the vectors sent in it (back to back) and their entries with new offsets.

    Entries are split by direction because a message may be recognised differently in another direction (a KCL
    checkpoint request and reply share their tag); inspect is then run with ``--direction``."""
    blob, entries = current_vectors(protocol)
    classes = module(protocol).MESSAGES
    captures = {}
    for direction in module(protocol).DIRECTIONS:
        data = bytearray()
        picked = []
        for entry in entries:
            if direction not in classes[entry["message"]].DIRECTIONS:
                continue
            frame = blob[entry["offset"] : entry["offset"] + entry["length"]]
            picked.append({**entry, "offset": len(data)})
            data += frame + family(family_of(protocol)).reader_suffix  # kafka: one JSON event per line
        if picked:
            captures[direction] = (bytes(data), picked)
    return captures


def untag(value: Any) -> Any:
    """A manifest value ({"$bytes": hex}, {"$uuid": ...}) as inspect prints it with ``--bytes hex``."""
    if isinstance(value, dict):
        if set(value) == {"$bytes"}:
            return value["$bytes"]
        if set(value) == {"$uuid"}:
            return value["$uuid"]
        if set(value) == {"$timestamp"}:
            return value["$timestamp"]
        return {k: untag(v) for k, v in value.items()}
    if isinstance(value, list):
        return [untag(v) for v in value]
    return value


def assert_fields(printed: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    for name, value in expected.items():
        assert name in printed, f"{where}: field {name} missing from {sorted(printed)}"
        got, want = printed[name], untag(value)
        if isinstance(want, str) and isinstance(got, str) and "T" in want and want[:4].isdigit():
            continue  # a timestamp: the manifest's isoformat and the printed one may differ in form only
        assert got == want, f"{where}: field {name}: {got!r} != {want!r}"


@pytest.fixture(scope="module", autouse=True)
def generated_package() -> None:
    if not (GENERATED / "streamcodecs" / "_runtime" / "inspect.py").is_file():
        pytest.fail("output/py has no inspect module: it is older than the templates; run ./generator.py")


@pytest.mark.parametrize("protocol", protocols())
def test_every_vector_decodes_at_its_offset_with_its_fields(protocol: str) -> None:
    need_vectors(protocol)
    for direction, (data, entries) in by_direction(protocol).items():
        result = inspect("-p", protocol, "-d", direction, "--bytes", "hex", data=data)
        assert result.returncode == 0, result.stderr.decode()
        printed = lines(result)
        assert len(printed) == len(entries)
        for item, entry in zip(printed, entries, strict=True):
            where = f"{protocol} {direction} {entry['message']} ({entry['variant']})"
            assert "error" not in item, f"{where}: {item}"
            assert item["message"] == entry["message"], where
            assert item["offset"] == entry["offset"], where
            suffix = family(family_of(protocol)).reader_suffix  # a kafka event line's newline is part of it
            assert item["length"] == entry["length"] + len(suffix), where
            assert item["protocol"] == protocol
            assert_fields(item["fields"], entry["fields"], where)


@pytest.mark.parametrize("protocol", protocols())
def test_the_protocol_is_detected_from_the_bytes(protocol: str) -> None:
    need_vectors(protocol)
    direction, (data, entries) = next(iter(by_direction(protocol).items()))
    result = inspect("-d", direction, data=data)
    assert result.returncode == 0, result.stderr.decode()
    printed = lines(result)
    assert {item["protocol"] for item in printed} == {protocol}
    assert [item["message"] for item in printed] == [e["message"] for e in entries]
    # Without a direction too: the start of the input decides.
    result = inspect(data=data)
    assert result.returncode in (0, 1), result.stderr.decode()
    assert lines(result)[0]["protocol"] == protocol


def binary_protocols() -> list[str]:
    return [p for p in protocols() if not reads_text(p)]


@pytest.mark.parametrize("protocol", binary_protocols())
def test_hex_input_is_detected_and_decoded(protocol: str) -> None:
    need_vectors(protocol)
    direction, (data, entries) = next(iter(by_direction(protocol).items()))
    text = "# a hex dump\n" + "\n".join(data[i : i + 24].hex(" ") for i in range(0, len(data), 24)) + "\n"
    result = inspect("-d", direction, data=text.encode())
    assert result.returncode == 0, result.stderr.decode()
    printed = lines(result)
    assert [(i["message"], i["offset"]) for i in printed] == [(e["message"], e["offset"]) for e in entries]
    # A line that is not hex is reported, the rest still decodes, and the exit status says so.
    result = inspect("-p", protocol, "-d", direction, "-i", "hex", data=b"zz not hex\n" + text.encode())
    assert result.returncode == 1
    printed = lines(result)
    assert any("not hex" in i.get("error", "") for i in printed)
    assert [i["message"] for i in printed if "message" in i] == [e["message"] for e in entries]


def corrupt(protocol: str) -> tuple[bytes, list[dict[str, Any]], dict[str, int]]:
    """A capture with an unknown type code in one frame, an impossible payload length in a later one, and a cut
    last frame.  Returns the bytes, the entries (with offsets) and where the damage is."""
    direction, (data, entries) = max(by_direction(protocol).items(), key=lambda kv: len(kv[1][1]))
    copies = -(-8 // len(entries))  # a small protocol's vectors, repeated until there are enough frames to damage
    entries = [{**e, "offset": e["offset"] + i * len(data)} for i in range(copies) for e in entries]
    data *= copies
    d = bytearray(data)
    unknown, broken = entries[2], entries[len(entries) // 2]
    codes = {cls.CODE for cls in module(protocol).MESSAGES.values()}
    bad_code = next(c for c in range(1000, 100000) if c not in codes)
    d[unknown["offset"] : unknown["offset"] + 4] = bad_code.to_bytes(4, "big", signed=True)
    d[broken["offset"] + 4 : broken["offset"] + 8] = (0x7FFFFFF0).to_bytes(4, "big")
    last = entries[-1]
    cut = last["offset"] + max(1, last["length"] // 2)
    return bytes(d[:cut]), entries, {"unknown": unknown["offset"], "broken": broken["offset"], "cut": last["offset"]}


@pytest.mark.parametrize("protocol", binary_protocols())
def test_a_corrupted_capture_reports_offsets_and_goes_on(protocol: str) -> None:
    need_vectors(protocol)
    data, entries, damage = corrupt(protocol)
    result = inspect("-p", protocol, data=data)
    assert result.returncode == 1, result.stderr.decode()
    printed = lines(result)
    errors = [i for i in printed if "error" in i]
    decoded = {i["offset"]: i for i in printed if "message" in i}
    assert [e["offset"] for e in errors] == [damage["unknown"], damage["broken"], damage["cut"]], errors
    assert "type code" in errors[0]["error"]
    assert errors[0]["length"] == entries[2]["length"]  # the bad frame is skipped whole
    assert "skipped" in errors[1]["error"]
    assert errors[2]["length"] == len(data) - damage["cut"]
    # Every frame before the first damage, between the two, and after the resynchronisation point decodes.
    resumed = damage["broken"] + errors[1]["length"]
    for entry in entries:
        offset = entry["offset"]
        if offset in (damage["unknown"], damage["broken"], damage["cut"]) or damage["broken"] < offset < resumed:
            continue
        assert offset in decoded, f"frame at {offset} ({entry['message']}) was not decoded after the damage"
        assert decoded[offset]["message"] == entry["message"]
        assert decoded[offset]["length"] == entry["length"]
    following = next(e["offset"] for e in entries if e["offset"] > damage["broken"])
    assert resumed <= following, "resynchronisation skipped a readable frame"
    assert resumed in decoded or resumed == damage["cut"]
    assert f"{protocol}: " in result.stderr.decode() and " bad" in result.stderr.decode()


@pytest.mark.parametrize("protocol", binary_protocols())
def test_results_do_not_depend_on_how_the_input_is_cut(protocol: str, monkeypatch: pytest.MonkeyPatch) -> None:
    need_vectors(protocol)
    data, _, _ = corrupt(protocol)
    runtime = importlib.import_module("streamcodecs._runtime.inspect")
    traffic = importlib.import_module("streamcodecs._runtime.traffic")  # where the input is read in chunks
    args = runtime.parser().parse_args(["-p", protocol])

    def run(chunk: int) -> list[dict[str, Any]]:
        monkeypatch.setattr(traffic, "CHUNK", chunk)
        found: list[dict[str, Any]] = []
        runtime.decode_all(io.BytesIO(data), args, lambda p, item: found.append(runtime.as_json(item, p, bytes.hex)))
        return found

    whole = run(1 << 20)
    assert any("error" in i for i in whole)
    for chunk in (1, 7, 64):
        assert run(chunk) == whole, f"different results when the input arrives {chunk} bytes at a time"


def test_the_java_known_answer_vectors_decode() -> None:
    titles: list[str] = []
    frames: list[str] = []  # per entry, the hex
    batch_frames: list[int] = []
    for line in JAVA_KAT.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            titles.append(line[4:])
            batch_frames.append(0)
        elif line.startswith("  frame "):
            batch_frames[-1] += 1
        elif line and not line.startswith(("#", " ", "decoded:")):
            frames.append(line.strip())
    assert len(frames) == len(titles) > 0
    capture = "\n".join(frames) + "\n"
    result = inspect("-p", "pravega", data=capture.encode())
    assert result.returncode == 0, result.stderr.decode()
    printed = lines(result)
    assert all("error" not in i for i in printed)
    assert len(printed) == sum(max(1, n) for n in batch_frames)
    offset = 0
    for title, hex_text, count in zip(titles, frames, batch_frames, strict=True):
        here = [i for i in printed if offset <= i["offset"] < offset + len(hex_text) // 2]
        assert sum(i["length"] for i in here) == len(hex_text) // 2, title
        if count == 0:
            assert len(here) == 1 and title.startswith(here[0]["message"]), (title, here)
        else:
            assert len(here) == count, title
        offset += len(hex_text) // 2
    # Auto-detection picks hex input and the protocol.
    assert lines(inspect(data=capture.encode())) == printed


def text_protocols() -> list[str]:
    return [p for p in protocols() if reads_text(p)]


@pytest.mark.parametrize("protocol", text_protocols())
def test_a_stdio_log_with_bad_messages(protocol: str) -> None:
    """A KCL or Storm stdio log: bad messages are reported with their line and byte offset, the rest decodes."""
    need_vectors(protocol)
    direction, (data, entries) = max(by_direction(protocol).items(), key=lambda kv: len(kv[1][1]))
    first = entries[0]
    # A bad JSON message after the first message, an unknown one before the last (both at the end when they are
    # fewer than three).
    after_first = entries[1]["offset"] if len(entries) > 1 else len(data)
    before_last = entries[-1]["offset"] if len(entries) > 2 else len(data)
    head = data[:after_first]
    terminator = data[first["offset"] : first["offset"] + first["length"]][-5:]
    ends_with_end_line = terminator == b"\nend\n"
    bad_json = b'{"not json\n' + (b"end\n" if ends_with_end_line else b"")
    unknown = b'{"zzz": 1}\n' + (b"end\n" if ends_with_end_line else b"")
    log = head + bad_json + data[after_first:before_last] + unknown + data[before_last:]
    result = inspect("-p", protocol, "-d", direction, data=log)
    assert result.returncode == 1, result.stderr.decode()
    printed = lines(result)
    errors = [i for i in printed if "error" in i]
    assert len(errors) == 2, errors
    assert errors[0]["offset"] == len(head)
    assert errors[1]["offset"] == len(bad_json) + before_last
    assert errors[0]["line"] == head.count(b"\n") + 1
    for error in errors:  # the offset is where the reported line starts
        assert error["offset"] == 0 or log[error["offset"] - 1 : error["offset"]] == b"\n"
    # A bad message's length and where in it the codec found the problem (they were left out for text protocols).
    assert [e["length"] for e in errors] == [len(bad_json), len(unknown)]
    for error in errors:
        if "error_offset" in error:
            assert error["offset"] <= error["error_offset"] < error["offset"] + error["length"], error
    assert any("error_offset" in e for e in errors), errors
    names = [i["message"] for i in printed if "message" in i]
    assert names == [e["message"] for e in entries]
    pretty = inspect("-p", protocol, "-d", direction, "--pretty", data=log)
    assert pretty.returncode == 1
    rows = pretty.stdout.decode().splitlines()
    assert len(rows) == len(printed) + 1  # a header, then one row per message or error
    assert sum("  !! " in row for row in rows) == 2


def test_kafka_records_decode_from_a_topic_dump() -> None:
    carriers = [p for p in protocols() if hasattr(module(p), "from_kafka") and hasattr(module(p), "KafkaRecord")]
    if not carriers:
        pytest.skip("no protocol in output/py is carried in Kafka records yet")
    if not CLOUDEVENTS_CASES.is_file():
        pytest.skip("the conformance fixture of the Kafka binding is missing")
    cases = json.loads(CLOUDEVENTS_CASES.read_text(encoding="utf-8"))
    dump = []
    for case in cases:
        record = {"headers": case["headers"], "key": case["key"], "value": case["value"]}
        if case.get("value_encoding") == "base64":
            record["value_encoding"] = "base64"
        dump.append(json.dumps(record))
    # kcat -J style: flat header list and "payload"
    dump.append(
        json.dumps(
            {
                "topic": "t",
                "partition": 0,
                "headers": ["ce_specversion", "1.0", "ce_id", "x", "ce_source", "/s", "ce_type", "t"],
                "key": "k",
                "payload": "hello",
            }
        )
    )
    dump.append(json.dumps({"headers": [["ce_specversion", "1.0"]], "key": None, "value": "x"}))  # no id
    dump.append("not a record")
    data = ("\n".join(dump) + "\n").encode()
    result = inspect(data=data)
    assert result.returncode == 1, result.stderr.decode()
    printed = lines(result)
    assert len(printed) == len(dump)
    assert all("message" in i for i in printed[: len(cases) + 1]), [i for i in printed if "error" in i]
    assert printed[len(cases)]["key"] == base64.b64encode(b"k").decode()
    assert printed[len(cases)]["fields"]["data"] == base64.b64encode(b"hello").decode()
    assert [i["line"] for i in printed[-2:]] == [len(dump) - 1, len(dump)]
    assert all("error" in i for i in printed[-2:])
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    assert [i["offset"] for i in printed] == starts[: len(dump)]
    # every line's length, the bad records' too (docs/inspect.md: "where the message (or bad frame) is")
    assert [i["length"] for i in printed] == [b - a for a, b in zip(starts, starts[1:], strict=False)]


def test_usage_errors_and_empty_input() -> None:
    assert inspect("-p", "no_such_protocol", data=b"\x00" * 16).returncode == 2
    result = inspect(data=b"\x01\x02 definitely nothing \xff\xfe" * 10)
    assert result.returncode == 2 and b"--protocol" in result.stderr
    empty = inspect(data=b"")
    assert empty.returncode == 0 and empty.stdout == b""
    listed = inspect("--list")
    assert listed.returncode == 0
    assert [line.split(":")[0] for line in listed.stdout.decode().splitlines()] == protocols()
    assert inspect("-p", protocols()[0], "-d", "no_such_direction", data=b"{}\n").returncode == 2


def test_when_no_protocol_decodes_each_says_why() -> None:
    """One bad KCL line: every protocol's first refusal is listed, KCL's naming the field, so the user sees which
    protocol came closest instead of only being told to choose one."""
    result = inspect(data=b'{"action":"bogus"}\n')
    assert result.returncode == 2
    reasons = dict(
        line.strip().split(": ", 1) for line in result.stderr.decode().splitlines()[1:] if line.startswith("  ")
    )
    assert sorted(reasons) == protocols()
    assert "field action" in reasons["kcl"] and "bogus" in reasons["kcl"]


def test_counts_read_as_english() -> None:
    """The summary and ``--list`` say ``1 message``, not ``1 messages`` (CloudEvents has one message kind)."""
    frame = module("kcl").encode(module("kcl").ShutdownRequested())
    one = inspect("-p", "kcl", data=frame)
    assert one.returncode == 0 and one.stderr.decode().strip() == "kcl: 1 message, 0 bad"
    two = inspect("-p", "kcl", data=frame * 2)
    assert two.stderr.decode().strip() == "kcl: 2 messages, 0 bad"
    listed = {line.split(":")[0]: line for line in inspect("--list").stdout.decode().splitlines()}
    for name in protocols():
        count = len(module(name).MESSAGES)
        assert f", {count} message{'' if count == 1 else 's'}, " in listed[name], listed[name]


def test_an_unknown_command_is_named() -> None:
    """``python -m streamcodecs inspcet`` printed the usage alone: the command it did not know is named first."""
    result = subprocess.run(
        [sys.executable, "-m", "streamcodecs", "inspcet"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert result.stderr.startswith("error: unknown command 'inspcet'; expected one of ('inspect',)\nusage: ")
    bare = subprocess.run(
        [sys.executable, "-m", "streamcodecs"], capture_output=True, text=True, timeout=60, check=False
    )
    assert bare.returncode == 2 and bare.stderr.startswith("usage: ")


def test_a_bad_line_says_where_in_it_the_problem_is() -> None:
    """KCL's codec names the offset of the tag it refuses; the inspector names it in the input."""
    good = module("kcl").encode(module("kcl").ShutdownRequested())
    bad = b'{"action":"nope"}\n'
    result = inspect("-p", "kcl", data=good + bad)
    error = lines(result)[1]
    assert (error["offset"], error["length"], error["field"]) == (len(good), len(bad), "action")
    assert (good + bad)[error["error_offset"] :].startswith(b'"nope"'), error
    cut = inspect("-p", "kcl", data=good + bad[:-5])  # the input ends inside a message: its bytes are its length
    assert lines(cut)[1]["length"] == len(bad) - 5
