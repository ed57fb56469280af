"""Protocol version ordering: the one place that says how ``"1.10"`` compares with ``"1.9"``.

Versions are dotted non-negative integers (the schema enforces the pattern); they compare part by part as numbers.
"""

from __future__ import annotations


def version_key(version: str) -> tuple[int, ...]:
    """Sort key of a version: ``"1.10"`` -> ``(1, 10)``, so it sorts after ``"1.9"``."""
    return tuple(int(part) for part in version.split("."))
