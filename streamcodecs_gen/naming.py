"""Name conversions and identifier rules shared by the checks and the model."""

from __future__ import annotations

import keyword
import re

_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9A-Za-z]+")
# Names the generated classes define themselves; a field must not shadow them.
RESERVED_ATTRIBUTES = frozenset({"to_dict", "from_dict", "encode", "decode", "message_name"})
# Names the generated annotations use: a field of that name would shadow them inside its class body.
SHADOWING = frozenset(
    {
        "tuple",
        "list",
        "dict",
        "str",
        "int",
        "float",
        "bool",
        "bytes",
        "uuid",
        "datetime",
        "msgspec",
        "field",
    }
)


def snake_case(name: str) -> str:
    """``highVersion`` -> ``high_version``; ``task->component`` -> ``task_component``; ``pidDir`` -> ``pid_dir``."""
    words = _NON_WORD.sub("_", _BOUNDARY.sub("_", name)).strip("_")
    return re.sub("_+", "_", words).lower()


def upper_snake_case(name: str) -> str:
    return snake_case(name).upper()


def identifier_problem(name: str) -> str | None:
    """Why ``name`` cannot be a Python identifier, or None."""
    if not name.isidentifier() or not name.isascii():
        return f"{name!r} is not a valid Python identifier"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return f"{name!r} is a Python keyword"
    if name.startswith("__"):
        return f"{name!r} starts with a double underscore"
    return None


JAVA_KEYWORDS = frozenset(
    """abstract assert boolean break byte case catch char class const continue default do double else enum extends
    final finally float for goto if implements import instanceof int interface long native new package private
    protected public return short static strictfp super switch synchronized this throw throws transient try void
    volatile while true false null var record yield sealed permits""".split()
)
"""Java's reserved words, literals and contextual keywords: no generated Java identifier may be one."""
JAVA_OBJECT_METHODS = frozenset("equals hashCode toString getClass notify notifyAll wait clone finalize".split())
"""Methods every Java object has: a record component of that name would clash with one."""


def java_camel(name: str) -> str:
    """``shard_id`` -> ``shardId`` (a name already in camel case stays as it is)."""
    head, *rest = name.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def java_safe(name: str, taken: frozenset[str] = frozenset()) -> str:
    """``name`` as a Java record component or variable: ``Field`` appended where it is a Java keyword, a method
    every object has, or one of ``taken`` (the names the generated code uses itself)."""
    return name + "Field" if name in JAVA_KEYWORDS or name in JAVA_OBJECT_METHODS or name in taken else name
