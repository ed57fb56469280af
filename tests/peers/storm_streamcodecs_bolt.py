"""The same bolt as storm_pystorm_bolt.py, written with streamcodecs' ``storm.Bolt``:
``python ... MODE [SERIALIZER]``.

Modes: ``echo``, ``ids``, ``fail``, ``direct`` as in storm_pystorm_bolt.py, plus ``ids-go-on``: ``ids`` with
``exit_on_exception`` off (an emit that raises fails its tuple and the bolt goes on); ``print``: each tuple is printed
(``print`` output must reach Storm as a log command, not break the protocol) and echoed; ``threads``: for each
tuple four threads print 2000 lines each (``thread N line I``), then the tuple is echoed.
"""

from __future__ import annotations

import sys
import threading

from streamcodecs import storm


def chatter(n: int) -> None:
    for i in range(2000):
        print(f"thread {n} line {i}")


SERIALIZER = sys.argv[2] if len(sys.argv) > 2 else "json"  # or "msgpack"


class TestBolt(storm.Bolt):
    mode = sys.argv[1] if len(sys.argv) > 1 else "echo"
    exit_on_exception = mode != "ids-go-on"

    def process(self, tup: storm.Tuple) -> None:
        if self.mode in ("ids", "ids-go-on"):
            ids = self.emit(["ids-out", *tup.values], need_task_ids=True)
            self.log(f"task ids {ids}")
            self.emit(["got", ids])
        elif self.mode == "direct":
            ids = self.emit(["direct", *tup.values], direct_task=9, need_task_ids=True)
            self.emit(["got", ids])
        elif self.mode == "fail" and tup.values and tup.values[0] == "boom":
            raise ValueError("boom requested")
        else:
            if self.mode == "print":
                print("printed", *tup.values)
            if self.mode == "threads":
                threads = [threading.Thread(target=chatter, args=(n,)) for n in range(4)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
            self.emit([*tup.values, "seen"])

    def process_tick(self, tup: storm.Tuple) -> None:
        self.log(f"tick {tup.values[0]}", level="warn")
        self.emit(["tick", tup.values[0]])


if __name__ == "__main__":
    TestBolt(serializer=SERIALIZER).run()
