"""The generator end to end: fixture protocols through generated code, determinism, the CLI's flags, safe writes."""

from __future__ import annotations

import datetime
import importlib
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "defs"
PYTHON = sys.executable


def generate(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, str(REPO / "generator.py"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def fixture_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The fixture protocols generated under their own namespace, importable for the duration of the module."""
    root = tmp_path_factory.mktemp("fixture-out")
    result = generate("-p", str(FIXTURES), "-r", str(root), "-n", "fixturecodecs", "--no-binary", "-q")
    assert result.returncode == 0, result.stderr
    sys.path.insert(0, str(root))
    yield root
    sys.path.remove(str(root))
    for name in [m for m in sys.modules if m.split(".")[0] == "fixturecodecs"]:
        del sys.modules[name]


def load(name: str) -> ModuleType:
    return importlib.import_module(f"fixturecodecs.{name}")


def test_binary_fixture_round_trips_every_type(fixture_package: Path) -> None:
    f = load("fixture")
    message = f.Everything(
        flag=True,
        tiny=-3,
        small=300,
        medium=-70000,
        large=2**40,
        single=0.5,
        double=1.25,
        id=uuid.UUID(int=7),
        color=f.Color.BLUE,
        open_value=77,
        text="héllo😀",
        java_text="a\x00😀é",
        blob=b"\x00\x01",
        numbers=[1, -2],
        names=["x", "\x00"],
        keys=[f.Key(data=b"k", version=5), f.Key(data=b"")],
        pairs=[f.Pair(source="s", offset=9)],
        inline=f.Inline(payload=b"abc"),
        tail=b"TAIL",
    )
    frame = f.encode(message)
    assert f.decode(frame) == message
    assert f.Everything.from_dict(message.to_dict()) == message
    # Modified UTF-8: NUL as C0 80 and the emoji as two 3-byte surrogates.
    assert bytes.fromhex("000b61c080eda0bdedb880c3a9") in frame
    # An empty key's version is absent, but its size prefix counts it (4 + 0 + 8).
    assert bytes.fromhex("0000000c00000000") in frame
    reader = f.Reader()
    decoded = [m for i in range(len(frame)) for m in reader.feed(frame[i : i + 1])]
    assert decoded == [message]


def test_binary_fixture_fills_defaults_for_older_peers(fixture_package: Path) -> None:
    f = load("fixture")
    v1 = bytes.fromhex("00000002000000080000000000000007")
    assert f.decode(v1) == f.Evolving(request_id=7, trace="", offset=-1, code=f.Code.UNSPECIFIED)
    v2 = bytes.fromhex("000000020000000d00000000000000070003616263")
    assert f.decode(v2).trace == "abc"
    newer = f.encode(f.Evolving(request_id=1, trace="t", offset=5, code=f.Code.BAD))
    grown = newer[:4] + (int.from_bytes(newer[4:8], "big") + 3).to_bytes(4, "big") + newer[8:] + b"xyz"
    assert f.decode(grown) == f.decode(newer), "unknown trailing bytes of a newer peer are skipped"
    unknown_code = f.encode(f.Evolving(request_id=1))[:-4] + (12345).to_bytes(4, "big")
    assert f.decode(unknown_code).code is f.Code.UNSPECIFIED, "unknown: UNSPECIFIED"


@pytest.mark.parametrize("cut", range(0, 40))
def test_binary_fixture_truncation_is_a_decode_error(fixture_package: Path, cut: int) -> None:
    f = load("fixture")
    frame = f.encode(f.Evolving(request_id=1, trace="trace", offset=5, code=f.Code.BAD))
    broken = frame[:cut] if cut < len(frame) else frame + b"\x00"
    header_len = int.from_bytes(frame[4:8], "big")
    if cut >= 8:  # keep the header consistent so the payload reader itself meets the short data
        broken = frame[:4] + (cut - 8).to_bytes(4, "big") + frame[8:cut]
    try:
        decoded = f.decode(broken)
    except f.DecodeError as exc:
        assert exc.offset is not None
    else:  # a shorter payload reads as an older layout: every field is either what was sent or its default
        assert decoded.request_id == 1
        assert decoded.trace in ("trace", "")
        assert decoded.offset in (5, -1)
        assert decoded.code in (f.Code.BAD, f.Code.UNSPECIFIED)
        if cut - 8 >= header_len:
            assert decoded == f.decode(frame)


def test_json_fixture_round_trips_and_validates(fixture_package: Path) -> None:
    j = load("jfixture")
    emit = j.Emit(
        values=[1, "a", None],
        stream="s",
        anchors=["x"],
        need_ids=False,
        level=j.Level.HIGH,
        items=[j.Item(data=b"\x00\xff", kind=j.Kind.ALL)],
        when=datetime.datetime(2020, 1, 2, tzinfo=datetime.UTC),
        id=uuid.UUID(int=5),
        ratio=0.25,
        small=-8,
    )
    frame = j.encode(emit)
    assert frame.endswith(b"\nend\n")
    assert j.decode(frame, direction="up") == emit
    assert j.Emit.from_dict(emit.to_dict()) == emit
    assert b'"needIds":false' in frame and b'"action":"item"' in frame
    minimal = j.decode(b'{"command":"emit","tuple":[],"anchors":"one"}\nend\n')
    assert minimal.anchors == ["one"] and minimal.need_ids is True and minimal.stream is None
    assert b"stream" not in j.encode(minimal), "optional fields are omitted when absent"
    assert b'"needIds":true' in j.encode(minimal), "a defaulted field is still written"
    assert j.encode(j.Ack(id="\x1f")) == b'{"command":"ack","id":"\\u001F"}\nend\n'


def test_json_fixture_writes_a_time_beyond_18_hours_as_the_java_codec_writes_it(fixture_package: Path) -> None:
    """The JSON family's timestamp field, as CloudEvents' time (tests/test_cloudevents_codec.py BEYOND_18): an
    offset beyond 18:00, decoded or built, is written at UTC or at the offset nearest UTC that keeps it in the years,
    as the Java codec writes it (msgspec wrote '+20:00', Java 'Z'); MessagePack writes the instant either way."""
    from test_cloudevents_codec import BEYOND_18

    j = load("jfixture")
    for text, written in BEYOND_18:
        frame = b'{"command":"emit","tuple":[],"when":"' + text.encode() + b'"}\nend\n'
        decoded = j.decode(frame, direction="up")
        built = j.Emit(values=[], when=datetime.datetime.fromisoformat(text))
        for emit in (decoded, built):
            assert json.loads(j.encode(emit).split(b"\n")[0])["when"] == written, text
            assert emit.when == datetime.datetime.fromisoformat(text)  # the value itself is left as it is
        inner = j.Item(data=None, kind=j.Kind.ALL)
        assert j.encode(j.Emit(values=[], items=[inner], when=built.when)) == j.encode(
            j.Emit(values=[], items=[inner], when=datetime.datetime.fromisoformat(written))
        )


def test_json_fixture_reader_handles_shapes_blank_lines_and_bad_messages(fixture_package: Path) -> None:
    j = load("jfixture")
    stream = (
        b'{"conf": {"a": 1},\n "pidDir": "/tmp"}\nend\n\n[1, 2]\nend\n'
        b'{"id":"7","stream":"__beat"}\nend\n{bad}\nend\n{"command":"ack","id":"9"}\nend\n'
    )
    reader = j.Reader()
    decoded, errors = [], []
    for i in range(len(stream)):
        try:
            decoded += reader.feed(stream[i : i + 1])
        except j.DecodeError as exc:
            errors.append(exc)
            decoded += exc.decoded
    assert [(e.line, "malformed JSON" in str(e)) for e in errors] == [(9, True)]
    assert decoded[-1] == j.Ack(id="9"), "the reader goes on after the bad message"
    assert len(decoded) == 4
    whole = j.Reader().feed(stream.replace(b"{bad}\nend\n", b""))
    assert [type(m).__name__ for m in whole] == ["Setup", "Ids", "Beat", "Ack"]
    assert whole[0].task_component == {}, "a field added later takes its default"
    for bad, words in [
        (b'{"command":"emit"}', "tuple"),
        (b'{"command":"nope"}', "no message"),
        (b'["x"]', "ids[0]"),
        (b'{"command":"emit","tuple":[],"small":300}', "small"),
        (b'{"command":"emit","tuple":[],"items":[{"data":"!!","kind":"ALL"}]}', "items[0].data"),
    ]:
        with pytest.raises(j.DecodeError) as info:
            j.decode(bad + b"\nend\n")
        assert words in str(info.value)
    with pytest.raises(j.DecodeError):
        j.Reader(max_message=64).feed(b"[" + b"1," * 100 + b"1]\nend\n")


def test_generated_code_is_ruff_clean(fixture_package: Path) -> None:
    for command in (["check"], ["format", "--check"]):
        result = subprocess.run(
            [PYTHON, "-m", "ruff", *command, "--config", str(fixture_package / "pyproject.toml"), str(fixture_package)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_output_is_deterministic_across_runs_and_hash_seeds(tmp_path: Path) -> None:
    trees = []
    for seed in ("0", "1"):
        root = tmp_path / f"run{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = generate("-p", str(FIXTURES), "-r", str(root), "-q", env=env)
        assert result.returncode == 0, result.stderr
        trees.append(tree(root))
    assert trees[0] == trees[1]
    for name, content in trees[0].items():
        assert name.endswith(".jar") or b"\r\n" not in content, name  # a jar's compressed bytes may hold any pair
        assert str(REPO).encode() not in content and str(tmp_path).encode() not in content, name


def test_flags_namespace_output_dir_and_no_binary(tmp_path: Path) -> None:
    root = tmp_path / "out"
    result = generate("-p", str(FIXTURES), "-r", str(root), "-n", "acme.codecs", "-o", "src", "--no-binary", "-q")
    assert result.returncode == 0, result.stderr
    assert (root / "src" / "acme" / "codecs" / "fixture" / "messages.py").is_file()
    assert 'where = ["src"]' in (root / "pyproject.toml").read_text()
    assert 'name = "acme.codecs"' in (root / "pyproject.toml").read_text()
    assert not (root / "vectors").exists() and not (root / "tests").exists()


def test_flags_binary_and_test_dirs(tmp_path: Path) -> None:
    root = tmp_path / "out"
    result = generate("-p", str(FIXTURES), "-r", str(root), "-b", "data/vec", "-t", "checks", "-q")
    assert result.returncode == 0, result.stderr
    assert (root / "data" / "vec" / "fixture" / "1" / "manifest.json").is_file()
    test_file = root / "checks" / "test_compat_fixture.py"
    assert '"../data/vec"' in test_file.read_text()
    _generated_tests_pass(root, "checks")


def test_compat_tests_run_with_plain_pytest_when_the_package_is_under_an_output_dir(tmp_path: Path) -> None:
    # The README: the generated tests are "runnable there with plain pytest"; with -o the package is not beside them.
    root = tmp_path / "out"
    result = generate("-p", str(FIXTURES), "-r", str(root), "-n", "acme.codecs", "-o", "src", "-q")
    assert result.returncode == 0, result.stderr
    _generated_tests_pass(root, "tests")


def _generated_tests_pass(root: Path, tests: str) -> None:
    """The generated compatibility tests in ``root``'s directory ``tests`` pass, run there with plain pytest."""
    ran = subprocess.run(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", tests],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout[-1500:]


def test_unknown_language_is_rejected_with_the_supported_ones(tmp_path: Path) -> None:
    result = generate("-l", "cobol", "-p", str(FIXTURES), "-r", str(tmp_path))
    assert result.returncode == 2
    assert "cobol" in result.stderr and "py" in result.stderr
    assert not any(tmp_path.iterdir())
    # The list is plain names, each one a value -l accepts (scripts read it to run every target).
    names = result.stderr.strip().split("supported: ", 1)[1].split(", ")
    assert {"py", "md", "all"} <= set(names)
    for name in names:
        assert generate("-l", name, "--check", "-q").returncode == 0, name


def test_nothing_is_written_when_a_definition_is_broken(tmp_path: Path) -> None:
    defs = tmp_path / "defs"
    defs.mkdir()
    (defs / "bad.yaml").write_text((FIXTURES / "fixture.yaml").read_text().replace("type: uuid}", "type: uuidd}"))
    root = tmp_path / "out"
    result = generate("-p", str(defs), "-r", str(root))
    assert result.returncode == 2
    assert "defs/bad.yaml:" in result.stderr and "did you mean 'uuid'" in result.stderr
    assert not root.exists()


def test_problems_name_files_as_given_or_relative_to_the_working_directory(tmp_path: Path) -> None:
    # They were relative to the definitions' parent (`defs/bad.yaml` from anywhere), which opens from nowhere else.
    defs = tmp_path / "work" / "defs"
    defs.mkdir(parents=True)
    (defs / "bad.yaml").write_text((FIXTURES / "fixture.yaml").read_text().replace("type: uuid}", "type: uuidd}"))
    below = generate("-p", "defs", "-r", str(tmp_path / "out"), cwd=tmp_path / "work")
    elsewhere = generate("-p", str(defs), "-r", str(tmp_path / "out"))
    assert below.returncode == elsewhere.returncode == 2
    assert below.stderr.startswith("defs/bad.yaml:"), below.stderr
    assert elsewhere.stderr.startswith(f"{defs / 'bad.yaml'}:"), elsewhere.stderr
    assert below.stderr.split(":", 1)[1] == elsewhere.stderr.split(":", 1)[1]  # the same problems otherwise


def test_verbose_lists_every_file_with_what_happened_to_it(tmp_path: Path) -> None:
    root = tmp_path / "out"
    first = generate("-p", str(FIXTURES), "-r", str(root), "-v")
    again = generate("-p", str(FIXTURES), "-r", str(root), "-v")
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    written = [line.split()[1] for line in first.stdout.splitlines() if line.startswith("wrote ")]
    unchanged = [line.split()[1] for line in again.stdout.splitlines() if line.startswith("unchanged ")]
    assert written and sorted(written) == sorted(unchanged), (first.stdout, again.stdout)
    assert not any(line.startswith("wrote ") for line in again.stdout.splitlines())


def test_check_advises_the_command_that_writes_what_it_checked(tmp_path: Path) -> None:
    from streamcodecs_gen.cli import _regenerate, parser

    assert _regenerate(parser().parse_args([])) == "run ./dev generate"
    assert _regenerate(parser().parse_args(["-l", "all", "--protocol", "kcl"])) == "run ./dev generate"
    for own in (["-r", "x"], ["-p", "x"], ["-n", "other"], ["--no-binary"]):
        assert _regenerate(parser().parse_args(own)) == "run the same command without --check", own
    root = tmp_path / "out"
    assert generate("-p", str(FIXTURES), "-r", str(root), "-q").returncode == 0
    (root / "streamcodecs" / "fixture" / "messages.py").write_text("stale\n")
    check = generate("-p", str(FIXTURES), "-r", str(root), "--check")
    assert check.returncode == 1
    assert "1 file(s) differ from the definitions; run the same command without --check" in check.stderr
    assert "./dev generate" not in check.stderr  # it would write the project's output/, not this root


def test_stale_files_go_foreign_files_stay_and_paths_stay_inside(tmp_path: Path) -> None:
    root = tmp_path / "out"
    assert generate("-p", str(FIXTURES), "-r", str(root), "-q").returncode == 0
    foreign = root / "NOTES.txt"
    foreign.write_text("mine")
    stale = root / "streamcodecs" / "gone" / "messages.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("# old")
    manifest = root / ".streamcodecs-manifest"
    manifest.write_text(manifest.read_text() + "streamcodecs/gone/messages.py\n../escape.txt\n")
    (tmp_path / "escape.txt").write_text("outside")
    check = generate("-p", str(FIXTURES), "-r", str(root), "--check")
    assert check.returncode == 1 and "stale" in check.stdout
    assert generate("-p", str(FIXTURES), "-r", str(root), "-q").returncode == 0
    assert not stale.exists() and not stale.parent.exists()
    assert foreign.read_text() == "mine"
    assert (tmp_path / "escape.txt").read_text() == "outside", "a manifest entry outside the root is never deleted"
    assert generate("-p", str(FIXTURES), "-r", str(root), "--check").returncode == 0
    for flag in ("-o", "-b", "-t"):
        result = generate("-p", str(FIXTURES), "-r", str(root), flag, "../elsewhere")
        assert result.returncode == 2 and "inside the root" in result.stderr


def test_check_reports_every_changed_file_and_writes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "out"
    assert generate("-p", str(FIXTURES), "-r", str(root), "-q").returncode == 0
    target = root / "streamcodecs" / "fixture" / "messages.py"
    target.write_text(target.read_text() + "# edited\n")
    (root / "streamcodecs" / "jfixture" / "__init__.py").unlink()
    before = tree(root)
    result = generate("-p", str(FIXTURES), "-r", str(root), "--check")
    assert result.returncode == 1
    assert "differs" in result.stdout and "fixture/messages.py" in result.stdout
    assert "missing" in result.stdout and "jfixture/__init__.py" in result.stdout
    assert tree(root) == before


def test_check_names_files_as_the_problems_do_relative_to_where_it_runs(tmp_path: Path) -> None:
    """``--check`` said "differs: /.../out/..." where a problem says "defs/demo.yaml:3": a file below the working
    directory is named relative to it (outside it, absolute, as a problem's file is)."""
    root = tmp_path / "out"
    assert generate("-p", str(FIXTURES), "-r", str(root), "-q").returncode == 0
    target = root / "streamcodecs" / "fixture" / "messages.py"
    target.write_text(target.read_text() + "# edited\n")
    (root / "streamcodecs" / "jfixture" / "__init__.py").unlink()
    result = generate("-p", str(FIXTURES), "-r", str(root), "--check", cwd=tmp_path)
    assert result.returncode == 1
    assert sorted(result.stdout.splitlines()) == [
        "differs: out/streamcodecs/fixture/messages.py",
        "missing: out/streamcodecs/jfixture/__init__.py",
    ], result.stdout
    assert str(tmp_path) not in result.stdout + result.stderr
    elsewhere = generate("-p", str(FIXTURES), "-r", str(root), "--check", cwd=REPO)  # outside it: absolute
    assert f"differs: {target}" in elsewhere.stdout, elsewhere.stdout


def test_committed_output_is_current() -> None:
    result = generate("--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_project_sources_are_ruff_clean() -> None:
    """The generator, tests, benchmarks and tools are held to the same standard as the code they generate."""
    for command in (["check"], ["format", "--check"]):
        result = subprocess.run(
            [PYTHON, "-m", "ruff", *command, str(REPO)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd=REPO,
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr


def test_committed_generated_package_is_ruff_clean() -> None:
    package = REPO / "output" / "py"
    for command in (["check"], ["format", "--check"]):
        result = subprocess.run(
            [PYTHON, "-m", "ruff", *command, "--config", str(package / "pyproject.toml"), str(package)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr


def test_protocol_flag_writes_only_that_protocol_and_keeps_the_others(tmp_path: Path) -> None:
    root = tmp_path / "out"
    assert generate("-p", str(FIXTURES), "-r", str(root), "-q").returncode == 0
    other = root / "streamcodecs" / "jfixture" / "messages.py"
    mine = root / "streamcodecs" / "fixture" / "messages.py"
    other.write_text(other.read_text() + "# hand edit\n")
    mine.write_text(mine.read_text() + "# hand edit\n")
    check = generate("-p", str(FIXTURES), "-r", str(root), "--check", "--protocol", "fixture")
    assert check.returncode == 1 and "fixture/messages.py" in check.stdout and "jfixture" not in check.stdout
    assert generate("-p", str(FIXTURES), "-r", str(root), "-q", "--protocol", "fixture").returncode == 0
    assert not mine.read_text().endswith("# hand edit\n"), "the selected protocol is regenerated"
    assert other.read_text().endswith("# hand edit\n"), "another protocol's files are left as they are"
    assert (root / "streamcodecs" / "jfixture" / "__init__.py").is_file(), "nor are they removed as stale"
    unknown = generate("-p", str(FIXTURES), "-r", str(root), "--protocol", "nope")
    assert unknown.returncode == 2
    assert f"{FIXTURES.name}: --protocol 'nope': no protocol of that name is defined here" in unknown.stderr
    assert "pass one of: fixture, jfixture" in unknown.stderr and ":0:" not in unknown.stderr  # at no line


def test_files_streamcodecs_did_not_write_are_never_overwritten(tmp_path: Path) -> None:
    root = tmp_path / "out"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'mine'\n")
    result = generate("-p", str(FIXTURES), "-r", str(root), "--no-binary")
    assert result.returncode == 2 and "did not write" in result.stderr and "pyproject.toml" in result.stderr
    assert (root / "pyproject.toml").read_text() == "[project]\nname = 'mine'\n"
    assert sorted(p.name for p in root.iterdir()) == ["pyproject.toml"], "nothing else was written either"


def test_generated_java_keeps_only_the_imports_it_uses() -> None:
    from streamcodecs_gen.render import drop_unused_java_imports

    source = (
        "package p;\n\nimport java.util.List;\nimport java.util.Map;\nimport java.util.UUID;\nimport q.Messages.*;\n"
        "import static q.W.f;\nimport static q.W.g;\n\n"
        "final class C {\n    List<String> names = g(); // a Map in a comment keeps it\n}\n"
    )
    assert drop_unused_java_imports(source) == source.replace("import java.util.UUID;\n", "").replace(
        "import static q.W.f;\n", ""
    )
    sources = sorted((REPO / "output" / "java").rglob("*.java"))
    assert sources
    for path in sources:  # the generated sources, and the hand-written runtime copied among them
        text = path.read_text(encoding="utf-8")
        assert drop_unused_java_imports(text) == text, path


def test_no_two_java_templates_of_a_family_are_near_copies() -> None:
    """A Java source that differs from a sibling in a call or two is one template (or one shared macro) rendered
    under two class names, so a fix to one cannot miss the other: the JSON ``Decode``/``DecodePacked`` and
    ``Encode``/``EncodePacked`` UDFs and the ``ToKafkaBinary``/``ToKafkaStructured`` ones were copies once. Two
    templates of one family whose lines are mostly alike (70% or more, as difflib counts) fail here."""
    import difflib
    import itertools

    for family in sorted(p for p in (REPO / "templates" / "java").iterdir() if p.is_dir()):
        templates = {p.name: p.read_text(encoding="utf-8").splitlines() for p in sorted(family.glob("*.j2"))}
        assert templates, family
        for (a, lines_a), (b, lines_b) in itertools.combinations(templates.items(), 2):
            alike = difflib.SequenceMatcher(None, lines_a, lines_b, autojunk=False).ratio()
            assert alike < 0.7, f"templates/java/{family.name}: {a} and {b} are {alike:.0%} alike: make them one"


def test_java_records_and_enum_members_carry_the_docs_python_has() -> None:
    """The Java records had no field docs and the JSON family's enum members none, where the Python classes have
    them: each documented field is its record's ``@param`` (with the Python docstring's text: the same function
    gives both), each documented member its Javadoc."""
    from streamcodecs_gen.analysis import binary, json
    from streamcodecs_gen.families.binary import java_identifier
    from streamcodecs_gen.families.json import java_field_name
    from streamcodecs_gen.pipeline import load_protocols

    checked = 0
    for p in load_protocols(REPO / "protocol-definitions", REPO):
        if p.family not in ("json", "binary"):
            continue
        text = (REPO / "output" / "java" / "src" / "streamcodecs" / p.name / "Messages.java").read_text("utf-8")
        flat = " ".join(line.strip().removeprefix("*").strip() for line in text.splitlines())
        for owner in [*p.structs, *p.messages]:
            for f in owner.fields:
                doc = (json.field_doc if p.family == "json" else binary.field_doc)(f)
                name = java_field_name(f.py) if p.family == "json" else java_identifier(f.name)
                if doc:
                    words = " ".join(doc.split()[:6]).replace("@", "&#64;").replace("\\", "&#92;")
                    assert f"@param {name} {words}" in flat, (p.name, owner.name, f.name)
                    checked += 1
        for e in p.enums:
            for v in e.values:
                if v.doc:
                    assert " ".join(v.doc.split()[:6]) in flat, (p.name, e.name, v.name)
                    checked += 1
    assert checked > 100
