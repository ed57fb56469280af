"""Errors raised by every streamcodecs codec.

Each protocol module subclasses these (``streamcodecs.pravega.DecodeError``), so callers can catch one protocol's
errors or all of them.
"""

from __future__ import annotations

from typing import Any

from . import messages as _m

__all__ = ["DecodeError", "EncodeError", "check_bytes", "not_bytes"]


class DecodeError(ValueError):
    """Input that is not a valid message.

    ``offset`` is the byte offset (or, for line-based protocols, the line number) where the problem was found and
    ``field`` the message field being read (``SetupAppend.segment``), when known.  A :class:`Reader` that raises
    this keeps its place: ``decoded`` holds the messages it decoded before the bad input in the same call, and the
    next call goes on after the bad message where its end is known.
    """

    protocol = ""

    def __init__(
        self,
        message: str,
        *,
        offset: int | None = None,
        field: str | None = None,
        line: int | None = None,
    ) -> None:
        self.reason = message
        self.offset = offset
        self.field = field
        self.line = line
        self.decoded: list[Any] = []
        where = []
        if line is not None:
            where.append(f"line {line}")
        if offset is not None:
            where.append(f"offset {offset}")
        if field:
            where.append(f"field {field}")
        prefix = f"{self.protocol}: " if self.protocol else ""
        super().__init__(prefix + message + (f" ({', '.join(where)})" if where else ""))


class EncodeError(ValueError):
    """A value the wire cannot carry (out of range, too long, wrong type, missing)."""

    protocol = ""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        self.reason = message
        self.field = field
        prefix = f"{self.protocol}: " if self.protocol else ""
        super().__init__(prefix + (f"{field}: {message}" if field else message))


def not_bytes(call: str, value: Any, *, text: bool = False) -> TypeError:
    """The TypeError of ``call`` (``decode``, ``feed``) given ``value`` where it takes bytes (or, ``text``, also a
    str): a programming error, which no codec reads as input (``bytes(5)`` would be five zero bytes)."""
    kind = type(value).__name__
    return TypeError(_m.not_bytes_or_text(call=call, kind=kind) if text else _m.not_bytes(call=call, kind=kind))


def byte_buffer(value: Any, call: str, *, text: bool = False) -> Any:
    """``value`` as the codecs read bytes: bytes, a bytearray and a C-contiguous memoryview of unsigned bytes as
    they are; any other object with the buffer protocol (a view of ints or signed bytes, a non-contiguous slice,
    an array) as a copy of its bytes, as ``bytes(value)`` gives them (indexed or measured as it is, it read its
    items: a view of int32 gave struct.error and IndexError, not a DecodeError); :func:`not_bytes` for anything
    else (``text``: the call takes a str too). Only what is not bytes is passed here (the callers test that
    inline)."""
    if type(value) is bytearray:
        return value
    try:
        view = memoryview(value)
    except TypeError:
        raise not_bytes(call, value, text=text) from None
    with view:
        if type(value) is memoryview and view.format == "B" and view.c_contiguous:
            return value
        return view.tobytes()


def check_bytes(value: Any, call: str, *, text: bool = False) -> None:
    """Raises :func:`not_bytes` unless ``value`` is bytes or another object with the buffer protocol."""
    if type(value) is not bytes:
        try:
            memoryview(value).release()
        except TypeError:
            raise not_bytes(call, value, text=text) from None
