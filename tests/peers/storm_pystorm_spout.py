"""A pystorm 3.1.4 spout for the Storm interop tests, run as a shell component:
``python storm_pystorm_spout.py MODE [SERIALIZER]`` (SERIALIZER is ``json``, the default, or ``msgpack``).

Modes:
- ``count``: each ``next`` emits ``["n", k]`` with message id ``k`` (1, 2, ...); ``ack``/``fail`` log the id they
  got with its Python type; ``activate``/``deactivate`` log.
- ``ids``: each ``next`` emits with ``need_task_ids=True`` and logs the task ids it got back.
- ``raise``: ``next`` raises (pystorm reports the error, syncs and exits 1).
"""

from __future__ import annotations

import sys

from pystorm import Spout

SERIALIZER = sys.argv[2] if len(sys.argv) > 2 else "json"  # or "msgpack"


class TestSpout(Spout):
    mode = sys.argv[1] if len(sys.argv) > 1 else "count"
    count = 0

    def next_tuple(self):
        if self.mode == "raise":
            raise RuntimeError("next_tuple failed on purpose")
        self.count += 1
        if self.mode == "ids":
            ids = self.emit(["n", self.count], tup_id=self.count, need_task_ids=True)
            self.log(f"task ids {ids}")
        else:
            self.emit(["n", self.count], tup_id=self.count)

    def ack(self, tup_id):
        self.log(f"ack {tup_id!r} {type(tup_id).__name__}")

    def fail(self, tup_id):
        self.log(f"fail {tup_id!r} {type(tup_id).__name__}")

    def activate(self):
        self.log("activated")

    def deactivate(self):
        self.log("deactivated")


if __name__ == "__main__":
    TestSpout(rdb_signal=None, serializer=SERIALIZER).run()
