"""Breaking-change check between a baseline definition set and the current one (like ``buf breaking``).

``./generator.py --compat BASELINE_DIR`` loads both sets through the same pipeline and reports, as ``file:line``,
every change an older peer would notice: removed or renamed messages and fields, changed types, codes or tags,
fields inserted before existing ones, ``since`` moved, released versions rewritten, and new required fields.
"""

from __future__ import annotations

from .families.framing import as_written
from .families.registry import Family, family
from .model import Enum, Field, Message, Origin, Protocol, Struct
from .problems import Problem
from .versions import version_key


def _problem(origin: Origin, message: str, hint: str) -> Problem:
    return Problem(origin.file, origin.line, message, hint)


def _fields(base: Struct, current: Struct, wire: Family, released: str) -> list[Problem]:
    """A struct's or message's fields: released ones kept as they were, new ones optional and of a new version."""
    problems = []
    where = current.name
    current_by_name = {f.name: (i, f) for i, f in enumerate(current.fields)}
    last_index = -1
    for old in base.fields:
        if old.name not in current_by_name:
            problems.append(
                _problem(
                    current.origin,
                    f"{where}: field {old.name!r} was removed or renamed",
                    "keep it (mark it `removed:` in a new version for JSON protocols)",
                )
            )
            continue
        index, new = current_by_name[old.name]
        problems += _field_identity(where, old, new)
        if wire.positional:
            problems += _field_position(where, old, new, current, index, last_index)
        last_index = max(last_index, index)
        problems += _field_decoding(where, old, new)
    old_names = {f.name for f in base.fields}
    for new in current.fields:
        if new.name not in old_names:
            problems += _new_field(where, new, wire, released)
    return problems


def _field_identity(where: str, old: Field, new: Field) -> list[Problem]:
    problems = []
    if new.type.text != old.type.text:
        problems.append(
            _problem(
                new.origin,
                f"{where}.{old.name}: type changed from {old.type.text} to {new.type.text}",
                "add a new field instead",
            )
        )
    if new.since != old.since:
        problems.append(
            _problem(
                new.origin,
                f"{where}.{old.name}: since moved from {old.since} to {new.since}",
                "a released field's version cannot change",
            )
        )
    return problems


def _field_position(where: str, old: Field, new: Field, current: Struct, index: int, last_index: int) -> list[Problem]:
    """Binary fields keep their positions: none moved before a field that preceded it, none inserted before it."""
    problems = []
    if index < last_index:
        problems.append(
            _problem(new.origin, f"{where}.{old.name}: field order changed", "binary fields keep their positions")
        )
    if index != last_index + 1 and index > last_index:
        inserted = current.fields[last_index + 1]
        problems.append(
            _problem(
                inserted.origin,
                f"{where}: field {inserted.name!r} was inserted before the existing field {old.name!r}",
                "new fields go at the end",
            )
        )
    return problems


def _field_decoding(where: str, old: Field, new: Field) -> list[Problem]:
    """What an older peer's message decodes to: presence rule, default and nullability stay."""
    problems = []
    if (old.presence, old.when_nonempty) != (new.presence, new.when_nonempty):
        problems.append(
            _problem(
                new.origin,
                f"{where}.{old.name}: its presence rule changed",
                "older peers' frames would be read differently",
            )
        )
    if old.has_default and new.has_default and old.default != new.default:
        problems.append(
            _problem(
                new.origin,
                f"{where}.{old.name}: default changed from {old.default!r} to {new.default!r}",
                "older peers' messages would decode differently",
            )
        )
    if (old.nullable or old.optional) and not (new.nullable or new.optional):
        problems.append(
            _problem(
                new.origin,
                f"{where}.{old.name}: no longer nullable/optional",
                "older peers may send null or omit it",
            )
        )
    return problems


def _new_field(where: str, new: Field, wire: Family, released: str) -> list[Problem]:
    problems = []
    if version_key(new.since) <= version_key(released):
        problems.append(
            _problem(
                new.origin,
                f"{where}: new field {new.name!r} claims released version {new.since}",
                "give it a new version in `since`",
            )
        )
    required = not (new.has_default or new.optional or new.nullable or new.has_const)
    if wire.presence_rules:
        required = required or (new.presence is None and new.when_nonempty is None)
    if required:
        problems.append(
            _problem(
                new.origin,
                f"{where}: new field {new.name!r} is required, so messages from older peers cannot be decoded",
                "give it a default (and a presence rule)",
            )
        )
    return problems


def _enums(base: Enum, current: Enum) -> list[Problem]:
    new_values = {v.name: v.value for v in current.values}
    problems = []
    if base.wire != current.wire:
        problems.append(
            _problem(
                current.origin,
                f"enum {base.name}: wire type changed from {base.wire} to {current.wire}",
                "an enum's wire type never changes",
            )
        )
    for value in base.values:
        if value.name not in new_values:
            problems.append(_problem(current.origin, f"enum {base.name}: member {value.name} was removed", "keep it"))
        elif new_values[value.name] != value.value:
            problems.append(
                _problem(
                    current.origin,
                    f"enum {base.name}: {value.name} changed from {value.value!r} to {new_values[value.name]!r}",
                    "wire values never change",
                )
            )
    return problems


def _message(base: Message, current: Message, wire: Family, released: str) -> list[Problem]:
    problems = []
    if base.code != current.code:
        problems.append(
            _problem(
                current.origin, f"{current.name}: code changed from {base.code} to {current.code}", "codes never change"
            )
        )
    if base.tag != current.tag:
        problems.append(
            _problem(
                current.origin, f"{current.name}: tag changed from {base.tag!r} to {current.tag!r}", "tags never change"
            )
        )
    if base.since != current.since:
        problems.append(
            _problem(
                current.origin,
                f"{current.name}: since moved from {base.since} to {current.since}",
                "a released message's version cannot change",
            )
        )
    for direction in sorted(set(base.directions) - set(current.directions)):
        problems.append(
            _problem(current.origin, f"{current.name}: no longer sent in direction {direction!r}", "keep the direction")
        )
    return problems + _fields(base, current, wire, released)


def compare(baseline: list[Protocol], current: list[Protocol]) -> list[Problem]:
    """Every breaking change from ``baseline`` to ``current``, protocol by protocol in the baseline's order."""
    problems: list[Problem] = []
    now = {p.name: p for p in current}
    for base in baseline:
        if base.name not in now:
            problems.append(Problem(base.source, 1, f"protocol {base.name!r} was removed", "keep its definition"))
            continue
        cur = now[base.name]
        problems += _versions(base, cur)
        if cur.family != base.family:
            problems.append(
                Problem(
                    cur.source,
                    1,
                    f"family changed from {base.family} to {cur.family}",
                    "a protocol keeps its wire family",
                )
            )
            continue
        problems += _framing(base, cur)
        problems += _messages(base, cur)
        problems += _structs(base, cur)
        problems += _protocol_enums(base, cur)
    return problems


def _versions(base: Protocol, cur: Protocol) -> list[Problem]:
    if cur.versions[: len(base.versions)] == base.versions:
        return []
    return [
        Problem(
            cur.source,
            1,
            f"released versions {base.versions} are no longer a prefix of {cur.versions}",
            "only append new versions",
        )
    ]


def _framing(base: Protocol, cur: Protocol) -> list[Problem]:
    """Released framing variants keep their encoding (new ones may be added); every other framing key is fixed."""
    problems = []
    wire = family(cur.family)  # compare() has checked that both are of one family
    new_variants = {v.name: v for v in wire.variants(cur.framing)}
    for variant in wire.variants(base.framing):
        kept = new_variants.get(variant.name)
        if kept is None or kept.encoding != variant.encoding:
            problems.append(
                Problem(
                    cur.source,
                    1,
                    f"framing variant {variant.name!r} was removed or changed its encoding",
                    "a released framing variant stays as it is (adding one is fine)",
                )
            )
    # Compared typed (both protocols are of one family); reported as the definitions write them.
    written, now_written = as_written(base.framing), as_written(cur.framing)
    for key in sorted(set(written) | set(now_written)):
        if key not in ("max_message", "variants") and getattr(base.framing, key) != getattr(cur.framing, key):
            problems.append(
                Problem(
                    cur.source,
                    1,
                    f"framing.{key} changed from {written.get(key)!r} to {now_written.get(key)!r}",
                    "the framing of a released protocol is fixed",
                )
            )
    return problems


def _messages(base: Protocol, cur: Protocol) -> list[Problem]:
    """Released messages stay, unchanged; new ones claim a new version."""
    problems = []
    messages = {m.name: m for m in cur.messages}
    for message in base.messages:
        if message.name not in messages:
            problems.append(
                _problem(
                    message.origin,
                    f"message {message.name!r} was removed or renamed (baseline {base.source})",
                    "keep it",
                )
            )
            continue
        problems += _message(message, messages[message.name], family(cur.family), base.version)
    old_names = {m.name for m in base.messages}
    for message in cur.messages:
        if message.name not in old_names and version_key(message.since) <= version_key(base.version):
            problems.append(
                _problem(
                    message.origin,
                    f"new message {message.name!r} claims released version {message.since}",
                    "give it a new version in `since`",
                )
            )
    return problems


def _structs(base: Protocol, cur: Protocol) -> list[Problem]:
    problems = []
    structs = {s.name: s for s in cur.structs}
    for struct in base.structs:
        if struct.name not in structs:
            problems.append(_problem(struct.origin, f"type {struct.name!r} was removed or renamed", "keep it"))
            continue
        if struct.size_prefix != structs[struct.name].size_prefix:
            problems.append(
                _problem(
                    structs[struct.name].origin,
                    f"type {struct.name}: size prefix changed",
                    "a struct's layout never changes",
                )
            )
        problems += _fields(struct, structs[struct.name], family(cur.family), base.version)
    return problems


def _protocol_enums(base: Protocol, cur: Protocol) -> list[Problem]:
    problems = []
    enums = {e.name: e for e in cur.enums}
    for enum in base.enums:
        if enum.name in enums:
            problems += _enums(enum, enums[enum.name])
        else:
            problems.append(_problem(enum.origin, f"enum {enum.name!r} was removed or renamed", "keep it"))
    return problems
