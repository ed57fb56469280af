"""Run a command with this process's stdin, stdout and stderr, then report its peak resident memory:
``python peak_rss.py COMMAND...`` writes ``peak_rss_kib=N`` as the last line of stderr and exits with the command's
status. The fault tests measure a subject process (a KCL child, a Storm component) this way, from outside it.
Linux and macOS (``ru_maxrss`` is KiB on Linux, bytes on macOS). Standard library only."""

from __future__ import annotations

import resource
import subprocess
import sys

status = subprocess.call(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
if sys.platform == "darwin":
    peak //= 1024
sys.stderr.write(f"\npeak_rss_kib={peak}\n")
sys.exit(status)
