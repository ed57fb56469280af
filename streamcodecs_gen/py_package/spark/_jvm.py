"""The JVM path of the Spark functions: the jar shipped beside this module, and the Java UDFs in it.

Spark executes on the JVM, so each function of ``<package>.spark.<protocol>`` runs the protocol's Java codec (the
``java`` target of the generator, compiled into ``streamcodecs-spark.jar`` here) when the session has the jar,
and the Python codec in Arrow batches otherwise. The jar must be on ``spark.jars`` when the session starts:

    spark = streamcodecs.spark.configure(SparkSession.builder).getOrCreate()

The first function that needs a Java UDF in a session checks, once, that the session's jar is this package's
(the fingerprint of the sources it was built from); a session without it, or with another version, gets one
warning saying how to enable the JVM path, and the Python path. ``spark.conf.set("spark.streamcodecs.jvm",
"false")`` chooses the Python path on purpose (no warning); ``"true"`` (the default) uses the JVM when it can.
"""

from __future__ import annotations

import warnings
import weakref
import zipfile
from pathlib import Path
from typing import Any

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import DataType, StringType

JAR = Path(__file__).with_name("streamcodecs-spark.jar")
"""The jar of the Java codecs and Spark UDFs, built by the generator from its ``java`` target."""
CONF = "spark.streamcodecs.jvm"
"""Session setting: ``"true"`` (default) runs the Java UDFs when the session has the jar; ``"false"`` never."""
PACKAGE = __name__.rsplit(".spark.", 1)[0]
"""The package's name, which is also the Java package of its codecs (``<package>.<protocol>``)."""
_FINGERPRINT_ENTRY = "META-INF/streamcodecs/fingerprint"


class JvmPathWarning(UserWarning):
    """The session cannot run this package's Java UDFs, so the Spark functions run the Python codec."""


def configure(builder: SparkSession.Builder) -> SparkSession.Builder:
    """``builder`` with this package's jar added to ``spark.jars`` (after any jars already set there).

    Call it before ``getOrCreate()``: Spark loads the jars of ``spark.jars`` when the session starts, on the driver
    and on every executor, and a session that is already running does not see a jar added later."""
    options: dict[str, Any] = getattr(builder, "_options", {})
    jars = [j for j in str(options.get("spark.jars") or "").split(",") if j.strip()]
    if str(JAR) not in jars:
        jars.append(str(JAR))
    return builder.config("spark.jars", ",".join(jars))


def fingerprint() -> str:
    """The fingerprint of the jar shipped with this package (what ``Probe`` returns when the session has it)."""
    with zipfile.ZipFile(JAR) as z:
        return z.read(_FINGERPRINT_ENTRY).decode("ascii").strip()


_usable: weakref.WeakKeyDictionary[SparkSession, bool] = weakref.WeakKeyDictionary()
_registered: weakref.WeakKeyDictionary[SparkSession, set[str]] = weakref.WeakKeyDictionary()


def available(spark: SparkSession | None = None) -> bool:
    """Whether the Spark functions run on the JVM in ``spark`` (default: the active session)."""
    spark = spark or SparkSession.getActiveSession()
    if spark is None or str(spark.conf.get(CONF, "true")).strip().lower() == "false":
        return False
    if spark not in _usable:
        _usable[spark] = _probe(spark)
    return _usable[spark]


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


def _probe(spark: SparkSession) -> bool:
    name = f"{PACKAGE.replace('.', '_')}_probe"
    try:
        spark.udf.registerJavaFunction(name, f"{PACKAGE}.runtime.Probe", StringType())
        loaded = spark.range(1).select(F.call_udf(name).alias("fingerprint")).first()
    except Exception as exc:  # noqa: BLE001 - any failure to load the class means: no JVM path in this session
        _warn(f"the session has no {JAR.name} ({type(exc).__name__})")
        return False
    theirs = loaded["fingerprint"] if loaded is not None else ""
    if theirs != fingerprint():
        _warn(f"the session's {JAR.name} is another version than this package's")
        return False
    return True


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
