"""Load, validate and model every definition: the stages before rendering, with all problems collected."""

from __future__ import annotations

from pathlib import Path

from .checks import Context, run_checks
from .load import Document, Mapping, load_definitions
from .model import Protocol, build_protocol
from .problems import DefinitionError, Problem
from .schema import CUSTOM_SCHEMA, PROTOCOL_SCHEMA, validate_document


def _custom_types(customs: list[Document], problems: list[Problem]) -> tuple[dict[str, Mapping], dict[str, Mapping]]:
    structs: dict[str, Mapping] = {}
    enums: dict[str, Mapping] = {}
    for doc in customs:
        found = validate_document(doc, CUSTOM_SCHEMA)
        problems.extend(found)
        if found:
            continue
        for node in doc.data.get("customTypes", []):
            if node["name"] in structs:
                problems.append(
                    Problem(
                        doc.path, node.line, f"custom type {node['name']!r} is defined twice", "keep one definition"
                    )
                )
            structs[node["name"]] = node
        for node in doc.data.get("enums", []):
            if node["name"] in enums:
                problems.append(
                    Problem(
                        doc.path, node.line, f"custom enum {node['name']!r} is defined twice", "keep one definition"
                    )
                )
            enums[node["name"]] = node
    return structs, enums


def load_protocols(
    definitions: Path, display_root: Path, *, id_check: bool = True, only: list[str] | None = None
) -> list[Protocol]:
    """Every protocol in ``definitions``, validated and modelled; raises DefinitionError with all problems.

    ``only`` names protocols the caller will restrict itself to: unknown names are problems too.
    """
    loaded = load_definitions(definitions, display_root)
    documents, customs = loaded.protocols, loaded.customs
    problems: list[Problem] = list(loaded.problems)  # unreadable files; the others are still checked
    custom_structs, custom_enums = _custom_types(customs, problems)
    valid: list[Context] = []
    names: dict[str, str] = {}
    for doc in documents:
        found = validate_document(doc, PROTOCOL_SCHEMA)
        problems.extend(found)
        if found:
            continue
        name = doc.data["protocol"]
        if name in names:
            problems.append(
                Problem(
                    doc.path,
                    doc.data.line_of("protocol"),
                    f"protocol {name!r} is also defined in {names[name]}",
                    "rename one of them",
                )
            )
        names[name] = doc.path
        if not loaded.customs_complete:  # the checks would report the unreadable file's types as unknown
            continue
        ctx = Context(doc, custom_structs, custom_enums, id_check=id_check)
        # Custom types are checked in the context of each protocol that can use them.
        found = run_checks(ctx)
        problems.extend(found)
        if not found:
            valid.append(ctx)
    if only and not loaded.problems:  # an unreadable file may define the protocol asked for
        unknown = sorted(set(only) - set(names))
        for name in unknown:
            problems.append(
                Problem(
                    str(definitions),
                    0,
                    f"--protocol {name!r} is not defined",
                    "use one of: " + ", ".join(sorted(names)),
                )
            )
    if problems:
        raise DefinitionError(problems)
    return [build_protocol(c.doc, c.types) for c in valid]
