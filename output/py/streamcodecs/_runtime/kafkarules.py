# Copied from streamcodecs_gen/py_package/_runtime/kafkarules.py by ./generator.py; edit that file, not this copy.
"""The Kafka family's rules shared by its runtime modules: the :class:`Invalid` they raise, :data:`MISSING`, the
text checks every string passes, how a value is named in a problem, the remembered valid values and the media-type
helpers (essence, parameters, whether a media type declares JSON).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Final

from . import messages as _m
from .kafkapatterns import FORBIDDEN as _FORBIDDEN
from .kafkapatterns import PARAMETER as _PARAMETER

__all__ = [
    "MISSING",
    "VALID_MEDIA_TYPE",
    "VALID_URI",
    "VALID_URI_REFERENCE",
    "Invalid",
    "JsonMediaTypes",
    "MissingType",
    "ascii_lower",
    "check_text",
    "json_kind",
    "media_type_essence",
    "media_type_parameter",
    "remember",
    "shown",
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

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def ascii_lower(text: str) -> str:
    """Lower-case A-Z only (``str.lower`` would also turn the Kelvin sign into ``k``)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def check_text(text: str) -> str:
    if text.isprintable():  # printable excludes control (Cc), surrogate (Cs) and unassigned (Cn) code points
        return text
    found = _FORBIDDEN.search(text)
    if found is not None:
        raise Invalid(_m.forbidden_character(code=f"{ord(found.group()):04X}"))
    return text


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


# --- media types (RFC 2045 section 5.1 tokens, RFC 7231 section 3.1.1.1 whitespace and quoted strings) -------------


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
    Call it with the media type; answers are remembered (media types repeat: the first 1024 media types met)."""

    def __init__(self, subtypes: Iterable[str], suffixes: Iterable[str]) -> None:
        self.subtypes = frozenset(subtypes)
        self.suffixes = tuple(suffixes)
        self._answers = _Answers(self._decide)

    def __call__(self, media_type: str) -> bool:
        return self._answers[media_type]

    @property
    def cached(self) -> Callable[[str], bool]:
        """The remembering function itself (one call less than calling this object): the answers' lookup, which
        costs half an ``lru_cache`` call."""
        return self._answers.__getitem__

    def _decide(self, media_type: str) -> bool:
        subtype = media_type_essence(media_type).partition("/")[2]
        return subtype in self.subtypes or any(
            subtype.endswith(suffix) and len(subtype) > len(suffix) for suffix in self.suffixes
        )


class _Answers(dict[str, bool]):
    """Answers of ``decide`` by its str argument: a missing one is decided, and kept while there are fewer than
    1024."""

    def __init__(self, decide: Callable[[str], bool]) -> None:
        super().__init__()
        self.decide = decide

    def __missing__(self, key: str) -> bool:
        answer = self.decide(key)
        if len(self) < 1024 and type(key) is str:
            self[key] = answer
        return answer
