"""The JSON texts both codecs refuse alike, whichever path reads them: a text that is not UTF-8 or holds a lone
surrogate escape (:func:`check_text`), one nested deeper than :data:`MAX_DEPTH` (:func:`deeper`, :func:`unbounded`,
with :func:`roomy` giving msgspec room on the stack), and one that is not JSON at all, reported as malformed whatever
else is wrong with it (:func:`malformed_first`).
"""

from __future__ import annotations

import datetime
import re
import sys
from collections.abc import Callable
from typing import TypeVar

import msgspec

from .errors import DecodeError
from .jsonfailures import decode_error
from .messages import JSON_TRUNCATED, MAX_DEPTH, TOO_DEEP, lone_surrogate, malformed, string_not_utf8

__all__ = [
    "HELD",
    "check_text",
    "deeper",
    "held",
    "malformed_first",
    "nesting",
    "roomy",
    "syntax_before_too_deep",
    "too_deep",
    "too_deep_at",
    "unbounded",
]

M = TypeVar("M")

# ---------------------------------------------------------------- the JSON texts both codecs refuse alike
# The rules of the family's documented "strict text" (docs/definition-format.md), applied by the Java codec too:
# a message's text must be UTF-8 and hold no lone surrogate escape, wherever (RFC 8259 sections 8.1 and 8.2; no peer
# refuses either, msgspec only where it decodes a string); it may nest arrays and objects MAX_DEPTH deep, whatever
# the interpreter's stack; and a text that is not JSON is reported as malformed, whatever else is wrong with it.
# MAX_DEPTH (the message catalog's): Jackson's default limit (``StreamReadConstraints``), which the KCL
# MultiLangDaemon, the CloudEvents Java SDK and the Java codec read with. msgspec's own limit is the interpreter's
# recursion limit less the stack in use (below 1000 with Python's default limit), so a deeper document fails there
# first and :func:`deeper` decides: refused when deeper than this, else decoded again with room on the stack.
_ESCAPES = re.compile(
    rb"\\(?:u(?:[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|(?P<lone>[dD][89a-fA-F][0-9a-fA-F]{2})"
    rb"|[0-9a-fA-F]{4})|.)",
    re.S,
)
"""One escape (a backslash and what it takes): a surrogate pair, a lone surrogate (``lone``), another ``\\u``
escape, or a backslash and one character."""
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)  # a string (skipped whole) or a bracket
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_RAW = msgspec.json.Decoder(msgspec.Raw)  # checks the syntax of a text (and nothing else), builds nothing


def check_text(text: bytes, error: type[DecodeError], line: int | None = None) -> None:
    """Refuses (``error``) a JSON text that is not UTF-8 or holds a lone surrogate escape (``\\ud800`` not followed
    by a low surrogate, or a low one alone), anywhere in it: RFC 8259 8.1 (JSON text is UTF-8) and 8.2 (strings of
    Unicode characters). Two C passes for a text of ASCII without a backslash."""
    if text.isascii() and 92 not in text:  # no UTF-8 to check, no escape
        return
    if not text.isascii():
        try:
            text.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = malformed(syntax="JSON", why=string_not_utf8(why=exc.reason))
            raise error(reason, offset=exc.start, line=line) from None
    if _SURROGATE_ESCAPE.search(text) is not None:
        for escape in _ESCAPES.finditer(text, text.index(b"\\")):
            if escape.group("lone") is not None:
                written = escape.group().decode("ascii")
                reason = malformed(syntax="JSON", why=lone_surrogate(escape=written))
                raise error(reason, offset=escape.start(), line=line)


def _plainly_strict(text: bytes, end: int) -> bool:
    """Whether every text in ``text[:end]`` passes :func:`check_text`, told by one pass over all of them: UTF-8
    throughout and no escape that may be a surrogate's (False: check each text, see :func:`check_text`)."""
    whole = end == len(text)  # (one message: decoded as it is, where a view and its slice cost more than the decode)
    if not text.isascii():
        try:
            text.decode("utf-8") if whole else str(memoryview(text)[:end], "utf-8")
        except UnicodeDecodeError:
            return False
    if whole and 92 not in text:  # no backslash, no escape (an int needle: one memchr)
        return True
    return text.find(b"\\ud", 0, end) < 0 and text.find(b"\\uD", 0, end) < 0  # two C passes, not a regex


def nesting(text: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (outside its strings)."""
    brackets = _STRING.sub(b"", text).translate(None, _NOT_BRACKETS)
    depth = deepest = 0
    for b in brackets:
        if b in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def too_deep_at(text: bytes) -> int:
    """Where a JSON text nested deeper than :data:`MAX_DEPTH` is refused: at the bracket that opens one level too many
    (outside its strings, as :func:`nesting` counts), where the Java codec's parser stops."""
    depth = 0
    for token in _BRACKETS.finditer(text):
        mark = token.group()[0]
        if mark == 0x5B or mark == 0x7B:  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                return token.start()
        elif mark == 0x5D or mark == 0x7D:
            depth -= 1
    return 0  # not reached: only a text nested too deeply is asked about


def syntax_before_too_deep(text: bytes) -> msgspec.DecodeError | None:
    """Of a JSON text nested deeper than :data:`MAX_DEPTH`: the syntax error that comes before the bracket opening one
    level too many, or None. The Java codec's parser reads in the text's order and stops at whichever it meets first;
    msgspec reads the text up to that bracket (with room on the stack) to tell: cut short there, it met none."""
    try:
        roomy(lambda: _RAW.decode(text[: too_deep_at(text) + 1]))
    except msgspec.DecodeError as exc:
        return None if str(exc) == JSON_TRUNCATED else exc
    return None  # not reached: the text stops inside that bracket's value


def too_deep(text: bytes, error: type[DecodeError], line: int | None) -> DecodeError:
    """The refusal of a text nested deeper than :data:`MAX_DEPTH`: at the bracket that opens one level too many, or
    the syntax error before it (:func:`syntax_before_too_deep`)."""
    syntax = syntax_before_too_deep(text)
    if syntax is not None:
        return decode_error(syntax, error, line=line)
    return error(TOO_DEEP, offset=too_deep_at(text), line=line)


def deeper(text: bytes, error: type[DecodeError], line: int | None, again: Callable[[], M]) -> M:
    """After msgspec ran out of stack on ``text``: refused as nested too deeply when it nests deeper than
    :data:`MAX_DEPTH` (:func:`too_deep`), else ``again()`` with room for that depth on the stack."""
    if nesting(text) > MAX_DEPTH:
        raise too_deep(text, error, line)
    return roomy(again)


def roomy(call: Callable[[], M]) -> M:
    """``call()`` with room on the stack for :data:`MAX_DEPTH` more levels of nesting: up to four frames a level (the
    encode checks' walk of a free-form value takes three: the walk, ``any`` and its generator)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 4 * MAX_DEPTH + 100)
    try:
        return call()
    finally:
        sys.setrecursionlimit(limit)


def unbounded(text: bytes, error: type[DecodeError], line: int | None) -> None:
    """Refuses a text nested deeper than :data:`MAX_DEPTH` when the interpreter's recursion limit was raised above
    it (then msgspec would read it): what keeps the limit fixed in every interpreter."""
    if sys.getrecursionlimit() > MAX_DEPTH and nesting(text) > MAX_DEPTH:
        raise too_deep(text, error, line)


def malformed_first(exc: Exception, text: bytes) -> Exception:
    """Of a failure to decode ``text``: the text's syntax error when it is not JSON at all (whatever else was found
    first, as the Java codec, which reads the syntax first), else ``exc``."""
    if isinstance(exc, msgspec.DecodeError) and not isinstance(exc, msgspec.ValidationError):
        return exc
    try:
        try:
            _RAW.decode(text)
        except RecursionError as deep:
            if nesting(text) > MAX_DEPTH:
                return syntax_before_too_deep(text) or deep
            roomy(lambda: _RAW.decode(text))
    except msgspec.ValidationError:
        return exc
    except msgspec.DecodeError as syntax:
        return syntax
    return exc


# --- times the Java codec holds otherwise ------------------------------------------------------------------------

HELD = datetime.timedelta(hours=18)
"""The largest offset the Java codec holds (``java.time.ZoneOffset``'s); RFC 3339 writes up to 23:59."""
_MINUTE = datetime.timedelta(minutes=1)
_ZERO = datetime.timedelta(0)


def held(value: datetime.datetime) -> datetime.datetime:
    """``value`` as the Java codec holds it, and so writes it (``Rfc3339.text``): the same datetime when its offset
    is within 18:00; else (RFC 3339 and this codec take offsets up to 23:59, which Java's ``OffsetDateTime`` cannot
    hold) the same instant at UTC, or, when that is outside the years 0001 to 9999, at the offset nearest UTC that
    keeps it inside them. So both codecs write one text of a time whose offset is beyond 18:00 (not "+20:00" from
    one and "Z" from the other), a text every peer reads (the CloudEvents Java SDK refuses an offset beyond 18:00)."""
    offset = value.utcoffset()
    if offset is None or -HELD <= offset <= HELD:
        return value
    local = value.replace(tzinfo=None)
    if offset > HELD:  # UTC is earlier: before 0001-01-01T00:00 by ``short``, when that is positive
        short = offset - (local - datetime.datetime.min)
    else:  # UTC is later: after 9999-12-31T23:59:59.999999 by ``short``, when that is positive
        short = -offset - (datetime.datetime.max - local)
    if short <= _ZERO:
        return value.astimezone(datetime.UTC)
    minutes = -(-short // _MINUTE)  # rounded up
    held_at = minutes * _MINUTE if offset > _ZERO else -minutes * _MINUTE
    return (local + (held_at - offset)).replace(tzinfo=datetime.timezone(held_at))  # (never through year 0)
