"""PySpark functions for every protocol: Spark schemas, and decode/encode as Spark column expressions.

One module per protocol, generated from the same definitions as the codecs: ``<package>.spark.<protocol>`` for
``<package>.<protocol>`` (e.g. ``streamcodecs.spark.kcl`` for ``streamcodecs.kcl``); ``PROTOCOLS`` names them.

Each has ``SCHEMAS`` (a ``StructType`` per message), ``DECODED`` (the decoded row: ``message``, one nullable column
per message kind, ``error``), ``decode(column, *, direction=None, mode="PERMISSIVE")`` and ``encode(struct, *,
on_error="PERMISSIVE")``, which gives ``ENCODED`` (``data``: the bytes on the wire, ``error``). With this
package's jar in the session (:func:`configure`) they run the Java codec generated from the same definitions, as
Java UDFs (no Python worker runs); otherwise vectorised Arrow UDFs that call the generated Python codec (the Kafka
family's on the Kafka source's columns). In ``PERMISSIVE``
mode (the default) a malformed row gives a null message and an ``error`` naming the problem, and a row that cannot
be encoded gives null ``data`` and an ``error`` naming the field; in ``FAILFAST`` mode the query fails with that
row's problem where the row is decoded or encoded, as Spark's own ``from_json`` does in ``FAILFAST`` mode. Spark
evaluates that on every row reaching it: a later ``filter`` or ``limit`` keeps a bad row from failing the query, but
a later ``sample`` or join does not (Spark never moves a projection past them), nor, for Pravega's
``explode_inline`` (a ``mapInArrow``), a later ``filter`` or ``limit``. For a strict query that fails only for rows
reaching its result, stay ``PERMISSIVE`` and call :func:`fail_on_error` last. Every function works on streaming
DataFrames as on batch ones.

Ship the package to a cluster with ``pip install`` or ``SparkContext.addPyFile`` (a zip of the package; over Spark
Connect, ``spark.addArtifacts(zip, pyfile=True)``). The JVM path needs nothing on the executors but the jar
(``JAR``), which ``configure`` adds to ``spark.jars`` (Spark ships it to them); the Arrow path needs pyspark,
pyarrow and this package there. :func:`path` says which path a session runs, and why. The jar also makes every
function a Spark SQL function (``configure(builder, sql=True)``, or ``spark.sql.extensions`` set to
``SQL_EXTENSIONS``): ``kcl_decode``, ``from_cloudevents_kafka``, ... for SQL, Scala, Java and Spark Connect.

The functions below are the building blocks the generated modules share.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import BinaryType, StringType, StructField, StructType

from .. import PROTOCOLS as _PACKAGE_PROTOCOLS
from .._runtime import messages as _m
from ._jvm import JAR, SQL_EXTENSIONS, JvmPathWarning, SparkPath, configure, path

__all__ = [
    "ENCODED",
    "JAR",
    "MODES",
    "PROTOCOLS",
    "SQL_EXTENSIONS",
    "JvmPathWarning",
    "SparkPath",
    "configure",
    "fail_on_error",
    "path",
]

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
        raise ValueError(_m.unknown_mode(mode=repr(mode), modes=MODES))
    return upper


def check_direction(direction: str | None, directions: tuple[str, ...]) -> None:
    if direction is not None and direction not in directions:
        raise ValueError(_m.unknown_direction(direction=repr(direction), directions=directions))


def bind(value: Column, body: Callable[[Column], Column]) -> Column:
    """``body(value)``, with ``value`` computed once however often ``body`` uses it (a one-element lambda)."""
    return F.transform(F.array(value), body).getItem(0)


def said(pieces: tuple[object, ...]) -> Column:
    """A catalog message whose fields are columns (``_m.cannot_encode(protocol=..., problem=column)``), as one string
    column: its texts as literals, its columns as they are."""
    return F.concat(*(piece if isinstance(piece, Column) else F.lit(piece) for piece in pieces))


def finish(row: Column, mode: str, protocol: str, source: Column) -> Column:
    """The decoded row; in FAILFAST mode a row with an error fails the query, naming the problem and the input."""
    if mode == "PERMISSIVE":
        return row

    def checked(both: Column) -> Column:
        decoded = both["row"]
        excerpt = F.to_json(F.array(F.substring(both["source"].cast("string"), 1, 120)))
        problem = said(_m.failfast_problem(protocol=protocol, problem=decoded["error"], excerpt=excerpt))
        return F.when(decoded["error"].isNull(), decoded).otherwise(F.raise_error(problem))

    return bind(F.struct(row.alias("row"), source.alias("source")), checked)


def encoded(data: Column, error: Column, on_error: str, protocol: str) -> Column:
    """``ENCODED`` of the encoded bytes and the problem, each computed once (``data`` kept only without a problem);
    with ``on_error`` ``FAILFAST`` a problem fails the query instead, naming the protocol."""

    def shaped(both: Column) -> Column:
        problem = both["error"]
        if on_error == "FAILFAST":
            failure = said(_m.cannot_encode(protocol=protocol, problem=problem))
            problem = F.when(problem.isNull(), problem).otherwise(F.raise_error(failure))
        return F.struct(F.when(both["error"].isNull(), both["data"]).alias("data"), problem.alias("error"))

    return bind(F.struct(data.alias("data"), error.alias("error")), shaped)


def raise_unless_null(error: Column) -> Column:
    """``error`` (a STRING) when null; else a failure of the query with ``error`` as its message (FAILFAST)."""
    return F.when(error.isNull(), error).otherwise(F.raise_error(error))
