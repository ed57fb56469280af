"""JSON Schema validation of loaded definitions, reporting every violation with its line."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from .load import Document, Mapping, Sequence
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
        return "allowed keys here: " + ", ".join(allowed)
    if error.validator == "enum":
        return "use one of: " + ", ".join(repr(v) for v in error.validator_value)
    if error.validator == "required":
        return "add it"
    if error.validator == "pattern" and "version" in str(error.schema.get("description", "")):
        return 'write versions as quoted strings such as "2.10"'
    if error.validator == "type" and error.validator_value == "string" and isinstance(error.instance, float):
        return f"quote it: YAML reads {error.instance!r} as a number"
    if error.validator == "pattern":
        return f"it must match {error.validator_value}"
    return str(error.schema.get("description", ""))


def _message(error: jsonschema.ValidationError) -> str:
    where = "/" + "/".join(str(p) for p in error.absolute_path)
    if error.validator == "enum":
        return f"{where}: {error.instance!r} is not allowed"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"{where}: unknown key{'s' if len(extra) > 1 else ''} " + ", ".join(repr(k) for k in extra)
    return f"{where}: {error.message}"


def validate_document(doc: Document, schema_name: str) -> list[Problem]:
    validator = _validator(schema_name)
    problems = []
    for error in validator.iter_errors(doc.data):
        # Prefer the most specific error of an if/then or anyOf.
        leaves = list(error.context) if error.context else [error]
        for leaf in leaves:
            path = list(leaf.absolute_path)
            if leaf.validator == "additionalProperties" and isinstance(leaf.instance, dict):
                extra = sorted(set(leaf.instance) - set(leaf.schema.get("properties", {})))
                path += extra[:1]  # point at the first unknown key itself
            problems.append(Problem(doc.path, line_at(doc.data, path), _message(leaf), _hint(leaf)))
    return problems
