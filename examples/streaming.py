#!/usr/bin/env python3
"""A Structured Streaming pipeline: Kafka-shaped records carrying CloudEvents, decoded as they arrive.

    python examples/streaming.py                     # the bundled sample in 4 files, results in a new temp directory
    python examples/streaming.py --python            # the same on the Python fallback
    python examples/streaming.py --files 8 --out orders-stream

The bundled Kafka sample (``examples/data/kafka-cloudevents.jsonl``: records as Spark's Kafka source gives them,
CloudEvents in binary and structured mode, two records that are not valid events) is dropped into an input folder
in several files, one after the other, while two streaming queries read that folder (a file-source stream stands
in for the Kafka source here: swap ``readStream.json(folder)`` for ``readStream.format("kafka")`` and drop the
base64 step):

1. ``decoded``: ``streamcodecs.spark.cloudevents.from_kafka`` decodes every record (the Java codec on the JVM: the
   session starts with ``streamcodecs.spark.configure``; ``--python`` runs the Python codec in Arrow batches
   instead, and the example says which path runs, and why); the orders the events carry and the records it
   refused (with the reason) are appended to Parquet (``orders/``, ``problems/``);
2. ``totals``: the orders summed per 10-minute window of event time and product, with a watermark of 10 minutes
   (later events are dropped, and Spark's state for older windows is released); each micro-batch's updated
   windows are appended to ``totals/`` with the batch number (the newest row of a window is its total).

Both queries keep their progress in a checkpoint (``checkpoint/``): run the script again with ``--keep`` and the
same ``--out``, and the queries go on from where they stopped instead of starting over. One line is printed per
micro-batch of the decoding query: rows in, rows decoded, rows refused, and events per second.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "output" / "py"
sys.path.insert(0, str(PACKAGE))

from output_dir import OutputRefused, new_output, prepare_output  # noqa: E402 (examples/, beside this file)
from spark_session import add_path_flag, count, start  # noqa: E402

SAMPLE = HERE / "data" / "kafka-cloudevents.jsonl"
ORDER = "order long, sku string, qty int, price double"
OUTPUTS = ("input", "orders", "problems", "totals", "checkpoint")
"""What the example writes under --out (and replaces on the next run, unless --keep)."""
KAFKA_JSON = (
    "key string, value string, topic string, partition int, offset long, timestamp string, timestampType int,"
    " headers array<struct<key:string,value:string>>"
)


def session(master: str, python: bool) -> Any:
    # the Python workers import the package as this script does (from output/py)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE), os.environ.get("PYTHONPATH")) if p)
    return start("streamcodecs-streaming-example", master, python, **{"spark.sql.shuffle.partitions": "2"})


def kafka_shaped(raw: Any) -> Any:
    """The Kafka source's columns from the sample's JSON lines (base64 key, value and header values)."""
    from pyspark.sql import functions as F

    headers = F.transform("headers", lambda h: F.struct(h["key"].alias("key"), F.unbase64(h["value"]).alias("value")))
    return raw.select(
        F.unbase64("key").alias("key"),
        F.unbase64("value").alias("value"),
        "topic",
        "partition",
        "offset",
        F.to_timestamp("timestamp").alias("timestamp"),
        "timestampType",
        headers.alias("headers"),
    )


def decoded(spark: Any, folder: Path) -> Any:
    """The records of the input folder as a stream, decoded; counted per micro-batch (``observe``)."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import cloudevents

    raw = spark.readStream.schema(KAFKA_JSON).option("maxFilesPerTrigger", 1).json(str(folder))
    events = cloudevents.from_kafka(kafka_shaped(raw))
    return events.observe(
        "counts",
        F.count(F.lit(1)).alias("rows"),
        F.count_if(F.col("error").isNull()).alias("decoded"),
        F.count_if(F.col("error").isNotNull()).alias("refused"),
    )


def orders_of(events: Any) -> Any:
    from pyspark.sql import functions as F

    return events.where("error IS NULL").select(
        F.col("cloud_event.id").alias("id"),
        F.col("cloud_event.type").alias("kind"),
        "content_mode",
        F.col("cloud_event.time").alias("time"),
        F.from_json("data_text", ORDER).alias("o"),
    )


def write_batch(out: Path) -> Any:
    """Each micro-batch of the decoding query: orders and refused records appended to Parquet."""

    def write(batch: Any, batch_id: int) -> None:
        batch.persist()
        orders_of(batch).select("id", "kind", "content_mode", "time", "o.*").write.mode("append").parquet(
            str(out / "orders")
        )
        problems = batch.where("error IS NOT NULL").select("topic", "partition", "offset", "content_mode", "error")
        problems.write.mode("append").parquet(str(out / "problems"))
        batch.unpersist()

    return write


def write_totals(out: Path) -> Any:
    from pyspark.sql import functions as F

    def write(batch: Any, batch_id: int) -> None:
        batch.withColumn("batch", F.lit(batch_id)).write.mode("append").parquet(str(out / "totals"))

    return write


def progress_lines(query: Any, seen: set[int]) -> list[str]:
    """One line per micro-batch not printed yet: rows in, decoded, refused, events per second."""
    lines = []
    for p in query.recentProgress:
        if p["batchId"] in seen or not p["numInputRows"]:
            continue
        seen.add(p["batchId"])
        counts = (p["observedMetrics"] or {}).get("counts")
        good, bad = (counts["decoded"], counts["refused"]) if counts is not None else (0, 0)
        lines.append(
            f"batch {p['batchId']:>3}: {p['numInputRows']:>4} rows in, {good:>4} decoded, {bad:>3} refused, "
            f"{p['processedRowsPerSecond'] or 0.0:>8.1f} events/s"
        )
    return lines


def drop_files(lines: list[str], folder: Path, files: int, start: int = 0) -> list[Path]:
    """The sample's lines split into ``files`` files, written one at a time (hidden, then renamed)."""
    size = -(-len(lines) // files)
    paths = []
    for i, at in enumerate(range(0, len(lines), size), start):
        hidden = folder / f".records-{i:03}.json.tmp"
        hidden.write_text("".join(line + "\n" for line in lines[at : at + size]), encoding="utf-8")
        paths.append(hidden)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--out",
        type=Path,
        help="a new or empty directory, or one an earlier run wrote (its "
        f"{', '.join(OUTPUTS)} are replaced); default: a new temporary directory",
    )
    parser.add_argument("--files", type=count, default=4, help="how many files the sample arrives in (default 4)")
    parser.add_argument("--master", default="local[2]", help="Spark master (default: local[2])")
    parser.add_argument("--keep", action="store_true", help="keep --out and its checkpoint: go on where it stopped")
    add_path_flag(parser)
    args = parser.parse_args(argv)

    from pyspark.sql import functions as F

    if args.keep and args.out is None:
        parser.error("--keep goes on with an earlier run: give its --out")
    try:  # before any work: a directory the example did not write is refused, never emptied
        args.out = args.out or new_output("streaming")
        prepare_output(args.out, "streaming", OUTPUTS, keep=args.keep)
    except OutputRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folder = args.out / "input"
    folder.mkdir(parents=True, exist_ok=True)
    already = len(list(folder.glob("records-*.json")))
    pending = drop_files(SAMPLE.read_text(encoding="utf-8").splitlines(), folder, args.files, already)

    spark = session(args.master, args.python)
    try:
        events = decoded(spark, folder)
        main_query = (
            events.writeStream.foreachBatch(write_batch(args.out))
            .option("checkpointLocation", str(args.out / "checkpoint" / "decoded"))
            .start()
        )
        orders = orders_of(events).select("time", "o.*").withWatermark("time", "10 minutes")
        totals = orders.groupBy(F.window("time", "10 minutes").alias("window"), "sku").agg(
            F.count("*").alias("orders"),
            F.sum("qty").alias("items"),
            F.round(F.sum(F.col("qty") * F.col("price")), 2).alias("revenue"),
        )
        totals_query = (
            totals.writeStream.outputMode("update")
            .foreachBatch(write_totals(args.out))
            .option("checkpointLocation", str(args.out / "checkpoint" / "totals"))
            .start()
        )
        seen: set[int] = set()
        print(f"dropping the sample into {folder} in {len(pending)} files ...", flush=True)
        for hidden in pending:
            hidden.rename(hidden.with_name(hidden.name[1:].removesuffix(".tmp")))
            main_query.processAllAvailable()
            totals_query.processAllAvailable()
            for line in progress_lines(main_query, seen):
                print(line, flush=True)
        main_query.stop()
        totals_query.stop()
        written = spark.read.parquet(str(args.out / "orders")).count()
        refused = spark.read.parquet(str(args.out / "problems"))
        print(f"{written} orders written to {args.out / 'orders'}, {refused.count()} records refused:")
        refused.select("offset", "error").show(truncate=False)
        print("totals per window and product (the newest update of each):")
        final = spark.read.parquet(str(args.out / "totals"))
        newest = final.groupBy("window", "sku").agg(F.max("batch").alias("batch"))
        final.join(newest, ["window", "sku", "batch"]).orderBy("window", "sku").drop("batch").show(50, truncate=False)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
