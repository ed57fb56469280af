"""Vector files and their manifest: which bytes are which message, with what field values.

Field values are keyed by Python name.  Values JSON cannot carry are tagged: ``{"$bytes": "<hex>"}``,
``{"$uuid": "<canonical>"}``, ``{"$timestamp": "<RFC 3339>"}``; everything else is plain JSON.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from ..families.framing import FramingVariant
from ..families.registry import family
from ..model import ListRef, MapRef, Protocol, Struct, StructRef, TypeRef
from ..render import json_text
from .binary_ref import BinaryReference
from .json_ref import JsonReference
from .kafka_ref import KafkaReference
from .msgpack_ref import MsgpackReference
from .values import Sample, samples


@dataclass(frozen=True)
class Reference:
    """The vectors of one wire family: its independent reference encoder (``<family>_ref.py``), and whether the
    manifest also lists each sample as a Kafka record in every content mode (``records``)."""

    encoder: type
    records: bool = False


REFERENCES: dict[str, Reference] = {
    "binary": Reference(BinaryReference),
    "json": Reference(JsonReference),
    "kafka": Reference(KafkaReference, records=True),
}
"""The reference encoders of the wire families (``families/``), by the family's name: a family without one has no
vectors yet."""
VARIANT_ENCODERS: dict[str, Any] = {"msgpack": MsgpackReference}
"""Reference encoders of the framing variants (``framing.variants``), by their ``encoding``."""


def tagged(ref: TypeRef, value: Any) -> Any:
    if value is None:
        return None
    match ref:
        case ListRef(item=item):
            return [tagged(item, v) for v in value]
        case MapRef(item=item):
            return {k: tagged(item, v) for k, v in value.items()}
        case StructRef(struct=owner):
            return tagged_fields(owner, value)
    if isinstance(value, bytes | bytearray):
        return {"$bytes": bytes(value).hex()}
    if isinstance(value, uuid.UUID):
        return {"$uuid": str(value)}
    if isinstance(value, datetime.datetime):
        return {"$timestamp": value.isoformat()}
    return value


def tagged_fields(owner: Struct, values: dict[str, Any]) -> dict[str, Any]:
    return {f.py: tagged(f.type, values[f.name]) for f in owner.fields if f.name in values}


def supports(protocol: Protocol) -> bool:
    """Whether the protocol's family has a reference encoder (:data:`REFERENCES`), i.e. vectors."""
    return protocol.family in REFERENCES


def variants(protocol: Protocol) -> list[FramingVariant]:
    """The framing variants that have vectors: each gets a subdirectory of every version, named after it."""
    return [v for v in family(protocol.family).variants(protocol.framing) if v.encoding in VARIANT_ENCODERS]


def protocol_files(protocol: Protocol, binary_dir: PurePosixPath) -> list[tuple[str, PurePosixPath, str | bytes]]:
    """Every version's vectors of a protocol, with the version: ``<binary_dir>/<protocol>/<version>/``, and each
    framing variant's in a subdirectory of it named after the variant."""
    framings = [(None, PurePosixPath())] + [(v, PurePosixPath(v.name)) for v in variants(protocol)]
    found = []
    for version in protocol.versions:
        for variant, subdir in framings:
            base = binary_dir / protocol.name / version / subdir
            found += [
                (version, path, content) for path, content in version_files(protocol, version, base, variant).items()
            ]
    return found


def version_files(
    protocol: Protocol, version: str, base: PurePosixPath, variant: FramingVariant | None = None
) -> dict[PurePosixPath, str | bytes]:
    """The vectors of one protocol version: ``vectors.bin`` (all frames back to back) and ``manifest.json``.

    For the kafka family the manifest also lists each sample as a Kafka record in every mode (``records``). With
    a framing ``variant`` the same samples are written in that framing, and the manifest names it (``framing``).
    """
    reference = REFERENCES[protocol.family]
    encoder = (VARIANT_ENCODERS[variant.encoding] if variant else reference.encoder)(protocol)
    records_too = reference.records and variant is None
    blob = bytearray()
    entries = []
    records = []
    sample: Sample
    found = samples(protocol, version)
    if records_too:
        found = encoder.with_payload_variants(found)
    for index, sample in enumerate(found):
        if records_too:
            sample = encoder.adjust(sample, index)
            for record, decoded in (
                (encoder.binary_record(sample.values), encoder.binary_decoded(sample.values)),
                (encoder.structured_record(sample.values), sample.values),
            ):
                records.append(
                    {
                        **record,
                        "message": sample.message.name,
                        "variant": sample.variant,
                        "event": tagged_fields(sample.message, sample.values),
                        "fields": tagged_fields(sample.message, decoded),
                    }
                )
        data = encoder.frame(sample.message, sample.values, version)
        entries.append(
            {
                "message": sample.message.name,
                "direction": sample.message.directions[0],
                "variant": sample.variant,
                "offset": len(blob),
                "length": len(data),
                "fields": tagged_fields(sample.message, sample.values),
            }
        )
        blob += data
    manifest: dict[str, Any] = {
        "protocol": protocol.name,
        "version": version,
        "family": protocol.family,
        **({"framing": variant.name, "encoding": variant.encoding} if variant else {}),
        "file": "vectors.bin",
        "vectors": entries,
    }
    if records:
        manifest["records"] = records  # Kafka records in each mode (hex key/value/headers) and what they decode to
    return {base / "vectors.bin": bytes(blob), base / "manifest.json": json_text(manifest)}
