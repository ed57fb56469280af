"""Semantic checks beyond the JSON Schema, run as passes over the model (IR).

The model is built first (``build.py``), from the definition the schema accepted, whatever its semantic problems;
each check is then a pass ``(Context) -> Iterator[Problem]`` over its nodes, which carry their origins (file, the
line of each key, YAML path). :data:`CHECKS` lists the passes in order and :func:`run_checks` runs every one of them,
so that all problems are reported at once. Family-dependent rules are asked of the family object (``families/``),
whose hooks take the same nodes. A protocol without problems is rendered from the same model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..problems import Problem
from .context import Context
from .family import check_discriminators, check_family_definition, check_family_rules
from .field_types import check_no_type_holds_itself, check_types
from .limits import check_limits
from .names import check_directions, check_module_names, check_names
from .versions import check_since, check_versions

Check = Callable[[Context], Iterator[Problem]]

CHECKS: tuple[Check, ...] = (
    check_versions,
    check_since,
    check_names,
    check_directions,
    check_discriminators,
    check_types,
    check_no_type_holds_itself,
    check_limits,
    check_module_names,
    check_family_rules,
    check_family_definition,
)


def run_checks(ctx: Context) -> list[Problem]:
    return [problem for check in CHECKS for problem in check(ctx)]


__all__ = ["CHECKS", "Check", "Context", "run_checks"]
