"""The JSON protocols (KCL, Storm) in Spark: decode and encode against the Python codec, on both paths.

One DataFrame per protocol holds every compatibility vector of every version plus a set of malformed messages; it
is decoded with no direction and with each direction in one query, and every row is compared with the codec. Each
test runs on the JVM path (the generated Java codec, the default) and on the Python fallback
(``spark.streamcodecs.jvm=false``: the Python codec on Arrow batches); both are held to the codec's own words.
"""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import functions as F
from spark_checks import PYTHON_NODES, on_path, plain, plan_nodes, plan_text, python_decode, spark_decoded, vectors

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parent.parent

PROTOCOLS = ["kcl", "storm"]
PATHS = ["jvm", "python"]


def codec_words(codec: Any, data: bytes) -> str:
    """The codec's error for ``data`` as the Spark error column words it (without the protocol prefix)."""
    error = python_decode(codec, data, None)[2]
    assert error is not None, data
    return error.removeprefix(f"{codec.DecodeError.protocol}: ")


# Malformed messages, and a word of what is wrong with each (which the FAILFAST test looks for); the codec must
# refuse each one too.
MALFORMED: dict[str, list[tuple[bytes, str]]] = {
    "kcl": [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b'{"action":"initialize","shardId":', "malformed JSON"),
        (b"{'action':'leaseLost'}", "malformed JSON"),
        (b'{"action":"status","responseFor":"\xff\xfe"}\n', "UTF-8"),
        (b'{"action":"initialize"}\n', "shardId"),
        (b'{"action":"initialize","shardId":null}\n', "shardId"),
        (b'{"action":"bogus"}\n', 'unknown action "bogus"'),
        (b'{"shardId":"s"}\n', "no message matches"),
        (b"[1,2]\n", "no message matches"),
        (b"42\n", "no message matches"),
        (b'{"action":"leaseLost"} trailing\n', "no message matches"),
        (
            b'{"action":"processRecords","records":[{"data":"***","partitionKey":"p","sequenceNumber":"1"}]}\n',
            "records",
        ),
        (b'{"action":"processRecords","records":[{"data":null,"sequenceNumber":"1"}]}\n', "partitionKey"),
        (b'{"action":"processRecords","records":[null]}\n', "records[]"),
        (
            b'{"action":"processRecords","records":[{"partitionKey":"p","sequenceNumber":"1","data":"QQ==",'
            b'"action":"other"}]}\n',
            "action",
        ),
        (b'{"action":"processRecords","records":[],"millisBehindLatest":"x"}\n', "millisBehindLatest"),
        (b'{"action":"processRecords","records":[],"millisBehindLatest":1.5}\n', "millisBehindLatest"),
        (b'{"action":"processRecords","records":[],"millisBehindLatest":99999999999999999999}\n', "millisBehindLatest"),
        (b'{"action":"shutdown","reason":"SOMETIMES"}\n', "SOMETIMES"),
        (b'{"action":"shutdown","reason":7}\n', "reason"),
        (b'{"action":"checkpoint","sequenceNumber":"1","subSequenceNumber":"x"}\n', "subSequenceNumber"),
    ],
    "storm": [
        (b"\nend\n", "empty"),
        (b'{"command":"emit"}\nend\n', "tuple"),
        (b'{"command":"emit","tuple":[1],"anchors":[1.5,{}]}\nend\n', "anchors"),
        (b'{"command":"log","msg":"x","level":"high"}\nend\n', "level"),
        (b'{"command":"metrics","name":"m"}\nend\n', "params"),
        (b'{"id":"1","comp":"c","stream":"s","task":"x","tuple":[]}\nend\n', "task"),
        (b'{"id":"1","comp":"c","stream":"s","task":3,"tuple":5}\nend\n', "tuple"),
        (b'[1,"x"]\nend\n', "list of int32"),
        (b'{"pid":"abc"}\nend\n', "pid"),
        (b'{"conf":{},"pidDir":"/tmp","context":{}}\nend\n', "task->component"),
        (
            b'{"conf":{},"pidDir":"/tmp","context":{"task->component":{},"stream->target->grouping":'
            b'{"s":{"c":{"type":"SOMETIMES"}}}}}\nend\n',
            "SOMETIMES",
        ),
        (b'{"command":"next","id":"x"}\nend\n', "id"),
        (b'{"command":5}\nend\n', "no message matches"),
        (b'{"something":"else"}\nend\n', "no message matches"),
        (b'{"command":"sync"\nend\n', "malformed JSON"),
    ],
}


def _modules(protocol: str) -> tuple[Any, Any]:
    return importlib.import_module(f"streamcodecs.{protocol}"), importlib.import_module(
        f"streamcodecs.spark.{protocol}"
    )


def _encodable(codec: Any, row: tuple[Any, ...]) -> bool:
    direction, data, expected = row
    if expected is None:
        return True
    try:
        codec.encode(codec.decode(data, direction=direction))
    except codec.EncodeError:
        return False
    return True


@pytest.fixture(scope="module", params=PATHS)
def decoded(spark: Any, request: Any) -> dict[str, dict[str, Any]]:
    """Per protocol: the input rows and, in one query, decode without direction, with each direction, and the
    round trip decode(encode(decode(x))), on the JVM path or the Python one."""
    with on_path(spark, request.param):
        return _decoded(spark, request.param)


def _decoded(spark: Any, path: str) -> dict[str, dict[str, Any]]:
    results = {}
    for protocol in PROTOCOLS:
        codec, module = _modules(protocol)
        rows = [(v["direction"], v["data"], v["message"]) for v in vectors(protocol)]
        rows += [(None, data, None) for data, _ in MALFORMED[protocol]]
        frame = spark.createDataFrame(
            [(i, *row, _encodable(codec, row)) for i, row in enumerate(rows)],
            "i int, direction string, data binary, expected string, encodable boolean",
        )
        once = module.decode("data")
        wire = F.when(F.col("encodable"), module.encode(once)["data"])  # not old layouts with fields removed since
        columns = [once.alias("any"), wire.alias("wire")]
        columns += [module.decode("data", direction=d).alias(d) for d in module.DIRECTIONS]
        columns += [module.decode(wire).alias("again")]
        query = frame.select("i", *columns)
        out = query.orderBy("i").collect()
        results[protocol] = {
            "rows": rows,
            "out": out,
            "codec": codec,
            "module": module,
            "frame": frame,
            "query": query,
            "once": once,
            "path": path,
        }
    return results


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_vector_decodes_as_the_codec_decodes(decoded: dict[str, Any], protocol: str) -> None:
    run = decoded[protocol]
    codec, module = run["codec"], run["module"]
    checked = 0
    for (direction, data, expected), row in zip(run["rows"], run["out"], strict=True):
        if expected is None:
            continue
        for label, given in [("any", None), *[(d, d) for d in module.DIRECTIONS]]:
            python = python_decode(codec, data, given)
            spark = spark_decoded(module, row[label])
            assert spark[:2] == python[:2], (label, data[:200])
            assert (spark[2] is None) == (python[2] is None), (label, data[:200], spark[2], python[2])
            checked += 1
        assert row[direction]["message"] == expected  # the manifest's own answer, in its direction
    assert checked >= len(vectors(protocol)) * (1 + len(module.DIRECTIONS))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_encode_writes_what_the_codec_writes(decoded: dict[str, Any], protocol: str) -> None:
    run = decoded[protocol]
    codec, module = run["codec"], run["module"]
    identical = 0
    for (direction, data, expected), row in zip(run["rows"], run["out"], strict=True):
        if expected is None:
            assert row["wire"] is None  # nothing to encode for a malformed row
            continue
        message = codec.decode(data, direction=direction)
        try:
            wanted = codec.encode(message)
        except codec.EncodeError:
            assert row["wire"] is None  # a field removed from the protocol: not encoded here (see below)
            continue
        assert codec.decode(bytes(row["wire"]), direction=direction) == message
        assert bytes(row["wire"]) == wanted, data[:200]
        assert spark_decoded(module, row["again"]) == spark_decoded(module, row["any"])
        identical += 1
    assert identical > len(run["rows"]) // 2


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_malformed_rows_in_permissive_mode(decoded: dict[str, Any], protocol: str) -> None:
    run = decoded[protocol]
    codec, module = run["codec"], run["module"]
    malformed = [
        (data, row) for (_, data, expected), row in zip(run["rows"], run["out"], strict=True) if expected is None
    ]
    assert len(malformed) == len(MALFORMED[protocol])
    for data, row in malformed:
        words = codec_words(codec, data)  # the codec refuses it too
        result = row["any"]
        assert result["message"] is None, data
        if run["path"] == "python":
            assert result["error"] == words, data  # the codec itself
        elif words.startswith("malformed JSON"):  # Jackson and msgspec word bad syntax differently
            assert result["error"].startswith("malformed JSON"), (data, result["error"])
        elif result["error"].startswith("malformed JSON"):  # msgspec may stop at a bad tag before bad syntax
            with pytest.raises(ValueError):
                json.loads(data)
        else:
            assert result["error"] == words, data
        kinds = [result[kind.column] for kind in module._KINDS.values()]
        assert kinds == [None] * len(kinds)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_failfast_fails_with_the_rows_problem(spark: Any, decoded: dict[str, Any], protocol: str) -> None:
    module = decoded[protocol]["module"]
    frame = decoded[protocol]["frame"]
    with on_path(spark, decoded[protocol]["path"]):
        good = frame.where("expected IS NOT NULL")
        strict = module.decode("data", mode="FAILFAST").alias("d")
        assert good.select(strict).where("d.error IS NOT NULL").count() == 0
        bad_data, word = MALFORMED[protocol][-1]
        bad = good.unionByName(spark.createDataFrame([(10**6, None, bad_data, None, True)], frame.schema))
        with pytest.raises(Exception, match=word) as failure:
            bad.select(module.decode("data", mode="FAILFAST").alias("d")).collect()
    assert protocol in str(failure.value)


@pytest.mark.parametrize("path", PATHS)
def test_removed_fields_are_not_encoded(spark: Any, path: str) -> None:
    codec, module = _modules("kcl")
    old = b'{"action":"checkpoint","checkpoint":"12","error":null}\n'
    assert codec.decode(old, direction="to_child").checkpoint == "12"
    with pytest.raises(codec.EncodeError, match="removed in version 1.7.2") as refused:
        codec.encode(codec.decode(old, direction="to_child"))
    words = str(refused.value).removeprefix("kcl: ")  # both paths word it as the codec does
    frame = spark.createDataFrame([(old,)], "data binary")
    with on_path(spark, path):
        decoded = module.decode("data", direction="to_child")
        ((row,),) = frame.select(module.encode(decoded)).collect()  # by default the problem is a column
        assert row["data"] is None
        assert row["error"] == words
        with pytest.raises(Exception, match=f"kcl: cannot encode: {words[:40]}"):
            frame.select(module.encode(decoded, on_error="FAILFAST")).collect()


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_encode_reports_rows_it_cannot_encode(spark: Any, protocol: str, path: str) -> None:
    """An unknown message name, a message whose column is null: null data and an error naming the field; a null
    message: null data and no error; with on_error=FAILFAST the query fails."""
    _, module = _modules(protocol)
    name, kind = next((n, k) for n, k in module._KINDS.items() if k.fields)

    def decoded_row(message: str | None) -> Any:  # a DECODED row with every message column null
        fields = [F.lit(message).cast("string").alias("message")]
        fields += [F.lit(None).cast(f.dataType).alias(f.name) for f in module.DECODED.fields[1:]]
        return F.struct(*fields)

    cases = [("Bogus", "unknown message Bogus"), (name, f"`{kind.column}`: null for message {name}"), (None, None)]
    frame = spark.range(1)
    with on_path(spark, path):
        for message, error in cases:
            ((got,),) = frame.select(module.encode(decoded_row(message))).collect()
            assert (got["data"], got["error"]) == (None, error), message
            if error is not None:
                with pytest.raises(Exception, match=f"{protocol}: cannot encode: "):
                    frame.select(module.encode(decoded_row(message), on_error="FAILFAST")).collect()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_decoded_rows_have_the_declared_schema(decoded: dict[str, Any], protocol: str) -> None:
    module = decoded[protocol]["module"]
    frame = decoded[protocol]["frame"].select(decoded[protocol]["once"].alias("d"))
    assert frame.schema["d"].dataType == module.DECODED
    assert [f.name for f in module.DECODED.fields][0] == "message"
    assert [f.name for f in module.DECODED.fields][-1] == "error"
    for name, kind in module._KINDS.items():
        assert module.DECODED[kind.column].dataType == (
            module.SCHEMAS[name] if module.SCHEMAS[name].fields else module.DECODED[kind.column].dataType
        )


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_plan_runs_python_only_on_the_python_path(decoded: dict[str, Any], protocol: str) -> None:
    query = decoded[protocol]["query"]  # decode (each direction), encode, decode again
    nodes = plan_nodes(query)
    assert "Project" in nodes
    python = [n for n in nodes if "Python" in n or "Arrow" in n or n in PYTHON_NODES]
    if decoded[protocol]["path"] == "python":
        assert "ArrowEvalPython" in python, nodes  # Arrow batches, not a row UDF
        assert f"{protocol}_decode" not in plan_text(query).lower()
    else:
        assert f"{protocol}_decode" in plan_text(query).lower()
        assert not python, nodes


def test_a_string_column_and_a_missing_end_line_decode_too(spark: Any) -> None:
    _, module = _modules("storm")
    frame = spark.createDataFrame([('{"command":"sync"}',), ('{"command":"sync"}\nend\n',), (None,)], "text string")
    rows = frame.select(module.decode("text").alias("d")).collect()
    assert [r["d"]["message"] if r["d"] else None for r in rows] == ["Sync", "Sync", None]


def test_unknown_direction_and_mode_are_refused() -> None:
    _, module = _modules("kcl")
    with pytest.raises(ValueError, match="direction"):
        module.decode("data", direction="sideways")
    with pytest.raises(ValueError, match="mode"):
        module.decode("data", mode="DROPMALFORMED")
    assert plain([1, bytearray(b"x")]) == [1, b"x"]


def test_the_fixture_protocol_decodes_and_encodes_as_its_codec(spark: Any, tmp_path: Path) -> None:
    """The JSON family template on the generator's fixture protocol, which uses every JSON-family construct (UUIDs,
    timestamps, small integers, floats, enums, nested base64 in optional lists, shapes, tags, scalars for lists)."""
    root = tmp_path / "py"
    command = [sys.executable, str(REPO / "generator.py"), "-p", str(REPO / "tests" / "fixtures" / "defs"), "-r"]
    result = subprocess.run(
        [*command, str(root), "-n", "sparkfixture", "-q"], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # The Python path runs the codec on the executors: ship the package there, as the module's docstring says.
    shipped = shutil.make_archive(str(tmp_path / "sparkfixture"), "zip", root, "sparkfixture")
    spark.sparkContext.addPyFile(shipped)
    sys.path.insert(0, str(root))
    try:
        codec = importlib.import_module("sparkfixture.jfixture")
        module = importlib.import_module("sparkfixture.spark.jfixture")
    finally:
        sys.path.remove(str(root))
    found = []
    for version_dir in sorted((root / "vectors" / "jfixture").iterdir()):
        manifest = json.loads((version_dir / "manifest.json").read_text(encoding="utf-8"))
        blob = (version_dir / manifest["file"]).read_bytes()
        found += [(e["direction"], blob[e["offset"] : e["offset"] + e["length"]]) for e in manifest["vectors"]]
    assert len(found) >= 10
    frame = spark.createDataFrame(found, "direction string, data binary")
    with pytest.warns(UserWarning, match="runs the Python codec"):  # the session has our jar, not the fixture's
        decoded = module.decode("data")
    rows = frame.select(decoded.alias("d"), module.encode(decoded)["data"].alias("wire")).collect()
    for (direction, data), row in zip(found, rows, strict=True):
        assert spark_decoded(module, row["d"]) == python_decode(codec, data, None), data
        assert codec.decode(bytes(row["wire"]), direction=direction) == codec.decode(data, direction=direction)
