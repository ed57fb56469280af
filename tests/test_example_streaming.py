"""The streaming example (examples/streaming.py) on its bundled sample, checked against the Python codec.

It runs as users run it (its own process and Spark session), here with ``--python``, its Python fallback (the
pipeline example's test runs its default, the JVM path); its Parquet output is then compared with what the
CloudEvents codec makes of the sample: every order once, the refused records, and the totals per window of event
time and product; and it printed which path ran and one progress line per micro-batch.
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from streamcodecs import cloudevents as ce

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "streaming.py"
SAMPLE = REPO / "examples" / "data" / "kafka-cloudevents.jsonl"
FILES = 3


def _unb64(text: str | None) -> bytes | None:
    return None if text is None else base64.b64decode(text)


def _codec() -> tuple[list[ce.CloudEvent], list[int]]:
    events, refused = [], []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        headers = [(h["key"], _unb64(h["value"])) for h in row["headers"] or []]
        try:
            events.append(ce.from_kafka(ce.KafkaRecord(_unb64(row["key"]), _unb64(row["value"]), headers)))
        except ce.DecodeError:
            refused.append(row["offset"])
    return events, refused


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("streaming") / "out"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
    command = [sys.executable, str(EXAMPLE), "--out", str(out), "--files", str(FILES), "--master", "local[2]"]
    command.append("--python")
    result = subprocess.run(command, capture_output=True, text=True, timeout=900, env=env, cwd=REPO, check=False)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return out, result.stdout


def test_it_says_it_runs_the_python_fallback_and_why(run: tuple[Path, str]) -> None:
    assert 'streamcodecs.spark runs on the Python path: spark.streamcodecs.jvm is "false"' in run[1]
    assert "(--python)" in run[1]


def test_one_progress_line_per_micro_batch(run: tuple[Path, str]) -> None:
    events, refused = _codec()
    lines = re.findall(r"batch +\d+: +(\d+) rows in, +(\d+) decoded, +(\d+) refused, +[\d.]+ events/s", run[1])
    assert len(lines) == FILES
    totals = [sum(int(line[i]) for line in lines) for i in range(3)]
    assert totals == [len(events) + len(refused), len(events), len(refused)]


def test_every_order_once_and_the_refused_records(run: tuple[Path, str]) -> None:
    events, refused = _codec()
    written = pq.read_table(run[0] / "orders").to_pylist()
    assert sorted((r["id"], r["order"], r["sku"], r["qty"]) for r in written) == sorted(
        (e.id, e.json_data()["order"], e.json_data()["sku"], e.json_data()["qty"]) for e in events
    )
    problems = pq.read_table(run[0] / "problems").to_pylist()
    assert sorted(p["offset"] for p in problems) == sorted(refused) and len(refused) == 2
    assert all(p["error"] for p in problems)


def test_totals_per_window_and_product(run: tuple[Path, str]) -> None:
    events, _ = _codec()
    expected: dict[tuple[datetime.datetime, str], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for e in events:
        assert e.time is not None
        start = e.time.replace(minute=e.time.minute - e.time.minute % 10, second=0, microsecond=0)
        total = expected[(start.replace(tzinfo=None), e.json_data()["sku"])]
        total[0] += 1
        total[1] += e.json_data()["qty"]
        total[2] += e.json_data()["qty"] * e.json_data()["price"]
    newest: dict[tuple[datetime.datetime, str], dict] = {}
    for row in pq.read_table(run[0] / "totals").to_pylist():
        key = (row["window"]["start"].replace(tzinfo=None), row["sku"])
        if key not in newest or row["batch"] > newest[key]["batch"]:
            newest[key] = row
    assert set(newest) == set(expected) and len(expected) > 3
    for key, (count, items, revenue) in expected.items():
        assert (newest[key]["orders"], newest[key]["items"]) == (count, items), key
        assert newest[key]["revenue"] == pytest.approx(revenue, abs=0.011), key
