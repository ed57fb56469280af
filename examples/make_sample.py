#!/usr/bin/env python3
"""Write the bundled sample the pipeline reads, using the generated codecs (deterministic: same bytes every run).

    python examples/make_sample.py            # rewrites examples/data/
    python examples/make_sample.py --check    # exit 1 if examples/data/ differs from what this script writes

Three small inputs, as a pipeline would find them:

- ``kafka-cloudevents.jsonl``: Kafka records as Spark's Kafka source gives them (binary ``key``, ``value`` and
  header values in base64), CloudEvents in both content modes, some with extra headers, and two records that are
  not valid CloudEvents;
- ``pravega-segment-reads.jsonl``: SegmentRead replies (whole frames, base64) for three segments, the events cut
  across replies at arbitrary bytes, as a reader receives them;
- ``kcl-process-records.jsonl``: processRecords lines as the KCL MultiLangDaemon writes them to a record processor.

Every payload is a small JSON order (``{"order": n, "sku": ..., "qty": ..., "price": ...}``).
"""

from __future__ import annotations

import argparse
import base64
import datetime
import json
import random
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "output" / "py"))

from streamcodecs import cloudevents as ce  # noqa: E402
from streamcodecs import kcl  # noqa: E402
from streamcodecs import pravega as pv  # noqa: E402

DATA = HERE / "data"
SKUS = ["apple", "pear", "plum", "fig", "kiwi"]
START = datetime.datetime(2026, 1, 5, 9, 0, tzinfo=datetime.UTC)


def _order(rng: random.Random, n: int) -> dict[str, object]:
    return {"order": n, "sku": rng.choice(SKUS), "qty": rng.randint(1, 9), "price": round(rng.uniform(0.5, 20), 2)}


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


def kafka_records(rng: random.Random, count: int = 120) -> list[dict[str, object]]:
    """CloudEvents on Kafka records, both modes, in the Kafka source's columns."""
    rows = []
    for n in range(count):
        order = _order(rng, n)
        when = START + datetime.timedelta(seconds=15 * n)
        kind = "com.example.order.created" if n % 4 else "com.example.order.cancelled"
        event = ce.CloudEvent(
            id=f"order-{n}",
            source=f"/shops/{n % 3}",
            type=kind,
            time=when,
            subject=str(order["sku"]),
            datacontenttype="application/json",
            data=order,
            extensions={"region": ["eu", "us"][n % 2]},
        )
        mode = "structured" if n % 3 == 0 else "binary"
        extra = [("trace-id", f"{n:08x}".encode())] if n % 5 == 0 else None
        record = ce.to_kafka(event, mode, key=f"shop-{n % 3}", headers=extra)
        headers = [{"key": k, "value": _b64(v)} for k, v in record.headers] or None
        rows.append(
            {
                "key": _b64(record.key),
                "value": _b64(record.value),
                "topic": "orders",
                "partition": n % 3,
                "offset": n // 3,
                "timestamp": when.strftime("%Y-%m-%d %H:%M:%S"),
                "timestampType": 0,
                "headers": headers,
            }
        )
    # Two records that are not CloudEvents, for the pipeline's error count: no headers at all, and a structured
    # record whose value is cut short.
    rows.append({**rows[1], "offset": 1000, "headers": None, "value": _b64(b'{"order": 1}')})
    cut = base64.b64decode(str(rows[0]["value"]))[:40]
    rows.append({**rows[0], "offset": 1001, "value": _b64(cut)})
    return rows


def segment_reads(rng: random.Random, segments: int = 3, events: int = 120) -> list[dict[str, object]]:
    """SegmentRead replies: each segment's events framed back to back, cut at random bytes into replies."""
    rows = []
    for s in range(segments):
        name = f"shop/orders/{s}.#epoch.0"
        data = b"".join(
            pv.encode_inline(pv.Event(data=json.dumps(_order(rng, 1000 * s + i)).encode())) for i in range(events)
        )
        offset, request = 0, 1
        while offset < len(data):
            size = rng.randint(200, 900)
            piece = data[offset : offset + size]
            end = offset + len(piece) >= len(data)
            reply = pv.SegmentRead(
                segment=name, offset=offset, at_tail=end, end_of_segment=end and s == 0, data=piece, request_id=request
            )
            rows.append({"frame": _b64(pv.encode(reply))})
            offset += len(piece)
            request += 1
    rng.shuffle(rows)  # replies of several segments, interleaved as a capture would have them
    return rows


def process_records_lines(rng: random.Random, lines: int = 40) -> list[str]:
    """processRecords lines for two shards, a few records each."""
    out = []
    sequence = 49590338271490256608559692538361571095921575989136588898
    for n in range(lines):
        records = []
        for _ in range(rng.randint(1, 6)):
            sequence += rng.randint(1, 1000)
            order = _order(rng, sequence % 100000)
            records.append(
                kcl.Record(
                    data=json.dumps(order).encode(),
                    partition_key=str(order["sku"]),
                    sequence_number=str(sequence),
                    approximate_arrival_timestamp=int((START + datetime.timedelta(seconds=n)).timestamp() * 1000),
                    sub_sequence_number=0,
                )
            )
        line = kcl.encode(kcl.ProcessRecords(records=records, millis_behind_latest=rng.randint(0, 5000)))
        out.append(line.decode("utf-8").rstrip("\n"))
    return out


def render() -> dict[str, str]:
    rng = random.Random(20260105)
    uuid.UUID(int=rng.getrandbits(128))  # keep the stream of random numbers stable if codecs add fields
    return {
        "kafka-cloudevents.jsonl": "".join(json.dumps(r, sort_keys=True) + "\n" for r in kafka_records(rng)),
        "pravega-segment-reads.jsonl": "".join(json.dumps(r) + "\n" for r in segment_reads(rng)),
        "kcl-process-records.jsonl": "".join(line + "\n" for line in process_records_lines(rng)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with examples/data/, write nothing")
    args = parser.parse_args(argv)
    files = render()
    if args.check:
        stale = [
            name
            for name, text in files.items()
            if not (DATA / name).is_file() or (DATA / name).read_text(encoding="utf-8") != text
        ]
        for name in stale:
            print(f"differs: examples/data/{name}")
        return 1 if stale else 0
    DATA.mkdir(exist_ok=True)
    for name, text in files.items():
        (DATA / name).write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote examples/data/{name} ({len(text.encode()) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
