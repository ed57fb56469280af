"""Compatibility vectors, their generated tests, frozen released versions and the breaking-change check."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "defs"


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    root = tmp_path / "out"
    result = run("generator.py", "-p", str(FIXTURES), "-r", str(root), "-q")
    assert result.returncode == 0, result.stderr
    return root


def test_vectors_cover_every_version_message_and_variant(generated: Path) -> None:
    manifest = json.loads((generated / "vectors" / "fixture" / "1" / "manifest.json").read_text())
    names = {(v["message"], v["variant"]) for v in manifest["vectors"]}
    assert ("Everything", "full") in names and ("Everything", "one") in names and ("Everything", "empty") in names
    assert ("Evolving", "full") in names and not any(n == "Event" for n, _ in names), "inline-only messages excluded"
    every = [v for v in manifest["vectors"] if v["message"] == "Everything" and v["variant"] == "full"][0]
    assert len(every["fields"]["numbers"]) == 3
    scalars = [v for k, v in every["fields"].items() if k in ("tiny", "small", "medium", "large")]
    assert len(set(scalars)) == len(scalars), "each field carries a value of its own"
    v1 = json.loads((generated / "vectors" / "fixture" / "1" / "manifest.json").read_text())
    evolving_v1 = [v for v in v1["vectors"] if v["message"] == "Evolving"][0]
    assert set(evolving_v1["fields"]) == {"request_id"}, "version 1 frames carry only version-1 fields"
    blob = (generated / "vectors" / "fixture" / "1" / "vectors.bin").read_bytes()
    assert sum(v["length"] for v in v1["vectors"]) == len(blob)


def test_generated_compat_tests_pass_and_catch_a_codec_bug(generated: Path) -> None:
    result = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=generated)
    assert result.returncode == 0, result.stdout[-2000:]
    assert " passed" in result.stdout
    # A template bug: the encoder writes two same-typed fields in the wrong order.  The vectors must catch it.
    codec = generated / "streamcodecs" / "fixture" / "messages.py"
    text = codec.read_text()
    assert "value.tiny," in text
    codec.write_text(text.replace("value.tiny,", "value.tiny ^ 1,", 1))
    broken = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=generated)
    assert broken.returncode == 1
    assert "test_encode_current_version" in broken.stdout


def test_released_vectors_are_frozen(generated: Path, tmp_path: Path) -> None:
    defs = tmp_path / "defs"
    shutil.copytree(FIXTURES, defs)
    fixture = defs / "fixture.yaml"
    fixture.write_text(fixture.read_text().replace("{name: medium, type: int32}", "{name: medium, type: int64}"))
    result = run("generator.py", "-p", str(defs), "-r", str(generated))
    assert result.returncode == 2
    assert "frozen vectors of fixture 1" in result.stderr and "fixture.yaml" in result.stderr
    # Without git there is no released definition to compare with: each broken version is named once (not once per
    # file), at its line in `versions`.
    problems = [line for line in result.stderr.splitlines() if "frozen vectors" in line]
    assert [p.split(":")[1] for p in problems] == ["7", "7", "7"], problems
    assert [p.split("fixture ")[1].split(" ")[0] for p in problems] == ["1", "2", "3"], problems
    check = run("generator.py", "-p", str(defs), "-r", str(generated), "--check")
    assert check.returncode == 2
    # A new version is the way to change a layout: its vectors are written, the old ones stay.
    fixture.write_text(
        fixture.read_text()
        .replace("{name: medium, type: int64}", "{name: medium, type: int32}")
        .replace('versions: ["1", "2", "3"]', 'versions: ["1", "2", "3", "4"]')
        .replace(
            '      - {name: code, type: Code, since: "3", default: UNSPECIFIED, presence: {remaining: 4}}',
            '      - {name: code, type: Code, since: "3", default: UNSPECIFIED, presence: {remaining: 4}}\n'
            '      - {name: extra, type: int16, since: "4", default: 7, presence: {remaining: 2}}',
        )
    )
    before = (generated / "vectors" / "fixture" / "3" / "vectors.bin").read_bytes()
    assert run("generator.py", "-p", str(defs), "-r", str(generated), "-q").returncode == 0
    assert (generated / "vectors" / "fixture" / "3" / "vectors.bin").read_bytes() == before
    assert (generated / "vectors" / "fixture" / "4" / "manifest.json").is_file()
    result = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=generated)
    assert result.returncode == 0, result.stdout[-2000:]


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("  - name: Ping\n    code: 100", "  - name: Pong\n    code: 100", "'Ping' was removed or renamed"),
        ("{name: medium, type: int32}", "{name: medium, type: int64}", "type changed from int32 to int64"),
        ("{name: medium, type: int32}", "{name: middle, type: int32}", "'medium' was removed or renamed"),
        ("    code: 100", "    code: 101", "code changed from 100 to 101"),
        ('{name: trace, type: mutf8, since: "2"', '{name: trace, type: mutf8, since: "3"', "since moved from 2 to 3"),
        (
            "      - {name: requestId, type: int64}\n",
            "      - {name: first, type: int8}\n      - {name: requestId, type: int64}\n",
            "inserted before",
        ),
        (
            '{name: code, type: Code, since: "3", default: UNSPECIFIED, presence: {remaining: 4}}',
            '{name: code, type: Code, since: "3", default: UNSPECIFIED, presence: {remaining: 4}}\n'
            '      - {name: more, type: int8, since: "3", default: 0, presence: {remaining: 1}}',
            "new field 'more' claims released version 3",
        ),
        ("{name: BLUE, value: 2}", "{name: BLUE, value: 3}", "BLUE changed from 2 to 3"),
        ("  - name: Color\n    type: int8", "  - name: Color\n    type: int16", "wire type changed"),
        ("code_type: int32", "code_type: int16", "framing.code_type changed"),
        ("presence: {remaining: 8}", "presence: {remaining: 1}", "presence rule changed"),
        ("default: -1, presence", "default: -2, presence", "default changed"),
        ("  - name: Pair\n    size_prefix: int32", "  - name: Pair", "size prefix changed"),
    ],
)
def test_breaking_changes_are_reported_with_their_line(tmp_path: Path, old: str, new: str, words: str) -> None:
    defs = tmp_path / "defs"
    shutil.copytree(FIXTURES, defs)
    fixture = defs / "fixture.yaml"
    text = fixture.read_text()
    assert old in text
    fixture.write_text(text.replace(old, new, 1))
    result = run("generator.py", "-p", str(defs), "--compat", str(FIXTURES), "--no-id-check")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [line for line in result.stdout.splitlines() if words in line]
    assert lines, result.stdout
    assert all(line.split(":")[0].endswith("fixture.yaml") and line.split(":")[1].isdigit() for line in lines)


CUSTOM_ENUM = "enums:\n  - name: Mood\n    type: string\n    values: [{name: CALM, value: calm}]\n"


def test_a_breaking_change_to_a_custom_type_is_reported_in_the_custom_file(tmp_path: Path) -> None:
    """Shared custom types are modelled with their own file, line and YAML path, so --compat points at them."""
    for name in ("baseline", "defs"):
        shutil.copytree(FIXTURES, tmp_path / name)
        jfixture = tmp_path / name / "jfixture.yaml"
        last = "      - {name: small, type: int8, optional: true}\n"
        uses = (
            "      - {name: shared, type: Shared, optional: true}\n      - {name: mood, type: Mood, optional: true}\n"
        )
        assert last in jfixture.read_text()
        jfixture.write_text(jfixture.read_text().replace(last, last + uses, 1))
        custom = tmp_path / name / "custom" / "Custom.yaml"
        custom.write_text(custom.read_text() + CUSTOM_ENUM)
    custom = tmp_path / "defs" / "custom" / "Custom.yaml"
    text = custom.read_text()
    assert "{name: a, type: int32}" in text and "value: calm}" in text
    custom.write_text(text.replace("{name: a, type: int32}", "{name: b, type: int32}").replace("calm}", "quiet}"))
    lines = custom.read_text().splitlines()
    struct_line = lines.index("  - name: Shared") + 1
    field_line = next(i for i, line in enumerate(lines, 1) if "{name: b, type: int32}" in line)
    enum_line = lines.index("  - name: Mood") + 1
    result = run(str(REPO / "generator.py"), "-p", "defs", "--compat", "baseline", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    reported = result.stdout.splitlines()
    assert f"defs/custom/Custom.yaml:{struct_line}: Shared: field 'a' was removed or renamed" in "\n".join(reported)
    assert any(
        line.startswith(f"defs/custom/Custom.yaml:{field_line}: Shared: new field 'b' claims released version")
        for line in reported
    ), reported
    assert any(
        line.startswith(f"defs/custom/Custom.yaml:{enum_line}: enum Mood: CALM changed from 'calm' to 'quiet'")
        for line in reported
    ), reported
    assert not any("jfixture.yaml" in line for line in reported), reported


def test_model_nodes_carry_their_file_line_and_yaml_path(tmp_path: Path) -> None:
    from streamcodecs_gen.pipeline import load_protocols

    defs = tmp_path / "defs"
    shutil.copytree(FIXTURES, defs)
    jfixture = defs / "jfixture.yaml"
    last = "      - {name: small, type: int8, optional: true}\n"
    jfixture.write_text(jfixture.read_text().replace(last, last + "      - {name: shared, type: Shared}\n", 1))
    (protocol,) = [p for p in load_protocols(defs, tmp_path) if p.name == "jfixture"]
    shared = next(s for s in protocol.structs if s.name == "Shared")
    assert (shared.origin.file, shared.origin.line, shared.origin.path) == (
        "defs/custom/Custom.yaml",
        3,
        "/customTypes/0",
    )
    assert (shared.fields[0].origin.line, shared.fields[0].origin.path) == (6, "/customTypes/0/fields/0")
    emit = next(m for m in protocol.messages if m.name == "Emit")
    field = next(f for f in emit.fields if f.name == "shared")
    assert field.origin.file == "defs/jfixture.yaml" and field.origin.path == "/messages/3/fields/10"
    assert jfixture.read_text().splitlines()[field.origin.line - 1].strip().startswith("- {name: shared")
    assert protocol.structs[0] is shared, "shared types come first"


def test_problems_are_listed_by_line_and_versions_in_their_order(tmp_path: Path) -> None:
    """--compat listed a protocol's changes in the order of its checks (a type changed at line 251 before a field
    removed at line 245), and a frozen-vector refusal without git listed Pravega's versions as text sorts them
    (10, 11, ..., 17, 5, ..., 9): both now read top to bottom, numbers as numbers."""
    from streamcodecs_gen.pipeline import load_protocols
    from streamcodecs_gen.shared import Broken, FrozenVectorsChanged

    for name in ("baseline", "defs"):
        (tmp_path / name).mkdir()
        shutil.copy(REPO / "protocol-definitions" / "pravega.yaml", tmp_path / name)
    pravega = tmp_path / "defs" / "pravega.yaml"
    text = pravega.read_text()
    high = "      - name: highVersion\n        type: int32\n"
    low = "      - name: lowVersion\n        type: int32\n        doc: Oldest wire version the sender accepts"
    assert high in text and low in text
    low += text.split(low, 1)[1].split("\n", 1)[0] + "\n"  # the doc's line to its end: the field removed
    pravega.write_text(text.replace(high, high.replace("int32", "int64"), 1).replace(low, "", 1))
    result = run(str(REPO / "generator.py"), "-p", "defs", "--compat", "baseline", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [int(line.split(":")[1]) for line in result.stdout.splitlines()]
    assert len(lines) == 2 and lines == sorted(lines), result.stdout

    (protocol,) = load_protocols(tmp_path / "baseline", tmp_path)
    broken = [Broken(protocol, v, PurePosixPath(f"vectors/pravega/{v}/vectors.bin")) for v in protocol.versions]
    listed = [p.message.split("pravega ")[1].split(" ")[0] for p in FrozenVectorsChanged(broken[::-1]).problems]
    assert listed == list(protocol.versions), listed


def test_no_breaking_change_against_itself() -> None:
    result = run("generator.py", "-p", str(FIXTURES), "--compat", str(FIXTURES))
    assert result.returncode == 0 and "no breaking changes" in result.stdout


def test_no_binary_keeps_existing_vectors_and_dropping_a_released_version_is_refused(
    generated: Path, tmp_path: Path
) -> None:
    before = sorted(p.relative_to(generated) for p in (generated / "vectors").rglob("*"))
    result = run("generator.py", "-p", str(FIXTURES), "-r", str(generated), "--no-binary", "-q")
    assert result.returncode == 0, result.stderr
    assert sorted(p.relative_to(generated) for p in (generated / "vectors").rglob("*")) == before
    assert (generated / "tests" / "test_compat_fixture.py").is_file()
    defs = tmp_path / "defs"
    shutil.copytree(FIXTURES, defs)
    fixture = defs / "fixture.yaml"
    fixture.write_text(
        fixture.read_text().replace('versions: ["1", "2", "3"]', 'versions: ["2", "3"]').replace('    since: "1"\n', "")
    )
    dropped = run("generator.py", "-p", str(defs), "-r", str(generated))
    assert dropped.returncode == 2 and "released" in dropped.stderr, dropped.stderr
    assert (generated / "vectors" / "fixture" / "1" / "manifest.json").is_file()


def test_a_frozen_vector_break_names_the_change_as_compat_does(tmp_path: Path) -> None:
    """In git, the definitions that wrote the released vectors are the baseline: the refusal names the field and its
    line in --compat's words, once for every version it breaks (it was one line 1 per file per version)."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES, repo / "defs")
    generated = run("generator.py", "-p", str(repo / "defs"), "-r", str(repo / "out"), "-q")
    assert generated.returncode == 0, generated.stderr
    git = ["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "release"]):
        subprocess.run([*git, *command], check=True, capture_output=True, timeout=60)
    fixture = repo / "defs" / "fixture.yaml"
    text = fixture.read_text().replace("{name: medium, type: int32}", "{name: medium, type: int64}")
    fixture.write_text(text)
    line = text[: text.index("{name: medium, type: int64}")].count("\n") + 1
    for extra in ([], ["--check"]):
        result = run(str(REPO / "generator.py"), "-p", "defs", "-r", "out", *extra, cwd=repo)
        assert result.returncode == 2, result.stderr
        assert result.stderr.splitlines() == [
            f"defs/fixture.yaml:{line}: Everything.medium: type changed from int32 to int64: the frozen vectors of "
            "fixture 1, 2, 3 no longer match — add a new field instead",
            "1 problem(s); nothing was written.",
        ]
    # The same change committed: the baseline is still the commit that wrote the vectors.
    subprocess.run([*git, "commit", "-q", "-am", "change"], check=True, capture_output=True, timeout=60)
    result = run("generator.py", "-p", str(repo / "defs"), "-r", str(repo / "out"))
    assert result.returncode == 2 and "Everything.medium: type changed" in result.stderr, result.stderr


def test_framing_variant_vectors_sit_beside_the_json_ones_and_are_frozen(tmp_path: Path) -> None:
    """A framing variant (Storm's msgpack) gets ``<version>/<variant>/`` of its own, frozen like the rest."""
    defs = tmp_path / "defs"
    defs.mkdir()
    shutil.copy(REPO / "protocol-definitions" / "storm.yaml", defs)
    root = tmp_path / "out"
    result = run("generator.py", "-p", str(defs), "-r", str(root), "-q")
    assert result.returncode == 0, result.stderr
    version = root / "vectors" / "storm" / "2.6.0"
    plain = json.loads((version / "manifest.json").read_text())
    packed = json.loads((version / "msgpack" / "manifest.json").read_text())
    assert "framing" not in plain and (packed["framing"], packed["encoding"]) == ("msgpack", "msgpack")
    assert [(v["message"], v["variant"], v["fields"]) for v in plain["vectors"]] == [
        (v["message"], v["variant"], v["fields"]) for v in packed["vectors"]
    ]  # the same messages, other bytes
    assert (version / "vectors.bin").read_bytes() != (version / "msgpack" / "vectors.bin").read_bytes()
    tampered = version / "msgpack" / "vectors.bin"
    tampered.write_bytes(tampered.read_bytes()[:-1] + b"\x00")  # as if the definition had changed under it
    refused = run("generator.py", "-p", str(defs), "-r", str(root))
    assert refused.returncode == 2
    assert "frozen vectors of storm 2.6.0 (vectors/storm/2.6.0/msgpack/vectors.bin)" in refused.stderr


TYPED_JSON = """\
protocol: tdemo
title: Tagged-only JSON demo
family: json
versions: ["1"]
directions: [{name: down}, {name: up}]
framing:
  delimiter: line
  tag_key: action
  variants: [{name: msgpack, encoding: msgpack, doc: The same messages as MessagePack values.}]
messages:
  - name: Start
    tag: start
    directions: [down]
    fields:
      - {name: shardId, type: string}
      - {name: at, type: timestamp, optional: true}
      - {name: blob, type: base64, optional: true}
  - name: Done
    tag: done
    directions: [up]
    fields: [{name: count, type: int32}, {name: key, type: uuid, optional: true}]
"""


def test_a_msgpack_variant_of_other_json_protocols_passes_its_generated_tests(tmp_path: Path) -> None:
    """The variant is a property of the family, not of Storm: the fixture protocol (shapes, base64, timestamps,
    uuids, floats, scalars for lists) and a tagged-only one (the typed path) get MessagePack vectors from the
    reference packer, and their codecs pass the generated tests on them."""
    defs = tmp_path / "defs"
    defs.mkdir()
    fixture = (FIXTURES / "jfixture.yaml").read_text()
    old = "framing: {delimiter: end_line, tag_key: command, escape_hex: upper, max_message: 4096}"
    assert old in fixture
    (defs / "jfixture.yaml").write_text(
        fixture.replace(old, old[:-1] + ", variants: [{name: mp, encoding: msgpack, doc: MessagePack.}]}")
    )
    (defs / "tdemo.yaml").write_text(TYPED_JSON)
    root = tmp_path / "out"
    result = run("generator.py", "-p", str(defs), "-r", str(root), "-q")
    assert result.returncode == 0, result.stderr
    assert (root / "vectors" / "jfixture" / "2.0" / "mp" / "vectors.bin").is_file()
    assert (root / "vectors" / "tdemo" / "1" / "msgpack" / "vectors.bin").is_file()
    tests = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=root)
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert 'framings=[None, "mp"]' in (root / "tests" / "test_compat_jfixture.py").read_text()


def test_a_protocol_with_framing_variants_does_not_hide_the_protocols_after_it(tmp_path: Path) -> None:
    """The variant comparison once reused the name of the protocols-by-name table, so every protocol compared after
    one with variants was reported as removed."""
    defs = tmp_path / "defs"
    defs.mkdir()
    shutil.copy(REPO / "protocol-definitions" / "storm.yaml", defs / "storm.yaml")
    shutil.copy(REPO / "protocol-definitions" / "kcl.yaml", defs / "tail_kcl.yaml")  # compared after storm
    result = run("generator.py", "-p", str(defs), "--compat", str(defs))
    assert result.returncode == 0 and "no breaking changes" in result.stdout, result.stdout + result.stderr


def test_a_framing_variant_may_be_added_but_not_removed(tmp_path: Path) -> None:
    storm = (REPO / "protocol-definitions" / "storm.yaml").read_text()
    start = storm.index("  variants:\n")
    end = storm.index("constants:")
    without = tmp_path / "without"
    without.mkdir()
    (without / "storm.yaml").write_text(storm[:start] + storm[end:])
    current = REPO / "protocol-definitions"
    added = run("generator.py", "-p", str(current), "--compat", str(without))
    assert added.returncode == 0 and "no breaking changes" in added.stdout, added.stdout + added.stderr
    removed = run("generator.py", "-p", str(without), "--compat", str(current))
    assert removed.returncode == 1
    assert "framing variant 'msgpack' was removed or changed its encoding" in removed.stdout
