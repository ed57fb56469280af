"""Definitions written into a definitions directory, and the problems the generator reports of them as its user
reads them (``file:line: what — hint``): the one way the tests of the checks ask for them."""

from __future__ import annotations

from pathlib import Path

from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.problems import DefinitionError


def problems_of(tmp_path: Path, files: dict[str, str], *, id_check: bool = True) -> list[str]:
    """The problems of the definitions ``files`` (a path under ``defs/``, such as ``custom/Custom.yaml``, to its
    text), in the order the generator reports them; none when they are valid."""
    defs = tmp_path / "defs"
    for name, text in files.items():
        (defs / name).parent.mkdir(parents=True, exist_ok=True)
        (defs / name).write_text(text, encoding="utf-8")
    try:
        load_protocols(defs, tmp_path, id_check=id_check)
    except DefinitionError as exc:
        return [str(p) for p in exc.problems]
    return []


def problems_for(tmp_path: Path, text: str, *, id_check: bool = True) -> list[str]:
    """The problems of one definition, ``defs/demo.yaml``."""
    return problems_of(tmp_path, {"demo.yaml": text}, id_check=id_check)


def problems_after(tmp_path: Path, base: str, old: str, new: str) -> tuple[str, list[str]]:
    """A valid definition with its first ``old`` replaced by ``new`` (one thing broken), and its problems."""
    assert old in base, "the case's anchor text must be in the base definition"
    text = base.replace(old, new, 1)
    return text, problems_for(tmp_path, text)


def line_of(text: str, needle: str) -> int:
    """The line of ``text`` (from 1) that first holds ``needle``."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the definition")
