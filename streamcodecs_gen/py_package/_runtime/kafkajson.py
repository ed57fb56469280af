"""The Kafka family's JSON: compact UTF-8 text that refuses what JSON cannot carry (NaN, infinity), raw JSON values
written in place, and the family's strict reading (UTF-8 first, a nesting limit whatever the stack).
"""

from __future__ import annotations

import math
import re
import sys
from typing import Any, Final

import msgspec

from . import messages as _m
from .jsontext import nesting, roomy, syntax_before_too_deep, too_deep_at
from .kafkarules import Invalid
from .messages import MAX_DEPTH

__all__ = ["JSON_ENCODE", "TOO_DEEP", "finite", "json_decode", "json_encode", "json_raw"]

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
    :data:`~.messages.MAX_DEPTH` deep, whatever the interpreter's stack (a repeated member name keeps its last
    value, in the first one's place: a Python dict, as the CloudEvents SDKs' parsers read an object)."""
    try:
        value = _JSON_DECODE(data)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return _json_decode_again(data)
    if sys.getrecursionlimit() > MAX_DEPTH and _text_nesting(data) > MAX_DEPTH:
        raise _too_deep(data)  # msgspec read deeper than the limit: the interpreter's limit was raised
    return value


TOO_DEEP: Final = _m.TOO_DEEP


def _malformed(exc: msgspec.DecodeError, data: bytes | bytearray | memoryview | str) -> Invalid:
    text = str(exc).removeprefix("JSON is malformed: ")
    if text == _m.JSON_TRUNCATED:  # cut short: refused at its end, where more input was needed
        size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
        return Invalid(_m.malformed(syntax="JSON", why=text), size)
    found = _BYTE.search(text)
    return Invalid(_m.malformed(syntax="JSON", why=_BYTE.sub("", text)), int(found.group(1)) if found else None)


def _text_nesting(data: bytes | bytearray | memoryview | str) -> int:
    return nesting(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data))


def _too_deep(data: bytes | bytearray | memoryview | str) -> Invalid:
    """A text nested too deeply, refused at the bracket that opens one level too many, or at the syntax error before
    it (where the Java codec's parser stops first)."""
    text = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    syntax = syntax_before_too_deep(text)
    return Invalid(TOO_DEEP, too_deep_at(text)) if syntax is None else _malformed(syntax, data)


def _json_decode_again(data: bytes | bytearray | memoryview | str) -> Any:
    """:func:`json_decode` of a text msgspec refused: the reason, in the family's order (invalid UTF-8 first), or
    the value when msgspec only ran out of stack on a text within the nesting limit."""
    if not isinstance(data, str):
        try:
            bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Invalid(_m.json_not_utf8(why=exc.reason), exc.start) from None
    try:
        return _JSON_DECODE(data)
    except msgspec.DecodeError as exc:
        raise _malformed(exc, data) from None
    except RecursionError:
        if _text_nesting(data) > MAX_DEPTH:
            raise _too_deep(data) from None
    try:
        return roomy(lambda: _JSON_DECODE(data))
    except msgspec.DecodeError as exc:  # a syntax error beyond the depth msgspec reached first
        raise _malformed(exc, data) from None
