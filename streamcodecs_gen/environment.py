"""What the generator needs from its Python environment, and the one-line message when something is missing.

Standard library only: this module is what ``generator.py`` can still import when the dependencies are absent.
A missing dependency is a problem of the environment, not of the definitions or the templates: the generator says
what is missing and how to get it, and exits with status 2 (never 1, which is ``--check``'s "output is stale").
"""

from __future__ import annotations

import sys

REQUIREMENTS = {
    "yaml": "PyYAML",
    "jinja2": "Jinja2",
    "jsonschema": "jsonschema",
    "msgspec": "msgspec",
    "ruff": "ruff",
    "pyspark": "pyspark",
}
"""Import name -> distribution name (pinned in requirements.txt) of every third-party module the generator uses
(msgspec for the analysis of the runtime's facts, ruff to format, pyspark for its jars: the classpath of the Java
target's build)."""

EXIT_ENVIRONMENT = 2


def missing_dependency(module: str | None) -> str | None:
    """The message for a ``ModuleNotFoundError`` of ``module``; None when it is not one of the generator's
    dependencies (then it is a bug, to be reported as one)."""
    top = (module or "").split(".")[0]
    if top not in REQUIREMENTS:
        return None
    return (
        f"error: the generator needs {REQUIREMENTS[top]} (module {top!r}), which {sys.executable} does not have: "
        "run ./dev generate (it sets up .venv), or pip install -r requirements.txt"
    )
