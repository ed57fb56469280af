"""The Kafka family's text patterns (``streamcodecs_gen/patterns.py``) are written once, on the generator's side, and
both runtimes apply them: the Python runtime's rendered ``_runtime/kafkapatterns.py`` and the Java codec's
``KafkaWire`` (its constructor's arguments in the generated ``Codec.java``)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from streamcodecs_gen import patterns
from streamcodecs_gen.patterns import PATTERNS, java_patterns, java_regex, python_literal

REPO = Path(__file__).resolve().parent.parent
CODEC = REPO / "output" / "java" / "src" / "streamcodecs" / "cloudevents" / "Codec.java"


def _pattern(held: object) -> re.Pattern[str]:
    return held if isinstance(held, re.Pattern) else held.__self__  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: p.name)
def test_the_rendered_module_and_the_runtime_at_source_hold_the_pattern(pattern: patterns.TextPattern) -> None:
    rendered = importlib.import_module("streamcodecs._runtime.kafkapatterns")
    for module in (rendered, patterns.patterns_at_source()):
        held = getattr(module, pattern.name)
        assert _pattern(held).pattern == pattern.regex
        assert (held is _pattern(held)) is not pattern.whole  # a whole-text pattern is held as its fullmatch
    assert rendered.__all__ == [p.name for p in PATTERNS]


def test_the_java_codec_is_given_the_same_patterns() -> None:
    """The constructor's arguments in the generated Codec.java, joined, are the Java form of each pattern, in the
    order KafkaWire takes them."""
    text = CODEC.read_text(encoding="utf-8")
    call = text[text.index("new KafkaWire(") : text.index(");", text.index("new KafkaWire("))]
    pieces = re.findall(r'"((?:[^"\\]|\\.)*)"', call)
    joined = "".join(bytes(p, "ascii").decode("unicode_escape") for p in pieces)
    assert joined == "".join(java_patterns().values())
    # ... and the hand-written KafkaRules, which compiles them, takes them by these names in this order
    rules = (REPO / "streamcodecs_gen/java_runtime/streamcodecs/runtime/KafkaRules.java").read_text(encoding="utf-8")
    constructor = rules[rules.index("protected KafkaRules(") : rules.index(")", rules.index("protected KafkaRules("))]
    assert re.findall(r"String (\w+)", constructor) == list(java_patterns())
    assert "canonicalInteger" in java_patterns()  # (the canonical-integer rule too: no hand loop in Java)


def test_java_reads_a_supplementary_escape_in_its_own_syntax() -> None:
    assert java_regex(r"[\ufffe\U0010FFFF]") == r"[\ufffe\x{10FFFF}]"


@pytest.mark.parametrize(
    "regex",
    [p.regex for p in PATTERNS] + [r"a'b\"c", "\\\\", "x" * 300, r"[\x00-\x1f]'\"\\" * 40, "é\n\t", ""],
)
def test_the_python_literals_are_the_pattern(regex: str) -> None:
    literals = python_literal(regex)
    assert "".join(eval(literal) for literal in literals) == regex
    assert all(len(literal) <= 100 for literal in literals)
