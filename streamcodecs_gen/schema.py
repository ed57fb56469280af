"""JSON Schema validation of loaded definitions, reporting every violation with its line."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from .load import Document, Mapping, Sequence
from .naming import snake_case, upper_snake_case
from .problems import Problem

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
PROTOCOL_SCHEMA = "protocol-schema.json"
CUSTOM_SCHEMA = "custom-schema.json"


@cache
def _validator(name: str) -> jsonschema.Draft7Validator:
    schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    return jsonschema.Draft7Validator(schema)


def line_at(data: Any, path: list[str | int] | tuple[str | int, ...]) -> int:
    """The line of the deepest node on ``path`` that carries a line number."""
    line = getattr(data, "line", 1) or 1
    node = data
    for step in path:
        if isinstance(node, Mapping) and isinstance(step, str) and step in node:
            line = node.line_of(step)
        elif isinstance(node, Sequence) and isinstance(step, int) and 0 <= step < len(node):
            line = node.line_of(step)
        else:
            break
        node = node[step]
    return line


def _hint(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        near = [f"{key!r} for {close[0]!r}" for key in _unknown_keys(error) if (close := _near(key, allowed))]
        if len(near) == 1 and len(_unknown_keys(error)) == 1:
            return f"did you mean {near[0].split(' for ')[1]}?"
        if near:
            return "did you mean " + ", ".join(near) + "? (allowed keys here: " + ", ".join(allowed) + ")"
        return "allowed keys here: " + ", ".join(allowed)
    if error.validator == "enum":
        return "use one of: " + ", ".join(_yaml(v) for v in error.validator_value)
    if error.validator == "required":
        return f"add `{_missing_key(error)}: ...`"
    if error.validator == "type" and error.validator_value == "string" and isinstance(error.instance, float):
        return f"quote it: YAML reads {_yaml(error.instance)} as a number"
    if error.validator == "pattern":
        pattern = _PATTERNS.get(str(error.validator_value), _ANY_PATTERN)
        spelled = pattern.spell(str(error.instance))
        fits = spelled != error.instance and re.fullmatch(str(error.validator_value), spelled)
        return f"write {spelled}" if fits else pattern.how
    if error.validator == "type":
        return _type_hint(error)
    if error.validator == "minimum":
        return f"use {error.validator_value} or more"
    if error.validator == "minItems":
        return f"give at least {_counted(error.validator_value, 'item')}"
    if error.validator == "minLength":
        return f"write at least {_counted(error.validator_value, 'character')}"
    if error.validator == "const":
        return f"write {_yaml(error.validator_value)}"
    return str(error.schema.get("description", "")) or "see docs/definition-format.md for what goes here"


# JSON Schema's type names in the words of a YAML definition.
_TYPE_WORDS = {
    "object": "a mapping (key: value lines)",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _expected(error: jsonschema.ValidationError) -> list[str]:
    """The JSON types a ``type`` error wanted, ``integer`` left out beside ``number`` (which says it)."""
    expected = [
        str(t) for t in (error.validator_value if isinstance(error.validator_value, list) else [error.validator_value])
    ]
    return [t for t in expected if not (t == "integer" and "number" in expected)]


def _type_hint(error: jsonschema.ValidationError) -> str:
    """What to write where a value of another type was found."""
    expected = _expected(error)
    words = " or ".join(_TYPE_WORDS.get(t, t) for t in expected)
    if error.instance is None and not error.absolute_path:
        return "write a definition (see docs/definition-format.md)"
    hint = f"write {words}"
    if isinstance(error.instance, bool) and "boolean" not in expected:
        hint += " (YAML reads true/false, yes/no and on/off as booleans: quote it if it is text)"
    elif error.instance is None:
        hint += " (YAML reads null, ~ and an empty value as null)"
    return hint


def _yaml(value: Any) -> str:
    """A value as a definition's reader knows it: a scalar as YAML writes it (true, 0.5, "text"), a collection by its
    kind (a list, a mapping); never a Python repr (True, {'a': 1})."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _yaml_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _yaml_number(value: float) -> str:
    if value != value:  # NaN
        return ".nan"
    if value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    return repr(value)


@dataclass(frozen=True)
class _Name:
    """A name pattern of the schemas in words: what such a name is, how to write one, and the name rewritten so."""

    words: str
    how: str
    spell: Callable[[str], str]


def _camel(name: str) -> str:
    return "".join(word[:1].upper() + word[1:] for word in snake_case(name).split("_"))


def _same(text: str) -> str:
    return text


_TOKEN = "!#$%&'*+.^_`|~-"
"""The characters besides letters and digits that a header name (an HTTP token) may hold."""

_NAME_PATTERNS = {
    "^[A-Z][A-Za-z0-9]*$": _Name("a CamelCase name", "start with a capital letter, then letters and digits", _camel),
    "^[A-Z][A-Z0-9_]*$": _Name(
        "an UPPER_SNAKE_CASE name", "use capital letters, digits and _, starting with a letter", upper_snake_case
    ),
    "^[a-z_][a-z0-9_]*$": _Name("a snake_case name", "use lower-case letters, digits and _", snake_case),
}
"""The names the schemas' patterns ask for: a name that is not one is reported in these words, not as a regex."""

_PATTERNS = {
    **_NAME_PATTERNS,
    "^[0-9]+(\\.[0-9]+)*$": _Name(
        "a version (numbers joined by dots)", 'write versions as quoted strings such as "2.10"', _same
    ),
    "^[A-Za-z_][A-Za-z0-9_]*$": _Name(
        "an identifier", "use letters, digits and _, starting with a letter or _", lambda t: re.sub(r"\W", "_", t)
    ),
    "^[a-z][a-z0-9_]*$": _Name(
        "a lower-case name", "use lower-case letters, digits and _, starting with a letter", snake_case
    ),
    f"^[a-z0-9{_TOKEN}]+$": _Name(
        "a lower-case header name", f"use lower-case letters, digits and {_TOKEN} (no spaces)", str.lower
    ),
    f"^[a-z0-9{_TOKEN}/]+$": _Name(
        "a lower-case header value prefix", f"use lower-case letters, digits and {_TOKEN}/ (no spaces)", str.lower
    ),
    f"^[{_TOKEN}0-9A-Za-z-]+/[{_TOKEN}0-9A-Za-z-]+$": _Name(
        "a media type", "write type/subtype without parameters, such as application/json", str.strip
    ),
    "^[ -~]+$": _Name("printable ASCII", "use printable ASCII characters only (a space to ~)", _same),
    "^[A-Za-z0-9_.+-]+$": _Name("a media subtype or suffix", "use letters, digits and _.+- only", str.strip),
}
"""Every pattern of the schemas, in words: what a value of it is, how to write one, and the value rewritten so."""

_ANY_PATTERN = _Name("of the form this key takes", "see docs/definition-format.md for what goes here", _same)
"""A pattern without words of its own (a schema's new one): still no regex for the user."""


def _message(error: jsonschema.ValidationError, data: Any) -> str:
    where = _where(data, list(error.absolute_path))
    if error.validator == "pattern":
        pattern = _PATTERNS.get(str(error.validator_value), _ANY_PATTERN)
        return f"{where}{_yaml(error.instance)} is not {pattern.words}"
    if error.validator == "type" and error.instance is None and not error.absolute_path:
        return "the file is empty"
    if error.validator == "type" and error.instance is None:
        return f"{where}the value is null"
    if error.validator == "type":
        words = " or ".join(_TYPE_WORDS.get(t, t).split(" (")[0] for t in _expected(error))
        return f"{where}{_yaml(error.instance)} is not {words}"
    if error.validator in ("enum", "not"):  # (not: a reserved value, such as a variant named json)
        return f"{where}{_yaml(error.instance)} is not allowed"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        extra = _unknown_keys(error)
        return f"{where}unknown key{'s' if len(extra) > 1 else ''} " + ", ".join(repr(k) for k in extra)
    if error.validator == "required":
        return f"{where}`{_missing_key(error)}` is missing"
    if error.validator in ("minItems", "maxItems") and isinstance(error.instance, list):
        items = len(error.instance)
        shown = "the list is empty" if not items else f"the list has {_counted(items, 'item')}"
        bound = "fewer" if error.validator == "minItems" else "more"
        return f"{where}{shown}" + ("" if not items else f", {bound} than {error.validator_value}")
    if error.validator == "minLength":
        return f"{where}{_yaml(error.instance)} is shorter than {_counted(error.validator_value, 'character')}"
    if error.validator == "uniqueItems":
        return f"{where}the list has an item twice"
    bounds = {"minimum": "less than {}", "maximum": "more than {}"}
    if error.validator in bounds:
        return f"{where}{_yaml(error.instance)} is " + bounds[str(error.validator)].format(error.validator_value)
    return f"{where}{error.message}"


def _counted(count: int, noun: str) -> str:
    """``1 item``, ``3 items``: a count as a reader says it."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


# What one item of each list of the schemas is, in words.
_ITEMS = {
    "messages": "message",
    "fields": "field",
    "types": "type",
    "customTypes": "custom type",
    "enums": "enum",
    "values": "member",
    "directions": "direction",
    "versions": "version",
    "constants": "constant",
    "companions": "companion",
    "variants": "variant",
    "mappers": "key mapper",
    "keys": "key",
    "formats": "format",
    "charsets": "charset",
    "text_charsets": "charset",
    "subtypes": "subtype",
    "suffixes": "suffix",
    "reserved": "reserved name",
}


def _where(data: Any, path: list[str | int]) -> str:
    """Where a schema problem is, in words, ending in ": " (empty for the file's own value): the items it is in,
    by their kind and name (``message 'Start', field 'shardId'``), and the key it is of (``code``)."""
    parts: list[str] = []
    keys: list[str] = []
    node = data
    for index, step in enumerate(path):
        if isinstance(step, int):
            owner = keys.pop() if keys else ""
            if keys:
                parts.append(".".join(keys))
            keys = []
            kind = _ITEMS.get(owner, f"an item of {owner}")
            item = node[step] if isinstance(node, list) and 0 <= step < len(node) else None
            name = item.get("name") if isinstance(item, dict) else None
            named = isinstance(name, str) and path[index + 1 :] != ["name"]
            parts.append(f"{kind} {name!r}" if named else f"{kind} {_ordinal(step + 1)}")
        else:
            keys.append(step)
        node = _child(node, step)
    if keys:
        parts.append(".".join(keys))
    return ", ".join(parts) + ": " if parts else ""


def _child(node: Any, step: str | int) -> Any:
    """The value at ``step`` of a mapping or list; None where there is none."""
    if isinstance(node, dict):
        return node.get(step)
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return None


def _ordinal(n: int) -> str:
    """1 as "#1": an item without a name, counted from 1 as its file lists them."""
    return f"#{n}"


def _unknown_keys(error: jsonschema.ValidationError) -> list[str]:
    return sorted(set(error.instance) - set(error.schema.get("properties", {})))


def _missing_key(error: jsonschema.ValidationError) -> str:
    """The key a ``required`` error is of (jsonschema reports each missing key as an error of its own)."""
    missing = [key for key in error.validator_value if key not in error.instance]
    return next((key for key in missing if repr(key) in error.message), missing[0] if missing else "?")


def _near(key: str, allowed: list[str]) -> list[str]:
    return difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)


def _misspelt(error: jsonschema.ValidationError) -> bool:
    """A missing key written with a near-miss spelling: the unknown key's problem says what to write."""
    if error.validator != "required" or not isinstance(error.instance, dict):
        return False
    key = _missing_key(error)
    return any(_near(other, [key]) for other in error.instance if other not in error.schema.get("properties", {}))


def validate_document(doc: Document, schema_name: str) -> list[Problem]:
    return checked_document(doc, schema_name).problems


@dataclass(frozen=True)
class Checked:
    """A document against its schema: the problems, and the part of it the semantic checks can still read.

    ``accepted`` is the document without each list item (a message, a field, an enum member, ...) that holds a
    problem of shape (a value of another type, a required key missing, a value not among those allowed), so that
    the builder and the checks, which trust the schema's shapes, meet none; a problem they read past (an unknown
    key, a name of the wrong form, a number out of the schema's range) keeps its item.  It is None when a problem of
    shape is outside every list item (the file's own keys, its framing): nothing of the file can be read safely.
    ``dropped`` holds the names of the types and enums left out, which the checks are not to call unknown
    (``unnamed``: one of them has no name that can be read).
    """

    problems: list[Problem]
    accepted: Any | None
    dropped: frozenset[str] = frozenset()
    unnamed: bool = False
    left_out: frozenset[str] = frozenset()
    """The lists items were left out of, by their keys: ``messages``, ``messages/fields``, ``enums/values``."""
    read_past: frozenset[int] = frozenset()
    """The lines of the values kept though the schema refuses them (a name of the wrong form, a number out of
    range): a semantic check that refuses the same value there says what the schema's problem says."""


_READ_PAST = frozenset(
    {
        "additionalProperties",
        "pattern",
        "not",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "uniqueItems",
    }
)
"""The schema's rules whose breach leaves a value of the shape the builder reads (it ignores an unknown key)."""

_NAMED_SECTIONS = frozenset({"types", "enums", "customTypes"})
"""The lists whose items other parts of a definition name as types."""


def checked_document(doc: Document, schema_name: str) -> Checked:
    validator = _validator(schema_name)
    problems = []
    drop: set[tuple[str | int, ...]] = set()
    misnamed: set[tuple[str | int, ...]] = set()  # items kept whose name is of the wrong form
    also: set[str] = set()  # the names of such types, as the schema's problem says to write them
    read_past: set[int] = set()
    unknown: dict[tuple[str | int, ...], set[str]] = {}  # the keys the schema does not know, by their mapping's path
    whole = False
    for error in validator.iter_errors(doc.data):
        leaves = list(error.context) if error.context else [error]
        path = tuple(error.absolute_path)
        items = [i for i, step in enumerate(path) if isinstance(step, int)]
        kept = error.validator in _READ_PAST and all(leaf.validator in _READ_PAST for leaf in leaves)
        if not kept:
            if items:
                drop.add(path[: items[-1] + 1])
            else:
                whole = True
        elif error.validator == "pattern" and path[-1:] == ("name",) and items:
            # Looked up under the name it was meant to have, it is not found: as if it were left out.
            misnamed.add(path[: items[-1] + 1])
            name = _NAME_PATTERNS.get(str(error.validator_value))
            if name is not None and len(path) == 3 and path[0] in _NAMED_SECTIONS:
                also.add(name.spell(str(error.instance)))
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            unknown.setdefault(path, set()).update(_unknown_keys(error))  # (read past: not built, as not written)
        found = _problems(doc, leaves)
        if kept and error.validator != "additionalProperties":  # (a value left out is not checked again: no line)
            read_past.update(problem.line for problem in found)
        problems.extend(found)
    if whole:
        return Checked(problems, None)
    named = [doc.data[path[0]][path[1]] for path in drop if len(path) == 2 and path[0] in _NAMED_SECTIONS]
    names = [node.get("name") if isinstance(node, dict) else None for node in named]
    dropped = frozenset(name for name in names if isinstance(name, str)) | also
    left_out = frozenset("/".join(str(step) for step in path if isinstance(step, str)) for path in drop | misnamed)
    accepted = _without(doc.data, drop, (), unknown)
    return Checked(problems, accepted, dropped, len(dropped) < len(names), left_out, frozenset(read_past))


def _without(
    node: Any,
    drop: set[tuple[str | int, ...]],
    path: tuple[str | int, ...],
    unknown: dict[tuple[str | int, ...], set[str]],
) -> Any:
    """A copy of a loaded node without the list items at the paths ``drop`` and the keys ``unknown`` names (by their
    mapping's path: what the schema does not know is not built, as if it were not written); every copy keeps its
    lines."""
    if not any(d[: len(path)] == path for d in [*drop, *unknown]):
        return node
    if isinstance(node, Mapping):
        strip = unknown.get(path, set())
        pairs = ((key, _without(value, drop, (*path, key), unknown)) for key, value in node.items() if key not in strip)
        copy = Mapping(pairs)
        lines = {key: line for key, line in node.key_lines.items() if key not in strip}
        copy.line, copy.key_lines, copy.source, copy.path = node.line, lines, node.source, node.path
        return copy
    if isinstance(node, Sequence):
        kept = [i for i in range(len(node)) if (*path, i) not in drop]
        items = Sequence(_without(node[i], drop, (*path, i), unknown) for i in kept)
        items.line, items.item_lines = node.line, [node.line_of(i) for i in kept]
        return items
    return node


def _problems(doc: Document, leaves: list[jsonschema.ValidationError]) -> list[Problem]:
    """The problems of one error, each at its line: the most specific errors of an if/then or anyOf."""
    problems = []
    for leaf in leaves:
        path = list(leaf.absolute_path)
        if leaf.validator == "additionalProperties" and isinstance(leaf.instance, dict):
            extra = sorted(set(leaf.instance) - set(leaf.schema.get("properties", {})))
            path += extra[:1]  # point at the first unknown key itself
        if _misspelt(leaf):
            continue
        problems.append(Problem(doc.path, line_at(doc.data, path), _message(leaf, doc.data), _hint(leaf)))
    return problems
