"""The hand-written modules of the generated package (``streamcodecs_gen/py_package/``) at their source.

They are ordinary Python, copied into the package with a one-line header. The runtime is a package at source too,
so it imports and type-checks there; a companion imports its protocol's generated ``messages`` relatively, so at
source it runs as a module of the generated package (``source_module``): the code under test is the source file,
and a traceback names it.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from streamcodecs_gen import target_py
from streamcodecs_gen.render import PY_PACKAGE_DIR, copy_source
from streamcodecs_gen.target_py import RUNTIME_TEMPLATES

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "output" / "py" / "streamcodecs"
SOURCES = sorted(p for p in PY_PACKAGE_DIR.rglob("*.py") if "__pycache__" not in p.parts)


def source_module(relative: str) -> ModuleType:
    """Run ``py_package/<relative>`` as the module it becomes in the generated package (relative imports resolve
    there), without touching the installed copy: e.g. ``source_module("kcl/daemon.py")``."""
    path = PY_PACKAGE_DIR / relative
    package = "streamcodecs." + ".".join(Path(relative).parent.parts)
    importlib.import_module(package)
    spec = importlib.util.spec_from_file_location(f"{package}._source_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_the_sources_are_there() -> None:
    names = {p.relative_to(PY_PACKAGE_DIR).as_posix() for p in SOURCES}
    assert {
        "_runtime/binary.py",
        "_runtime/errors.py",
        "kcl/daemon.py",
        "pravega/events.py",
        "storm/shell/driver.py",
    } <= names


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.relative_to(PY_PACKAGE_DIR).as_posix())
def test_the_package_holds_the_source_with_its_header(source: Path) -> None:
    copy = PACKAGE / source.relative_to(PY_PACKAGE_DIR)
    text = copy.read_text(encoding="utf-8")
    assert text == copy_source(source), f"{copy} is not a copy of {source}: run ./generator.py"
    assert text.startswith(f"# Copied from streamcodecs_gen/py_package/{source.relative_to(PY_PACKAGE_DIR)} by")


def test_the_runtime_type_checks_at_source(tmp_path: Path) -> None:
    """The hand-written runtime, beside the modules the generator renders into it (``target_py.RUNTIME_TEMPLATES``,
    taken from the generated package), type-checks strictly."""
    runtime = tmp_path / "src" / "_runtime"
    runtime.mkdir(parents=True)
    sources = sorted((PY_PACKAGE_DIR / "_runtime").glob("*.py"))
    for source in sources:
        shutil.copy(source, runtime / source.name)
    for name in RUNTIME_TEMPLATES.values():
        shutil.copy(PACKAGE / "_runtime" / name, runtime / name)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "-p", "_runtime", "--strict"] + ["--cache-dir", str(tmp_path / "cache")],
        cwd=runtime.parent,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    count = len(sources) + len(RUNTIME_TEMPLATES)
    assert f"no issues found in {count} source files" in result.stdout, result.stdout


def test_the_runtime_runs_at_source() -> None:
    from streamcodecs_gen.py_package._runtime import errors, jsonwire

    assert issubclass(jsonwire.DecodeError, errors.DecodeError)


def test_the_kcl_daemon_knows_the_keys_the_java_daemon_accepts() -> None:
    """What the daemon template used to list per message now comes from the generated module's ``WIRE_KEYS``."""
    daemon = source_module("kcl/daemon.py")
    from streamcodecs.kcl import messages

    assert {cls.__name__: set(keys) for cls, keys in daemon._KNOWN_KEYS.items()} == {
        "Status": {"action", "responseFor"},
        "Checkpoint": {"action", "sequenceNumber", "subSequenceNumber", "error"},
    }
    line = b'{"action": "status", "responseFor": "x", "extra": 1}'
    assert daemon._unknown_keys(line, messages.Status(response_for="x")) == ["extra"]


def test_a_companion_at_source_raises_from_its_source() -> None:
    """A failure in a companion run at source points at the source file, not at a generated copy."""
    driver = source_module("storm/shell/driver.py")  # a module of a companion package (storm.shell)
    source = PY_PACKAGE_DIR / "storm" / "shell" / "driver.py"
    assert Path(driver.__file__) == source
    with pytest.raises(OSError) as info:
        driver.ShellComponent(["./definitely-not-a-command-of-streamcodecs"]).start()
    assert source in {Path(str(entry.path)) for entry in info.traceback}


def test_spark_protocols_are_the_spark_modules_in_the_package_order(tmp_path: Path) -> None:
    """``spark.PROTOCOLS`` (once templated) is found at import, from a directory and from a zip (``addPyFile``)."""
    import zipfile

    import streamcodecs
    from streamcodecs import spark

    modules = {p.stem for p in (PACKAGE / "spark").glob("*.py") if not p.stem.startswith("_")}  # _jvm: plumbing
    assert modules and spark.PROTOCOLS == tuple(p for p in streamcodecs.PROTOCOLS if p in modules)
    assert set(spark.PROTOCOLS) == modules
    archive = tmp_path / "package.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(PACKAGE.rglob("*.py")):
            if "tests" not in path.relative_to(PACKAGE).parts:
                zipped.write(path, path.relative_to(PACKAGE.parent).as_posix())
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); import streamcodecs.spark as s; print(s.__file__, s.PROTOCOLS)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe, str(archive)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(" ", 1) == [
        str(archive / "streamcodecs" / "spark" / "__init__.py"),
        f"{spark.PROTOCOLS}\n",
    ]


def test_a_companion_is_a_module_or_a_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A companion's files are its module, or every module of its package (storm's ``shell``); one with neither, or
    with both (Python would import the package and the module would be dead), is a definition problem."""
    monkeypatch.setattr(target_py, "PY_PACKAGE_DIR", tmp_path)
    (tmp_path / "p" / "split").mkdir(parents=True)
    for name in ("__init__.py", "a.py", "b.py"):
        (tmp_path / "p" / "split" / name).write_text("", encoding="utf-8")
    (tmp_path / "p" / "plain.py").write_text("", encoding="utf-8")
    assert target_py.companion_sources("p", "plain") == [tmp_path / "p" / "plain.py"]
    assert [f.name for f in target_py.companion_sources("p", "split")] == ["__init__.py", "a.py", "b.py"]
    assert target_py.companion_sources("p", "missing") == []
    (tmp_path / "p" / "split.py").write_text("", encoding="utf-8")
    assert target_py.companion_sources("p", "split") == []
    assert target_py.companion_sources("storm", "shell") == []  # not under tmp_path: nothing there


def imported_modules(files: list[Path]) -> dict[str, Path]:
    """The top-level modules outside the standard library that ``files`` import, anywhere in them (a function's own
    imports too), each with the first of ``files`` that imports it."""
    import ast

    found: dict[str, Path] = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                if name.split(".")[0] not in sys.stdlib_module_names:
                    found.setdefault(name.split(".")[0], path)
    return found


def _imported_distributions(files: list[Path]) -> set[str]:
    """The top-level modules outside the standard library and the package that ``files`` import."""
    return set(imported_modules(files)) - {"streamcodecs"}


def test_the_package_declares_every_distribution_it_imports() -> None:
    # "pip install ./output/py (add [spark] for the Spark functions)": the runtime may import only its dependencies,
    # the Spark modules only those and the spark extra's (explode_inline on a stream imports pandas in the workers).
    import re
    import tomllib

    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    def names(requirements: list[str]) -> set[str]:
        return {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower() for r in requirements}

    runtime, spark = names(project["dependencies"]), names(project["optional-dependencies"]["spark"])
    files = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    outside_spark = [p for p in files if "spark" not in p.relative_to(PACKAGE).parts]
    assert _imported_distributions(outside_spark) <= runtime
    assert _imported_distributions(files) <= runtime | spark, sorted(_imported_distributions(files) - runtime - spark)


def test_each_familys_spark_functions_take_the_shared_arguments_once() -> None:
    """BinaryFunctions, JsonFunctions and KafkaFunctions each declared ProtocolFunctions's five arguments again and
    passed them on one by one (7 lines each): they are now declared once (``_functions.Common``) and passed on as
    they are, so an argument added there reaches every family."""
    import inspect

    from streamcodecs.spark import _binary, _functions, _json, _kafka

    shared = set(_functions.Common.__annotations__)
    assert shared == {"codec", "protocol", "directions", "decoded", "encoded_from"}
    for family in (_binary.BinaryFunctions, _json.JsonFunctions, _kafka.KafkaFunctions):
        source = inspect.getsource(family.__init__)
        assert not shared & set(inspect.signature(family.__init__).parameters), family
        assert "super().__init__(module, name, **common)" in source, family
