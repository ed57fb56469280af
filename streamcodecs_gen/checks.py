"""Semantic checks beyond the JSON Schema.

Each check is a function ``(Context) -> Iterator[Problem]``; :data:`CHECKS` lists them in order and
:func:`run_checks` runs every one of them so that all problems are reported at once.  The checks run on the loaded
data (which carries line numbers), after the schema has accepted it.  Type expressions are parsed and resolved once,
by the context's :class:`~.resolve.TypeScope`, which the model is then built from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .families import Family, family
from .load import Document, Mapping
from .naming import RESERVED_ATTRIBUTES, SHADOWING, identifier_problem, snake_case
from .problems import Problem, suggest
from .resolve import TypeExpr, TypeScope
from .types import CONTAINERS, MAP_KEY, WIRE_TYPES
from .versions import version_key


@dataclass
class Context:
    doc: Document
    custom_structs: dict[str, Mapping] = field(default_factory=dict)
    custom_enums: dict[str, Mapping] = field(default_factory=dict)
    id_check: bool = True

    @property
    def data(self) -> Mapping:
        return self.doc.data

    @property
    def family(self) -> str:
        return self.data["family"]

    @property
    def wire_family(self) -> Family:
        """The family object (``families/``): its flags and hooks are the family-dependent rules."""
        return family(self.family)

    @cached_property
    def framing(self) -> Any:
        """The family's typed framing configuration (``families/framing.py``); its ``yaml`` locates problems."""
        return self.wire_family.framing(self.data["framing"])

    @property
    def versions(self) -> list[str]:
        return list(self.data["versions"])

    @cached_property
    def types(self) -> TypeScope:
        """The protocol's enums and structs (its own over the shared ones) and its type expressions, resolved once;
        the model is built from the same scope."""
        return TypeScope(
            {**self.custom_enums, **{e["name"]: e for e in self.data.get("enums", [])}},
            {**self.custom_structs, **{t["name"]: t for t in self.data.get("types", [])}},
        )

    def problem(self, node: Mapping, key: str, message: str, hint: str = "") -> Problem:
        # Nodes of shared custom types carry their own file (see load.py); the rest belong to this protocol.
        return Problem(getattr(node, "source", None) or self.doc.path, node.line_of(key), message, hint)

    def used_custom_structs(self) -> list[str]:
        """Shared custom types this protocol refers to, directly or through other custom types."""
        used: list[str] = []
        todo = [f["type"] for owner in [*self.data.get("types", []), *self.data["messages"]] for f in owner["fields"]]
        while todo:
            expr = self.types.expr(todo.pop())
            for name in (expr.head, *expr.arg_texts):
                if self.types.expr(name).head != name:
                    todo.append(name)
                elif name in self.custom_structs and name not in used:
                    used.append(name)
                    todo += [f["type"] for f in self.custom_structs[name]["fields"]]
        return sorted(used)

    def containers(self) -> Iterator[tuple[str, Mapping]]:
        """Every field owner: shared custom types, then ("type", t) and ("message", m) in file order."""
        for name in self.used_custom_structs():
            yield "type", self.custom_structs[name]
        for struct in self.data.get("types", []):
            yield "type", struct
        for message in self.data["messages"]:
            yield "message", message


Check = Callable[[Context], Iterator[Problem]]


def check_versions(ctx: Context) -> Iterator[Problem]:
    versions = ctx.data["versions"]
    keys = [version_key(v) for v in versions]
    if len(set(keys)) != len(keys):
        yield ctx.problem(ctx.data, "versions", "versions are not unique", "list each version once")
    if keys != sorted(keys):
        yield ctx.problem(ctx.data, "versions", "versions are not in ascending order", "list them oldest first")


def _check_version_ref(ctx: Context, node: Mapping, key: str) -> Iterator[Problem]:
    value = node.get(key)
    if value is not None and value not in ctx.versions:
        yield ctx.problem(
            node,
            key,
            f"{key} {value!r} is not a declared version",
            suggest(value, ctx.versions) + " (or add it to `versions`)",
        )


def check_since(ctx: Context) -> Iterator[Problem]:
    """Every since/removed names a declared version; fields never go back in time (new fields go at the end)."""
    first = ctx.versions[0]
    for kind, owner in ctx.containers():
        yield from _check_version_ref(ctx, owner, "since")
        yield from _check_version_ref(ctx, owner, "removed")
        owner_since = owner.get("since", first)
        if owner_since not in ctx.versions:
            continue
        previous = owner_since  # the newest version among the fields so far
        for f in owner["fields"]:
            yield from _check_version_ref(ctx, f, "since")
            yield from _check_version_ref(ctx, f, "removed")
            since = f.get("since", owner_since)
            if since in ctx.versions:
                yield from _field_versions(ctx, kind, owner, f, since, previous)
                previous = max(previous, since, key=version_key)
    for message in ctx.data["messages"]:
        if (
            message.get("removed") in ctx.versions
            and message.get("since", first) in ctx.versions
            and version_key(message["removed"]) <= version_key(message.get("since", first))
        ):
            yield ctx.problem(
                message,
                "removed",
                f"message {message['name']!r} is removed before it is added",
                "removed must be later than since",
            )


def _field_versions(
    ctx: Context, kind: str, owner: Mapping, f: Mapping, since: str, previous: str
) -> Iterator[Problem]:
    """A field (of declared version ``since``) is not older than its owner, nor than the fields before it (binary);
    it is removed after it is added; added later than its owner, it has a default."""
    owner_since = owner.get("since", ctx.versions[0])
    if version_key(since) < version_key(owner_since):
        yield ctx.problem(
            f,
            "since",
            f"field {f['name']!r} is older ({since}) than its {kind} {owner['name']!r} ({owner_since})",
            f"set since to {owner_since!r} or later",
        )
    elif version_key(since) < version_key(previous) and ctx.wire_family.positional:
        # Position carries meaning only in binary frames; JSON fields are listed in the peer's write order.
        yield ctx.problem(
            f,
            "since",
            f"field {f['name']!r} (since {since}) follows a field added in {previous}",
            "new fields go at the end: move it after the newer fields",
        )
    removed = f.get("removed")
    if removed in ctx.versions and version_key(removed) <= version_key(since):
        yield ctx.problem(
            f,
            "removed",
            f"field {f['name']!r} is removed ({removed}) before or when it is added ({since})",
            "removed must be a later version than since",
        )
    if (
        version_key(since) > version_key(owner_since)
        and "default" not in f
        and "const" not in f
        and not f.get("nullable")
        and not f.get("optional")
        and ctx.wire_family.late_fields_need_default
    ):
        yield ctx.problem(
            f,
            "name",
            f"field {f['name']!r} was added in {since}, after its {kind}, but has no default",
            "give the value a decoder uses when an older peer omits it",
        )


def check_names(ctx: Context) -> Iterator[Problem]:
    """Unique names everywhere, valid identifiers for everything that becomes Python."""
    yield from _definition_names(ctx)
    for _kind, owner in ctx.containers():
        yield from _field_names(ctx, owner)
    for enum in ctx.data.get("enums", []):
        yield from _enum_members(ctx, enum)
    for const in ctx.data.get("constants", []):
        if why := identifier_problem(const["name"]):
            yield ctx.problem(const, "name", why, "rename it")


def _definition_names(ctx: Context) -> Iterator[Problem]:
    """Enums, types and messages: one name each, none taken from custom/, each a valid identifier."""
    seen: dict[str, tuple[str, int]] = {}
    for section in ("enums", "types", "messages"):
        for node in ctx.data.get(section, []):
            name = node["name"]
            if name in seen:
                yield ctx.problem(
                    node,
                    "name",
                    f"name {name!r} is already used ({seen[name][0]} at line {seen[name][1]})",
                    "choose a distinct name",
                )
            elif (section != "enums" and name in ctx.custom_structs) or (
                section == "enums" and name in ctx.custom_enums
            ):
                yield ctx.problem(
                    node, "name", f"type {name!r} is already defined in custom/", "rename it or use the shared type"
                )
            else:
                seen[name] = (section[:-1], node.line)
            if why := identifier_problem(name):
                yield ctx.problem(node, "name", why, "rename it")


def _field_names(ctx: Context, owner: Mapping) -> Iterator[Problem]:
    """An owner's fields: distinct wire names and Python names, each usable as a key and as an attribute."""
    wire: dict[str, int] = {}
    python: dict[str, int] = {}
    for f in owner["fields"]:
        py = f.get("py") or snake_case(f["name"])
        if f["name"] in wire:
            yield ctx.problem(
                f,
                "name",
                f"field {f['name']!r} appears twice in {owner['name']!r}",
                f"the first is at line {wire[f['name']]}",
            )
        wire.setdefault(f["name"], f.line)
        if py in python:
            yield ctx.problem(
                f,
                "name",
                f"Python name {py!r} of field {f['name']!r} clashes in {owner['name']!r} (line {python[py]})",
                "set a distinct `py:` name",
            )
        python.setdefault(py, f.line)
        yield from _field_name_usable(ctx, f, py)


def _field_name_usable(ctx: Context, f: Mapping, py: str) -> Iterator[Problem]:
    quoted = ctx.wire_family.plain_keys and any(c in f["name"] for c in '\\"')
    if quoted or any(ord(c) < 0x20 for c in f["name"]):
        yield ctx.problem(
            f,
            "name",
            f"field name {f['name']!r} contains a quote, backslash or control "
            "character, which the JSON codec cannot use as a key",
            "rename the key",
        )
    why = (
        identifier_problem(py)
        or (f"{py!r} is reserved for the generated class" if py in RESERVED_ATTRIBUTES else None)
        or (f"{py!r} would shadow a name the generated annotations use" if py in SHADOWING else None)
    )
    if why:
        yield ctx.problem(
            f,
            "py" if "py" in f else "name",
            f"field {f['name']!r}: {why}",
            "set `py:` to a valid snake_case name",
        )


def _enum_members(ctx: Context, enum: Mapping) -> Iterator[Problem]:
    """Distinct member names and values of the enum's wire type; `unknown` names a member (or is `keep`)."""
    members: set[str] = set()
    values: set[Any] = set()
    wants_str = WIRE_TYPES[enum["type"]].is_text
    for value in enum["values"]:
        if value["name"] in members or value["value"] in values:
            yield ctx.problem(
                value,
                "name",
                f"enum {enum['name']}: member {value['name']} or its value {value['value']!r} is repeated",
                "give each member a distinct name and value",
            )
        members.add(value["name"])
        values.add(value["value"])
        if isinstance(value["value"], str) != wants_str:
            yield ctx.problem(
                value,
                "value",
                f"enum {enum['name']}: value {value['value']!r} does not fit type {enum['type']}",
                "use a string" if wants_str else "use an integer",
            )
    if "unknown" in enum and enum["unknown"] != "keep" and enum["unknown"] not in members:
        yield ctx.problem(
            enum,
            "unknown",
            f"enum {enum['name']}: unknown={enum['unknown']!r} is not a member",
            suggest(enum["unknown"], members) + " (or `keep` for an open enum)",
        )


def check_directions(ctx: Context) -> Iterator[Problem]:
    declared = [d["name"] for d in ctx.data["directions"]]
    if len(set(declared)) != len(declared):
        yield ctx.problem(ctx.data, "directions", "direction names repeat", "name each direction once")
    for message in ctx.data["messages"]:
        for i, direction in enumerate(message["directions"]):
            if direction not in declared:
                yield Problem(
                    ctx.doc.path,
                    message["directions"].line_of(i),
                    f"message {message['name']!r}: unknown direction {direction!r}",
                    suggest(direction, declared),
                )


def check_discriminators(ctx: Context) -> Iterator[Problem]:
    """Each family's way of telling messages apart is present, and unique."""
    yield from ctx.wire_family.discriminators(ctx)


def _resolve(ctx: Context, expr: TypeExpr) -> tuple[str | None, str | None]:
    """Return (problem, hint) for a type expression, or (None, None) if it resolves."""
    head, args, text = expr.head, expr.args, expr.text
    if head in CONTAINERS:
        if len(args) != CONTAINERS[head]:
            return (
                f"{head} takes {CONTAINERS[head]} type argument(s), got {len(args)} in {text!r}",
                "write list<T> or map<string,T>",
            )
        if head == "map" and args[0].text != MAP_KEY:
            return f"map keys must be string in {text!r}", "write map<string,T>"
        for arg in args:
            problem, hint = _resolve(ctx, arg)
            if problem:
                return problem, hint
        return None, None
    if args:
        return f"{head!r} takes no type arguments", "remove the <...>"
    if head in WIRE_TYPES:
        if ctx.family not in WIRE_TYPES[head].families:
            allowed = [n for n, t in WIRE_TYPES.items() if ctx.family in t.families]
            return f"type {head!r} is not available in the {ctx.family} family", "use one of: " + ", ".join(allowed)
        return None, None
    if expr.kind in ("struct", "enum"):
        return None, None
    return f"unknown type {head!r}", suggest(head, ctx.types.known)


def check_types(ctx: Context) -> Iterator[Problem]:
    """Type references resolve; trailing types come last; defaults and consts fit their types."""
    for kind, owner in ctx.containers():
        fields = list(owner["fields"])
        seen_presence = False
        for index, f in enumerate(fields):
            where = f"{owner['name']}.{f['name']}"
            expr = ctx.types.of(f)
            problem, hint = _resolve(ctx, expr)
            if problem:
                yield ctx.problem(f, "type", f"{where}: {problem}", hint or "")
                continue
            head = expr.head
            yield from _trailing_type_problems(ctx, kind, f, where, head, is_last=index == len(fields) - 1)
            if ctx.wire_family.presence_rules:
                yield from _binary_presence_problems(ctx, kind, owner, f, where, follows_optional=seen_presence)
                seen_presence = seen_presence or "presence" in f
            elif "presence" in f or "when_nonempty" in f:
                yield ctx.problem(
                    f,
                    "presence" if "presence" in f else "when_nonempty",
                    f"{where}: presence rules are for the binary family",
                    "use optional/nullable",
                )
            if "when_nonempty" in f:
                yield from _when_nonempty_problems(ctx, f, where, fields[:index])
            yield from _field_option_problems(ctx, kind, f, where, head)
            for key in ("default", "const"):
                if key in f and (why := _value_problem(ctx, f, f[key])):
                    yield ctx.problem(f, key, f"{where}: {key} {f[key]!r} {why}", f"give a value of type {f['type']}")


def _trailing_type_problems(
    ctx: Context, kind: str, f: Mapping, where: str, head: str, *, is_last: bool
) -> Iterator[Problem]:
    """A type that reads to the end of the frame (``rest``, ``payload``) is a binary message's last field."""
    wire = WIRE_TYPES.get(head)
    if not (wire and wire.trailing):
        return
    if not is_last and ctx.wire_family.positional:
        yield ctx.problem(
            f, "type", f"{where}: {head} reads to the end of the frame, so it must be the last field", "move it last"
        )
    if kind == "type":
        yield ctx.problem(f, "type", f"{where}: {head} cannot be used inside a struct", "use bytes (length-prefixed)")


def _binary_presence_problems(
    ctx: Context, kind: str, owner: Mapping, f: Mapping, where: str, *, follows_optional: bool
) -> Iterator[Problem]:
    """Binary fields after an optional trailing one, or added in a later version, are read only when present."""
    if "presence" not in f and follows_optional and not f.get("when_nonempty"):
        yield ctx.problem(
            f,
            "name",
            f"{where}: a mandatory field follows an optional trailing one",
            "give it a presence rule too",
        )
    owner_since = owner.get("since", ctx.versions[0])
    if (
        version_key(f.get("since", owner_since)) > version_key(owner_since)
        and "presence" not in f
        and "when_nonempty" not in f
        and f.get("since") in ctx.versions
    ):
        yield ctx.problem(
            f,
            "since",
            f"{where}: added after its {kind} but read unconditionally, so older frames cannot be decoded",
            "give it a presence rule (e.g. presence: {remaining: 8})",
        )
    if "presence" in f and "default" not in f:
        yield ctx.problem(
            f,
            "presence",
            f"{where}: a field with a presence rule needs a default",
            "add the default the reference decoder fills",
        )


def _when_nonempty_problems(ctx: Context, f: Mapping, where: str, earlier_fields: list[Mapping]) -> Iterator[Problem]:
    """``when_nonempty`` names an earlier bytes or string field, and the conditional field has a default."""
    target = f["when_nonempty"]
    earlier = {g["name"]: g for g in earlier_fields}
    if target not in earlier:
        yield ctx.problem(
            f,
            "when_nonempty",
            f"{where}: when_nonempty names {target!r}, not an earlier field",
            suggest(target, [g["name"] for g in earlier_fields]),
        )
    elif not (earlier[target]["type"] in WIRE_TYPES and WIRE_TYPES[earlier[target]["type"]].sized):
        yield ctx.problem(
            f,
            "when_nonempty",
            f"{where}: when_nonempty needs a bytes or string field",
            "point it at a bytes field",
        )
    if "default" not in f:
        yield ctx.problem(
            f,
            "when_nonempty",
            f"{where}: a conditional field needs a default",
            "add the value used when it is absent",
        )


def _field_option_problems(ctx: Context, kind: str, f: Mapping, where: str, head: str) -> Iterator[Problem]:
    """Options that only some types, owners or families take: negative, min_length, additional, accept_scalar."""
    wire = WIRE_TYPES.get(head)
    takes_negative = head == "list" or (wire is not None and wire.negative_length)
    if "negative" in f and (not ctx.wire_family.negative_lengths or not takes_negative):
        yield ctx.problem(f, "negative", f"{where}: `negative` is for binary bytes and list fields", "remove it")
    if "min_length" in f and not (wire and wire.is_text):
        yield ctx.problem(f, "min_length", f"{where}: min_length is for text fields", "remove it")
    if f.get("additional") and (head != "map" or kind != "message" or not ctx.wire_family.additional_map):
        yield ctx.problem(
            f,
            "additional",
            f"{where}: `additional` is for a map<string,T> field of a kafka message",
            "remove it",
        )
    if f.get("accept_scalar") and head != "list":
        yield ctx.problem(f, "accept_scalar", f"{where}: accept_scalar is for lists", "remove it")


def _value_problem(ctx: Context, f: Mapping, value: Any) -> str | None:
    head = ctx.types.of(f).head
    if value is None:
        return None if f.get("nullable") or f.get("optional") else "is null but the field is not nullable"
    if head in WIRE_TYPES:
        return WIRE_TYPES[head].value_problem(value)
    if head == "list" and value != []:
        return "list defaults can only be []"
    if head in ctx.types.enums:
        enum = ctx.types.enums[head]
        if value not in [v["name"] for v in enum["values"]]:
            return "is not a member name of " + head
    return None


RESERVED_MODULES = frozenset({"_runtime", "spark", "messages", "tests", "vectors"})


def check_module_names(ctx: Context) -> Iterator[Problem]:
    """Protocol and companion names become module paths: identifiers, not keywords, not the package's own."""
    name = ctx.data["protocol"]
    if why := identifier_problem(name):
        yield ctx.problem(ctx.data, "protocol", f"protocol name: {why}", "use a lower_snake_case name")
    elif name in RESERVED_MODULES or name.startswith("_"):
        yield ctx.problem(
            ctx.data,
            "protocol",
            f"protocol name {name!r} is used by the generated package itself",
            "choose another name",
        )
    for index, companion in enumerate(ctx.data.get("companions", [])):
        if identifier_problem(companion) or companion in RESERVED_MODULES | {"__init__"}:
            yield Problem(
                ctx.doc.path,
                ctx.data["companions"].line_of(index),
                f"companion {companion!r} cannot be a module of the protocol package",
                "choose another identifier (not 'messages')",
            )


def check_family_rules(ctx: Context) -> Iterator[Problem]:
    """What each family's codecs support, so that an accepted definition always produces working code."""
    yield from _unused_directions(ctx)
    yield from _enum_family_rules(ctx)
    wire = ctx.wire_family
    yield from wire.protocol_rules(ctx)
    for _kind, owner in ctx.containers():
        for f in owner["fields"]:
            yield from wire.field_rules(ctx, owner, f)
        yield from wire.owner_rules(ctx, owner)
    yield from _array_shapes(ctx)


def _unused_directions(ctx: Context) -> Iterator[Problem]:
    directions = [d["name"] for d in ctx.data["directions"]]
    used = {d for m in ctx.data["messages"] for d in m["directions"]}
    for index, direction in enumerate(directions):
        if direction not in used:
            yield Problem(
                ctx.doc.path,
                ctx.data["directions"].line_of(index),
                f"direction {direction!r} has no message",
                "remove it or give it its messages",
            )


def _enum_family_rules(ctx: Context) -> Iterator[Problem]:
    for enum in ctx.data.get("enums", []):
        if enum.get("unknown") == "keep" and not ctx.wire_family.open_enums:
            yield ctx.problem(
                enum,
                "unknown",
                f"enum {enum['name']}: open enums (`unknown: keep`) are for the binary family",
                "name the member unknown values decode as",
            )
        for value in enum["values"]:
            yield from _check_version_ref(ctx, value, "since")


def _array_shapes(ctx: Context) -> Iterator[Problem]:
    for message in ctx.data["messages"]:
        shape = message.get("shape")
        if shape and shape["json"] == "array":
            fields = message["fields"]
            if len(fields) != 1 or ctx.types.of(fields[0]).head != "list":
                yield ctx.problem(
                    message,
                    "shape",
                    f"array-shaped message {message['name']!r} needs exactly one field, a list (the array itself)",
                    "declare one list field",
                )


def check_family_definition(ctx: Context) -> Iterator[Problem]:
    """The family's rules on the whole definition (e.g. a kafka event and its framing's references), run last."""
    yield from ctx.wire_family.definition_rules(ctx)


CHECKS: tuple[Check, ...] = (
    check_versions,
    check_since,
    check_names,
    check_directions,
    check_discriminators,
    check_types,
    check_module_names,
    check_family_rules,
    check_family_definition,
)


def run_checks(ctx: Context) -> list[Problem]:
    return [problem for check in CHECKS for problem in check(ctx)]
