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

# Names a generated messages module binds for itself (its imports, the Message union, the Reader): a message, type
# or enum of that name would replace it there. A type named Any made every map<string,any> field decode as that type.
PYTHON_MODULE_NAMES = frozenset(
    """Any Callable ClassVar DecodeError EncodeError Final Iterable Int32 Int64 KafkaRecord Literal Mapping Message
    MissingType Reader TypeAlias""".split()
)
# The constants a generated messages module defines for itself (the module contract's VERSION, MESSAGES, ...; the
# framing's limit): a protocol constant of that name would replace it, and the module would say the wrong version.
PYTHON_MODULE_CONSTANTS = frozenset(
    "DIRECTIONS MAX_FRAME MAX_MESSAGE MESSAGES MISSING SERIALIZERS VERSION VERSIONS".split()
)
# Simple names the generated Java refers to where a message, type or enum class is in scope (the protocol's
# Messages.java, the files importing Messages.*, a kafka protocol's package), besides each wire type's Java type: a
# class of that name would shadow it, and javac fails.
JAVA_CLASS_NAMES = frozenset(
    """Arguments ArrayList BinarySpark BinaryWire Boolean Codec CompactJson Data DataText DataTypes Decode
    DecodeException Encode EncodeException FromKafka IOException IllegalArgumentException IllegalStateException In
    Integer JsonParser JsonProblem JsonRead JsonToken KafkaEvents KafkaSpark KafkaWire List Long Map Message Messages
    Number Object OffsetDateTime Out Override Pattern PythonText Reader Row RowFactory RowShape Seq Set SparkRows
    SparkSessionExtensions SparkSql SplitInline Sql SqlFunctions String StructType ToKafkaBinary ToKafkaStructured Udf
    VariantVal""".split()
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
