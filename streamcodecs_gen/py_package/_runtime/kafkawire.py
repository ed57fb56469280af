"""Support for the kafka wire family: events laid on Kafka records (headers, key, value) and a JSON event format.

The generated modules take every protocol detail (header names, prefixes, media types, naming rules) from their
definition; this module holds what is the same for all of them: the validators and canonical string encodings of
the wire types (RFC 3986 URI and URI-reference, RFC 3339 timestamps, RFC 2045 media types, canonical integers,
booleans and base64).  Their grammars are in ``kafkapatterns``, the rules they share (:class:`Invalid`, text
checks, media-type helpers) in ``kafkarules`` and the family's JSON in ``kafkajson``; this module re-exports what
the generated code reads from those through it (``_kw``).

Each wire type ``T`` has four functions: ``T_from_text`` (a header value), ``T_from_json`` (a decoded JSON value),
``T_to_text`` and ``T_to_json``; those of an integer or a float type are made by :func:`int_codec` and
:func:`float_codec` from its record's range, and the generated codec binds them under those names. They raise
:class:`Invalid`, whose message is the rule that was broken; the generated codecs re-raise it as their
``DecodeError``/``EncodeError`` naming the attribute. Every pattern is applied with ``fullmatch`` (a ``$`` anchor
would let a trailing newline through).
"""

from __future__ import annotations

import base64
import datetime
import math
import uuid
from collections.abc import Callable
from typing import Any

from . import messages as _m
from .jsontext import HELD, held
from .kafkajson import JSON_ENCODE, finite, json_decode, json_encode, json_raw
from .kafkapatterns import BASE64_MATCH as _BASE64_MATCH
from .kafkapatterns import CANONICAL_INT as _CANONICAL_INT
from .kafkapatterns import JSON_NUMBER as _JSON_NUMBER
from .kafkapatterns import MEDIA_TYPE_MATCH as _MEDIA_TYPE_MATCH
from .kafkapatterns import SIMPLE_REFERENCE as _SIMPLE_REFERENCE
from .kafkapatterns import SIMPLE_URI as _SIMPLE_URI
from .kafkapatterns import TIMESTAMP_MATCH as _TIMESTAMP_MATCH
from .kafkapatterns import URI_MATCH as _URI_MATCH
from .kafkapatterns import URI_REFERENCE_MATCH as _URI_REFERENCE_MATCH
from .kafkapatterns import UUID_MATCH as _UUID_MATCH
from .kafkarules import (
    MISSING,
    VALID_MEDIA_TYPE,
    VALID_URI,
    VALID_URI_REFERENCE,
    Invalid,
    JsonMediaTypes,
    MissingType,
    ascii_lower,
    check_text,
    json_kind,
    media_type_essence,
    media_type_parameter,
    remember,
    shown,
)
from .wiretypes import INTEGER_RANGES

__all__ = [
    "MISSING",
    "Invalid",
    "JsonMediaTypes",
    "MissingType",
    "remember",
    "VALID_MEDIA_TYPE",
    "VALID_URI",
    "VALID_URI_REFERENCE",
    "any_from_json",
    "any_from_text",
    "any_to_json",
    "any_to_text",
    "ascii_lower",
    "attribute_value_from_json",
    "attribute_value_from_text",
    "attribute_value_to_json",
    "attribute_value_to_text",
    "base64_from_json",
    "base64_from_text",
    "base64_to_json",
    "base64_to_text",
    "bool_from_json",
    "bool_from_text",
    "bool_to_json",
    "bool_to_text",
    "check_text",
    "float_codec",
    "int_codec",
    "json_decode",
    "json_encode",
    "json_kind",
    "shown",
    "json_raw",
    "JSON_ENCODE",
    "finite",
    "media_type_essence",
    "media_type_parameter",
    "media_type_from_json",
    "media_type_from_text",
    "media_type_to_json",
    "media_type_to_text",
    "string_from_json",
    "string_from_text",
    "string_to_json",
    "string_to_text",
    "timestamp_from_json",
    "timestamp_from_text",
    "timestamp_to_json",
    "timestamp_to_text",
    "uri_from_json",
    "uri_from_text",
    "uri_reference_from_json",
    "uri_reference_from_text",
    "uri_reference_to_json",
    "uri_reference_to_text",
    "uri_to_json",
    "uri_to_text",
    "uuid_from_json",
    "uuid_from_text",
    "uuid_to_json",
    "uuid_to_text",
]


# --- text -------------------------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Invalid(f"must be a str, not {type(value).__name__}")
    return value


def _json_text(value: Any) -> str:
    if type(value) is not str:
        raise Invalid(_m.not_json_kind(kind="string", got=json_kind(value)))
    return value


def string_from_text(text: str) -> str:
    return text if text.isprintable() else check_text(text)


def string_from_json(value: Any) -> str:
    if type(value) is str and value.isprintable():
        return value
    return check_text(_json_text(value))


def string_to_text(value: Any) -> str:
    if type(value) is str and value.isprintable():
        return value
    return check_text(_text(value))


string_to_json = string_to_text


# --- RFC 3986 URI and URI-reference ------------------------------------------------------------------------------


def uri_from_text(text: str) -> str:
    if text in VALID_URI:
        return text
    if _SIMPLE_URI(text) is None and _URI_MATCH(text) is None:
        raise Invalid(_m.not_absolute_uri(text=repr(text)))
    return remember(VALID_URI, text)


def uri_from_json(value: Any) -> str:
    if type(value) is str and value in VALID_URI:
        return value
    return uri_from_text(_json_text(value))


def uri_to_text(value: Any) -> str:
    if type(value) is str and value in VALID_URI:
        return value
    return uri_from_text(_text(value))


uri_to_json = uri_to_text


def uri_reference_from_text(text: str) -> str:
    if text in VALID_URI_REFERENCE:
        return text
    if _SIMPLE_REFERENCE(text) is None and _URI_REFERENCE_MATCH(text) is None:
        raise Invalid(_m.not_uri_reference(text=repr(text)))
    return remember(VALID_URI_REFERENCE, text)


def uri_reference_from_json(value: Any) -> str:
    if type(value) is str and value in VALID_URI_REFERENCE:
        return value
    return uri_reference_from_text(_json_text(value))


def uri_reference_to_text(value: Any) -> str:
    if type(value) is str and value in VALID_URI_REFERENCE:
        return value
    return uri_reference_from_text(_text(value))


uri_reference_to_json = uri_reference_to_text


# --- media types ---------------------------------------------------------------------------------------------------


def media_type_from_text(text: str) -> str:
    if text in VALID_MEDIA_TYPE:
        return text
    if _MEDIA_TYPE_MATCH(text) is None:
        raise Invalid(_m.not_media_type(text=repr(text)))
    return remember(VALID_MEDIA_TYPE, text)


def media_type_from_json(value: Any) -> str:
    if type(value) is str and value in VALID_MEDIA_TYPE:
        return value
    return media_type_from_text(_json_text(value))


def media_type_to_text(value: Any) -> str:
    if type(value) is str and value in VALID_MEDIA_TYPE:
        return value
    return media_type_from_text(_text(value))


media_type_to_json = media_type_to_text


# --- booleans and integers (canonical strings) -------------------------------------------------------------------


def bool_from_text(text: str) -> bool:
    if text == "true":
        return True
    if text == "false":
        return False
    raise Invalid(_m.not_boolean_text(text=repr(text)))


def bool_from_json(value: Any) -> bool:
    if type(value) is not bool:
        raise Invalid(_m.not_json_kind(kind="boolean", got=json_kind(value)))
    return value


def bool_to_text(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    raise Invalid(f"must be a bool, not {type(value).__name__}")


def bool_to_json(value: Any) -> bool:
    bool_to_text(value)
    return value  # type: ignore[no-any-return]


IntCodec = tuple[Callable[[str], int], Callable[[Any], int], Callable[[Any], str], Callable[[Any], int]]


def int_codec(low: int, high: int) -> IntCodec:
    """The four conversions (from_text, from_json, to_text, to_json) of an integer wire type of the range
    ``low..high``: the generated codec binds each integer type's from its record's range."""
    bits = (high - low).bit_length()

    def in_range(value: int) -> int:
        if not low <= value <= high:
            raise Invalid(_m.integer_out_of_range(value=value, bits=bits, low=low, high=high))
        return value

    def from_text(text: str) -> int:
        if _CANONICAL_INT(text) is None:
            raise Invalid(_m.not_canonical_integer(text=repr(text)))
        return in_range(int(text))

    def from_json(value: Any) -> int:
        if type(value) is not int:
            raise Invalid(_m.not_json_kind(kind="integer", got=json_kind(value)))
        return in_range(value)

    def to_json(value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise Invalid(f"must be an int, not {type(value).__name__}")
        return in_range(int(value))

    def to_text(value: Any) -> str:
        return str(to_json(value))

    return from_text, from_json, to_text, to_json


# An undeclared attribute's integer is an int32 (below).
_, _int32_from_json, _int32_to_text, _int32_to_json = int_codec(*INTEGER_RANGES["int32"])


# --- floats (JSON number syntax in headers) ----------------------------------------------------------------------

FloatCodec = tuple[Callable[[str], float], Callable[[Any], float], Callable[[Any], str], Callable[[Any], float]]


def float_codec(largest: float) -> FloatCodec:
    """The four conversions of a float wire type whose finite values go up to ``largest`` in magnitude: the
    generated codec binds each float type's from its record."""

    def in_range(value: float) -> float:
        if not math.isfinite(value) or abs(value) > largest:
            raise Invalid(_m.not_finite_number(value=repr(value)))
        return value

    def from_text(text: str) -> float:
        if _JSON_NUMBER(text) is None:
            raise Invalid(_m.not_number_text(text=repr(text)))
        return in_range(float(text))

    def from_json(value: Any) -> float:
        if type(value) not in (int, float):
            raise Invalid(_m.not_json_kind(kind="number", got=json_kind(value)))
        return in_range(float(value))

    def to_json(value: Any) -> float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise Invalid(f"must be a float, not {type(value).__name__}")
        return in_range(float(value))

    def to_text(value: Any) -> str:
        return repr(to_json(value))

    return from_text, from_json, to_text, to_json


# --- UUID, base64, any JSON value ---------------------------------------------------------------------------------


def uuid_from_text(text: str) -> uuid.UUID:
    if _UUID_MATCH(text) is None:
        raise Invalid(_m.not_uuid_text(text=repr(text)))
    return uuid.UUID(text)


def uuid_from_json(value: Any) -> uuid.UUID:
    return uuid_from_text(_json_text(value))


def uuid_to_text(value: Any) -> str:
    if not isinstance(value, uuid.UUID):
        raise Invalid(f"must be a uuid.UUID, not {type(value).__name__}")
    return str(value)


uuid_to_json = uuid_to_text


def base64_from_text(text: str) -> bytes:
    """RFC 4648 section 4, padded; other characters, missing padding or whitespace are errors (not skipped)."""
    if _BASE64_MATCH(text) is None:
        raise Invalid(_m.NOT_BASE64)
    return base64.b64decode(text)


def base64_from_json(value: Any) -> bytes:
    return base64_from_text(_json_text(value))


def base64_to_text(value: Any) -> str:
    if not isinstance(value, bytes | bytearray | memoryview):
        raise Invalid(f"must be bytes, not {type(value).__name__}")
    return base64.b64encode(value).decode("ascii")


base64_to_json = base64_to_text


def any_from_text(text: str) -> Any:
    return json_decode(text.encode("utf-8"))


def any_from_json(value: Any) -> Any:
    return value


def any_to_text(value: Any) -> str:
    return json_encode(value, value).decode("utf-8")


def any_to_json(value: Any) -> Any:
    json_encode(value, value)
    return value


# --- RFC 3339 timestamps -------------------------------------------------------------------------------------------

_FROMISOFORMAT = datetime.datetime.fromisoformat
_UTC = datetime.UTC
_DATETIME = datetime.datetime


def timestamp_from_text(text: str) -> datetime.datetime:
    """An aware datetime.  ``t``/``z`` may be lower case; ``-00:00`` reads as UTC; fraction digits beyond the
    sixth are truncated.  A leap second (``:60``), a date that does not exist and year 0000 are errors.  An offset
    beyond 18:00 is held as the Java codec holds it (:func:`held`)."""
    if _TIMESTAMP_MATCH(text) is None:
        raise Invalid(_m.not_rfc3339(text=repr(text)))
    try:
        value = _FROMISOFORMAT(text)
    except ValueError:
        try:
            value = _FROMISOFORMAT(text.upper())
        except ValueError as exc:
            raise Invalid(_m.invalid_date_time(why=exc, text=repr(text))) from None
    return value if value.tzinfo is _UTC else held(value)


def timestamp_from_json(value: Any) -> datetime.datetime:
    if type(value) is str and _TIMESTAMP_MATCH(value) is not None:
        try:
            time = _FROMISOFORMAT(value)
        except ValueError:
            pass  # lower-case t or z, or a date that does not exist
        else:
            return time if time.tzinfo is _UTC else held(time)
    return timestamp_from_text(_json_text(value))


_TWO_DIGITS = tuple(f"{i:02d}" for i in range(100))


def timestamp_to_text(value: Any) -> str:
    """``YYYY-MM-DDTHH:MM:SS``, ``.ffffff`` only when there are microseconds, then ``Z`` or ``+hh:mm``.

    A UTC datetime as msgspec writes it (the same form, in C); others built from the fields (``isoformat`` of an
    aware datetime costs three times as much), one whose offset is beyond 18:00 as :func:`held` holds it; a naive
    datetime or an offset with seconds is an error, a subclass's digits beyond microseconds are not written.
    """
    if value.__class__ is _DATETIME and value.tzinfo is _UTC:
        return JSON_ENCODE(value)[1:-1].decode()  # (msgspec writes this very form, in C)
    if not isinstance(value, datetime.datetime):
        raise Invalid(f"must be a datetime, not {type(value).__name__}")
    if value.tzinfo is _UTC:
        zone = "Z"
    else:
        offset = value.utcoffset()
        if offset is None:
            raise Invalid("must be timezone-aware (a naive datetime has no RFC 3339 form)")
        if offset.microseconds or offset.seconds % 60:
            raise Invalid(_m.offset_with_seconds(offset=offset))
        if not -HELD <= offset <= HELD:  # written as the Java codec holds it, and so writes it
            value = held(value)
            offset = value.utcoffset()
            assert offset is not None
        minutes = offset.days * 1440 + offset.seconds // 60
        if not minutes:
            zone = "Z"
        else:
            sign, minutes = ("-", -minutes) if minutes < 0 else ("+", minutes)
            zone = f"{sign}{_TWO_DIGITS[minutes // 60]}:{_TWO_DIGITS[minutes % 60]}"
    two = _TWO_DIGITS
    year = value.year
    micro = value.microsecond
    return "".join(
        (
            str(year) if year >= 1000 else f"{year:04d}",
            "-",
            two[value.month],
            "-",
            two[value.day],
            "T",
            two[value.hour],
            ":",
            two[value.minute],
            ":",
            two[value.second],
            f".{micro:06d}" if micro else "",
            zone,
        )
    )


timestamp_to_json = timestamp_to_text


# --- attribute values of undeclared type -------------------------------------------------------------------------


def attribute_value_from_text(text: str) -> str:
    """A header carries no type: the value stays the text."""
    return check_text(text)


def attribute_value_from_json(value: Any) -> bool | int | str:
    kind = type(value)
    if kind is str:
        return check_text(value)
    if kind is bool:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return _int32_from_json(value)
    raise Invalid(_m.undeclared_json_kind(kind=json_kind(value)))


def attribute_value_to_text(value: Any) -> str:
    if isinstance(value, str):
        return check_text(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return _int32_to_text(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64_to_text(value)
    if isinstance(value, datetime.datetime):
        return timestamp_to_text(value)
    raise Invalid(_m.undeclared_value_type(type=type(value).__name__))


def attribute_value_to_json(value: Any) -> bool | int | str:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _int32_to_json(value)
    return attribute_value_to_text(value)
