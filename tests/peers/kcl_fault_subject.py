"""The KCL child runner under test in the fault suite: ``kcl.run_child`` serving a processor that checkpoints at
each batch's last record and reports each outcome on stderr (``checkpoint SEQ: accepted | timed out | ERROR``).

Options: ``--checkpoint-timeout S``, ``--write-timeout S``, ``--max-message N``, and ``--print-threads``: while it
handles a batch, four threads print 200 lines each to stdout (the protocol's stream), as careless code does;
``--retry-unreadable``: a checkpoint that raised DecodeError is tried once more (``retry SEQ: OUTCOME``).
"""

from __future__ import annotations

import argparse
import sys
import threading

from streamcodecs import kcl

parser = argparse.ArgumentParser()
parser.add_argument("--checkpoint-timeout", type=float, default=kcl.CHECKPOINT_TIMEOUT)
parser.add_argument("--write-timeout", type=float, default=kcl.WRITE_TIMEOUT)
parser.add_argument("--max-message", type=int, default=kcl.MAX_MESSAGE)
parser.add_argument("--print-threads", action="store_true")
parser.add_argument("--retry-unreadable", action="store_true")
options = parser.parse_args()


def chatter(n: int) -> None:
    for i in range(200):
        print(f"thread {n} prints line {i} to stdout")


def checkpoint(checkpointer: kcl.Checkpointer, position: str | None) -> str:
    try:
        checkpointer.checkpoint(position)
    except TimeoutError:
        return "timed out"
    except kcl.CheckpointError as error:
        return error.error
    except kcl.DecodeError:
        if not options.retry_unreadable:
            raise
        return "DecodeError"
    return "accepted"


class Processor(kcl.RecordProcessor):
    def process_records(self, message: kcl.ProcessRecords, checkpointer: kcl.Checkpointer) -> None:
        threads = [threading.Thread(target=chatter, args=(n,)) for n in range(4 if options.print_threads else 0)]
        for thread in threads:
            thread.start()
        position = message.records[-1].sequence_number if message.records else None
        outcome = checkpoint(checkpointer, position)
        print(f"checkpoint {position}: {outcome}", file=sys.stderr, flush=True)
        if outcome == "DecodeError" and options.retry_unreadable:
            print(f"retry {position}: {checkpoint(checkpointer, position)}", file=sys.stderr, flush=True)
        for thread in threads:
            thread.join()


kcl.run_child(
    Processor(),
    checkpoint_timeout=options.checkpoint_timeout,
    write_timeout=options.write_timeout,
    max_message=options.max_message,
)
