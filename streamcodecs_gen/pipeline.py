"""The stages before rendering: load, validate against the schema, build the model, check it; all problems at once.

Each definition is built into its model (``build.py``) whatever its semantic problems, from the part the schema
accepts (``schema.checked_document``: without the list items of a shape the builder cannot read); the checks
(``checks/``) run over that model, and the protocols without problems are returned as built, for the targets. So a
user meets every problem of every file in one run: a schema problem does not hide the semantic ones of the rest of
its file, and a file that cannot be read at all (YAML syntax, or a custom/ file of the wrong shape) does not hide
the problems of the others.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from .build import Built, SharedTypes, build_protocol
from .checks import Context, run_checks
from .checks.context import EVERY_NAME
from .checks.field_types import check_unused_shared_types
from .load import Document, Mapping, load_definitions
from .model import Protocol
from .problems import DefinitionError, Problem
from .schema import CUSTOM_SCHEMA, PROTOCOL_SCHEMA, checked_document


@dataclass
class _Unread:
    """What the checks cannot read: type names the schema refused, or every name when a custom/ file is unread."""

    names: set[str] = field(default_factory=set)
    customs: bool = False
    """A file of custom/ could not be read, or a type or enum without a name was left out: any type name may be
    one of those."""
    protocols: bool = False
    """A protocol file could not be read: any protocol name may be its."""
    left_out: frozenset[str] = frozenset()
    """The lists of custom/ files the schema left items out of (``enums/values``, ``customTypes/fields``): what a
    protocol's checks read of its shared types may lack them too."""

    def of_types(self) -> Container[str]:
        return EVERY_NAME if self.customs else frozenset(self.names)


def _shared_types(customs: list[Document], problems: list[Problem], unread: _Unread) -> SharedTypes:
    """The custom types of the parts of files the schema accepts, by name; a name defined twice is a problem."""
    structs: dict[str, Mapping] = {}
    enums: dict[str, Mapping] = {}
    first: dict[tuple[str, str], str] = {}  # (section, name) -> where it is defined first
    for doc in customs:
        checked = checked_document(doc, CUSTOM_SCHEMA)
        problems.extend(checked.problems)
        unread.names |= checked.dropped
        unread.left_out |= checked.left_out
        if checked.accepted is None or checked.unnamed:
            unread.customs = True
        if checked.accepted is None:
            continue
        for section, kind, known in (("customTypes", "custom type", structs), ("enums", "custom enum", enums)):
            for node in checked.accepted.get(section, []):
                if node["name"] in known:
                    where = first[section, node["name"]]
                    problems.append(
                        Problem(
                            doc.path,
                            node.line,
                            f"{kind} {node['name']!r} is defined twice (first at {where})",
                            "keep one definition",
                        )
                    )
                first.setdefault((section, node["name"]), f"{doc.path}:{node.line}")
                known[node["name"]] = node
    return SharedTypes(structs, enums)


@dataclass(frozen=True)
class _Model:
    """The model of a protocol file: of all of it (``whole``: the schema accepted it), else of what the schema
    accepted (without the items of the lists ``left_out`` names)."""

    built: Built
    whole: bool
    left_out: frozenset[str]
    read_past: frozenset[int]
    """The lines of values the schema refused but the model holds: the checks' problems there are the same fault."""


def _built(documents: list[Document], shared: SharedTypes, problems: list[Problem], unread: _Unread) -> list[_Model]:
    """The model of the part of every definition the schema accepts; a protocol name defined twice is a problem."""
    built: list[_Model] = []
    names: dict[str, str] = {}
    for doc in documents:
        checked = checked_document(doc, PROTOCOL_SCHEMA)
        problems.extend(checked.problems)
        unread.names |= checked.dropped
        unread.customs = unread.customs or checked.unnamed
        whole = not checked.problems
        one = None
        if checked.accepted is not None:
            stage = functools.partial(build_protocol, Document(doc.path, checked.accepted), shared)
            one = _guarded(stage, doc.path, checked.left_out, problems)
        if one is None:
            unread.protocols = True
            continue
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
        built.append(_Model(one, whole, checked.left_out, checked.read_past))
    return built


_T = TypeVar("_T")


def _guarded(stage: Callable[[], _T], file: str, left_out: frozenset[str], problems: list[Problem]) -> _T | None:
    """``stage()`` of a file; of one the schema left items out of (``left_out``: ``schema.checked_document``), None
    where it fails, and a problem saying that the rest of the file was not checked: what the stage reads may be an
    item left out (one another names), and the schema's problems are what the user has to fix first. A file nothing
    was left out of holds every item, each of the shape the stage reads (the values the schema refused and the model
    keeps are of it): a failure there is the generator's own, raised, not taken for one of the file's problems."""
    if not left_out:
        return stage()
    try:
        return stage()
    except Exception:  # noqa: BLE001 - it may need what was left out: the schema's problems say what to fix
        problems.append(
            Problem(
                file,
                0,
                "the rest of this file was not checked: its checks need the parts its other problems leave out",
                "fix those and run again",
            )
        )
        return None


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
    unread = _Unread(customs=not loaded.customs_complete, protocols=len(loaded.problems) > 0)
    shared = _shared_types(loaded.customs, problems, unread)
    built = _built(loaded.protocols, shared, problems, unread)
    protocols = [model.built for model in built]
    valid: list[Protocol] = []
    used: set[str] = set()  # the shared custom types some protocol uses (its checks read them)
    for model in built:
        one = model.built
        # Shared custom types are checked in the context of each protocol that uses them.
        elsewhere = _defined_elsewhere(protocols, one)
        context = Context(
            one.protocol,
            one.scope,
            id_check=id_check,
            elsewhere=elsewhere,
            left_out=model.left_out | unread.left_out,
            unread=unread.of_types(),
        )
        used.update(context.used_shared_structs())
        file = one.protocol.source
        found = _guarded(functools.partial(run_checks, context), file, model.left_out, problems)
        problems.extend(p for p in found or [] if p.file != file or p.line not in model.read_past)
        if model.whole and not found:
            valid.append(one.protocol)
    problems.extend(check_unused_shared_types(shared.structs, shared.enums, used, unread.of_types()))
    if only and not unread.protocols:  # an unreadable file may define the protocol asked for
        names = {one.protocol.name for one in protocols}
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
