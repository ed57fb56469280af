"""The generated package installs with pip and works from the installed copy (what executors and users get)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_pip_install_of_the_generated_package(tmp_path: Path) -> None:
    # pip builds a local directory in place (its build/ lands in the directory): it installs a copy, so that the
    # checkout is left as it was (a stale build/lib there was linted by test_newcomer's copy of the checkout)
    source = tmp_path / "py"
    shutil.copytree(REPO / "output" / "py", source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = tmp_path / "site"
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    assert (target / "streamcodecs" / "py.typed").is_file()
    # the JVM path of the Spark functions travels with the package: a user needs a Java runtime, not a JDK
    shipped = target / "streamcodecs" / "spark" / "streamcodecs-spark.jar"
    assert shipped.read_bytes() == (REPO / "output" / "py" / "streamcodecs" / "spark" / shipped.name).read_bytes()
    probe = (
        "import streamcodecs, importlib\n"
        "assert streamcodecs.__file__.startswith(TARGET), streamcodecs.__file__\n"
        "for name in streamcodecs.PROTOCOLS:\n"
        "    m = importlib.import_module('streamcodecs.' + name)\n"
        "    assert m.MESSAGES and m.DIRECTIONS and m.VERSION\n"
        "from streamcodecs import pravega\n"
        "frame = pravega.encode(pravega.Hello(high_version=17, low_version=5))\n"
        "assert frame.hex() == 'ffffff81000000080000001100000005'\n"
        "print(len(streamcodecs.PROTOCOLS))\n"
    ).replace("TARGET", repr(str(target)))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(target)}
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) >= 4
