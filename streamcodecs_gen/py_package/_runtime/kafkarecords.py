"""The Kafka family's records and JSON event format: what is the same for every protocol of the family, written once.

A protocol's generated ``messages`` module builds one :class:`Records` at import from its tables (the record header
of each declared attribute, the prefix of the others, the structured format, the key mappers, ...) and from its four
per-event functions (the event from binary-mode headers and from a JSON object, and back), and exports the
closures as its functions: ``from_kafka``, ``to_kafka``, ``content_mode``, ``from_json``, ``to_json``, ``decode``
and ``encode``, and a :class:`Reader` subclass naming it; its per-event functions call the payload's writers
(``json_data``, ``text_value``, ...) in turn.

The hot paths are as they were when the module wrote them out: every function is a closure over the tables (a free
variable reads as fast as a module's global) and calls the others directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

import msgspec

from . import messages as _m
from .errors import DecodeError, EncodeError, byte_buffer, check_bytes
from .jsonplaces import member_at
from .jsonwire import LineReader
from .kafkajson import JSON_ENCODE, finite, json_decode, json_raw
from .kafkarules import Invalid, ascii_lower
from .kafkarules import media_type_essence as _essence
from .kafkarules import media_type_parameter as _parameter
from .messages import CONTENT_MODES  # the modes to_kafka writes (the catalog's, which the Java SQL functions say too)

__all__ = ["BINARY_TYPES", "CONTENT_MODES", "KafkaRecord", "Reader", "Records", "ToKafka", "header_pairs", "kind"]

E = TypeVar("E")

Headers = list[tuple[str, bytes | None]]
BINARY_TYPES = (bytes, bytearray, memoryview)


class KafkaRecord(msgspec.Struct, gc=False):
    """One Kafka record as a client library gives and takes it.

    ``key`` and ``value`` are bytes or None (null); ``headers`` is the ordered list of ``(name, value)`` pairs,
    duplicates allowed, a value may be None.  :func:`from_kafka` also accepts any object with ``headers`` and
    ``value`` attributes, headers given as a mapping, and a value or a header's value in any object with the buffer
    protocol (a bytearray, a memoryview), read as its bytes.
    """

    key: bytes | None = None
    value: bytes | None = None
    headers: list[tuple[str, bytes | None]] = msgspec.field(default_factory=list)


def kind(value: Any) -> str:
    """The name of a value's type, as problems name it."""
    return type(value).__name__


def not_record(call: str, record: Any) -> TypeError:
    """The TypeError of ``call`` (``from_kafka``, ``content_mode``) given what is not a record (a programming
    error, not a record the codec refuses)."""
    return TypeError(
        f"{call} takes a Kafka record (an object with headers and value attributes, such as KafkaRecord), "
        f"not {kind(record)}"
    )


def header_pairs(headers: Any) -> Iterable[tuple[str, bytes | None]]:
    """A record's headers as ``(name, value)`` pairs (given as pairs, as a mapping, or None)."""
    if headers is None:
        return ()
    return headers.items() if isinstance(headers, Mapping) else headers


class ToKafka(Protocol[E]):
    """The signature of a protocol's ``to_kafka``."""

    def __call__(
        self,
        event: E,
        mode: str = "binary",
        key_mapper: str | Callable[[E], bytes | str | None] | None = None,
        *,
        key: bytes | str | None = None,
        headers: Iterable[tuple[str, bytes | None]] | Mapping[str, bytes | None] | None = None,
    ) -> KafkaRecord: ...


class HeaderReading(NamedTuple):
    """How a protocol reads a record's headers (see :class:`Records` for the tables)."""

    read_headers: Callable[[Iterable[tuple[str, bytes | None]]], tuple[dict[str, str], dict[str, str]]]
    content_type_header: Callable[[Iterable[tuple[str, bytes | None]]], str | None]


def header_reading(
    *,
    header_attribute: Mapping[str, str],
    own_header: Mapping[str, str],
    prefix: str,
    undeclared: bool,
    name_match: Callable[[str], Any],
    not_extensions: frozenset[str],
    name_rule: str,
    charset: str,
    detection_header: str,
    decode_error: type[DecodeError],
) -> HeaderReading:
    """Binary content mode: the attributes in a record's headers, and the header that tells the modes apart."""
    prefix_length = len(prefix)

    def read_headers(headers: Iterable[tuple[str, bytes | None]]) -> tuple[dict[str, str], dict[str, str]]:
        """The text of every attribute header: (declared attributes, undeclared attributes); the last header
        wins."""
        found: dict[str, str] = {}
        others: dict[str, str] = {}
        for name, raw in headers:
            attribute = header_attribute.get(name)  # names are written in lower case: try them as they are first
            if attribute is not None:
                target = found
            else:
                key = name.lower() if name.isascii() else ascii_lower(name)
                attribute = header_attribute.get(key)
                if attribute is not None:
                    target = found
                elif key.startswith(prefix):
                    attribute = key[prefix_length:]
                    if key in own_header:
                        raise decode_error(
                            _m.header_goes_in(name=repr(name), attribute=repr(attribute), header=repr(own_header[key])),
                            field=attribute,
                        )
                    if name_match(attribute) is None or attribute in not_extensions:
                        raise decode_error(
                            _m.header_not_attribute_name(name=repr(name), attribute=repr(attribute), rule=name_rule),
                            field=attribute,
                        )
                    if not undeclared:
                        raise decode_error(f"header {name!r}: unknown attribute {attribute!r}", field=attribute)
                    target = others
                else:
                    continue
            if raw is None:
                raise decode_error(_m.header_null(name=repr(name)), field=attribute)
            if type(raw) is not bytes:  # any buffer is read as its bytes (a TypeError for what has none)
                raw = bytes(byte_buffer(raw, "from_kafka"))
            try:
                target[attribute] = raw.decode(charset)
            except UnicodeDecodeError as exc:
                raise decode_error(
                    _m.header_not_utf8(name=repr(name), why=f"{exc.reason} at byte {exc.start}"), field=attribute
                ) from None
        return found, others

    def content_type_header(headers: Iterable[tuple[str, bytes | None]]) -> str | None:
        """The last detection header as text, or None (absent, null or not text)."""
        found = None
        for name, raw in headers:
            if isinstance(name, str) and ascii_lower(name) == detection_header:
                found = raw
        if found is None:
            return None
        try:
            return (found if type(found) is bytes else bytes(byte_buffer(found, "content_mode"))).decode(charset)
        except (TypeError, ValueError):
            return None

    return HeaderReading(read_headers, content_type_header)


class PayloadWriting(NamedTuple):
    """How a protocol's per-event functions write the payload (see :class:`Records`)."""

    text_value: Callable[[str, str], bytes]
    json_data: Callable[[Any], bytes]
    non_json: Callable[[Any, str | None], EncodeError]
    raw_json_data: Callable[[bytes | bytearray | memoryview, str], msgspec.Raw]


def payload_writing(*, payload: str, text_charsets: tuple[str, ...], encode_error: type[EncodeError]) -> PayloadWriting:
    """The payload's writers: a str in a text charset, a JSON value as JSON text, bytes under a JSON content type
    as the JSON value they hold, and the problem of a payload that fits none."""

    def text_value(data: str, content_type: str) -> bytes:
        """A str payload under a non-JSON content type: encoded in its charset parameter (else the first of
        ``text_charsets``)."""
        named = _parameter(content_type, "charset")
        chosen = text_charsets[0] if named is None else ascii_lower(named)
        if chosen not in text_charsets:
            raise encode_error(
                _m.text_not_in_charset(payload=payload, charsets=", ".join(text_charsets), charset=repr(chosen)),
                field=payload,
            )
        try:
            return data.encode(chosen)
        except UnicodeEncodeError as exc:
            raise encode_error(
                f"str {payload} does not fit charset {chosen}: {exc.reason} at character {exc.start}",
                field=payload,
            ) from None

    def json_data(data: Any) -> bytes:
        """A payload that is a JSON value, as JSON text."""
        try:
            value = JSON_ENCODE(data)
        except (TypeError, ValueError, OverflowError) as exc:
            raise encode_error(f"{payload} cannot be written as JSON: {exc}", field=payload) from None
        if value.rfind(b"null") >= 0 and not finite(data):  # msgspec writes NaN and infinity as null
            raise encode_error(f"JSON {payload} holds NaN or infinity, which JSON cannot carry", field=payload)
        return value

    def non_json(data: Any, content_type: str | None) -> EncodeError:
        """The problem of a payload that is neither bytes nor str under a non-JSON content type."""
        return encode_error(
            _m.not_json_content(kind=kind(data), payload=payload, content_type=repr(content_type)), field=payload
        )

    def raw_json_data(data: bytes | bytearray | memoryview, content_type: str) -> msgspec.Raw:
        """Bytes payload under a JSON content type, as the JSON value they hold (whitespace between tokens
        removed)."""
        try:
            return json_raw(data)
        except Invalid as exc:
            where = "" if exc.offset is None else f" (byte {exc.offset})"
            raise encode_error(
                _m.not_one_json_value(content_type=repr(content_type), why=exc, where=where), field=payload
            ) from None

    return PayloadWriting(text_value, json_data, non_json, raw_json_data)


def only_after(text: bytes, key: bytes) -> bool:
    """Whether no backslash and no DEL in ``text`` comes before ``key``, where ``text`` is the compact JSON of an
    object whose last member is the one ``key`` names (``b'"data":'``) and whose other members have plain names
    and scalar values (the event's attributes).

    In such text ``key`` occurs only as a member's key: the quote after the name is not escaped (an escaped one
    follows a backslash), so it ends a string, which the colon makes a key, and that key ends in the name. No member
    before the last has such a key, so the first occurrence is the last member's key, and the text before it holds
    every other member.
    """
    end = text.find(key)
    if end < 0:
        return False
    head = text[:end]
    return 92 not in head and 127 not in head


class EventFormat(NamedTuple, Generic[E]):
    """The JSON event format of a protocol's event (structured content mode)."""

    from_json: Callable[[bytes | bytearray | memoryview | str], E]
    json_value: Callable[[E], bytes]
    to_json: Callable[[E], bytes]


def event_format(
    *,
    event_type: type[E],
    payload: str,
    payload_attribute: str,
    payload_member: str,
    from_json_object: Callable[[Any], E],
    to_json_object: Callable[[E, bool], dict[str, Any]],
    decode_error: type[DecodeError],
    encode_error: type[EncodeError],
) -> EventFormat[E]:
    """The JSON event format: one event from JSON text and back (``json_value`` skips the event's type check)."""
    payload_of = attrgetter(payload_attribute)
    event_name = event_type.__name__
    member_key = f'"{payload_member}":'.encode()

    def from_json(data: bytes | bytearray | memoryview | str) -> E:
        """Decode one event in the JSON event format (UTF-8 JSON text)."""
        if type(data) is not bytes and not isinstance(data, str):
            data = byte_buffer(data, "from_json", text=True)
        if isinstance(data, str):
            try:
                data = data.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise decode_error(f"text is not valid Unicode: {exc.reason}", offset=exc.start) from None
        try:
            document = json_decode(data)
        except Invalid as exc:
            raise decode_error(str(exc), offset=exc.offset) from None
        try:
            return from_json_object(document)
        except decode_error as exc:  # named where it is: the member's value (jsonplaces.member_at), else the event's
            if exc.offset is not None:
                raise
            where = member_at(bytes(data), exc.field)
            raise decode_error(exc.reason, offset=where, field=exc.field, line=exc.line) from None

    def json_value(event: E) -> bytes:
        # First the fast accept: each text attribute that is ASCII goes into the object unchecked (str.isascii takes
        # constant time, str.isprintable a few ns a character) and the written text is tested instead. JSON escapes
        # every control character and writes DEL as it is, so text with no backslash (92) and no DEL (127) holds
        # printable ASCII strings only, which each attribute's own test accepts: the object is the one the full
        # path writes. When the payload's member is the last one, only the text before it needs the test (a quote
        # in a payload string is escaped too). Anything else, and every error, goes to the full path, which
        # decides and words it.
        try:
            document = to_json_object(event, True)
            value = JSON_ENCODE(document)
            accepted = (92 not in value and 127 not in value) or (
                next(reversed(document)) == payload_member and only_after(value, member_key)
            )
        except Exception:  # noqa: BLE001 (whatever the fast attempt meets, the full path decides as before)
            accepted = False
        if not accepted:
            document = to_json_object(event, False)
            try:
                value = JSON_ENCODE(document)
            except (TypeError, ValueError, OverflowError) as exc:
                raise encode_error(f"{payload} cannot be written as JSON: {exc}", field=payload) from None
        if value.rfind(b"null") >= 0 and not finite(payload_of(event)):  # msgspec writes NaN as null
            raise encode_error(f"JSON {payload} holds NaN or infinity, which JSON cannot carry", field=payload)
        return value

    def to_json(event: E) -> bytes:
        """The event in the JSON event format: compact UTF-8 JSON, members in field order.

        Bytes payload under a content type that declares JSON is written as the JSON value it holds (whitespace
        between tokens removed, the rest as written); bytes that are not one JSON value are an EncodeError
        naming the payload.  Other bytes go to the format's base64 member.
        """
        if type(event) is not event_type:
            raise encode_error(_m.not_a_message(what=event_name, kind=kind(event)))
        return json_value(event)

    return EventFormat(from_json, json_value, to_json)


def record_key(
    event: E,
    key: Any,
    key_mapper: Any,
    key_mappers: Mapping[str, Callable[[E], bytes | None]],
    encode_error: type[EncodeError],
) -> bytes | None:
    """The record key: ``key``, or what ``key_mapper`` (a name in ``key_mappers`` or a callable) makes of the event."""
    if key_mapper is not None:
        if key is not None:
            raise ValueError("give a key or a key_mapper, not both")  # the caller's mistake, as an unknown mapper
        if isinstance(key_mapper, str):
            if key_mapper not in key_mappers:
                raise ValueError(_m.unknown_key_mapper(mapper=repr(key_mapper), mappers=sorted(key_mappers)))
            return key_mappers[key_mapper](event)
        key = key_mapper(event)
    if key is None or type(key) is bytes:
        return key
    if isinstance(key, str):
        return key.encode("utf-8")
    if isinstance(key, BINARY_TYPES):
        return bytes(key)
    raise encode_error(f"a record key is bytes, str or None, not {kind(key)}")


def extra_headers(
    headers: Any, prefix: str, header_attribute: Mapping[str, str], encode_error: type[EncodeError]
) -> Headers:
    """Headers given to ``to_kafka`` besides the event's: checked not to be read back as attributes."""
    extra: Headers = []
    for name, value in header_pairs(headers):
        if not isinstance(name, str):
            raise encode_error(f"a header name is a str, not {kind(name)}")
        key = ascii_lower(name)
        if key.startswith(prefix) or key in header_attribute:
            raise encode_error(f"header {name!r} would be read as an attribute; set the attribute on the event instead")
        if value is not None and not isinstance(value, BINARY_TYPES):
            raise encode_error(f"header {name!r}: a value is bytes or None, not {kind(value)}")
        extra.append((name, None if value is None else bytes(value)))
    return extra


class Records(Generic[E]):
    """A Kafka protocol's records and JSON event format, from the tables of its generated module.

    Binary content mode: ``header_attribute`` maps each lower-case header name to the declared attribute it
    carries; ``prefix`` + name is any other attribute's header (``own_header``: the prefixed names of the
    attributes that have a header of their own, which are refused), whose name must pass ``name_match`` and not be
    one of ``not_extensions`` (``name_rule`` says so in words); ``undeclared`` says whether the event keeps such
    attributes. Header values are text in ``charset``. A record is structured when its ``detection_header`` starts
    with ``structured_prefix``; its media type must be ``structured_media_type`` (charset one of
    ``structured_charsets``), and structured records are written with ``structured_content_type``.
    ``payload`` and ``content_type_attribute`` name the event's payload and content-type attributes
    (``payload_attribute``: the payload's Python name, ``payload_member``: its member in the JSON event format, which
    the module's event object writes last); ``text_charsets`` are those a str payload under a non-JSON
    content type may be written in, the first being the default.
    """

    def __init__(
        self,
        *,
        event_type: type[E],
        directions: tuple[str, ...],
        max_message: int,
        decode_error: type[DecodeError],
        encode_error: type[EncodeError],
        header_attribute: Mapping[str, str],
        own_header: Mapping[str, str],
        prefix: str,
        undeclared: bool,
        name_match: Callable[[str], Any],
        not_extensions: frozenset[str],
        name_rule: str,
        charset: str,
        detection_header: str,
        structured_prefix: str,
        structured_media_type: str,
        structured_charsets: frozenset[str],
        structured_content_type: bytes,
        text_charsets: tuple[str, ...],
        payload: str,
        payload_attribute: str,
        payload_member: str,
        content_type_attribute: str,
        key_mappers: Mapping[str, Callable[[E], bytes | None]],
        from_binary: Callable[[dict[str, str], dict[str, str], Any], E],
        to_binary: Callable[[E], tuple[Headers, bytes | None]],
        from_json_object: Callable[[Any], E],
        to_json_object: Callable[[E, bool], dict[str, Any]],
    ) -> None:
        head_length = len(structured_prefix)
        structured_ok: set[str] = set()  # structured content types that passed (they repeat from record to record)
        event_name = event_type.__name__
        read_headers, content_type_header = header_reading(
            header_attribute=header_attribute,
            own_header=own_header,
            prefix=prefix,
            undeclared=undeclared,
            name_match=name_match,
            not_extensions=not_extensions,
            name_rule=name_rule,
            charset=charset,
            detection_header=detection_header,
            decode_error=decode_error,
        )
        writing = payload_writing(payload=payload, text_charsets=text_charsets, encode_error=encode_error)
        from_json, json_value, to_json = event_format(
            event_type=event_type,
            payload=payload,
            payload_attribute=payload_attribute,
            payload_member=payload_member,
            from_json_object=from_json_object,
            to_json_object=to_json_object,
            decode_error=decode_error,
            encode_error=encode_error,
        )

        # --- records --------------------------------------------------------------------------------------------

        def structured_value(value: Any, content_type: str) -> E:
            if content_type not in structured_ok:
                essence = _essence(content_type)
                if essence != structured_media_type:
                    raise decode_error(
                        _m.not_event_format(content_type=repr(content_type), supported=structured_media_type),
                        field=content_type_attribute,
                    )
                named = _parameter(content_type, "charset")
                if named is not None and ascii_lower(named) not in structured_charsets:
                    raise decode_error(
                        _m.charset_not_supported(content_type=repr(content_type), charset=repr(named)),
                        field=content_type_attribute,
                    )
                if len(structured_ok) < 256:
                    structured_ok.add(content_type)
            if value is None:
                raise decode_error(_m.STRUCTURED_NEEDS_VALUE)
            return from_json(value)

        def structured(content_type: str | None) -> bool:
            return content_type is not None and ascii_lower(content_type[:head_length]) == structured_prefix

        def from_kafka(record: KafkaRecord | Any) -> E:
            """Decode the event in a Kafka record, binary or structured content mode (told apart by the content
            type header).  The record's key and other headers are not part of the event."""
            try:
                headers, value = header_pairs(record.headers), record.value
            except AttributeError:
                raise not_record("from_kafka", record) from None
            try:
                found, others = read_headers(headers)
            except decode_error:
                found_type = content_type_header(headers)
                if structured(found_type):  # a structured record ignores its prefixed headers, bad or not
                    assert found_type is not None
                    return structured_value(value, found_type)
                raise
            except (TypeError, ValueError, AttributeError):
                raise decode_error("headers must be (str, bytes or None) pairs") from None
            found_type = found.get(content_type_attribute)
            if found_type is not None:
                head = found_type[:head_length]
                if head.isascii() and head.lower() == structured_prefix:
                    return structured_value(value, found_type)
            return from_binary(found, others, value)

        def content_mode(record: KafkaRecord | Any) -> str:
            """``"structured"`` when the record's content type header starts with the structured prefix (ASCII
            case-insensitive), else ``"binary"``: the mode :func:`from_kafka` reads it in."""
            try:
                headers = header_pairs(record.headers)
            except AttributeError:
                raise not_record("content_mode", record) from None
            return "structured" if structured(content_type_header(headers)) else "binary"

        def to_kafka(
            event: E,
            mode: str = "binary",
            key_mapper: str | Callable[[E], bytes | str | None] | None = None,
            *,
            key: bytes | str | None = None,
            headers: Iterable[tuple[str, bytes | None]] | Mapping[str, bytes | None] | None = None,
        ) -> KafkaRecord:
            """The event as a Kafka record in ``mode`` ``"binary"`` or ``"structured"``.

            The record key is ``key`` (a str is UTF-8 encoded), or, when ``key_mapper`` is given, what it returns: a
            mapper name (the module's docstring lists them; another name is a ValueError) or a callable taking the
            event; giving both, or another mode, is a ValueError too (the caller's mistake, as in the Spark function).
            The event is never changed.  ``headers`` are written after the event's own headers; a name that would be
            read as an attribute is an EncodeError.
            """
            if type(event) is not event_type:
                raise encode_error(_m.not_a_message(what=event_name, kind=kind(event)))
            record_headers: Headers
            if mode == "binary":
                record_headers, value = to_binary(event)
            elif mode == "structured":
                value = json_value(event)
                record_headers = [(detection_header, structured_content_type)]
            else:
                raise ValueError(_m.unknown_mode(mode=repr(mode), modes=CONTENT_MODES))  # as the Spark function
            if headers is not None:
                record_headers += extra_headers(headers, prefix, header_attribute, encode_error)
            if key_mapper is None and (key is None or type(key) is bytes):
                return KafkaRecord(key, value, record_headers)
            return KafkaRecord(record_key(event, key, key_mapper, key_mappers, encode_error), value, record_headers)

        # --- the module contract --------------------------------------------------------------------------------

        def check_direction(direction: str | None) -> None:
            if direction is not None and direction not in directions:
                raise ValueError(_m.unknown_direction(direction=repr(direction), directions=directions))

        def decode(frame: bytes | bytearray | memoryview | str, *, direction: str | None = None) -> E:
            """Decode one whole event in the JSON event format (a structured-mode record's value); see
            :func:`from_json`."""
            check_direction(direction)
            if type(frame) is not bytes and not isinstance(frame, str):
                check_bytes(frame, "decode", text=True)
            return from_json(frame)

        def encode(message: E) -> bytes:
            """The event as bytes: the JSON event format, i.e. the value of a structured-mode record
            (:func:`to_json`)."""
            return to_json(message)

        self.max_message = max_message
        self.decode_error = decode_error
        self.check_direction = check_direction
        self.from_kafka = from_kafka
        self.to_kafka: ToKafka[E] = to_kafka
        self.content_mode = content_mode
        self.from_json = from_json
        self.to_json = to_json
        self.json_value = json_value
        """``to_json`` without its type check: the event in the JSON event format."""
        self.decode = decode
        self.encode = encode
        # What the module's per-event functions call for the payload.
        self.text_value = writing.text_value
        self.json_data = writing.json_data
        self.non_json = writing.non_json
        self.raw_json_data = writing.raw_json_data


class Reader(LineReader[E]):
    """Incremental decoder of JSON Lines: one event in the JSON event format per line (``encode(event) + b"\\n"``).

    ``feed`` any slice of the stream; it returns the events of the lines it completes.  Blank lines are skipped.
    A bad line raises :class:`DecodeError` naming its line, with ``decoded`` holding the events before it in the
    same call; the next ``feed`` (``feed(b"")`` to drain) goes on after it.  ``max_message`` limits a line (the
    protocol's ``MAX_MESSAGE`` unless given).
    """

    records: ClassVar[Records[Any]]
    """The protocol's records: a generated subclass names them."""

    def __init__(self, *, direction: str | None = None, max_message: int | None = None) -> None:
        records = self.records
        records.check_direction(direction)
        limit = records.max_message if max_message is None else max_message
        super().__init__(records.from_json, records.decode_error, limit)
        self.direction = direction
