"""A protocol's Spark SQL functions: their names, arguments and result types, which the Java target's ``Sql`` class
registers for ``spark.sql.extensions`` (the runtime's ``SparkSql`` and ``SqlFunctions`` do the rest).

Each is one of the protocol's Python functions (``<package>.spark.<protocol>.<function>``) under a name in Spark's
style (``SQL_NAMES``: ``kcl_decode``, ``from_cloudevents_kafka`` as ``from_avro``), with the Python function's
arguments in its order and its results: the same Java UDF, the same schema (rendered here as Spark DDL, which the
Java class reads with ``StructType.fromDDL``), the same modes and problems.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import ListRef, MapRef, Message, Protocol, StructRef, TypeRef, WireRef
from .kafka import SparkKafka
from .spark import ENCODE_SKIPS, SparkPlan

SQL_NAMES = {
    "decode": "{protocol}_decode",
    "encode": "{protocol}_encode",
    "split_inline": "{protocol}_split_inline",
    "from_kafka": "from_{protocol}_kafka",
    "to_kafka": "to_{protocol}_kafka",
    "content_mode": "{protocol}_content_mode",
    "data_text": "{protocol}_data_text",
}
"""The SQL name of each Python function, the protocol's name filled in: a verb after the protocol, as Spark names
its own (``json_tuple``, ``url_decode``); ``from_<protocol>_kafka``/``to_<protocol>_kafka`` as ``from_avro``/
``to_avro``, the record's value and headers in and out."""

_WHAT = {
    "decode": "decodes {input} into DECODED rows",
    "encode": "encodes DECODED rows into ENCODED (data, error)",
    "split_inline": "splits a value of back-to-back inline frames into an array of INLINE rows",
    "from_kafka": "reads the event of a Kafka record (value, headers) into (content_mode, message, {column}, "
    "data_text, error)",
    "to_kafka": "writes an event ({schema}) as a Kafka record's (value, headers, error)",
    "content_mode": "the content mode of a Kafka record's headers ('binary' or 'structured')",
    "data_text": "an event's data as text when its content type says it is text, else NULL",
}

_ARGUMENTS = {
    "decode": (1, ("data", "direction", "mode")),
    "encode": (1, ("message", "on_error")),
    "split_inline": (1, ("value", "mode")),
    "from_kafka": (2, ("value", "headers", "mode")),
    "to_kafka": (1, ("event", "content_mode", "on_error")),
    "content_mode": (1, ("headers",)),
    "data_text": (1, ("event",)),
}
"""Each function's arguments, in the Python function's order, and how many are required (the others are constant
strings, NULL or left out for the Python default)."""


@dataclass(frozen=True)
class SqlFunction:
    python: str  # the Python function it is: ``decode``, ``from_kafka``
    name: str  # its SQL name
    required: int  # how many arguments it needs
    arguments: tuple[str, ...]  # every argument it takes, in order
    usage: str  # what ``DESCRIBE FUNCTION`` shows: ``_FUNC_(data[, direction[, mode]]) - ...``

    @property
    def signature(self) -> str:
        """``kcl_decode(data[, direction[, mode]])``."""
        head = ", ".join(self.arguments[: self.required])
        tail = "".join(f"[, {a}" for a in self.arguments[self.required :])
        return f"{self.name}({head}{tail}{']' * (len(self.arguments) - self.required)})"


def sql_function(protocol: Protocol, python: str, *, more: tuple[str, ...] = (), **facts: str) -> SqlFunction:
    """The SQL function of ``python`` (a key of ``SQL_NAMES``) for ``protocol``; ``more``: optional arguments after
    the usual ones (``serializer``); ``facts`` fill its usage text."""
    required, usual = _ARGUMENTS[python]
    arguments = usual + more
    name = SQL_NAMES[python].format(protocol=protocol.name)
    function = SqlFunction(python, name, required, arguments, "")
    what = _WHAT[python].format(**facts)
    arguments_text = function.signature.removeprefix(name)
    usage = f"_FUNC_{arguments_text} - {protocol.name}: {what}, as {python}() of the Python module"
    return SqlFunction(python, name, required, arguments, usage)


def quoted(name: str) -> str:
    """A column name as Spark DDL writes it: between backticks, a backtick doubled."""
    return "`" + name.replace("`", "``") + "`"


def ddl(ref: TypeRef, variant: bool) -> str:
    """The Spark DDL of a decoded value of type ``ref``: the PySpark type ``analysis.spark.pyspark`` names, in
    Spark's DDL (``variant``: free-form JSON is a VARIANT, as in the JSON family)."""
    match ref:
        case ListRef(item=item):
            return f"ARRAY<{ddl(item, variant)}>"
        case MapRef(item=item):
            return f"MAP<STRING, {ddl(item, variant)}>"
        case StructRef(struct=struct):
            return struct_ddl([(f.py, ddl(f.type, variant)) for f in struct.fields])
        case WireRef(wire=wire) if variant and wire.spark_json:
            return wire.spark_json.upper()
    return ref.spark_type.upper()


def struct_ddl(fields: list[tuple[str, str]]) -> str:
    return "STRUCT<" + ", ".join(f"{quoted(name)}: {kind}" for name, kind in fields) + ">"


def columns_ddl(fields: list[tuple[str, str]]) -> str:
    """The DDL of a row (``StructType.fromDDL``): its columns and their types."""
    return ", ".join(f"{quoted(name)} {kind}" for name, kind in fields)


def _kind(message: Message, variant: bool) -> str:
    """A message kind's column type: a struct of its fields, BOOLEAN for a message without fields."""
    return struct_ddl([(f.py, ddl(f.type, variant)) for f in message.fields]) if message.fields else "BOOLEAN"


@dataclass(frozen=True)
class SqlPlan:
    """What a protocol's ``Sql`` class registers: its functions and the DDL of the rows they give."""

    functions: list[SqlFunction]
    decoded: str  # DECODED
    inline: str | None = None  # INLINE (binary family, with inline frames)
    from_kafka: str | None = None  # the row from_<protocol>_kafka gives (Kafka family)
    # The Kafka family's event: its column in the rows, the fields of its content type and data, of its time (the
    # Java UDFs take it in microseconds) and of its map of undeclared attributes (None: it has none)
    event_column: str | None = None
    content_type: str | None = None
    payload: str | None = None
    time: str | None = None
    extra: str | None = None
    packed: list[str] = field(default_factory=list)  # JSON family: the MessagePack framing variants (serializer)

    @property
    def encode_skips(self) -> str:
        """The DECODED column ``encode`` does not read (``Sql.ENCODED_FROM`` is DECODED without it)."""
        return ENCODE_SKIPS

    def function(self, python: str) -> SqlFunction:
        return next(f for f in self.functions if f.python == python)


def codec_sql(protocol: Protocol, spark: SparkPlan, *, variant: bool, packed: list[str] | None = None) -> SqlPlan:
    """The SQL functions of a binary or JSON protocol: ``decode`` and ``encode``, and ``split_inline`` when it has
    inline frames; their rows as the protocol's Spark plan lays them out. ``packed``: the MessagePack framing
    variants, which ``decode`` and ``encode`` take as a last ``serializer`` argument, as the Python functions do."""
    decoded = [("message", "STRING"), *((c.column, _kind(c.message, variant)) for c in spark.decoded)]
    inline = [("offset", "BIGINT"), ("message", "STRING")]
    inline += [(c.column, _kind(c.message, variant)) for c in spark.inline]
    more = ("serializer",) if packed else ()
    functions = [
        sql_function(protocol, "decode", more=more, input="whole messages"),
        sql_function(protocol, "encode", more=more),
    ]
    if spark.inline:
        functions.append(sql_function(protocol, "split_inline"))
    return SqlPlan(
        functions=functions,
        decoded=columns_ddl([*decoded, ("error", "STRING")]),
        inline=columns_ddl([*inline, ("error", "STRING")]) if spark.inline else None,
        packed=list(packed or ()),
    )


def kafka_sql(protocol: Protocol, spark: SparkKafka) -> SqlPlan:
    """The SQL functions of a Kafka-family protocol with a Java target, on its Spark module's event."""
    column, event = spark.column, spark.event
    assert event.content_type is not None  # a protocol without one has no Java target (java_gap)
    schema = struct_ddl([(a.py, ddl(a.field.type, variant=False)) for a in spark.attributes])
    functions = [
        sql_function(protocol, "from_kafka", column=column),
        sql_function(protocol, "to_kafka", schema=f"{column} as from_{protocol.name}_kafka gives it"),
        sql_function(protocol, "decode", input="events in the JSON event format"),
        sql_function(protocol, "encode"),
        sql_function(protocol, "content_mode"),
        sql_function(protocol, "data_text"),
    ]
    return SqlPlan(
        functions=functions,
        decoded=columns_ddl([("message", "STRING"), (column, schema), ("error", "STRING")]),
        from_kafka=columns_ddl(
            [
                ("content_mode", "STRING"),
                ("message", "STRING"),
                (column, schema),
                ("data_text", "STRING"),
                ("error", "STRING"),
            ]
        ),
        event_column=column,
        content_type=event.content_type.py,
        payload=event.payload.py,
        time=spark.time_field,
        extra=spark.extra_field,
    )
