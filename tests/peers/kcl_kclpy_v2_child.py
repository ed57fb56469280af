"""A record processor written against amazon-kclpy's v2 interface (``shutdown`` with a reason), as a MultiLang
child for the KCL tests; kclpy adapts it to the v3 messages (``shardEnded`` -> TERMINATE, ``leaseLost`` ->
ZOMBIE)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from amazon_kclpy import kcl  # noqa: E402
from amazon_kclpy.v2 import processor  # noqa: E402
from kcl_kclpy_v3_child import checkpoint, record_view  # noqa: E402
from kcl_observe import observe  # noqa: E402


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

    def shutdown(self, shutdown_input):
        observe("shutdown", reason=shutdown_input.reason)
        if shutdown_input.reason == "TERMINATE":
            checkpoint(shutdown_input.checkpointer)

    def shutdown_requested(self, shutdown_requested_input):
        observe("shutdown_requested")
        checkpoint(shutdown_requested_input.checkpointer)


if __name__ == "__main__":
    kcl.KCLProcess(Processor()).run()
