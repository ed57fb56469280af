"""The type registry: every wire type is defined here and nowhere else.

A record says what the type is in each place the generator needs it: the Python annotation, the binary encoding
(a fixed ``struct`` code and how the value converts to and from it, or a runtime helper and how it is written), the
JSON annotation used with msgspec, the Spark SQL type (and its PySpark class, how Arrow carries it), which values a
default or constant may take, and the reference values that compatibility vectors use.  Checks, analysis and
templates ask this registry and never compare type names; adding a type means adding a record here, a runtime helper
if it is variable-sized, and its encoding in the reference encoders (``vectors/<family>_ref.py``).
"""

from __future__ import annotations

import datetime
import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from struct import calcsize, pack, unpack
from typing import Any

BINARY, JSON, KAFKA = "binary", "json", "kafka"
FAMILIES = (BINARY, JSON, KAFKA)


def _int_refs(bits: int, signed: bool = True) -> Callable[[int], int]:
    """Distinct values per field index, using the high bits so that byte-order mistakes show (and, every third
    field, the sign: negative, or for an unsigned type the top bit set, which a signed read would get wrong)."""
    top = (1 << (bits - 1)) - 1

    def ref(i: int) -> int:
        value = (0x5A + 37 * i) % 113 + 1
        value = (value << (bits - 8)) | (i % 251) if bits > 8 else value
        if i % 3 != 2:
            return min(value, top)
        return -min(value, top) if signed else min(value, top) | (1 << (bits - 1))

    return ref


# Which values a default or a constant of a type may take: a function of (type, value) giving what is wrong, or None.
def _any_value(wire: WireType, value: Any) -> str | None:
    return None


def _int_value(wire: WireType, value: Any) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return "is not an integer"
    low, high = wire.range
    return None if low <= value <= high else f"does not fit {wire.name}"


def _bool_value(wire: WireType, value: Any) -> str | None:
    return None if isinstance(value, bool) else "is not true/false"


def _number_value(wire: WireType, value: Any) -> str | None:
    """A number the type holds: a finite one no larger in magnitude than its largest (Java refuses to compile a
    float literal that rounds to infinity, and a binary encoder to pack it), and not one so small that it rounds to
    zero (Java refuses that literal too). NaN and infinity are the type's own values; whether the family's wire
    carries them is the family's (``Family.nonfinite_floats``)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "is not a number"
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if abs(value) > wire.largest:
        return f"does not fit {wire.name}, whose finite values lie from {-wire.largest!r} to {wire.largest!r}"
    code = ">" + (wire.struct or "")
    if value and not unpack(code, pack(code, value))[0]:
        smallest = unpack(code, (1).to_bytes(calcsize(code), "big"))[0]
        return f"rounds to 0 in {wire.name}, whose smallest magnitude is {smallest!r}"
    return None


def _uuid_value(wire: WireType, value: Any) -> str | None:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return "is not a UUID"
    return None if isinstance(value, str) else "is not a UUID string"


def _text_value(wire: WireType, value: Any) -> str | None:
    return None if isinstance(value, str) else "is not a string"


def _empty_bytes_value(wire: WireType, value: Any) -> str | None:
    return None if value == "" else 'bytes defaults can only be "" (empty)'


def _text_refs(i: int) -> str:
    # Non-ASCII on purpose: the two-byte, three-byte and (every third field) astral-plane forms.
    return ("ref-{}-é€" + ("😀" if i % 3 == 0 else "")).format(i)


def _mutf8_refs(i: int) -> str:
    # Java's modified UTF-8 differs from UTF-8 exactly for NUL and astral characters: use both.
    return f"seg-{i}/\x00é😀"


_PRINTABLE_LATER = "type({v}) is str and ((text_later and {v}.isascii()) or {v}.isprintable())"
"""A printable text type's kafka_json_fast: an ASCII value is left to the written JSON text's test."""
_PRINTABLE = "type({v}) is str and {v}.isprintable()"
"""A printable text type's kafka_fast and kafka_read_fast (no control character, surrogate, unassigned...)."""
_REMEMBERED = "type({{v}}) is str and {{v}} in _kw.{valid}"
"""kafka_fast and kafka_read_fast of a type whose valid values the runtime remembers (in the set ``valid``)."""


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
    # JSON: the msgspec.Meta arguments of the ``json`` alias (rendered into the runtime's ``wiretypes``) when they
    # are not an integer's range (ge/le from bits and sign)
    json_meta: str | None = None
    # JSON family, MessagePack runs: the annotation of a message's common twin for a value of the type, narrower
    # than ``json`` (msgspec decodes the values it holds in C and refuses the rest, which the message takes); None:
    # ``json``
    packed_common: str | None = None
    imports: tuple[str, ...] = ()
    trailing: bool = False  # binary: consumes the rest of the frame, so it must be the last field
    min_size: int = 0  # binary: fewest bytes an encoded value takes
    # binary: a payload, decoded as a read-only memoryview onto the frame (not a copy); to_dict gives bytes
    view: bool = False
    # Spark, JSON family: the Spark type of a decoded value when it is not ``spark``; VARIANT keeps any JSON value
    # exactly, and to_json writes it back unchanged.
    spark_json: str | None = None
    bits: int | None = None  # an integer of this many bits (also the range of a padding count)
    signed: bool = True  # an integer type: two's complement (False: 0 up to 2**bits - 1)
    values: Callable[[WireType, Any], str | None] = _any_value  # what is wrong with a default/const value, or None
    constant: bool = False  # binary: fields of the type may be a `const`
    sized: bool = False  # binary: length-prefixed, so `when_nonempty` may test it for emptiness
    negative_length: bool = False  # binary: a field may take `negative` (a negative length read as empty)
    framed_length: bool = False  # binary: the length prefix is framing.bytes_length (helper <helper>_<bytes_length>)
    extends: bool = False  # binary: written by extend_<helper>(parts, ...), which adds the bytes without a copy
    writer: str | None = None  # binary: the runtime function that writes it, when not write_<helper>
    # binary: its writer also takes the protocol's MAX_FRAME (it makes that many bytes of the value: it refuses a value
    # no frame can hold before making them)
    writer_limited: bool = False
    # binary, encode: why a value more than the largest frame holds is refused (writer_limited), in both languages:
    # ``{value}`` the value, ``{limit}`` the protocol's MAX_FRAME
    limit_refusal: str | None = None
    from_struct: str = "{}"  # binary: the value of a struct-unpacked ``{}`` (e.g. a UUID from its 16 bytes)
    to_struct: str = "{}"  # binary: what struct packs for the value ``{0}`` (a format string; ``{refusal}``: below)
    # binary, encode: why a value that is not of the type is refused, in both languages (the Python writer's runtime
    # call and the Java codec and Spark conversion are given this text): ``{type}`` is Python's name of the value's
    # type, ``{value}`` its ``repr``
    refusal: str | None = None
    binary_imports: tuple[str, ...] = ()  # binary: import lines from_struct needs
    # Spark (Arrow path, spark/_arrow.py): the value ``{v}`` as Arrow takes it, when not the value itself (a UUID: its
    # text), and the value of Arrow's ``{v}`` (``{path}`` names it in errors); ``arrow_shape`` instead of ``to_arrow``:
    # the ``_arrow.Shape`` that converts a column of them by the Arrow type it is given (VARIANT: ``_arrow.FREE``, JSON
    # text or the VARIANT's binary form)
    to_arrow: str | None = None
    from_arrow: str | None = None
    arrow_shape: str | None = None
    record_value: bool = False  # kafka: the record value (framing.payload), not an attribute
    elsewhere: str | None = None  # what to write instead in a family that has not the type (else: its types)
    example: str = "{}"  # documents: how a decoded value ``{}`` reads in a worked example
    java: str | None = None  # Java: the type of a decoded value (an object type; see java_primitive); None: no Java
    java_helper: str | None = None  # Java, JSON family: JsonWire's read<h>/write<h>/from<h> for the type
    # Java, JSON family: the cores JsonWire's generated read<h>/write<h> call (``{nullable}``: true or false; ``p``
    # the parser, ``w`` the writer, ``v`` the value); None: JsonRead.<h>(p, {nullable}) / JsonWrite.<h>(w, v,
    # {nullable}) with <h> in lower case, or for an integer JsonRead.integer with the type's range
    java_json_read: str | None = None
    java_json_write: str | None = None
    # Java, JSON family: JsonWire.from<h>'s core, Spark's external value ``o`` as the codec's (None: it already is)
    java_spark_from: str | None = None
    # Java, kafka family: a value is held as its JSON text (a String, compact, as msgspec writes the value), which is
    # also how the family's Spark schema holds it
    java_json_text: bool = False
    # Java, kafka family: KafkaRules' rule reading the type's text ``{}`` (a header's value, or a JSON string member
    # of the event format) into its value; the rule reading a member ``value`` (a ``Json``) when the type is not a
    # JSON string; and ``value``'s canonical text when it is not the reading rule again (a text type writes what it
    # checks). KafkaWire's generated <stem>FromText/FromJson/ToText/ToJson call them (``analysis/runtime.py``).
    # None for an integer and a float (their rules take the record's range or largest value); for any other type,
    # no Java rule: the Java target carries no attribute of it
    java_kafka_read: str | None = None
    java_kafka_json: str | None = None
    java_kafka_text: str | None = None
    # JSON family, encode: the runtime's checker of a value (jsonchecks.check_<check>), the class almost every value
    # has (tested exactly, so that such a value needs nothing more), and what else makes such a value ({v}) need it
    check: str | None = None
    check_class: str | None = None
    check_unless: str | None = None
    # kafka family, encode: what almost every attribute value of the type passes ({v}: in Python), its header bytes
    # and its JSON-format value then (with no more checking); None: every value takes the runtime's <name>_to_text
    kafka_fast: str | None = None
    kafka_text: str = "{v}.encode()"
    kafka_json: str = "{v}"
    # kafka family, the JSON format's fast test when its caller tests the written JSON text afterwards (the generated
    # _to_json_object's ``text_later``; kafkarecords' json_value): a printable text type's ASCII value then needs only
    # str.isascii (constant time) instead of str.isprintable (a few ns a character), as JSON text without an escape
    # or a DEL holds printable ASCII strings only; None: kafka_fast
    kafka_json_fast: str | None = None
    # kafka family, decode: what almost every value read of the type passes ({v}: a header's text, or a JSON
    # format member as msgspec decoded it), which is then the attribute's value as it is; None: every value takes
    # the runtime's <name>_from_text/_from_json. It is that function's own first test, made without the call
    kafka_read_fast: str | None = None

    @property
    def range(self) -> tuple[int, int]:
        """The smallest and largest value of an integer type (from its bits and sign)."""
        assert self.bits
        if not self.signed:
            return 0, (1 << self.bits) - 1
        return -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1

    @property
    def largest(self) -> float:
        """The largest finite magnitude of a float type (from its struct code: the bits of infinity, less one)."""
        assert self.struct and self.py == "float"
        code = ">" + self.struct
        infinity = int.from_bytes(pack(code, math.inf), "big")
        value: float = unpack(code, (infinity - 1).to_bytes(calcsize(code), "big"))[0]
        return value

    @property
    def struct_converts(self) -> bool:
        """The struct-unpacked value is not yet the field's value (``from_struct`` converts it)."""
        return self.from_struct != "{}"

    def value_problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` as a default or constant of the type (None: it fits)."""
        return self.values(self, value)

    @property
    def is_text(self) -> bool:
        """Values are Python ``str`` (enums of the type are string enums; ``min_length`` applies)."""
        return self.py == "str"

    @property
    def json_constant(self) -> bool:
        """JSON family: fields of the type may be a ``const``, which both codecs compare as the JSON string or
        integer it is (Python as a ``Literal``, Java with ``JsonRead.readConstStr``/``readConstInt``)."""
        return self.is_text or (self.bits is not None and self.py == "int")

    @property
    def is_bytes(self) -> bool:
        """Values are Python ``bytes`` (a default is written as a bytes literal)."""
        return self.py == "bytes"

    @property
    def java_primitive(self) -> str:
        """The Java type of a decoded value where it cannot be null (``long`` for ``Long``; others as ``java``)."""
        assert self.java
        return JAVA_PRIMITIVES.get(self.java, self.java)

    @property
    def spark_class(self) -> str:
        """The PySpark class of the Spark type, e.g. ``LongType()``."""
        return SPARK_CLASSES[self.spark]

    def helper_for(self, bytes_length: str) -> str:
        """The runtime helper's suffix (``read_<suffix>`` / ``write_<suffix>``) under a framing's bytes_length."""
        assert self.helper
        return f"{self.helper}_{bytes_length}" if self.framed_length else self.helper

    def writer_for(self, bytes_length: str) -> str:
        """The runtime function that writes a value of the type and returns its bytes."""
        return self.writer or f"write_{self.helper_for(bytes_length)}"

    @property
    def size(self) -> int | None:
        return calcsize(">" + self.struct) if self.struct else None

    @property
    def annotation(self) -> str:
        """A field's Python annotation: ``py``, or for a payload also the memoryview it decodes as."""
        return f"{self.py} | memoryview" if self.view else self.py

    @property
    def json_annotation(self) -> str:
        return self.json or self.py


ENUM_REFUSAL = "expected a member of {enum}, got {value}"
"""Binary encode: why a closed enum's field refuses a value that is not one of its members (``{enum}``: the enum's
name; ``{type}`` and ``{value}`` as in :attr:`WireType.refusal`), in both languages."""


def enum_refusal(enum_name: str) -> str:
    """:data:`ENUM_REFUSAL` for the enum ``enum_name`` (``{type}`` and ``{value}`` left for the runtime)."""
    return ENUM_REFUSAL.replace("{enum}", enum_name)


SPARK_CLASSES = {
    "boolean": "BooleanType()",
    "tinyint": "ByteType()",
    "smallint": "ShortType()",
    "int": "IntegerType()",
    "bigint": "LongType()",
    "float": "FloatType()",
    "double": "DoubleType()",
    "string": "StringType()",
    "binary": "BinaryType()",
    "timestamp": "TimestampType()",
    "variant": "VariantType()",
}
"""The PySpark class of each Spark SQL type the registry uses."""

JAVA_PRIMITIVES = {
    "Boolean": "boolean",
    "Byte": "byte",
    "Short": "short",
    "Integer": "int",
    "Long": "long",
    "Float": "float",
    "Double": "double",
}
"""Java's boxed types and their primitives (a codec holds a field that cannot be null as the primitive)."""


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
            values=_bool_value,
            constant=True,
            java="Boolean",
            java_kafka_read="parseBool({})",
            java_kafka_json="jsonBool(value)",
            java_kafka_text='value ? "true" : "false"',
            java_helper="Bool",
            check="bool",
            check_class="bool",
            to_struct="{0} if type({0}) is bool else _rt.strict_bool({0}, {refusal})",  # (struct packs any truth)
            refusal="expected bool, got {type}",
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
            bits=8,
            values=_int_value,
            constant=True,
            java="Byte",
            java_helper="Int8",
            check="int",
            check_class="int",
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
            bits=16,
            values=_int_value,
            constant=True,
            java="Short",
            java_helper="Int16",
            check="int",
            check_class="int",
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
            bits=32,
            values=_int_value,
            constant=True,
            java="Integer",
            java_helper="Int32",
            check="int",
            check_class="int",
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
            bits=64,
            values=_int_value,
            constant=True,
            java="Long",
            java_helper="Int64",
            check="int",
            check_class="int",
        ),
        WireType(
            "float32",
            "IEEE 754 single precision.",
            # A JSON number has no single precision: the Python codec reads it as a float64, the Java codec would
            # read it as a float32 (0.1 and 0.1f, written back as different texts), so it is one value in both only
            # as a float64. The binary wire holds 4 bytes, which both read alike.
            (BINARY,),
            "float",
            "float",
            lambda i: 0.5 + i,
            struct="f",
            min_size=4,
            values=_number_value,
            java="Float",
            check="float",
            check_class="float",
            check_unless="{v} - {v} != 0.0",  # not finite
            elsewhere="use float64: a JSON number is a float64 in the Python codec, so in both codecs",
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
            values=_number_value,
            java="Double",
            java_helper="Float64",
            java_json_read="JsonRead.number(p, {nullable})",
            check="float",
            check_class="float",
            check_unless="{v} - {v} != 0.0",  # not finite
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
            values=_uuid_value,
            from_struct="_UUID(bytes={})",
            # (the exact class first: anything else with a .bytes would be written and read back as a UUID)
            to_struct='({0}.int if type({0}) is _UUID else _rt.uuid_int({0}, {refusal})).to_bytes(16, "big")',
            refusal="expected uuid.UUID, got {type}",
            binary_imports=("from uuid import UUID as _UUID",),
            to_arrow="str({v})",
            from_arrow="_arrow.uuid_of({v}, {path})",
            java="UUID",
            java_kafka_read="parseUuid({})",
            java_kafka_text="value.toString()",
            java_helper="Uuid",
            java_spark_from="JsonSpark.uuid(o)",
            check="uuid",
            check_class="_UUID",
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
            values=_text_value,
            sized=True,
            java="String",
            java_kafka_read="checkText({})",
            java_helper="Str",
            check="str",
            check_class="str",
            kafka_fast=_PRINTABLE,
            kafka_read_fast=_PRINTABLE,
            kafka_json_fast=_PRINTABLE_LATER,
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
            values=_text_value,
            sized=True,
            java="String",
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
            values=_empty_bytes_value,
            sized=True,
            negative_length=True,
            framed_length=True,
            extends=True,
            java="byte[]",
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
            values=_empty_bytes_value,
            writer="payload_part",
            java="byte[]",
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
            bits=32,
            values=_int_value,
            example="{} zero bytes",
            java="Integer",
            writer_limited=True,
            limit_refusal="padding of {value} bytes exceeds the largest frame ({limit} bytes)",
        ),
        WireType(
            "base64",
            "Bytes carried in JSON as a base64 string (standard alphabet, padded).",
            (JSON, KAFKA),
            "bytes",
            "binary",
            lambda i: bytes([i % 256, 0, 255, 10]) + b"\xfe\xff",
            values=_empty_bytes_value,
            java="byte[]",
            java_kafka_read="parseBase64({})",
            java_kafka_text="base64Text(value)",
            java_helper="Base64",
            check="bytes",
            check_class="bytes",
        ),
        WireType(
            "timestamp",
            "RFC 3339 date-time, timezone-aware.",
            (JSON, KAFKA),
            "datetime.datetime",
            "timestamp",
            lambda i: datetime.datetime(2018, 4, 5, 3, 56, 24 + i % 30, 1000 * i, tzinfo=datetime.UTC),
            json="Timestamp",
            json_meta="tz=True",
            imports=("datetime",),
            java="OffsetDateTime",
            java_kafka_read="parseTimestamp({})",
            java_kafka_text="timestampText(value)",
            java_helper="Timestamp",
            java_spark_from="JsonSpark.timestamp(o)",
            check="timestamp",
            check_class="_DATETIME",
            check_unless="{v}.tzinfo is not _UTC",
            kafka_fast="type({v}) is _DATETIME and {v}.tzinfo is _UTC",
            kafka_text="_JSON_ENCODE({v})[1:-1]",  # (msgspec writes RFC 3339 as timestamp_to_text does)
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
            arrow_shape="_arrow.FREE",
            from_arrow="_arrow.free_value({v})",
            java="VariantVal",
            java_kafka_read="parseAny({})",
            java_kafka_json="jsonAny(value)",
            java_kafka_text="value",  # (held as its JSON text)
            java_helper="Any",
            packed_common="_jk.Scalar",  # (no map key but a string, no extension: see the runtime's Scalar)
            java_json_read="JsonRead.any(p)",
            java_json_write="JsonWrite.any(w, v)",
            java_spark_from="JsonSpark.any(o)",
            java_json_text=True,
            check="any",
        ),
        WireType(
            "uri",
            "RFC 3986 URI: a scheme is required, a fragment is allowed; kafka: the text as-is.",
            (KAFKA,),
            "str",
            "string",
            lambda i: f"https://example.com/schemas/{i}.json#/definitions/v{i}",
            java="String",
            java_kafka_read="checkUri({})",
            kafka_fast=_REMEMBERED.format(valid="VALID_URI"),
            kafka_read_fast=_REMEMBERED.format(valid="VALID_URI"),
        ),
        WireType(
            "uri_reference",
            "RFC 3986 URI-reference (absolute or relative; may be empty unless min_length says otherwise).",
            (KAFKA,),
            "str",
            "string",
            lambda i: (f"/sensors/{i}", f"urn:uuid:{uuid.UUID(int=i + 1)}", f"{i}-555-123-4567")[i % 3],
            java="String",
            java_kafka_read="checkUriReference({})",
            kafka_fast=_REMEMBERED.format(valid="VALID_URI_REFERENCE"),
            kafka_read_fast=_REMEMBERED.format(valid="VALID_URI_REFERENCE"),
        ),
        WireType(
            "media_type",
            "RFC 2045/7231 media type with optional parameters, e.g. `text/plain; charset=utf-8`.",
            (KAFKA,),
            "str",
            "string",
            lambda i: ("application/json", "text/plain; charset=utf-8", "application/vnd.example+json")[i % 3],
            java="String",
            java_kafka_read="checkMediaType({})",
            kafka_fast=_REMEMBERED.format(valid="VALID_MEDIA_TYPE"),
            kafka_read_fast=_REMEMBERED.format(valid="VALID_MEDIA_TYPE"),
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
            kafka_fast=_PRINTABLE,
            kafka_read_fast=_PRINTABLE,
            kafka_json_fast=_PRINTABLE_LATER,
        ),
        WireType(
            "payload",
            "The record value (framing.payload): bytes as-is, text, or a JSON value, read by its content type.",
            (KAFKA,),
            "Any",
            "binary",
            lambda i: (bytes([i % 256, 0, 255]), {"k": [i, "v"]}, f"text-{i}-é")[i % 3],
            imports=("typing.Any",),
            record_value=True,
        ),
    )
}

INTEGER_TYPES = tuple(t.name for t in WIRE_TYPES.values() if t.bits and t.struct)
"""The fixed-size integer types (enums and a binary framing's code and length take one)."""

MAP_KEY = "string"
"""The one key type of ``map<K,V>``."""

JSON_BYTES = "base64"
"""The wire type JSON carries bytes as (a Kafka event's binary payload in structured mode)."""


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
