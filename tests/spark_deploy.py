"""The Spark functions where users run them: a representative set of queries (``CASES``), run in the test's local
session and, by this file run as a script, on a cluster whose executors are separate JVMs and over Spark Connect.

Each mode is a process of its own: a process holds one Spark driver, and a Spark Connect client switches pyspark
into Connect mode for the whole process.

``python spark_deploy.py server OUT PORT``
    A driver on ``local-cluster[2,1,1024]`` (two executor JVMs), started as a user starts one: the jar on
    ``spark.jars`` and the SQL extension (``configure(builder, sql=True)``), the package pip-installed where the
    driver's and the executors' Python run (the project's venv, no ``PYTHONPATH``). It runs every case on both
    paths, writes the results to ``OUT`` (a pickle), serves Spark Connect on 127.0.0.1:``PORT`` (the same JVM:
    Spark Connect's plugin) and prints ``READY``; it stops when its standard input closes.
``python spark_deploy.py connect OUT PORT``
    A Spark Connect client of that server, as a user's: ``SparkSession.builder.remote(...)``, the package shipped to
    the server for the Python path as a zip, with ``addArtifacts(zip, pyfile=True)`` (what ``--py-files`` is to a
    cluster: its executors import the package from that zip, not from their own installation). It runs every case
    on both paths and writes the results to ``OUT``.

A case's result is its rows as plain values (``spark_checks.plain``), sorted (a sort in Spark would cost a
cluster two more jobs a query), or the text of the failure it raised (what ``fail_on_error`` and ``FAILFAST``
say); the test compares each with the local session's.
"""

from __future__ import annotations

import os
import pickle
import re
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from spark_checks import GENERATED, manifest_records, plain, vectors  # noqa: E402

PATHS = ("jvm", "fallback")
CLUSTER = "local-cluster[2,1,1024]"
FAILURES = (
    re.compile(r"\[USER_RAISED_EXCEPTION\] ([^\n]*?) SQLSTATE"),
    re.compile(r"(?<![\w.])((?:kcl|storm|pravega|cloudevents): [^\n]*)"),
)
"""A function's failure in an error's text: what ``raise_error`` raised, else the protocol's name and the problem
(to the end of its line) that a UDF raised."""


def _newest(protocol: str) -> list[dict[str, Any]]:
    """The vectors of a protocol's newest version (every message of it), without framing variants."""
    found = vectors(protocol)
    newest = found[-1]["version"]
    return [v for v in found if v["version"] == newest and v.get("variant") in (None, "full", "one", "empty")]


def _frames(spark: Any, protocol: str, bad: bytes) -> Any:
    """The newest vectors of ``protocol`` as rows (``id``, ``data``, ``direction``), then one malformed and a null."""
    rows = [(i, v["data"], v["direction"]) for i, v in enumerate(_newest(protocol))]
    rows += [(len(rows), bad, None), (len(rows) + 1, None, None)]
    return spark.createDataFrame(rows, "id int, data binary, direction string")


def _records(spark: Any) -> Any:
    """Kafka-shaped rows: the CloudEvents vectors' records in both content modes, and a malformed one."""
    from streamcodecs.spark import cloudevents as sce

    def raw(text: str | None) -> bytes | None:
        return None if text is None else bytes.fromhex(text)

    rows = [
        (raw(r["key"]), raw(r["value"]), "events", 0, i, None, 0, [(k, raw(v)) for k, v in r["headers"]])
        for i, r in enumerate(manifest_records("cloudevents"))
    ]
    bad = [("content-type", b"application/cloudevents+json")]
    rows.append((None, b'{"specversion": "1.0"}', "events", 0, len(rows), None, 0, bad))
    return spark.createDataFrame(rows, sce.KAFKA_SOURCE_SCHEMA)


# --------------------------------------------------------------------------- the cases: (spark) -> DataFrame


def _decode(protocol: str, bad: bytes) -> Callable[[Any], Any]:
    def case(spark: Any) -> Any:
        module = _spark_module(protocol)
        frames = _frames(spark, protocol, bad)
        return frames.select("id", module.decode("data").alias("decoded"))

    return case


def _encode(protocol: str, bad: bytes) -> Callable[[Any], Any]:
    def case(spark: Any) -> Any:
        module = _spark_module(protocol)
        decoded = _frames(spark, protocol, bad).select("id", module.decode("data").alias("decoded"))
        return decoded.select("id", module.encode("decoded").alias("encoded"))

    return case


def _spark_module(protocol: str) -> Any:
    import importlib

    return importlib.import_module(f"streamcodecs.spark.{protocol}")


BAD = {"kcl": b'{"action": "bogus"}', "storm": b'{"command": "emit"}\nend\n', "pravega": b"\x00\x00\x00\x01\x00"}


def _packed_frames(spark: Any) -> Any:
    """Storm's MessagePack vectors of its newest version, one value whose free-form fields JSON cannot hold (bytes,
    a timestamp, infinity, an integer beyond a long), a malformed value and a null."""
    import json

    import msgpack

    manifests = sorted((GENERATED / "vectors" / "storm").glob("*/msgpack/manifest.json"))
    manifest = json.loads(manifests[-1].read_text(encoding="utf-8"))
    blob = (manifests[-1].parent / manifest["file"]).read_bytes()
    data = [blob[v["offset"] : v["offset"] + v["length"]] for v in manifest["vectors"]]
    odd = [b"\x00\xff", msgpack.Timestamp(1_600_000_000, 123_456_789), float("inf"), 2**64 - 1, {"b": [None]}]
    data += [msgpack.packb({"command": "emit", "tuple": odd, "id": b"x"}), msgpack.packb({"command": "emit"}), None]
    return spark.createDataFrame(list(enumerate(data)), "id int, data binary")


def _storm_msgpack(spark: Any) -> Any:
    from streamcodecs.spark import storm

    decoded = storm.decode("data", serializer="msgpack")
    return _packed_frames(spark).select(
        "id", decoded.alias("d"), storm.encode(decoded, serializer="msgpack").alias("e")
    )


def _from_kafka(spark: Any) -> Any:
    from streamcodecs.spark import cloudevents as sce

    return sce.from_kafka(_records(spark)).drop("timestamp")


def _to_kafka(content_mode: str) -> Callable[[Any], Any]:
    def case(spark: Any) -> Any:
        from streamcodecs.spark import cloudevents as sce

        events = sce.from_kafka(_records(spark)).where("error IS NULL").select("offset", "cloud_event")
        return sce.to_kafka(events, content_mode)

    return case


def _explode_inline(spark: Any) -> Any:
    """Events cut across the reads of two segments, the reads in their own order (one of them cut mid-header)."""
    from streamcodecs import pravega as pv
    from streamcodecs.spark import pravega as spv

    rows = []
    for segment, count in (("a", 5), ("b", 3)):
        stream = b"".join(pv.encode_inline(pv.Event(data=f"{segment}{i}".encode() * (i + 1))) for i in range(count))
        for at in range(0, len(stream), 7):
            rows.append((segment, at, stream[at : at + 7]))
    frame = spark.createDataFrame(list(reversed(rows)), "segment string, offset bigint, data binary")
    return spv.explode_inline(frame, data="data", offset="offset", stream="segment")


def _failing(protocol: str, query: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    def case(spark: Any) -> Any:
        module = _spark_module(protocol)
        return query(module, _frames(spark, protocol, BAD[protocol]))

    return case


def _fail_on_error(module: Any, frames: Any) -> Any:
    from streamcodecs.spark import fail_on_error

    return fail_on_error(frames.select(module.decode("data").alias("d")), "d.error")


def _failfast(module: Any, frames: Any) -> Any:
    return frames.select(module.decode("data", mode="FAILFAST").alias("d"))


CASES: dict[str, Callable[[Any], Any]] = {
    **{f"{p}.decode": _decode(p, BAD[p]) for p in ("kcl", "storm", "pravega")},
    **{f"{p}.encode": _encode(p, BAD[p]) for p in ("kcl", "storm", "pravega")},
    "cloudevents.from_kafka": _from_kafka,
    "cloudevents.to_kafka binary": _to_kafka("binary"),
    "cloudevents.to_kafka structured": _to_kafka("structured"),
    "pravega.explode_inline": _explode_inline,
    "storm.decode/encode msgpack": _storm_msgpack,
    "kcl fail_on_error": _failing("kcl", _fail_on_error),
    "pravega FAILFAST": _failing("pravega", _failfast),
    "cloudevents FAILFAST": lambda spark: _spark_module("cloudevents").from_kafka(_records(spark), mode="FAILFAST"),
}
"""Every protocol's decode and encode (Storm's MessagePack too), CloudEvents from_kafka and to_kafka, Pravega
explode_inline, and failures:
fail_on_error, FAILFAST on the codec's own failure and on the Kafka one."""

SQL_CASES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "kcl_decode": (
        "SELECT id, kcl_decode(data, 'to_child') AS decoded FROM frames_kcl",
        lambda spark: _frames(spark, "kcl", BAD["kcl"]).select(
            "id", _spark_module("kcl").decode("data", direction="to_child").alias("decoded")
        ),
    ),
    "storm_encode": (
        "SELECT id, storm_encode(storm_decode(data)) AS encoded FROM frames_storm",
        lambda spark: CASES["storm.encode"](spark),
    ),
    "pravega_decode": (
        "SELECT id, pravega_decode(data) AS decoded FROM frames_pravega",
        lambda spark: CASES["pravega.decode"](spark),
    ),
    "from_cloudevents_kafka": (
        "SELECT key, topic, `partition`, `offset`, timestampType, r.* FROM (SELECT *, "
        "from_cloudevents_kafka(value, headers) AS r FROM records)",
        _from_kafka,
    ),
    "to_cloudevents_kafka": (
        "SELECT w.* FROM (SELECT to_cloudevents_kafka(r.cloud_event, 'structured') AS w "
        "FROM (SELECT from_cloudevents_kafka(value, headers) AS r FROM records) WHERE r.error IS NULL)",
        lambda spark: _to_kafka("structured")(spark).drop("key"),
    ),
    "kcl_decode FAILFAST": (
        "SELECT kcl_decode(data, NULL, 'FAILFAST') AS d FROM frames_kcl",
        _failing("kcl", _failfast),
    ),
}
"""SQL queries over tables of KCL lines, Storm frames, Pravega frames and Kafka records (``tables``), each with the
Python functions' query that must give the same rows (or failure)."""


def tables(spark: Any) -> None:
    """The temporary views the SQL cases read."""
    for protocol in ("kcl", "storm", "pravega"):
        _frames(spark, protocol, BAD[protocol]).createOrReplaceTempView(f"frames_{protocol}")
    _records(spark).createOrReplaceTempView("records")


def result(query: Callable[..., Any], *arguments: Any) -> tuple[str, Any]:
    """``("rows", plain rows)`` of the DataFrame ``query(*arguments)``, or ``("failed", text)`` for the failure a
    function raised in it."""
    try:
        return "rows", sorted((plain(row) for row in query(*arguments).collect()), key=repr)
    except Exception as exc:  # noqa: BLE001 - the failure is the result (what FAILFAST or fail_on_error said)
        for failure in FAILURES:
            found = failure.search(str(exc))
            if found is not None:
                return "failed", found.group(1).partition(" SQLSTATE: ")[0].strip()
        raise


def run(spark: Any, path: str) -> dict[str, tuple[str, Any]]:
    """Every case on ``path`` (``jvm`` or ``fallback``) in ``spark``."""
    from streamcodecs.spark import _jvm

    spark.conf.set(_jvm.CONF, "true" if path == "jvm" else "false")
    try:
        return {name: result(case, spark) for name, case in CASES.items()}
    finally:
        spark.conf.set(_jvm.CONF, "true")


def run_sql(spark: Any) -> dict[str, tuple[str, Any]]:
    """Every SQL case (the SQL functions run on the JVM only)."""
    tables(spark)
    return {name: result(spark.sql, query) for name, (query, _) in SQL_CASES.items()}


def origin(spark: Any) -> list[str]:
    """Where the executors' Python workers imported the package from (a Python UDF run on every executor)."""
    from pyspark.sql import functions as F

    @F.udf("string")
    def imported(_: Any) -> str:
        import streamcodecs

        return str(Path(streamcodecs.__file__).parent.parent)

    rows = spark.range(0, 8, 1, 8).select(imported("id").alias("origin")).distinct().collect()
    return sorted(row["origin"] for row in rows)


SHIPPED = "streamcodecs-shipped.zip"
"""The zip the Connect client ships (a name no installation has, so that ``origin`` tells it apart)."""


def package_zip(directory: Path) -> Path:
    """The package as a user zips it for ``--py-files``: ``streamcodecs/`` at the zip's root."""
    package = GENERATED / "streamcodecs"
    target = directory / SHIPPED
    with zipfile.ZipFile(target, "w") as z:
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                z.write(path, path.relative_to(GENERATED).as_posix())
    return target


def _server(out: Path, port: int) -> None:
    import streamcodecs.spark
    from pyspark.sql import SparkSession

    spark = (
        streamcodecs.spark.configure(SparkSession.builder, sql=True)
        .master(CLUSTER)
        .appName("streamcodecs-cluster-tests")
        .config("spark.plugins", "org.apache.spark.sql.connect.SparkConnectPlugin")
        .config("spark.connect.grpc.binding.address", "127.0.0.1")
        .config("spark.connect.grpc.binding.port", str(port))
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.executor.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
        .config("spark.driver.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    # The executor JVMs register some time after the session starts (later on a busy machine): wait for both,
    # bounded, before counting them
    status = spark.sparkContext._jsc.sc().getExecutorMemoryStatus
    deadline = time.monotonic() + 120
    while status().size() - 1 < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
    executors = status().size() - 1  # less the driver
    found = {
        "executors": executors,
        "path": str(streamcodecs.spark.path(spark)),
        "origin": origin(spark),
        **{path: run(spark, path) for path in PATHS},
        "sql": run_sql(spark),
    }
    out.write_bytes(pickle.dumps(found))
    print("READY", flush=True)
    sys.stdin.read()  # serve Spark Connect until the test closes our standard input
    spark.stop()


def _connect(out: Path, port: int) -> None:
    import streamcodecs.spark
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.remote(f"sc://127.0.0.1:{port}").getOrCreate()
    with tempfile.TemporaryDirectory(prefix="streamcodecs-deploy-") as directory:
        spark.addArtifacts(str(package_zip(Path(directory))), pyfile=True)
    found = {
        "path": str(streamcodecs.spark.path(spark)),
        "origin": origin(spark),
        **{path: run(spark, path) for path in PATHS},
        "sql": run_sql(spark),
    }
    out.write_bytes(pickle.dumps(found))
    spark.stop()


if __name__ == "__main__":
    mode, target, port_text = sys.argv[1:4]
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    {"server": _server, "connect": _connect}[mode](Path(target), int(port_text))
