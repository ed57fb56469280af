"""The model is built before the checks, from whatever the schema accepted: the builder tolerates every problem the
checks report, and every node knows where it was written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from definition_problems import line_of

from streamcodecs_gen.build import SharedTypes, build_protocol
from streamcodecs_gen.families.framing import as_written
from streamcodecs_gen.load import load_file
from streamcodecs_gen.model import EnumRef, ListRef, MapRef, Protocol, StructRef, UnknownRef, WireRef
from streamcodecs_gen.origin import Origin
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.problems import DefinitionError
from streamcodecs_gen.resolve import TypeScope
from streamcodecs_gen.schema import CUSTOM_SCHEMA, PROTOCOL_SCHEMA, validate_document

ROOT = Path(__file__).resolve().parent.parent

BROKEN = """\
protocol: demo
title: Demo
family: binary
versions: ["1", "2"]
directions: [{name: request}, {name: reply}]
framing:
  {byte_order: big, code_type: int32, length_type: int32, list_count: int32, bytes_length: int32, max_frame: 1024}
enums:
  - name: Color
    type: int8
    values: [{name: RED, value: 0}, {name: BLUE, value: 1, since: "9"}]
types:
  - name: Pair
    fields:
      - {name: a, type: list}
  - name: Pair
    fields:
      - {name: b, type: 'map<int32,Nope>'}
messages:
  - name: Hello
    code: 1
    since: "7"
    directions: [request, sideways]
    fields:
      - {name: x, type: Strnig, py: ex}
      - name: y
        type: Pair<int32>
        since: "8"
        negative: error
      - {name: z, type: list<Nope>}
      - {name: w, type: 'map<string,Shared>', default: 5}
  - name: Hello
    code: 1
    directions: [reply]
    fields: []
"""

SHARED = (
    "customTypes:\n  - name: Shared\n    fields:\n      - {name: s, type: Color}\n  - name: Unused\n    fields: []\n"
)


def _build(tmp_path: Path, text: str, shared: str = "") -> tuple[Protocol, TypeScope]:
    path = tmp_path / "demo.yaml"
    path.write_text(text, encoding="utf-8")
    doc = load_file(path, "defs/demo.yaml")
    assert validate_document(doc, PROTOCOL_SCHEMA) == [], "the case is schema-valid; its problems are semantic"
    structs = {}
    if shared:
        (tmp_path / "Custom.yaml").write_text(shared, encoding="utf-8")
        custom = load_file(tmp_path / "Custom.yaml", "defs/custom/Custom.yaml")
        assert validate_document(custom, CUSTOM_SCHEMA) == []
        structs = {node["name"]: node for node in custom.data["customTypes"]}
    built = build_protocol(doc, SharedTypes(structs, {}))
    return built.protocol, built.scope


def test_every_semantic_problem_still_builds_a_model(tmp_path: Path) -> None:
    protocol, scope = _build(tmp_path, BROKEN)
    hello, again = protocol.messages
    assert (hello.name, again.name) == ("Hello", "Hello")  # a repeated name stays two nodes, in file order
    x, y, z, w = hello.fields
    # Types that do not resolve keep what was written, for the checks to report.
    assert isinstance(x.type, UnknownRef) and (x.type.head, x.type.args) == ("Strnig", ())
    assert isinstance(y.type, UnknownRef) and y.type.head == "Pair"
    assert [type(a) for a in y.type.args] == [WireRef] and y.type.args[0].text == "int32"
    assert isinstance(z.type, ListRef) and isinstance(z.type.item, UnknownRef) and z.type.item.head == "Nope"
    assert (
        isinstance(w.type, MapRef)
        and w.type.item.head == "Shared"
        and [a.text for a in w.type.args]
        == [
            "string",
            "Shared",
        ]
    )
    first, second = scope.own_structs
    assert isinstance(first.fields[0].type, UnknownRef) and first.fields[0].type.head == "list"
    bad_map = second.fields[0].type
    assert isinstance(bad_map, UnknownRef) and [a.head for a in bad_map.args] == ["int32", "Nope"]
    assert scope.structs["Pair"] is second  # a name resolves to its last definition
    assert first in protocol.structs and second in protocol.structs
    # Undeclared versions stay as written; what was written is told apart from what was left out.
    assert (hello.since, y.since, x.since) == ("7", "8", "7")
    assert protocol.enums[0].values[1].since == "9"
    assert (x.py, x.py_explicit, y.py, y.py_explicit) == ("ex", True, "y", False)
    assert (y.negative, y.negative_empty, x.negative) == ("error", False, None)
    assert (w.has_default, w.default, x.has_default) == (True, 5, False)
    assert hello.directions == ["request", "sideways"]


def test_each_node_gives_the_line_of_each_of_its_keys(tmp_path: Path) -> None:
    protocol, _ = _build(tmp_path, BROKEN)
    hello = protocol.messages[0]
    y = hello.fields[1]
    assert y.origin == Origin("defs/demo.yaml", line_of(BROKEN, "- name: y"), "/messages/0/fields/1")
    assert y.origin.line_of("since") == line_of(BROKEN, 'since: "8"')
    assert y.origin.line_of("negative") == line_of(BROKEN, "negative: error")
    assert not y.origin.written("py") and y.origin.line_of("py") == y.origin.line  # a key left out: the node's line
    assert hello.origin.within("directions").line_of(1) == line_of(BROKEN, "sideways")
    assert protocol.origin.line_of("versions") == line_of(BROKEN, "versions:")
    blue = protocol.enums[0].values[1]
    assert blue.origin.line_of("since") == line_of(BROKEN, 'since: "9"') and blue.origin.path == "/enums/0/values/1"
    framing = protocol.framing
    assert framing.origin.line_of("max_frame") == line_of(BROKEN, "max_frame: 1024")


def test_shared_types_are_built_from_their_own_file(tmp_path: Path) -> None:
    protocol, scope = _build(tmp_path, BROKEN, SHARED)
    shared = scope.shared_structs["Shared"]
    assert (shared.origin.file, shared.origin.line, shared.origin.path) == (
        "defs/custom/Custom.yaml",
        2,
        "/customTypes/0",
    )
    assert shared.fields[0].origin.line_of("type") == 4
    color = protocol.enums[0]
    assert isinstance(shared.fields[0].type, EnumRef) and shared.fields[0].type.enum is color
    assert isinstance(protocol.messages[0].fields[3].type.item, StructRef)
    # Every shared type is built (the checks look some up by name); the model lists those the protocol uses.
    assert "Unused" in scope.shared_structs
    assert [s.name for s in protocol.structs if s.shared] == ["Shared"]


def test_the_checks_report_the_broken_model_at_the_lines_of_its_keys(tmp_path: Path) -> None:
    defs = tmp_path / "defs"
    defs.mkdir()
    (defs / "demo.yaml").write_text(BROKEN, encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_protocols(defs, tmp_path)
    found = {(p.line, p.message) for p in info.value.problems}
    assert (line_of(BROKEN, 'since: "7"'), "since '7' is not a declared version") in found
    assert (line_of(BROKEN, 'since: "9"'), "since '9' is not a declared version") in found
    assert (line_of(BROKEN, "Strnig"), "Hello.x: unknown type 'Strnig'") in found
    assert (line_of(BROKEN, "type: list}"), "Pair.a: list takes 1 type argument(s), got 0 in 'list'") in found
    assert (line_of(BROKEN, "sideways"), "message 'Hello': unknown direction 'sideways'") in found


def test_the_framing_is_known_as_written() -> None:
    """--compat reports a framing change in the definition's own words: the model's framing, as written, is the
    mapping the definition holds (optional keys left out stay out)."""
    for protocol in load_protocols(ROOT / "protocol-definitions", ROOT):
        written = yaml.safe_load((ROOT / protocol.source).read_text(encoding="utf-8"))["framing"]
        assert as_written(protocol.framing) == written, protocol.name


def test_an_origin_of_plain_data_has_every_key_at_line_zero() -> None:
    origin = Origin.of({"a": 1, "b": {"c": [1, 2]}})
    assert origin.line_of("a") == 0 and origin.written("b") and not origin.written("z")
    assert origin.within("b").within("c").path == "/b/c" and origin.within("z").path == "/z"


def test_the_checks_and_the_family_hooks_read_the_model_not_the_yaml() -> None:
    """Neither the checks nor the families' hooks import the loader: what they read is the model's."""
    import ast

    package = ROOT / "streamcodecs_gen"
    modules = [*sorted((package / "checks").glob("*.py")), *sorted((package / "families").glob("*.py"))]
    for module in modules:
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("load", "streamcodecs_gen.load"), f"{module.name} imports the loader"
