"""Typed framing configurations: a frozen dataclass per wire family, built from the definition's ``framing`` mapping.

The JSON Schema (``schema/protocol-schema.json``, ``framing_<family>``) has accepted the mapping before it is built,
so building only converts: nested mappings become their dataclasses, lists and maps stay lists and dicts (the
templates concatenate and iterate them), an optional key left out takes the field's default. A key the dataclass
does not declare is a programming error (the schema and the dataclass disagree), not a definition problem. Each
dataclass keeps the :class:`~..origin.Origin` of its mapping: the lines problems point at, and which keys were
written (:func:`as_written`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, TypeVar

from ..origin import NOWHERE, Origin

T = TypeVar("T")


def build(cls: type[T], node: Any, origin: Origin | None = None) -> T:
    """An instance of the dataclass ``cls`` from a mapping the schema accepted (``origin``: the mapping's)."""
    origin = Origin.of(node) if origin is None else origin
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    unknown = set(node) - names
    if unknown:
        raise ValueError(f"{cls.__name__} has no field for framing key(s) {sorted(unknown)} (schema and class differ)")
    kwargs: dict[str, Any] = {key: _value(hints[key], value, origin.within(key)) for key, value in node.items()}
    kwargs["origin"] = origin
    return cls(**kwargs)


def _value(hint: Any, value: Any, origin: Origin) -> Any:
    kind = typing.get_origin(hint)
    if dataclasses.is_dataclass(hint):
        return build(hint, value, origin)  # type: ignore[arg-type]
    if kind is list:
        (item,) = typing.get_args(hint)
        return [_value(item, v, origin.within(i)) for i, v in enumerate(value)]
    if kind is dict:
        _, item = typing.get_args(hint)
        return {k: _value(item, v, origin.within(k)) for k, v in value.items()}
    if kind in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return None if value is None else _value(inner, value, origin)
    return value


def as_written(value: Any) -> Any:
    """A framing value as the definition wrote it, as plain data: an optional key left out stays out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {str(key): as_written(getattr(value, str(key))) for key in value.origin.lines}  # type: ignore[attr-defined]
    if isinstance(value, list):
        return [as_written(v) for v in value]
    if isinstance(value, dict):
        return {k: as_written(v) for k, v in value.items()}
    return value


def _origin() -> Any:
    """Where the mapping was written: its lines point problems at the definition, its keys are the ones written."""
    return dataclasses.field(default=NOWHERE, compare=False, repr=False)


# --- binary ---------------------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class BinaryFraming:
    """A frame is ``code``, ``length`` (of the payload), payload; lists and bytes carry a count or length first."""

    byte_order: str
    code_type: str
    length_type: str
    list_count: str
    bytes_length: str
    max_frame: int
    origin: Origin = _origin()


# --- json -----------------------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class FramingVariant:
    """Another framing of the same messages (``serializer=`` takes its name); ``encoding`` says how it is written."""

    name: str
    encoding: str
    doc: str
    origin: Origin = _origin()


DEFAULT_MAX_MESSAGE = 16 * 1024 * 1024
"""A text family's Reader limit in bytes when the definition sets no ``max_message`` (every target's codec)."""


@dataclasses.dataclass(frozen=True)
class JsonFraming:
    delimiter: str
    tag_key: str
    max_message: int | None = None
    escape_hex: str | None = None
    variants: list[FramingVariant] = dataclasses.field(default_factory=list)
    origin: Origin = _origin()

    @property
    def message_limit(self) -> int:
        """The Reader's limit: ``max_message``, else :data:`DEFAULT_MAX_MESSAGE`."""
        return self.max_message or DEFAULT_MAX_MESSAGE

    @property
    def by_line(self) -> bool:
        """A message is one line (``delimiter: line``); else JSON followed by an ``end`` line (``end_line``)."""
        return self.delimiter == "line"

    @property
    def terminator(self) -> str:
        """What follows each message's JSON in a stream."""
        return "\n" if self.by_line else "\nend\n"

    @property
    def terminator_words(self) -> str:
        """The terminator in words, for documents and problems."""
        return "newline" if self.by_line else "end line"


# --- kafka ----------------------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class AttributeNames:
    pattern: str
    reserved: list[str] = dataclasses.field(default_factory=list)
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class HeaderRules:
    charset: str
    value_encoding: str
    value_escape: str
    match: str
    duplicates: str
    null_value: str
    other: str
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class KeyMapper:
    name: str
    attribute: str
    encoding: str
    doc: str = ""
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class KeyRules:
    encode: str
    decode: str
    mappers: list[KeyMapper] = dataclasses.field(default_factory=list)
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class Detection:
    header: str
    structured_prefix: str
    otherwise: str
    unknown_format: str
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class PayloadRules:
    field: str
    content_type_attribute: str
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class BinaryMode:
    attribute_prefix: str
    attribute_headers: dict[str, str]
    no_data: str
    empty_value: str
    implied_content_type: str
    text_charsets: list[str]
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class StructuredFormat:
    name: str
    media_type: str
    content_type: str
    charsets: list[str]
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class StructuredMode:
    formats: list[StructuredFormat]
    prefixed_headers: str
    null_value: str
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class JsonData:
    subtypes: list[str]
    suffixes: list[str]
    implied: str
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class JsonEncode:
    member_order: str
    separators: str
    ascii_only: bool
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class JsonFormat:
    data_member: str
    data_base64_member: str
    json_data: JsonData
    null_member: str
    encode: JsonEncode
    batch: str
    origin: Origin = _origin()


@dataclasses.dataclass(frozen=True)
class KafkaFraming:
    attribute_names: AttributeNames
    headers: HeaderRules
    key: KeyRules
    detection: Detection
    payload: PayloadRules
    binary: BinaryMode
    structured: StructuredMode
    json_format: JsonFormat
    max_message: int | None = None
    origin: Origin = _origin()

    @property
    def message_limit(self) -> int:
        """The Reader's limit: ``max_message``, else :data:`DEFAULT_MAX_MESSAGE`."""
        return self.max_message or DEFAULT_MAX_MESSAGE


Framing = BinaryFraming | JsonFraming | KafkaFraming
