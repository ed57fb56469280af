# Copied from streamcodecs_gen/py_package/spark/_jvm.py by ./generator.py; edit that file, not this copy.
"""The JVM path of the Spark functions: the jar shipped beside this module, and the Java UDFs in it.

Spark executes on the JVM, so each function of ``<package>.spark.<protocol>`` runs the protocol's Java codec (the
``java`` target of the generator, compiled into ``streamcodecs-spark.jar`` here) when the session has the jar,
and the Python codec in Arrow batches otherwise. The jar must be on ``spark.jars`` when the session starts:

    spark = streamcodecs.spark.configure(SparkSession.builder).getOrCreate()

The first function that needs a Java UDF in a session checks, once, that the session's jar is this package's
(the fingerprint of the sources it was built from); a session without it, or with another version, gets one
warning saying how to enable the JVM path, and the Python path. ``spark.conf.set("spark.streamcodecs.jvm",
"false")`` chooses the Python path on purpose (no warning); ``"true"`` (the default) uses the JVM when it can.
:func:`path` says which path a session runs, and why.

The same jar holds the functions as Spark SQL functions (``kcl_decode``, ``from_cloudevents_kafka``, ...), for SQL,
Scala and Java: ``configure(builder, sql=True)`` also sets ``spark.sql.extensions`` to its provider,
``SQL_EXTENSIONS``.
"""

from __future__ import annotations

import warnings
import weakref
import zipfile
from pathlib import Path
from typing import Any, NamedTuple

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import DataType, StringType

JAR = Path(__file__).with_name("streamcodecs-spark.jar")
"""The jar of the Java codecs and Spark UDFs, built by the generator from its ``java`` target."""
CONF = "spark.streamcodecs.jvm"
"""Session setting: ``"true"`` (default) runs the Java UDFs when the session has the jar; ``"false"`` never."""
PACKAGE = __name__.rsplit(".spark.", 1)[0]
"""The package's name, which is also the Java package of its codecs (``<package>.<protocol>``)."""
SQL_EXTENSIONS = f"{PACKAGE}.SqlExtensions"
"""The jar's ``spark.sql.extensions`` provider: every protocol's functions as Spark SQL functions."""
_FINGERPRINT_ENTRY = "META-INF/streamcodecs/fingerprint"


class JvmPathWarning(UserWarning):
    """The session cannot run this package's Java UDFs, so the Spark functions run the Python codec."""


def configure(builder: SparkSession.Builder, *, sql: bool = False) -> SparkSession.Builder:
    """``builder`` with this package's jar added to ``spark.jars`` (after any jars already set there); with ``sql``,
    also its provider added to ``spark.sql.extensions``, which makes every function a Spark SQL function as well
    (``SELECT kcl_decode(line, 'to_child') FROM lines``; the README's table names them).

    Call it before ``getOrCreate()``: Spark loads the jars of ``spark.jars`` when the session starts, on the driver
    and on every executor, and a session that is already running does not see a jar added later. For a Spark
    Connect server, put both on the server (``--jars``, ``--conf spark.sql.extensions=...``): a Connect client's
    builder cannot."""
    builder = _appended(builder, "spark.jars", str(JAR))
    return _appended(builder, "spark.sql.extensions", SQL_EXTENSIONS) if sql else builder


def _appended(builder: SparkSession.Builder, key: str, value: str) -> SparkSession.Builder:
    """``builder`` with ``value`` at the end of the comma-separated setting ``key``, unless it is there already."""
    options: dict[str, Any] = getattr(builder, "_options", {})
    values = [v.strip() for v in str(options.get(key) or "").split(",") if v.strip()]
    if value not in values:
        values.append(value)
    return builder.config(key, ",".join(values))


def fingerprint() -> str:
    """The fingerprint of the jar shipped with this package (what ``Probe`` returns when the session has it)."""
    with zipfile.ZipFile(JAR) as z:
        return z.read(_FINGERPRINT_ENTRY).decode("ascii").strip()


class SparkPath(NamedTuple):
    """Which path the Spark functions run in a session, and why."""

    jvm: bool
    """True: the Java codecs of this package's jar (Java UDFs); False: the Python codec in Arrow batches."""
    why: str

    def __str__(self) -> str:
        return f"{'JVM' if self.jvm else 'Python'} path: {self.why}"


_paths: weakref.WeakKeyDictionary[SparkSession, SparkPath] = weakref.WeakKeyDictionary()
_registered: weakref.WeakKeyDictionary[SparkSession, set[str]] = weakref.WeakKeyDictionary()


def path(spark: SparkSession | None = None) -> SparkPath:
    """Which path the Spark functions run in ``spark`` (default: the active session), and why; the first call in a
    session checks its jar (once: a Java UDF returns the fingerprint of the jar the executors loaded)."""
    spark = spark or SparkSession.getActiveSession()
    if spark is None:
        return SparkPath(False, "no active Spark session")
    if str(spark.conf.get(CONF, "true")).strip().lower() == "false":
        return SparkPath(False, f'{CONF} is "false" in this session')
    if spark not in _paths:
        _paths[spark] = _probe(spark)
    return _paths[spark]


def available(spark: SparkSession | None = None) -> bool:
    """Whether the Spark functions run on the JVM in ``spark`` (default: the active session)."""
    return path(spark).jvm


def java_udf(protocol: str, java_class: str, return_type: DataType) -> str | None:
    """The name to ``call_udf`` for ``<package>.<protocol>.<java_class>`` in the active session, registered there
    once; None when the session cannot run it (then the caller takes the Python path)."""
    spark = SparkSession.getActiveSession()
    if spark is None or not available(spark):
        return None
    name = f"{PACKAGE.replace('.', '_')}_{protocol}_{java_class}".lower()
    done = _registered.setdefault(spark, set())
    if name not in done:
        spark.udf.registerJavaFunction(name, f"{PACKAGE}.{protocol}.{java_class}", return_type)
        done.add(name)
    return name


def _probe(spark: SparkSession) -> SparkPath:
    name = f"{PACKAGE.replace('.', '_')}_probe"
    try:
        spark.udf.registerJavaFunction(name, f"{PACKAGE}.runtime.Probe", StringType())
        loaded = spark.range(1).select(F.call_udf(name).alias("fingerprint")).first()
    except Exception as exc:  # noqa: BLE001 - any failure to load the class means: no JVM path in this session
        return _fallback(f"the session has no {JAR.name} ({type(exc).__name__})")
    theirs = loaded["fingerprint"] if loaded is not None else ""
    if theirs != fingerprint():
        return _fallback(f"the session's {JAR.name} is another version than this package's")
    return SparkPath(True, f"the session loaded this package's {JAR.name}")


def _fallback(why: str) -> SparkPath:
    _warn(why)
    return SparkPath(False, why)


_no_java_said: set[str] = set()


def warn_no_java(protocol: str, why: str) -> None:
    """Once per protocol: its functions run the Python codec although the session runs the others' Java UDFs,
    since the generator's Java codec does not carry it (``why``)."""
    if protocol in _no_java_said:
        return
    _no_java_said.add(protocol)
    warnings.warn(
        f"{PACKAGE}.spark.{protocol} runs the Python codec (slower): the generator's Java codec does not carry "
        f"this protocol: {why}.",
        JvmPathWarning,
        stacklevel=4,
    )


def _warn(why: str) -> None:
    warnings.warn(
        f"{PACKAGE}.spark runs the Python codec (slower): {why}. Start the session with "
        f"{PACKAGE}.spark.configure(SparkSession.builder)...getOrCreate(), which puts {JAR} on spark.jars, to run "
        f'the Java codecs; spark.conf.set("{CONF}", "false") chooses the Python path without this warning.',
        JvmPathWarning,
        stacklevel=4,
    )
