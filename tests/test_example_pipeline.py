"""The example pipeline (examples/pipeline.py) on its bundled sample, checked against the Python codecs.

The pipeline runs as users run it: its own process and Spark session (bounded by a timeout), on its default path,
the JVM (the streaming example's test runs the Python fallback). Its Parquet output is then read with pyarrow and
compared with what the codecs make of the same sample files: which orders each source carries, how many rows could
not be decoded, and the totals per source and product.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from streamcodecs import cloudevents as ce
from streamcodecs import kcl
from streamcodecs import pravega as pv

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
DATA = EXAMPLES / "data"


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").splitlines()


def _unb64(text: str | None) -> bytes | None:
    return None if text is None else base64.b64decode(text)


def _expected() -> dict[str, Any]:
    """Per source: the orders the codecs decode from the sample, and how many rows they refuse."""
    orders: dict[str, list[dict[str, Any]]] = defaultdict(list)
    refused: dict[str, int] = defaultdict(int)
    for line in _lines("kafka-cloudevents.jsonl"):
        row = json.loads(line)
        headers = [(h["key"], _unb64(h["value"])) for h in row["headers"] or []]
        try:
            event = ce.from_kafka(ce.KafkaRecord(_unb64(row["key"]), _unb64(row["value"]), headers))
        except ce.DecodeError:
            refused["cloudevents"] += 1
            continue
        orders["cloudevents"].append(event.json_data())
    replies: dict[str, list[Any]] = defaultdict(list)
    for line in _lines("pravega-segment-reads.jsonl"):
        try:
            message = pv.decode(base64.b64decode(json.loads(line)["frame"]))
        except pv.DecodeError:
            refused["pravega"] += 1
            continue
        if isinstance(message, pv.SegmentRead):
            replies[message.segment].append(message)
    for segment, reads in replies.items():
        reads.sort(key=lambda r: r.offset)
        reader = pv.EventReader(segment=segment, offset=reads[0].offset)
        orders["pravega"] += [json.loads(e) for r in reads for e in reader.feed(r)]
        refused["pravega"] += bool(reader.buffered)  # a segment ending inside an event
    for line in _lines("kcl-process-records.jsonl"):
        try:
            message = kcl.decode(line, direction="to_child")
        except kcl.DecodeError:
            refused["kcl"] += 1
            continue
        if isinstance(message, kcl.ProcessRecords):
            orders["kcl"] += [json.loads(r.data) for r in message.records if r.data is not None]
    return {"orders": orders, "refused": refused}


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example") / "out"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "pipeline.py"), "--out", str(out), "--master", "local[2]"],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert "orders decoded" in result.stdout
    # its default: the package's jar on the session, the Java codecs (the streaming example's test runs --python)
    assert "streamcodecs.spark runs on the JVM path: the session loaded this package's" in result.stdout
    return out


def test_the_sample_is_what_make_sample_writes() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "make_sample.py"), "--check"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    size = sum(p.stat().st_size for p in DATA.iterdir())
    assert size < 512 * 1024  # a small sample, committed


def test_every_order_of_every_source_is_written(output: Path) -> None:
    expected = _expected()["orders"]
    assert set(expected) == {"cloudevents", "pravega", "kcl"}
    written = pq.read_table(output / "orders").to_pylist()
    for source, orders in expected.items():
        got = sorted((r["order"], r["sku"], r["qty"], r["price"]) for r in written if r["source"] == source)
        assert got == sorted((o["order"], o["sku"], o["qty"], o["price"]) for o in orders), source
        assert len(got) > 50
    assert len(written) == sum(map(len, expected.values()))


def test_the_rows_the_codecs_refuse_are_the_problems(output: Path) -> None:
    refused = _expected()["refused"]
    problems = pq.read_table(output / "problems").to_pylist()
    counts: dict[str, int] = defaultdict(int)
    for row in problems:
        assert row["error"], row
        counts[row["source"]] += 1
    assert dict(counts) == {k: v for k, v in refused.items() if v}
    assert counts["cloudevents"] == 2  # the two broken records of the sample


def test_totals_per_source_and_product(output: Path) -> None:
    expected: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for source, orders in _expected()["orders"].items():
        for o in orders:
            total = expected[(source, o["sku"])]
            total[0] += 1
            total[1] += o["qty"]
            total[2] += o["qty"] * o["price"]
    totals = {(r["source"], r["sku"]): r for r in pq.read_table(output / "totals").to_pylist()}
    assert set(totals) == set(expected)
    for key, (count, items, revenue) in expected.items():
        row = totals[key]
        assert (row["orders"], row["items"]) == (count, items), key
        assert row["revenue"] == pytest.approx(revenue, abs=0.011), key  # rounded to cents by the pipeline
