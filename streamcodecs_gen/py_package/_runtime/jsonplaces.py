"""Where in a JSON text a refusal is, and which refusal is told: msgspec names a field path but no offset for a
value it refuses, so the offset is found again in the text (:func:`value_at`, :func:`member_at`, :func:`located`) as
the Java codec finds it (``JsonPlaces``); of the failures of several directions, the one of the direction the tag
names is told (:func:`telling_failure`); a tag key repeated with another value is refused at that value
(:func:`tag_again_at`). Only on the error path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from .errors import DecodeError
from .jsonfailures import _MISSING
from .jsontext import _BRACKETS, roomy, too_deep_at
from .messages import TOO_DEEP

__all__ = ["located", "member_at", "tag_again_at", "telling_failure", "value_at"]

# ---------------------------------------------------------------- where a refused value is
# msgspec names a field path but no offset for a value it refuses (and none for a missing field or a value no
# message matches); the offset is found again in the text, on the error path only, as the Java codec finds it
# (JsonPlaces.valueAt): the field's value, or for a missing field the object that lacks it, or for a value no
# message matches the value itself. The text is JSON (a syntax error is reported before any of these).
_PATH = re.compile(r"\.?(?P<key>[^.\[]+)|\[(?P<index>\d+|\.\.\.)\]")
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_SPACE = re.compile(rb"[ \t\r\n]*")
_SCALAR_END = re.compile(rb"[,\]} \t\r\n]|$")


def _value_end(text: bytes, pos: int) -> int:
    """The end of the JSON value that starts at ``pos``."""
    first = text[pos]
    if first == 0x22:  # "
        return _JSON_STRING.match(text, pos).end()  # type: ignore[union-attr]
    if first not in b"[{":
        return _SCALAR_END.search(text, pos).start()  # type: ignore[union-attr]
    depth = 0
    for token in _BRACKETS.finditer(text, pos):
        mark = token.group()[0]
        if mark in b"[{":
            depth += 1
        elif mark in b"]}":
            depth -= 1
            if depth == 0:
                return token.end()
    return len(text)


def _inside(text: bytes, pos: int, key: str | None, index: int, last: bool) -> int | None:
    """The start of member ``key`` of the object at ``pos`` (its last when ``last``, else occurrence ``index``: 0, its
    first), or of item ``index`` of the array there; None when it has none."""
    close = 0x7D if key is not None else 0x5D  # } or ]
    pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    found = None
    count = 0
    seen = 0  # the occurrences of ``key`` so far
    while pos < len(text) and text[pos] != close:
        if key is not None:
            name = _JSON_STRING.match(text, pos)
            assert name is not None
            raw = name.group()
            pos = _SPACE.match(text, _SPACE.match(text, name.end()).end() + 1).end()  # type: ignore[union-attr]
            if (json.loads(raw) if 92 in raw else raw[1:-1].decode("utf-8")) == key:
                found = pos
                if not last and seen == index:
                    return found
                seen += 1
        elif count == index:
            return pos
        count += 1
        pos = _SPACE.match(text, _value_end(text, pos)).end()  # type: ignore[union-attr]
        if pos < len(text) and text[pos] == 0x2C:  # ,
            pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    return found


def _occurrences(text: bytes, pos: int, key: str) -> list[tuple[int, int, int]]:
    """Of the object at ``pos``, each member ``key``: where the member before it ends (its value's end), where its
    value starts and where it ends."""
    pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    found = []
    before = pos
    while pos < len(text) and text[pos] != 0x7D:  # }
        name = _JSON_STRING.match(text, pos)
        assert name is not None
        raw = name.group()
        pos = _SPACE.match(text, _SPACE.match(text, name.end()).end() + 1).end()  # type: ignore[union-attr]
        end = _value_end(text, pos)
        if (json.loads(raw) if 92 in raw else raw[1:-1].decode("utf-8")) == key:
            found.append((before, pos, end))
        before = end
        pos = _SPACE.match(text, end).end()  # type: ignore[union-attr]
        if pos < len(text) and text[pos] == 0x2C:  # ,
            pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    return found


def _refused_one(
    text: bytes,
    spots: list[tuple[int, int, int]],
    refused: Callable[[bytes], bool],
    recount: Callable[[bytes, int], bytes] | None = None,
) -> tuple[int, bytes]:
    """Of a key repeated in an object (``spots``: :func:`_occurrences`), the occurrence a one-pass decoder refused
    (it reads each in turn, and refuses the first it cannot take): the first that ``text`` without the ones after it
    is still ``refused`` for; its value's start, and that text (the same up to the end of that value). ``recount``:
    how a text without some members says so before them (a MessagePack map's count: ``recount(text, removed)``,
    the same width, so that nothing moves).

    Without the ones after an occurrence before the refused one the text is not refused so (the decoder takes the
    occurrences kept and goes on to the rest of the text), and with the refused one kept it is: so the occurrence is
    found by bisection, in as many decodes as the number of occurrences has bits."""

    def without_after(k: int) -> bytes:  # ``text`` without the occurrences after ``k`` (each with its comma)
        pieces = []
        at = 0
        for before, _, end in spots[k + 1 :]:
            pieces.append(text[at:before])
            at = end
        pieces.append(text[at:])
        cut = b"".join(pieces)
        return cut if recount is None else recount(cut, len(spots) - 1 - k)

    low, high = 0, len(spots) - 1
    shorter = text  # the text without the occurrences after ``high`` (none after the last: the text, refused)
    while low < high:
        middle = (low + high) // 2
        candidate = without_after(middle)
        if refused(candidate):
            high, shorter = middle, candidate
        else:
            low = middle + 1
    return spots[high][1], shorter


def value_at(
    text: bytes,
    field: str | None,
    *,
    missing: bool = False,
    last: bool = True,
    refused: Callable[[bytes], bool] | None = None,
) -> int:
    """The offset in JSON ``text`` of the value at ``field`` (a DecodeError's path: ``records[0].data``), or with
    ``missing`` of the object that lacks its last key; the top-level value's without a field.

    Of a repeated key, the value read (``last``: the last, as the general path's dict holds it; else the one the
    typed path refused, which reads each in turn: the first for which the text without the later ones is still
    ``refused``, or without that test the first). A path the text does not hold all of ends where it stops: an
    entry of a map (``[...]``) is not named, so the map; a key of an array is the message whose one field the array
    is, an index of a scalar the lone scalar read as a list of one, so that value.
    """
    pos = _SPACE.match(text).end()  # type: ignore[union-attr]
    steps = list(_PATH.finditer(field or ""))
    if missing and steps:
        steps.pop()
    for step in steps:
        if pos >= len(text):
            break
        kind = text[pos]
        key, index = step.group("key"), step.group("index")
        if index == "...":
            break
        if key is not None and kind != 0x7B:  # not an object: an array stands for its message's one field
            if kind == 0x5B:
                continue
            break
        if index is not None and kind != 0x5B:  # not an array: a lone scalar stands for its list of one
            if kind == 0x7B:
                break
            continue
        if key is not None and not last and refused is not None:
            spots = _occurrences(text, pos, key)
            if len(spots) > 1:
                pos, text = _refused_one(text, spots, refused)
                continue
        found = _inside(text, pos, key, int(index or 0), last)
        if found is None:
            break
        pos = found
    return pos


def member_at(text: bytes, name: str | None) -> int:
    """The offset in JSON ``text`` of the value of the top-level object's member ``name`` (of a repeated name, the
    last, as a dict holds it), or of the top-level value when it has none (or is no object, or without a name)."""
    pos = _SPACE.match(text).end()  # type: ignore[union-attr]
    if name is None or pos >= len(text) or text[pos] != 0x7B:
        return pos
    found = _inside(text, pos, name, 0, True)
    return pos if found is None else found


def located(
    exc: DecodeError,
    text: bytes,
    error: type[DecodeError],
    *,
    last: bool = True,
    refused: Callable[[bytes], bool] | None = None,
) -> DecodeError:
    """``exc`` naming the offset in ``text`` of what it refuses (:func:`value_at`) when it names none."""
    if exc.offset is not None:
        return exc
    if exc.reason == TOO_DEEP:  # (malformed_first's verdict on a text msgspec refused for another reason first)
        offset = too_deep_at(text)
    else:
        missing = _MISSING.match(exc.reason) is not None
        offset = value_at(text, exc.field, missing=missing, last=last, refused=refused)
    return error(exc.reason, offset=offset, field=exc.field, line=exc.line)


# ---------------------------------------------------------------- the tag: which failure is told, a repeated one


def _tag_values(text: bytes, tag_key: str) -> list[Any]:
    """Every value of the top-level object's tag key, in order (none when the text is no object). Only on the error
    path: the standard library keeps every occurrence of a key."""
    if not text.lstrip(b" \t\r\n").startswith(b"{"):
        return []
    found: list[list[tuple[str, Any]]] = []

    def pairs(items: list[tuple[str, Any]]) -> None:
        found[:] = [items]  # the top level's are the last pairs made

    try:
        roomy(lambda: json.loads(text, object_pairs_hook=pairs))
    except (ValueError, RecursionError):
        return []
    return [value for key, value in found[0] if key == tag_key] if found else []


def _first_tag(text: bytes, tag_key: str) -> Any:
    """The first value of the top-level object's tag key (the message's tag, as msgspec and Jackson read a tagged
    type), or None."""
    return next(iter(_tag_values(text, tag_key)), None)


def tag_again_at(text: bytes, tag_key: str) -> tuple[Any, int] | None:
    """Of a top-level tag key repeated with another value than its first: that first value (which picked the message
    the typed path reads) and the offset of the first other one (which it then refuses); else None."""
    values = _tag_values(text, tag_key)
    other = next((i for i, value in enumerate(values) if value != values[0]), None)
    if other is None:
        return None
    found = _inside(text, _SPACE.match(text).end(), tag_key, other, False)  # type: ignore[union-attr]
    return None if found is None else (values[0], found)


def telling_failure(
    failures: dict[str, Exception], text: bytes, tag_key: str, tag_directions: Mapping[str, tuple[str, ...]]
) -> Exception:
    """Of the failures of decoding ``text`` in each direction (in order), the one to report.

    When the message's tag belongs to exactly one direction, that direction's failure names the real problem (the
    others only say that they do not know the tag); otherwise the first.
    """
    first = next(iter(failures.values()))
    if len(failures) < 2:
        return first
    tag = _first_tag(text, tag_key)
    owners = tag_directions.get(tag, ()) if isinstance(tag, str) else ()
    return failures[owners[0]] if len(owners) == 1 and owners[0] in failures else first
