"""A short fuzz run in the test suite (the full 1,000,000-input run is fuzz/fuzz.py; see the README)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_short_fuzz_run_raises_only_decode_errors() -> None:
    """Bounded by count, not by the clock: the time cap is far above the run's cost (about 30 s alone), so a loaded
    machine slows the run but cannot cut it short or turn it into a finding (an input's limit is CPU time)."""
    result = subprocess.run(
        [sys.executable, str(REPO / "fuzz" / "fuzz.py"), "--count", "40000", "--seconds", "900", "--seed", "7"],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 failed" in result.stdout
    fuzzed = int(result.stdout.split("fuzzed ")[1].split()[0])
    assert fuzzed >= 20000, result.stdout
