"""The Kafka family's event model: what the Python codec and the Spark functions both read off the one message.

A Kafka protocol carries one event message. Its fields are the payload (``framing.payload.field``), at most one
``additional`` map holding every undeclared attribute, and the declared attributes; ``framing.binary`` says which
record header carries each attribute. :func:`kafka_event` derives that once from the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import takewhile
from typing import Any

from ..families.framing import KafkaFraming
from ..families.kafka import KAFKA
from ..filters import javastr as java_string
from ..model import Field, MapRef, Message, Protocol, WireRef
from ..naming import java_camel
from ..patterns import java_patterns
from ..types import JAVA_PRIMITIVES, JSON_BYTES, WireType
from .exports import exports
from .runtime import java_kafka_types, kafka_java_type, python_kafka_codec
from .spark import ENCODE_SKIPS, kind_column, pyspark, schema_name

MODULE_NAMES = (
    "MAX_MESSAGE",
    "MISSING",
    "KafkaRecord",
    "MissingType",
    "content_mode",
    "from_json",
    "from_kafka",
    "to_json",
    "to_kafka",
)
"""What a Kafka protocol's module exports besides the module contract (``exports.CONTRACT``) and its event."""


@dataclass(frozen=True)
class KafkaEvent:
    message: Message
    payload: Field
    extra: Field | None  # the map of undeclared attributes, if the event has one
    attributes: list[Field]  # the declared attributes, in definition order (neither payload nor extra)
    content_type: Field | None  # the attribute that names the payload's media type
    headers: dict[str, str]  # field name -> its record header in binary mode (prefix + name unless named)
    leading: list[Field]  # the leading run of const and required attributes (checked, then written at once)
    wire_types: list[WireType]  # the wire types of the attributes, then of the extra map's values; each once
    not_extensions: list[str]  # sorted: names an undeclared attribute may not take (reserved, declared, JSON members)
    structured_prefix: str  # a content type starting with it (ASCII case-insensitive) marks a structured-mode record

    @property
    def binary_mode_refusal(self) -> str:
        """Encode's refusal (both codecs) of a binary-mode event whose content type starts with the structured
        prefix: as the record's content-type header, it would make the record read as structured mode."""
        name = self.content_type.name if self.content_type else "content type"
        return (
            f"binary content mode cannot carry a {name} that starts with '{self.structured_prefix}': the record "
            "would be read as structured content mode (write it in structured mode)"
        )

    @property
    def wire_names(self) -> list[str]:
        return [w.name for w in self.wire_types]

    @property
    def codec_wire_names(self) -> list[str]:
        """The wire types whose converters the Python codec imports: those used, plus the one JSON carries bytes as
        (the structured format's binary payload)."""
        return self.wire_names if JSON_BYTES in self.wire_names else [*self.wire_names, JSON_BYTES]

    @property
    def made_codecs(self) -> dict[str, str]:
        """The wire types (of ``codec_wire_names``) whose converters the Python codec binds itself, by the runtime
        call that makes them: an integer's or a float's, from its record's range (``int_codec(-128, 127)``). The
        codec imports the others' from the runtime."""
        made = {w.name: python_kafka_codec(w) for w in self.wire_types}
        return {name: call for name, call in made.items() if call is not None}

    def header(self, f: Field) -> str:
        """The record header of attribute ``f`` in binary mode."""
        return self.headers[f.name]

    def spark_text(self, f: Field) -> bool:
        """Whether Spark holds attribute ``f`` (for the extra map: its values) as the canonical text of the codec's
        value, which is of another Python type (a UUID, any JSON value, a boolean, integer or string extension):
        the Spark functions' Python path converts it with the runtime's ``<wire>_to_text``/``_from_text``."""
        wire = attribute_wire(f)
        return wire.spark == "string" and wire.py != "str"

    @staticmethod
    def fast(f: Field, wire: str, v: str = "value") -> tuple[str, str] | None:
        """Encode's fast path for attribute ``f`` held in ``v``: the test almost every value passes (its exact class,
        a valid value remembered...) and its wire form then, in Python (``wire``: ``"text"``, the header's bytes, or
        ``"json"``, the JSON format's value); None: every value takes the runtime's converter."""
        w = attribute_wire(f)
        if not w.kafka_fast:
            return None
        test = (w.kafka_json_fast if wire == "json" and w.kafka_json_fast else w.kafka_fast).format(v=v)
        if f.min_length:
            test += f" and {v}" if f.min_length == 1 else f" and len({v}) >= {f.min_length}"
        return test, (w.kafka_text if wire == "text" else w.kafka_json).format(v=v)

    @staticmethod
    def read_fast(f: Field, v: str = "value") -> str | None:
        """Decode's fast path for attribute ``f`` (of the map of undeclared attributes: its values) read into ``v``,
        a header's text or a JSON format member: the test almost every value passes, which is then the attribute's
        value as it is; None: every value takes the runtime's converter."""
        test = attribute_wire(f).kafka_read_fast
        return test.format(v=v) if test else None

    @staticmethod
    def required(f: Field) -> bool:
        """Whether an event without attribute ``f`` is refused (no default fills it)."""
        return not f.optional and not f.has_default


def _checked_first(f: Field) -> bool:
    """Whether ``f`` may be in the leading run: a const or required attribute of a wire type (not the payload)."""
    return (
        (f.has_const or KafkaEvent.required(f))
        and not f.additional
        and isinstance(f.type, WireRef)
        and not f.type.wire.record_value
    )


def attribute_wire(f: Field) -> WireType:
    """The wire type of attribute ``f`` (of the map of undeclared attributes: its values'); a Kafka protocol's
    attributes are all of wire types."""
    ref = f.type.item if f.additional and isinstance(f.type, MapRef) else f.type
    if not isinstance(ref, WireRef):
        raise TypeError(f"attribute type {ref.text} is not a wire type")
    return ref.wire


def kafka_event(protocol: Protocol) -> KafkaEvent:
    """The event model of a Kafka-family protocol (its first message)."""
    framing = protocol.framing_as(KafkaFraming)
    event = protocol.messages[0]
    payload = next(f for f in event.fields if f.name == framing.payload.field)
    extra = next((f for f in event.fields if f.additional), None)
    attributes = [f for f in event.fields if not f.additional and f.name != payload.name]
    content_type = next((f for f in attributes if f.name == framing.payload.content_type_attribute), None)
    binary = framing.binary
    headers = {f.name: binary.attribute_headers.get(f.name, binary.attribute_prefix + f.name) for f in event.fields}
    wire_types: list[WireType] = []
    for f in attributes + ([extra] if extra else []):
        wire = attribute_wire(f)
        if wire.name not in [w.name for w in wire_types]:
            wire_types.append(wire)
    return KafkaEvent(
        message=event,
        payload=payload,
        extra=extra,
        attributes=attributes,
        content_type=content_type,
        headers=headers,
        leading=list(takewhile(_checked_first, event.fields)),
        wire_types=wire_types,
        structured_prefix=framing.detection.structured_prefix,
        not_extensions=sorted(
            {
                *framing.attribute_names.reserved,
                *(f.name for f in event.fields if not f.additional),
                framing.json_format.data_member,
                framing.json_format.data_base64_member,
            }
        ),
    )


def python_context(protocol: Protocol) -> dict[str, Any]:
    """What the Kafka templates read: the event model."""
    event = kafka_event(protocol)
    return {"kafka": event, "exports": exports(protocol, MODULE_NAMES, [event.message.name])}


# --- the Spark module ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SparkAttribute:
    """How one field of the event crosses between the codec and Spark on the Python path."""

    field: Field
    type: str  # Python source: its PySpark type
    to_spark: str  # Python source: its value in the Spark row, from the codec's ``event`` (the data and its content
    # type come from ``_MEDIA.payload``: ``data``, ``content_type``)
    from_text: str | None  # the runtime's ``<wire>_from_text`` that reads its Spark value back (None: as it is)
    to_codec: str  # Python source: the codec's value from the local variable named after the field

    @property
    def py(self) -> str:
        return self.field.py


@dataclass(frozen=True)
class SparkKafka:
    """What the Kafka family's Spark module lays out: the event's schema and column, how each field crosses between
    the codec and Spark, and the facts its functions take (``py_package/spark/_kafka.py``)."""

    event: KafkaEvent
    column: str  # the event's column in DECODED and in from_kafka's row
    schema: str  # the module-level name of the event's schema
    attributes: list[SparkAttribute]  # every field of the event, in schema order
    key_mappers: list[tuple[str, str, str]]  # (mapper, field, encoding): the attributes that may become the key
    java_gap: str | None  # why the protocol has no Java target (no JVM path), or None: it has one
    time_field: str | None  # the timestamp the Java UDFs take in microseconds (with a Java target)

    @property
    def java(self) -> bool:
        """Whether the protocol has a Java target (the JVM path)."""
        return self.java_gap is None

    @property
    def extra_field(self) -> str | None:
        """The map of undeclared attributes (its field), which the Java UDFs take as names and values."""
        return self.event.extra.py if self.event.extra else None


def _spark_attribute(event: KafkaEvent, f: Field) -> SparkAttribute:
    text = event.spark_text(f)
    wire = attribute_wire(f)
    if f is event.payload:
        to_spark, to_codec = "data", f"_kw.MISSING if {f.py} is None else {f.py}"
    elif f is event.content_type:
        to_spark, to_codec = "content_type", f.py
    elif f.additional:
        items = f"[(k, _kw.{wire.name}_to_text(v)) for k, v in event.{f.py}.items()]" if text else None
        to_spark = f"{items} if event.{f.py} else []" if items else f"list(event.{f.py}.items())"
        to_codec = f"dict({f.py} or ())"
    else:
        to_spark = (
            f"None if event.{f.py} is None else _kw.{wire.name}_to_text(event.{f.py})" if text else f"event.{f.py}"
        )
        to_codec = f.py
    from_text = f"_kw.{wire.name}_from_text" if text and not f.additional and f is not event.payload else None
    return SparkAttribute(f, pyspark(f.type, variant=False), to_spark, from_text, to_codec)


def kafka_spark(protocol: Protocol) -> SparkKafka:
    """The Spark module of a Kafka-family protocol."""
    event = kafka_event(protocol)
    framing = protocol.framing_as(KafkaFraming)
    by_name = {f.name: f for f in event.attributes}
    gap = java_gap(event)
    times = _timestamps(event)
    return SparkKafka(
        event=event,
        column=kind_column(event.message, ("message", "error")),
        schema=schema_name(event.message),
        attributes=[_spark_attribute(event, f) for f in event.message.fields],
        key_mappers=[(m.name, by_name[m.attribute].py, m.encoding) for m in framing.key.mappers],
        java_gap=gap,
        time_field=times[0].py if gap is None and times else None,
    )


def spark_context(protocol: Protocol) -> dict[str, Any]:
    """What the Kafka family's Spark template reads besides the event model (``python_context``)."""
    return {"spark": kafka_spark(protocol), "encode_skips": ENCODE_SKIPS}


# --- the Java target ------------------------------------------------------------------------------------------

_CARRIED = frozenset(t.name for t in java_kafka_types())
"""The wire types of the attributes the Java target carries: those the runtime's generated KafkaWire has methods for
(``<wire>FromText``/``FromJson``/``ToText``/``ToJson``, from the type records: ``analysis/runtime.py``). A protocol
with an attribute of another type has no Java target: its Spark functions take the Python path."""


_JAVA_TEXT = {"String"}
"""Java types that are text: their minimum length is checked, and the JSON format writes them as strings."""


@dataclass(frozen=True)
class JavaAttribute:
    field: Field
    name: str  # the attribute name (JSON member, problems)
    java: str  # the Java name of the component and its local variables
    type: str  # the Java type of the decoded value
    wire: str  # the KafkaWire method stem (``uriReference``: uriReferenceFromText, ...)
    header: str  # its header in binary mode (lower case)
    required: bool
    const: str | None  # the only value allowed, as text
    min_length: int
    content_type: bool  # the attribute naming the payload's media type
    spark_text: bool  # Spark holds the value as its canonical text (``<wire>ToText``; read back by ``FromText``)
    json_text: bool  # held as its JSON text (``any``): written in the JSON format as that JSON value
    column: int  # its column in Spark's row of the event (the undeclared attributes' map has one in field order)

    @property
    def timestamp(self) -> bool:
        return self.type == "OffsetDateTime"

    @property
    def text(self) -> bool:
        """A text attribute (else JSON text, a boolean, number or time): its length is checked; JSON writes a
        string."""
        return self.type in _JAVA_TEXT and not self.json_text

    @property
    def checked_length(self) -> int:
        """The minimum length checked on the text (``KafkaEvents.checkLength``), 0 for none."""
        return self.min_length if self.text else 0

    @property
    def to_row(self) -> str:
        """The value of ``event`` in Spark's row (``contentType``: the event's, made explicit for JSON data)."""
        value = f"event.{self.java}()"
        if self.spark_text:
            return f"{value} == null ? null : Codec.WIRE.{self.wire}ToText({value})"
        if self.content_type:
            return "contentType"
        return f"Codec.instant({value}, {java_string(self.field.py)})" if self.timestamp else value

    @property
    def from_row(self) -> str:
        """The value of Spark's ``row`` for the event (one held as text is read into its local first; the time is
        ``time``, from the microseconds Spark passes)."""
        if self.spark_text:
            return self.java
        if self.timestamp:
            return "time"
        return f"row.getString({self.column})" if self.text else f"({self.type}) row.get({self.column})"

    @property
    def json_raw(self) -> bool:
        """Written in the JSON format as a bare JSON value (a boolean or number: a Java primitive's box), not as a
        string."""
        return self.type in JAVA_PRIMITIVES or self.json_text

    @property
    def json_write(self) -> str:
        """How the JSON format's writer (``CompactJson``) writes the text ``text`` of the value."""
        if self.json_text:
            return "json(text)"
        return "literal(text)" if self.json_raw else "string(text)"


@dataclass(frozen=True)
class JavaKafka:
    """What the Java templates of the kafka family read: the event model in Java terms and the runtime's rules."""

    event: KafkaEvent
    attributes: list[JavaAttribute]  # declared attributes, in field order
    extensions_at: int  # how many declared attributes precede the extensions in field order
    extensions: str  # the Java name of the map of undeclared attributes
    content_type_at: int  # index of the content-type attribute in ``attributes``
    patterns: dict[str, list[str]]  # KafkaWire constructor arguments: the Kafka family's text patterns
    # (``patterns.py``, which the Python runtime is rendered from too), as Java string literals to be joined with +
    name_pattern: str  # attribute names (Java literal)
    name_rule: str  # the rule on names, as problems say it
    json_implied: bool  # an absent content type means JSON data
    own_headers: str  # attributes carried by a header of their own, and that header: Map.of arguments

    @property
    def slots(self) -> list[JavaAttribute | None]:
        """The event record's components before its data, in field order: the attributes, and None where the map
        of undeclared attributes goes."""
        slots: list[JavaAttribute | None] = list(self.attributes)
        slots.insert(self.extensions_at, None)
        return slots

    @property
    def content_type(self) -> JavaAttribute:
        """The attribute naming the data's media type."""
        return self.attributes[self.content_type_at]

    @property
    def data_column(self) -> int:
        """The data's column in Spark's row of the event (after every attribute and the undeclared ones)."""
        return len(self.attributes) + 1


def _java_pieces(regex: str) -> list[str]:
    """A Java regular expression as string literals whose concatenation is it (in pieces, so that no source line is
    long)."""
    pieces = [regex[i : i + 80] for i in range(0, len(regex), 80)] or [""]
    return [java_string(piece) for piece in pieces]


def _timestamps(event: KafkaEvent) -> list[Field]:
    """The event's timestamp attributes (the Java target carries one at most: Spark passes its microseconds to the
    UDFs)."""
    return [f for f in event.attributes if attribute_wire(f).java == "OffsetDateTime"]


def java_gap(event: KafkaEvent) -> str | None:
    """Why the Java target does not carry a Kafka-family protocol's event (its Spark functions then run the Python
    codec), in words for its users; None when it does."""
    if event.extra is None:  # the Java codec keeps undeclared attributes in a map
        return "it declares no map of undeclared attributes (a map field with `additional: true`)"
    if event.content_type is None:  # ... and reads the data by its content type
        return "it declares no content-type attribute"
    for f in event.attributes:
        wire = attribute_wire(f)
        if wire.name not in _CARRIED:
            return f"its attribute {f.name!r} is of a type the Java codec does not carry ({f.type.text})"
        if f.has_const and (wire.java not in _JAVA_TEXT or wire.java_json_text):
            return f"its attribute {f.name!r} has a constant value but is not text"
    times = _timestamps(event)
    if len(times) > 1:
        return f"it has more than one timestamp attribute ({', '.join(f.name for f in times)})"
    return None


def java_kafka(protocol: Protocol) -> JavaKafka | None:
    """The Java view of a Kafka-family protocol, with the wire types' text patterns (``patterns.py``); None
    when the Java target does not carry it (:func:`java_gap` says why)."""
    event = kafka_event(protocol)
    if java_gap(event) is not None:
        return None
    assert event.extra is not None and event.content_type is not None  # what java_gap asks first
    framing = protocol.framing_as(KafkaFraming)
    fields = [f for f in event.message.fields if f is not event.payload]
    extensions_at = fields.index(event.extra)
    attributes = _java_attributes(event, extensions_at)
    reserved = framing.attribute_names.reserved
    return JavaKafka(
        event=event,
        attributes=attributes,
        extensions_at=extensions_at,
        extensions=KAFKA.java_name(event.extra),
        content_type_at=next((i for i, a in enumerate(attributes) if a.content_type), -1),
        patterns={name: _java_pieces(regex) for name, regex in java_patterns().items()},
        name_pattern=java_string(framing.attribute_names.pattern),
        name_rule=f"must match {framing.attribute_names.pattern}"
        + (f" and not be one of {', '.join(reserved)}" if reserved else "")
        + " or a declared attribute",
        json_implied=_json_implied(framing),
        own_headers=", ".join(
            f"{java_string(own)}, {java_string(header)}" for own, header in framing.binary.attribute_headers.items()
        ),
    )


def _java_attributes(event: KafkaEvent, extensions_at: int) -> list[JavaAttribute]:
    """The event's attributes as the Java templates read them; ``column`` skips the extensions' column."""
    attributes = []
    for at, f in enumerate(event.attributes):
        wire = attribute_wire(f)
        const = None
        if f.has_const:
            const = "true" if f.const is True else "false" if f.const is False else str(f.const)
        attributes.append(
            JavaAttribute(
                field=f,
                name=f.name,
                java=KAFKA.java_name(f),
                type=str(kafka_java_type(wire)),
                wire=java_camel(wire.name),
                header=event.header(f),
                required=KafkaEvent.required(f),
                const=const,
                min_length=f.min_length or 0,
                content_type=f is event.content_type,
                spark_text=event.spark_text(f),
                json_text=wire.java_json_text,
                column=at if at < extensions_at else at + 1,
            )
        )
    return attributes


def _json_implied(framing: KafkaFraming) -> bool:
    """Whether the structured format's implied data content type is JSON (a JSON subtype or a ``+json`` suffix)."""
    json_data = framing.json_format.json_data
    subtype = json_data.implied.partition(";")[0].strip().lower().partition("/")[2]
    return subtype in json_data.subtypes or any(
        subtype.endswith(s) and len(subtype) > len(s) for s in json_data.suffixes
    )


def java_context(protocol: Protocol) -> dict[str, Any] | None:
    """What the Kafka family's Java templates read; None when the protocol has no Java target."""
    java = java_kafka(protocol)
    if java is None:
        return None
    return {
        "kafka": java.event,
        "java": java,
        "java_names": {"Event": java.event.message.name},  # the event class's file is named after it
        "jstr": java_string,
        "jlist": lambda items: ", ".join(java_string(item) for item in items),
    }
