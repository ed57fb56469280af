# Copied from streamcodecs_gen/py_package/spark/_shipped.py by ./generator.py; edit that file, not this copy.
"""How the objects a generated Spark module keeps in a global pickle: as that global, by name (:class:`Shipped`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["Shipped"]


class Shipped:
    """An object that a generated Spark module keeps in a global (its tables, the Spark functions over them) and
    hands to Spark with the functions of its Python path (``arrow_udf``, ``mapInArrow``, ...). Spark pickles those
    functions with what they name, by value unless it is a module's global; this object is one, so it pickles as
    ``(module, name)`` and an executor imports the module (the executors have the package) instead of unpickling
    a copy of the codec's tables for every task."""

    def __init__(self, module: str, name: str) -> None:
        self._where = (module, name)

    def __reduce__(self) -> tuple[Callable[[str, str], Any], tuple[str, str]]:
        try:
            found = _global(*self._where)
        except (ImportError, AttributeError):
            found = None
        if found is not self:
            raise TypeError(f"{type(self).__name__} is not {'.'.join(self._where)}, which its module names it")
        return _global, self._where


def _global(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)
