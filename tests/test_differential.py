"""A short sample of the differential fuzzer (fuzz/differential.py): the Java codec, called directly through every
Spark function's UDF class, and the Python codec (the Spark functions' Python path) decide every input alike, with
the same values and the same error texts (a JSON syntax error's wording aside). The long run is one command (see
the README): ``.venv/bin/python fuzz/differential.py``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
COUNT = 2000
"""Inputs per protocol: enough for the aimed inputs to meet each class once found to disagree (on the codecs before
the 1e400 rule, this sample finds 14 storm decode disagreements; at 300 it found 2), in a few seconds of CPU."""
PROTOCOLS = [
    "cloudevents",
    "kcl",
    "pravega",
    "storm",
]

pytestmark = [
    pytest.mark.spark,  # a JVM (the Java codecs), though no Spark session
    pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK (javac, java)"),
]


@pytest.fixture(scope="module")
def sample() -> str:
    result = subprocess.run(
        [sys.executable, str(REPO / "fuzz" / "differential.py"), "--count", str(COUNT), "--seed", "28", "--show", "3"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert "disagreements in all" in result.stdout, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_both_codecs_decide_a_sample_alike(sample: str, protocol: str) -> None:
    found = re.search(rf"^{protocol}: (\d+) inputs, (\d+) disagreements", sample, re.M)
    assert found, sample
    inputs, disagreements = map(int, found.groups())
    assert inputs >= COUNT - 1
    assert disagreements == 0, sample
