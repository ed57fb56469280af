"""A pystorm 3.1.4 bolt for the Storm interop tests, run as a shell component:
``python storm_pystorm_bolt.py MODE [SERIALIZER]`` (SERIALIZER is ``json``, the default, or ``msgpack``).

Modes (each a behaviour the tests check through streamcodecs' ShellBolt driver):
- ``echo``: emits ``[values..., "seen"]`` for each tuple (auto-anchored), logs on each tick and emits
  ``["tick", frequency]``; pystorm acks both.
- ``ids``: emits with ``need_task_ids=True``, logs the task ids it got back, then emits them as a tuple.
- ``fail``: raises while processing a tuple whose first value is ``"boom"`` (pystorm reports the error, syncs,
  fails the tuple and exits 1); other tuples are echoed.
- ``direct``: a direct emit to task 9 with ``need_task_ids=True`` (pystorm answers ``[9]`` itself), then the ids.
"""

from __future__ import annotations

import sys

from pystorm import Bolt

SERIALIZER = sys.argv[2] if len(sys.argv) > 2 else "json"  # or "msgpack"


class TestBolt(Bolt):
    mode = sys.argv[1] if len(sys.argv) > 1 else "echo"

    def process(self, tup):
        if self.mode == "ids":
            ids = self.emit(["ids-out", *tup.values], need_task_ids=True)
            self.log(f"task ids {ids}")
            self.emit(["got", ids])
        elif self.mode == "direct":
            ids = self.emit(["direct", *tup.values], direct_task=9, need_task_ids=True)
            self.emit(["got", ids])
        elif self.mode == "fail" and tup.values and tup.values[0] == "boom":
            raise ValueError("boom requested")
        else:
            self.emit([*tup.values, "seen"])

    def process_tick(self, tup):
        self.log(f"tick {tup.values[0]}", level="warn")
        self.emit(["tick", tup.values[0]])


if __name__ == "__main__":
    TestBolt(rdb_signal=None, serializer=SERIALIZER).run()
