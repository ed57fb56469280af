"""The newcomer's path (issue 21): on a copy of the repository, edit the YAML and run ``./dev generate``, and
everything the tests check is current; a protocol of each wire family added by YAML alone generates code that
passes its compatibility tests, ruff, ``inspect`` and the docs check.

``./dev`` runs here with a stand-in ``.venv/bin/python``: it runs this interpreter, but records pip and the kclpy
installer instead of running them, so the copy's set-up never installs anything into the real environment (and
the test shows what the set-up would install).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
NOT_COPIED = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis", "spark-warehouse", "results"
)

# The smallest protocols the schema allows, one per wire family (json in both framings), each with fewer messages
# in a direction than the tests that sample vectors used to assume.
TINY = {
    # JSON lines, one tagged message per direction.
    "tinylines": """
        protocol: tinylines
        title: Tiny JSON-lines protocol
        family: json
        versions: ["1"]
        directions:
          - {name: up}
          - {name: down}
        framing: {delimiter: line, tag_key: op}
        messages:
          - name: Ask
            tag: ask
            directions: [up]
            fields:
              - {name: n, type: int32}
          - name: Tell
            tag: tell
            directions: [down]
            fields: []
    """,
    # JSON + end line, one message recognised by its shape (a bare array).
    "tinyend": """
        protocol: tinyend
        title: Tiny end-line protocol
        family: json
        versions: ["1"]
        directions:
          - {name: out}
        framing: {delimiter: end_line, tag_key: command}
        messages:
          - name: Numbers
            shape: {json: array}
            directions: [out]
            fields:
              - {name: values, type: list<int64>}
    """,
    # Binary: one message without fields.
    "tinybin": """
        protocol: tinybin
        title: Tiny binary protocol
        family: binary
        versions: ["1"]
        directions:
          - {name: up}
        framing:
          byte_order: big
          code_type: int32
          length_type: int32
          list_count: int32
          bytes_length: int32
          max_frame: 65535
        messages:
          - name: Ping
            code: 1
            directions: [up]
            fields: []
    """,
}


def tiny_kafka() -> str:
    """A kafka protocol: CloudEvents' framing (the family's one shape), an event with only the attributes that
    framing names (no key mapper, no extensions)."""
    definition = yaml.safe_load((REPO / "protocol-definitions" / "cloudevents.yaml").read_text(encoding="utf-8"))
    framing = definition["framing"]
    framing["key"].pop("mappers", None)
    content_type = framing["payload"]["content_type_attribute"]
    framing["binary"]["attribute_headers"] = {content_type: framing["detection"]["header"]}
    small = {
        "protocol": "tinykafka",
        "title": "Tiny events in Kafka records",
        "family": "kafka",
        "versions": ["1"],
        "directions": [{"name": "record"}],
        "framing": framing,
        "messages": [
            {
                "name": "Event",
                "directions": ["record"],
                "fields": [
                    {"name": "id", "type": "string"},
                    {"name": content_type, "type": "media_type", "optional": True},
                    {"name": framing["payload"]["field"], "type": "payload", "optional": True, "nullable": True},
                ],
            }
        ],
    }
    return yaml.safe_dump(small, sort_keys=False)


def fake_venv(root: Path) -> Path:
    """``root/.venv/bin/python``: this interpreter, except that pip and the kclpy installer are only logged."""
    log = root / ".venv" / "setup.log"
    python = root / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(
        textwrap.dedent(
            f"""\
            #!/bin/sh
            case "$1 $2" in "-m pip") echo "$*" >> "{log}"; exit 0 ;; esac
            case "$1" in *install_kclpy.py) echo "$*" >> "{log}"; exit 0 ;; esac
            exec "{sys.executable}" "$@"
            """
        ),
        encoding="utf-8",
    )
    python.chmod(0o755)
    return log


def run(cwd: Path, *command: str, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository with a prose change to Storm, a tiny protocol of each family, ``./dev generate``
    run once."""
    root = tmp_path_factory.mktemp("newcomer") / "repo"
    shutil.copytree(REPO, root, ignore=NOT_COPIED, symlinks=True)
    (root / "setup.log").write_text("", encoding="utf-8")
    storm = root / "protocol-definitions" / "storm.yaml"
    text = storm.read_text(encoding="utf-8")
    assert "The JSON protocol between" in text
    storm.write_text(text.replace("The JSON protocol between", f"The JSON protocol {EDIT} between"), encoding="utf-8")
    for name, definition in TINY.items():
        (root / "protocol-definitions" / f"{name}.yaml").write_text(textwrap.dedent(definition), encoding="utf-8")
    (root / "protocol-definitions" / "tinykafka.yaml").write_text(tiny_kafka(), encoding="utf-8")
    fake_venv(root)
    result = run(root, "./dev", "generate", "-q")
    assert result.returncode == 0, result.stdout + result.stderr
    return root


NEW = [*TINY, "tinykafka"]
EDIT = "(edited by the newcomer test)"


def test_dev_generate_brings_every_target_up_to_date(tree: Path) -> None:
    for language in ("py", "md"):
        result = run(tree, sys.executable, "generator.py", "-l", language, "--check")
        assert result.returncode == 0, f"-l {language}: " + result.stdout + result.stderr
    assert EDIT in (tree / "output" / "md" / "storm.md").read_text(encoding="utf-8")
    for name in NEW:
        assert (tree / "output" / "md" / f"{name}.md").is_file()
        assert (tree / "output" / "py" / "streamcodecs" / name / "__init__.py").is_file()


def test_setup_installs_the_generated_package_editable(tree: Path) -> None:
    setup = (tree / ".venv" / "setup.log").read_text(encoding="utf-8").splitlines()
    editable = [line for line in setup if "install" in line and "--editable" in line.split()]
    assert editable, setup
    assert editable[0].split()[-1] in ("./output/py", "output/py"), editable


def test_the_new_protocols_pass_their_compatibility_tests(tree: Path) -> None:
    package = tree / "output" / "py"
    for name in NEW:
        if name != "tinykafka" or (package / "vectors" / name).is_dir():
            assert (package / "tests" / f"test_compat_{name}.py").is_file(), name
    result = run(package, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_the_generated_package_is_ruff_clean_and_imports(tree: Path) -> None:
    package = tree / "output" / "py"
    config = str(package / "pyproject.toml")
    for command in (["check"], ["format", "--check"]):
        result = run(package, sys.executable, "-m", "ruff", *command, "--no-cache", "--config", config, ".")
        assert result.returncode == 0, result.stdout + result.stderr
    modules = [f"streamcodecs.{name}" for name in NEW] + [f"streamcodecs.spark.{name}" for name in NEW]
    probe = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    result = run(package, sys.executable, "-c", probe, *modules)
    assert result.returncode == 0, result.stderr


def test_a_direction_of_one_message_still_requires_its_tag(tree: Path) -> None:
    probe = textwrap.dedent(
        """\
        from streamcodecs import tinylines
        assert tinylines.decode(b'{"op":"tell"}\\n') == tinylines.Tell()
        for line in (b'{}\\n', b'{"n":1}\\n', b'{"op":"ask","n":1}\\n'):
            try:
                tinylines.decode(line, direction="down")
            except tinylines.DecodeError:
                continue
            raise AssertionError(line)
        """
    )
    result = run(tree / "output" / "py", sys.executable, "-c", probe)
    assert result.returncode == 0, result.stderr


def test_inspect_on_the_new_protocols(tree: Path) -> None:
    # The project's own inspect tests, run in the copy: they parametrize over every protocol there.
    pytest_args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_inspect.py", "-k", " or ".join(NEW)]
    result = run(tree, sys.executable, *pytest_args)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert " passed" in result.stdout


def test_the_docs_check_on_the_new_protocols(tree: Path) -> None:
    tests = [
        "test_every_message_field_type_and_enum_is_documented",
        "test_version_history_lists_what_each_version_added",
        "test_examples_are_the_vectors",
        "test_committed_docs_are_current",
    ]
    selected = [f"tests/test_docs.py::{name}" for name in tests]
    result = run(tree, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *selected)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert f"{len(tests)} passed" in result.stdout
