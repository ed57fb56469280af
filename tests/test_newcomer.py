"""The newcomer's path (issue 21): on a copy of the repository, edit the YAML and run ``./dev generate``, and
everything the tests check is current; a protocol of each wire family added by YAML alone generates code that
passes its compatibility tests, ruff, ``inspect`` and the docs check.

``./dev`` runs here with a stand-in ``.venv/bin/python``: it runs this interpreter, but records pip and the kclpy
installer instead of running them, so the copy's set-up never installs anything into the real environment (and
the test shows what the set-up would install).
"""

from __future__ import annotations

import datetime
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    "spark-warehouse",
    "results",
    "build",  # what .gitignore keeps out of a clone and a pip install of output/py leaves behind
    "*.egg-info",
)

# The smallest protocols the schema allows, one per wire family (json in both framings), each with fewer messages
# in a direction than the tests that sample vectors used to assume.
TINY = {
    # JSON lines, one tagged message per direction, and a MessagePack variant.
    "tinylines": """
        protocol: tinylines
        title: Tiny JSON-lines protocol
        family: json
        versions: ["1"]
        directions:
          - {name: up}
          - {name: down}
        framing:
          delimiter: line
          tag_key: op
          variants: [{name: msgpack, encoding: msgpack, doc: The same messages as MessagePack values.}]
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


def test_the_new_protocols_get_their_sql_functions_without_code(tree: Path) -> None:
    """Each new protocol with a Java target has its Spark SQL functions, registered by the jar's provider."""
    java = tree / "output" / "java" / "src" / "streamcodecs"
    provider = (java / "SqlExtensions.java").read_text(encoding="utf-8")
    with_java = [name for name in NEW if (java / name).is_dir()]
    assert len(with_java) >= len(TINY), with_java  # the binary and JSON ones at least
    jar = tree / "output" / "py" / "streamcodecs" / "spark" / "streamcodecs-spark.jar"
    with zipfile.ZipFile(jar) as z:
        classes = set(z.namelist())
    for name in with_java:
        assert f'"{name}_decode"' in (java / name / "Sql.java").read_text(encoding="utf-8")
        assert f"streamcodecs.{name}.Sql.inject(extensions);" in provider
        assert f"streamcodecs/{name}/Sql.class" in classes


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
        import msgspec
        for value in ({}, {"n": 1}, {"op": "ask", "n": 1}):  # the same in MessagePack, one value and a run of them
            packed = msgspec.msgpack.encode(value)
            for decode in (
                lambda: tinylines.decode(packed, direction="down", serializer="msgpack"),
                lambda: tinylines.Reader(direction="down", serializer="msgpack").feed(packed * 3),
            ):
                try:
                    decode()
                except tinylines.DecodeError:
                    continue
                raise AssertionError(value)
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


# --- a missing dependency is an environment problem (exit 2, one line), not a template bug ----------------------


def test_a_python_without_the_dependencies_gets_one_line_and_exit_2(tmp_path: Path) -> None:
    # -S: this interpreter without site-packages, i.e. without PyYAML, Jinja2, jsonschema and ruff.
    result = run(REPO, sys.executable, "-S", "generator.py", "-r", str(tmp_path / "out"))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "./dev generate" in lines[0] and "pip install -r requirements.txt" in lines[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("module", ["ruff", "msgspec"])
def test_a_missing_module_is_one_line_and_exit_2_not_a_template_bug(tmp_path: Path, module: str) -> None:
    # ruff formats the output (its failure is not a template bug); the analysis imports msgspec (a Python without
    # it, such as a system python3 with PyYAML, Jinja2 and jsonschema only, got a traceback and exit 1).
    out = tmp_path / "out"
    hide = (
        "import runpy, sys\n"
        f"sys.modules[{module!r}] = None  # as if it were not installed\n"
        f"sys.argv = ['generator.py', '-q', '-r', {str(out)!r}]\n"
        "runpy.run_path('generator.py', run_name='__main__')\n"
    )
    result = run(REPO, sys.executable, "-c", hide)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "template bug" not in result.stderr
    assert result.stderr.strip().count("\n") == 0 and f"needs {module} (module {module!r})" in result.stderr
    assert not out.exists()


def test_every_third_party_module_the_generator_imports_is_a_named_requirement() -> None:
    """A module missing from REQUIREMENTS gives a traceback where the README promises one line (as msgspec did)."""
    from test_py_package import imported_modules

    from streamcodecs_gen.environment import REQUIREMENTS

    # The package's runtime and its tests' support (py_package, py_tests) are copied into the output: they are not
    # the generator's own code.
    copied = {"py_package", "py_tests"}
    sources = [p for p in (REPO / "streamcodecs_gen").rglob("*.py") if not copied & set(p.parts)]
    imported = {
        top: str(path.relative_to(REPO)) for top, path in imported_modules(sources).items() if top != "streamcodecs_gen"
    }
    assert {"yaml", "jinja2", "jsonschema", "msgspec"} <= set(imported), imported  # the scan sees them
    missing = {top: where for top, where in imported.items() if top not in REQUIREMENTS}
    assert not missing, f"imported by the generator but not in environment.REQUIREMENTS: {missing}"
    requirements = (REPO / "requirements.txt").read_text(encoding="utf-8").lower()
    for distribution in REQUIREMENTS.values():
        assert f"{distribution.lower()}==" in requirements, distribution


def test_a_real_lint_failure_is_still_a_template_bug() -> None:
    from pathlib import PurePosixPath

    from streamcodecs_gen.render import OutputFile, format_python

    with pytest.raises(RuntimeError, match="template bug"):
        format_python([OutputFile(None, PurePosixPath("broken.py"), "def broken(:\n")])


# --- one YAML syntax error does not hide the other files' problems ---------------------------------------------------


def test_a_yaml_syntax_error_does_not_hide_other_files_problems(tmp_path: Path) -> None:
    defs = tmp_path / "defs"
    shutil.copytree(REPO / "protocol-definitions", defs)
    kcl = defs / "kcl.yaml"
    kcl.write_text(kcl.read_text(encoding="utf-8") + "messages: [\n  broken: {\n", encoding="utf-8")
    storm = defs / "storm.yaml"
    storm.write_text(storm.read_text(encoding="utf-8").replace("\nfamily: json", "\nfamily: jsn", 1), encoding="utf-8")
    result = run(REPO, sys.executable, "generator.py", "-p", str(defs), "-r", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "kcl.yaml" in result.stderr and "YAML error" in result.stderr
    assert "storm.yaml" in result.stderr and '"jsn"' in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def test_an_unreadable_custom_type_file_leaves_the_protocols_schema_checked(tmp_path: Path) -> None:
    from streamcodecs_gen.pipeline import load_protocols
    from streamcodecs_gen.problems import DefinitionError

    defs = tmp_path / "defs"
    shutil.copytree(REPO / "tests" / "fixtures" / "defs", defs)
    custom = next((defs / "custom").glob("*.yaml"))
    custom.write_text("customTypes: [\n", encoding="utf-8")
    fixture = defs / "fixture.yaml"
    fixture.write_text(fixture.read_text(encoding="utf-8").replace("family: binary", "family: binry"), encoding="utf-8")
    with pytest.raises(DefinitionError) as caught:
        load_protocols(defs, tmp_path)
    files = {p.file for p in caught.value.problems}
    assert files == {f"defs/custom/{custom.name}", "defs/fixture.yaml"}, caught.value.problems


# --- a decode error without a direction names the real problem -------------------------------------------------------


def test_decode_without_a_direction_reports_the_error_of_the_tags_direction() -> None:
    from streamcodecs import kcl, storm

    line = b'{"action":"status","responseFor":5}\n'
    for decode in (kcl.decode, lambda data: kcl.Reader().feed(data)):
        with pytest.raises(kcl.DecodeError) as caught:
            decode(line)
        assert caught.value.field == "responseFor", caught.value
        assert "status" not in caught.value.reason
    with pytest.raises(kcl.DecodeError) as caught:
        kcl.decode(line, direction="to_daemon")
    assert caught.value.field == "responseFor"
    with pytest.raises(kcl.DecodeError) as caught:  # a tag no direction has is still the tag's problem
        kcl.decode(b'{"action":"nonsense"}\n')
    assert caught.value.field == "action"
    # Storm: a tag of one direction, and a shape of one direction.
    for frame, field in ((b'{"command":"emit","tuple":5}\nend\n', "tuple"), (b'{"pid":"x"}\nend\n', "pid")):
        with pytest.raises(storm.DecodeError) as caught:
            storm.decode(frame)
        assert caught.value.field == field, caught.value


@pytest.mark.parametrize(
    ("protocol", "data", "field"),
    [("kcl", b'{"action":"status","responseFor":5}\n', "responseFor"), ("storm", b'{"pid":"x"}\nend\n', "pid")],
)
def test_inspect_without_a_direction_names_the_real_field(protocol: str, data: bytes, field: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "output" / "py")}
    result = subprocess.run(
        [sys.executable, "-m", "streamcodecs", "inspect", "-p", protocol],
        input=data,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    (item,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert item["field"] == field, item


# --- to_dict gives plain values only, and the README names every type it gives -------------------------------------

README = (REPO / "README.md").read_text(encoding="utf-8")
PLAIN_NAMES = {
    bytes: "bytes",
    uuid.UUID: "`uuid.UUID`",
    datetime.datetime: "`datetime.datetime`",
    str: "str",
    int: "int",
    float: "float",
    bool: "bool",
    list: "list",
    dict: "dict",
    type(None): "None",
}


def _types_in(value: Any, found: set[type]) -> None:
    found.add(type(value))
    if isinstance(value, dict):
        for key, item in value.items():
            assert type(key) is str, key
            _types_in(item, found)
    elif isinstance(value, list):
        for item in value:
            _types_in(item, found)


def _vector_messages() -> Iterator[tuple[str, Any]]:
    vectors = REPO / "output" / "py" / "vectors"
    for manifest_path in sorted(vectors.glob("*/*/manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        blob = (manifest_path.parent / manifest["file"]).read_bytes()
        module = importlib.import_module(f"streamcodecs.{manifest['protocol']}")
        for entry in manifest["vectors"]:
            frame = blob[entry["offset"] : entry["offset"] + entry["length"]]
            where = f"{manifest['protocol']} {manifest['version']} {entry['message']} ({entry['variant']})"
            yield where, module.decode(frame, direction=entry.get("direction"))


def test_to_dict_gives_plain_values_for_every_vector_and_the_readme_names_them() -> None:
    from streamcodecs import kcl

    built = [("kcl CheckpointReply(error=None)", kcl.CheckpointReply(error=None))]
    found: set[type] = set()
    checked = 0
    for where, message in [*built, *_vector_messages()]:
        plain = message.to_dict()
        types: set[type] = set()
        _types_in(plain, types)
        assert types <= set(PLAIN_NAMES), f"{where}: {types - set(PLAIN_NAMES)} in {plain}"
        assert type(message).from_dict(plain) == message, where
        found |= types
        checked += 1
    assert checked > 100
    assert "checkpoint" not in kcl.CheckpointReply(error=None).to_dict()
    assert kcl.CheckpointReply(error=None, checkpoint="7").to_dict()["checkpoint"] == "7"
    contract = next(line for line in README.split("\n- ") if "`to_dict()` returns plain values" in line)
    listed = re.search(r"plain values \(([^)]*)\)", " ".join(contract.split())).group(1).split(", ")
    assert {PLAIN_NAMES[t] for t in found} <= set(listed), listed
    assert datetime.datetime in found  # CloudEvents time


# --- the example does not delete a directory it did not write -------------------------------------------------------


def _output_dir_module() -> Any:
    spec = importlib.util.spec_from_file_location("example_output_dir", REPO / "examples" / "output_dir.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("example", ["pipeline.py", "streaming.py"])
def test_the_examples_refuse_a_directory_they_did_not_write(tmp_path: Path, example: str) -> None:
    precious = tmp_path / "data" / "precious.txt"
    precious.parent.mkdir()
    precious.write_text("a user's file", encoding="utf-8")
    result = run(REPO, sys.executable, f"examples/{example}", "--out", str(precious.parent), timeout=120)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "not empty" in result.stderr and "nothing was deleted" in result.stderr
    assert precious.read_text(encoding="utf-8") == "a user's file"
    assert sorted(p.name for p in precious.parent.iterdir()) == ["precious.txt"]


@pytest.mark.parametrize(("example", "flag"), [("pipeline.py", "--repeat"), ("streaming.py", "--files")])
def test_the_examples_refuse_a_count_below_one_before_any_work(tmp_path: Path, example: str, flag: str) -> None:
    """``--files 0`` made the output directory, then divided by zero; ``--repeat 0`` ran Spark to write nothing."""
    out = tmp_path / "out"
    for value in ("0", "-1"):
        result = run(REPO, sys.executable, f"examples/{example}", flag, value, "--out", str(out), timeout=120)
        assert result.returncode == 2, result.stdout + result.stderr
        assert f"argument {flag}: {value} is less than 1" in result.stderr and "Traceback" not in result.stderr
        assert not out.exists()


def test_a_marked_output_has_only_the_examples_outputs_replaced(tmp_path: Path) -> None:
    output_dir = _output_dir_module()
    out = tmp_path / "out"
    output_dir.prepare_output(out, "pipeline", ["orders", "totals"])  # new: created and marked
    (out / "orders").mkdir()
    (out / "orders" / "part-0.parquet").write_bytes(b"old")
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    output_dir.prepare_output(out, "pipeline", ["orders", "totals"])
    assert not (out / "orders").exists()
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    with pytest.raises(output_dir.OutputRefused):
        output_dir.prepare_output(out / "notes.txt", "pipeline", ["orders"])
    first, second = output_dir.new_output("pipeline"), output_dir.new_output("pipeline")
    try:
        assert first != second and not any(first.iterdir())  # a new directory per run, never a shared fixed one
    finally:
        first.rmdir()
        second.rmdir()
