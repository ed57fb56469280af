"""The message catalog: every refusal text both runtimes give, written once.

The Python and the Java codec refuse with the same words (the guide's "one rule, every language"); so that no text is
copied by hand from one runtime into the other, each lives here once, as a name and a template whose ``{fields}``
the runtime fills in, and is rendered once per run into the Python ``_runtime/messages.py`` (a constant for a text
without fields, else a function of keyword arguments) and the Java ``runtime/Messages.java`` (a constant, else a
static method of ``Object`` arguments, in the template's order). A field is filled with the value's ``str()`` in
Python and ``String.valueOf`` in Java: the caller passes what both print alike (an int, a text it has shown with
``repr``/``PythonText.repr``).

Some entries are words the Python path does not write itself but takes from the library that refuses (``struct``,
msgspec): the Java runtime says them from here, and ``tests/test_message_catalog.py`` pins each against the
library's actual message, so that a library upgrade that changes its words fails a test instead of splitting the two
codecs. ``tests/test_message_catalog.py`` also holds that no Java message literal is found in the Python runtime.
"""

from __future__ import annotations

import re
import string
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .filters import LINE_LENGTH, java_sum, javastr

SHOWN_KEYS = 8
"""How many of an object's keys a problem shows (no_message_has_keys): a message has few, a value no message
matches may have any number."""

CONTENT_MODES = ("binary", "structured")
"""The Kafka binding's content modes: those ``to_kafka`` writes a record in (any other is refused as
``unknown_mode``), in the Python runtime (``kafkarecords``) and the Java SQL functions (``SqlFunctions``) alike."""

MAX_DEPTH = 1000
"""How deep both runtimes let JSON nest its arrays and objects (Jackson's default, which the CloudEvents Java SDK
reads with); deeper is refused as :data:`TOO_DEEP` whatever the interpreter's stack."""


@dataclass(frozen=True)
class Message:
    """One refusal text: ``name`` in snake case (the Python name; Java's is its camel case), the template."""

    name: str
    template: str
    doc: str
    source: str = ""  # the library whose words these are, when the Python path takes them from it
    python_never: str = ""  # why the Python runtime never says it (what refuses the same input there first)
    java_never: str = ""  # why the Java runtime never says it (what it has no counterpart of)
    column: bool = False  # its fields are Spark columns: said as the pieces to concat (a text is a literal)

    @property
    def fields(self) -> list[str]:
        return [field for _, field, _, _ in string.Formatter().parse(self.template) if field is not None]

    @property
    def python_name(self) -> str:
        return self.name.upper() if not self.fields else self.name

    @property
    def java_name(self) -> str:
        if not self.fields:
            return self.name.upper()
        head, *rest = self.name.split("_")
        return head + "".join(part.capitalize() for part in rest)

    @property
    def python(self) -> str:
        """The Python definition (one statement)."""
        doc = self.doc + (f" ({self.source}'s words)" if self.source else "")
        if not self.fields:
            return f'{self.python_name}: Final = {_py_str(self.template)}\n"""{doc}"""'
        if self.column:
            assert len(self.pieces) > 1, f"{self.name}: a column message has a field and a text at least"
            params = ", ".join(f"{field}: object" for field in self.fields)
            pieces = ", ".join(_py_str(piece) if literal else piece for literal, piece in self.pieces)
            return f'def {self.name}(*, {params}) -> tuple[object, ...]:\n    """{doc}"""\n    return ({pieces})'
        params = ", ".join(f"{field}: object" for field in self.fields)
        return f'def {self.name}(*, {params}) -> str:\n    """{doc}"""\n    return {_py_fstring(self.template)}'

    @property
    def java(self) -> str:
        """The Java member (one declaration), its lines within the line length once indented in its class."""
        if not self.fields:
            return java_sum(f"public static final String {self.java_name} = ", [(True, self.template)], width=_JAVA)
        params = ", ".join(f"Object {field}" for field in self.fields)
        if self.column:
            pieces = ", ".join(javastr(piece) if literal else piece for literal, piece in self.pieces)
            return f"public static Object[] {self.java_name}({params}) {{\n    return new Object[] {{{pieces}}};\n}}"
        parts = [
            (literal, text if literal or i else f"String.valueOf({text})")
            for i, (literal, text) in enumerate(self.pieces)
        ]
        body = java_sum("return ", parts, indent=4, width=_JAVA)
        return f"public static String {self.java_name}({params}) {{\n{body}\n}}"

    @property
    def pieces(self) -> list[tuple[bool, str]]:
        """The template in order: (True, a literal text) and (False, a field's name)."""
        found: list[tuple[bool, str]] = []
        for literal, field, _, _ in string.Formatter().parse(self.template):
            if literal:
                found.append((True, literal))
            if field is not None:
                found.append((False, field))
        return found

    def format(self, **values: Any) -> str:
        return self.template.format(**values)


def _py_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _py_fstring(template: str, width: int = 96) -> str:
    """An f-string of ``template``; a long one as pieces in parentheses, split between words (ruff splits no string,
    and the rendered module is held to its line length)."""
    if len(template) <= width:
        return "f" + _py_str(template)
    chunks: list[str] = []
    chunk = ""
    for token in re.findall(r"\{[^{}]*\}|[^{ ]+ *| +", template):
        if chunk and len(chunk) + len(token) > width:
            chunks.append(chunk)
            chunk = ""
        chunk += token
    chunks.append(chunk)
    pieces = "\n        ".join(("f" if "{" in c else "") + _py_str(c) for c in chunks)
    return f"(\n        {pieces}\n    )"


_JAVA = LINE_LENGTH - 4
"""The width of a Java member's lines: ``runtime/Messages.java`` indents each by 4 in its class."""


_STRUCT = "Python's struct module"
_MSGSPEC = "msgspec"

CATALOG: tuple[Message, ...] = (
    # An entry point given what it does not take (errors.py, frames.py, kafkarecords.py, the JSON template; the Java
    # codecs given null say what the Python codec says of None: kind is then NoneType).
    Message(
        "not_bytes",
        "{call} takes bytes or a bytes-like object, not {kind}",
        "decode or a Reader's feed given what is not bytes (kind: its Python type's name).",
    ),
    Message(
        "not_bytes_or_text",
        "{call} takes bytes, a bytes-like object or str, not {kind}",
        "A JSON-family decode (or from_json) given what is neither bytes nor text (kind: its Python type's name).",
    ),
    Message(
        "not_a_slice",
        "{call} takes a slice of its bytes, and offset {offset} length {length} is not one of {size} bytes",
        "A Java decode or feed given an offset and length that are not a slice of its data (size: the data's length).",
        python_never="a Python decode or feed takes no offset and length: a slice is passed as a memoryview",
    ),
    Message(
        "not_a_message",
        "not a {what}: {kind}",
        "encode given what is not one of the protocol's messages (what: 'kcl message', 'CloudEvent'; kind: as above).",
    ),
    # JSON nesting, all families.
    Message(
        "too_deep",
        "malformed JSON: nested too deeply",
        "JSON nested deeper than MAX_DEPTH (at the bracket that opens one level too many).",
    ),
    # The JSON family's own words (jsontext.py, jsonfailures.py, jsonwire.py, jsonpacked.py, jsonpaths.py; JsonParsing,
    # JsonReader, JsonMessages).
    Message("nested_too_deeply", "nested too deeply", "Why a text is malformed when it nests deeper than MAX_DEPTH."),
    Message("malformed", "malformed {syntax}: {why}", "A text that is not JSON (or MessagePack: syntax) and why."),
    Message("string_not_utf8", "a string is not valid UTF-8 ({why})", "Why a text is malformed (why: the codec's)."),
    Message(
        "lone_surrogate",
        "a string is not valid Unicode (lone surrogate {escape})",
        "Why a JSON text is malformed: it escapes an unpaired surrogate (escape: as written).",
    ),
    Message("too_long", "{what} longer than {limit} bytes", "A line or message (what) beyond the reader's limit."),
    Message(
        "empty_message",
        "empty message: an end line with no JSON before it",
        "Storm's framing: an end line right after another.",
    ),
    Message("no_message_matches", "no message matches this {what}", "A JSON value no message of the direction is."),
    Message(
        "no_message_has_keys",
        "no message has the keys {keys}",
        "An object without a tag whose keys no message of the direction has (keys: shown_keys's).",
    ),
    Message(
        "shown_keys",
        "{first} and {more} more",
        "An object's keys in a problem past the first SHOWN_KEYS: those (reprs, comma-separated) and how many more.",
    ),
    Message("no_message_empty_object", "no message is an empty object", "An empty object, which no message is."),
    # msgspec's words: the Python decoder takes them from msgspec's ValidationError; its encoder checks
    # (jsonchecks.py) and the Java codec say them from here.
    Message("expected_type", "Expected `{type}`, got `{kind}`", "A value of another JSON type.", _MSGSPEC),
    Message("expected_tag_type", "Expected `{type}`", "A message's tag of another JSON type.", _MSGSPEC),
    Message("invalid_tag", "Invalid value '{tag}'", "A tag no message has (quoted as it is).", _MSGSPEC),
    Message("int_at_most", "Expected `int` <= {high}", "An integer above its type's range.", _MSGSPEC),
    Message("int_at_least", "Expected `int` >= {low}", "An integer below its type's range.", _MSGSPEC),
    Message(
        "no_timezone",
        "Expected `datetime` with a timezone component",
        "A timestamp without an offset.",
        _MSGSPEC,
    ),
    Message("json_truncated", "Input data was truncated", "A JSON text cut short.", _MSGSPEC),
    Message(
        "json_trailing",
        "trailing characters",
        "A JSON text with more after its value (msgspec says the byte offset after it).",
        _MSGSPEC,
    ),
    Message(
        "json_syntax", "JSON is malformed: {why}", "A JSON text with a syntax error (why: the parser's).", _MSGSPEC
    ),
    Message("number_out_of_range", "Number out of range", "A number beyond a double's range.", _MSGSPEC),
    # msgspec's MessagePack words (the MessagePack framing variant: jsonpacked.py, jsonpaths.py; PackedRead,
    # PackedWrite).
    Message(
        "unknown_serializer",
        "unknown serializer {name}; expected one of {serializers}",
        "A framing (serializer=) the protocol does not have (name: its repr; serializers: the tuple of those it has).",
    ),
    Message("packed_syntax", "MessagePack", "The name the MessagePack framing's malformed values give their syntax."),
    Message(
        "packed_opcode",
        "invalid opcode {opcode}",
        "A byte no MessagePack value starts with (opcode: its repr).",
        _MSGSPEC,
    ),
    Message(
        "packed_unhashable",
        "map keys must be hashable",
        "A MessagePack map whose key is a map (msgspec says the byte after the key).",
        _MSGSPEC,
    ),
    Message("packed_timestamp", "Invalid MessagePack timestamp", "A timestamp extension of another size.", _MSGSPEC),
    Message(
        "packed_timestamp_nanoseconds",
        "Invalid MessagePack timestamp: nanoseconds out of range",
        "A timestamp extension with more than 999999999 nanoseconds.",
        _MSGSPEC,
    ),
    Message(
        "packed_timestamp_range",
        "Timestamp is out of range ",
        "A timestamp extension outside the years 1 to 9999 (msgspec's words end with a space).",
        _MSGSPEC,
    ),
    Message(
        "packed_int_range",
        "can't serialize ints < -2**63 or > 2**64 - 1",
        "An integer MessagePack cannot carry, to encode.",
        _MSGSPEC,
    ),
    Message(
        "packed_key_not_str",
        "a map key is not a string (`{kind}`), which JSON and a VARIANT have no form for",
        "A free-form (any) MessagePack value with a map key that is not a string (kind: msgspec's name of its type).",
    ),
    Message(
        "packed_extension",
        "MessagePack extension type {type}, which JSON and a VARIANT have no form for",
        "A free-form (any) MessagePack value that is an extension other than the timestamp (type: its number).",
    ),
    Message("invalid_enum", "Invalid enum value {value}", "A value no member of the enum has.", _MSGSPEC),
    Message(
        "missing_field",
        "missing required field `{key}`",
        "A required field absent (msgspec says 'Object ' first; the runtimes drop it).",
        _MSGSPEC,
    ),
    Message(
        "not_representable",
        "`{path}`: not representable in Spark ({why})",
        "A decoded value Spark's row cannot hold.",
    ),
    # Binary framing (frames.py, BinaryWire/BinaryReader/BinarySpark).
    Message(
        "unknown_direction",
        "unknown direction {direction}; expected one of {directions}",
        "A codec asked for a direction its protocol does not have (both shown as Python reprs).",
    ),
    Message(
        "unknown_mode",
        "unknown mode {mode}; expected one of {modes}",
        "A Spark function asked for a mode it does not have (both shown as Python reprs).",
    ),
    Message(
        "unknown_key_mapper",
        "unknown key mapper {mapper}; expected one of {mappers}",
        "A to_kafka's key mapper name the protocol lacks (both as Python reprs): a ValueError, the caller's mistake.",
        java_never="the SQL to_kafka takes no key mapper: its caller makes the key column",
    ),
    Message(
        "not_in_direction",
        "type code {code} is not sent in direction {direction}",
        "A frame's type code belongs to the protocol but not to the direction read.",
    ),
    Message("not_inline", "type code {code} is not an inline frame ({names})", "An inline frame of another type."),
    Message(
        "payload_outside",
        "payload length {length} outside 0..{limit}",
        "A frame header's payload length beyond the largest frame.",
    ),
    Message(
        "shorter_than_header",
        "frame of {size} bytes is shorter than the {header}-byte header",
        "A whole-frame decode given less than a header.",
    ),
    Message(
        "payload_past_given",
        "payload length {length} runs past the {given} bytes given",
        "A whole-frame decode whose header promises more than it was given.",
    ),
    Message("bytes_follow", "{count} bytes follow the frame", "A whole-frame decode given more than one frame."),
    Message("unknown_type_code", "unknown type code {code}", "A type code that no message of the protocol has."),
    Message(
        "never_top_level",
        "{name} (type {code}) is never a top-level frame",
        "A top-level frame of a message that only lives inside other data.",
    ),
    Message(
        "never_sent_top_level",
        "{name} is never sent as a top-level frame",
        "encode given a message that only lives inside other data (encode_inline writes it).",
    ),
    Message(
        "frame_too_long",
        "frame of {size} bytes exceeds MAX_FRAME ({limit})",
        "encode of a frame longer than the protocol's largest.",
    ),
    Message("size_not_fit", "size {size} does not fit the bytes left", "A size prefix that is negative or too large."),
    Message(
        "size_beyond_left",
        "size {size} exceeds the {left} bytes left",
        "A size prefix larger than what is left of the frame.",
    ),
    Message("not_enum_value", "{value} is not a {kind} value", "A binary enum's wire value that no member has."),
    Message(
        "ends_inside_frame",
        "the data ends inside a frame ({left} of {need} bytes)",
        "A stream of frames cut inside its last frame.",
    ),
    Message(
        "input_starts",
        "{problem} (input of {size} bytes starts {hex}{more})",
        "A Spark row refused FAILFAST: its problem and its first 48 bytes in hex (more: '...' when longer).",
    ),
    Message("unknown_message", "unknown message {name}", "An encode row names no message of the protocol."),
    Message("null_for_message", "null for message {name}", "An encode row whose message's column is null."),
    Message(
        "no_column_for_message",
        "no column for message '{name}'",
        "An encode row whose struct lacks the message's column (a backstop: the functions find every field first).",
    ),
    Message("not_a_uuid", "not a UUID: {value}", "A Spark UUID string that is not one (shown as a Python repr)."),
    # The Kafka family's attributes and event format (KafkaProblems, KafkaEvents, KafkaJson; the Kafka templates).
    Message(
        "attribute_missing",
        "required attribute {name} is missing",
        "A required attribute absent (name: a Python repr).",
    ),
    Message(
        "attribute_not_const",
        "attribute {name} must be {expected}, not {found}",
        "An attribute with a constant value holding another (all three shown as Python reprs).",
    ),
    Message(
        "attribute_problem",
        "attribute {name} {problem}",
        "An attribute's value that breaks its rule (name: a Python repr; problem: the rule's words).",
    ),
    Message("not_empty", "must not be empty", "A text attribute that must have a character at least."),
    Message("fewer_characters", "must have at least {count} characters", "A text attribute shorter than its minimum."),
    Message(
        "members_exclusive",
        "members {first} and {second} are mutually exclusive; both are present",
        "An event in the JSON format with both data members (shown as Python reprs).",
    ),
    Message(
        "undeclared_name",
        "{name} is not a valid name for an undeclared attribute ({rule})",
        "encode given an extension whose name the naming rule refuses (name: a Python repr).",
    ),
    Message(
        "event_not_object",
        "an event in the JSON format is a JSON object, not {kind}",
        "A structured-mode value that is JSON but not an object (kind: Python's name of its type).",
    ),
    Message("no_event_row", "no event (the row is null)", "A to_kafka row whose event is null (its error column)."),
    # A struct a Java UDF is given, read by name (RowShape): what the Python path's analysis refuses as well.
    Message(
        "struct_field_missing",
        "{function} takes its row type's fields by name, and the struct given has no field `{field}`",
        "A struct given to a Spark function without one of its row type's fields (function: e.g. storm encode).",
        python_never="Spark's analysis, when the Python function names every field (FIELD_NOT_FOUND)",
    ),
    Message(
        "struct_field_type",
        "{function} takes its row type's fields by name, and field `{field}` is {given}, not {wanted}",
        "A struct given to a Spark function with a field of another type (Spark's simple strings of both).",
        python_never="Spark's analysis of the Python function, which reads each field as its type",
    ),
    # Spark's error columns (spark/__init__.py, spark/_kafka.py; SqlFunctions): pieces of a concat, the fields columns.
    Message(
        "failfast_problem",
        "{protocol}: {problem} (input starts {excerpt})",
        "A row refused FAILFAST: the decode problem and the input's first 120 characters as a JSON array.",
        column=True,
    ),
    Message(
        "cannot_encode",
        "{protocol}: cannot encode: {problem}",
        "A row that cannot be encoded, FAILFAST.",
        column=True,
    ),
    Message(
        "cannot_encode_event",
        "{protocol}: cannot encode the event: {problem}",
        "An event that cannot be written to a Kafka record (the error column, or FAILFAST).",
        column=True,
    ),
    # Binary fields (binary.py, BinaryWire).
    Message("needs_bytes", "needs {need} bytes but only {left} remain", "A fixed run past the frame's end."),
    Message("string_past_frame", "string of {size} bytes runs past the frame", "A string longer than its frame."),
    Message("mutf8_partial", "malformed input: partial character at end", "Modified UTF-8 cut inside a character."),
    Message("mutf8_around", "malformed input around byte {at}", "Modified UTF-8 with a bad byte (DataInput's words)."),
    Message("invalid_mutf8", "invalid modified UTF-8: {why}", "A modified UTF-8 string refused (why: the above)."),
    Message("invalid_utf8", "invalid UTF-8: {why}", "A UTF-8 string refused (why: Python's codec reason)."),
    Message(
        "mutf8_too_long",
        "{size} bytes of modified UTF-8 exceed the 65535-byte limit",
        "A modified UTF-8 string longer than its 2-byte length can say.",
    ),
    Message("utf8_too_long", "{size} bytes exceed the 65535-byte limit", "A UTF-8 string or bytes too long."),
    Message("not_utf8_encodable", "not encodable as UTF-8: {why}", "A text with a lone surrogate, to UTF-8."),
    Message("expected_str", "expected str, got {kind}", "A text field given another Python type."),
    Message("expected_bytes", "expected bytes, got {kind}", "A bytes field given another Python type."),
    Message(
        "length_does_not_fit",
        "length {size} does not fit the {left} bytes left",
        "A length-prefixed value longer than its frame.",
    ),
    Message(
        "count_does_not_fit",
        "count {count} does not fit the {left} bytes left",
        "A list whose count cannot fit the rest of its frame.",
    ),
    Message(
        "padding_negative",
        "padding must be a non-negative int, got {value}",
        "A padding field given a negative or non-int count (shown as a Python repr).",
    ),
    # struct's own words, which the Python writer takes from struct.pack (pinned by the catalog's test); an integer
    # out of its range is said as the JSON families say it (int_at_most, int_at_least), not in struct's words.
    Message("struct_not_int", "required argument is not an integer", "An integer field given a non-int.", _STRUCT),
    Message("struct_not_float", "required argument is not a float", "A float field given a non-number.", _STRUCT),
    Message("struct_float_too_large", "float too large to pack with f format", "A float32 beyond its range.", _STRUCT),
    # The Kafka family's value rules (kafkawire.py; KafkaRules), after an attribute's or a field's name.
    Message("not_json_kind", "must be a JSON {kind}, not {got}", "A JSON event member of another JSON type."),
    Message(
        "not_absolute_uri",
        "is not an absolute URI (RFC 3986: a scheme, then an optional fragment): {text}",
        "A URI attribute that is not one (text: its repr).",
    ),
    Message(
        "not_uri_reference",
        "is not a URI-reference (RFC 3986 section 4.1): {text}",
        "A URI-reference attribute that is not one (text: its repr).",
    ),
    Message(
        "not_media_type",
        "is not a media type (type/subtype, then ;name=value parameters): {text}",
        "A media type attribute that is not one (text: its repr).",
    ),
    Message(
        "not_boolean_text",
        "is not a boolean (true or false, lower case): {text}",
        "A boolean's header text that is not one (text: its repr).",
    ),
    Message(
        "not_canonical_integer",
        "is not an integer in canonical form (-?digits, no leading zeros or +): {text}",
        "An integer's header text that is not one (text: its repr).",
    ),
    Message(
        "integer_out_of_range",
        "{value} is out of range for a {bits}-bit integer ({low}..{high})",
        "An integer beyond its type's range.",
    ),
    Message("not_finite_number", "{value} is not a finite number in range", "A float that is NaN or infinite."),
    Message("not_number_text", "is not a number: {text}", "A float's header text that is no JSON number (its repr)."),
    Message(
        "not_uuid_text",
        "is not a UUID (8-4-4-4-12 hex digits): {text}",
        "A UUID's text that is not one (text: its repr).",
    ),
    Message(
        "not_base64",
        "is not base64 (RFC 4648 section 4: standard alphabet, padded, no whitespace)",
        "A base64 text that is not the standard padded form.",
    ),
    Message(
        "not_rfc3339",
        "is not an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS, optional .fraction, then Z or +hh:mm): {text}",
        "A timestamp's text that is not RFC 3339 (text: its repr).",
    ),
    Message(
        "invalid_date_time",
        "is not a valid date-time ({why}): {text}",
        "An RFC 3339 text naming no instant (why: Python datetime's words; text: its repr).",
    ),
    Message(
        "offset_with_seconds",
        "has a UTC offset with seconds ({offset}), which RFC 3339 cannot write",
        "A time to encode whose offset is not whole minutes (offset: Python's timedelta text, 1:00:30).",
    ),
    Message(
        "outside_the_years",
        "is {time}, which RFC 3339 cannot write: its years are 0001 to 9999 (with an offset of at most 23:59)",
        "A time to encode that no RFC 3339 text names (time: as Java writes it).",
        python_never="a Python datetime holds only the years 1 to 9999, each of which RFC 3339 writes",
    ),
    Message(
        "instant_out_of_range",
        "the instant {micros} microseconds from 1970-01-01T00:00:00Z is outside the years 0001 to 9999 (UTC)",
        "A time outside Spark's TIMESTAMP range (years 0001 to 9999, UTC): decoded, or from Spark to encode.",
    ),
    Message(
        "forbidden_character",
        "holds the character U+{code} (control characters, surrogates and noncharacters are not allowed)",
        "A text holding a character no string may hold (code: at least 4 upper-case hex digits).",
    ),
    Message(
        "undeclared_json_kind",
        "is {kind}; the value of an undeclared attribute is a boolean, an integer or a string",
        "An undeclared attribute's JSON member of another JSON kind (kind: 'a number', 'null', ...).",
    ),
    Message(
        "undeclared_value_type",
        "has type {type}; expected bool, int, str, bytes or datetime",
        "An undeclared attribute's value of another type (type: its class's name).",
    ),
    # The Kafka family's JSON (kafkajson.py; KafkaJson): the JSON family's malformed and too_deep, and this.
    Message("json_not_utf8", "JSON text is not UTF-8 ({why})", "JSON text with an invalid byte (why: the reason)."),
    # The Kafka family's records and event format (kafkarecords.py, the Kafka template; KafkaEvents).
    Message(
        "header_goes_in",
        "header {name} is not allowed: attribute {attribute} goes in the {header} header",
        "A prefixed header naming an attribute that has its own header (all three: reprs).",
    ),
    Message(
        "header_not_attribute_name",
        "header {name}: {attribute} is not a valid attribute name ({rule})",
        "A prefixed header whose attribute name breaks the naming rule (name, attribute: reprs).",
    ),
    Message(
        "member_not_attribute_name",
        "member {name} is not a valid attribute name ({rule})",
        "A JSON event member whose name breaks the naming rule (name: its repr).",
    ),
    Message("header_null", "header {name} has a null value", "An attribute's header with a null value (its repr)."),
    Message(
        "header_not_utf8",
        "header {name} is not UTF-8 text ({why})",
        "An attribute's header that is not UTF-8 (name: its repr; why: the reason and byte, as Python says them).",
    ),
    Message(
        "not_event_format",
        "structured content type {content_type} is not a supported event format (supported: {supported})",
        "A structured-mode record of another media type (content_type: its repr).",
    ),
    Message(
        "charset_not_supported",
        "structured content type {content_type}: charset {charset} is not supported",
        "A structured-mode record in a charset the event format is not read in (both: reprs).",
    ),
    Message(
        "structured_needs_value",
        "a structured-mode record needs a value; it is null",
        "A structured-mode record without a value.",
    ),
    Message(
        "member_not_json_string",
        "member {member} under the non-JSON content type {content_type} must be a JSON string, not {kind}",
        "An event's data member of another JSON kind under a non-JSON content type (content_type: its repr).",
    ),
    Message(
        "text_not_in_charset",
        "str {payload} can be written as {charsets}, not charset {charset}: give bytes",
        "Text data under a content type whose charset the codec does not write (charset: its repr).",
    ),
    Message(
        "not_json_content",
        "{kind} {payload} cannot be written under the non-JSON content type {content_type}: give bytes or str",
        "Data that is neither bytes nor text under a non-JSON content type (content_type: its repr).",
    ),
    Message(
        "not_one_json_value",
        "bytes under the JSON content type {content_type} are not one JSON value: {why}{where}; give their JSON "
        "value, or a content type that does not declare JSON",
        "Bytes data under a JSON content type that are not JSON (where: ' (byte N)' or nothing).",
    ),
)
"""Every entry, in the order the generated modules list them."""

BY_NAME = {message.name: message for message in CATALOG}
assert len(BY_NAME) == len(CATALOG), "a catalog name is used twice"
assert all(re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", m.name) for m in CATALOG), "catalog names are snake case"


def said(entry: str, /, **fields: object) -> str:
    """Entry ``entry`` filled in with ``fields`` at generation time, for the texts a template knows whole (its
    ``said(...)``, a Jinja global): the generated code of both targets then holds the same words."""
    return BY_NAME[entry].format(**fields)


def catalog_context() -> dict[str, Any]:
    """What ``templates/*/runtime/messages*.j2`` render: the entries and the constants."""
    return {"messages": CATALOG, "max_depth": MAX_DEPTH, "shown_keys": SHOWN_KEYS, "content_modes": CONTENT_MODES}


def messages_at_source() -> ModuleType:
    """The rendered ``_runtime/messages`` beside the hand-written runtime at its source (``py_package/_runtime``),
    so that its modules import there too (their own tests, the generator's analysis): built from the same entries the
    template renders, once per process."""
    name = "streamcodecs_gen.py_package._runtime.messages"
    if name not in sys.modules:
        module = ModuleType(name, "The message catalog's texts (rendered into the package as _runtime/messages.py).")
        body = "from typing import Final\n\n" + "\n\n".join(message.python for message in CATALOG)
        exec(compile(body, "<catalog>", "exec"), module.__dict__)
        module.MAX_DEPTH = MAX_DEPTH  # type: ignore[attr-defined]
        module.SHOWN_KEYS = SHOWN_KEYS  # type: ignore[attr-defined]
        module.CONTENT_MODES = CONTENT_MODES  # type: ignore[attr-defined]
        sys.modules[name] = module
    return sys.modules[name]
