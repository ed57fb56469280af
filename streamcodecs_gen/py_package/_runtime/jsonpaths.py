"""The JSON family's decoding paths, built by each protocol's generated ``messages`` module from its tables.

A protocol whose every direction is a union of tagged messages decodes on the *typed* path (:func:`typed_text`,
:func:`typed_packed`): one msgspec pass per message. Any other takes its *fast* path (per direction, generated:
the common messages in one typed pass) and otherwise the *general* one: parse, recognise the message by its tag,
else by its shape in declaration order (:func:`recogniser`), then validate it (:func:`general_text`,
:func:`fast_text`, :func:`general_packed`).

Each function returns a closure over the tables it is given (a free variable reads as fast as a module's global),
so a generated module's decoders are one Python call, as when they were written out in it.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import msgspec

from . import messages as _m
from .errors import DecodeError
from .jsonfailures import _MISSING, DECODE_FAILURES, PACKED_TOO_DEEP, decode_error
from .jsonpacked import deeper_packed, free_ok, may_be_odd, odd_value, packed_end, refuse_unbounded
from .jsonplaces import _PATH, _first_tag, _refused_one, located, tag_again_at, telling_failure
from .jsontext import check_text, deeper, malformed_first, unbounded
from .jsonwire import Fast
from .messages import EMPTY_MESSAGE, MAX_DEPTH

__all__ = ["fast_text", "general_packed", "general_text", "recogniser", "typed_packed", "typed_text"]

TextDecode = Callable[[str | None, bytes, int | None], Any]
"""``decode(direction, text, line)``: one message's JSON (``line``: where it starts in a stream, if read from one)."""
PackedDecode = Callable[[str | None, Any, int | None], Any]
"""``decode(direction, data, at)``: one MessagePack value (``at``: its offset in a stream, if read from one)."""
Recognise = Callable[..., Any]
"""``recognise(value, direction, line, huge=False)``: a parsed value as the message it is, validated (``huge``:
the value holds numbers beyond a double's range, as :func:`parse_huge` keeps them)."""

OUT_OF_RANGE = _m.NUMBER_OUT_OF_RANGE
"""msgspec's words for a number beyond a double's range (which the Java codec's readers use too)."""


def _float_or_huge(text: str) -> float | msgspec.Raw:
    value = float(text)
    return msgspec.Raw(text.encode()) if math.isinf(value) else value


_HUGE = msgspec.json.Decoder(float_hook=_float_or_huge)


def parse_huge(exc: Exception, text: bytes) -> Any:
    """After msgspec refused ``text`` for a number beyond a double's range (``exc``): the text's value with each such
    number kept as its text (a :class:`msgspec.Raw`), or None when ``exc`` is another failure or the text is not
    JSON. Only the message's own reading decides whether such a number matters (the family's rule: a value under a
    key the message does not read is checked for JSON syntax only)."""
    if not isinstance(exc, msgspec.ValidationError) or not str(exc).startswith(OUT_OF_RANGE):
        return None
    try:
        return _HUGE.decode(text)
    except RecursionError:
        raise  # read again with room on the stack (:func:`general_text`)
    except DECODE_FAILURES:
        return None


def _refuses_alike(decode: Callable[[bytes], Any], exc: Exception) -> Callable[[bytes], bool]:
    """Whether ``decode`` (a typed decoder's) refuses a text or value as it refused another with ``exc``: which
    occurrence of a key repeated on the refused value's path it refused (:func:`~.jsonplaces.value_at`,
    :func:`packed_value_at`)."""

    def refused(data: bytes) -> bool:
        try:
            decode(data)
        except msgspec.ValidationError as again:
            return str(again) == str(exc)
        except DECODE_FAILURES:
            return False
        return False

    return refused


def typed_text(
    decoders: Mapping[str, msgspec.json.Decoder[Any]],
    error: type[DecodeError],
    tag_key: str,
    tag_directions: Mapping[str, tuple[str, ...]],
) -> TextDecode:
    """The typed path of JSON text: the direction's union of tagged messages (``decoders``), or without a direction
    each in turn, the first that fits winning; a failure names the direction whose tag the message has."""

    getrecursionlimit = sys.getrecursionlimit

    def tag_again(failure: DecodeError, text: bytes, name: str) -> DecodeError:
        """``failure`` of direction ``name``'s decoder, at the value that it refuses when that is a repeated tag key's
        value other than its first: the decoder read the message the first names (one of the direction's), then
        refused the other there."""
        if failure.field != tag_key or failure.offset is not None:
            return failure
        again = tag_again_at(text, tag_key)
        if again is None or not isinstance(again[0], str) or name not in tag_directions.get(again[0], ()):
            return failure
        return error(failure.reason, offset=again[1], field=failure.field, line=failure.line)

    def unknown_tag(failure: DecodeError, text: bytes, direction: str | None) -> DecodeError:
        """``failure`` in the family's words (as the general path's, :func:`recogniser`) when it refuses the message's
        tag for being no tag of ``direction`` (None: of any): msgspec's only say the value."""
        if failure.field != tag_key or failure.offset is not None:
            return failure
        tag = _first_tag(text, tag_key)
        owners = tag_directions.get(tag, ()) if isinstance(tag, str) else ()
        if not isinstance(tag, str) or (direction in owners if direction is not None else owners):
            return failure
        return error(unknown_tag_problem(tag_key, tag, direction), field=tag_key, line=failure.line)

    def decode_text(direction: str | None, text: bytes, line: int | None) -> Any:
        if not text.isascii() or 92 in text:  # else nothing check_text looks for (the common case, without a call)
            check_text(text, error, line)
        if getrecursionlimit() > MAX_DEPTH:
            unbounded(text, error, line)
        try:
            if direction is not None:
                try:
                    return decoders[direction].decode(text)
                except RecursionError:
                    raise
                except DECODE_FAILURES as exc:
                    failure = decode_error(malformed_first(exc, text), error, line=line, size=len(text))
                    failure = tag_again(unknown_tag(failure, text, direction), text, direction)
                    raise located(
                        failure, text, error, last=False, refused=_refuses_alike(decoders[direction].decode, exc)
                    ) from None
            failures: dict[str, Exception] = {}
            for name, decoder in decoders.items():  # a tag used in several directions: the first that fits wins
                try:
                    return decoder.decode(text)
                except RecursionError:
                    raise
                except DECODE_FAILURES as exc:
                    failures[name] = exc
                    if not isinstance(exc, msgspec.ValidationError):  # malformed input: no other decoder can do better
                        break
            telling = telling_failure(failures, text, tag_key, tag_directions)
            failure = decode_error(malformed_first(telling, text), error, line=line, size=len(text))
            name = next(name for name, exc in failures.items() if exc is telling)
            failure = tag_again(unknown_tag(failure, text, None), text, name)
            raise located(
                failure, text, error, last=False, refused=_refuses_alike(decoders[name].decode, telling)
            ) from None
        except RecursionError:
            return deeper(text, error, line, partial(decode_text, direction, text, line))  # no closure: no cells

    return decode_text


def typed_packed(decoders: Mapping[str, msgspec.msgpack.Decoder[Any]], error: type[DecodeError]) -> PackedDecode:
    """The typed path of a MessagePack value, as :func:`typed_text` (the first failure is the one named; nesting
    as :func:`general_packed`)."""

    def decode_packed(direction: str | None, data: Any, at: int | None) -> Any:
        refuse_unbounded(data, error, at or 0)  # (at the value's start, as packed_located names it)
        first: Exception | None = None
        refuser: msgspec.msgpack.Decoder[Any] | None = None  # the decoder that refused it so
        try:
            for decoder in (decoders[direction],) if direction is not None else tuple(decoders.values()):
                try:
                    message = decoder.decode(data)
                    if not free_ok(message) and odd_value(message) is not None:
                        value = _PARSE(data)
                        if type(value) is dict:  # (a message's own keys that are not strings: unknown keys)
                            value = {key: item for key, item in value.items() if type(key) is str}
                        refuse_odd(value, data, at, error)
                    return message
                except RecursionError:
                    raise
                except DECODE_FAILURES as exc:
                    if first is None:
                        first, refuser = exc, decoder
                    if not isinstance(exc, msgspec.ValidationError):
                        break
        except RecursionError:
            try:
                return deeper_packed(data, error, at, partial(decode_packed, direction, data, at))
            except error as exc:
                raise packed_located(exc, data, at, error) from None
        assert first is not None and refuser is not None
        failure = decode_error(first, error, syntax=_m.PACKED_SYNTAX, at=at, size=len(data))
        refused = _refuses_alike(refuser.decode, first) if isinstance(first, msgspec.ValidationError) else None
        raise packed_located(failure, data, at, error, last=False, bad=first, refused=refused) from None

    return decode_packed


_PARSE = msgspec.msgpack.Decoder().decode


def refuse_odd(value: Any, data: Any, at: int | None, error: type[DecodeError]) -> None:
    """Refuses a parsed MessagePack value holding a map key that is not a string or an extension other than the
    timestamp (:func:`~.jsonpacked.odd_value`), at the map or the extension, after msgspec found it well-formed (a
    message's own keys that are not strings are unknown keys: the caller has dropped them)."""
    if type(value) is not dict or may_be_odd(data):  # (the test counts the bytes of a message's own map)
        found = odd_value(value)
        if found is not None:
            reason, path = found
            field = path.lstrip(".") or None
            offset = (at or 0) + packed_value_at(bytes(data), field)
            raise error(reason, offset=offset, field=field)


def _packed_items(data: Any, pos: int) -> tuple[bool | None, int, int]:
    """Of the MessagePack value at ``pos``: whether it is a map (True), an array (False) or neither (None), its
    number of entries and where the first starts."""
    head = data[pos]
    if 0x80 <= head <= 0x9F:  # fixmap, fixarray
        return head < 0x90, head & 0x0F, pos + 1
    if head in (0xDC, 0xDE):  # array 16, map 16
        return head == 0xDE, int.from_bytes(data[pos + 1 : pos + 3], "big"), pos + 3
    if head in (0xDD, 0xDF):  # array 32, map 32
        return head == 0xDF, int.from_bytes(data[pos + 1 : pos + 5], "big"), pos + 5
    return None, 0, pos


def _packed_occurrences(data: bytes, pos: int, count: int, key: str) -> list[tuple[int, int, int]]:
    """Of the map whose ``count`` entries start at ``pos``, each entry ``key``: where it starts (its key's start),
    where its value starts and where it ends (as :func:`~.jsonplaces._occurrences` of a JSON object)."""
    found = []
    for _ in range(count):
        value = packed_end(data, pos)[0]
        end = packed_end(data, value)[0]
        try:
            name = msgspec.msgpack.decode(data[pos:value])
        except msgspec.DecodeError:
            name = None
        if name == key:
            found.append((pos, value, end))
        pos = end
    return found


def _recount(head: int) -> Callable[[bytes, int], bytes]:
    """How a MessagePack value without ``removed`` entries of its map at ``head`` says so: the map's count less
    them, written in the same width (a map 16 of few entries is still MessagePack), so that nothing after moves."""

    def recount(data: bytes, removed: int) -> bytes:
        kind = data[head]
        width = 0 if 0x80 <= kind <= 0x8F else 2 if kind == 0xDE else 4
        if not width:
            return data[:head] + bytes([kind - removed]) + data[head + 1 :]
        count = int.from_bytes(data[head + 1 : head + 1 + width], "big") - removed
        return data[: head + 1] + count.to_bytes(width, "big") + data[head + 1 + width :]

    return recount


def packed_value_at(
    data: Any,
    field: str | None,
    *,
    missing: bool = False,
    last: bool = True,
    refused: Callable[[bytes], bool] | None = None,
) -> int:
    """:func:`~.jsonplaces.value_at` of a MessagePack value (a whole one, refused after it was read): the offset in
    ``data`` of the value at ``field``, or with ``missing`` of the map that lacks its last key. Of a repeated key,
    the value read (``last``: the last, as the general path's dict holds it; else the one the typed path refused,
    which reads each in turn: the first for which the value without the later ones is still ``refused``, or
    without that test the first)."""
    pos = 0
    steps = list(_PATH.finditer(field or ""))
    if missing and steps:
        steps.pop()
    for step in steps:
        key, index = step.group("key"), step.group("index")
        if index == "...":
            break
        is_map, count, at = _packed_items(data, pos)
        if key is not None and is_map is not True:  # an array stands for its message's one field
            if is_map is False:
                continue
            break
        if index is not None and is_map is not False:  # a lone scalar stands for its list of one
            if is_map is None:
                continue
            break
        if key is not None and not last and refused is not None:
            spots = _packed_occurrences(data, at, count, key)
            if len(spots) > 1:
                pos, data = _refused_one(data, spots, refused, _recount(pos))
                continue
        found = None
        for item in range(count):
            if key is not None:
                value = packed_end(data, at)[0]
                try:
                    name = msgspec.msgpack.decode(data[at:value])
                except msgspec.DecodeError:
                    name = None
                if name == key:
                    found = value
                    if not last:
                        break
                at = value
            elif item == int(index):
                found = at
                break
            at = packed_end(data, at)[0]
        if found is None:
            break
        pos = found
    return pos


def _bad_string_at(data: bytes, bad: UnicodeDecodeError) -> int:
    """Where the first string of a MessagePack value that is not UTF-8 fails (``bad``: Python's reason, whose offset
    is in the string): its heads followed in order, as msgspec reads them."""
    pos = 0
    while pos < len(data):
        head = data[pos]
        width = 0 if 0xA0 <= head <= 0xBF else {0xD9: 1, 0xDA: 2, 0xDB: 4}.get(head, -1)
        if width >= 0:  # a string: fixstr, str 8, str 16, str 32
            size = head & 0x1F if width == 0 else int.from_bytes(data[pos + 1 : pos + 1 + width], "big")
            start = pos + 1 + width
            try:
                data[start : start + size].decode("utf-8")
            except UnicodeDecodeError as exc:
                return start + exc.start
            pos = start + size
            continue
        is_map, _, start = _packed_items(data, pos)
        pos = start if is_map is not None else packed_end(data, pos)[0]  # into a container, else past the value
        if pos < 0:
            break
    return bad.start  # not reached: msgspec found such a string


def packed_located(
    exc: DecodeError,
    data: Any,
    at: int | None,
    error: type[DecodeError],
    *,
    last: bool = True,
    bad: Exception | None = None,
    refused: Callable[[bytes], bool] | None = None,
) -> Any:
    """``exc`` naming the offset of what it refuses in the MessagePack value ``data`` (at ``at`` in a stream) when it
    names none, as :func:`~.jsonplaces.located` does in JSON text: a string that is not UTF-8 (``bad``) at its bad
    byte; a value nested too deeply at its start (not at the map or array that opens one level too many, as in JSON
    text: the Reader's runs do not follow that)."""
    if isinstance(bad, UnicodeDecodeError):  # msgspec's offset is in the string: the string's, in the value
        return error(exc.reason, offset=(at or 0) + _bad_string_at(bytes(data), bad), line=exc.line)
    if exc.reason == PACKED_TOO_DEEP:  # at the value's start, as the Reader's one-pass runs refuse it
        return exc if exc.offset is not None else error(exc.reason, offset=at or 0, line=exc.line)
    if exc.offset is not None:
        return exc
    missing = _MISSING.match(exc.reason) is not None
    offset = (at or 0) + packed_value_at(
        bytes(data), exc.field, missing=missing, last=last, refused=refused
    )  # (a Raw in a Reader)
    return error(exc.reason, offset=offset, field=exc.field, line=exc.line)


def recogniser(
    *,
    tag_key: str,
    by_tag: Mapping[str, Mapping[str, type]],
    by_shape: Mapping[str, tuple[tuple[Callable[[Any], bool], type], ...]],
    scalar_lists: Mapping[type, tuple[str, ...]],
    array_field: Mapping[type, tuple[str, str]],
    directions: tuple[str, ...],
    error: type[DecodeError],
) -> Recognise:
    """The general path's recognition of a parsed value: by its tag (``by_tag``, per direction), else by its shape
    in declaration order (``by_shape``), in ``direction`` or else in each direction in turn; then validated.

    ``scalar_lists``: per message, the list fields that take a lone scalar as a list of one. ``array_field``: per
    message written as a bare JSON array, the wire and Python names of its one field.
    """

    def classify(value: Any, direction: str) -> type | None:
        if isinstance(value, dict):
            tag = value.get(tag_key)
            if tag is not None:
                return by_tag[direction].get(tag) if isinstance(tag, str) else None
        for test, cls in by_shape[direction]:
            if test(value):
                return cls
        return None

    typed: dict[type, Callable[[bytes], Any]] = {}
    # The Structs that refuse unknown keys (a fast path's catch-all shape): their message still takes them
    # (ignored, as by every other message), so they are dropped before validation.
    strict: dict[type, frozenset[str]] = {
        cls: frozenset(f.encode_name for f in msgspec.structs.fields(cls))
        for cls in {*(c for m in by_tag.values() for c in m.values()), *(c for s in by_shape.values() for _, c in s)}
        if cls.__struct_config__.forbid_unknown_fields  # type: ignore[attr-defined]
    }

    def in_range(value: Any, cls: type, line: int | None) -> None:
        """Refuses a value holding a number beyond a double's range (:func:`parse_huge`) where message ``cls`` reads
        it, in the words and at the place msgspec's typed decoding of ``cls`` names it (the first problem in the
        text's order); such a number elsewhere (under a key ``cls`` does not read) is let be. The value is written
        again (a repeated key once, with its last value) and decoded as ``cls``; only on this rare path."""
        decode = typed.get(cls)
        if decode is None:
            decode = typed[cls] = msgspec.json.Decoder(cls).decode
        try:
            decode(msgspec.json.encode(value))
        except msgspec.ValidationError as exc:
            if str(exc).startswith(OUT_OF_RANGE):
                raise decode_error(exc, error, line=line) from None
            # another problem comes first: msgspec.convert below names it in the general path's words

    def convert(value: Any, cls: type, line: int | None, huge: bool) -> Any:
        if cls in array_field:
            value = {array_field[cls][0]: value}
        elif cls in scalar_lists:
            for key in scalar_lists[cls]:
                if key in value and value[key] is not None and not isinstance(value[key], list):
                    value[key] = [value[key]]
        if cls in strict and not strict[cls].issuperset(value):
            value = {key: item for key, item in value.items() if key in strict[cls]}
        if huge:
            in_range(value, cls, line)
        try:
            return msgspec.convert(value, cls, from_attributes=False)
        except RecursionError:
            raise
        except DECODE_FAILURES as exc:
            raise decode_error(exc, error, line=line) from None

    def recognise(value: Any, direction: str | None, line: int | None, huge: bool = False) -> Any:
        for name in (direction,) if direction is not None else directions:
            cls = classify(value, name)
            if cls is not None:
                return convert(value, cls, line, huge)
        if isinstance(value, dict) and tag_key in value:  # (at the tag, as the typed path refuses it)
            raise error(unknown_tag_problem(tag_key, value.get(tag_key), direction), field=tag_key, line=line)
        if isinstance(value, dict):
            problem = _m.no_message_has_keys(keys=shown_keys(value)) if value else _m.NO_MESSAGE_EMPTY_OBJECT
        else:
            problem = _m.no_message_matches(what="float" if isinstance(value, msgspec.Raw) else type(value).__name__)
        raise error(problem + (f" in direction {direction!r}" if direction else ""), line=line)

    return recognise


def shown_keys(value: dict[Any, Any]) -> str:
    """An object's keys in a problem, as Python reprs in their order: the first :data:`~.messages.SHOWN_KEYS`, and
    how many more."""
    shown = ", ".join(repr(key) for key, _ in zip(value, range(_m.SHOWN_KEYS), strict=False))
    more = len(value) - _m.SHOWN_KEYS
    return _m.shown_keys(first=shown, more=more) if more > 0 else shown


def unknown_tag_problem(tag_key: str, tag: Any, direction: str | None) -> str:
    """The family's words for a message whose tag (its value under ``tag_key``) no message of ``direction`` (None:
    of any direction) has, as the Java codec says them (JsonMessages.noMessage, unknownTag)."""
    return _m.no_message_matches(what=f"{tag_key}: {_shown(tag)}") + (
        f" in direction {direction!r}" if direction else ""
    )


def _shown(value: Any) -> str:
    """A tag's value in a problem: a scalar's repr, ``[...]`` or ``{...}`` for an array or object (not all of it)."""
    if isinstance(value, list):
        return "[...]"
    if isinstance(value, dict):
        return "{...}"
    if isinstance(value, msgspec.Raw):  # a number beyond a double's range (parse_huge): as Python reads it
        return repr(float(bytes(value)))
    return repr(value)


def general_text(recognise: Recognise, error: type[DecodeError]) -> TextDecode:
    """The general path of JSON text: parse, then :func:`recogniser`'s ``recognise``. A number beyond a double's
    range is refused only where the message recognised reads it (:func:`parse_huge`)."""
    parse = msgspec.json.decode

    def decode_general(direction: str | None, text: bytes, line: int | None) -> Any:
        check_text(text, error, line)
        unbounded(text, error, line)
        try:
            try:
                value = parse(text)
            except RecursionError:
                raise
            except DECODE_FAILURES as exc:
                if not text.strip():
                    raise error(EMPTY_MESSAGE, offset=len(text), line=line) from None  # where JSON was needed
                value = parse_huge(exc, text)
                if value is None:
                    failure = decode_error(malformed_first(exc, text), error, line=line, size=len(text))
                    raise located(failure, text, error) from None
                try:
                    return recognise(value, direction, line, huge=True)
                except error as refused:
                    raise located(refused, text, error) from None
            try:
                return recognise(value, direction, line)
            except error as refused:
                raise located(refused, text, error) from None
        except RecursionError:
            return deeper(text, error, line, partial(decode_general, direction, text, line))

    return decode_general


def fast_text(
    fast: Mapping[str, Fast], general: TextDecode, directions: tuple[str, ...], tag_key: str, error: type[DecodeError]
) -> TextDecode:
    """One message's JSON text: the direction's fast path (``fast``; without a direction, the first's), else
    ``general`` (which checks the text again: only the fast path's misses pay twice)."""
    needle = f'"{tag_key}"'.encode()
    getrecursionlimit = sys.getrecursionlimit

    def decode_text(direction: str | None, text: bytes, line: int | None) -> Any:
        if not text.isascii() or 92 in text:  # else nothing check_text looks for (the common case, without a call)
            check_text(text, error, line)
        if getrecursionlimit() > MAX_DEPTH:  # msgspec could read deeper than the limit: the general path checks
            return general(direction, text, line)
        out: list[Any] = []
        tagged_first = text.find(needle) >= 0  # only a guess, saving a miss
        if fast[direction or directions[0]]([text], 0, out, tagged_first)[0]:  # no direction: the first, as below
            return out[0]
        return general(direction, text, line)

    return decode_text


def general_packed(
    fast: Mapping[str, Fast], recognise: Recognise, directions: tuple[str, ...], error: type[DecodeError]
) -> PackedDecode:
    """One MessagePack value: the direction's fast path (``fast``), else parse, recognise and validate.

    Nesting is limited to :data:`MAX_DEPTH` whatever the stack, as for JSON text: a value msgspec runs out of stack
    on is measured, then refused or read again with room (:func:`~.jsonpacked.deeper_packed`); with the
    interpreter's recursion limit raised above it, a value that may be deeper is measured first."""
    parse = msgspec.msgpack.Decoder().decode

    def decode_packed(direction: str | None, data: Any, at: int | None) -> Any:
        refuse_unbounded(data, error, at or 0)  # (at the value's start, as packed_located names it)
        out: list[Any] = []
        try:
            if fast[direction or directions[0]]([data], 0, out, False)[0]:  # no direction: the first, as below
                if free_ok(out[0]) or odd_value(out[0]) is None:
                    return out[0]
            try:
                value = parse(data)
            except RecursionError:
                raise
            except DECODE_FAILURES as exc:
                failure = decode_error(exc, error, syntax=_m.PACKED_SYNTAX, at=at, size=len(data))
                raise packed_located(failure, data, at, error, bad=exc) from None
            if type(value) is dict and not all(type(key) is str for key in value):  # a message's own keys that are
                value = {key: item for key, item in value.items() if type(key) is str}  # not strings: unknown keys
            refuse_odd(value, data, at, error)
            try:
                return recognise(value, direction, None)
            except error as exc:
                raise packed_located(exc, data, at, error) from None
        except RecursionError:
            try:
                return deeper_packed(data, error, at, partial(decode_packed, direction, data, at))
            except error as exc:
                raise packed_located(exc, data, at, error) from None

    return decode_packed
