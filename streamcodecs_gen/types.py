"""The type registry: every wire type is defined here and nowhere else.

A record says what the type is in each place the generator needs it: the Python annotation, the binary encoding
(a fixed ``struct`` code or a runtime helper), the JSON annotation used with msgspec, the Spark SQL type, and
the reference values that compatibility vectors use.  Templates and checks ask this registry; adding a type means
adding a record here, a runtime helper if it is variable-sized, and nothing else.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

BINARY, JSON, KAFKA = "binary", "json", "kafka"
FAMILIES = (BINARY, JSON, KAFKA)


def _int_refs(bits: int) -> Callable[[int], int]:
    """Distinct values per field index, using the high bits so that byte-order mistakes show."""
    top = (1 << (bits - 1)) - 1

    def ref(i: int) -> int:
        value = (0x5A + 37 * i) % 113 + 1
        value = (value << (bits - 8)) | (i % 251) if bits > 8 else value
        return -min(value, top) if i % 3 == 2 else min(value, top)

    return ref


def _text_refs(i: int) -> str:
    # Non-ASCII on purpose: the two-byte, three-byte and (every third field) astral-plane forms.
    return ("ref-{}-é€" + ("😀" if i % 3 == 0 else "")).format(i)


def _mutf8_refs(i: int) -> str:
    # Java's modified UTF-8 differs from UTF-8 exactly for NUL and astral characters: use both.
    return f"seg-{i}/\x00é😀"


@dataclass(frozen=True)
class WireType:
    name: str
    doc: str
    families: tuple[str, ...]
    py: str  # Python annotation
    spark: str  # Spark SQL type (DDL)
    reference: Callable[[int], Any]
    struct: str | None = None  # binary: fixed-size struct code (without byte order)
    helper: str | None = None  # binary: runtime helper suffix, read_<helper>/write_<helper>
    json: str | None = None  # JSON: annotation used with msgspec (defaults to py)
    imports: tuple[str, ...] = ()
    trailing: bool = False  # binary: consumes the rest of the frame, so it must be the last field
    min_size: int = 0  # binary: fewest bytes an encoded value takes
    # binary: a payload, decoded as a read-only memoryview onto the frame (not a copy); to_dict gives bytes
    view: bool = False
    # Spark: the type of the value in the native JSON decoders (from_json) when it is not ``spark``; VARIANT keeps
    # any JSON value exactly, and to_json writes it back unchanged.
    spark_json: str | None = None

    @property
    def size(self) -> int | None:
        from struct import calcsize

        return calcsize(">" + self.struct) if self.struct else None

    @property
    def annotation(self) -> str:
        """A field's Python annotation: ``py``, or for a payload also the memoryview it decodes as."""
        return f"{self.py} | memoryview" if self.view else self.py

    @property
    def json_annotation(self) -> str:
        return self.json or self.py


WIRE_TYPES: dict[str, WireType] = {
    t.name: t
    for t in (
        WireType(
            "bool",
            "Boolean; binary one byte, any non-zero byte reads as true.",
            FAMILIES,
            "bool",
            "boolean",
            lambda i: i % 2 == 0,
            struct="?",
            min_size=1,
        ),
        WireType(
            "int8",
            "Signed 8-bit integer.",
            FAMILIES,
            "int",
            "tinyint",
            _int_refs(8),
            struct="b",
            json="Int8",
            min_size=1,
        ),
        WireType(
            "int16",
            "Signed 16-bit integer.",
            FAMILIES,
            "int",
            "smallint",
            _int_refs(16),
            struct="h",
            json="Int16",
            min_size=2,
        ),
        WireType(
            "int32",
            "Signed 32-bit integer.",
            FAMILIES,
            "int",
            "int",
            _int_refs(32),
            struct="i",
            json="Int32",
            min_size=4,
        ),
        WireType(
            "int64",
            "Signed 64-bit integer.",
            FAMILIES,
            "int",
            "bigint",
            _int_refs(64),
            struct="q",
            json="Int64",
            min_size=8,
        ),
        WireType(
            "float32",
            "IEEE 754 single precision.",
            FAMILIES,
            "float",
            "float",
            lambda i: 0.5 + i,
            struct="f",
            min_size=4,
        ),
        WireType(
            "float64",
            "IEEE 754 double precision.",
            FAMILIES,
            "float",
            "double",
            lambda i: 1.25 + i,
            struct="d",
            min_size=8,
        ),
        WireType(
            "uuid",
            "UUID; binary: 16 bytes, most significant first; JSON: canonical string.",
            FAMILIES,
            "uuid.UUID",
            "string",
            lambda i: uuid.UUID(int=((i + 1) << 64) | (i + 2)),
            struct="16s",
            imports=("uuid",),
            min_size=16,
        ),
        WireType(
            "string",
            "UTF-8 text; binary: u16 byte length then the bytes.",
            FAMILIES,
            "str",
            "string",
            _text_refs,
            helper="string",
            min_size=2,
        ),
        WireType(
            "mutf8",
            "Java modified UTF-8 (DataOutput.writeUTF): u16 byte length, NUL as C0 80, characters "
            "beyond U+FFFF as two 3-byte surrogates.",
            (BINARY,),
            "str",
            "string",
            _mutf8_refs,
            helper="mutf8",
            min_size=2,
        ),
        WireType(
            "bytes",
            "Length-prefixed bytes (framing.bytes_length).",
            (BINARY,),
            "bytes",
            "binary",
            lambda i: bytes(range(i % 7, i % 7 + 3 + i % 5)),
            helper="bytes",
            min_size=4,
            view=True,
        ),
        WireType(
            "rest",
            "Raw bytes up to the end of the frame.",
            (BINARY,),
            "bytes",
            "binary",
            lambda i: b"rest-" + bytes([i % 256, 0, 255]),
            helper="rest",
            trailing=True,
            view=True,
        ),
        WireType(
            "padding",
            "That many zero bytes up to the end of the frame; the value is the count.",
            (BINARY,),
            "int",
            "int",
            lambda i: 1 + i % 5,
            helper="padding",
            trailing=True,
        ),
        WireType(
            "base64",
            "Bytes carried in JSON as a base64 string (standard alphabet, padded).",
            (JSON, KAFKA),
            "bytes",
            "binary",
            lambda i: bytes([i % 256, 0, 255, 10]) + b"\xfe\xff",
        ),
        WireType(
            "timestamp",
            "RFC 3339 date-time, timezone-aware.",
            (JSON, KAFKA),
            "datetime.datetime",
            "timestamp",
            lambda i: datetime.datetime(2018, 4, 5, 3, 56, 24 + i % 30, 1000 * i, tzinfo=datetime.UTC),
            json="Timestamp",
            imports=("datetime",),
        ),
        WireType(
            "any",
            "Any JSON value, kept as decoded.",
            (JSON, KAFKA),
            "Any",
            "string",
            lambda i: {"k": [i, "v", None, True]},
            imports=("typing.Any",),
            spark_json="variant",
        ),
        WireType(
            "uri",
            "RFC 3986 URI: a scheme is required, a fragment is allowed; kafka: the text as-is.",
            (KAFKA,),
            "str",
            "string",
            lambda i: f"https://example.com/schemas/{i}.json#/definitions/v{i}",
        ),
        WireType(
            "uri_reference",
            "RFC 3986 URI-reference (absolute or relative; may be empty unless min_length says otherwise).",
            (KAFKA,),
            "str",
            "string",
            lambda i: (f"/sensors/{i}", f"urn:uuid:{uuid.UUID(int=i + 1)}", f"{i}-555-123-4567")[i % 3],
        ),
        WireType(
            "media_type",
            "RFC 2045/7231 media type with optional parameters, e.g. `text/plain; charset=utf-8`.",
            (KAFKA,),
            "str",
            "string",
            lambda i: ("application/json", "text/plain; charset=utf-8", "application/vnd.example+json")[i % 3],
        ),
        WireType(
            "attribute_value",
            "A header-mapped attribute of a type not declared in advance: bool, int (int32), str, bytes or an "
            "aware datetime, written in its canonical string (header) or JSON form; a header reads back as str.",
            (KAFKA,),
            "bool | int | str | bytes | datetime.datetime",
            "string",
            lambda i: (
                i % 2 == 0,
                1000 + i,
                f"value-{i}-é",
                bytes([i % 256, 0, 255]),
                datetime.datetime(2018, 4, 5, 3, 56, i % 60, tzinfo=datetime.UTC),
            )[i % 5],
            imports=("datetime",),
        ),
        WireType(
            "payload",
            "The record value (framing.payload): bytes as-is, text, or a JSON value, read by its content type.",
            (KAFKA,),
            "Any",
            "binary",
            lambda i: (bytes([i % 256, 0, 255]), {"k": [i, "v"]}, f"text-{i}-é")[i % 3],
            imports=("typing.Any",),
        ),
    )
}

INTEGER_TYPES = ("int8", "int16", "int32", "int64")


def parse_type_expr(text: str) -> tuple[str, tuple[str, ...]]:
    """Split ``list<T>`` / ``map<string,T>`` into ("list", ("T",)); a plain name gives (name, ())."""
    text = text.strip()
    if text.endswith(">") and "<" in text:
        head, _, inner = text[:-1].partition("<")
        args: list[str] = []
        depth, start = 0, 0
        for pos, char in enumerate(inner):
            if char == "<":
                depth += 1
            elif char == ">":
                depth -= 1
            elif char == "," and depth == 0:
                args.append(inner[start:pos].strip())
                start = pos + 1
        args.append(inner[start:].strip())
        return head.strip(), tuple(args)
    return text, ()


CONTAINERS = {"list": 1, "map": 2}
