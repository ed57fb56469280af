"""The Spark benchmark's Storm group (run through ``bench_spark.py``).

Bolt tuples (``{"id","comp","stream","task","tuple"}`` then the ``end`` line, three values per tuple: a sentence, a
count, a ratio): ``streamcodecs.spark.storm.decode`` on both paths against a pickled row UDF doing ``json.loads``
and returning the ``DECODED`` row with each value as its JSON text (a row UDF cannot build a VARIANT cheaply, so the
baseline does a little less work than ours). Issue target: at least 5x. The ceiling, ``native, no checks``:
``from_json`` of the text before ``end``, checking nothing.

And ``encode`` of the same tuples, decoded (a cached table, cycled), back to frames: against a row UDF writing them
with ``json.dumps`` (given each value as its JSON text), and the ceiling ``to_json`` of the fields then the end line.
"""

from __future__ import annotations

import json
from typing import Any

from run import Case
from spark_common import DISTINCT, compared, cycled, fallback_path, on_jvm, same

STORM_BASELINE = "row UDF json.loads"

_WORDS = "the cow jumped over the moon an apple a day keeps the doctor away four score and seven years ago".split()


def _storm_frames() -> list[bytes]:
    """Bolt tuples as ShellBolt writes them (HashMap key order, ``/`` escaped), then the end line."""
    frames = []
    for i in range(DISTINCT):
        sentence = " ".join(_WORDS[(i + j) % len(_WORDS)] for j in range(3 + i % 6))
        text = json.dumps(
            {
                "tuple": [sentence, i, 0.5 + i % 40],
                "task": 3 + i % 8,
                "id": str(-6955786537413359385 + i * 7919),
                "comp": "split-sentence",
                "stream": "default",
            },
            separators=(",", ":"),
        )
        frames.append(text.encode() + b"\nend\n")
    return frames


def _storm_udf() -> Any:
    """The baseline: json.loads per row, returned as the DECODED row (each tuple value as its JSON text)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import ArrayType, StringType, StructField, StructType
    from streamcodecs.spark import storm as sstorm

    bolt = StructType([*sstorm.BOLT_TUPLE_SCHEMA.fields[:-1], StructField("values", ArrayType(StringType()))])
    schema = StructType(
        [StructField("message", StringType()), StructField("bolt_tuple", bolt), StructField("error", StringType())]
    )

    def decode_frame(frame: bytes | None) -> dict[str, Any] | None:
        if frame is None:
            return None
        try:
            text = frame.rstrip(b"\r\n").removesuffix(b"\nend")
            value = json.loads(text)
            if not isinstance(value, dict) or "command" in value or not isinstance(value.get("task"), int):
                return {"message": None, "error": "not a bolt tuple"}
            row = {
                "id": value["id"],
                "comp": value["comp"],
                "stream": value["stream"],
                "task": value["task"],
                "values": [json.dumps(v) for v in value["tuple"]],
            }
            return {"message": "BoltTuple", "bolt_tuple": row, "error": None}
        except (ValueError, KeyError, TypeError) as exc:
            return {"message": None, "error": str(exc)}

    return F.udf(decode_frame, schema, useArrow=False)


def cases(spark: Any, rows: int) -> list[Case]:
    from pyspark.sql import functions as F
    from streamcodecs.spark import storm as sstorm

    table = spark.createDataFrame(list(enumerate(_storm_frames())), "k long, frame binary")
    data = cycled(spark, table, rows)
    ours = data.select(sstorm.decode("frame", direction="to_component").alias("d"))
    with fallback_path(spark):
        fallback = data.select(sstorm.decode("frame", direction="to_component").alias("d"))
    on_jvm(ours, fallback)
    theirs = data.select(_storm_udf()("frame").alias("d"))
    as_json = F.to_json("d.bolt_tuple").alias("j")  # VARIANTs compare as their JSON
    same(ours.select(as_json), fallback.select(as_json), "j")
    same(ours.select(F.col("d.bolt_tuple.id").alias("id")), theirs.select(F.col("d.bolt_tuple.id").alias("id")), "id")
    text = F.substring_index(F.col("frame").cast("string"), "\nend", 1)
    ceiling = data.select(F.from_json(text, _STORM_WIRE_SCHEMA).alias("d"))
    group = f"spark storm decode {rows:,} bolt tuples"
    scan = data.select("frame")
    decoding = compared(
        group, rows, STORM_BASELINE, 5.0, ours=ours, fallback=fallback, theirs=theirs, native=ceiling, scan=scan
    )
    return decoding + encode_cases(spark, rows)


_STORM_WIRE_SCHEMA = "id string, comp string, stream string, task int, tuple array<variant>"


def _storm_encode_udf() -> Any:
    """The encode baseline: the bolt tuple's fields (each value as its JSON text, which Spark's ``to_json`` gives
    it: a row UDF cannot read a VARIANT cheaply) written back with ``json.dumps``, then the end line."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import BinaryType

    def encode_tuple(t: Any) -> bytes | None:
        if t is None:
            return None
        value = {"id": t["id"], "comp": t["comp"], "stream": t["stream"], "task": t["task"]}
        value["tuple"] = [json.loads(v) for v in t["values"]]
        return json.dumps(value, separators=(",", ":")).encode() + b"\nend\n"

    return F.udf(encode_tuple, BinaryType(), useArrow=False)


def encode_cases(spark: Any, rows: int) -> list[Case]:
    """``encode`` of decoded bolt tuples (a cached table of the decode group's tuples, cycled) back to frames."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import storm as sstorm

    frames = spark.createDataFrame(list(enumerate(_storm_frames())), "k long, frame binary")
    table = frames.select("k", sstorm.decode("frame", direction="to_component").alias("d")).cache()
    data = cycled(spark, table, rows)
    ours = data.select(sstorm.encode("d")["data"].alias("e"))
    with fallback_path(spark):
        fallback = data.select(sstorm.encode("d")["data"].alias("e"))
    on_jvm(ours, fallback)
    t = F.col("d.bolt_tuple")
    texts = t.withField("values", F.transform(t["values"], lambda v: F.to_json(v)))
    theirs = data.select(_storm_encode_udf()(texts).alias("e"))
    same(ours, fallback, "e")
    wire = "id string, comp string, stream string, task int, tuple string"
    ids = [F.from_json(F.substring_index(F.col("e").cast("string"), "\nend", 1), wire)["id"].alias("id")]
    same(ours.select(*ids), theirs.select(*ids), "id")
    fields = [t["id"].alias("id"), t["comp"].alias("comp"), t["stream"].alias("stream"), t["task"].alias("task")]
    written = F.to_json(F.struct(*fields, t["values"].alias("tuple")))
    ceiling = data.select(F.concat(written, F.lit("\nend\n")).cast("binary").alias("e"))
    group = f"spark storm encode {rows:,} bolt tuples"
    scan = data.select("d")
    return compared(
        group, rows, STORM_ENCODE_BASELINE, 5.0, ours=ours, fallback=fallback, theirs=theirs, native=ceiling, scan=scan
    )


STORM_ENCODE_BASELINE = "row UDF json.dumps"
