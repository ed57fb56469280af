"""The kafka family: one event per Kafka record, in binary or structured content mode (CloudEvents)."""

from __future__ import annotations

from .base import Family
from .framing import KafkaFraming


class Kafka(Family):
    name = "kafka"
    framing_type = KafkaFraming


KAFKA = Kafka()
