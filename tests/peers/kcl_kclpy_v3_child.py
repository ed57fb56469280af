"""A record processor written against amazon-kclpy's v3 interface, run as a MultiLang child by the KCL tests.

It reports everything it is given (``observed`` lines on stderr) and checkpoints like a careful real processor:
after each batch at its last record, and at shard end / on a shutdown request at the daemon's default position,
retrying a ``ThrottlingException`` a few times.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from amazon_kclpy import kcl  # noqa: E402
from amazon_kclpy.v3 import processor  # noqa: E402
from kcl_observe import observe  # noqa: E402


def checkpoint(checkpointer, sequence_number=None, sub_sequence_number=None, attempts=3):
    for attempt in range(1, attempts + 1):
        try:
            checkpointer.checkpoint(sequence_number, sub_sequence_number)
        except kcl.CheckpointError as error:
            observe("checkpoint_refused", attempt=attempt, error=error.value)
            if error.value != "ThrottlingException":
                return
        else:
            observe("checkpointed", attempt=attempt, sequence_number=sequence_number)
            return


def record_view(record):
    return {
        "data": record.binary_data.hex(),
        "partition_key": record.partition_key,
        "sequence_number": record.sequence_number,
        "sub_sequence_number": record.sub_sequence_number,
        "timestamp_millis": record.timestamp_millis,
    }


class Processor(processor.RecordProcessorBase):
    def initialize(self, initialize_input):
        observe(
            "initialize",
            shard_id=initialize_input.shard_id,
            sequence_number=initialize_input.sequence_number,
            sub_sequence_number=initialize_input.sub_sequence_number,
        )

    def process_records(self, process_records_input):
        records = process_records_input.records
        observe(
            "process_records",
            records=[record_view(r) for r in records],
            millis_behind_latest=process_records_input.millis_behind_latest,
        )
        if records:
            last = records[-1]
            checkpoint(process_records_input.checkpointer, last.sequence_number, last.sub_sequence_number)

    def lease_lost(self, lease_lost_input):
        observe("lease_lost")

    def shard_ended(self, shard_ended_input):
        observe("shard_ended")
        checkpoint(shard_ended_input.checkpointer)

    def shutdown_requested(self, shutdown_requested_input):
        observe("shutdown_requested")
        checkpoint(shutdown_requested_input.checkpointer)


if __name__ == "__main__":
    kcl.KCLProcess(Processor()).run()
