"""The kafka family as a definition format: its checks (one test per rule, each fails if the rule is removed) and
proof that the family template holds nothing CloudEvents-specific: a sibling protocol with other header names,
prefix, media types, naming rules and JSON members is generated from YAML alone and works.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from definition_problems import problems_after, problems_for

from streamcodecs_gen.cli import main as generate

REPO = Path(__file__).resolve().parent.parent

# A sibling of CloudEvents: everything the family template reads from `framing` has another value here.
ACME = """\
protocol: acme
title: Acme events
family: kafka
versions: ["2"]
directions: [{name: record}]
framing:
  attribute_names: {pattern: "[a-z][a-z0-9_]*", reserved: [payload, kind]}
  headers: {charset: utf-8, value_encoding: canonical, value_escape: none, match: ascii_case_insensitive,
            duplicates: last, null_value: error, other: keep}
  key:
    encode: caller
    decode: caller
    mappers: [{name: by_tenant, attribute: tenant, encoding: utf-8}]
  detection: {header: x-acme-mime, structured_prefix: application/vnd.acme, otherwise: binary, unknown_format: error}
  payload: {field: body, content_type_attribute: mime}
  binary:
    attribute_prefix: acme.
    attribute_headers: {mime: x-acme-mime, event_id: x-acme-id}
    no_data: null_value
    empty_value: empty_data
    implied_content_type: application/json
    text_charsets: [utf-8]
  structured:
    formats: [{name: json, media_type: application/vnd.acme.event+json, content_type: application/vnd.acme.event+json,
               charsets: [utf-8]}]
    prefixed_headers: ignore
    null_value: error
  json_format:
    data_member: payload
    data_base64_member: payload_bin
    json_data: {subtypes: [json, x-json], suffixes: ["+json"], implied: text/plain}
    null_member: absent
    encode: {member_order: fields, separators: compact, ascii_only: false}
    batch: unsupported
messages:
  - name: Envelope
    directions: [record]
    fields:
      - {name: version, type: string, const: "2"}
      - {name: event_id, type: string, min_length: 3}
      - {name: origin, type: uri}
      - {name: tenant, type: string, optional: true, min_length: 1}
      - {name: mime, type: media_type, optional: true}
      - {name: urgent, type: bool, optional: true}
      - {name: attempts, type: int16, optional: true}
      - {name: at, type: timestamp, optional: true}
      - {name: body, type: payload, optional: true, nullable: true}
"""

FORBIDDEN_IN_OUTPUT = (
    "ce_",
    "cloudevents",
    "CloudEvent",
    "datacontenttype",
    "data_base64",
    "specversion",
    "partitionkey",
    "content-type",
    "application/json;",
)


@pytest.fixture(scope="module")
def acme(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("acme")
    defs = root / "defs"
    defs.mkdir()
    (defs / "acme.yaml").write_text(ACME, encoding="utf-8")
    out = root / "out"
    assert generate(["-p", str(defs), "-r", str(out), "-n", "acme_codecs", "--no-binary", "-q"]) == 0
    sys.path.insert(0, str(out))
    try:
        yield out, importlib.import_module("acme_codecs.acme")
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n.startswith("acme_codecs")]:
            del sys.modules[name]


def test_sibling_output_has_nothing_of_cloudevents(acme) -> None:
    out, _ = acme
    text = (out / "acme_codecs" / "acme" / "messages.py").read_text(encoding="utf-8")
    for word in FORBIDDEN_IN_OUTPUT:
        assert word not in text, word
    template = (REPO / "templates" / "py" / "kafka" / "messages.py.j2").read_text(encoding="utf-8")
    # Jinja expressions name definition keys (json.data_base64_member); the text around them must name nothing.
    template = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", "", template, flags=re.S)
    for word in FORBIDDEN_IN_OUTPUT:
        assert word not in template, word


def test_sibling_output_is_ruff_clean(acme) -> None:
    out, _ = acme
    for command in (["check", "--no-cache", str(out)], ["format", "--check", "--no-cache", str(out)]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *command], capture_output=True, text=True, timeout=120, check=False, cwd=out
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_sibling_binary_mode(acme) -> None:
    _, m = acme
    e = m.Envelope(
        event_id="e-1",
        origin="https://acme.example/x",
        tenant="t1",
        mime="application/x-json",
        urgent=True,
        attempts=-3,
        body={"a": 1},
    )
    record = m.to_kafka(e, key_mapper="by_tenant")
    assert record.key == b"t1"
    assert record.headers == [
        ("acme.version", b"2"),
        ("x-acme-id", b"e-1"),
        ("acme.origin", b"https://acme.example/x"),
        ("acme.tenant", b"t1"),
        ("x-acme-mime", b"application/x-json"),
        ("acme.urgent", b"true"),
        ("acme.attempts", b"-3"),
    ]
    assert record.value == b'{"a":1}'
    back = m.from_kafka(m.KafkaRecord(None, record.value, [(n.upper(), v) for n, v in record.headers]))
    assert back.urgent is True and back.attempts == -3 and back.json_data() == {"a": 1}
    with pytest.raises(m.DecodeError, match="unknown attribute 'other'"):  # no `additional` map here
        m.from_kafka(m.KafkaRecord(None, None, [*record.headers, ("acme.other", b"x")]))
    with pytest.raises(m.DecodeError, match="goes in the 'x-acme-id' header"):
        m.from_kafka(m.KafkaRecord(None, None, [*record.headers, ("acme.event_id", b"x")]))
    for header, value, field in [
        ("acme.attempts", b"40000", "attempts"),
        ("acme.urgent", b"True", "urgent"),
        ("x-acme-id", b"ab", "event_id"),
        ("acme.version", b"1", "version"),
    ]:
        bad = [(n, value if n == header else v) for n, v in record.headers]
        with pytest.raises(m.DecodeError) as info:
            m.from_kafka(m.KafkaRecord(None, None, bad))
        assert info.value.field == field


def test_sibling_structured_mode_and_json_members(acme) -> None:
    _, m = acme
    e = m.Envelope(event_id="e-1", origin="urn:x", body=b"\x00")
    record = m.to_kafka(e, "structured")
    assert record.headers == [("x-acme-mime", b"application/vnd.acme.event+json")]
    assert record.value == b'{"version":"2","event_id":"e-1","origin":"urn:x","payload_bin":"AA=="}'
    assert m.content_mode(record) == "structured"
    assert m.from_kafka(record) == e
    # implied: text/plain, so a payload without a type must be a string here, unlike CloudEvents.
    with pytest.raises(m.DecodeError, match="must be a JSON string"):
        m.from_json(b'{"version":"2","event_id":"e-1","origin":"urn:x","payload":{"a":1}}')
    assert m.from_json(b'{"version":"2","event_id":"e-1","origin":"urn:x","payload":"t"}').body == "t"
    with pytest.raises(m.DecodeError, match="mutually exclusive"):
        m.from_json(b'{"version":"2","event_id":"e-1","origin":"urn:x","payload":"t","payload_bin":"AA=="}')
    with pytest.raises(m.DecodeError, match="unknown member 'x'"):
        m.from_json(b'{"version":"2","event_id":"e-1","origin":"urn:x","x":1}')
    bad = m.KafkaRecord(None, record.value, [("X-Acme-Mime", b"application/vnd.acme.other")])
    with pytest.raises(m.DecodeError, match="not a supported event format"):
        m.from_kafka(bad)
    assert m.VERSION == "2" and m.MESSAGES == {"Envelope": m.Envelope}


# --- the checks ----------------------------------------------------------------------------------------------------


def test_the_sibling_and_cloudevents_are_valid(tmp_path: Path) -> None:
    assert problems_for(tmp_path, ACME) == []
    text = (REPO / "protocol-definitions" / "cloudevents.yaml").read_text(encoding="utf-8")
    assert problems_for(tmp_path, text) == []


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "{name: attempts, type: int16, optional: true}",
            "{name: attempts, type: int16, optional: true, min_length: 1}",
            "min_length is for text fields",
        ),
        (
            "{name: urgent, type: bool, optional: true}",
            "{name: urgent, type: bool, optional: true, additional: true}",
            "`additional` is for a map<string,T> field of a kafka message",
        ),
        (
            "      - {name: at, type: timestamp, optional: true}\n",
            "      - {name: more, type: 'map<string,attribute_value>', additional: true}\n"
            "      - {name: other, type: 'map<string,attribute_value>', additional: true}\n",
            "more than one `additional` field",
        ),
        ("  payload: {field: body,", "  payload: {field: tenant,", "must name the one field of type payload"),
        (
            "content_type_attribute: mime}",
            "content_type_attribute: mimetype}",
            "framing names attribute 'mimetype', which is not a declared attribute",
        ),
        (
            "{mime: x-acme-mime, event_id: x-acme-id}",
            "{mime: x-acme-mime, event: x-acme-id}",
            "framing names attribute 'event'",
        ),
        ("attribute: tenant, encoding", "attribute: tennant, encoding", "framing names attribute 'tennant'"),
        ("{header: x-acme-mime,", "{header: x-acme-type,", "framing.detection.header must be the binary-mode header"),
        ("{name: origin, type: uri}", "{name: Origin, type: uri}", "not a valid attribute name"),
        ("{name: origin, type: uri}", "{name: kind, type: uri}", "not a valid attribute name"),
        (
            "{name: urgent, type: bool, optional: true}",
            "{name: urgent, type: 'list<bool>', optional: true}",
            "kafka attributes have wire types",
        ),
        ("messages:\n", "messages:\n  - {name: Second, directions: [record], fields: []}\n", "exactly one message"),
        ("    batch: unsupported\n", "    batch: unsupported\n  tag_key: x\n", "unknown key"),
        ("  payload: {field: body, content_type_attribute: mime}\n", "", "framing: `payload` is missing"),
        ("value_escape: none", "value_escape: http_percent", "is not allowed"),
        # (it was "framing.binary, an item of text_charsets #1")
        ("text_charsets: [utf-8]", "text_charsets: [latin-1]", 'framing.binary, charset #1: "latin-1" is not allowed'),
        ("attribute_prefix: acme.", "attribute_prefix: Acme.", '"Acme." is not a lower-case header name — write acme.'),
        # The JSON format's data members were not checked: two values under one key, or an attribute read as data.
        (
            "data_base64_member: payload_bin",
            "data_base64_member: payload",
            "data_base64_member 'payload' is also the name of framing.json_format.data_member",
        ),
        (
            "data_base64_member: payload_bin",
            "data_base64_member: body",
            "data_base64_member 'body' is also the name of the payload field 'body'",
        ),
        (
            "data_base64_member: payload_bin",
            "data_base64_member: tenant",
            "data_base64_member 'tenant' is also the name of attribute 'tenant'",
        ),
        ("data_member: payload", "data_member: origin", "data_member 'origin' is also the name of attribute 'origin'"),
    ],
)
def test_kafka_check(tmp_path: Path, old: str, new: str, message: str) -> None:
    _, found = problems_after(tmp_path, ACME, old, new)
    assert any(message in p for p in found), found


def test_new_types_are_kafka_only(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        protocol: jdemo
        title: JSON demo
        family: json
        versions: ["1"]
        directions: [{name: down}]
        framing: {delimiter: line, tag_key: action}
        messages:
          - name: Start
            tag: start
            directions: [down]
            fields:
              - {name: where, type: uri_reference}
              - {name: name, type: string, additional: true}
        """)
    found = problems_for(tmp_path, text)
    assert any("type 'uri_reference' is not available in the json family" in p for p in found), found
    assert any("`additional` is for a map<string,T> field of a kafka message" in p for p in found), found
