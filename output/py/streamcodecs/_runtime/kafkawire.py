# Copied from streamcodecs_gen/py_package/_runtime/kafkawire.py by ./generator.py; edit that file, not this copy.
"""Support for the kafka wire family: events laid on Kafka records (headers, key, value) and a JSON event format.

The generated modules take every protocol detail (header names, prefixes, media types, naming rules) from their
definition; this module holds what is the same for all of them: the validators and canonical string encodings of
the wire types (RFC 3986 URI and URI-reference, RFC 3339 timestamps, RFC 2045 media types, canonical integers,
booleans and base64), media-type helpers, and JSON encoding that refuses what JSON cannot carry.

Each wire type ``T`` has four functions: ``T_from_text`` (a header value), ``T_from_json`` (a decoded JSON value),
``T_to_text`` and ``T_to_json``.  They raise :class:`Invalid`, whose message is the rule that was broken; the
generated codecs re-raise it as their ``DecodeError``/``EncodeError`` naming the attribute.  Every pattern is
applied with ``fullmatch`` (a ``$`` anchor would let a trailing newline through).
"""

from __future__ import annotations

import base64
import datetime
import functools
import math
import re
import sys
import uuid
from collections.abc import Callable, Iterable
from typing import Any, Final

import msgspec

from . import messages as _m
from .jsonwire import MAX_DEPTH, nesting, roomy
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
    "float32_from_json",
    "float32_from_text",
    "float32_to_json",
    "float32_to_text",
    "float64_from_json",
    "float64_from_text",
    "float64_to_json",
    "float64_to_text",
    "int8_from_json",
    "int8_from_text",
    "int8_to_json",
    "int8_to_text",
    "int16_from_json",
    "int16_from_text",
    "int16_to_json",
    "int16_to_text",
    "int32_from_json",
    "int32_from_text",
    "int32_to_json",
    "int32_to_text",
    "int64_from_json",
    "int64_from_text",
    "int64_to_json",
    "int64_to_text",
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


class Invalid(ValueError):
    """A value breaks a rule of its wire type; the message says which (``is not an RFC 3339 date-time``).

    ``offset`` is the byte offset of the problem in JSON text, when known.
    """

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset


class MissingType:
    """The type of :data:`MISSING`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "MISSING"

    def __copy__(self) -> MissingType:
        return self

    def __deepcopy__(self, memo: Any) -> MissingType:
        return self


MISSING: Final = MissingType()
"""Marks a field that is both optional and nullable as absent, which is not the same as null (``None``)."""


# --- text -------------------------------------------------------------------------------------------------------

_PLANE_ENDS = "".join(rf"\U{plane:04X}FFFE\U{plane:04X}FFFF" for plane in range(1, 17))
_FORBIDDEN = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff" + _PLANE_ENDS + "]")
"""Control characters (C0, DEL, C1), surrogates and the 66 Unicode noncharacters: no string may hold them."""

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def ascii_lower(text: str) -> str:
    """Lower-case A-Z only (``str.lower`` would also turn the Kelvin sign into ``k``)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def check_text(text: str) -> str:
    if text.isprintable():  # printable excludes control (Cc), surrogate (Cs) and unassigned (Cn) code points
        return text
    found = _FORBIDDEN.search(text)
    if found is not None:
        raise Invalid(
            f"holds the character U+{ord(found.group()):04X} (control characters, surrogates and "
            "noncharacters are not allowed)"
        )
    return text


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Invalid(f"must be a str, not {type(value).__name__}")
    return value


def shown(value: Any) -> str:
    """A value in a problem: Python's ``repr`` of a scalar, ``[...]`` or ``{...}`` for an array or object (as the
    Java codec shows it, not all of it)."""
    if isinstance(value, list):
        return "[...]"
    if isinstance(value, dict):
        return "{...}"
    return repr(value)


def json_kind(value: Any) -> str:
    """How JSON calls the type of a decoded value (``a string``, ``null``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


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


# --- validated values ------------------------------------------------------------------------------------------
# Sources, schemas and media types repeat from event to event, and their grammars are long: a value that passed is
# remembered (up to _REMEMBER values of up to _REMEMBER_LENGTH characters each), so the next check is a set lookup.
# Only valid values are kept; the sets stop growing when full.

_REMEMBER = 4096
_REMEMBER_LENGTH = 512
VALID_URI: set[str] = set()
VALID_URI_REFERENCE: set[str] = set()
VALID_MEDIA_TYPE: set[str] = set()


def remember(valid: set[str], text: str) -> str:
    """``text`` (valid), kept in ``valid`` for the next check to be a set lookup, while the set has room."""
    if len(valid) < _REMEMBER and len(text) <= _REMEMBER_LENGTH and type(text) is str:
        valid.add(text)
    return text


# --- RFC 3986 URI and URI-reference (Appendix A; IPv4address is covered by reg-name) ------------------------------

_HEX = r"[0-9A-Fa-f]"
_PCT = rf"%{_HEX}{_HEX}"
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCHAR = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:@]|{_PCT})"
_SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*"
_USERINFO = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:]|{_PCT})*"
_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_IPV4 = rf"{_DEC_OCTET}\.{_DEC_OCTET}\.{_DEC_OCTET}\.{_DEC_OCTET}"
_H16 = rf"{_HEX}{{1,4}}"
_LS32 = rf"(?:{_H16}:{_H16}|{_IPV4})"
_IPV6 = (
    "(?:"
    rf"(?:{_H16}:){{6}}{_LS32}"
    rf"|::(?:{_H16}:){{5}}{_LS32}"
    rf"|(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}"
    rf"|(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}"
    rf"|(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}"
    rf"|(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}"
    rf"|(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}"
    rf"|(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}"
    rf"|(?:(?:{_H16}:){{0,6}}{_H16})?::"
    ")"
)
_IP_LITERAL = rf"\[(?:{_IPV6}|v{_HEX}+\.[{_UNRESERVED}{_SUB_DELIMS}:]+)\]"
_HOST = rf"(?:{_IP_LITERAL}|(?:[{_UNRESERVED}{_SUB_DELIMS}]|{_PCT})*)"
_AUTHORITY = rf"(?:{_USERINFO}@)?{_HOST}(?::[0-9]*)?"
_PATH_ABEMPTY = rf"(?:/{_PCHAR}*)*"
_PATH_ABSOLUTE = rf"/(?:{_PCHAR}+(?:/{_PCHAR}*)*)?"
_PATH_NOSCHEME = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}@]|{_PCT})+(?:/{_PCHAR}*)*"
_PATH_ROOTLESS = rf"{_PCHAR}+(?:/{_PCHAR}*)*"
_QUERY_OR_FRAGMENT = rf"(?:{_PCHAR}|[/?])*"
_ABSOLUTE_URI = (
    rf"{_SCHEME}:(?://{_AUTHORITY}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_ROOTLESS}|)(?:\?{_QUERY_OR_FRAGMENT})?"
)
_URI = rf"{_ABSOLUTE_URI}(?:#{_QUERY_OR_FRAGMENT})?"
_RELATIVE_REF = (
    rf"(?://{_AUTHORITY}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_NOSCHEME}|)"
    rf"(?:\?{_QUERY_OR_FRAGMENT})?(?:#{_QUERY_OR_FRAGMENT})?"
)
_URI_MATCH = re.compile(_URI).fullmatch
_URI_REFERENCE_MATCH = re.compile(rf"(?:{_URI}|{_RELATIVE_REF})").fullmatch
# Most references are plain paths or http(s) URLs; these simpler patterns accept only valid ones, so the full
# grammar runs only for the rest.
_SIMPLE_URI_TEXT = r"[A-Za-z][A-Za-z0-9+\-.]*://[A-Za-z0-9\-._~]*(?::[0-9]*)?(?:/[A-Za-z0-9\-._~]*)*"
_SIMPLE_URI = re.compile(_SIMPLE_URI_TEXT).fullmatch
_SIMPLE_REFERENCE = re.compile(rf"{_SIMPLE_URI_TEXT}|[A-Za-z0-9\-._~/]*").fullmatch


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


# --- media types (RFC 2045 section 5.1 tokens, RFC 7231 section 3.1.1.1 whitespace and quoted strings) -------------

_TOKEN = r"[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+"
_QUOTED = r'"(?:[\t !#-\[\]-~\x80-\xff]|\\[\t -~\x80-\xff])*"'
_MEDIA_TYPE_MATCH = re.compile(rf"{_TOKEN}/{_TOKEN}(?:[ \t]*;[ \t]*{_TOKEN}=(?:{_TOKEN}|{_QUOTED}))*").fullmatch
_PARAMETER = re.compile(rf"[ \t]*;[ \t]*({_TOKEN})=({_TOKEN}|{_QUOTED})")


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


def media_type_essence(media_type: str) -> str:
    """``type/subtype`` without parameters or surrounding whitespace, ASCII lower case."""
    return ascii_lower(media_type.partition(";")[0].strip(" \t"))


def media_type_parameter(media_type: str, name: str) -> str | None:
    """The value of parameter ``name`` (matched ASCII case-insensitively, quotes removed), or None."""
    _, _, rest = media_type.partition(";")
    for found in _PARAMETER.finditer(";" + rest if rest else ""):
        if ascii_lower(found.group(1)) == name:
            value = found.group(2)
            if value.startswith('"'):
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            return value
    return None


class JsonMediaTypes:
    """Tells whether a media type declares JSON content: its subtype is one of ``subtypes`` or ends in one of
    ``suffixes`` (after at least one character), compared ASCII case-insensitively, whatever the top-level type.
    Call it with the media type; answers are remembered (media types repeat)."""

    def __init__(self, subtypes: Iterable[str], suffixes: Iterable[str]) -> None:
        self.subtypes = frozenset(subtypes)
        self.suffixes = tuple(suffixes)
        self._call = functools.lru_cache(maxsize=1024)(self._decide)

    def __call__(self, media_type: str) -> bool:
        return self._call(media_type)

    @property
    def cached(self) -> Callable[[str], bool]:
        """The remembering function itself (one call less than calling this object)."""
        return self._call

    def _decide(self, media_type: str) -> bool:
        subtype = media_type_essence(media_type).partition("/")[2]
        return subtype in self.subtypes or any(
            subtype.endswith(suffix) and len(subtype) > len(suffix) for suffix in self.suffixes
        )


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


_CANONICAL_INT = re.compile(r"-?(?:0|[1-9][0-9]*)").fullmatch

IntCodec = tuple[Callable[[str], int], Callable[[Any], int], Callable[[Any], str], Callable[[Any], int]]


def _int_codec(name: str) -> IntCodec:
    """The four conversions of the integer wire type ``name``, whose range the type records give (``wiretypes``)."""
    low, high = INTEGER_RANGES[name]
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


int8_from_text, int8_from_json, int8_to_text, int8_to_json = _int_codec("int8")
int16_from_text, int16_from_json, int16_to_text, int16_to_json = _int_codec("int16")
int32_from_text, int32_from_json, int32_to_text, int32_to_json = _int_codec("int32")
int64_from_text, int64_from_json, int64_to_text, int64_to_json = _int_codec("int64")


# --- floats (JSON number syntax in headers) ----------------------------------------------------------------------

_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?").fullmatch
FloatCodec = tuple[Callable[[str], float], Callable[[Any], float], Callable[[Any], str], Callable[[Any], float]]


def _float_codec(largest: float) -> FloatCodec:
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


float32_from_text, float32_from_json, float32_to_text, float32_to_json = _float_codec(3.4028234663852886e38)
float64_from_text, float64_from_json, float64_to_text, float64_to_json = _float_codec(math.inf)


# --- UUID, base64, any JSON value ---------------------------------------------------------------------------------

_UUID_MATCH = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}").fullmatch


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

_BASE64_MATCH = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?").fullmatch


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

_TIMESTAMP_MATCH = re.compile(
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"(?:\.[0-9]{1,9})?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
).fullmatch
_FROMISOFORMAT = datetime.datetime.fromisoformat
_UTC = datetime.UTC
_DATETIME = datetime.datetime


def timestamp_from_text(text: str) -> datetime.datetime:
    """An aware datetime.  ``t``/``z`` may be lower case; ``-00:00`` reads as UTC; fraction digits beyond the
    sixth are truncated.  A leap second (``:60``), a date that does not exist and year 0000 are errors."""
    if _TIMESTAMP_MATCH(text) is None:
        raise Invalid(_m.not_rfc3339(text=repr(text)))
    try:
        return _FROMISOFORMAT(text)
    except ValueError:
        try:
            return _FROMISOFORMAT(text.upper())
        except ValueError as exc:
            raise Invalid(_m.invalid_date_time(why=exc, text=repr(text))) from None


def timestamp_from_json(value: Any) -> datetime.datetime:
    if type(value) is str and _TIMESTAMP_MATCH(value) is not None:
        try:
            return _FROMISOFORMAT(value)
        except ValueError:
            pass  # lower-case t or z, or a date that does not exist
    return timestamp_from_text(_json_text(value))


_TWO_DIGITS = tuple(f"{i:02d}" for i in range(100))


def timestamp_to_text(value: Any) -> str:
    """``YYYY-MM-DDTHH:MM:SS``, ``.ffffff`` only when there are microseconds, then ``Z`` or ``+hh:mm``.

    A UTC datetime as msgspec writes it (the same form, in C); others built from the fields (``isoformat`` of an
    aware datetime costs three times as much); a naive datetime or an offset with seconds is an error, a
    subclass's digits beyond microseconds are not written.
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
            raise Invalid(f"has a UTC offset with seconds ({offset}), which RFC 3339 cannot write")
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
        return int32_from_json(value)
    raise Invalid(f"is {json_kind(value)}; the value of an undeclared attribute is a boolean, an integer or a string")


def attribute_value_to_text(value: Any) -> str:
    if isinstance(value, str):
        return check_text(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int32_to_text(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64_to_text(value)
    if isinstance(value, datetime.datetime):
        return timestamp_to_text(value)
    raise Invalid(f"has type {type(value).__name__}; expected bool, int, str, bytes or datetime")


def attribute_value_to_json(value: Any) -> bool | int | str:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int32_to_json(value)
    return attribute_value_to_text(value)


# --- JSON ----------------------------------------------------------------------------------------------------------

JSON_ENCODE = msgspec.json.Encoder().encode
"""msgspec's encoder; check :func:`finite` when its output holds ``null`` (NaN and infinity are written so)."""
_JSON_DECODE = msgspec.json.Decoder().decode
_BYTE = re.compile(r"\s*\(byte (\d+)\)")


def finite(value: Any) -> bool:
    """Whether a JSON-bound value holds no NaN or infinity (anywhere inside)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(finite(v) for v in value.values())
    if isinstance(value, list | tuple | set | frozenset):
        return all(finite(v) for v in value)
    return True


def json_encode(document: Any, payload: Any) -> bytes:
    """Compact UTF-8 JSON of ``document``; ``payload`` is the part that may hold floats.

    msgspec writes NaN and infinity as ``null``; JSON cannot carry them, so that is refused instead (the check
    runs only when the output holds a ``null``).  Other Python types msgspec knows (tuple, UUID, datetime, bytes,
    enum, dataclass ...) are written its way.
    """
    try:
        data = JSON_ENCODE(document)
    except (TypeError, ValueError, OverflowError) as exc:
        raise Invalid(f"cannot be written as JSON: {exc}") from None
    if data.rfind(b"null") >= 0 and not finite(payload):  # rfind is cheaper than `in` on bytes
        raise Invalid("holds NaN or infinity, which JSON cannot carry")
    return data


def json_raw(data: bytes | bytearray | memoryview) -> msgspec.Raw:
    """JSON text held as bytes, to be written in place as a JSON value (not as a string, not re-encoded).

    The text must be one JSON value as :func:`json_decode` reads it (UTF-8, nothing after it), else
    :class:`Invalid` with the byte offset.  Whitespace between tokens is removed, so the value fits on one line;
    everything else is kept as written: member order, repeated member names, number spelling, escapes.
    """
    json_decode(data)
    try:
        return msgspec.Raw(msgspec.json.format(bytes(data), indent=-1))
    except RecursionError:  # nested deeper than this stack allows, within the limit json_decode checked
        return msgspec.Raw(roomy(lambda: msgspec.json.format(bytes(data), indent=-1)))


def json_decode(data: bytes | bytearray | memoryview | str) -> Any:
    """The JSON value of UTF-8 JSON text; :class:`Invalid` (with the byte offset) for anything else.

    The family's strict text, as the Java codec reads it: text that is not UTF-8 is refused at its first invalid
    byte, whatever else is wrong with it (RFC 8259 8.1), and arrays and objects nest at most
    :data:`~.jsonwire.MAX_DEPTH` deep, whatever the interpreter's stack (a repeated member name keeps its last
    value, in the first one's place: a Python dict, as the CloudEvents SDKs' parsers read an object)."""
    try:
        value = _JSON_DECODE(data)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return _json_decode_again(data)
    if sys.getrecursionlimit() > MAX_DEPTH and _text_nesting(data) > MAX_DEPTH:
        raise Invalid(TOO_DEEP)  # msgspec read deeper than the limit: the interpreter's limit was raised
    return value


TOO_DEEP: Final = "malformed JSON: nested too deeply"


def _malformed(exc: msgspec.DecodeError) -> Invalid:
    text = str(exc).removeprefix("JSON is malformed: ")
    found = _BYTE.search(text)
    return Invalid(f"malformed JSON: {_BYTE.sub('', text)}", int(found.group(1)) if found else None)


def _text_nesting(data: bytes | bytearray | memoryview | str) -> int:
    return nesting(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data))


def _json_decode_again(data: bytes | bytearray | memoryview | str) -> Any:
    """:func:`json_decode` of a text msgspec refused: the reason, in the family's order (invalid UTF-8 first), or
    the value when msgspec only ran out of stack on a text within the nesting limit."""
    if not isinstance(data, str):
        try:
            bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Invalid(f"JSON text is not UTF-8 ({exc.reason})", exc.start) from None
    try:
        return _JSON_DECODE(data)
    except msgspec.DecodeError as exc:
        raise _malformed(exc) from None
    except RecursionError:
        if _text_nesting(data) > MAX_DEPTH:
            raise Invalid(TOO_DEEP) from None
    try:
        return roomy(lambda: _JSON_DECODE(data))
    except msgspec.DecodeError as exc:  # a syntax error beyond the depth msgspec reached first
        raise _malformed(exc) from None
