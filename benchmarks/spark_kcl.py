"""The Spark benchmark's KCL group (run through ``bench_spark.py``).

``processRecords`` lines (``BENCH_SPARK_KCL_RECORDS`` records of 100 bytes each, default 4, real 56-digit sequence
numbers): ``streamcodecs.spark.kcl.decode`` on the JVM path (the generated Java codec, a Java UDF) and on its Python
fallback (``spark.streamcodecs.jvm=false``: the Python codec on Arrow batches) against a pickled row UDF doing
``json.loads`` and ``base64.b64decode`` and returning the same ``DECODED`` row. Issue target: at least 5x. The
ceiling, ``native, no checks``: ``from_json`` with the message's wire schema, checking nothing.
"""

from __future__ import annotations

import base64
import json
import os
from typing import Any

from run import Case
from spark_common import DISTINCT, compared, cycled, fallback_path, on_jvm, same
from streamcodecs import kcl

KCL_RECORDS = int(os.environ.get("BENCH_SPARK_KCL_RECORDS", "4"))
KCL_BASELINE = "row UDF json.loads"


def _kcl_lines() -> list[bytes]:
    lines = []
    for i in range(DISTINCT):
        records = [
            kcl.Record(
                data=bytes([(i + j) % 256]) * 100,
                partition_key=f"key-{(i + j) % 17}",
                sequence_number=str(49590338271490256608559692538361571095921575989136588898 + i * 10 + j),
                approximate_arrival_timestamp=1767603600000 + i,
                sub_sequence_number=0,
            )
            for j in range(KCL_RECORDS)
        ]
        lines.append(kcl.encode(kcl.ProcessRecords(records=records, millis_behind_latest=i)))
    return lines


def _kcl_udf() -> Any:
    """The baseline: json.loads per row, base64 decoded, returned as the same DECODED row (a dict)."""
    from pyspark.sql import functions as F
    from streamcodecs.spark import kcl as skcl

    def decode_line(line: bytes | None) -> dict[str, Any] | None:
        if line is None:
            return None
        try:
            value = json.loads(line)
            if value.get("action") != "processRecords":
                return {"message": None, "error": f"not processRecords: {value.get('action')!r}"}
            records = [
                {
                    "data": None if r["data"] is None else base64.b64decode(r["data"], validate=True),
                    "partition_key": r["partitionKey"],
                    "sequence_number": r["sequenceNumber"],
                    "approximate_arrival_timestamp": r.get("approximateArrivalTimestamp"),
                    "sub_sequence_number": r.get("subSequenceNumber"),
                    "action": "record",
                }
                for r in value["records"]
            ]
            row = {"records": records, "millis_behind_latest": value.get("millisBehindLatest")}
            return {"message": "ProcessRecords", "process_records": row, "error": None}
        except (ValueError, KeyError, TypeError) as exc:
            return {"message": None, "error": str(exc)}

    return F.udf(decode_line, skcl.DECODED, useArrow=False)


def cases(spark: Any, rows: int) -> list[Case]:
    from pyspark.sql import functions as F
    from streamcodecs.spark import kcl as skcl

    table = spark.createDataFrame(list(enumerate(_kcl_lines())), "k long, line binary")
    data = cycled(spark, table, rows)
    ours = data.select(skcl.decode("line", direction="to_child").alias("d"))
    with fallback_path(spark):
        fallback = data.select(skcl.decode("line", direction="to_child").alias("d"))
    on_jvm(ours, fallback)
    theirs = data.select(_kcl_udf()("line").alias("d"))
    same(ours, theirs, "d.process_records")
    same(fallback, theirs, "d.process_records")
    ceiling = data.select(F.from_json(F.col("line").cast("string"), _KCL_WIRE_SCHEMA).alias("d"))
    group = f"spark kcl decode {rows:,} lines of {KCL_RECORDS} records"
    scan = data.select("line")
    return compared(
        group, rows, KCL_BASELINE, 5.0, ours=ours, fallback=fallback, theirs=theirs, native=ceiling, scan=scan
    )


_KCL_WIRE_SCHEMA = (
    "action string, millisBehindLatest long, records array<struct<data: binary, partitionKey: string, "
    "sequenceNumber: string, approximateArrivalTimestamp: long, subSequenceNumber: long>>"
)
