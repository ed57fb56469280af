"""The Spark SQL functions of the jar (``spark.sql.extensions``): every protocol's functions under the names of the
README's table, with the Python functions' schemas, rows, modes and problems, from SQL, from the Java API and on a
stream. (On a cluster and over Spark Connect: ``test_spark_deploy.py``.)
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql.types import StructField, StructType
from spark_checks import plain, vectors
from spark_deploy import result

from streamcodecs_gen.analysis.sql import SQL_NAMES
from streamcodecs_gen.java_sources import FAMILIES
from streamcodecs_gen.pipeline import load_protocols

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"


def _functions() -> dict[str, list[Any]]:
    """Each protocol's SQL functions, as the generator lays them out (protocols with a Java target)."""
    found = {}
    for protocol in load_protocols(REPO / "protocol-definitions", REPO):
        java = FAMILIES.get(protocol.family)
        context = java.context(protocol) if java else None
        if context is not None:
            found[protocol.name] = context["sql"].functions
    return found


FUNCTIONS = _functions()


def _readme_table() -> dict[str, str]:
    """The README's table of SQL functions: SQL signature -> the Python function it is."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("| SQL function |") :]
    rows = {}
    for line in section.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip().strip("`") for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[1]
    return rows


def test_the_readme_table_lists_every_sql_function_and_its_python_function() -> None:
    listed = _readme_table()
    expected = {
        f.signature: f"streamcodecs.spark.{protocol}.{f.python}" for protocol, fs in FUNCTIONS.items() for f in fs
    }
    assert {k: v.split("(")[0] for k, v in listed.items()} == expected


def test_every_python_function_has_its_sql_name() -> None:
    assert set(SQL_NAMES) == {f.python for fs in FUNCTIONS.values() for f in fs}


# ----------------------------------------------------------------------------------------------- in a session


def _module(protocol: str) -> Any:
    return importlib.import_module(f"streamcodecs.spark.{protocol}")


def _frames(spark: Any, protocol: str) -> Any:
    rows = [(i, v["data"], v["direction"]) for i, v in enumerate(vectors(protocol))]
    rows += [(len(rows), b"\x00\x01{", None), (len(rows) + 1, None, None)]
    return spark.createDataFrame(rows, "id int, data binary, direction string")


@pytest.mark.spark
@pytest.mark.parametrize("protocol", sorted(FUNCTIONS))
def test_the_session_has_every_function_with_its_usage(spark: Any, protocol: str) -> None:
    for function in FUNCTIONS[protocol]:
        assert spark.catalog.functionExists(function.name), function.name
        described = "\n".join(r[0] for r in spark.sql(f"DESCRIBE FUNCTION {function.name}").collect())
        assert f"Usage: {function.signature} - {protocol}: " in described


@pytest.mark.spark
@pytest.mark.parametrize("protocol", ["kcl", "storm", "pravega"])
def test_decode_and_encode_give_the_python_functions_schemas_and_rows(spark: Any, protocol: str) -> None:
    """Every vector of every version, with no direction and with each, in every mode."""
    module = _module(protocol)
    frames = _frames(spark, protocol).where("data IS NULL OR id < 1000")
    frames.createOrReplaceTempView("sql_frames")
    for direction in [None, *module.DIRECTIONS]:
        literal = "NULL" if direction is None else f"'{direction}'"
        query = spark.sql(f"SELECT id, {protocol}_decode(data, {literal}) AS d FROM sql_frames")
        python = frames.select("id", module.decode("data", direction=direction).alias("d"))
        assert query.schema == python.schema and query.schema["d"].dataType == module.DECODED
        assert _rows(query) == _rows(python)
        encoded = spark.sql(f"SELECT id, {protocol}_encode({protocol}_decode(data, {literal})) AS e FROM sql_frames")
        python_encoded = python.select("id", module.encode("d").alias("e"))
        assert encoded.schema["e"].dataType == module.ENCODED
        assert _rows(encoded) == _rows(python_encoded)
        assert any(r["e"]["data"] for r in encoded.collect())


def _rows(frame: Any) -> list[Any]:
    return sorted((plain(r) for r in frame.collect()), key=lambda r: r["id"])


@pytest.mark.spark
@pytest.mark.parametrize("protocol", ["kcl", "storm", "pravega"])
def test_failfast_fails_with_the_python_functions_words(spark: Any, protocol: str) -> None:
    module = _module(protocol)
    frames = _frames(spark, protocol)
    frames.createOrReplaceTempView("sql_frames")
    sql = result(spark.sql, f"SELECT {protocol}_decode(data, NULL, 'failfast') AS d FROM sql_frames")
    python = result(frames.select, module.decode("data", mode="FAILFAST"))
    assert sql == python and sql[0] == "failed"
    nothing = {name: None for name in module.DECODED.names} | {"message": "Nothing"}  # no such message
    bad = spark.createDataFrame([(nothing,)], StructType([StructField("d", module.DECODED)]))
    bad.createOrReplaceTempView("sql_bad")
    sql = result(spark.sql, f"SELECT {protocol}_encode(d, 'FAILFAST') FROM sql_bad")
    python = result(bad.select, module.encode("d", on_error="FAILFAST"))
    assert sql == python and sql[0] == "failed" and "Nothing" in sql[1]
    permissive = spark.sql(f"SELECT {protocol}_encode(d) AS e FROM sql_bad").first()
    assert permissive is not None and permissive["e"]["data"] is None and "Nothing" in permissive["e"]["error"]


@pytest.mark.spark
def test_split_inline_gives_the_python_functions_rows(spark: Any) -> None:
    from streamcodecs import pravega as pv
    from streamcodecs.spark import pravega as spv

    whole = b"".join(pv.encode_inline(pv.Event(data=bytes([i]) * i)) for i in range(4))
    frame = spark.createDataFrame([(whole,), (whole[:-2],), (None,)], "data binary")
    frame.createOrReplaceTempView("sql_inline")
    query = spark.sql("SELECT pravega_split_inline(data) AS f FROM sql_inline")
    python = frame.select(spv.split_inline("data").alias("f"))
    assert query.schema == python.schema
    assert [plain(r) for r in query.collect()] == [plain(r) for r in python.collect()]
    sql = result(spark.sql, "SELECT pravega_split_inline(data, 'FAILFAST') FROM sql_inline")
    assert sql == result(frame.select, spv.split_inline("data", mode="FAILFAST")) and sql[0] == "failed"


def _records(spark: Any) -> Any:
    from spark_deploy import _records as records

    return records(spark)


@pytest.mark.spark
def test_the_cloudevents_functions_give_the_python_functions_rows(spark: Any) -> None:
    from streamcodecs.spark import cloudevents as sce

    records = _records(spark)
    records.createOrReplaceTempView("sql_records")
    read = spark.sql(
        "SELECT `offset`, from_cloudevents_kafka(value, headers) AS r, cloudevents_content_mode(headers) AS m "
        "FROM sql_records"
    )
    python = sce.from_kafka(records)
    assert read.schema["r"].dataType.names == list(sce.FROM_KAFKA_COLUMNS)
    types = [python.schema[c].dataType for c in sce.FROM_KAFKA_COLUMNS]
    assert [f.dataType for f in read.schema["r"].dataType.fields] == types
    by_offset = {r["offset"]: plain(r) for r in python.collect()}
    modes = {r["offset"]: r["m"] for r in records.select("offset", sce.content_mode("headers").alias("m")).collect()}
    for row in read.collect():
        assert plain(row["r"]) == {c: by_offset[row["offset"]][c] for c in sce.FROM_KAFKA_COLUMNS}
        assert row["m"] == modes[row["offset"]]
    events = python.where("error IS NULL")
    events.createOrReplaceTempView("sql_events")
    for mode in ("binary", "structured"):
        written = spark.sql(f"SELECT `offset`, to_cloudevents_kafka(cloud_event, '{mode}') AS w FROM sql_events")
        # to_kafka keeps a ``partition`` column beside the record: the offset rides along as one
        routed = events.select(events["offset"].alias("partition"), "cloud_event")
        theirs = {
            r["partition"]: {"value": r["value"], "headers": r["headers"], "error": r["error"]}
            for r in sce.to_kafka(routed, mode).collect()
        }
        assert {r["offset"]: plain(r["w"]) for r in written.collect()} == plain(theirs)
    texts = spark.sql("SELECT `offset`, cloudevents_data_text(cloud_event) AS t FROM sql_events").collect()
    assert {r["offset"]: r["t"] for r in texts} == {
        r["offset"]: r["t"] for r in events.select("offset", sce.data_text("cloud_event").alias("t")).collect()
    }
    structured = spark.sql(
        "SELECT `offset`, w.value AS value FROM (SELECT `offset`, "
        "to_cloudevents_kafka(cloud_event, 'structured') AS w FROM sql_events)"
    )
    structured.createOrReplaceTempView("sql_structured")
    decoded = spark.sql("SELECT `offset`, cloudevents_decode(value) AS d FROM sql_structured")
    python_decoded = structured.select("offset", sce.decode("value").alias("d"))
    assert decoded.schema == python_decoded.schema and decoded.schema["d"].dataType == sce.DECODED
    assert sorted(map(plain, decoded.collect()), key=str) == sorted(map(plain, python_decoded.collect()), key=str)
    decoded.createOrReplaceTempView("sql_decoded")
    encoded = spark.sql("SELECT `offset`, cloudevents_encode(d) AS e FROM sql_decoded")
    python_encoded = decoded.select("offset", sce.encode("d").alias("e"))
    assert sorted(map(plain, encoded.collect()), key=str) == sorted(map(plain, python_encoded.collect()), key=str)


@pytest.mark.spark
def test_the_cloudevents_failures_are_the_python_functions(spark: Any) -> None:
    from streamcodecs.spark import cloudevents as sce

    records = _records(spark).select("value", "headers")
    records.createOrReplaceTempView("sql_records_alone")
    sql = result(spark.sql, "SELECT from_cloudevents_kafka(value, headers, 'FAILFAST') FROM sql_records_alone")
    assert sql == result(lambda: sce.from_kafka(records, mode="FAILFAST")) and sql[0] == "failed"
    event = {name: None for name in sce.CLOUD_EVENT_SCHEMA.names} | {"specversion": "1.0", "id": "", "source": "s"}
    events = spark.createDataFrame(
        [(event | {"type": "t"},)], StructType([StructField("cloud_event", sce.CLOUD_EVENT_SCHEMA)])
    )
    events.createOrReplaceTempView("sql_bad_events")
    for mode in ("binary", "structured"):
        permissive = spark.sql(f"SELECT to_cloudevents_kafka(cloud_event, '{mode}') AS w FROM sql_bad_events").first()
        python = sce.to_kafka(events, mode).first()
        assert permissive is not None and python is not None
        assert permissive["w"]["error"] == python["error"] and "`id`" in python["error"]
        query = f"SELECT to_cloudevents_kafka(cloud_event, '{mode}', 'FAILFAST') FROM sql_bad_events"
        sql = result(spark.sql, query)
        assert sql == result(functools.partial(sce.to_kafka, on_error="FAILFAST"), events, mode)
        assert sql[0] == "failed"


@pytest.mark.spark
@pytest.mark.parametrize(
    ("call", "python"),
    [
        ("kcl_decode(data, 'sideways')", lambda m: m.decode("data", direction="sideways")),
        ("pravega_decode(data, NULL, 'lenient')", lambda m: m.decode("data", mode="lenient")),
        ("storm_encode(storm_decode(data), 'STRICT')", lambda m: m.encode("data", on_error="STRICT")),
    ],
)
def test_a_bad_mode_or_direction_is_refused_with_the_python_functions_words(spark: Any, call: str, python: Any) -> None:
    function = call.split("(")[0]
    with pytest.raises(ValueError) as refused:
        python(_module(function.split("_")[0]))
    _frames(spark, "kcl").createOrReplaceTempView("sql_frames")
    with pytest.raises(Exception) as sql:
        spark.sql(f"SELECT {call} FROM sql_frames").collect()
    assert f"{function}: {refused.value}" in str(sql.value)


# Calls with two or three bad arguments: every function checks its arguments in one order, the Python function's
# (the mode or on_error, then the direction, then the serializer; to_kafka's content mode before its on_error), so
# the SQL function refuses the argument the Python function refuses. The last item is what the Python call refuses.
MANY_BAD = [
    (
        "storm_decode(data, 'sideways', 'lenient', 'pickle')",
        "decode",
        {"direction": "sideways", "mode": "lenient", "serializer": "pickle"},
        "'lenient'",
    ),
    (
        "storm_decode(data, 'sideways', 'FAILFAST', 'pickle')",
        "decode",
        {"direction": "sideways", "mode": "FAILFAST", "serializer": "pickle"},
        "'sideways'",
    ),
    (
        "storm_decode(data, NULL, 'lenient', 'pickle')",
        "decode",
        {"mode": "lenient", "serializer": "pickle"},
        "'lenient'",
    ),
    (
        "storm_encode(storm_decode(data), 'STRICT', 'pickle')",
        "encode",
        {"on_error": "STRICT", "serializer": "pickle"},
        "'STRICT'",
    ),
    ("kcl_decode(data, 'sideways', 'lenient')", "decode", {"direction": "sideways", "mode": "lenient"}, "'lenient'"),
    (
        "pravega_decode(data, 'sideways', 'lenient')",
        "decode",
        {"direction": "sideways", "mode": "lenient"},
        "'lenient'",
    ),
    (
        "cloudevents_decode(data, 'sideways', 'lenient')",
        "decode",
        {"direction": "sideways", "mode": "lenient"},
        "'lenient'",
    ),
    # NULL for a mode is Python's None: refused as Python refuses it (the SQL function once failed on it with an
    # internal error of Spark's, a NullPointerException)
    ("kcl_decode(data, 'sideways', NULL)", "decode", {"direction": "sideways", "mode": None}, "None"),
    ("storm_encode(storm_decode(data), NULL, 'cbor')", "encode", {"on_error": None, "serializer": "cbor"}, "None"),
]


def _refusal(call: str, python: str, arguments: dict[str, str | None]) -> str:
    """The Python function's refusal of the call's arguments, named as the SQL function names it."""
    function = call.split("(")[0]
    with pytest.raises(ValueError) as refused:
        getattr(_module(function.split("_")[0]), python)("data", **arguments)
    return f"{function}: {refused.value}"


@pytest.mark.parametrize(("call", "python", "arguments", "first"), MANY_BAD, ids=[c[0] for c in MANY_BAD])
def test_the_python_function_refuses_the_first_bad_argument_in_its_order(
    call: str, python: str, arguments: dict[str, str | None], first: str
) -> None:
    refusal = _refusal(call, python, arguments)  # the arguments are checked before a column is made: no session
    assert first in refusal, refusal
    assert all(repr(v) not in refusal for v in arguments.values() if repr(v) != first)


@pytest.mark.spark
@pytest.mark.parametrize(("call", "python", "arguments", "first"), MANY_BAD, ids=[c[0] for c in MANY_BAD])
def test_the_sql_function_refuses_the_argument_the_python_function_refuses(
    spark: Any, call: str, python: str, arguments: dict[str, str | None], first: str
) -> None:
    refusal = _refusal(call, python, arguments)
    _frames(spark, "kcl").createOrReplaceTempView("sql_frames")
    with pytest.raises(Exception) as sql:
        spark.sql(f"SELECT {call} FROM sql_frames").collect()
    assert refusal in str(sql.value)


@pytest.mark.spark
def test_to_kafka_refuses_the_content_mode_before_on_error_as_the_python_function(spark: Any) -> None:
    from streamcodecs.spark import cloudevents as sce

    for mode, literal, first in (("bin", "'bin'", "'bin'"), (None, "NULL", "None")):
        with pytest.raises(ValueError) as refused:
            sce.to_kafka(spark.range(1), mode, on_error="STRICT")
        with pytest.raises(Exception) as sql:
            spark.sql(f"SELECT to_cloudevents_kafka(x, {literal}, 'STRICT') FROM VALUES (1) AS t(x)").collect()
        assert first in str(refused.value) and f"to_cloudevents_kafka: {refused.value}" in str(sql.value)


# A direction, or a content mode, written with a quote in it, each way SQL writes one: what the function is given
# is the text the Python function is given, refused in the Python function's words (its repr of that text).
QUOTED = [
    ("kcl_decode(data, 'it\\'s')", "it's"),  # a JSON-family function (the direction becomes an index)
    ('storm_decode(data, "it\'s")', "it's"),
    ("pravega_decode(data, 'to''s')", "to's"),  # a quote doubled
    ("pravega_decode(data, 'a\\'b\"c')", "a'b\"c"),  # the binary family (the direction becomes a literal column)
    ("cloudevents_decode(data, '\\\\')", "\\"),
    ("pravega_decode(data, '\\' OR 1=1 --')", "' OR 1=1 --"),
]


@pytest.mark.spark
@pytest.mark.parametrize(("call", "direction"), QUOTED, ids=[c[0] for c in QUOTED])
def test_a_direction_with_a_quote_is_the_text_the_python_function_refuses(
    spark: Any, call: str, direction: str
) -> None:
    function = call.split("(")[0]
    module = _module(function.split("_")[0])
    with pytest.raises(ValueError) as refused:
        module.decode("data", direction=direction)
    assert repr(direction) in str(refused.value)
    _frames(spark, "kcl").createOrReplaceTempView("sql_frames")
    with pytest.raises(Exception) as sql:
        spark.sql(f"SELECT {call} FROM sql_frames").collect()
    assert f"{function}: {refused.value}" in str(sql.value)


@pytest.mark.spark
@pytest.mark.parametrize("mode", ["bin'ary", 'struct"ured', 'it\'s "both"'])
def test_a_content_mode_with_a_quote_is_refused_in_the_python_functions_words(spark: Any, mode: str) -> None:
    from streamcodecs.spark import cloudevents as sce

    with pytest.raises(ValueError) as refused:
        sce.to_kafka(spark.range(1), mode)  # refused before the events are read
    literal = "'" + mode.replace("\\", "\\\\").replace("'", "\\'") + "'"
    with pytest.raises(Exception) as sql:
        spark.sql(f"SELECT to_cloudevents_kafka(x, {literal}) FROM VALUES (1) AS t(x)").collect()
    assert f"to_cloudevents_kafka: {refused.value}" in str(sql.value)


@pytest.mark.spark
@pytest.mark.parametrize(
    ("call", "words"),
    [
        ("kcl_decode(data, direction)", "kcl_decode: direction must be a constant string or NULL, not"),
        ("kcl_decode()", "kcl_decode takes 1 to 3 arguments (kcl_decode(data[, direction[, mode]])), not 0"),
        ("from_cloudevents_kafka(data)", "from_cloudevents_kafka takes 2 to 3 arguments"),
        ("cloudevents_content_mode(data, data)", "cloudevents_content_mode takes 1 arguments"),
    ],
)
def test_arguments_the_function_cannot_take_are_refused_naming_it(spark: Any, call: str, words: str) -> None:
    _frames(spark, "kcl").createOrReplaceTempView("sql_frames")
    with pytest.raises(Exception) as sql:
        spark.sql(f"SELECT {call} FROM sql_frames").collect()
    assert words in str(sql.value)


@pytest.mark.spark
def test_the_functions_work_from_the_java_api(spark: Any) -> None:
    """``functions.call_function`` on a Java ``Dataset``, as a Scala or Java job calls them (here through py4j)."""
    from pyspark.sql import DataFrame
    from streamcodecs.spark import kcl

    frames = _frames(spark, "kcl")
    jvm = spark._jvm
    functions = jvm.org.apache.spark.sql.functions
    gateway = spark.sparkContext._gateway
    arguments = gateway.new_array(jvm.org.apache.spark.sql.Column, 2)
    arguments[0], arguments[1] = functions.col("data"), functions.lit("to_child")
    columns = gateway.new_array(jvm.org.apache.spark.sql.Column, 2)
    columns[0], columns[1] = functions.col("id"), functions.call_function("kcl_decode", arguments).alias("d")
    java = DataFrame(frames._jdf.select(columns), spark)
    python = frames.select("id", kcl.decode("data", direction="to_child").alias("d"))
    assert java.schema == python.schema
    assert _rows(java) == _rows(python)


@pytest.mark.spark
def test_the_jar_is_built_for_this_spark_and_refuses_another_minor_version(spark: Any) -> None:
    import pyspark

    sql = spark._jvm.streamcodecs.runtime.SparkSql
    assert sql.builtFor() == pyspark.__version__
    assert sql.mismatch(sql.builtFor(), pyspark.__version__) is None
    major, minor, _ = pyspark.__version__.split(".", 2)
    assert sql.mismatch(sql.builtFor(), f"{major}.{minor}.99") is None
    other = f"{major}.{int(minor) + 1}.0"
    assert f"built for Spark {pyspark.__version__}" in sql.mismatch(sql.builtFor(), other)


@pytest.mark.spark
def test_the_functions_work_on_a_stream(spark: Any, tmp_path: Path) -> None:
    from streamcodecs.spark import kcl

    lines = [v["data"] for v in vectors("kcl") if v["direction"] == "to_child"][:6]
    source = tmp_path / "in"
    source.mkdir()
    (source / "lines.jsonl").write_bytes(b"".join(lines) + b"{}\n")
    stream = spark.readStream.format("text").load(str(source))
    stream.createOrReplaceTempView("sql_stream")
    query = (
        spark.sql("SELECT value, kcl_decode(value, 'to_child') AS d FROM sql_stream")
        .writeStream.format("memory")
        .queryName("sql_stream_out")
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination(120)
    streamed = spark.table("sql_stream_out")
    batch = spark.read.text(str(source)).select("value", kcl.decode("value", direction="to_child").alias("d"))
    assert sorted(map(plain, streamed.collect()), key=str) == sorted(map(plain, batch.collect()), key=str)
    assert streamed.count() == len(lines) + 1
