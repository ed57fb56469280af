"""The stages before rendering: load, validate against the schema, build the model, check it; all problems at once.

Each definition the schema accepts is built into its model (``build.py``) whatever its semantic problems; the checks
(``checks/``) run over that model, and the protocols without problems are returned as built, for the targets.
"""

from __future__ import annotations

from pathlib import Path

from .build import Built, SharedTypes, build_protocol
from .checks import Context, run_checks
from .load import Document, Mapping, load_definitions
from .model import Protocol
from .problems import DefinitionError, Problem
from .schema import CUSTOM_SCHEMA, PROTOCOL_SCHEMA, validate_document


def _shared_types(customs: list[Document], problems: list[Problem]) -> SharedTypes:
    """The custom types of the files the schema accepts, by name; a name defined twice is a problem."""
    structs: dict[str, Mapping] = {}
    enums: dict[str, Mapping] = {}
    for doc in customs:
        found = validate_document(doc, CUSTOM_SCHEMA)
        problems.extend(found)
        if found:
            continue
        for section, kind, known in (("customTypes", "custom type", structs), ("enums", "custom enum", enums)):
            for node in doc.data.get(section, []):
                if node["name"] in known:
                    problems.append(
                        Problem(doc.path, node.line, f"{kind} {node['name']!r} is defined twice", "keep one definition")
                    )
                known[node["name"]] = node
    return SharedTypes(structs, enums)


def _built(documents: list[Document], shared: SharedTypes, problems: list[Problem]) -> list[Built]:
    """The model of every definition the schema accepts; a protocol name defined twice is a problem."""
    built: list[Built] = []
    names: dict[str, str] = {}
    for doc in documents:
        found = validate_document(doc, PROTOCOL_SCHEMA)
        problems.extend(found)
        if found:
            continue
        one = build_protocol(doc, shared)
        protocol = one.protocol
        if protocol.name in names:
            problems.append(
                Problem(
                    protocol.source,
                    protocol.origin.line_of("protocol"),
                    f"protocol {protocol.name!r} is also defined in {names[protocol.name]}",
                    "rename one of them",
                )
            )
        names[protocol.name] = protocol.source
        built.append(one)
    return built


def _defined_elsewhere(built: list[Built], one: Built) -> dict[str, str]:
    """The types, enums and messages the other protocols define, each to what and where it is."""
    found: dict[str, str] = {}
    for other in built:
        if other is one:
            continue
        p = other.protocol
        for kind, nodes in (
            ("a type", other.scope.own_structs),
            ("an enum", other.scope.own_enums),
            ("a message", p.messages),
        ):
            for node in nodes:
                found.setdefault(node.name, f"{kind} of protocol {p.name!r} ({node.origin.file}:{node.origin.line})")
    return found


def load_protocols(
    definitions: Path, display_root: Path, *, id_check: bool = True, only: list[str] | None = None
) -> list[Protocol]:
    """Every protocol in ``definitions``, validated, modelled and checked; raises DefinitionError with all problems.

    ``only`` names protocols the caller will restrict itself to: unknown names are problems too.
    """
    loaded = load_definitions(definitions, display_root)
    problems: list[Problem] = list(loaded.problems)  # unreadable files; the others are still checked
    shared = _shared_types(loaded.customs, problems)
    built = _built(loaded.protocols, shared, problems)
    valid: list[Protocol] = []
    if loaded.customs_complete:  # else the checks would report the unreadable file's types as unknown
        for one in built:
            # Shared custom types are checked in the context of each protocol that uses them.
            elsewhere = _defined_elsewhere(built, one)
            found = run_checks(Context(one.protocol, one.scope, id_check=id_check, elsewhere=elsewhere))
            problems.extend(found)
            if not found:
                valid.append(one.protocol)
    if only and not loaded.problems:  # an unreadable file may define the protocol asked for
        names = {one.protocol.name for one in built}
        for name in sorted(set(only) - names):
            problems.append(
                Problem(
                    str(definitions),
                    0,
                    f"--protocol {name!r}: no protocol of that name is defined here",
                    "pass one of: " + ", ".join(sorted(names)),
                )
            )
    if problems:
        raise DefinitionError(problems)
    return valid
