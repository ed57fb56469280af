"""Shared by the KCL test children: report what a processor saw, on stderr, one JSON object per line.

stdout belongs to the protocol, so observations go to stderr as ``observed {...}`` lines; the tests collect them
from the daemon driver's ``stderr`` with :func:`observations`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

PREFIX = "observed "


def observe(event: str, **details: Any) -> None:
    sys.stderr.write(PREFIX + json.dumps({"event": event, **details}, sort_keys=True) + "\n")
    sys.stderr.flush()


def observations(stderr: str) -> list[dict[str, Any]]:
    return [json.loads(line[len(PREFIX) :]) for line in stderr.splitlines() if line.startswith(PREFIX)]
