"""A misbehaving MultiLang child for the daemon-driver tests: for each line it reads it writes the next line of
its script (given as arguments; ``-`` writes nothing), then waits for the next line. Standard library only."""

from __future__ import annotations

import sys

script = sys.argv[1:]
for reply in script:
    if not sys.stdin.buffer.readline():
        break
    if reply != "-":
        sys.stdout.buffer.write(reply.encode("utf-8") + b"\n")
        sys.stdout.buffer.flush()
sys.stdin.buffer.read()  # wait for the daemon to close stdin
