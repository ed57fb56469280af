"""A Storm multilang component (JSON framing) that fails in one way, for the shell-driver fault tests:
``python storm_faulty_component.py MODE [ARG]``. Standard library only (it starts fast). It does the handshake
(pid file, pid reply) like any component, then:

``never-read`` never reads again; ``never-answer`` reads and never writes; ``exit CODE`` exits at the first
message; ``die-mid-message`` writes half a message at the first one and exits 5; ``flood`` writes log messages
without end; ``long-message BYTES`` answers the first tuple with a log of BYTES bytes, then acks it;
``slow-spout SECONDS`` is a spout whose first answer comes after SECONDS (emit ``first``), the others at once
(emit ``n``, the command's number); ``late-heartbeat SECONDS`` is a bolt that answers its first heartbeat after
SECONDS (the others after 0.3 s); ``ids-while-logging`` emits wanting task ids, then writes a 4 MB log before it
reads again, then acks the tuple it got and logs the ids; ``close-stdout`` closes its stdout, says ``closed`` on
stderr and lives on without reading.
"""

from __future__ import annotations

import json
import os
import sys
import time

MODE = sys.argv[1]
ARG = sys.argv[2] if len(sys.argv) > 2 else ""
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def read() -> object:
    lines = []
    while (line := stdin.readline()) != b"end\n":
        if not line:
            sys.exit(0)
        lines.append(line)
    return json.loads(b"".join(lines))


def frame(message: object) -> bytes:
    return json.dumps(message).encode() + b"\nend\n"


def send(*messages: object) -> None:
    stdout.write(b"".join(frame(m) for m in messages))
    stdout.flush()


setup = read()
assert isinstance(setup, dict)
open(os.path.join(setup["pidDir"], str(os.getpid())), "w").close()
send({"pid": os.getpid()})

if MODE == "never-read":
    time.sleep(600)
elif MODE == "close-stdout":
    os.close(1)
    sys.stderr.write("closed\n")
    sys.stderr.flush()
    time.sleep(600)
elif MODE == "never-answer":
    while True:
        read()
elif MODE == "exit":
    read()
    sys.exit(int(ARG))
elif MODE == "die-mid-message":
    read()
    stdout.write(frame({"command": "log", "msg": "cut"})[:15])
    stdout.flush()
    sys.exit(5)
elif MODE == "flood":
    chunk = frame({"command": "log", "msg": "flooding"}) * 1000
    while True:
        stdout.write(chunk)
elif MODE == "long-message":
    tup = read()
    assert isinstance(tup, dict)
    send({"command": "log", "msg": "x" * int(ARG)}, {"command": "ack", "id": tup["id"]})
    while True:
        read()
elif MODE == "slow-spout":
    count = 0
    while True:
        read()
        count += 1
        if count == 1:
            time.sleep(float(ARG))
            send({"command": "emit", "tuple": ["first"], "need_task_ids": False}, {"command": "sync"})
        else:
            send({"command": "emit", "tuple": ["n", count], "need_task_ids": False}, {"command": "sync"})
elif MODE == "late-heartbeat":
    first = True
    while True:
        message = read()
        assert isinstance(message, dict)
        if message.get("stream") == "__heartbeat":
            # The first after SECONDS; the others 0.3 s after they come, so that a driver which takes the late
            # sync for the next heartbeat's has returned before that heartbeat's own sync exists.
            time.sleep(float(ARG) if first else 0.3)
            first = False
            send({"command": "sync"})
        else:
            send({"command": "ack", "id": message["id"]})
elif MODE == "ids-while-logging":
    time.sleep(float(ARG or 0.3))  # lets Storm start writing a large tuple first
    send({"command": "emit", "tuple": ["asking"], "need_task_ids": True}, {"command": "log", "msg": "x" * (4 << 20)})
    tup, ids = None, None
    while tup is None or ids is None:
        message = read()
        if isinstance(message, list):
            ids = message
        else:
            tup = message
    assert isinstance(tup, dict)
    send({"command": "ack", "id": tup["id"]}, {"command": "log", "msg": f"task ids {ids}"})
    while True:
        read()
else:
    sys.exit(f"unknown mode {MODE}")
