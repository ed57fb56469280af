"""A short sample of the differential fuzzer (fuzz/differential.py): the Java codec, called directly through every
Spark function's UDF class, and the Python codec (the Spark functions' Python path) decide every input alike, with
the same values and the same error texts (a JSON syntax error's wording aside). The long run is one command (see
the README): ``.venv/bin/python fuzz/differential.py``.
"""

from __future__ import annotations

import base64
import json
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
COUNT = 2000
"""Inputs per protocol: enough for the aimed inputs to meet each class once found to disagree (on the codecs before
the 1e400 rule, this sample finds 14 storm decode disagreements; at 300 it found 2), in a few seconds of CPU."""
PROTOCOLS = [
    "cloudevents",
    "kcl",
    "pravega",
    "storm",
]

pytestmark = [
    pytest.mark.spark,  # a JVM (the Java codecs), though no Spark session
    pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK (javac, java)"),
]


@pytest.fixture(scope="module")
def sample() -> str:
    result = subprocess.run(
        [sys.executable, str(REPO / "fuzz" / "differential.py"), "--count", str(COUNT), "--seed", "28", "--show", "3"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert "disagreements in all" in result.stdout, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_both_codecs_decide_a_sample_alike(sample: str, protocol: str) -> None:
    found = re.search(rf"^{protocol}: (\d+) inputs, (\d+) disagreements", sample, re.M)
    assert found, sample
    inputs, disagreements = map(int, found.groups())
    assert inputs >= COUNT - 1
    assert disagreements == 0, sample


# ---------------------------------------------------------------- hand-built inputs of classes the sample rarely meets


@pytest.fixture(scope="module")
def harness() -> Iterator[tuple[Any, dict[str, Any]]]:
    """The fuzzer's two sides (its ``Java`` process and its ``Run``), for inputs built here by hand."""
    sys.path.insert(0, str(REPO / "fuzz"))
    import differential  # noqa: PLC0415 - fuzz/ is put on the path just above
    from entries import load  # noqa: PLC0415

    protocols = {name: load(name) for name in ("cloudevents", "storm")}
    java = differential.Java(REPO / "output" / "py", "streamcodecs", list(protocols.values()))
    try:
        yield differential, {"java": java, **protocols}
    finally:
        java.close()


def _answers(harness: tuple[Any, dict[str, Any]], protocol: str, entry: str, cases: list[list[Any]]) -> list[Any]:
    """Both sides' answers to ``cases``; fails on any disagreement."""
    differential, sides = harness
    run = differential.Run(sides[protocol], sides["java"], random.Random(0), 500)
    answers = run.compare(differential._entry(sides[protocol], entry), cases)
    assert not run.disagreements, run.disagreements[:3]
    return answers


_EVENT = '{"specversion":"1.0","id":"1","source":"/s","type":"t","time":"%s"}'
_OUT_OF_RANGE = "is outside the years 0001 to 9999 (UTC)"


@pytest.mark.parametrize(
    "time",
    ["0001-01-01T00:00:00+00:01", "0001-01-01T00:59:59.999999+01:00", "9999-12-31T23:59:59-00:01"],
)
def test_a_time_whose_offset_puts_it_outside_the_years_0001_to_9999_is_refused_alike_on_decode(
    harness: tuple[Any, dict[str, Any]], time: str
) -> None:
    """Before, the JVM path gave Spark a TIMESTAMP before 0001 or after 9999 (outside Spark's range) and the Python
    path the same micros, which no Python datetime can read back (collect() failed): both refuse it now, in the
    structured and the binary mode alike."""
    document = (_EVENT % time).encode()
    (decoded,) = _answers(harness, "cloudevents", "decode", [[{"b": base64.b64encode(document).decode()}]])
    assert decoded[0] is None and "`CloudEvent.time`: not representable in Spark" in decoded[-1]
    assert _OUT_OF_RANGE in decoded[-1]
    headers = [("ce_specversion", b"1.0"), ("ce_id", b"1"), ("ce_source", b"/s"), ("ce_type", b"t")]
    headers.append(("ce_time", time.encode()))
    binary = [None, [k for k, _ in headers], [{"b": base64.b64encode(v).decode()} for _, v in headers]]
    (record,) = _answers(harness, "cloudevents", "from_kafka", [binary])
    assert record[2] is None and _OUT_OF_RANGE in record[-1]


@pytest.mark.parametrize("micros", [-62135596800000001, 253402300800000000, -(2**63), 2**63 - 1])
def test_a_time_spark_holds_outside_the_years_0001_to_9999_is_refused_alike_on_encode(
    harness: tuple[Any, dict[str, Any]], micros: int
) -> None:
    """Before, the JVM path wrote such a time as 0000-12-31T23:59:59.999999Z or 10000-01-01T00:00:00Z (texts no
    RFC 3339 reader, its own included, takes) and the Python path threw OverflowError (the job failed)."""
    event = ["1.0", "1", "/s", "t", None, None, None, {"t": micros}, None, {"m": []}, None]
    for entry in ("to_kafka_binary", "to_kafka_structured"):
        (answer,) = _answers(harness, "cloudevents", entry, [[event]])
        assert answer[-1] == f"`time`: the instant {micros} microseconds from 1970-01-01T00:00:00Z {_OUT_OF_RANGE}"
    (encoded,) = _answers(harness, "cloudevents", "encode", [[["CloudEvent", event, None]]])
    assert encoded[0] is None and _OUT_OF_RANGE in encoded[-1]


@pytest.mark.parametrize("depth", [999, 1000, 1001, 1500])
def test_a_variant_nested_past_the_limit_by_itself_is_refused_as_the_whole_message_alike(
    harness: tuple[Any, dict[str, Any]], depth: int
) -> None:
    """Before, a VARIANT nested deeper than the limit by itself was refused at its own path on the JVM path
    ("Emit.values[0]: malformed JSON: nested too deeply", Jackson refusing it on reading) but as the whole message
    on the Python path ("Emit: ..."), as both refuse one the message's own levels put over it."""
    _, sides = harness
    names = sides["storm"].spark.DECODED.names
    emit = [None] * len(names)
    emit[0] = "Emit"
    deep = {"v": "[" * depth + "]" * depth}
    emit[names.index("emit")] = [[deep], [], None, "s", None, True]
    (encoded,) = _answers(harness, "storm", "encode", [[emit]])
    assert encoded == [None, "Emit: malformed JSON: nested too deeply"]
    # and only after the problems of the message's other fields, as the Python codec checks them first
    later = [*emit[:-1], None]
    later[names.index("emit")] = [[deep], [], None, "s", None, None]
    (encoded,) = _answers(harness, "storm", "encode", [[later]])
    assert encoded == [None, "Emit.need_task_ids: Expected `bool`, got `null`"]


def test_a_text_in_a_refusal_is_shown_as_python_3_11_shows_it_alike(harness: tuple[Any, dict[str, Any]]) -> None:
    """A refusal shows a text as Python's repr does, escaping what Python does not print. The Java side read its
    JDK's Unicode tables (Unicode 13 in JDK 17), so U+1FAF2 (Unicode 14), which Python prints, was escaped there
    (the fuzzer met it in a Storm tag); it reads Python's own runs now (the generated PythonPrintable). Every
    code point on either side of each run's edge is shown, 64 to a tag (surrogates aside: JSON text cannot hold
    them alone)."""
    from streamcodecs_gen.analysis.runtime import printable_runs  # noqa: PLC0415

    runs = printable_runs()
    edges = sorted({c for start in runs for c in (start - 1, start) if 0 <= c < 0x110000 and not 0xD800 <= c < 0xE000})
    texts = ["x\U0001faf2y", *["".join(chr(c) for c in edges[i : i + 64]) for i in range(0, len(edges), 64)]]
    cases = [[{"b": base64.b64encode(json.dumps({"command": t}).encode()).decode()}, "to_storm"] for t in texts]
    answers = _answers(harness, "storm", "decode", cases)
    for text, answer in zip(texts, answers, strict=True):
        assert repr(text) in answer[-1], (text, answer[-1])
