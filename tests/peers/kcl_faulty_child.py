"""A KCL MultiLang child that fails in one way, for the daemon-driver fault tests: ``python kcl_faulty_child.py
MODE [ARG]``. Standard library only (it starts fast). Where it answers, it answers each line it reads with the
status for that line's action.

Modes: ``die-mid-line`` (reads a line, writes half a status, exits 5), ``exit CODE`` (reads a line, exits),
``never-read`` (never reads its stdin), ``never-answer`` (reads, never writes), ``late SECONDS`` (answers the first
line after SECONDS, the others at once), ``flood`` (answers the first line, then writes 4 KiB lines without end),
``long-line BYTES`` (before each status, a line of BYTES bytes), ``no-line-end`` (writes its first status
without a line end, then exits), ``stderr-threads`` (answers; meanwhile four threads write to stderr without end),
``close-stdout`` (closes its stdout, says ``closed`` on stderr and lives on without reading), ``flood-short``
(``flood`` with 2-byte lines).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

MODE = sys.argv[1]
ARG = sys.argv[2] if len(sys.argv) > 2 else ""
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def status(line: bytes) -> bytes:
    return b'{"action":"status","responseFor":"%s"}' % json.loads(line)["action"].encode()


def answer(line: bytes, end: bytes = b"\n") -> None:
    stdout.write(b"\n" + status(line) + end)
    stdout.flush()


def stderr_writer(n: int) -> None:
    line = f"thread {n} says something on stderr\n".encode() * 100
    while True:
        sys.stderr.buffer.write(line)


if MODE == "never-read":
    time.sleep(600)
if MODE == "close-stdout":
    os.close(1)
    sys.stderr.write("closed\n")
    sys.stderr.flush()
    time.sleep(600)
if MODE == "stderr-threads":
    for n in range(4):
        threading.Thread(target=stderr_writer, args=(n,), daemon=True).start()
first = True
while line := stdin.readline():
    if MODE == "die-mid-line":
        stdout.write(status(line)[:20])
        stdout.flush()
        sys.exit(5)
    if MODE == "exit":
        sys.stderr.write(f"exiting with {ARG}\n")
        sys.exit(int(ARG))
    if MODE == "never-answer":
        continue
    if MODE == "late" and first:
        time.sleep(float(ARG))
    if MODE == "long-line":
        stdout.write(b"x" * int(ARG) + b"\n")
    answer(line, b"" if MODE == "no-line-end" else b"\n")
    if MODE == "no-line-end":
        sys.exit(0)
    if MODE in ("flood", "flood-short"):
        junk = (b"a line nobody asked for " * 170 + b"\n") * 100 if MODE == "flood" else b"a\n" * 200_000
        while True:
            stdout.write(junk)
    first = False
