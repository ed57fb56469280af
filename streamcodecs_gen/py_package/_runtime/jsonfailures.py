"""msgspec's failures to decode as the protocol's :class:`~.errors.DecodeError`: the reason in the family's words,
the field path and the byte offset msgspec names (:func:`decode_error`). Where a refusal names no offset, ``jsonplaces``
finds it in the text.
"""

from __future__ import annotations

import re

import msgspec

from . import messages as _m
from .errors import DecodeError
from .messages import JSON_TRUNCATED, NESTED_TOO_DEEPLY, malformed, string_not_utf8

__all__ = ["DECODE_FAILURES", "PACKED_TOO_DEEP", "decode_error"]

_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_BYTE = re.compile(r"\(byte (?P<offset>\d+)\)")
_MISSING = re.compile(r"missing required field `(?P<name>[^`]*)`")
_PACKED_MALFORMED = re.compile(r"^MessagePack data is malformed: ")
PACKED_TOO_DEEP = malformed(syntax=_m.PACKED_SYNTAX, why=NESTED_TOO_DEEPLY)
"""MessagePack nested deeper than :data:`MAX_DEPTH`: :data:`TOO_DEEP`'s words, naming the format it refuses."""
DECODE_FAILURES = (msgspec.DecodeError, UnicodeDecodeError, RecursionError, ValueError)
"""What msgspec raises for input it cannot decode: its own errors, and for invalid UTF-8 in a string or deep
nesting, these two built-in ones; and Python's datetime's ValueError for a MessagePack timestamp of the first second of
the year 10000, which msgspec's own bound (one second further) lets through."""


def decode_error(
    exc: Exception,
    error: type[DecodeError],
    *,
    line: int | None = None,
    message: str | None = None,
    syntax: str = "JSON",
    at: int | None = None,
    size: int | None = None,
) -> DecodeError:
    """Translate a msgspec error into ``error`` with the field path and byte offset it names.

    ``syntax`` names the encoding in the reason (``JSON`` or ``MessagePack``); ``at`` is the stream offset of the
    value, added to the offset msgspec names (and given alone when it names none). ``size`` is the length of the
    input decoded: an input cut short (msgspec names no offset) is refused at its end, where more was needed.
    """
    text = str(exc)
    if size is not None and text == JSON_TRUNCATED:
        exc = msgspec.DecodeError(f"{text} (byte {size})")
        text = str(exc)
    field = None
    match = _AT.search(text)
    if match:
        field = match.group("path").lstrip(".") or None
        text = text[: match.start()]
    offset = None
    match = _BYTE.search(text)
    if match:
        offset = int(match.group("offset"))
        text = (text[: match.start()] + text[match.end() :]).strip()
    if at is not None:
        offset = at + (offset or 0)
    if isinstance(exc, msgspec.ValidationError):
        text = text.replace("Object missing required field", "missing required field")
        missing = _MISSING.search(text)
        if missing:  # name the absent field itself, not only the object that lacks it
            field = f"{field}.{missing.group('name')}" if field else missing.group("name")
    elif isinstance(exc, msgspec.DecodeError):
        text = malformed(syntax=syntax, why=_PACKED_MALFORMED.sub("", text))
    elif isinstance(exc, UnicodeDecodeError):
        text = malformed(syntax=syntax, why=string_not_utf8(why=exc.reason))
    elif isinstance(exc, RecursionError):
        text = malformed(syntax=syntax, why=NESTED_TOO_DEEPLY)
    elif isinstance(exc, ValueError):  # (a timestamp past msgspec's bound: refused in its words for the next one)
        text = _m.PACKED_TIMESTAMP_RANGE
        offset = at or 0
    return error(message or text, offset=offset, field=field, line=line)
