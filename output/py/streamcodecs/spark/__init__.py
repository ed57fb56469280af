# Copied from streamcodecs_gen/py_package/spark/__init__.py by ./generator.py; edit that file, not this copy.
"""PySpark functions for every protocol: Spark schemas, and decode/encode as Spark column expressions.

One module per protocol, generated from the same definitions as the codecs: ``<package>.spark.<protocol>`` for
``<package>.<protocol>`` (e.g. ``streamcodecs.spark.kcl`` for ``streamcodecs.kcl``); ``PROTOCOLS`` names them.

Each has ``SCHEMAS`` (a ``StructType`` per message), ``DECODED`` (the decoded row: ``message``, one nullable column
per message kind, ``error``), ``decode(column, *, direction=None, mode="PERMISSIVE")`` and ``encode(struct, *,
on_error="PERMISSIVE")``, which gives ``ENCODED`` (``data``: the bytes on the wire, ``error``). JSON protocols
decode with native Spark SQL (``from_json``; no Python worker runs); binary protocols and the Kafka family (which
works on the Kafka source's columns) with vectorised Arrow UDFs that call the generated codec; all of them run the
generated Java codec instead when the session has the package's jar (``configure``). In ``PERMISSIVE``
mode (the default) a malformed row gives a null message and an ``error`` naming the problem, and a row that cannot
be encoded gives null ``data`` and an ``error`` naming the field; in ``FAILFAST`` mode the query fails with that
row's problem where the row is decoded or encoded, as Spark's own ``from_json`` does in ``FAILFAST`` mode. Spark
evaluates that on every row reaching it: a later ``filter`` or ``limit`` keeps a bad row from failing the query, but
a later ``sample`` or join does not (Spark never moves a projection past them), nor, for Pravega's
``explode_inline`` (a ``mapInArrow``), a later ``filter`` or ``limit``. For a strict query that fails only for rows
reaching its result, stay ``PERMISSIVE`` and call :func:`fail_on_error` last. Every function works on streaming
DataFrames as on batch ones.

The package is pure Python: ship it to a cluster with ``pip install`` or ``SparkContext.addPyFile`` (a zip of
the package). The native paths need nothing on the executors; the Arrow paths need pyspark, pyarrow and this
package there.

The functions below are the building blocks the generated modules share.
"""

from __future__ import annotations

import functools
import importlib.util
import operator
import re
from collections.abc import Callable

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import BinaryType, DataType, StringType, StructField, StructType

from .. import PROTOCOLS as _PACKAGE_PROTOCOLS
from ._jvm import JvmPathWarning, configure

__all__ = ["ENCODED", "MODES", "PROTOCOLS", "JvmPathWarning", "configure", "fail_on_error"]

PROTOCOLS: tuple[str, ...] = tuple(
    name for name in _PACKAGE_PROTOCOLS if importlib.util.find_spec(f"{__name__}.{name}") is not None
)
"""Protocols that have a Spark module here (the package's ``PROTOCOLS`` in its order)."""
MODES: tuple[str, ...] = ("PERMISSIVE", "FAILFAST")
"""``PERMISSIVE``: a malformed row decodes to a null message and an error string; ``FAILFAST``: the query fails."""
ENCODED = StructType([StructField("data", BinaryType()), StructField("error", StringType())])
"""What every ``encode`` returns: ``data``, the message as it goes on the wire (null when the row's ``message`` is
null or the row cannot be encoded), and ``error``, why the row cannot be encoded (naming the field), else null."""


def fail_on_error(df: DataFrame, error: Column | str = "error") -> DataFrame:
    """``df`` unchanged, except that the query fails at the first row that reaches this point with a non-null
    ``error`` (a column name, or a column such as ``F.col("decoded.error")``), with that error as the message.

    The strict mode that holds wherever Spark evaluates expressions: ``mode="FAILFAST"`` (and ``on_error``) fail
    in the projection that decodes or encodes, and Spark evaluates a projection on every row that reaches it,
    including rows that a later ``sample`` or join removes (a later ``filter`` Spark pushes below it). No check
    placed inside a function can do better: Spark never moves a ``sample`` or a join below a projection or a
    filter. Decode (encode) in the default ``PERMISSIVE`` mode and call this last, after the ``limit``, ``filter``,
    ``sample`` or join: a filter that Spark neither prunes nor moves below those."""
    column = F.col(error) if isinstance(error, str) else error
    return df.where(raise_unless_null(column.cast("string")).isNull())


def check_mode(mode: str) -> str:
    """The mode, upper-cased, or ``ValueError``."""
    upper = mode.upper() if isinstance(mode, str) else mode
    if upper not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {MODES}")
    return upper


def check_direction(direction: str | None, directions: tuple[str, ...]) -> None:
    if direction is not None and direction not in directions:
        raise ValueError(f"unknown direction {direction!r}; expected one of {directions}")


def bind(value: Column, body: Callable[[Column], Column]) -> Column:
    """``body(value)``, with ``value`` computed once however often ``body`` uses it (a one-element lambda)."""
    return F.transform(F.array(value), body).getItem(0)


def finish(row: Column, mode: str, protocol: str, source: Column) -> Column:
    """The decoded row; in FAILFAST mode a row with an error fails the query, naming the problem and the input."""
    if mode == "PERMISSIVE":
        return row

    def checked(both: Column) -> Column:
        decoded = both["row"]
        excerpt = F.to_json(F.array(F.substring(both["source"].cast("string"), 1, 120)))
        problem = F.concat(F.lit(f"{protocol}: "), decoded["error"], F.lit(" (input starts "), excerpt, F.lit(")"))
        return F.when(decoded["error"].isNull(), decoded).otherwise(F.raise_error(problem))

    return bind(F.struct(row.alias("row"), source.alias("source")), checked)


def encoded(data: Column, error: Column, on_error: str, protocol: str) -> Column:
    """``ENCODED`` of the encoded bytes and the problem, each computed once (``data`` kept only without a problem);
    with ``on_error`` ``FAILFAST`` a problem fails the query instead, naming the protocol."""

    def shaped(both: Column) -> Column:
        problem = both["error"]
        if on_error == "FAILFAST":
            failure = F.concat(F.lit(f"{protocol}: cannot encode: "), problem)
            problem = F.when(problem.isNull(), problem).otherwise(F.raise_error(failure))
        return F.struct(F.when(both["error"].isNull(), both["data"]).alias("data"), problem.alias("error"))

    return bind(F.struct(data.alias("data"), error.alias("error")), shaped)


def raise_unless_null(error: Column) -> Column:
    """``error`` (a STRING) when null; else a failure of the query with ``error`` as its message (FAILFAST)."""
    return F.when(error.isNull(), error).otherwise(F.raise_error(error))


def variant_null() -> Column:
    """A JSON null as a VARIANT: ``to_json`` writes it, even when told to drop null fields."""
    return F.parse_json(F.lit("null"))


def written_null(value: Column, omits: bool) -> Column:
    """``value`` (a scalar) such that ``to_json`` writes its null even when it drops null fields (``omits``)."""
    return F.coalesce(value.cast("variant"), variant_null()) if omits else value


def written_null_object(value: Column, omits: bool) -> Column:
    """``written_null`` for a struct, array or map."""
    return F.coalesce(F.to_variant_object(value), variant_null()) if omits else value


def at(path: str, problem: str | Column) -> Column:
    """A problem message naming where it is: ``"`path`: problem"``."""
    if isinstance(problem, str):
        return F.lit(f"`{path}`: {problem}")
    return F.concat(F.lit(f"`{path}`: "), problem)


_NULL_PROBES = {
    "string": "\u0000streamcodecs\u0000",
    "binary": b"\x00streamcodecs\x00",
    "int": -2147483641,
    "bigint": -9223372036854775801,
    "float": -3.0e38,
    "double": -1.7e308,
}


def no_null(items: Column, ddl: str) -> Column:
    """True when an array certainly holds no null; null or false when it may (then look item by item). Compiled,
    unlike a lambda: ``array_contains`` gives null when it does not find the probe value and the array holds a
    null, false when it holds neither (and true in the rare array that holds the probe value itself)."""
    return ~F.array_contains(items, F.lit(_NULL_PROBES[ddl]).cast(ddl))


def first_problem(items: Column, problem: Callable[[Column], Column]) -> Column:
    """The first non-null ``problem(item)`` of an array, else null (one pass when there is none)."""
    found = F.filter(F.transform(items, problem), lambda p: p.isNotNull())
    return F.when(F.exists(items, lambda x: problem(x).isNotNull()), F.try_element_at(found, F.lit(1)))


def base64(value: Column) -> Column:
    """Standard padded base64 on one line (Spark's ``base64`` may break lines every 76 characters)."""
    return F.regexp_replace(F.base64(value), F.lit("\r\n"), F.lit(""))


def json_path(key: str) -> str:
    """The VARIANT path of a top-level key."""
    if key.isidentifier():
        return f"$.{key}"
    return f"$['{key}']" if "'" not in key else f'$["{key}"]'


def wrong_type(text: Column, key: str, read_type: DataType, expected: str) -> Column:
    """``"`key`: expected ..."`` when ``from_json`` cannot read the value of the top-level ``key`` of the JSON ``text``
    as ``read_type``, else null. For the rows ``from_json`` flagged: it finds the field to blame, by reading that one
    value again."""
    value = F.try_variant_get(F.try_parse_json(text), json_path(key), "variant")
    alone = F.concat(F.lit('{"v":'), F.to_json(value), F.lit("}"))
    schema = StructType([StructField("v", read_type), StructField("bad", StringType())])
    options = {"mode": "PERMISSIVE", "columnNameOfCorruptRecord": "bad", "allowNonNumericNumbers": "false"}
    bad = value.isNotNull() & F.from_json(alone, schema, options)["bad"].isNotNull()
    return F.when(bad, F.lit(f"`{key}`: expected {expected}"))


_NUMBERS = ("tinyint", "smallint", "int", "bigint")


def variant_is(value: Column, ddl: str) -> Column:
    """Whether a VARIANT holds a JSON value of the kind a scalar Spark type is read from (no coercion: a number is
    not a string, 1.0 is not an integer)."""
    kind = F.schema_of_variant(value)
    if ddl == "string":
        return kind == "STRING"
    if ddl == "boolean":
        return kind == "BOOLEAN"
    if ddl in _NUMBERS:
        return kind == "BIGINT"
    if ddl in ("float", "double"):
        return kind.isin("BIGINT", "DOUBLE") | kind.startswith("DECIMAL")
    return F.lit(True)  # structured values: the cast that extracts them checks them


def variant_items_are(value: Column, ddl: str) -> Column:
    """Whether a VARIANT holds a JSON array whose items are all of the kind ``ddl`` is read from."""
    items = F.try_variant_get(value, "$", "array<variant>")
    return items.isNotNull() & F.forall(items, lambda item: variant_is(item, ddl))


def starts_with(text: Column, char: str) -> Column:
    """Whether ``text`` starts with ``char`` after JSON whitespace (checks the first byte first: cheap)."""
    return F.startswith(text, F.lit(char)) | F.regexp_like(text, F.lit("^[ \t\r\n]*" + re.escape(char)))


def ends_with(text: Column, char: str) -> Column:
    """Whether ``text`` ends with ``char`` before JSON whitespace (checks the common line endings first)."""
    common = [F.endswith(text, F.lit(char + tail)) for tail in ("", "\n", "\r\n")]
    return functools.reduce(operator.or_, common) | F.regexp_like(text, F.lit(re.escape(char) + "[ \t\r\n]*$"))


_RFC3339 = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$"


def timestamp(text: Column) -> Column:
    """An RFC 3339 date-time with a time zone as a TIMESTAMP (sub-microsecond digits dropped), else null."""
    return F.when(F.regexp_like(text, F.lit(_RFC3339)), F.try_to_timestamp(F.upper(text)))


def timestamp_text(value: Column) -> Column:
    """A TIMESTAMP as RFC 3339 text with microseconds and the session time zone's offset."""
    return F.date_format(value, "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX")


_UUID = r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$"


def uuid_text(text: Column) -> Column:
    """A UUID in canonical form (lower case, hyphenated), else null."""
    hexed = F.lower(F.replace(text, F.lit("-"), F.lit("")))
    canonical = F.regexp_replace(hexed, r"^(.{8})(.{4})(.{4})(.{4})(.{12})$", "$1-$2-$3-$4-$5")
    return F.when(F.regexp_like(text, F.lit(_UUID)), canonical)
