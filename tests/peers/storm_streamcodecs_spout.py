"""The same spout as storm_pystorm_spout.py, written with streamcodecs' ``storm.Spout``:
``python ... MODE [SERIALIZER]``.

Modes: ``count``, ``ids``, ``raise`` as in storm_pystorm_spout.py.
"""

from __future__ import annotations

import sys
from typing import Any

from streamcodecs import storm

SERIALIZER = sys.argv[2] if len(sys.argv) > 2 else "json"  # or "msgpack"


class TestSpout(storm.Spout):
    mode = sys.argv[1] if len(sys.argv) > 1 else "count"
    count = 0

    def next_tuple(self) -> None:
        if self.mode == "raise":
            raise RuntimeError("next_tuple failed on purpose")
        self.count += 1
        if self.mode == "ids":
            ids = self.emit(["n", self.count], tup_id=self.count, need_task_ids=True)
            self.log(f"task ids {ids}")
        else:
            self.emit(["n", self.count], tup_id=self.count)

    def ack(self, tup_id: Any) -> None:
        self.log(f"ack {tup_id!r} {type(tup_id).__name__}")

    def fail(self, tup_id: Any) -> None:
        self.log(f"fail {tup_id!r} {type(tup_id).__name__}")

    def activate(self) -> None:
        self.log("activated")

    def deactivate(self) -> None:
        self.log("deactivated")


if __name__ == "__main__":
    TestSpout(serializer=SERIALIZER).run()
