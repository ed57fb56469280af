"""Definitions are untrusted input: nothing in one can run code at generation time or inject code into output."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.problems import DefinitionError

REPO = Path(__file__).resolve().parent.parent

HOSTILE_DOC = 'Ends here """ ; import os; os.system("touch PWNED") # \\ and \x07 and \u2028 and \'\'\' done"'

DEFINITION = yaml.safe_dump(
    {
        "protocol": "hostile",
        "title": 'Title with """ triple quotes and a backslash \\',
        "doc": HOSTILE_DOC,
        "family": "json",
        "versions": ["1"],
        "directions": [{"name": "down", "doc": HOSTILE_DOC}],
        "framing": {"delimiter": "line", "tag_key": "key"},
        "constants": [{"name": "TEXT", "value": HOSTILE_DOC, "doc": HOSTILE_DOC}],
        "enums": [
            {
                "name": "Mode",
                "type": "string",
                "doc": HOSTILE_DOC,
                "values": [{"name": "EVIL", "value": HOSTILE_DOC, "doc": HOSTILE_DOC}],
            }
        ],
        "messages": [
            {
                "name": "Msg",
                "tag": 'tag"); import os; os.system("touch PWNED2"); ("',
                "directions": ["down"],
                "doc": HOSTILE_DOC,
                "fields": [
                    {"name": "we'ird key->x", "py": "weird", "type": "string", "doc": HOSTILE_DOC},
                    {"name": "mode", "type": "Mode", "optional": True, "default": "EVIL"},
                ],
            }
        ],
    },
    sort_keys=False,
    allow_unicode=True,
    width=1000,
)


def test_hostile_text_is_inert_in_generated_code(tmp_path: Path) -> None:
    defs = tmp_path / "defs"
    defs.mkdir()
    (defs / "hostile.yaml").write_text(DEFINITION, encoding="utf-8")
    root = tmp_path / "out"
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "generator.py"),
            "-p",
            str(defs),
            "-r",
            str(root),
            "-n",
            "hostilepkg",
            "--no-binary",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module("hostilepkg.hostile")
        message = module.Msg(weird="x")
        line = module.encode(message)
        assert module.decode(line) == message
        assert module.TEXT in (HOSTILE_DOC, HOSTILE_DOC.replace("\x07", " ").replace("\u2028", " "))
        assert line.startswith(b'{"key":"tag\\"); import os')
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.startswith("hostilepkg")]:
            del sys.modules[name]
    assert not list(tmp_path.rglob("PWNED*")), "text from a definition ran as code"
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    assert "scripts" not in project and project["description"].startswith('Codecs for Title with """')


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("name: Msg", "name: Msg; import os"), "name"),
        (("name: Mode", "name: 'Mode(): pass'"), "name"),
        (("py: weird", "py: __import__"), "double underscore"),
        (("py: weird", "py: import"), "keyword"),
        (("tag_key: key", "tag_key: 'ke\"y'"), "is not an identifier"),
        (("name: we'ird key->x", 'name: we"ird'), "quote, backslash or control"),
        (("protocol: hostile", "protocol: ../../evil"), "protocol"),
        (("protocol: hostile", "protocol: !!python/object/apply:os.system [touch PWNED]"), "YAML error"),
        (("versions:\n- '1'", "versions: &v\n- '1'\nconstants2: *v"), "an alias (*name)"),
    ],
)
def test_hostile_names_are_rejected(tmp_path: Path, change: tuple[str, str], words: str) -> None:
    defs = tmp_path / "defs"
    defs.mkdir()
    (defs / "hostile.yaml").write_text(DEFINITION.replace(*change, 1), encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_protocols(defs, tmp_path)
    assert any(words in str(p) for p in info.value.problems), info.value.problems
    assert not list(tmp_path.rglob("PWNED*"))


def test_text_never_reaches_code_through_constants(tmp_path: Path) -> None:
    """A string `const` on a uuid field used to land inside an f-string; constants are now integers and bools
    only, and every other value reaches code through repr()."""
    defs = tmp_path / "defs"
    defs.mkdir()
    (defs / "bin.yaml").write_text(
        "protocol: bin\ntitle: t\nfamily: binary\nversions: ['1']\ndirections: [{name: up}]\n"
        "framing: {byte_order: big, code_type: int32, length_type: int32, list_count: int32, bytes_length: int32,"
        " max_frame: 100}\nmessages:\n  - name: M\n    code: 1\n    directions: [up]\n    fields:\n"
        '      - {name: id, type: uuid, const: \'{__import__("os").system("touch PWNED")}\'}\n'
        "      - {name: x, type: float64, default: 'not a number', presence: {remaining: 8}}\n",
        encoding="utf-8",
    )
    with pytest.raises(DefinitionError) as info:
        load_protocols(defs, tmp_path)
    found = [str(p) for p in info.value.problems]
    assert any("binary constants are for integer and bool fields" in p for p in found), found
    assert any("is not a number" in p for p in found), found


def test_namespace_must_be_an_identifier(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "generator.py"), "-n", "../evil", "-r", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2 and "namespace" in result.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("namespace", ["import", "a.class", "streamcodecs\n", "ok._x.__init__x"])
def test_namespaces_that_are_not_packages_are_refused(tmp_path: Path, namespace: str) -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "generator.py"), "-n", namespace, "-r", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if namespace == "ok._x.__init__x":
        assert result.returncode == 2  # a double-underscore part is refused like any dunder name
    else:
        assert result.returncode == 2 and "namespace" in result.stderr
    assert not (tmp_path / "o").exists()
