"""KCL MultiLang interop with the real peer: amazon-kclpy 3.2.0 record processors (v3 and v2 interfaces) run as
child processes under streamcodecs' daemon driver, and the same session against a child built on
``kcl.run_child``. Every line is checked both ways: what the driver writes byte for byte (the Java daemon's
Jackson output), what the child writes as parsed JSON with exactly the keys the daemon knows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from streamcodecs import kcl

PEERS = Path(__file__).resolve().parent / "peers"
sys.path.insert(0, str(PEERS))
from kcl_observe import observations  # noqa: E402

pytestmark = pytest.mark.peer

TIMEOUT = 20.0
SHARD = "shardId-000000000001"
SEQ = [
    "49590338271490256608559692538361571095921575989136588898",
    "49590338271490256608559692538361571095921575989136588899",
    "49590338271490256608559692538361571095921575989136588900",
]
RECORDS = [
    kcl.Record(
        data=b"hi",
        partition_key="pk-1",
        sequence_number=SEQ[0],
        approximate_arrival_timestamp=1476889707000,
        sub_sequence_number=0,
    ),
    kcl.Record(
        data=b"",
        partition_key="pk\x1f/\u00e9",
        sequence_number=SEQ[1],
        approximate_arrival_timestamp=1476889707001,
        sub_sequence_number=0,
    ),
    kcl.Record(
        data=b"\x00\xff\xfe",
        partition_key='p"k\\',
        sequence_number=SEQ[2],
        approximate_arrival_timestamp=1476889707002,
        sub_sequence_number=7,
    ),
]

# What the Java MultiLangDaemon writes for these messages (Jackson: action first, declaration order, nulls
# written, "action":"record" last, \u00XX upper case, "/" and non-ASCII raw), written out by hand.
INITIALIZE_LINE = (
    b'{"action":"initialize","shardId":"shardId-000000000001","sequenceNumber":"TRIM_HORIZON","subSequenceNumber":0}'
)
PROCESS_RECORDS_LINE = (
    b'{"action":"processRecords","records":['
    b'{"data":"aGk=","partitionKey":"pk-1","sequenceNumber":"' + SEQ[0].encode() + b'",'
    b'"approximateArrivalTimestamp":1476889707000,"subSequenceNumber":0,"action":"record"},'
    b'{"data":"","partitionKey":"pk\\u001F/\xc3\xa9","sequenceNumber":"' + SEQ[1].encode() + b'",'
    b'"approximateArrivalTimestamp":1476889707001,"subSequenceNumber":0,"action":"record"},'
    b'{"data":"AP/+","partitionKey":"p\\"k\\\\","sequenceNumber":"' + SEQ[2].encode() + b'",'
    b'"approximateArrivalTimestamp":1476889707002,"subSequenceNumber":7,"action":"record"}'
    b'],"millisBehindLatest":1234}'
)
THROTTLED_LINE = (
    b'{"action":"checkpoint","sequenceNumber":"' + SEQ[2].encode() + b'","subSequenceNumber":7,'
    b'"error":"ThrottlingException"}'
)
ACCEPTED_LINE = (
    b'{"action":"checkpoint","sequenceNumber":"' + SEQ[2].encode() + b'","subSequenceNumber":7,"error":null}'
)
SHARD_END_REPLY_LINE = b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":null}'

CHECKPOINT_LAST = {"action": "checkpoint", "sequenceNumber": SEQ[2], "subSequenceNumber": 7}
CHECKPOINT_DEFAULT = {"action": "checkpoint", "sequenceNumber": None, "subSequenceNumber": None}


def status(action: str) -> dict[str, Any]:
    return {"action": "status", "responseFor": action}


SESSION = [  # (direction, line) for the whole session; child lines as parsed JSON
    ("to_child", INITIALIZE_LINE),
    ("to_daemon", status("initialize")),
    ("to_child", PROCESS_RECORDS_LINE),
    ("to_daemon", CHECKPOINT_LAST),
    ("to_child", THROTTLED_LINE),
    ("to_daemon", CHECKPOINT_LAST),
    ("to_child", ACCEPTED_LINE),
    ("to_daemon", status("processRecords")),
    ("to_child", b'{"action":"shardEnded"}'),
    ("to_daemon", CHECKPOINT_DEFAULT),
    ("to_child", SHARD_END_REPLY_LINE),
    ("to_daemon", status("shardEnded")),
]

OBSERVED_RECORDS = [
    {
        "data": "6869",
        "partition_key": "pk-1",
        "sequence_number": SEQ[0],
        "sub_sequence_number": 0,
        "timestamp_millis": 1476889707000,
    },
    {
        "data": "",
        "partition_key": "pk\x1f/\u00e9",
        "sequence_number": SEQ[1],
        "sub_sequence_number": 0,
        "timestamp_millis": 1476889707001,
    },
    {
        "data": "00fffe",
        "partition_key": 'p"k\\',
        "sequence_number": SEQ[2],
        "sub_sequence_number": 7,
        "timestamp_millis": 1476889707002,
    },
]


def needs_kclpy() -> None:
    pytest.importorskip(
        "amazon_kclpy", reason="amazon-kclpy is not installed: run `python tests/peers/install_kclpy.py` (./dev does)"
    )


class ThrottleOnce:
    """on_checkpoint: refuse the first request with ThrottlingException, accept the rest; remember them all."""

    def __init__(self) -> None:
        self.calls: list[tuple[kcl.Checkpoint, str]] = []

    def __call__(self, request: kcl.Checkpoint, action: str) -> str | None:
        self.calls.append((request, action))
        return "ThrottlingException" if len(self.calls) == 1 else None


def run_session(script: str, *args: str, end: str = "shard_ended") -> tuple[kcl.ChildDriver, ThrottleOnce, int]:
    callback = ThrottleOnce()
    driver = kcl.ChildDriver.launch(
        [sys.executable, str(PEERS / script), *args], on_checkpoint=callback, timeout=TIMEOUT
    )
    with driver:
        driver.initialize(SHARD, kcl.SENTINEL_TRIM_HORIZON, 0)
        driver.process_records(RECORDS, millis_behind_latest=1234)
        getattr(driver, end)()
    code = driver.process.returncode if driver.process else None
    assert code is not None
    return driver, callback, code


def check_lines(driver: kcl.ChildDriver, expected: list[tuple[str, Any]]) -> None:
    got = driver.transcript
    assert [d for d, _ in got] == [d for d, _ in expected], got
    for (direction, line), (_, want) in zip(got, expected, strict=True):
        if direction == "to_child":
            assert line == want
        else:
            assert json.loads(line) == want, line
            assert list(json.loads(line)) == list(want)  # kclpy writes action first, then the fields in order
            decoded = kcl.decode(line, direction="to_daemon")
            assert type(decoded) is (kcl.Status if want["action"] == "status" else kcl.Checkpoint)


def check_callback(callback: ThrottleOnce, shard_end_action: str) -> None:
    assert [(r.sequence_number, r.sub_sequence_number, a) for r, a in callback.calls] == [
        (SEQ[2], 7, "processRecords"),
        (SEQ[2], 7, "processRecords"),
        (None, None, shard_end_action),
    ]


@pytest.mark.parametrize("script", ["kcl_kclpy_v3_child.py", "kcl_streamcodecs_child.py"])
def test_v3_processor_session(script: str) -> None:
    if "kclpy" in script:
        needs_kclpy()
    driver, callback, code = run_session(script)
    assert code == 0, driver.stderr
    check_lines(driver, SESSION)
    check_callback(callback, "shardEnded")
    assert [e.status for e in driver.exchanges] == [
        kcl.Status(response_for=a) for a in ("initialize", "processRecords", "shardEnded")
    ]
    assert [len(e.checkpoints) for e in driver.exchanges] == [0, 2, 1]
    assert observations(driver.stderr) == [
        {"event": "initialize", "shard_id": SHARD, "sequence_number": "TRIM_HORIZON", "sub_sequence_number": 0},
        {"event": "process_records", "records": OBSERVED_RECORDS, "millis_behind_latest": 1234},
        {"event": "checkpoint_refused", "attempt": 1, "error": "ThrottlingException"},
        {"event": "checkpointed", "attempt": 2, "sequence_number": SEQ[2]},
        {"event": "shard_ended"},
        {"event": "checkpointed", "attempt": 1, "sequence_number": None},
    ]


def test_kclpy_writes_a_blank_line_around_each_message_and_our_child_too() -> None:
    """Both children frame every line as "\\n{json}\\n"; the driver skips the blank lines like the daemon."""
    needs_kclpy()
    for script in ("kcl_kclpy_v3_child.py", "kcl_streamcodecs_child.py"):
        process = subprocess.run(
            [sys.executable, str(PEERS / script)],
            input=INITIALIZE_LINE + b"\n",
            capture_output=True,
            timeout=TIMEOUT,
            check=True,
        )
        assert process.stdout.startswith(b"\n{") and process.stdout.endswith(b"}\n"), process.stdout
        assert kcl.Reader(direction="to_daemon").feed(process.stdout) == [kcl.Status(response_for="initialize")]


def test_v2_processor_session_shard_end_is_terminate() -> None:
    needs_kclpy()
    driver, callback, code = run_session("kcl_kclpy_v2_child.py")
    assert code == 0, driver.stderr
    check_lines(driver, SESSION)
    check_callback(callback, "shardEnded")
    events = observations(driver.stderr)
    assert events[1] == {"event": "process_records", "records": OBSERVED_RECORDS, "millis_behind_latest": 1234}
    assert events[-2:] == [
        {"event": "shutdown", "reason": "TERMINATE"},
        {"event": "checkpointed", "attempt": 1, "sequence_number": None},
    ]


@pytest.mark.parametrize("script", ["kcl_kclpy_v3_child.py", "kcl_kclpy_v2_child.py", "kcl_streamcodecs_child.py"])
def test_lease_lost_session(script: str) -> None:
    if "kclpy" in script:
        needs_kclpy()
    with kcl.ChildDriver.launch([sys.executable, str(PEERS / script)], timeout=TIMEOUT) as driver:
        driver.initialize(SHARD, "49590338271490256608559692538361571095921575989136588898", 0)
        exchange = driver.lease_lost()
    assert driver.process is not None and driver.process.returncode == 0, driver.stderr
    assert exchange.lines == [
        ("to_child", b'{"action":"leaseLost"}'),
        (
            "to_daemon",
            b'{"action": "status", "responseFor": "leaseLost"}'
            if "kclpy" in script
            else b'{"action":"status","responseFor":"leaseLost"}',
        ),
    ]
    assert exchange.checkpoints == []
    expected = {"event": "shutdown", "reason": "ZOMBIE"} if "v2" in script else {"event": "lease_lost"}
    assert observations(driver.stderr)[-1] == expected


@pytest.mark.parametrize("script", ["kcl_kclpy_v3_child.py", "kcl_streamcodecs_child.py"])
def test_shutdown_requested_session(script: str) -> None:
    if "kclpy" in script:
        needs_kclpy()
    refusals = iter(["ShutdownException"])
    with kcl.ChildDriver.launch(
        [sys.executable, str(PEERS / script)],
        timeout=TIMEOUT,
        on_checkpoint=lambda request, action: next(refusals, None),
    ) as driver:
        driver.initialize(SHARD, kcl.SENTINEL_LATEST, 0)
        exchange = driver.shutdown_requested()
    assert [line for _, line in exchange.lines[:1]] == [b'{"action":"shutdownRequested"}']
    assert [reply.error for _, reply in exchange.checkpoints] == ["ShutdownException"]
    assert observations(driver.stderr)[-1] == {
        "event": "checkpoint_refused",
        "attempt": 1,
        "error": "ShutdownException",
    }


def test_checkpoint_during_initialize_is_refused_like_the_daemon_does() -> None:
    """kclpy's checkpointer is reachable from initialize only by abuse; the driver answers as the daemon would."""
    driver = kcl.ChildDriver.launch(
        [
            sys.executable,
            str(PEERS / "kcl_scripted_child.py"),
            '{"action":"checkpoint","sequenceNumber":"5","subSequenceNumber":null}',
        ],
        timeout=2.0,
        strict=True,
    )
    with pytest.raises(TimeoutError), driver:
        driver.initialize(SHARD)
    reply = driver.exchanges[0].checkpoints[0][1]
    assert reply == kcl.CheckpointReply(sequence_number="5", sub_sequence_number=None, error="InvalidStateException")
