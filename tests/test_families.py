"""The family registry and its typed framing configurations."""

from __future__ import annotations

from pathlib import Path

import pytest

from streamcodecs_gen import java_sources, target_md, target_py
from streamcodecs_gen.families.framing import BinaryFraming, JsonFraming, KafkaFraming, build
from streamcodecs_gen.families.registry import FAMILIES, family
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.vectors import manifest

ROOT = Path(__file__).resolve().parent.parent


def test_every_schema_family_is_registered() -> None:
    import json

    schema = json.loads((ROOT / "schema" / "protocol-schema.json").read_text())
    assert set(FAMILIES) == set(schema["properties"]["family"]["enum"])


def test_protocols_carry_typed_framing() -> None:
    protocols = {p.name: p for p in load_protocols(ROOT / "protocol-definitions", ROOT)}
    assert isinstance(protocols["pravega"].framing, BinaryFraming)
    assert protocols["pravega"].framing.code_type == "int32"
    storm = protocols["storm"].framing
    assert isinstance(storm, JsonFraming)
    assert storm.delimiter == "end_line" and [v.encoding for v in storm.variants] == ["msgpack"]
    cloudevents = protocols["cloudevents"].framing
    assert isinstance(cloudevents, KafkaFraming)
    assert cloudevents.structured.formats[0].name == "json"
    assert [m.attribute for m in cloudevents.key.mappers] == ["partitionkey"]
    assert family("json").variants(storm) == storm.variants
    assert family("binary").variants(protocols["pravega"].framing) == family("kafka").variants(cloudevents) == []


def test_optional_framing_keys_take_defaults() -> None:
    framing = family("json").framing({"delimiter": "line", "tag_key": "action"})
    assert framing == JsonFraming("line", "action")
    assert framing.max_message is None and framing.escape_hex is None and framing.variants == []


def test_a_key_the_dataclass_lacks_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="delimeter"):
        build(JsonFraming, {"delimeter": "line", "tag_key": "action"})


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_stage_has_its_part_of_a_family_and_its_templates_exist(name: str) -> None:
    """Each later stage keeps its own table keyed by the family: the py target (messages and Spark templates), the
    Markdown and Java targets (optional: a family without them is documented generically, and has no Java), and the
    vectors (the reference encoder)."""
    python = target_py.FAMILIES[name]
    templates = [python.messages, python.spark]
    if name in target_md.FAMILIES:
        templates.append(target_md.FAMILIES[name].template)
    if name in java_sources.FAMILIES:
        templates += java_sources.FAMILIES[name].templates
    for template in templates:
        assert template is None or (ROOT / "templates" / template).is_file(), template
    encoder = manifest.REFERENCES[name].encoder
    assert encoder.__module__ == f"streamcodecs_gen.vectors.{name}_ref"


def test_the_stages_tables_name_registered_families_only() -> None:
    for table in (target_py.FAMILIES, target_md.FAMILIES, java_sources.FAMILIES, manifest.REFERENCES):
        assert set(table) <= set(FAMILIES)
    assert set(target_py.FAMILIES) == set(FAMILIES)  # every family has a Python codec


def test_only_kafka_readers_read_a_suffix_and_kafka_vectors_list_records() -> None:
    assert {n: f.reader_suffix for n, f in FAMILIES.items()} == {"binary": b"", "json": b"", "kafka": b"\n"}
    assert {n: r.records for n, r in manifest.REFERENCES.items()} == {"binary": False, "json": False, "kafka": True}
