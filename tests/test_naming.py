"""Java names, shared by every family's Java target (naming.py)."""

from __future__ import annotations

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
