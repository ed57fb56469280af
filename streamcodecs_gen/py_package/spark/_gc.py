"""The cyclic garbage collector paused while the Python path converts one batch (see :func:`no_cycle_collection`)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["no_cycle_collection"]


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector paused for one batch (and restored after). A batch allocates hundreds of
    thousands of short-lived objects (rows, pairs, messages), freed by reference counting as they go; each
    collection those allocations trigger would scan every object the worker holds (pyspark's and pyarrow's
    included), which costs the Python path of a batch a third to half of its time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
