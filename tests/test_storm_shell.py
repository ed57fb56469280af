"""The Storm-side driver (``storm.ShellBolt``, ``storm.ShellSpout``) against components that misbehave: replies
matched to their own request after a timeout, writes bounded by the timeout, no deadlock between the writing and
the reading side, memory kept within ``keep_bytes``. The components are tests/peers/storm_faulty_component.py
(standard library only) and the streamcodecs components in tests/peers/storm_streamcodecs_*.py.

A call that could block for ever on a broken driver runs in a thread (``within``): the test fails instead of
hanging when it overruns its bound.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from streamcodecs import storm

PEERS = Path(__file__).resolve().parent / "peers"
START = 20.0  # interpreter start-up included
T = TypeVar("T")


def faulty(kind: type[storm.ShellComponent], mode: str, *args: str, **options: Any) -> Any:
    command = [sys.executable, str(PEERS / "storm_faulty_component.py"), mode, *args]
    return kind(command, **{"timeout": START, **options})


def within(seconds: float, call: Callable[[], T]) -> T:
    """``call()`` in a thread; its result or exception, or a failure if it still runs after ``seconds``."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append((False, exc))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still blocked after {seconds:g} s"
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def test_a_spout_answer_that_comes_late_is_not_the_next_commands() -> None:
    """next_tuple times out; the next next_tuple returns its own answer, not the first's (on main it returned the
    first call's emit, and the second answer was never returned)."""
    with faulty(storm.ShellSpout, "slow-spout", "1.5") as spout:
        with pytest.raises(storm.ShellTimeout):
            spout.next_tuple(timeout=0.3)
        second = spout.next_tuple()
        assert second == [storm.Emit(values=["n", 2], need_task_ids=False), storm.Sync()]
        assert spout.late == 1
        assert spout.next_tuple() == [storm.Emit(values=["n", 3], need_task_ids=False), storm.Sync()]
        assert [m for m in spout.received if isinstance(m, storm.Emit)][0].values == ["first"]  # still on record


def test_a_heartbeat_is_answered_by_its_own_sync() -> None:
    with faulty(storm.ShellBolt, "late-heartbeat", "1.5") as bolt:
        with pytest.raises(storm.ShellTimeout):
            bolt.heartbeat(timeout=0.3)
        bolt.heartbeat()
        assert bolt.syncs == 2  # the late sync was the first heartbeat's, so this call waited for the second


def test_a_write_the_component_does_not_take_times_out_and_breaks_the_connection() -> None:
    """A 4 MB tuple to a component that stopped reading: ShellTimeout within the bound (on main: blocked for ever),
    then every call raises ShellBroken without writing."""
    bolt = faulty(storm.ShellBolt, "never-read").start()
    try:
        bolt.timeout = 0.5
        start = time.monotonic()
        with pytest.raises(storm.ShellTimeout, match="took nothing of a"):
            within(10, lambda: bolt.execute(["x" * (4 << 20)]))
        assert time.monotonic() - start < 10
        with pytest.raises(storm.ShellBroken) as caught:
            within(10, lambda: bolt.execute(["small"]))
        assert isinstance(caught.value.cause, TimeoutError) and isinstance(bolt.broken, TimeoutError)
        with pytest.raises(storm.ShellBroken):
            within(10, bolt.heartbeat)
    except BaseException:
        os.kill(bolt.pid, signal.SIGKILL)  # a driver stuck in a write (main) could not even close
        raise
    finally:
        bolt.close(timeout=0.5)
    assert bolt.returncode is not None


def test_task_ids_reach_a_component_that_writes_while_storm_writes_to_it() -> None:
    """The component asks for task ids, then writes a 4 MB log before it reads; meanwhile the driver writes a 2 MB
    tuple. On main the tuple's write held the lock the reading thread needed to answer the ids: a deadlock."""
    bolt = faulty(storm.ShellBolt, "ids-while-logging", task_ids=[7, 8]).start()
    try:
        tuple_id = within(30, lambda: bolt.execute(["y" * (2 << 20)]))
        assert within(30, lambda: bolt.wait_result(tuple_id)) == "ack"
        assert bolt.emits == [storm.Emit(values=["asking"], need_task_ids=True)]
        assert [log.msg for log in bolt.logs][-1] == "task ids [7, 8]"
    except BaseException:
        os.kill(bolt.pid, signal.SIGKILL)  # a deadlocked driver (main) could not even close
        raise
    finally:
        bolt.close()
