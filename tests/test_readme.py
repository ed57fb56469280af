"""README's first section, literally: the commands it gives for the project's venv run as written, and its codec
snippet runs and gives what its comments say (``# -> value``). The Spark snippets are the Spark suite's (the
examples, SQL, deployment); the generated reference documents are test_docs.py's."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
VENV_PYTHON = ".venv/bin/python"


def fenced(language: str, text: str = README) -> list[str]:
    """The fenced blocks of ``text`` in ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def before_heading(heading: str) -> str:
    """README up to ``heading`` (a whole heading line)."""
    return README.split(f"\n{heading}\n", 1)[0]


def test_the_venv_commands_run_as_written() -> None:
    """``.venv/bin/python -c "..."`` and ``-m streamcodecs inspect --list``, as the set-up leaves them to be run."""
    commands = [
        line.split("  #")[0]
        for block in fenced("sh", before_heading("## In Spark"))
        for line in block.splitlines()
        if line.startswith(VENV_PYTHON + " ")
    ]
    assert len(commands) >= 2, "README's venv commands were not found"
    for command in commands:
        argv = [sys.executable, *shlex.split(command)[1:]]
        result = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
        assert result.returncode == 0 and result.stdout.strip(), (command, result.stderr)
        if "kcl.decode" in command:
            assert result.stdout.strip() == "ShutdownRequested()", result.stdout


def test_the_codec_snippet_runs_and_gives_what_it_says() -> None:
    """The snippet uses ``chunk`` (a piece of a TCP stream): given the frame it encodes, it runs whole, and each
    ``name = ...  # -> value`` line holds that value."""
    (snippet,) = [b for b in fenced("python", before_heading("## In Spark")) if "from streamcodecs import" in b]
    claims = re.findall(r"^(\w+) = .*#\s*-> ([^\n]+?)\s*$", snippet, flags=re.MULTILINE)
    assert claims, "README's snippet claims no value"
    seen: dict[str, list[Any]] = {}

    def record(name: str, value: Any) -> Any:
        seen.setdefault(name, []).append(value)
        return value

    claimed = {name for name, _ in claims}
    # Each assignment that carries a claim also records its value at that point (a later line may rebind the name).
    lines = [
        re.sub(r"^(\w+) = (.*?)(\s*#\s*->.*)$", r"\1 = __record('\1', \2)\3", line)
        if re.match(r"^(\w+) = .*#\s*->", line) and line.split(" ")[0] in claimed
        else line
        for line in snippet.splitlines()
    ]
    namespace: dict[str, Any] = {"__record": record}
    exec(
        "from streamcodecs import pravega\nchunk = pravega.encode(pravega.Hello(high_version=17, low_version=5))",
        namespace,
    )
    exec(compile("\n".join(lines), "README.md", "exec"), namespace)  # noqa: S102 (README's own snippet)
    for name, expected in claims:
        (value,) = seen[name]
        assert value == eval(expected, namespace), (name, expected, value)  # noqa: S307
