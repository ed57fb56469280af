"""Driver-side memory scenarios of the fault suite, each in a process of its own so that its peak resident memory
is its own: ``python fault_scenarios.py NAME``. Prints one JSON object: the resident memory once the driver runs
(``base_kib``), its peak at the end (``peak_kib``) and what the scenario observed. Linux only (/proc)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from streamcodecs import kcl, storm

PEERS = Path(__file__).resolve().parent
KEEP = 1 << 20
RUNAWAY_KIB = 64 << 10
"""Growth past which a scenario stops early: the runtime's memory is unbounded, and waiting longer would only take
the machine's memory (the test fails on the peak either way)."""


def status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def wait_watching(seconds: float, base_kib: int) -> None:
    """Sleep ``seconds``, or less once resident memory has grown by ``RUNAWAY_KIB`` past ``base_kib``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and status_kib("VmRSS") - base_kib < RUNAWAY_KIB:
        time.sleep(0.01)


def kcl_flood() -> dict[str, object]:
    """A child that floods stdout between exchanges and during them (lenient driver: every line is skipped). Its
    lines are 4 KiB, so that a driver that reads ahead without bound grows at the pipe's speed."""
    child = [sys.executable, str(PEERS / "kcl_faulty_child.py"), "flood"]
    with kcl.ChildDriver.launch(child, timeout=10, strict=False, keep_bytes=KEEP) as driver:
        driver.initialize("shardId-0")
        base = status_kib("VmRSS")
        wait_watching(3, base)  # between exchanges: nobody asked for these lines
        try:
            driver.shard_ended(timeout=1.5)
            outcome = "status"
        except TimeoutError:
            outcome = "timeout"
        exchange = driver.exchanges[-1]
        observed = {"outcome": outcome, "skipped": len(exchange.skipped), "dropped": exchange.dropped}
        driver.kill()
    return {"base_kib": base, "peak_kib": status_kib("VmHWM"), **observed}


def kcl_short_lines() -> dict[str, object]:
    """A child that floods stdout with 2-byte lines between exchanges: the lines read ahead are many small objects,
    each costing far more than its bytes."""
    child = [sys.executable, str(PEERS / "kcl_faulty_child.py"), "flood-short"]
    with kcl.ChildDriver.launch(child, timeout=10, strict=False, keep_bytes=KEEP) as driver:
        driver.initialize("shardId-0")
        base = status_kib("VmRSS")
        wait_watching(1.0, base)  # between exchanges: nobody asked for these lines
        driver.kill()
    return {"base_kib": base, "peak_kib": status_kib("VmHWM")}


def kcl_stderr() -> dict[str, object]:
    """A child whose threads write to stderr without end while it answers."""
    child = [sys.executable, str(PEERS / "kcl_faulty_child.py"), "stderr-threads"]
    with kcl.ChildDriver.launch(child, timeout=10, keep_bytes=KEEP) as driver:
        driver.initialize("shardId-0")
        base = status_kib("VmRSS")
        time.sleep(1.5)
        status = driver.shard_ended().status
        observed = {"status": None if status is None else status.response_for, "stderr": len(driver.stderr)}
        driver.kill()
    return {"base_kib": base, "peak_kib": status_kib("VmHWM"), **observed}


def storm_flood() -> dict[str, object]:
    """A component that writes log messages without end (lenient driver)."""
    component = [sys.executable, str(PEERS / "storm_faulty_component.py"), "flood"]
    bolt = storm.ShellBolt(component, timeout=10, strict=False, keep_bytes=KEEP).start()
    base = status_kib("VmRSS")
    time.sleep(2)
    with bolt._changed:
        observed = {"received": len(bolt.received), "logs": len(bolt.logs), "forgotten": bolt.forgotten}
    bolt.close(timeout=0.5)
    return {"base_kib": base, "peak_kib": status_kib("VmHWM"), **observed}


if __name__ == "__main__":
    print(
        json.dumps(
            {
                "kcl-flood": kcl_flood,
                "kcl-short-lines": kcl_short_lines,
                "kcl-stderr": kcl_stderr,
                "storm-flood": storm_flood,
            }[sys.argv[1]]()
        )
    )
