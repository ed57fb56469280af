#!/usr/bin/env python3
"""A Spark pipeline over three protocols: decode, aggregate, write Parquet.

    python examples/pipeline.py                      # the bundled sample, local Spark, results in a new temp directory
    python examples/pipeline.py --python             # the same on the Python fallback
    python examples/pipeline.py --repeat 2000        # the sample 2000 times over: a long run, with progress
    python examples/pipeline.py --out orders-out --master local[4]

The session starts with ``streamcodecs.spark.configure`` (the package's jar on ``spark.jars``), so the functions
run the Java codecs generated from the definitions, on the JVM; ``--python`` runs the Python fallback (the Python
codec in Arrow batches) instead. It says which path runs, and why, before it starts. It reads the bundled sample
(``examples/data``, written by ``make_sample.py``):

1. Kafka records carrying CloudEvents in both content modes (as Spark's Kafka source would give them):
   ``streamcodecs.spark.cloudevents.from_kafka`` decodes them and tells the mode of each row apart;
2. Pravega SegmentRead replies: ``streamcodecs.spark.pravega.decode`` decodes the frames, ``explode_inline``
   reassembles the events of each segment across replies (in a Python step that orders each segment's pieces,
   on either path);
3. KCL processRecords lines: ``streamcodecs.spark.kcl.decode`` decodes them, base64 data included.

Every payload is a JSON order; the pipeline sums orders per product for each source, counts what could not be
decoded, and writes the decoded rows and the totals as Parquet. The generated package is shipped to the executors
with ``addPyFile`` (a zip of it), as on a cluster: nothing else needs installing there but pyspark and pyarrow (the
jar reaches them through ``spark.jars``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "output" / "py"
sys.path.insert(0, str(PACKAGE))

from output_dir import OutputRefused, new_output, prepare_output  # noqa: E402 (examples/, beside this file)
from spark_session import add_path_flag, count, start  # noqa: E402

ORDER = "order long, sku string, qty int, price double"
OUTPUTS = ("orders", "totals", "problems")
"""What the pipeline writes under --out (and replaces on the next run)."""


class Progress:
    """Prints the progress of running Spark stages every few seconds, once a job has run for a while."""

    def __init__(self, spark: Any, every: float = 3.0) -> None:
        self.tracker = spark.sparkContext.statusTracker()
        self.every = every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name="progress", daemon=True)

    def __enter__(self) -> Progress:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def run(self) -> None:
        started: float | None = None
        while not self.stop.wait(self.every / 3):
            stages = [self.tracker.getStageInfo(s) for s in self.tracker.getActiveStageIds()]
            stages = [s for s in stages if s is not None]
            if not stages:
                started = None
                continue
            started = started or time.monotonic()
            elapsed = time.monotonic() - started
            if elapsed < self.every:
                continue
            parts = [f"stage {s.stageId}: {s.numCompletedTasks}/{s.numTasks} tasks" for s in stages]
            print(f"  ... {elapsed:5.0f}s  " + ", ".join(parts), flush=True)
            self.stop.wait(self.every)


def ship_package(spark: Any, work: Path) -> None:
    """Zip the generated package and hand it to every executor, as one would on a cluster."""
    archive = work / "streamcodecs.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted((PACKAGE / "streamcodecs").rglob("*.py")):
            zf.write(path, path.relative_to(PACKAGE).as_posix())
    spark.sparkContext.addPyFile(str(archive))


def repeated(frame: Any, times: int) -> Any:
    """The rows ``times`` times over (for a long run); a ``copy`` column tells the copies apart."""
    from pyspark.sql import functions as F

    copies = frame.sparkSession.range(times).withColumnRenamed("id", "copy")
    return frame.crossJoin(copies) if times > 1 else frame.withColumn("copy", F.lit(0).cast("bigint"))


def cloudevents_orders(spark: Any, times: int) -> tuple[Any, Any]:
    """Kafka records -> CloudEvents (both modes, told apart per row) -> orders."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import cloudevents

    raw = spark.read.schema(
        "key string, value string, topic string, partition int, offset long, timestamp string, timestampType int,"
        " headers array<struct<key:string,value:string>>"
    ).json(str(HERE / "data" / "kafka-cloudevents.jsonl"))
    # The Kafka source's shape: binary key, value and header values (base64 in the file).
    records = repeated(raw, times).select(
        F.unbase64("key").alias("key"),
        F.unbase64("value").alias("value"),
        "topic",
        "partition",
        (F.col("offset") + F.col("copy") * 10_000).alias("offset"),
        F.to_timestamp("timestamp").alias("timestamp"),
        "timestampType",
        F.transform("headers", lambda h: F.struct(h["key"].alias("key"), F.unbase64(h["value"]).alias("value"))).alias(
            "headers"
        ),
    )
    events = cloudevents.from_kafka(records)
    orders = events.where("error IS NULL").select(
        F.lit("cloudevents").alias("source"),
        F.col("cloud_event.type").alias("kind"),
        "content_mode",
        F.col("cloud_event.time").alias("time"),
        F.from_json("data_text", ORDER).alias("o"),
    )
    problems = events.where("error IS NOT NULL").select(F.lit("cloudevents").alias("source"), "error")
    return orders, problems


def pravega_orders(spark: Any, times: int) -> tuple[Any, Any]:
    """SegmentRead frames -> replies -> events reassembled per segment -> orders."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import pravega

    frames = spark.read.schema("frame string").json(str(HERE / "data" / "pravega-segment-reads.jsonl"))
    decoded = repeated(frames, times).select("copy", pravega.decode(F.unbase64("frame")).alias("d"))
    replies = decoded.where("d.message = 'SegmentRead'").select(
        # each copy of the sample reads the same segments again: make them distinct streams
        F.concat_ws("#", "d.segment_read.segment", F.col("copy").cast("string")).alias("segment"),
        "d.segment_read.offset",
        "d.segment_read.data",
    )
    events = pravega.explode_inline(replies, data="data", offset="offset", stream="segment")
    orders = events.where("error IS NULL").select(
        F.lit("pravega").alias("source"),
        F.lit("event").alias("kind"),
        F.lit(None).cast("string").alias("content_mode"),
        F.lit(None).cast("timestamp").alias("time"),
        F.from_json(F.col("event.data").cast("string"), ORDER).alias("o"),
    )
    problems = decoded.where("d.error IS NOT NULL").select(F.lit("pravega").alias("source"), F.col("d.error"))
    problems = problems.unionByName(events.where("error IS NOT NULL").select(F.lit("pravega").alias("source"), "error"))
    return orders, problems


def kcl_orders(spark: Any, times: int) -> tuple[Any, Any]:
    """processRecords lines -> records (decoded by the codec, base64 included) -> orders."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import kcl

    lines = repeated(spark.read.text(str(HERE / "data" / "kcl-process-records.jsonl")), times)
    decoded = lines.select(kcl.decode("value", direction="to_child").alias("d"))
    records = decoded.where("d.message = 'ProcessRecords'").select(F.explode("d.process_records.records").alias("r"))
    orders = records.select(
        F.lit("kcl").alias("source"),
        F.lit("record").alias("kind"),
        F.lit(None).cast("string").alias("content_mode"),
        F.timestamp_millis("r.approximate_arrival_timestamp").alias("time"),
        F.from_json(F.col("r.data").cast("string"), ORDER).alias("o"),
    )
    problems = decoded.where("d.error IS NOT NULL").select(F.lit("kcl").alias("source"), F.col("d.error"))
    return orders, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--out",
        type=Path,
        help="where the Parquet goes: a new or empty directory, or one an earlier run wrote (its "
        f"{', '.join(OUTPUTS)} are replaced); default: a new temporary directory",
    )
    parser.add_argument("--repeat", type=count, default=1, help="read the sample this many times over")
    parser.add_argument("--master", default="local[2]", help="Spark master (default: local[2])")
    add_path_flag(parser)
    args = parser.parse_args(argv)
    try:  # before any work: a directory the example did not write is refused, never emptied
        args.out = args.out or new_output("pipeline")
        prepare_output(args.out, "pipeline", OUTPUTS)
    except OutputRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    spark = start("streamcodecs-example", args.master, args.python, **{"spark.sql.shuffle.partitions": "4"})
    work = Path(tempfile.mkdtemp(prefix="streamcodecs-example-"))
    try:
        ship_package(spark, work)
        started = time.monotonic()
        parts = [f(spark, args.repeat) for f in (cloudevents_orders, pravega_orders, kcl_orders)]
        orders = parts[0][0].unionByName(parts[1][0]).unionByName(parts[2][0])
        # Decoded once, then written three ways (kept on disk when memory runs short).
        orders = orders.select("source", "kind", "content_mode", "time", "o.*").persist(StorageLevel.MEMORY_AND_DISK)
        problems = parts[0][1].unionByName(parts[1][1]).unionByName(parts[2][1]).persist(StorageLevel.MEMORY_AND_DISK)
        totals = orders.groupBy("source", "sku").agg(
            F.count("*").alias("orders"),
            F.sum("qty").alias("items"),
            F.round(F.sum(F.col("qty") * F.col("price")), 2).alias("revenue"),
        )
        with Progress(spark):
            print(f"decoding {args.repeat}x the sample into {args.out} ...", flush=True)
            orders.write.partitionBy("source").parquet(str(args.out / "orders"))
            totals.write.parquet(str(args.out / "totals"))
            problems.write.parquet(str(args.out / "problems"))
        written = spark.read.parquet(str(args.out / "orders")).count()
        print(f"{written} orders decoded in {time.monotonic() - started:.1f}s")
        spark.read.parquet(str(args.out / "totals")).orderBy("source", "sku").show(20, truncate=False)
        print("rows that could not be decoded, by source and problem:")
        spark.read.parquet(str(args.out / "problems")).groupBy("source", "error").count().show(truncate=False)
    finally:
        spark.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
