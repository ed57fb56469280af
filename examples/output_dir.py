"""The examples' output directory: never a directory the user did not give to an example.

An example writes into ``--out`` and, on the next run, replaces what it wrote there. So that ``--out ~/data`` can
never wipe a user's files, a directory an example writes into carries a marker file, and:

- a new or empty directory is used (and marked);
- a marked directory has only the entries the example writes replaced (anything else in it stays);
- any other non-empty directory, or a file, is refused with a message saying why, before any work starts.

Without ``--out``, each run writes into a new directory of its own under the system's temporary directory.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

MARKER = ".streamcodecs-example"


class OutputRefused(Exception):
    """``--out`` names something an example must not write into; the message says what to do."""


def new_output(example: str) -> Path:
    """A fresh directory for one run (private to this user: ``mkdtemp`` creates it with mode 0700)."""
    return Path(tempfile.mkdtemp(prefix=f"streamcodecs-{example}-"))


def prepare_output(out: Path, example: str, entries: Iterable[str], *, keep: bool = False) -> None:
    """Make ``out`` ready for ``example``: refuse it, or mark it and remove the ``entries`` an earlier run wrote
    (all of them kept when ``keep``)."""
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"--out {out} is a file, not a directory: give a new or empty directory")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise OutputRefused(
            f"--out {out} is not empty and was not written by an example (it has no {MARKER} file): "
            "nothing was deleted; give a new or empty directory"
        )
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text(
        f"Written by examples/{example}.py: its next run with this --out replaces {', '.join(entries)} here.\n",
        encoding="utf-8",
    )
    if keep:
        return
    for name in entries:
        path = out / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
