"""One test per validation rule: each broken definition must be reported with its file, line and a hint.

Every case is a small definition with one thing wrong; removing the check that catches it makes its test fail.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from definition_problems import line_of, problems_after, problems_for, problems_of
from test_cloudevents_definition import ACME

from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.problems import DefinitionError

BINARY = """\
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
    values: [{name: RED, value: 0}, {name: BLUE, value: 1}]
types:
  - name: Pair
    fields:
      - {name: a, type: int32}
messages:
  - name: Hello
    code: 1
    directions: [request]
    fields:
      - {name: requestId, type: int64}
      - {name: trace, type: mutf8, since: "2", default: "", presence: {remaining: 1}}
  - name: Bye
    code: 2
    directions: [reply]
    fields:
      - {name: requestId, type: int64}
"""

JSON = """\
protocol: jdemo
title: JSON demo
family: json
versions: ["1.0", "2.0"]
directions: [{name: down}, {name: up}]
framing: {delimiter: line, tag_key: action}
messages:
  - name: Start
    tag: start
    directions: [down]
    fields:
      - {name: shardId, type: string}
  - name: Status
    tag: status
    directions: [up]
    fields:
      - {name: responseFor, type: string}
"""


# (name, base, old text, new text, expected words, the text on the line that must be named)
CASES = [
    ("float version", BINARY, 'since: "2", default: ""', 'since: 2.10, default: ""', "quote it", "since: 2.10"),
    ("undeclared since", BINARY, 'since: "2", default', 'since: "3", default', "not a declared version", 'since: "3"'),
    (
        "field older than message",
        BINARY,
        "    code: 2\n    directions: [reply]\n    fields:\n      - {name: requestId, type: int64}",
        '    code: 2\n    since: "2"\n    directions: [reply]\n    fields:\n      - {name: requestId, type: int64, since: "1"}',  # noqa: E501
        "is older",
        'type: int64, since: "1"',
    ),
    (
        "field added later without default",
        BINARY,
        "presence: {remaining: 1}}\n  - name: Bye",
        'presence: {remaining: 1}}\n      - {name: late, type: int64, since: "2"}\n  - name: Bye',
        "has no default",
        "name: late",
    ),
    (
        "new field not at the end",
        BINARY,
        '      - {name: trace, type: mutf8, since: "2", default: "", presence: {remaining: 1}}\n',
        '      - {name: trace, type: mutf8, since: "2", default: "", presence: {remaining: 1}}\n'
        "      - {name: old, type: int64, default: 0, presence: {remaining: 8}}\n",
        "new fields go at the end",
        "name: old",
    ),
    (
        "removed before added",
        BINARY,
        'since: "2", default: ""',
        'since: "2", removed: "1", default: ""',
        "removed",
        "name: trace",
    ),
    ("versions out of order", BINARY, 'versions: ["1", "2"]', 'versions: ["2", "1"]', "ascending", "versions:"),
    (
        "duplicate message name",
        BINARY,
        "  - name: Bye\n",
        "  - name: Hello\n",
        "already used",
        "  - name: Hello\n    code: 2",
    ),
    (
        "duplicate field",
        BINARY,
        "presence: {remaining: 1}}\n  - name: Bye",
        "presence: {remaining: 1}}\n      - {name: requestId, type: int32}\n  - name: Bye",
        "appears twice",
        "{name: requestId, type: int32}",
    ),
    ("python keyword", BINARY, "- {name: a, type: int32}", "- {name: class, type: int32}", "keyword", "name: class"),
    (
        "invalid identifier",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: 2fast, type: int32}",
        "identifier",
        "name: 2fast",
    ),
    (
        "shadowing attribute",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: tuple, type: int32}",
        "shadow",
        "name: tuple",
    ),
    (
        "direction without messages",
        BINARY,
        "directions: [{name: request}, {name: reply}]",
        "directions: [{name: request}, {name: reply}, {name: sideways}]",
        "has no message",
        "directions:",
    ),
    ("code out of range", BINARY, "code: 2", "code: 4294967296", "does not fit", "code: 4294967296"),
    (
        "binary field removed",
        BINARY,
        "    directions: [reply]\n    fields:\n      - {name: requestId, type: int64}\n",
        '    directions: [reply]\n    fields:\n      - {name: requestId, type: int64, removed: "2"}\n',
        "never removed",
        "name: requestId, type: int64, removed",
    ),
    (
        "binary string const",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: a, type: string, const: x}",
        "binary constants",
        "const: x",
    ),
    (
        "binary map",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: a, type: 'map<string,int32>'}",
        "no binary encoding",
        "map<string,int32>",
    ),
    (
        "binary list without its item type",  # was an IndexError in the binary family's rules
        BINARY,
        "- {name: a, type: int32}",
        "- {name: a, type: list}",
        "list takes 1 type argument(s), got 0",
        "type: list}",
    ),
    (
        "recursive struct",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: a, type: list<Pair>}",
        "type 'Pair' holds itself (Pair.a → Pair)",
        "- {name: a, type: list<Pair>}",
    ),
    (
        "zero-size list items",
        BINARY,
        "types:\n",
        "types:\n  - name: Empty\n    fields: []\n  - name: Many\n"
        "    fields:\n      - {name: items, type: list<Empty>}\n",
        "can take no bytes",
        "name: items",
    ),
    (
        "enum value since",
        BINARY,
        "{name: BLUE, value: 1}",
        '{name: BLUE, value: 1, since: "9"}',
        "not a declared version",
        'since: "9"',
    ),
    (
        "reserved protocol name",
        BINARY,
        "protocol: demo",
        "protocol: spark",
        "used by the generated package",
        "protocol: spark",
    ),
    ("YAML date", BINARY, "title: Demo", "title: 2018-04-05", "a YAML timestamp, which definitions", "title: 2018-04"),
    (
        "tag key as a field",
        JSON,
        "{name: shardId, type: string}",
        "{name: action, type: string}",
        "is the framing's tag_key",
        "name: action",
    ),
    (
        "array shape with two fields",
        JSON,
        "    tag: status\n    directions: [up]\n    fields:\n      - {name: responseFor, type: string}",
        "    shape: {json: array}\n    directions: [up]\n    fields:\n      - {name: a, type: 'list<int32>'}\n"
        "      - {name: b, type: string}",
        "exactly one field, a list",
        "shape: {json: array}",
    ),
    (
        "open enum outside binary",
        JSON,
        "messages:\n",
        "enums:\n  - name: E\n    type: int8\n    unknown: keep\n    values: [{name: A, value: 1}]\nmessages:\n",
        "open enums",
        "unknown: keep",
    ),
    (
        "reserved attribute",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: toDict, type: int32}",
        "reserved",
        "name: toDict",
    ),
    (
        "unknown direction",
        BINARY,
        "directions: [reply]",
        "directions: [replies]",
        "unknown direction",
        "directions: [replies]",
    ),
    ("duplicate code", BINARY, "code: 2", "code: 1", "already used", "    code: 1\n    directions: [reply]"),
    ("codes out of order", BINARY, "code: 2", "code: 0", "ascending code order", "code: 0"),
    ("unknown type", BINARY, "type: int32}", "type: uuid128}", "did you mean 'uuid'", "type: uuid128"),
    (
        "type outside its family",
        BINARY,
        "type: int32}",
        "type: base64}",
        "not available in the binary family",
        "type: base64",
    ),
    (
        "trailing type not last",
        BINARY,
        "presence: {remaining: 1}}\n  - name: Bye",
        "presence: {remaining: 1}}\n      - {name: tail, type: rest}\n      - {name: more, type: int8, default: 0, presence: {remaining: 1}}\n  - name: Bye",  # noqa: E501
        "must be the last field",
        "name: tail",
    ),
    (
        "mandatory after optional",
        BINARY,
        "presence: {remaining: 1}}\n",
        'presence: {remaining: 1}}\n      - {name: x, type: int8, since: "2", default: 0}\n',
        "mandatory field follows",
        "name: x",
    ),
    (
        "presence without default",
        BINARY,
        'since: "2", default: "", presence',
        'since: "2", presence',
        "needs a default",
        "name: trace",
    ),
    (
        "when_nonempty target",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: a, type: int32, when_nonempty: data, default: 0}",
        "not an earlier field",
        "when_nonempty: data",
    ),
    (
        "default of wrong type",
        BINARY,
        'default: "", presence',
        "default: 5, presence",
        "is not a string",
        "name: trace",
    ),
    (
        "enum unknown member",
        BINARY,
        "    type: int8\n",
        "    type: int8\n    unknown: GREEN\n",
        "not a member",
        "unknown: GREEN",
    ),
    ("enum repeated value", BINARY, "{name: BLUE, value: 1}", "{name: BLUE, value: 0}", "is also RED's", "name: BLUE"),
    ("unknown key", BINARY, "    code: 2\n", "    code: 2\n    colour: red\n", "unknown key", "colour: red"),
    (
        "map key not string",
        JSON,
        "type: string}\n  - name: Status",
        "type: 'map<int32,string>'}\n  - name: Status",
        "map keys must be string",
        "map<int32,string>",
    ),
    (
        "tag repeated in a direction",
        JSON,
        "tag: status\n    directions: [up]",
        "tag: start\n    directions: [down]",
        "used twice",
        "tag: start\n    directions: [down]\n    fields:\n      - {name: responseFor",
    ),
    (
        "json message without tag or shape",
        JSON,
        "    tag: status\n",
        "",
        "exactly one of `tag` or `shape`",
        "  - name: Status",
    ),
    (
        "shape key not a field",
        JSON,
        "    tag: status\n",
        "    shape: {json: object, keys: [pid]}\n",
        "names key 'pid'",
        "shape:",
    ),
    (
        "negative outside binary",
        JSON,
        "type: string}\n  - name: Status",
        "type: string, negative: empty}\n  - name: Status",
        "binary bytes and list",
        "negative: empty",
    ),
    (
        "framing variant declared twice",
        JSON,
        "framing: {delimiter: line, tag_key: action}\n",
        "framing:\n  delimiter: line\n  tag_key: action\n  variants:\n"
        "    - {name: mp, encoding: msgpack, doc: a}\n    - {name: mp, encoding: msgpack, doc: b}\n",
        "framing variant 'mp' is declared twice",
        "    - {name: mp, encoding: msgpack, doc: b}",
    ),
    (
        "framing variant of an unknown encoding",
        JSON,
        "framing: {delimiter: line, tag_key: action}\n",
        "framing:\n  delimiter: line\n  tag_key: action\n  variants:\n    - {name: cb, encoding: cbor, doc: a}\n",
        "cbor",
        "    - {name: cb, encoding: cbor, doc: a}",
    ),
    (
        "duplicate YAML key",
        BINARY,
        "    code: 2\n",
        "    code: 2\n    code: 3\n",
        "key 'code' again (first at line 24) — keep one of them",
        "code: 3",
    ),
    (
        "boolean where an integer or string goes",
        BINARY,
        "{name: BLUE, value: 1}",
        "{name: BLUE, value: yes}",
        "write an integer or a string (YAML reads true/false, yes/no and on/off as booleans",
        "BLUE",
    ),
    ("below a minimum", BINARY, "presence: {remaining: 1}", "presence: {remaining: 0}", "1 or more", "remaining: 0"),
    # Integers a target writes into code fit the type it writes them as (each crashed the render stage before).
    ("enum value above int8", BINARY, "{name: BLUE, value: 1}", "{name: BLUE, value: 300}", "fit int8", "BLUE"),
    ("enum value below int8", BINARY, "{name: BLUE, value: 1}", "{name: BLUE, value: -129}", "-128 to 127", "BLUE"),
    (
        "max_frame beyond int32",
        BINARY,
        "max_frame: 1024}",
        "max_frame: 99999999999}",
        "max_frame 99999999999 does not fit int32",
        "max_frame: 99999999999",
    ),
    (
        "max_message beyond int32",
        JSON,
        "framing: {delimiter: line, tag_key: action}",
        "framing: {delimiter: line, tag_key: action, max_message: 2147483648}",
        "max_message 2147483648 does not fit int32",
        "max_message: 2147483648",
    ),
    (
        "presence beyond int32",
        BINARY,
        "presence: {remaining: 1}",
        "presence: {remaining: 4294967296}",
        "Hello.trace: presence 4294967296 does not fit int32",
        "remaining: 4294967296",
    ),
    (
        "min_length beyond int32",
        JSON,
        "{name: shardId, type: string}",
        "{name: shardId, type: string, min_length: 2147483648}",
        "Start.shardId: min_length 2147483648 does not fit int32",
        "min_length: 2147483648",
    ),
    (
        "integer constant beyond int64",
        BINARY,
        "enums:\n",
        "constants: [{name: BIG, value: 9223372036854775808}]\nenums:\n",
        "constant BIG 9223372036854775808 does not fit int64",
        "name: BIG",
    ),
    (
        # The second replaced the first in the Python module, without a word (Java's javac refused it).
        "repeated constant",
        BINARY,
        "enums:\n",
        "constants:\n  - {name: LIMIT, value: 1}\n  - {name: LIMIT, value: 2}\nenums:\n",
        "constant 'LIMIT' is repeated (first at line 9) — give each constant a distinct name",
        "{name: LIMIT, value: 2}",
    ),
    (
        # It replaced the module's own VERSION, which then said "17" as any other value the constant had.
        "constant named as the module's own",
        BINARY,
        "enums:\n",
        "constants:\n  - {name: VERSION, value: 17}\nenums:\n",
        "constant 'VERSION' is a name the generated module defines itself — rename it",
        "name: VERSION",
    ),
    (
        # Java's Messages declared it as the String "None"; a constant names a value, so null is the schema's problem.
        "null constant",
        BINARY,
        "enums:\n",
        "constants:\n  - {name: NOTHING, value: null}\nenums:\n",
        # (the schema's number and integer: "a number" says both, as it did "a number or an integer")
        "constant 'NOTHING', value: the value is null — write a string or a number or true or false (YAML reads",
        "name: NOTHING",
    ),
    (
        "shape match beyond its field's type",
        JSON,
        "    tag: status\n    directions: [up]\n    fields:\n      - {name: responseFor, type: string}\n",
        "    shape: {json: object, keys: [responseFor], match: {n: 2147483648}}\n    directions: [up]\n"
        "    fields:\n      - {name: responseFor, type: string}\n      - {name: n, type: int32}\n",
        "the value 2147483648 matched on key 'n' does not fit int32",
        "shape: {json: object",
    ),
    # A match on an enum field: a value no member has matched the shape, then the field refused it.
    *(
        (
            f"shape match on an enum, {value}",
            JSON,
            "    tag: status\n    directions: [up]\n    fields:\n      - {name: responseFor, type: string}\n",
            f"    shape: {{json: object, keys: [responseFor], match: {{mood: {value}}}}}\n    directions: [up]\n"
            "    fields:\n      - {name: responseFor, type: string}\n      - {name: mood, type: Mood}\n"
            "enums:\n  - {name: Mood, type: string, values: [{name: CALM, value: calm}, {name: LOUD, value: loud}]}\n",
            f"shape of 'Status': the value {said} matched on key 'mood' is not a value of enum Mood — match one of "
            "its wire values: 'calm', 'loud'",
            "shape: {json: object",
        )
        for value, said in (("CALM", "'CALM'"), ("quiet", "'quiet'"), ("1", "1"))
    ),
    # A JSON number is a float64 in the Python codec: a float32 would be another value in the Java codec (0.1f).
    *(
        (
            f"float32 in the {name} family",
            base,
            old,
            new,
            f"type 'float32' is not available in the {name} family — use float64",
            marker,
        )
        for name, base, old, new, marker in (
            ("json", JSON, "{name: shardId, type: string}", "{name: shardId, type: float32}", "type: float32"),
            ("json", JSON, "{name: shardId, type: string}", '{name: shardId, type: "list<float32>"}', "list<float32>"),
            (
                "kafka",
                ACME,
                "      - {name: event_id, type: string, min_length: 3}\n",
                "      - {name: event_id, type: string, min_length: 3}\n"
                "      - {name: ratio, type: float32, optional: true}\n",
                "type: float32",
            ),
        )
    ),
    # A shape's match value is a string or an integer, which both codecs compare alike: Java's _match_literal
    # crashed on a null (and Python's v.get(key) == None also matched an absent key), wrote 0.5 as 0L (Java then
    # matched 0, Python 0.5), and its fast path never saw a boolean as the 1 it was written as.
    *(
        (
            f"shape match {value}",
            JSON,
            "    tag: status\n    directions: [up]\n    fields:\n      - {name: responseFor, type: string}\n",
            f"    shape: {{json: object, keys: [responseFor], match: {{n: {value}}}}}\n    directions: [up]\n"
            "    fields:\n      - {name: responseFor, type: string}\n      - {name: n, type: any, nullable: true}\n",
            f"message 'Status', shape.match.n: {said} — write a string or an integer",
            "shape: {json: object",
        )
        for value, said in (
            ("null", "the value is null"),
            ("0.5", "0.5 is not a string or an integer"),
            ("true", "true is not a string or an integer"),
            ("[1]", "a list is not a string or an integer"),
            ("{a: 1}", "a mapping is not a string or an integer"),
        )
    ),
    # A schema problem says a value as the definition has it (true, a list, a mapping, "text"), not as Python's repr
    # (True, [1], {'a': 1}, 'text').
    *(
        (f"schema words for {new}", JSON, old, new, words, marker)
        for old, new, words, marker in (
            ("title: JSON demo", "title: no", "title: false is not a string — write a string (YAML reads", "title:"),
            (
                "{name: shardId, type: string}",
                "{name: shardId, type: string, min_length: [1]}",
                "message 'Start', field 'shardId', min_length: a list is not an integer — write an integer",
                "min_length",
            ),
            (
                "{name: shardId, type: string}",
                '{name: shardId, type: string, min_length: "2"}',
                "message 'Start', field 'shardId', min_length: \"2\" is not an integer",
                "min_length",
            ),
            ("family: json", "family: jsn", 'family: "jsn" is not allowed — use one of: "binary", "json"', "family:"),
            ("family: json", "family: true", "family: true is not allowed", "family:"),
        )
    ),
    ("YAML syntax", BINARY, "    code: 2\n", "    code: [2\n", "YAML error", "    code: [2"),
    # Floats a target writes into code fit their type too (javac refused each: "floating-point number too large",
    # "too small", "nanf"), and a JSON family's default is a number JSON carries.
    # The JSON family's constants are strings and integers, which both codecs compare (a float's was javac's
    # "template bug", and Python's msgspec refuses a float Literal).
    *(
        (
            f"JSON {kind} constant",
            JSON,
            "{name: shardId, type: string}",
            f"{{name: shardId, type: {kind}, const: {value}}}",
            "Start.shardId: JSON constants are for string and integer fields",
            f"const: {value}",
        )
        for kind, value in (
            ("float64", "0.5"),
            ("bool", "true"),
            ("uuid", "12345678-1234-1234-1234-123456789012"),
            ("timestamp", "'2020-01-01T00:00:00Z'"),
        )
    ),
    (
        "JSON enum constant",
        JSON,
        "messages:\n  - name: Start\n    tag: start\n    directions: [down]\n    fields:\n"
        "      - {name: shardId, type: string}",
        "enums:\n  - {name: Mood, type: string, values: [{name: CALM, value: calm}]}\n"
        "messages:\n  - name: Start\n    tag: start\n    directions: [down]\n    fields:\n"
        "      - {name: shardId, type: Mood, const: CALM}",
        "Start.shardId: JSON constants are for string and integer fields",
        "const: CALM",
    ),
    (
        "float32 default beyond its range",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: a, type: float32, default: 1.0e+39}",
        "default 1e+39 does not fit float32, whose finite values lie from -3.4028234663852886e+38 to "
        "3.4028234663852886e+38",
        "default: 1.0e+39",
    ),
    (
        "float32 default that rounds to 0",
        BINARY,
        "- {name: a, type: int32}",
        "- {name: a, type: float32, default: -1.0e-50}",
        "default -1e-50 rounds to 0 in float32, whose smallest magnitude is 1.401298464324817e-45",
        "default: -1.0e-50",
    ),
    (
        "float64 default beyond its range",
        JSON,
        "{name: shardId, type: string}",
        "{name: shardId, type: float64, optional: true, default: 1" + "0" * 400 + "}",
        "does not fit float64",
        "name: shardId, type: float64",
    ),
    (
        "NaN default in the JSON family",
        JSON,
        "{name: shardId, type: string}",
        "{name: shardId, type: float64, optional: true, default: .nan}",
        "default nan is not a finite number, which the json family does not carry (JSON has no NaN or infinity)",
        "default: .nan",
    ),
    (
        "infinite default in the JSON family",
        JSON,
        "{name: shardId, type: string}",
        "{name: shardId, type: float64, optional: true, default: -.inf}",
        "default -inf is not a finite number",
        "default: -.inf",
    ),
]


@pytest.mark.parametrize(("base", "old", "new", "words", "marker"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_problem_is_reported_with_its_line(
    tmp_path: Path, base: str, old: str, new: str, words: str, marker: str
) -> None:
    assert old in base, "the case's anchor text must exist in the base definition"
    assert problems_for(tmp_path, base) == [], "the base definition must be valid"
    text = base.replace(old, new, 1)
    found = problems_for(tmp_path, text)
    matching = [p for p in found if words in p]
    assert matching, f"expected a problem mentioning {words!r}, got {found}"
    # The YAML syntax error is reported where the parser noticed it, which may be a line after the cause.
    expected_line = line_of(text, marker.split("\n")[0]) if "\n" not in marker else text.index(marker)
    if "\n" in marker:
        expected_line = text[: text.index(marker)].count("\n") + 1
    lines = {int(p.split(":")[1]) for p in matching}
    assert any(abs(line - expected_line) <= (1 if words == "YAML error" else 0) for line in lines), (
        f"expected line {expected_line}, got {sorted(lines)}: {matching}"
    )
    for problem in matching:
        assert problem.startswith("defs/demo.yaml:")
        if words != "YAML error":
            assert " — " in problem, f"no hint on what to do: {problem}"


def test_an_empty_file_is_reported_as_empty_with_what_to_write(tmp_path: Path) -> None:
    assert problems_for(tmp_path, "") == [
        "defs/demo.yaml:1: the file is empty — write a definition (see docs/definition-format.md)"
    ]


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = (
        BINARY.replace("type: int32}", "type: uuid128}")
        .replace("code: 2", "code: 1")
        .replace("directions: [reply]", "directions: [replies]")
    )
    found = problems_for(tmp_path, text)
    assert len(found) >= 3
    assert any("uuid128" in p for p in found) and any("already used" in p for p in found)
    assert any("replies" in p for p in found)


# A schema problem (the text on its line, what it says) in a definition whose message Bye also names a direction it
# does not declare.
SCHEMA_AND_SEMANTIC = [
    ("code: 1\n", "code: one\n", "message 'Hello', code: \"one\" is not an integer — write an integer"),
    ("type: int32}", "type: 5}", "type 'Pair', field 'a', type: 5 is not a string — write a string"),
    ("      - {name: a, type: int32}", "      - [a, int32]", "type 'Pair', field #1: a list is not a mapping"),
    ("  - name: Pair\n", "  - name: pair\n", 'type #1, name: "pair" is not a CamelCase name — write Pair'),
    ("    type: int8\n", "    type: int9\n", "enum 'Color', type: \"int9\" is not allowed"),
    ("directions: [request]", "directions: request", "message 'Hello', directions: \"request\" is not a list"),
    ("code: 2\n", "code: 2\n    nmae: Bye\n", "message 'Bye': unknown key 'nmae'"),
]


@pytest.mark.parametrize(("old", "new", "says"), SCHEMA_AND_SEMANTIC, ids=[c[1].strip() for c in SCHEMA_AND_SEMANTIC])
def test_a_schema_problem_does_not_hide_the_semantic_problems_of_its_file(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    """A file the schema refused was not checked further: its author, having fixed that, met the next problem. The
    checks now run over what the schema accepted (a message, field or member it refused left out), without
    concluding from what was left out (direction 'request' would have no message when Hello is)."""
    text, found = problems_after(tmp_path, BINARY.replace("directions: [reply]", "directions: [rply]"), old, new)
    line = line_of(text, new.strip().splitlines()[-1])
    assert any(p.startswith(f"defs/demo.yaml:{line}: {says}") for p in found), found
    rply = line_of(text, "[rply]")
    assert f"defs/demo.yaml:{rply}: message 'Bye': unknown direction 'rply' — did you mean 'reply'?" in found, found
    assert not any("has no message" in p and "'request'" in p for p in found), found


def test_a_definition_the_schema_leaves_nothing_of_is_reported_without_a_crash(tmp_path: Path) -> None:
    """Left without its versions (each a number where a text goes), the definition cannot be built: its schema
    problems are what it reports, and that the rest of it was not checked."""
    text = BINARY.replace('versions: ["1", "2"]', "versions: [1, 2]")
    found = problems_for(tmp_path, text)
    assert found == [
        "defs/demo.yaml: the rest of this file was not checked: its checks need the parts its other problems leave"
        " out — fix those and run again",
        "defs/demo.yaml:4: version #1: 1 is not a string — write a string",
        "defs/demo.yaml:4: version #2: 2 is not a string — write a string",
    ]


def test_a_semantic_problem_on_the_line_of_an_item_the_schema_left_out_is_reported(tmp_path: Path) -> None:
    """A flow list holds a field the schema leaves out (its type a number) and one it keeps, with a version not
    declared: that problem was taken for the schema's (the same line) and not said, though the schema's is of the
    other field. Only a value the model keeps though the schema refuses it is the same fault at its line."""
    old = "    fields:\n      - {name: requestId, type: int64}\n      - {name: trace"
    new = (
        '    fields: [{name: requestId, type: int64, since: "9"}, {name: b, type: 5}]\n    more:\n      - {name: trace'
    )
    text, found = problems_after(tmp_path, BINARY, old, new)
    line = line_of(text, 'since: "9"')
    assert f"defs/demo.yaml:{line}: message 'Hello', field 'b', type: 5 is not a string — write a string" in found
    assert any(p.startswith(f"defs/demo.yaml:{line}: since '9' is not a declared version") for p in found), found


def test_a_failure_of_the_generator_on_a_file_with_schema_problems_is_not_taken_for_one_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file with schema problems whose checks failed reported its schema problems only, whatever the failure: a
    generator bug went unseen. Nothing left out (an unknown key is read past, and not built), a failure is the
    generator's and is raised; with an item left out the checks may need it, and the report says they stopped."""
    from streamcodecs_gen import pipeline

    def broken(ctx: object) -> list[object]:
        raise RuntimeError("a bug in a check")

    monkeypatch.setattr(pipeline, "run_checks", broken)
    with pytest.raises(RuntimeError, match="a bug in a check"):
        problems_after(tmp_path, BINARY, "code: 2\n", "code: 2\n    nmae: Bye\n")
    _, found = problems_after(tmp_path, BINARY, "code: 2\n", "code: two\n")
    assert found[0] == (
        "defs/demo.yaml: the rest of this file was not checked: its checks need the parts its other problems leave"
        " out — fix those and run again"
    )


def test_an_unknown_key_of_the_framing_is_not_built(tmp_path: Path) -> None:
    """The framing's builder takes only its own keys: an unknown one the schema reports is left out of what is
    built, as the builder of a field or message ignores one, and the rest of the file is checked."""
    text, found = problems_after(
        tmp_path,
        BINARY.replace("directions: [reply]", "directions: [rply]"),
        "byte_order: big,",
        "byte_order: big, bogus: 1,",
    )
    assert any("unknown key 'bogus'" in p for p in found), found
    assert any("unknown direction 'rply'" in p for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "use_old", "use_new"),
    [
        (  # a default naming a member the schema left out (its value a list): not "not a member name of Color"
            "{name: BLUE, value: 1}",
            "{name: BLUE, value: [1]}",
            "      - {name: requestId, type: int64}\n      - {name: trace",
            "      - {name: requestId, type: int64}\n      - {name: color, type: Color, default: BLUE}\n"
            "      - {name: trace",
        ),
        (  # when_nonempty naming an earlier field the schema left out: not "not an earlier field"
            "      - {name: requestId, type: int64}\n      - {name: trace",
            "      - {name: requestId, type: int64}\n      - {name: blob, type: 7}\n      - {name: trace",
            "presence: {remaining: 1}}",
            "when_nonempty: blob}",
        ),
    ],
    ids=["enum default", "when_nonempty"],
)
def test_a_check_does_not_conclude_from_what_the_schema_left_out(
    tmp_path: Path, old: str, new: str, use_old: str, use_new: str
) -> None:
    """Each check that concludes from a name not being there asks ``ctx.may_lack``: the member or field it looks
    for may be one the schema refused, whose own problem is the one to fix."""
    text, found = problems_after(tmp_path, BINARY.replace(use_old, use_new, 1), old, new)
    line = line_of(text, new.strip().splitlines()[-1] if "blob" not in new else "name: blob")
    assert [p for p in found if not p.startswith(f"defs/demo.yaml:{line}: ")] == [], found
    assert found, "the schema's problem is reported"


def test_a_shape_matching_a_member_the_schema_left_out_is_not_called_no_value_of_its_enum(tmp_path: Path) -> None:
    """A shape's match on an enum field names a wire value: of a member the schema refused (its name a number), it
    was said to be no value of the enum."""
    text, found = problems_after(
        tmp_path,
        JSON,
        "    tag: status\n    directions: [up]\n    fields:\n      - {name: responseFor, type: string}\n",
        "    shape: {json: object, keys: [responseFor], match: {mood: loud}}\n    directions: [up]\n"
        "    fields:\n      - {name: responseFor, type: string}\n      - {name: mood, type: Mood}\n"
        "enums:\n  - name: Mood\n    type: string\n"
        "    values: [{name: CALM, value: calm}, {name: [LOUD], value: loud}]\n",
    )
    line = line_of(text, "{name: [LOUD]")
    assert found and all(p.startswith(f"defs/demo.yaml:{line}: ") for p in found), found


def test_a_default_naming_a_member_a_custom_file_left_out_is_not_called_unknown(tmp_path: Path) -> None:
    """The same of a shared enum: its custom/ file's member the schema refused may be the one named."""
    custom = "customTypes: []\nenums:\n  - name: Shade\n    type: int8\n"
    custom += "    values: [{name: DARK, value: 0}, {name: LIGHT, value: [1]}]\n"
    text = BINARY.replace(
        "      - {name: requestId, type: int64}\n      - {name: trace",
        "      - {name: requestId, type: int64}\n      - {name: shade, type: Shade, default: LIGHT}\n"
        "      - {name: trace",
        1,
    )
    found = problems_of(tmp_path, {"demo.yaml": text, "custom/Shade.yaml": custom})
    assert found and all(p.startswith("defs/custom/Shade.yaml:") for p in found), found


@pytest.mark.parametrize(
    "custom",
    [
        "customTypes:\n  - name: Shared\n    fields:\n      - {name: a, type: int32\n",  # YAML: the } is missing
        "customTypes:\n  - name: Shared\n    fields: {name: a, type: int32}\n",  # a mapping where a list goes
        "customTypes: {name: Shared}\n",
    ],
    ids=["not YAML", "fields a mapping", "customTypes a mapping"],
)
def test_a_broken_custom_file_does_not_hide_the_problems_of_the_protocols(tmp_path: Path, custom: str) -> None:
    """A custom/ file that could not be read stopped every protocol's checks (its types would have looked unknown):
    the protocols are now checked, without calling a type unknown that the unread file may define."""
    text = BINARY.replace("{name: a, type: int32}", "{name: a, type: Shared}").replace("[reply]", "[rply]")
    found = problems_of(tmp_path, {"custom/Custom.yaml": custom, "demo.yaml": text})
    assert {p.split(":")[0] for p in found} == {"defs/custom/Custom.yaml", "defs/demo.yaml"}, found
    rply = line_of(text, "[rply]")
    assert f"defs/demo.yaml:{rply}: message 'Bye': unknown direction 'rply' — did you mean 'reply'?" in found, found
    assert not any("Shared" in p for p in found if p.startswith("defs/demo.yaml")), found


REPO = Path(__file__).resolve().parent.parent

# (file, text, the broken text, what the problem says): integers each target writes into code, out of their range,
# and one problem of another kind, all in the project's own definitions.
OUT_OF_RANGE = [
    ("pravega.yaml", "{name: EVENT_RATE, value: 2,", "{name: EVENT_RATE, value: 300,", "value 300 does not fit int8"),
    ("pravega.yaml", "max_frame: 16777215", "max_frame: 99999999999", "max_frame 99999999999 does not fit int32"),
    ("pravega.yaml", "presence: {remaining: 4}", "presence: {remaining: 2147483648}", "presence 2147483648"),
    ("storm.yaml", "{name: ERROR, value: 4}", "{name: ERROR, value: -2147483649}", "-2147483649 does not fit int32"),
    ("kcl.yaml", "max_message: 67108864", "max_message: 99999999999999", "max_message 99999999999999"),
    ("cloudevents.yaml", "max_message: 16777216", "max_message: 4294967296", "max_message 4294967296"),
    ("kcl.yaml", "type: list<Record>", "type: list<Recrd>", "did you mean 'Record'?"),
]


def test_out_of_range_integers_are_problems_of_the_definition_all_at_once(tmp_path: Path) -> None:
    """Each crashed the render stage (struct.error, or javac called "a template bug"), exit 1; now each is a
    problem with its file and line, reported with the others, exit 2, and nothing is written."""
    defs = tmp_path / "defs"
    shutil.copytree(REPO / "protocol-definitions", defs)
    expected = []
    for name, old, new, words in OUT_OF_RANGE:
        path = defs / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
        expected.append((f"{name}:{line_of(text, new)}:", words))
    _refused_all_at_once(defs, "java", tmp_path / "out", expected)


def _refused_all_at_once(defs: Path, language: str, out: Path, expected: list[tuple[str, str]]) -> None:
    """Generating ``language`` from ``defs`` into ``out`` reports each ``(file:line:, words)`` of ``expected`` as a
    problem (with its advice, after " — "), counts them, exits 2 without a traceback and writes nothing."""
    result = subprocess.run(
        [sys.executable, str(REPO / "generator.py"), "-l", language, "-p", str(defs), "-r", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "template bug" not in result.stderr
    lines = result.stderr.splitlines()
    for where, words in expected:
        assert any(where in line and words in line and " — " in line for line in lines), (where, words, lines)
    assert f"{len(expected)} problem(s)" in result.stderr, lines
    assert not out.exists()


def test_a_binary_float_default_may_be_nan_or_infinite_or_the_largest(tmp_path: Path) -> None:
    """The binary wire carries every float, NaN and infinity included (both codecs write their literals)."""
    floats = (
        "- {name: a, type: float32, default: .nan}\n      - {name: b, type: float64, default: -.inf}\n"
        "      - {name: c, type: float32, default: 3.4028234663852886e+38}\n"
        "      - {name: d, type: float32, default: 1.401298464324817e-45}"
    )
    assert problems_for(tmp_path, BINARY.replace("- {name: a, type: int32}", floats)) == []


def test_float_defaults_out_of_their_range_are_problems_all_at_once(tmp_path: Path) -> None:
    """Each was javac's "template bug" (exit 1) when the py target built its jar; now a problem with its line,
    exit 2, and nothing is written."""
    defs = tmp_path / "defs"
    defs.mkdir()
    fields = [
        "{name: big, type: float64, optional: true, default: 1.0e+309}",
        "{name: low, type: float64, optional: true, default: -1.0e+309}",
        "{name: odd, type: float64, optional: true, default: .nan}",
    ]
    text = JSON.replace("{name: shardId, type: string}", "\n      - ".join(["{name: shardId, type: string}", *fields]))
    (defs / "demo.yaml").write_text(text, encoding="utf-8")
    expected = [(f"demo.yaml:{line_of(text, field)}:", "") for field in fields]
    _refused_all_at_once(defs, "py", tmp_path / "out", expected)  # py: the jar too


def test_no_id_check_lifts_only_the_order_rule(tmp_path: Path) -> None:
    out_of_order = BINARY.replace("code: 2", "code: 0")
    assert problems_for(tmp_path, out_of_order, id_check=False) == []
    # ...while every version check still runs (Hazelcast's flag switched those off too).
    bad_since = out_of_order.replace('since: "2", default', 'since: "9", default')
    assert any("not a declared version" in p for p in problems_for(tmp_path, bad_since, id_check=False))
    duplicate = BINARY.replace("code: 2", "code: 1")
    assert any("already used" in p for p in problems_for(tmp_path, duplicate, id_check=False))


def test_unsafe_yaml_tags_are_rejected(tmp_path: Path) -> None:
    text = BINARY.replace("title: Demo", "title: !!python/object/apply:os.system ['echo pwned']")
    found = problems_for(tmp_path, text)
    assert found and "YAML error" in found[0]


def test_a_problem_in_one_file_does_not_hide_another(tmp_path: Path) -> None:
    other = JSON.replace("protocol: jdemo", "protocol: other").replace("directions: [up]", "directions: [sideways]")
    found = problems_of(tmp_path, {"a.yaml": BINARY.replace("type: int32}", "type: nope}"), "b.yaml": other})
    assert {p.split(":")[0] for p in found} == {"defs/a.yaml", "defs/b.yaml"}, found


def test_a_shared_enums_members_are_checked_in_the_protocols_using_it(tmp_path: Path) -> None:
    # Its values become case labels of the Java codec: a repeated or out-of-range value was javac's "template bug".
    custom = "customTypes: []\nenums:\n  - name: E\n    type: int8\n"
    custom += "    values: [{name: A, value: 300}, {name: B, value: 300}]\n"
    demo = BINARY.replace("{name: a, type: int32}", "{name: a, type: E}")
    found = problems_of(tmp_path, {"custom/Custom.yaml": custom, "demo.yaml": demo})
    assert any(p.startswith("defs/custom/Custom.yaml:5:") and "A's value 300 does not fit int8" in p for p in found)
    assert any(p.startswith("defs/custom/Custom.yaml:5:") and "B's value 300 is also A's (line 5)" in p for p in found)


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        (
            "{name: BLUE, value: 1}",
            "{name: BLUE, value: 0}",
            "enum Color: BLUE's value 0 is also RED's (line {line}) — give each member a distinct value",
        ),
        (
            "{name: BLUE, value: 1}",
            "{name: RED, value: 1}",
            "enum Color: member RED is repeated (first at line {line}) — give each member a distinct name",
        ),
    ],
)
def test_a_repeated_enum_member_or_value_says_which_it_is(tmp_path: Path, old: str, new: str, says: str) -> None:
    """It said "member BLUE or its value 0 is repeated", leaving the user to find which, and where the first is."""
    members = "    values:\n      - {name: RED, value: 0}\n      - " + new + "\n"
    text = BINARY.replace("    values: [{name: RED, value: 0}, {name: BLUE, value: 1}]\n", members)
    line = line_of(text, "{name: RED, value: 0}")
    assert problems_for(tmp_path, text) == [f"defs/demo.yaml:{line + 1}: " + says.format(line=line)]


def test_shared_custom_types_are_checked_and_named_by_their_own_file(tmp_path: Path) -> None:
    custom = (
        "customTypes:\n  - name: Shared\n    fields:\n      - {name: a, type: Strnig}\n"
        "      - {name: class, type: int32}\n"
        "enums:\n  - {name: E, type: int8, values: [{name: A, value: 1}]}\n"
        "  - {name: E, type: int8, values: [{name: B, value: 2}]}\n"
    )
    demo = BINARY.replace("type: int32}", "type: Shared}")
    found = problems_of(tmp_path, {"custom/Custom.yaml": custom, "demo.yaml": demo})
    assert any(p.startswith("defs/custom/Custom.yaml:4:") and "did you mean 'string'" in p for p in found), found
    assert any(p.startswith("defs/custom/Custom.yaml:5:") and "keyword" in p for p in found), found
    assert any("custom enum 'E' is defined twice (first at defs/custom/Custom.yaml:7)" in p for p in found), found


def test_a_shared_custom_type_no_protocol_uses_is_checked_too(tmp_path: Path) -> None:
    """Its typo'd field type passed until a protocol came to use it (a used one is checked in each protocol using
    it); reported at its file and line, with the other problems of the run, at once."""
    custom = (
        "customTypes:\n  - name: Unused\n    fields:\n      - {name: a, type: Strnig}\n"
        "      - {name: b, type: list<Other>}\n      - {name: c, type: 'map<string,E>'}\n"
        "      - {name: d, type: mutf8}\n      - {name: e, type: 'map<int32,E>'}\n"
        "  - name: Other\n    fields:\n      - {name: x, type: strng}\n"
        "  - name: Fine\n    fields:\n      - {name: t, type: timestamp}\n      - {name: o, type: list<Other>}\n"
        "enums:\n  - {name: E, type: int8, values: [{name: A, value: 1}]}\n"
    )
    demo = BINARY.replace("      - {name: a, type: int32}\n", "      - {name: a, type: int33}\n")
    found = problems_of(tmp_path, {"custom/Custom.yaml": custom, "demo.yaml": demo})
    assert sorted(found) == [
        "defs/custom/Custom.yaml:11: Other.x: unknown type 'strng' — did you mean 'string'?",
        "defs/custom/Custom.yaml:4: Unused.a: unknown type 'Strnig' — did you mean 'string'?",
        "defs/custom/Custom.yaml:8: Unused.e: map keys must be string in 'map<int32,E>' — write map<string,T>",
        f"defs/demo.yaml:{line_of(demo, 'type: int33')}: Pair.a: unknown type 'int33' — did you mean 'int32' or 'int8' "
        "or 'int64'?",
    ], found
    # once a protocol uses it, the protocol's checks read it (in its family's terms), and it is not said twice
    used = demo.replace("type: int33}", "type: Unused}")
    found = problems_of(tmp_path / "used", {"custom/Custom.yaml": custom, "demo.yaml": used})
    assert sum("Unused.a: unknown type 'Strnig'" in p for p in found) == 1, found
    assert sum("Other.x: unknown type 'strng'" in p for p in found) == 1, found


def test_a_custom_type_defined_in_two_files_names_the_first(tmp_path: Path) -> None:
    """It said "defined twice" at the second, without where the first is (another file of custom/)."""
    shared = "customTypes:\n  - name: Endpoint\n    fields:\n      - {name: port, type: int32}\nenums: []\n"
    found = problems_of(tmp_path, {"custom/a.yaml": shared, "custom/b.yaml": shared, "demo.yaml": BINARY})
    assert found == [
        "defs/custom/b.yaml:2: custom type 'Endpoint' is defined twice (first at defs/custom/a.yaml:2) — keep one "
        "definition"
    ]


def test_a_shape_may_match_an_enum_field_on_a_members_wire_value(tmp_path: Path) -> None:
    text = JSON.replace(
        "    tag: status\n    directions: [up]\n    fields:\n      - {name: responseFor, type: string}\n",
        "    shape: {json: object, keys: [responseFor], match: {mood: loud}}\n    directions: [up]\n"
        "    fields:\n      - {name: responseFor, type: string}\n      - {name: mood, type: Mood}\n"
        "enums:\n  - {name: Mood, type: string, values: [{name: CALM, value: calm}, {name: LOUD, value: loud}]}\n",
    )
    assert "match: {mood: loud}" in text
    assert problems_for(tmp_path, text) == []


def test_bytes_that_are_not_utf8_are_reported_at_their_line(tmp_path: Path) -> None:
    """A stray Latin-1 byte in a doc (an editor saving in the wrong encoding) was reported at line 1, whatever its
    line: the user had to search a long file for it."""
    defs = tmp_path / "defs"
    defs.mkdir()
    data = JSON.replace("{name: shardId, type: string}", "{name: shardId, type: string, doc: caf\xe9}")
    (defs / "demo.yaml").write_bytes(data.encode("latin-1"))
    with pytest.raises(DefinitionError) as caught:
        load_protocols(defs, tmp_path)
    line = line_of(data, "doc: caf")
    column = data.splitlines()[line - 1].index("\xe9") + 1
    assert [str(p) for p in caught.value.problems] == [
        f"defs/demo.yaml:{line}: not UTF-8 (byte 0xe9 at column {column} is invalid continuation byte)"
        " — save the file as UTF-8"
    ]


@pytest.mark.parametrize(
    ("base", "old", "new", "clash"),
    [
        # a Java keyword takes "Field" after it, which another field's name may already be
        (
            JSON,
            "      - {name: shardId, type: string}\n",
            "      - {name: default, type: string}\n      - {name: default_field, type: string}\n",
            "fields 'default' (line {first}) and 'default_field' of 'Start' have one Java name, 'defaultField'",
        ),
        # Python names that differ only in their underscores, one Java camelCase
        (
            JSON,
            "      - {name: shardId, type: string}\n",
            "      - {name: a_b, type: string}\n      - {name: a__b, type: string, py: a__b}\n",
            "fields 'a_b' (line {first}) and 'a__b' of 'Start' have one Java name, 'aB'",
        ),
        (
            BINARY,
            "      - {name: a, type: int32}\n",
            "      - {name: new, type: int32, py: new_value}\n      - {name: newField, type: int32}\n",
            "fields 'new' (line {first}) and 'newField' of 'Pair' have one Java name, 'newField'",
        ),
    ],
    ids=["json keyword", "json underscores", "binary keyword"],
)
def test_fields_with_one_java_name_are_a_problem_of_the_definition(
    tmp_path: Path, base: str, old: str, new: str, clash: str
) -> None:
    """The Python names differ, so only javac noticed: "a template bug" and a traceback, exit 1, after every check
    had passed. Now it is the second field's problem, with what to change."""
    text = base.replace(old, new)
    first, second = (line_of(text, line.strip()) for line in new.splitlines())
    found = problems_for(tmp_path, text)
    assert len(found) == 1 and found[0].startswith(f"defs/demo.yaml:{second}: {clash.format(first=first)} — ")


@pytest.mark.parametrize(
    ("base", "name", "words"),
    [
        (JSON, "Any", "a name the generated Python module uses itself"),
        (JSON, "Reader", "a name the generated Python module uses itself"),
        (JSON, "String", "a Java class the generated Java code uses"),
        (BINARY, "List", "a Java class the generated Java code uses"),
        (BINARY, "Double", "a Java class the generated Java code uses"),
    ],
)
def test_a_definition_name_the_generated_code_uses_itself_is_a_problem(
    tmp_path: Path, base: str, name: str, words: str
) -> None:
    """A message named Any replaced typing.Any in the generated module, so every map<string,any> field decoded as
    that message; a type named String or List hid Java's, and javac failed ("a template bug", a traceback)."""
    old = "  - name: Start\n" if base is JSON else "  - name: Pair\n"
    text = base.replace(old, f"  - name: {name}\n")
    assert problems_for(tmp_path, text) == [
        f"defs/demo.yaml:{line_of(text, f'name: {name}')}: {name!r} is {words}"
        + ("" if "Python" in words else " (a class of that name would hide it)")
        + " — rename it"
    ]


def _generated(pattern: str) -> list[Path]:
    return sorted((REPO / "output").glob(pattern))


def test_the_names_generated_code_uses_are_all_known_to_the_check() -> None:
    """Every CamelCase name a generated messages module binds besides the definitions' classes, and every class
    name the generated Java uses where a definition's class is in scope, is one the definitions may not take."""
    import ast
    import re

    from streamcodecs_gen.checks.names import JAVA_TYPES
    from streamcodecs_gen.naming import PYTHON_MODULE_NAMES

    protocols = load_protocols(REPO / "protocol-definitions", REPO)
    defined = {m.name for p in protocols for m in p.messages}
    defined |= {s.name for p in protocols for s in p.structs} | {e.name for p in protocols for e in p.enums}
    bound = set()
    for path in _generated("py/streamcodecs/*/messages.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                bound.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bound |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    camel = {name for name in bound - defined if name[:1].isupper() and not name.isupper()}
    assert camel and camel <= PYTHON_MODULE_NAMES, sorted(camel - PYTHON_MODULE_NAMES)
    used = set()
    for p in protocols:
        for path in _generated(f"java/src/streamcodecs/{p.name}/*.java"):
            text = path.read_text(encoding="utf-8")
            if p.family == "kafka" or path.name == "Messages.java" or "Messages.*;" in text:
                text = re.sub(
                    r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/|^(?:import|package) [^\n]*', "", text, flags=re.S | re.M
                )
                used |= set(re.findall(r"(?<![.\w])([A-Z]\w*[a-z]\w*)\b", text))
    assert used - defined and used - defined <= JAVA_TYPES, sorted(used - defined - JAVA_TYPES)


def test_a_type_of_another_protocol_is_named_with_where_it_is_and_how_to_share_it(tmp_path: Path) -> None:
    """It was an unknown type with a list of this protocol's names, as if misspelt: the user who had defined it one
    file away was not told that a protocol sees only its own types and custom/'s."""
    other = JSON.replace("{name: shardId, type: string}", "{name: shardId, type: Pair}")
    other = other.replace("{name: responseFor, type: string}", "{name: responseFor, type: list<Hello>}")
    hint = "to share it between protocols, define it in the definitions' custom/*.yaml (customTypes: or enums:)"
    assert problems_of(tmp_path, {"a.yaml": BINARY, "b.yaml": other}) == [
        f"defs/b.yaml:{line_of(other, 'type: Pair')}: Start.shardId: type 'Pair' is a type of protocol 'demo' "
        f"(defs/a.yaml:{line_of(BINARY, 'name: Pair')}), which protocol 'jdemo' cannot name — {hint}",
        f"defs/b.yaml:{line_of(other, 'list<Hello>')}: Status.responseFor: type 'Hello' is a message of protocol "
        f"'demo' (defs/a.yaml:{line_of(BINARY, 'name: Hello')}), which protocol 'jdemo' cannot name — {hint}",
    ]


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("  - name: Start\n", "  - name: start\n", 'message #1, name: "start" is not a CamelCase name — write Start'),
        (
            "  - name: Start\n",
            "  - name: shard-started\n",
            '"shard-started" is not a CamelCase name — write ShardStarted',
        ),
        ("{name: down}", "{name: Down}", 'direction #1, name: "Down" is not a snake_case name — write down'),
        ("{name: down}", "{name: 9down}", "is not a snake_case name — use lower-case letters, digits and _"),
    ],
)
def test_a_name_of_the_wrong_form_is_named_in_words_with_the_name_to_write(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    """It said "'start' does not match '^[A-Z][A-Za-z0-9]*$' — it must match ^[A-Z][A-Za-z0-9]*$": the schema's
    regex, twice, for a rule the definition's author knows as CamelCase."""
    text, found = problems_after(tmp_path, JSON, old, new)
    assert len(found) == 1 and found[0].startswith(f"defs/demo.yaml:{line_of(text, new.strip())}: "), found
    assert found[0].endswith(says), found


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        # the parser notices at the next quote, lines later, in its own words ("expected <block end>, but found ...")
        (
            "    tag: start\n",
            '    tag: "start\n',
            'the " opened here is not closed on its line, so the value runs on to line {end} — close the " on line '
            "{line}",  # the next quote: tag "status"
        ),
        # or at the end of the file
        (
            "{name: responseFor, type: string}",
            "{name: responseFor, type: 'string}",
            "the ' opened here is not closed on its line, so the value runs on to the end of the file — close the ' on "
            "line {line}",
        ),
        ("    tag: start\n", "\ttag: start\n", "a tab character, and YAML indents with spaces only — use spaces"),
    ],
    ids=["quote closed later", "quote never closed", "tab"],
)
def test_yaml_syntax_errors_name_their_cause_at_its_line(tmp_path: Path, old: str, new: str, says: str) -> None:
    """An unclosed quote was reported where the parser gave up (the next quote, or the end of the file) in its own
    words, and a tab as "found character '\\t' that cannot start any token — fix the YAML syntax"."""
    text = JSON.replace("tag: status", 'tag: "status"').replace(old, new, 1)
    line = line_of(text, new.strip())
    end = line_of(text, 'tag: "status"')
    assert problems_for(tmp_path, text) == [f"defs/demo.yaml:{line}: YAML error: {says.format(line=line, end=end)}"]


# A definition broken as users break them (what, the text changed, the line's text, the problem): each said where
# PyYAML's or jsonschema's own words (a JSON pointer, "expected <block end>", "is a required property") were.
BROKEN_AS_USERS_DO = [
    (
        "key indented deeper",
        "    code: 2\n",
        "      code: 2\n",
        "      code: 2",
        "YAML error: this key is indented deeper (6 spaces) than the key above it, so YAML reads it as more of that "
        "key's value — indent it as the keys beside it",
    ),
    (
        "key indented between",
        "    code: 2\n",
        "   code: 2\n",
        "   code: 2",
        "YAML error: this line is indented 3 spaces, which lines up with no key (nor '- ' item) above it — indent it "
        "as the keys (or the '- ' items) it belongs with",
    ),
    (
        "key indented as the items",
        "    directions: [reply]\n",
        "  directions: [reply]\n",
        "  directions: [reply]",
        "YAML error: this key is indented 2 spaces, as the '- ' items of the list around it, not as the keys of one "
        "— indent it as the keys of its item, or start a new item with '- '",
    ),
    ("no colon", "    code: 2\n", "    code 2\n", "    code 2", "YAML error: this line is not `key: value`"),
    ("no space", "    code: 2\n", "    code:2\n", "    code:2", "YAML error: this line is not `key: value`"),
    (
        "a bracket left open",
        "{name: a, type: int32}",
        "{name: a, type: int32",
        "{name: a, type: int32",
        "YAML error: the { opened here is not closed on its line, so it runs on to line 16 — close it with } on line "
        "15",
    ),
    (
        "a ': ' in a value",
        "title: Demo",
        "title: Demo: the demo",
        "title: Demo",
        "YAML error: a second ': ' on this line, in a value that is not quoted — quote the value (\"...\")",
    ),
    (
        "a list where a mapping goes",
        "framing:\n  {byte_order",
        "framing:\n  - {byte_order",
        "framing:",
        "framing: a list is not a mapping — write a mapping (key: value lines)",
    ),
    (
        "a number where a string goes",
        "{name: a, type: int32}",
        "{name: a, type: 32}",
        "type: 32",
        "type 'Pair', field 'a', type: 32 is not a string — write a string",
    ),
    ("a missing key", "title: Demo\n", "", "protocol: demo", "`title` is missing — add `title: ...`"),
    (
        "a near miss",
        "{name: requestId, type: int64}\n      - {name: trace",
        "{name: requestId, tpye: int64}\n      - {name: trace",
        "tpye",
        "message 'Hello', field 'requestId': unknown key 'tpye' — did you mean 'type'?",
    ),
    ("a framing's near miss", "max_frame: 1024", "max_fram: 1024", "max_fram", "framing: unknown key 'max_fram'"),
    (
        "a second document",
        "enums:\n",
        "---\nenums:\n",
        "---",
        "YAML error: a second YAML document starts here (a '---' line), and a file holds one definition — remove "
        "this line and what follows it, or move that to a file of its own",
    ),
    # jsonschema's bounds, said as a reader says them ("a list is fewer items than 1 — give at least 1 item(s)")
    (
        "no version",
        'versions: ["1", "2"]',
        "versions: []",
        "versions: []",
        "versions: the list is empty — give at least 1 item",
    ),
    (
        "an empty wire name",
        "{name: a, type: int32}",
        '{name: "", type: int32}',
        'name: ""',
        "type 'Pair', field #1, name: \"\" is shorter than 1 character — write at least 1 character",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "marker", "says"), [c[1:] for c in BROKEN_AS_USERS_DO], ids=[c[0] for c in BROKEN_AS_USERS_DO]
)
def test_a_definition_broken_as_users_do_is_said_in_words_at_its_line(
    tmp_path: Path, old: str, new: str, marker: str, says: str
) -> None:
    """PyYAML's words ("mapping values are not allowed here", "expected <block end>, but found '?'", "could not find
    expected ':'", the last two a line after the cause) and jsonschema's ("/messages/0/fields/0: 'type' is a
    required property" beside "unknown key 'tpye'") were what a user read; each is now one problem in words, at the
    line to change, saying what to write."""
    text, found = problems_after(tmp_path, BINARY, old, new)
    assert len(found) == 1 and found[0].startswith(f"defs/demo.yaml:{line_of(text, marker)}: {says}"), found
    assert " — " in found[0] and not re.search(r": /|\^|<block|could not find|required property", found[0]), found


def test_a_definition_file_named_yml_is_reported_not_skipped(tmp_path: Path) -> None:
    """A protocol in ``demo.yml`` was silently not generated (only ``*.yaml`` is read): it is a problem, with the
    name to give it, in the definitions directory and in custom/ alike."""
    custom = "customTypes: []\nenums: []\n"
    assert problems_of(tmp_path, {"demo.yml": BINARY, "custom/Shared.YML": custom, "jdemo.yaml": JSON}) == [
        "defs/custom/Shared.YML: not read: definitions are the *.yaml files, and this one ends in .YML — rename it "
        "Shared.yaml",
        "defs/demo.yml: not read: definitions are the *.yaml files, and this one ends in .yml — rename it demo.yaml",
    ]


def test_a_shared_type_named_like_a_generated_name_is_a_problem_of_its_own_file(tmp_path: Path) -> None:
    custom = "customTypes: []\nenums:\n  - name: Map\n    type: int8\n    values: [{name: A, value: 1}]\n"
    demo = BINARY.replace("{name: a, type: int32}", "{name: a, type: Map}")
    assert problems_of(tmp_path, {"custom/Custom.yaml": custom, "demo.yaml": demo}) == [
        "defs/custom/Custom.yaml:3: 'Map' is a Java class the generated Java code uses (a class of that name would "
        "hide it) — rename it"
    ]


def test_javac_refusing_the_sources_is_an_error_message_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A definition the checks let through but javac refuses was a traceback ending in RuntimeError, exit 1: the
    user is told, in a message, that it is the generator's bug, with what javac said, and nothing is written."""
    from streamcodecs_gen import cli, jar

    fake = tmp_path / "javac"
    fake.write_text("#!/bin/sh\necho 'streamcodecs/demo/Messages.java:3: error: something javac refuses'\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(jar, "javac", lambda: str(fake))
    defs = tmp_path / "defs"
    defs.mkdir()
    (defs / "demo.yaml").write_text(JSON, encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["-l", "py", "-p", str(defs), "-r", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: javac refused the generated Java sources, so nothing was written.")
    assert "streamcodecs/demo/Messages.java:3: error: something javac refuses" in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize(
    ("base", "old", "new", "says"),
    [
        (
            BINARY,
            "      - {name: a, type: int32}\n",
            "      - {name: a, type: int32}\n      - {name: next, type: list<Pair>}\n",
            [("name: next", "type 'Pair' holds itself (Pair.next → Pair)")],
        ),
        (
            BINARY,
            "      - {name: a, type: int32}\n",
            "      - {name: a, type: Other}\n  - name: Other\n    fields:\n      - {name: b, type: list<Pair>}\n",
            [
                ("name: a, type: Other", "type 'Pair' holds itself (Pair.a → Other.b → Pair)"),
                ("name: b, type: list<Pair>", "type 'Other' holds itself (Other.b → Pair.a → Other)"),
            ],
        ),
        (
            JSON,
            "messages:\n",
            "types:\n  - name: Node\n    fields:\n"
            "      - {name: children, type: 'map<string,list<Node>>'}\nmessages:\n",
            [("name: children", "type 'Node' holds itself (Node.children → Node)")],
        ),
    ],
    ids=["a list of itself", "through another type", "a map of lists of itself"],
)
def test_a_type_that_holds_itself_is_a_problem_not_a_recursion_error(
    tmp_path: Path, base: str, old: str, new: str, says: list[tuple[str, str]]
) -> None:
    """A struct holding itself (a tree) made the vectors recurse without end: a RecursionError's traceback, exit 1.
    Its Spark schema would have no end either; the problem is at each field that leads back."""
    text = base.replace(old, new, 1)
    found = problems_for(tmp_path, text)
    hint = " — a type cannot hold itself, however deep: use `any` (JSON) for a value of any depth, or end the chain"
    assert found == [f"defs/demo.yaml:{line_of(text, marker)}: {words}{hint}" for marker, words in says], found
    defs = tmp_path / "defs"
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, str(REPO / "generator.py"), "-p", str(defs), "-r", str(out), "-l", "py", "-q"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr and not out.exists(), result.stderr


def test_every_list_of_the_schemas_names_its_items_in_words() -> None:
    """A problem in a list's item says what the item is (``charset #2``), never ``an item of text_charsets #2``."""
    import json

    from streamcodecs_gen.schema import _ITEMS

    lists: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            lists.update(k for k, v in node.get("properties", {}).items() if isinstance(v, dict) and "items" in v)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for schema in sorted((REPO / "schema").glob("*.json")):
        walk(json.loads(schema.read_text(encoding="utf-8")))
    assert lists and lists <= set(_ITEMS), sorted(lists - set(_ITEMS))


def _shaped(*shapes: tuple[str, str]) -> str:
    """JSON with shape messages (name, shape) after its tagged ones, each up with fields id and stream."""
    return JSON + "".join(
        f"  - name: {name}\n    shape: {shape}\n    directions: [up]\n    fields:\n"
        "      - {name: id, type: string}\n      - {name: stream, type: string, optional: true}\n"
        for name, shape in shapes
    )


BEAT = ("Beat", "{json: object, keys: [id]}")
TICK = ("Tick", "{json: object, keys: [id], match: {stream: tick}}")


@pytest.mark.parametrize(
    ("shapes", "says"),
    [
        ([TICK, BEAT], []),  # the specific one first: both can match
        (
            [BEAT, TICK],
            ["Tick", "shape of 'Tick' can never match in direction 'up': every value it matches matches 'Beat' (line"],
        ),
        (
            [TICK, ("Tock", "{json: object, keys: [stream, id], match: {stream: tick}}")],
            ["Tock", "shape of 'Tock' can never match in direction 'up': every value it matches matches 'Tick' (line"],
        ),
        (
            [("Pair", "{json: array}"), ("Other", "{json: array}")],
            ["Other", "shape of 'Other' can never match in direction 'up': every value it matches matches 'Pair'"],
        ),
    ],
    ids=["specific first", "general first", "the same shape", "two arrays"],
)
def test_a_shape_that_can_never_match_is_a_problem(
    tmp_path: Path, shapes: list[tuple[str, str]], says: list[str]
) -> None:
    """Shapes are tried in declaration order: one behind a shape that matches all it matches was generated without a
    word, and its message never decoded."""
    text = _shaped(*shapes)
    if shapes[0][1] == "{json: array}":  # an array message has one field, its list
        text = text.replace(
            "      - {name: id, type: string}\n      - {name: stream, type: string, optional: true}\n",
            "      - {name: items, type: 'list<int32>'}\n",
        )
        text = text.replace("keys: [id]", "keys: [items]")
    found = problems_for(tmp_path, text)
    if not says:
        assert found == [], found
        return
    name, words = says
    line = line_of(text, f"- name: {name}") + 1  # its shape's line
    assert len(found) == 1 and found[0].startswith(f"defs/demo.yaml:{line}: {words}"), found
