# Copied from streamcodecs_gen/py_package/_runtime/jsonpacked.py by ./generator.py; edit that file, not this copy.
"""The MessagePack variant of the JSON wire family: a stream of MessagePack values written back to back, cut into
values (and runs of common messages decoded in one pass) for a protocol's incremental ``Reader``.

msgspec has no call that reads one value off the front of a buffer; :class:`PackedFrames` finds where values end by
C passes over the bytes instead (see its docstring). The per-value decoding is :mod:`.jsonpaths`', the errors
:mod:`.jsonfailures`'.
"""

from __future__ import annotations

import re
import sys
import typing
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import msgspec

from . import messages as _m
from .errors import DecodeError
from .jsonfailures import _BYTE, _PACKED_MALFORMED, DECODE_FAILURES, PACKED_TOO_DEEP
from .jsontext import roomy
from .messages import MAX_DEPTH, too_long

__all__ = [
    "NOT_OPENERS",
    "PackedFrames",
    "PackedRun",
    "Scalar",
    "LEAVES",
    "free_ok",
    "may_be_odd",
    "odd_value",
    "packed_end",
    "refuse_unbounded",
    "too_deep",
]

_RAW_VALUES = msgspec.msgpack.Decoder(list[msgspec.Raw])
_SKIP_VALUES = msgspec.msgpack.Decoder(msgspec.Raw)  # checks a value's structure, builds nothing
_TRAILING = re.compile(r"trailing characters \(byte (?P<offset>\d+)\)")
_TRUNCATED = "Input data was truncated"
_ARRAY32 = b"\xdd"  # array 32: a 4-byte count follows
_HEAD = 5  # bytes of an array 32 header
_RUN_REFUSED = (*DECODE_FAILURES, TypeError)
_GUARDED: Any = object()  # a run a guard sends one by one (see PackedRun)
_MOST_SKIPS = 64  # runs decoded without the common twins after they refused one, at most (doubling from 1)

Scalar: typing.TypeAlias = str | int | float | bool | None
"""The free-form values msgspec tells from the rest as it decodes, in C: a message's common twin (a Struct with the
message's fields, each free-form value narrowed to a Scalar, alone or as the items of a list or map) decodes only
what holds nothing :func:`odd_value` looks for, at no cost beyond the decoding. A msgspec union takes one str-like
type, so bytes and timestamps are left to the message itself (and :func:`free_ok`)."""


def _value_heads() -> list[tuple[int, int, int, int]]:
    """For each first byte of a MessagePack value: (bytes before any length, bytes of the length, bytes after it
    besides the counted ones, items it opens); a length of 0 bytes means a fixed size; ``(0, 0, 0, -1)`` marks
    the byte that is never used (0xc1)."""
    heads = [(1, 0, 0, 0)] * 256  # fixints, nil, false, true
    for b in range(0x80, 0x90):
        heads[b] = (1, 0, 0, 2 * (b & 0x0F))  # fixmap: a key and a value per entry
    for b in range(0x90, 0xA0):
        heads[b] = (1, 0, 0, b & 0x0F)  # fixarray
    for b in range(0xA0, 0xC0):
        heads[b] = (1 + (b & 0x1F), 0, 0, 0)  # fixstr
    heads[0xC1] = (0, 0, 0, -1)
    for b, width in ((0xC4, 1), (0xC5, 2), (0xC6, 4), (0xD9, 1), (0xDA, 2), (0xDB, 4)):
        heads[b] = (1, width, 0, 0)  # bin, str: the length counts the bytes that follow it
    for b, width in ((0xC7, 1), (0xC8, 2), (0xC9, 4)):
        heads[b] = (1, width, 1, 0)  # ext: a type byte, then the counted bytes
    for b, size in ((0xCA, 5), (0xCB, 9), (0xCC, 2), (0xCD, 3), (0xCE, 5), (0xCF, 9), (0xD0, 2), (0xD1, 3)):
        heads[b] = (size, 0, 0, 0)  # floats and integers
    for b, size in ((0xD2, 5), (0xD3, 9), (0xD4, 3), (0xD5, 4), (0xD6, 6), (0xD7, 10), (0xD8, 18)):
        heads[b] = (size, 0, 0, 0)  # integers, fixext
    for b, width, per in ((0xDC, 2, 1), (0xDD, 4, 1), (0xDE, 2, 2), (0xDF, 4, 2)):
        heads[b] = (1, width, 0, -1 - per)  # array 16/32, map 16/32: the length counts items (a map's twice)
    return heads


_VALUE_HEADS = _value_heads()
_OPENERS = bytes(range(0x80, 0xA0)) + b"\xdc\xdd\xde\xdf"  # fixmap, fixarray, array 16/32, map 16/32
NOT_OPENERS = bytes(b for b in range(256) if b not in _OPENERS)
"""Every byte but those that open a map or an array (``bytes.translate(None, NOT_OPENERS)`` keeps the openers): each
level of nesting adds one, so bytes with fewer cannot nest that deep (other values' bytes may be openers too)."""


# ---------------------------------------------------------------- what JSON has no form for
# A message's MessagePack value may hold no map key that is not a string and no extension but the timestamp,
# wherever it is: the definition's free-form values are JSON values (a VARIANT in Spark), and pystorm's unpacker
# refuses such keys too. msgspec reads both into an `any` field, so a value whose bytes could hold them is walked.

_ODD_HEADS = bytes(range(0x80, 0x90)) + b"\xc7\xc8\xc9\xd4\xd5\xd6\xd7\xd8\xde\xdf"  # maps, extensions
NOT_ODD = bytes(b for b in range(256) if b not in _ODD_HEADS)
_KINDS = {int: "int", float: "float", bool: "bool", type(None): "null", bytes: "bytes", tuple: "array"}
_EXT = msgspec.msgpack.Ext
_STRUCT_META = type(msgspec.Struct)


def may_be_odd(data: Any, count: int = 1) -> bool:
    """Whether ``count`` whole MessagePack values could hold a map key that is not a string or an extension (more
    bytes that may start a map or an extension than their own maps): one C pass; else :func:`odd_value` says."""
    if type(data) is not bytes and type(data) is not bytearray:
        data = bytes(data)
    return len(data.translate(None, NOT_ODD)) > count


def free_ok(message: Any) -> bool:
    """Whether a message surely holds nothing :func:`odd_value` looks for: each of its fields that may hold a
    free-form value holds a scalar or a list of scalars (the common tuple: one pass in C), as a message's fields
    are looked up with no walk and no copy of its bytes. False: :func:`odd_value` decides."""
    fields = _FREE.get(type(message))
    if fields is None:
        if type(type(message)) is not _STRUCT_META:
            return False
        fields = _free_fields(type(message))
    for name, _ in fields:
        item = getattr(message, name)
        if type(item) in LEAVES or (type(item) is list and LEAVES.issuperset(map(type, item))):
            continue
        return False
    return True


def odd_value(value: Any) -> tuple[str, str] | None:
    """The first map key that is not a string, or extension other than the timestamp, in ``value`` (a parsed
    MessagePack value, in the order of its bytes, or a message): the refusal and the path to it (``.tuple[0]``: a
    key's map, an extension itself); None when it holds neither."""
    try:
        return _odd(value, "")
    except RecursionError:  # (nested up to MAX_DEPTH, deeper than the stack in use allows)
        return roomy(partial(_odd, value, ""))


def _odd(value: Any, path: str) -> tuple[str, str] | None:
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                name = _KINDS.get(type(key)) or ("ext" if type(key) is _EXT else type(key).__name__)
                return _m.packed_key_not_str(kind=name), path
            if type(item) in LEAVES:
                continue
            found = _odd(item, f"{path}.{key}")
            if found is not None:
                return found
    elif kind is list or kind is tuple:
        for index, item in enumerate(value):
            if type(item) in LEAVES:
                continue
            found = _odd(item, f"{path}[{index}]")
            if found is not None:
                return found
    elif kind is _EXT:
        return _m.packed_extension(type=value.code), path
    elif type(kind) is _STRUCT_META:
        for name, key in _free_fields(kind):
            item = getattr(value, name)
            if type(item) in LEAVES or (type(item) is list and LEAVES.issuperset(map(type, item))):
                continue  # (a list of scalars, the common tuple: one pass in C)
            found = _odd(item, f"{path}.{key}")
            if found is not None:
                return found
    return None


LEAVES = frozenset({str, int, float, bool, bytes, type(None)})
"""The classes of a free-form value that holds no other value (so nothing :func:`odd_value` looks for)."""
_FREE: dict[type, tuple[tuple[str, str], ...]] = {}


def _free_fields(cls: type) -> tuple[tuple[str, str], ...]:
    """The (attribute, key) pairs of a message or struct class whose values may hold a free-form value (worked out
    from its Struct fields' types once per class): only they can hold what :func:`odd_value` looks for."""
    found = _FREE.get(cls)
    if found is None:
        found = _FREE[cls] = tuple(
            (f.name, f.encode_name) for f in msgspec.structs.fields(cls) if _may_hold_any(f.type, set())
        )
    return found


def _may_hold_any(tp: Any, seen: set[Any]) -> bool:
    if tp is Any:
        return True
    if isinstance(tp, type) and type(tp) is _STRUCT_META:
        if tp in seen:
            return False
        seen.add(tp)
        return any(_may_hold_any(f.type, seen) for f in msgspec.structs.fields(tp))
    return any(_may_hold_any(arg, seen) for arg in typing.get_args(tp))


# ---------------------------------------------------------------- nesting, whatever the stack
# msgspec reads MessagePack as deep as the interpreter's recursion limit less the stack in use allows (below 1000
# with Python's default limit), so, as with JSON text (jsontext), a value deeper than that fails first and then its
# nesting decides: refused as PACKED_TOO_DEEP when deeper than MAX_DEPTH, else read again with room on the stack;
# and where the recursion limit was raised above MAX_DEPTH (msgspec would read deeper), a value that could be
# deeper is measured before it is read.


def packed_end(data: Any, at: int = 0, size: int = -1) -> tuple[int, int]:
    """Where the MessagePack value at ``data[at:size]`` ends, and how deep its maps and arrays nest (the value's
    own one counting; a scalar: 0), found by following its heads in Python, with no recursion. The end is
    ``size + 1`` when the value is cut short, ``-1 - offset`` at a byte that is not MessagePack (the depth then the
    deepest seen so far)."""
    size = len(data) if size < 0 else size
    state, end, deepest = _follow_heads(data, at, size, [])
    return (end if state > 0 else size + 1 if state == 0 else -1 - end), deepest


def _follow_heads(data: Any, at: int, size: int, open_: list[int]) -> tuple[int, int, int]:
    """Follow MessagePack heads over ``data[at:size]``, inside the containers ``open_`` holds the items still to
    come of (updated in place), until the value they and ``data[at]`` are part of is complete. Returns 1, its end
    and how deep the containers opened here nested; else 0 (cut short: following goes on from there) or -1 (a byte
    that is not MessagePack, there), with the deepest so far."""
    heads = _VALUE_HEADS
    openers = _OPENERS
    deepest = 0
    while at < size:
        head = data[at]
        fixed, width, extra, items = heads[head]
        if items == -1:
            return -1, at, deepest
        if width:
            if size - at < fixed + width:
                break
            length = int.from_bytes(data[at + fixed : at + fixed + width], "big")
            if items < 0:  # array 16/32, map 16/32
                items = -(items + 1) * length
                step = fixed + width
            else:
                step = fixed + width + extra + length
        else:
            step = fixed
        if items:  # a container: its items follow
            at += step
            open_.append(items)
            deepest = max(deepest, len(open_))
            continue
        if size - at < step:
            break
        at += step
        if head in openers:  # an empty map or array
            deepest = max(deepest, len(open_) + 1)
        while open_:  # the item is done: so is every container it completes
            open_[-1] -= 1
            if open_[-1]:
                break
            open_.pop()
        if not open_:
            return 1, at, deepest
    return 0, at, deepest


def too_deep(data: Any) -> bool:
    """Whether the MessagePack value at the start of ``data`` nests deeper than :data:`MAX_DEPTH`: two C tests that
    settle almost every value, then its heads followed (:func:`packed_end`). What follows the value is not its
    depth: bytes after it are trailing characters, however deep they would nest (as the Java codec reads them)."""
    if len(data) <= MAX_DEPTH or len(bytes(data).translate(None, NOT_OPENERS)) <= MAX_DEPTH:
        return False
    return packed_end(memoryview(data), 0)[1] > MAX_DEPTH


def refuse_unbounded(data: Any, error: type[DecodeError], at: int | None) -> None:
    """Before msgspec reads ``data``: where the interpreter's recursion limit was raised above :data:`MAX_DEPTH`,
    msgspec could read a value deeper than the limit without running out of stack, so one that nests deeper is
    refused here as nested too deeply (at stream offset ``at``). A value of at most MAX_DEPTH bytes cannot nest
    deeper: for almost every value the test is one len()."""
    if len(data) > MAX_DEPTH and sys.getrecursionlimit() > MAX_DEPTH and too_deep(data):
        raise error(PACKED_TOO_DEEP, offset=at)


def deeper_packed(data: Any, error: type[DecodeError], at: int | None, again: Callable[[], Any]) -> Any:
    """After msgspec ran out of stack on a MessagePack value: refused as nested too deeply (at stream offset ``at``)
    when it nests deeper than :data:`MAX_DEPTH`, else ``again()`` with room for that depth on the stack."""
    if too_deep(data):
        raise error(PACKED_TOO_DEEP, offset=at)
    return roomy(again)


def _values_of(data: Any) -> Iterator[msgspec.Raw]:
    """The whole values of ``data`` (MessagePack back to back), cut where :func:`packed_end` finds their ends."""
    view = memoryview(data)
    at = 0
    while at < len(view):
        end, _ = packed_end(view, at)
        if not at < end <= len(view):
            raise AssertionError("values msgspec has found whole are not")  # pragma: no cover
        yield msgspec.Raw(view[at:end].tobytes())
        at = end


class PackedRun(typing.NamedTuple):
    """What a run of MessagePack values of one direction may be decoded as in one pass (see :class:`PackedFrames`).

    ``tagged`` decodes an array of the direction's tagged messages, ``base`` an array of its catch-all shape, whose
    Struct refuses unknown keys (each None when there is none; each a msgspec ``decode`` or a function of the same
    kind); ``guards`` are ``(getter, values)`` pairs: a run decoded as ``base`` is all ``base`` when no decoded
    value's field holds one of the values (those of the shapes recognised before it that have only its keys), else
    it is read one by one. ``common_tagged`` and ``common_base``: the same decoders over the messages' common twins
    (see :data:`Scalar`), giving the messages themselves with nothing left to look for, tried first (None: no
    message of theirs has a twin, so the run's own decoder stands in); ``common_fast``: the direction's fast path
    over them, for one value fed alone.
    """

    tagged: Callable[[Any], list[Any]] | None
    base: Callable[[Any], list[Any]] | None
    guards: tuple[tuple[Callable[[Any], Any], frozenset[Any]], ...]
    common_tagged: Callable[[Any], list[Any]] | None = None
    common_base: Callable[[Any], list[Any]] | None = None
    common_fast: Callable[[list[Any], int, list[Any], bool], tuple[int, bool]] | None = None


class _Batch:
    """Messages decoded from a run of whole values in one pass, and the bytes they took."""

    __slots__ = ("messages", "size")

    def __init__(self, messages: list[Any], size: int) -> None:
        self.messages = messages
        self.size = size


class PackedFrames:
    """Reads a byte stream of MessagePack values written back to back (no delimiter: each value delimits itself).

    The values are found by C passes over the bytes: the buffer behind a MessagePack array header claiming ``n``
    values (written in place, in the 5 bytes before them) is read as ``n`` raw values, and msgspec either reads
    exactly them, or names the byte where the ``n``-th value ended (more follow), or runs out of input (fewer are
    complete). The count is guessed from the sizes seen so far, so a stream of similar messages takes about two
    passes. A value cut anywhere waits for its rest: its structure is followed as it arrives (each byte of it is
    looked at once), so reading costs linear time however the stream is cut.

    ``run`` (a :class:`PackedRun`) decodes a run of whole values in one pass when they are all common ones: then
    no value costs a Python call of its own. Otherwise each value is decoded on its own (``fast``, then
    ``general``).

    A well-formed value that is not a valid message raises its DecodeError and reading goes on after it (one nested
    deeper than :data:`MAX_DEPTH` too, however deep: where it ends is followed without recursion). Bytes
    that are not MessagePack, or a value longer than ``max_message``, leave no way to find where the next value
    starts: that error is raised, and so is every later call (the stream cannot be resynchronised). Memory: the
    buffer holds at most one incomplete value (up to ``max_message`` bytes) and the last ``feed``'s data.
    """

    def __init__(self, max_message: int, error: type[DecodeError], run: PackedRun | None = None) -> None:
        self.max_message = max_message
        self.error = error
        self.offset = 0
        """Bytes of whole values cut out of the stream so far."""
        self._run = run
        self._buffer = bytearray(_HEAD)  # the header's place, then the bytes not yet cut out
        self._average = 256  # bytes per value, for the next guess: high at first (a guess too high costs a pass)
        self._broken: DecodeError | None = None
        self._items: list[Any] = []  # raw values, batches, or (the error to raise, its size)
        self._next = 0  # index of the first item not handed out yet
        self._runs: list[tuple[int, int]] = []  # (index of an item, its stream offset): where each run of items starts
        self._hint = False
        self._base_first = False  # which kind of run to try first (streams come in runs of one kind)
        self._common_skips = 0  # runs still to decode without trying the common twins first (see _decode_run)
        self._common_backoff = 1  # how many the next refusal by the twins skips
        self._waiting = False  # the buffer starts with an incomplete value, followed as far as ``_scan_at``
        self._scan_at = 0  # where following it goes on (relative to the buffer's start)
        self._open: list[int] | None = []  # items still to come in each container it is inside

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole value."""
        return len(self._buffer) - _HEAD

    def offset_of(self, index: int) -> int:
        """The stream offset where item ``index`` starts (worked out when asked: errors and the general path)."""
        first, offset = next(run for run in reversed(self._runs) if run[0] <= index)
        for item in self._items[first:index]:
            offset += item[1] if isinstance(item, tuple) else item.size if type(item) is _Batch else len(item)
        return offset

    def decode(
        self,
        data: bytes | bytearray | memoryview,
        fast: Callable[[list[Any], int, list[Any], bool], tuple[int, bool]],
        general: Callable[[Any, int], Any],
    ) -> list[Any]:
        """Every message ``data`` completes (as :meth:`EndFrames.decode`, ``general`` gets a stream offset)."""
        if (  # one whole common value, and nothing before it (a pipe read at a low rate): one typed decode
            self._next == len(self._items)
            and len(self._buffer) == _HEAD
            and not self._waiting
            and self._broken is None
            and 0 < len(data) <= self.max_message
            and (len(data) <= MAX_DEPTH or sys.getrecursionlimit() <= MAX_DEPTH)  # (else measured first: _take)
        ):
            single: list[Any] = []
            common = None if self._run is None else self._run.common_fast
            trying = common is not None and not self._common_skips
            if trying and common is not None:  # the twins first: nothing left to look for
                done, self._hint = common([data], 0, single, self._hint)
                if done:
                    self._common_done(True)
                    self.offset += len(data)
                    return single
            done, self._hint = fast([data], 0, single, self._hint)  # msgspec refuses a cut or second value
            if done and (free_ok(single[0]) or odd_value(single[0]) is None):
                if trying:  # a value the twins refused and its message takes (not a cut or second value)
                    self._common_done(False)
                elif common is not None:
                    self._common_skips -= 1  # (one value decoded while skipping the twins)
                self.offset += len(data)
                return single
        self._cut(data)
        items = self._items
        index = self._next
        end = len(items)
        if end - index == 1 and type(items[index]) is _Batch:  # the common case: one run, all common messages
            self._next = end
            return items[index].messages  # type: ignore[no-any-return]
        messages: list[Any] = []
        try:
            while index < end:
                item = items[index]
                if type(item) is not _Batch:
                    first, before = index, len(messages)
                    index, self._hint = fast(items, index, messages, self._hint)  # stops at a batch (not bytes)
                    for at in range(before, len(messages)):  # one message a value: one holding what JSON has no
                        message = messages[at]  # form for is the general path's, which refuses it
                        if not free_ok(message) and odd_value(message) is not None:
                            del messages[at:]
                            index = first + at - before
                            break
                    if index >= end:
                        break
                    item = items[index]
                index += 1  # where reading resumes, also after an error
                if type(item) is _Batch:
                    messages += item.messages
                elif isinstance(item, tuple):
                    raise item[0]
                else:
                    messages.append(general(item, self.offset_of(index - 1)))
        except DecodeError as exc:
            exc.decoded = messages
            self._next = index
            raise
        self._next = index
        return messages

    def _cut(self, data: bytes | bytearray | memoryview) -> None:
        if self._next == len(self._items):  # everything handed out: start afresh
            self._items = []
            self._runs = []
            self._next = 0
        if self._broken is not None:
            self._runs.append((len(self._items), self.offset))
            self._items.append((self._broken, 0))
            return
        buffer = self._buffer
        buffer += data
        size = len(buffer)
        pos = _HEAD
        if self._waiting:
            if not self._follow(buffer, size):
                self._check_limit()
                return
            # Complete at ``_scan_at`` (when followed to its end): msgspec checks that one value alone.
            limit = size if self._open is None else self._scan_at
            found, count, used = self._values(buffer, pos, limit, 1)
            if found:
                message = f"malformed MessagePack: {found} (the stream cannot be resynchronised)"
                self._break(self.error(message, offset=self.offset + used))
                return
            if count:
                self._take(buffer, pos, count, used)
                self.offset += used
                pos += used
        while pos < size:
            # The whole values from ``pos`` on, found in a few passes (each a C scan) and then taken in one run.
            start, total, found, count = pos, 0, "", 0
            while pos < size and pos - start <= self.max_message:
                saved = buffer[pos - _HEAD : pos]  # a pass's header goes there: the end of the values found before
                found, count, used = self._values(buffer, pos, size)
                buffer[pos - _HEAD : pos] = saved
                if found or not count:
                    break
                total += count
                pos += used
                self._average = max(1, used // count)
            if total:
                buffer[start - _HEAD : start] = _ARRAY32 + total.to_bytes(4, "big")
                self._take(buffer, start, total, pos - start)
                self.offset += pos - start
            if found:  # not MessagePack at ``pos + used``
                message = f"malformed MessagePack: {found} (the stream cannot be resynchronised)"
                self._break(self.error(message, offset=self.offset + used))
                return
            if not count:  # the value at ``pos`` is incomplete: follow it as it arrives
                del buffer[_HEAD:pos]
                self._waiting = True
                self._scan_at = _HEAD
                self._open = []
                if self._follow(buffer, len(buffer)):  # msgspec found it cut: it decides, each time
                    self._open = None
                self._check_limit()
                return
        del buffer[_HEAD:pos]
        self._waiting = False

    def _take(self, buffer: bytearray, pos: int, count: int, used: int) -> None:
        """Turn the ``count`` whole values at ``buffer[pos:pos + used]`` (an array header before them) into items."""
        self._runs.append((len(self._items), self.offset))
        run = self._run
        # msgspec could read a value deeper than the limit (the interpreter's recursion limit was raised): each is
        # measured before it is read, as decode does
        unbounded = used > MAX_DEPTH and sys.getrecursionlimit() > MAX_DEPTH
        if run is not None and used <= self.max_message and not unbounded:  # none of them can be too long
            with memoryview(buffer) as view, view[pos - _HEAD : pos + used] as values:
                decoded = self._decode_run(run, values)
            if decoded is not None:
                self._items.append(_Batch(decoded, used))
                return
        array = bytes(buffer[pos - _HEAD : pos + used])
        try:
            raws = _RAW_VALUES.decode(array)  # Raw values hold their bytes
        except RecursionError:  # a value nested deeper than the stack in use allows (decoding it decides)
            raws = list(_values_of(memoryview(array)[_HEAD:]))
        if used <= self.max_message and not unbounded:
            self._items += raws
            return
        start = self.offset
        for raw in raws:
            length = len(raw)
            if length > self.max_message:
                message = too_long(what="message", limit=self.max_message)
                self._items.append((self.error(message, offset=start), length))
            elif unbounded and too_deep(raw):
                self._items.append((self.error(PACKED_TOO_DEEP, offset=start), length))
            else:
                self._items.append(raw)
            start += length

    def _decode_run(self, run: PackedRun, values: memoryview) -> Any:
        """The messages of an array of whole values when all are common ones (decoded in one pass), else None; it
        answers only when decoding the values one by one would give the same messages."""
        if (run.common_tagged or run.common_base) and self._common_try():
            common = run.common_tagged or run.tagged, run.common_base or run.base
            decoded = self._decode_batch(*common, run.guards, values)
            if decoded is _GUARDED:
                return None
            if self._common_done(decoded is not None):
                return decoded
        decoded = self._decode_batch(run.tagged, run.base, run.guards, values)
        if decoded is _GUARDED:
            return None
        if decoded is not None and not all(map(free_ok, decoded)):
            if any(odd_value(message) is not None for message in decoded):
                return None  # one by one: a value holds what JSON has no form for (the general path refuses it)
        return decoded

    def _common_try(self) -> bool:
        """Whether to try the common twins on this run (not while skipping them after a refusal)."""
        if self._common_skips:
            self._common_skips -= 1
            return False
        return True

    def _common_done(self, taken: bool) -> bool:
        """After the twins took a run or value (``taken``) or refused it: a stream whose values they refuse (bytes,
        timestamps, nesting) would likely have the next refused too, each decoded in part for nothing, so they are
        skipped for a while, longer after each refusal (1, 2, 4... up to ``_MOST_SKIPS``); taken, from 1 again."""
        if taken:
            self._common_backoff = 1
        else:
            self._common_skips = self._common_backoff
            self._common_backoff = min(2 * self._common_backoff, _MOST_SKIPS)
        return taken

    def _decode_batch(
        self,
        tagged: Callable[[Any], list[Any]] | None,
        base: Callable[[Any], list[Any]] | None,
        guards: tuple[tuple[Callable[[Any], Any], frozenset[Any]], ...],
        values: memoryview,
    ) -> Any:
        """A run's messages for the values (its decoders and guards given), None when the decoders refuse them,
        or ``_GUARDED``."""
        for base_now in (self._base_first, not self._base_first):
            if not base_now:
                if tagged is not None:
                    try:
                        decoded = tagged(values)
                        self._base_first = False
                        return decoded
                    except _RUN_REFUSED:
                        pass
            elif base is not None:
                try:
                    decoded = base(values)
                except _RUN_REFUSED:
                    continue
                self._base_first = True
                if all(held.isdisjoint(map(field, decoded)) for field, held in guards):
                    return decoded
                return _GUARDED  # a value another shape recognises first: one by one
        return None

    def _follow(self, buffer: bytearray, size: int) -> bool:
        """Follow the incomplete value at the buffer's start over the bytes that came since; whether it is complete
        (or holds a byte that is not MessagePack, which msgspec will name)."""
        open_ = self._open
        if open_ is None:  # (never seen: the value's structure and msgspec disagree)
            return True
        state, at, _ = _follow_heads(buffer, self._scan_at, size, open_)
        if state < 0:
            return True  # not MessagePack: msgspec says so
        self._scan_at = at
        return state > 0

    def _check_limit(self) -> None:
        if len(self._buffer) - _HEAD > self.max_message and self._broken is None:
            message = too_long(what="message", limit=self.max_message) + " (the stream cannot be resynchronised)"
            self._break(self.error(message, offset=self.offset))

    def _break(self, error: DecodeError) -> None:
        self._broken = error
        del self._buffer[_HEAD:]
        self._runs.append((len(self._items), self.offset))
        self._items.append((error, 0))

    def _values(self, buffer: bytearray, pos: int, size: int, guess: int = 0) -> tuple[str, int, int]:
        """The complete values at ``buffer[pos:size]``: ("", their count, their size), with an array header for them
        written in the 5 bytes before ``pos``.

        For bytes that are not MessagePack: the reason, 0 and the offset of the bad byte (relative to ``pos``).
        The count is 0 when the first value is incomplete.
        """
        # A little low: a guess too high costs a pass and halves, one too low reads the rest next time round.
        guess = guess or max(1, (size - pos) // self._average * 7 // 8)
        with memoryview(buffer) as view, view[pos - _HEAD : size] as values:
            while True:
                buffer[pos - _HEAD : pos] = _ARRAY32 + guess.to_bytes(4, "big")
                try:
                    try:
                        _SKIP_VALUES.decode(values)  # (the Raw it returns is dropped at once, and its hold on values)
                    except RecursionError:  # nested deeper than the stack in use allows: again, with room
                        roomy(partial(_SKIP_VALUES.decode, values))
                    return "", guess, size - pos
                except msgspec.DecodeError as exc:
                    text = str(exc)
                    match = _TRAILING.search(text)
                    if match:  # ``guess`` values end where msgspec stopped: exactly them
                        return "", guess, int(match.group("offset")) - _HEAD
                    if guess > 1:  # fewer values are complete (or bad bytes follow some)
                        guess //= 2
                        continue
                    if text == _TRUNCATED:
                        return "", 0, 0
                    bad = _BYTE.search(text)
                    reason = _PACKED_MALFORMED.sub("", text[: bad.start()] if bad else text).strip()
                    return reason, 0, max(0, int(bad.group("offset")) - _HEAD) if bad else 0
                except RecursionError:  # deeper still (decoding it refuses it): where it ends is followed in Python
                    if guess > 1:
                        guess //= 2
                        continue
                    return self._deep_value(buffer, pos, size)

    def _deep_value(self, buffer: bytearray, pos: int, size: int) -> tuple[str, int, int]:
        """:meth:`_values` for the one value at ``pos``, too deep for msgspec to follow even with room."""
        end, _ = packed_end(buffer, pos, size)
        if end > size:
            return "", 0, 0
        if end >= 0:
            return "", 1, end - pos
        bad = -1 - end  # msgspec's words for the byte
        try:
            _SKIP_VALUES.decode(bytes(buffer[bad : bad + 1]))
        except msgspec.DecodeError as exc:
            return _PACKED_MALFORMED.sub("", _BYTE.sub("", str(exc))).strip(), 0, bad - pos
        raise AssertionError("a byte packed_end refuses is not MessagePack")  # pragma: no cover
