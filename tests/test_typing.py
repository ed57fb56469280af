"""The generated package, Spark modules included, and the generator itself are typed code people can check: mypy
(pinned in requirements.txt) passes over them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "output" / "py"
PACKAGE = "streamcodecs"


def _mypy(root: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """The documented check, run from ``root`` (which holds the package and its pyproject.toml)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            PACKAGE,
            "--check-untyped-defs",
            "--cache-dir",
            str(cache),  # keep mypy's cache out of the generated tree
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _checked_modules(root: Path) -> int:
    return sum(1 for _ in (root / PACKAGE).rglob("*.py"))


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


def test_generated_package_passes_mypy(cache: Path) -> None:
    result = _mypy(GENERATED, cache)
    assert result.returncode == 0, result.stdout + result.stderr
    # Every module was checked, the Spark ones included.
    found = re.search(r"no issues found in (\d+) source files", result.stdout)
    assert found, result.stdout
    assert int(found.group(1)) == _checked_modules(GENERATED) > 10


def test_the_check_catches_a_type_error(tmp_path: Path, cache: Path) -> None:
    """The same command over a copy of the package with an error in an unannotated function fails and names it
    (unannotated bodies are checked only with ``--check-untyped-defs``)."""
    shutil.copytree(GENERATED / PACKAGE, tmp_path / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(GENERATED / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / PACKAGE / "_broken.py").write_text('def f():\n    count: int = "three"\n    return count\n')
    result = _mypy(tmp_path, cache)
    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(r"_broken\.py:2: error: .*\[assignment\]", result.stdout), result.stdout
    assert "Found 1 error in 1 file" in result.stdout, result.stdout


def test_pyproject_holds_the_same_mypy_settings() -> None:
    """``mypy streamcodecs`` inside output/py, without flags, checks what the test above checks."""
    settings = tomllib.loads((GENERATED / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert settings["check_untyped_defs"] is True
    assert "exclude" not in settings
    overrides = tomllib.loads((GENERATED / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["overrides"]
    assert [o["module"] for o in overrides] == [["pyarrow", "pyarrow.*"]]  # no stubs exist; nothing else is let off
    assert settings["python_version"] == "3.11"


def test_the_generator_passes_mypy(cache: Path) -> None:
    """The generator's own code, with the settings of the repository's pyproject.toml; the modules it copies into
    the package (``py_package/``) are checked there, above."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "streamcodecs_gen", "generator.py", "--exclude", "streamcodecs_gen/py_package/"]
        + ["--cache-dir", str(cache)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    checked = re.search(r"no issues found in (\d+) source files", result.stdout)
    assert checked and int(checked.group(1)) > 40, result.stdout
