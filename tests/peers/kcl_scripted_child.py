"""A misbehaving MultiLang child for the daemon-driver tests: for each line it reads it writes the next line of
its script (given as arguments; ``-`` writes nothing; ``~S line`` waits S seconds, then writes ``line``), then
waits for the next line. Standard library only."""

from __future__ import annotations

import sys
import time

script = sys.argv[1:]
for reply in script:
    if not sys.stdin.buffer.readline():
        break
    if reply.startswith("~"):
        delay, _, reply = reply[1:].partition(" ")
        time.sleep(float(delay))
    if reply != "-":
        sys.stdout.buffer.write(reply.encode("utf-8") + b"\n")
        sys.stdout.buffer.flush()
sys.stdin.buffer.read()  # wait for the daemon to close stdin
