# Copied from streamcodecs_gen/py_tests/vector_support.py by ./generator.py; edit that file, not this copy.
"""Reading the language-neutral vectors, for the generated ``test_compat_<protocol>.py`` modules beside this one.

A test module names its protocol's vectors (:class:`Vectors`: their directory, the protocol's versions and framings)
and checks its codec on each :class:`Vector` (its bytes decode as the manifest's values; for the current version,
those values encode as its bytes) and, for a family that lays messages on Kafka records, each :class:`Record`.
"""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


def untag(value: Any) -> Any:
    """A manifest value as Python: ``{"$bytes": hex}``, ``{"$uuid": ...}`` and ``{"$timestamp": ...}`` untagged."""
    if isinstance(value, list):
        return [untag(v) for v in value]
    if isinstance(value, dict):
        if len(value) == 1:
            ((key, inner),) = value.items()
            if key == "$bytes":
                return bytes.fromhex(inner)
            if key == "$uuid":
                return uuid.UUID(inner)
            if key == "$timestamp":
                return datetime.datetime.fromisoformat(inner)
        return {k: untag(v) for k, v in value.items()}
    return value


def _message(codec: Any, name: str, values: dict[str, Any]) -> Any:
    """The message ``name`` with the manifest's ``values``, built by the codec's own class."""
    return codec.MESSAGES[name].from_dict(untag(values))


@dataclass(frozen=True)
class Vector:
    """One message's bytes in one version's vectors, and the values the manifest lists for them."""

    version: str
    framing: str | None  # the framing variant the manifest names (None: the family's own framing)
    entry: dict[str, Any]
    data: bytes
    stream: bytes  # the bytes as a Reader's stream carries them: what follows a message in it included

    @property
    def message(self) -> str:
        return str(self.entry["message"])

    @property
    def direction(self) -> str:
        return str(self.entry["direction"])

    @property
    def variant(self) -> str:
        """Which of the message's vectors this is (``minimal``, ``full``, ...)."""
        return str(self.entry["variant"])

    @property
    def options(self) -> dict[str, Any]:
        """The codec's keyword arguments choosing the framing (``serializer=`` for a variant)."""
        return {} if self.framing is None else {"serializer": self.framing}

    def expected(self, codec: Any) -> Any:
        """The message the manifest lists."""
        return _message(codec, self.message, self.entry["fields"])

    def pieces(self, size: int) -> Iterator[bytes]:
        """The stream cut every ``size`` bytes, as a Reader may be fed it."""
        return (self.stream[i : i + size] for i in range(0, len(self.stream), size))


@dataclass(frozen=True)
class Record:
    """A Kafka record of a manifest: its key, value and headers, and the event it carries."""

    entry: dict[str, Any]

    @property
    def mode(self) -> str:
        return str(self.entry["mode"])

    @property
    def parts(self) -> dict[str, Any]:
        """The record's key, value and headers as bytes (a ``KafkaRecord``'s keyword arguments)."""
        entry = self.entry
        return {
            "key": None if entry["key"] is None else bytes.fromhex(entry["key"]),
            "value": None if entry["value"] is None else bytes.fromhex(entry["value"]),
            "headers": [(name, bytes.fromhex(value)) for name, value in entry["headers"]],
        }

    def expected(self, codec: Any) -> Any:
        """The event the record decodes as."""
        return _message(codec, self.entry["message"], self.entry["fields"])

    def event(self, codec: Any) -> Any:
        """The event that encodes as the record."""
        return _message(codec, self.entry["message"], self.entry["event"])


@dataclass(frozen=True)
class Vectors:
    """A protocol's vectors: each version's manifest and bytes under ``root/<protocol>/<version>/``, a framing
    variant's in ``<version>/<framing>/``; ``suffix`` follows each message in a Reader's stream (its own framing)."""

    root: Path
    protocol: str
    versions: Sequence[str]
    framings: Sequence[str | None] = (None,)
    suffix: bytes = b""

    def manifests(self, framing: str | None = None) -> list[tuple[dict[str, Any], bytes]]:
        """Each version's manifest and vector bytes, in one framing."""
        found = []
        for version in self.versions:
            where = self.root / self.protocol / version / (framing or "")
            manifest = json.loads((where / "manifest.json").read_text(encoding="utf-8"))
            found.append((manifest, (where / manifest["file"]).read_bytes()))
        return found

    def vectors(self, framing: str | None = None) -> list[Vector]:
        """Every vector of every version, in one framing."""
        found = []
        for manifest, blob in self.manifests(framing):
            variant = manifest.get("framing")
            for entry in manifest["vectors"]:
                data = blob[entry["offset"] : entry["offset"] + entry["length"]]
                stream = data + self.suffix if variant is None else data  # a variant's values come back to back
                found.append(Vector(manifest["version"], variant, entry, data, stream))
        return found

    def cases(self, version: str | None = None) -> list[Any]:
        """One pytest param per vector of every framing (of ``version`` only, when given)."""
        return [
            pytest.param(v, id="-".join([*([v.framing] if v.framing else []), v.version, v.message, v.variant]))
            for framing in self.framings
            for v in self.vectors(framing)
            if version is None or v.version == version
        ]

    def records(self) -> list[Any]:
        """One pytest param per Kafka record the manifests list."""
        return [
            pytest.param(Record(record), id=f"{m['version']}-{record['message']}-{record['variant']}-{record['mode']}")
            for m, _ in self.manifests()
            for record in m.get("records", [])
        ]
