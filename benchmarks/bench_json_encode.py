"""Every message of the JSON family, encoded: streamcodecs' ``encode`` against msgspec's bare encode of the same
Struct (issue 30: at most 1.3x it), one group per message, serializer and protocol.

The messages are the codec's own reference vectors (the newest version's ``full`` variant of each message: every
field set), decoded first. The floor is msgspec's ``Encoder().encode`` of the message (of its list, for an
array-shaped message) with the framing's terminator added (``\n``, or ``\nend\n`` for Storm) and no check at all;
for MessagePack, the encode alone. Before timing, each case checks that both write the very same bytes (a message
whose JSON needs the peer's upper-case hex escapes is measured all the same: ours does that extra work).

A third case bounds what any Python ``encode`` of this shape can reach: the same call as ours (``encode(m,
serializer=s)``), which looks the message's writer up by class and calls it, and a writer that does the bare encode
and nothing else (no check at all). Its ratio to the bare encode is the price of one Python function that
dispatches; for a message msgspec writes in under 0.2 µs it is above the issue's 1.3x on its own.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path

import msgspec
from run import Case

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parent / "output" / "py" / "vectors"
BARE = "msgspec bare encode"
DISPATCH = "dispatch + bare encode"
PROTOCOLS = ("kcl", "storm")


def _newest(protocol: str) -> Path:
    def key(path: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in path.name.split("."))

    return max((p for p in (VECTORS / protocol).iterdir() if p.is_dir()), key=key)


def _messages(folder: Path, module: object, serializer: str) -> list[object]:
    """One message of each kind: the ``full`` variant of its vector, decoded."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    data = (folder / manifest["file"]).read_bytes()
    found: dict[str, object] = {}
    for vector in manifest["vectors"]:
        if vector["variant"] != "full" or vector["message"] in found:
            continue
        frame = data[vector["offset"] : vector["offset"] + vector["length"]]
        found[vector["message"]] = module.decode(  # type: ignore[attr-defined]
            frame, direction=vector["direction"], serializer=serializer
        )
    return list(found.values())


def cases() -> list[Case]:
    result: list[Case] = []
    for protocol in PROTOCOLS:
        module = importlib.import_module(f"streamcodecs.{protocol}")
        codec = importlib.import_module(f"streamcodecs.{protocol}.messages")
        folder = _newest(protocol)
        serializers = [("json", folder, msgspec.json.Encoder().encode, codec._TERMINATOR)]
        if (folder / "msgpack").is_dir():
            serializers.append(("msgpack", folder / "msgpack", msgspec.msgpack.Encoder().encode, b""))
        for serializer, where, bare, end in serializers:
            for message in _messages(where, module, serializer):
                name = type(message).__name__

                def ours(m: object = message, s: str = serializer, encode: object = module.encode) -> bytes:
                    return encode(m, serializer=s)  # type: ignore[operator,no-any-return]

                array = codec._ARRAY_FIELD.get(type(message))  # an array-shaped message: its one list is the JSON
                value = message if array is None else getattr(message, array[1])

                def floor(m: object = value, e: object = bare, t: bytes = end) -> bytes:
                    return e(m) + t  # type: ignore[operator,no-any-return]

                written = ours()
                if written != floor():
                    assert protocol == "kcl" and written.lower() == floor().lower(), (protocol, name)  # hex escapes
                group = f"{protocol} {serializer} encode {name}"
                result += [
                    Case(group, "streamcodecs", ours, target=(BARE, 1 / 1.3)),
                    Case(group, BARE, floor),
                    Case(group, DISPATCH, _dispatching(message, floor, serializer), target=(BARE, 1 / 1.3)),
                ]
    return result


def _dispatching(message: object, write: Callable[[], bytes], serializer: str) -> Callable[[], bytes]:
    """A call shaped like ours on ``message``, with nothing in it but the dispatch (:func:`dispatcher`)."""
    encode = dispatcher(type(message), lambda message: write())
    return lambda: encode(message, serializer=serializer)


def dispatcher(cls: type, write: Callable[[object], bytes]) -> Callable[..., bytes]:
    """An ``encode(m, serializer=s)`` shaped like ours, with nothing in it but the dispatch: it looks the writer up
    by the message's class and the serializer's flag up by name, and the writer (``write``) only encodes."""
    writers = {cls: lambda message, packed: write(message)}
    packed = {serializer: serializer != "json" for serializer in ("json", "msgpack")}

    def encode(message: object, *, serializer: str = "json") -> bytes:
        return writers[type(message)](message, packed[serializer])

    return encode
