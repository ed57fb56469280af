"""Vector files and their manifest: which bytes are which message, with what field values.

Field values are keyed by Python name.  Values JSON cannot carry are tagged: ``{"$bytes": "<hex>"}``,
``{"$uuid": "<canonical>"}``, ``{"$timestamp": "<RFC 3339>"}``; everything else is plain JSON.
"""

from __future__ import annotations

import datetime
import uuid
from pathlib import PurePosixPath
from typing import Any

from ..model import Protocol, Struct, TypeRef
from ..render import json_text
from .binary_ref import BinaryReference
from .json_ref import JsonReference
from .values import Sample, samples

ENCODERS = {"binary": BinaryReference, "json": JsonReference}


def tagged(ref: TypeRef, value: Any) -> Any:
    if value is None:
        return None
    if ref.kind == "list":
        assert ref.item
        return [tagged(ref.item, v) for v in value]
    if ref.kind == "map":
        assert ref.item
        return {k: tagged(ref.item, v) for k, v in value.items()}
    if ref.kind == "struct":
        assert ref.struct
        return tagged_fields(ref.struct, value)
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
    return protocol.family in ENCODERS


def version_files(protocol: Protocol, version: str, base: PurePosixPath) -> dict[PurePosixPath, str | bytes]:
    """The vectors of one protocol version: ``vectors.bin`` (all frames back to back) and ``manifest.json``."""
    encoder = ENCODERS[protocol.family](protocol)
    blob = bytearray()
    entries = []
    sample: Sample
    for sample in samples(protocol, version):
        data = encoder.frame(sample.message, sample.values, version)
        entries.append(
            {
                "message": sample.message.name,
                "variant": sample.variant,
                "offset": len(blob),
                "length": len(data),
                "fields": tagged_fields(sample.message, sample.values),
            }
        )
        blob += data
    manifest = {
        "protocol": protocol.name,
        "version": version,
        "family": protocol.family,
        "file": "vectors.bin",
        "vectors": entries,
    }
    return {base / "vectors.bin": bytes(blob), base / "manifest.json": json_text(manifest)}
