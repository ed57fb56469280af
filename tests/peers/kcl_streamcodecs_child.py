"""A record processor written with streamcodecs alone (``kcl.run_child``), run as a MultiLang child by the KCL
tests. Same behaviour and observations as kcl_kclpy_v3_child.py.

``python kcl_streamcodecs_child.py raise`` makes every method raise after observing, to show the status is
still sent; ``print`` makes it print to stdout (text layer) in the middle of its work.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kcl_observe import observe  # noqa: E402
from streamcodecs import kcl  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else ""


def checkpoint(checkpointer, sequence_number=None, sub_sequence_number=None, attempts=3):
    for attempt in range(1, attempts + 1):
        try:
            checkpointer.checkpoint(sequence_number, sub_sequence_number)
        except kcl.CheckpointError as error:
            observe("checkpoint_refused", attempt=attempt, error=error.error)
            if error.error != "ThrottlingException":
                return
        else:
            observe("checkpointed", attempt=attempt, sequence_number=sequence_number)
            return


def done(method):
    if MODE == "print":
        print(f"stray output from {method}", end="", flush=True)  # no newline: the next line must survive it
    if MODE == "raise":
        raise RuntimeError(f"{method} failed on purpose")


class Processor(kcl.RecordProcessor):
    def initialize(self, message):
        observe(
            "initialize",
            shard_id=message.shard_id,
            sequence_number=message.sequence_number,
            sub_sequence_number=message.sub_sequence_number,
        )
        done("initialize")

    def process_records(self, message, checkpointer):
        observe(
            "process_records",
            records=[
                {
                    "data": r.data.hex() if r.data is not None else None,
                    "partition_key": r.partition_key,
                    "sequence_number": r.sequence_number,
                    "sub_sequence_number": r.sub_sequence_number,
                    "timestamp_millis": r.approximate_arrival_timestamp,
                }
                for r in message.records
            ],
            millis_behind_latest=message.millis_behind_latest,
        )
        if message.records:
            last = message.records[-1]
            checkpoint(checkpointer, last.sequence_number, last.sub_sequence_number)
        done("process_records")

    def lease_lost(self, message):
        observe("lease_lost")
        done("lease_lost")

    def shard_ended(self, message, checkpointer):
        observe("shard_ended")
        checkpoint(checkpointer)
        done("shard_ended")

    def shutdown_requested(self, message, checkpointer):
        observe("shutdown_requested")
        checkpoint(checkpointer)
        done("shutdown_requested")

    def shutdown(self, message, checkpointer):
        observe("shutdown", reason=None if message.reason is None else message.reason.value)
        if message.reason == kcl.ShutdownReason.TERMINATE:
            checkpoint(checkpointer)
        done("shutdown")


if __name__ == "__main__":
    kcl.run_child(Processor())
