"""Java names, shared by every family's Java target (naming.py)."""

from __future__ import annotations

import re
from pathlib import Path

from streamcodecs_gen.naming import JAVA_KEYWORDS, java_camel, java_safe


def test_java_camel_case_from_python_names() -> None:
    assert java_camel("shard_id") == "shardId"
    assert java_camel("millis_behind_latest") == "millisBehindLatest"
    assert java_camel("requestId") == "requestId"  # already camel case


def test_a_keyword_a_method_every_object_has_or_a_taken_name_gets_field_appended() -> None:
    assert {"class", "null", "record", "var"} <= JAVA_KEYWORDS
    assert java_safe("class") == "classField" and java_safe("null") == "nullField"
    assert java_safe("hashCode") == "hashCodeField"  # a record component of that name would clash
    assert java_safe("p", frozenset({"p"})) == "pField" and java_safe("p") == "p"
    assert java_safe(java_camel("default_value")) == "defaultValue"


def test_the_module_constants_a_protocol_constant_may_not_take_are_every_one_a_module_defines() -> None:
    """Each generated messages module's own upper-case names (its definition's constants aside) are listed in
    PYTHON_MODULE_CONSTANTS, which the checks refuse as a constant's name: a template's new one is listed too."""
    import importlib

    from streamcodecs_gen.naming import PYTHON_MODULE_CONSTANTS
    from streamcodecs_gen.pipeline import load_protocols

    repo = Path(__file__).resolve().parent.parent
    protocols = load_protocols(repo / "protocol-definitions", repo)
    defined: set[str] = set()
    for protocol in protocols:
        module = importlib.import_module(f"streamcodecs.{protocol.name}.messages")
        own = {c.name for c in protocol.constants}
        defined |= {name for name in vars(module) if re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and name not in own}
    assert defined == PYTHON_MODULE_CONSTANTS
