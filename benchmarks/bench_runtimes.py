"""The stdio and append runtimes' throughput: what the codecs cost once the runtimes around them carry the traffic.

- KCL: ``kcl.ChildDriver`` and ``kcl.run_child`` (in a thread) over OS pipes, one process: ``processRecords``
  exchanges of 100 records, each answered by one checkpoint and a status (three lines each way and back).
- Storm component: ``storm.Bolt.run`` on 1000 Java-written tuple frames in memory, each answered with an emit and
  an ack.
- Storm driver: ``storm.ShellBolt`` driving a streamcodecs bolt process (tests/peers/storm_streamcodecs_bolt.py):
  1000 tuples written, then the wait for the last ack; ``storm.ShellSpout``: 200 ``next`` round trips.
- Pravega: ``AppendEncoder``, 1000 appends of 100-byte events into 64 KiB blocks.

Each runtime is measured against itself, not a peer: with ``STREAMCODECS_BASELINE=<a checkout>/output/py`` in the
environment, every case is also run by that checkout's package (its processes too), named ``baseline``, in the
same run, and the ratio printed is this checkout's speed against it (``faster`` above 1).
"""

from __future__ import annotations

import importlib.util
import inspect
import io
import os
import random
import sys
import threading
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

from run import Case

HERE = Path(__file__).resolve().parent
PEERS = HERE.parent / "tests" / "peers"
OURS = "streamcodecs"
BASELINE = "baseline"
SEQ = 49590338271490256608559692538361571095921575989136588898


def _package(root: Path, name: str) -> ModuleType:
    """The streamcodecs package under ``root`` imported as ``name`` (its imports are relative)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, root / "streamcodecs" / "__init__.py", submodule_search_locations=[str(root / "streamcodecs")]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _keep(cls: type) -> dict[str, int]:
    """``keep_bytes=1 MiB`` where the class takes it (a baseline from before it existed does not)."""
    return {"keep_bytes": 1 << 20} if "keep_bytes" in inspect.signature(cls.__init__).parameters else {}


def _kcl_cases(name: str, sc: ModuleType) -> list[Case]:
    kcl = importlib.import_module(f"{sc.__name__}.kcl")
    rng = random.Random(7)
    batches = [
        [
            kcl.Record(
                data=bytes(rng.getrandbits(8) for _ in range(200)),
                partition_key=f"pk-{rng.getrandbits(48):012x}",
                sequence_number=str(SEQ + 100 * b + i),
                approximate_arrival_timestamp=1476889707000 + i,
                sub_sequence_number=0,
            )
            for i in range(100)
        ]
        for b in range(20)
    ]

    class Checkpointing(kcl.RecordProcessor):  # type: ignore[misc, name-defined]
        def process_records(self, message: Any, checkpointer: Any) -> None:
            checkpointer.checkpoint(message.records[-1].sequence_number)

    read_in, write_in = os.pipe()
    read_out, write_out = os.pipe()
    child_in, child_out = open(read_in, "rb"), open(write_out, "wb")
    threading.Thread(
        target=kcl.run_child, args=(Checkpointing(), child_in, child_out, io.StringIO()), daemon=True
    ).start()
    driver = kcl.ChildDriver(open(write_in, "wb"), open(read_out, "rb"), timeout=60, **_keep(kcl.ChildDriver))

    def exchanges() -> None:
        for batch in batches:
            exchange = driver.process_records(batch)
            assert exchange.checkpoints[0][1].error is None

    return [Case("kcl driver + run_child, 100-record exchanges", name, exchanges, ops=len(batches), unit="exch")]


def _java_tuple(i: int) -> bytes:
    return (
        b'{"comp":"spout","tuple":["a\\/b ' + str(i).encode() + b'","caf\xc3\xa9",' + str(i).encode() + b",2.5,true],"
        b'"task":9,"stream":"default","id":"' + str(-6955325049453591163 + i).encode() + b'"}\nend\n'
    )


def _storm_cases(name: str, sc: ModuleType, root: Path) -> list[Case]:
    storm = importlib.import_module(f"{sc.__name__}.storm")
    handshake = (
        b'{"pidDir":"' + os.environ.get("TMPDIR", "/tmp").encode() + b'","context":{"componentid":"split",'
        b'"task->component":{"1":"__acker","3":"split"},"taskid":3},"conf":{"topology.name":"bench"}}\nend\n'
    )
    stream = handshake + b"".join(_java_tuple(i) for i in range(1000))

    class Echo(storm.Bolt):  # type: ignore[misc, name-defined]
        def process(self, tup: Any) -> None:
            self.emit([*tup.values, "seen"])

    def component() -> None:
        Echo().run(io.BytesIO(stream), io.BytesIO())

    env = {**os.environ, "PYTHONPATH": str(root)}
    keep = _keep(storm.ShellComponent)
    bolt = storm.ShellBolt(
        [sys.executable, str(PEERS / "storm_streamcodecs_bolt.py"), "echo"], timeout=60, env=env, **keep
    ).start()
    spout = storm.ShellSpout(
        [sys.executable, str(PEERS / "storm_streamcodecs_spout.py"), "count"], timeout=60, env=env, **keep
    ).start()
    values = [["the quick brown fox", i] for i in range(1000)]

    def drive_bolt() -> None:
        ids = [bolt.execute(v) for v in values]
        assert bolt.wait_result(ids[-1]) == "ack"

    def drive_spout() -> None:
        for _ in range(200):
            spout.next_tuple()

    return [
        Case("storm Bolt.run, 1000 tuples -> emit + ack", name, component, ops=1000, unit="tuples"),
        Case("storm ShellBolt -> bolt process, 1000 tuples", name, drive_bolt, ops=1000, unit="tuples"),
        Case("storm ShellSpout next_tuple round trips", name, drive_spout, ops=200, unit="trips"),
    ]


def _pravega_cases(name: str, sc: ModuleType) -> list[Case]:
    pravega = importlib.import_module(f"{sc.__name__}.pravega")
    writer_id = uuid.UUID(int=12345)
    payload = bytes(range(100))

    def appends() -> None:
        encoder = pravega.AppendEncoder(block_size=1 << 16)
        encoder.write(pravega.SetupAppend(request_id=1, writer_id=writer_id, segment="s/t/0", delegation_token=""))
        for n in range(1000):
            encoder.append_event(writer_id, "s/t/0", n, payload)
        encoder.flush()

    return [Case("pravega AppendEncoder, 1000 appends of 100 B", name, appends, ops=1000, unit="appends")]


def cases() -> list[Case]:
    roots = [(OURS, HERE.parent / "output" / "py")]
    baseline = os.environ.get("STREAMCODECS_BASELINE")
    if baseline:
        roots.append((BASELINE, Path(baseline).resolve()))
    else:
        print("bench_runtimes: set STREAMCODECS_BASELINE=<checkout>/output/py to compare with another checkout")
    found: list[Case] = []
    for name, root in roots:
        sc = _package(root, "streamcodecs" if name == OURS else "streamcodecs_baseline")
        found += _kcl_cases(name, sc) + _storm_cases(name, sc, root) + _pravega_cases(name, sc)
    return found
