"""The same bolt as storm_pystorm_bolt.py, written with streamcodecs' ``storm.Bolt``:
``python ... MODE [SERIALIZER]``.

Modes: ``echo``, ``ids``, ``fail``, ``direct`` as in storm_pystorm_bolt.py, plus ``ids-go-on``: ``ids`` with
``exit_on_exception`` off (an emit that raises fails its tuple and the bolt goes on) and ``max_queued`` 3;
``ids-alarm``: ``ids``, but the wait for the ids of a tuple ``alarm`` is cut after 0.2 s by a SIGALRM handler that
raises TimeoutError, which ``process`` catches (``["got", "alarm", "timed out"]``); ``print``: each tuple is printed
(``print`` output must reach Storm as a log command, not break the protocol) and echoed; ``threads``: for each
tuple four threads print 2000 lines each (``thread N line I``), then the tuple is echoed; ``late-thread``: for
each tuple a thread prints ``ended while Storm reads`` with no line end and ends, then another prints ``ended
after Storm went`` so and ends once Storm has stopped reading the component's stdout (the pipe reports an error).
"""

from __future__ import annotations

import select
import signal
import sys
import threading

from streamcodecs import storm


def interrupt(signum: int, frame: object) -> None:
    raise TimeoutError("no task ids within 0.2 s")


def chatter(n: int) -> None:
    for i in range(2000):
        print(f"thread {n} line {i}")


def after_storm_went() -> None:
    print("ended after Storm went", end="")
    watch = select.poll()
    watch.register(sys.__stdout__.fileno(), 0)  # only what is always reported: an error (no reader), a hang-up
    while not watch.poll():
        pass


SERIALIZER = sys.argv[2] if len(sys.argv) > 2 else "json"  # or "msgpack"


class TestBolt(storm.Bolt):
    mode = sys.argv[1] if len(sys.argv) > 1 else "echo"
    exit_on_exception = mode != "ids-go-on"
    max_queued = 3 if mode == "ids-go-on" else storm.Bolt.max_queued

    def process(self, tup: storm.Tuple) -> None:
        if self.mode == "ids-alarm":
            if tup.values == ["alarm"]:
                signal.signal(signal.SIGALRM, interrupt)
                signal.setitimer(signal.ITIMER_REAL, 0.2)
            try:
                ids: object = self.emit(["ids-out", *tup.values], need_task_ids=True)
            except TimeoutError:
                ids = "timed out"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            self.emit(["got", *tup.values, ids])
        elif self.mode in ("ids", "ids-go-on"):
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
            if self.mode == "late-thread":
                first = threading.Thread(target=lambda: print("ended while Storm reads", end=""))
                first.start()
                first.join()
                threading.Thread(target=after_storm_went).start()
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
