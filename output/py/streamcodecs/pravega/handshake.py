# Copied from streamcodecs_gen/py_package/pravega/handshake.py by ./generator.py; edit that file, not this copy.
"""Hello negotiation: which wire versions two Pravega peers can speak.

Each side sends ``Hello(highVersion=WIRE_VERSION, lowVersion=OLDEST_COMPATIBLE_VERSION)``: the Java client right
after connecting, without waiting; the segment store in answer to every Hello it receives, before it looks at the
peer's versions.  Two peers are compatible unless the peer's lowest version is above our newest or its newest is
below our oldest; the server then closes the connection, and the client's RawClient fails.  The negotiated
version is ``min(WIRE_VERSION, peer.highVersion)``.  Nothing in the encoding depends on it: encoders always write
the newest layout and decoders read any older one, so it only tells which commands and fields the peer knows.
"""

from __future__ import annotations

from typing import Any

from .messages import OLDEST_COMPATIBLE_VERSION, WIRE_VERSION, Hello

__all__ = ["IncompatibleVersionError", "compatible", "hello", "negotiate"]


class IncompatibleVersionError(ValueError):
    """The peer's Hello names no version both sides speak."""

    def __init__(self, peer: Hello) -> None:
        self.peer = peer
        super().__init__(
            f"Incompatible wire protocol versions: the peer speaks {peer.low_version}..{peer.high_version}, "
            f"we speak {OLDEST_COMPATIBLE_VERSION}..{WIRE_VERSION}"
        )


def _check_hello(peer: Any, call: str) -> None:
    if not isinstance(peer, Hello):  # a programming error, in plain words (not an AttributeError)
        raise TypeError(f"{call} takes the peer's Hello, not {type(peer).__name__}")


def hello() -> Hello:
    """Our Hello: the newest version we write and the oldest we still read."""
    return Hello(high_version=WIRE_VERSION, low_version=OLDEST_COMPATIBLE_VERSION)


def compatible(peer: Hello) -> bool:
    """Whether the peer's version range overlaps ours (the check both the server and the Java client make)."""
    _check_hello(peer, "compatible")
    return not (peer.low_version > WIRE_VERSION or peer.high_version < OLDEST_COMPATIBLE_VERSION)


def negotiate(peer: Hello) -> int:
    """The wire version of the connection: ``min(WIRE_VERSION, peer.high_version)``; raises if incompatible."""
    _check_hello(peer, "negotiate")
    if not compatible(peer):
        raise IncompatibleVersionError(peer)
    return min(WIRE_VERSION, peer.high_version)
