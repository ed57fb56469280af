"""``inspect``: what placing every message (offset, length, line) costs on top of the protocol's own Reader.

The captures are the current version's compatibility vectors of each protocol that has them, repeated to about
1 MiB.  For each: the bare ``Reader.feed`` of the whole capture (what any program decoding the stream pays),
against inspect's decoder (``decode_all`` with output discarded: messages placed at their offsets, which for
byte protocols re-encodes each message and checks the frame boundary with ``decode``, and for text protocols feeds
the reader one line at a time), and inspect with its JSON output (``as_json`` + ``json.dumps`` per message).
There is no peer: the ratios say how much slower than the bare codec the debugging tool is.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from run import Case
from streamcodecs import PROTOCOLS
from streamcodecs._runtime import inspect

from streamcodecs_gen.families.registry import family
from streamcodecs_gen.pipeline import load_protocols

REPO = Path(__file__).resolve().parent.parent
VECTORS = REPO / "output" / "py" / "vectors"
SIZE = 1 << 20


def family_of(name: str) -> str:
    return next(p.family for p in load_protocols(REPO / "protocol-definitions", REPO) if p.name == name)


def _capture(name: str) -> tuple[bytes, str | None, int] | None:
    module = inspect.load(name)
    manifest_path = VECTORS / name / module.VERSION / "manifest.json"
    if not manifest_path.is_file():
        return None
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    blob = (manifest_path.parent / manifest["file"]).read_bytes()
    direction = module.DIRECTIONS[0]
    suffix = family(family_of(name)).reader_suffix  # a Kafka-family vector is one event; its stream puts one per line
    frames = [
        blob[v["offset"] : v["offset"] + v["length"]] + suffix
        for v in manifest["vectors"]
        if direction in module.MESSAGES[v["message"]].DIRECTIONS
    ]
    one = b"".join(frames)
    repeat = max(1, SIZE // len(one))
    return one * repeat, direction, len(frames) * repeat


def cases() -> list[Case]:
    result = []
    for name in PROTOCOLS:
        found = _capture(name)
        if found is None:
            continue
        data, direction, count = found
        module = inspect.load(name)
        args = inspect.parser().parse_args(["-p", name, "-d", direction or module.DIRECTIONS[0], "-i", "raw"])
        group = f"inspect {name} capture {len(data) // 1024} KiB, {count} messages"

        def bare(module=module, data=data, direction=direction) -> object:
            return module.Reader(direction=direction).feed(data)

        def placed(args=args, data=data) -> object:
            return inspect.decode_all(io.BytesIO(data), args, lambda p, item: None)

        def printed(args=args, data=data, name=name) -> object:
            out = io.StringIO()

            def emit(protocol: str, item: inspect.Item) -> None:
                out.write(json.dumps(inspect.as_json(item, protocol, bytes.hex), ensure_ascii=False) + "\n")

            return inspect.decode_all(io.BytesIO(data), args, emit)

        run = inspect.decode_all(io.BytesIO(data), args, lambda p, item: None)
        assert run is not None and run.good == count and run.bad == 0, (name, run)
        result += [
            Case(group, "streamcodecs", placed, ops=count, unit="msgs"),
            Case(group, "bare Reader.feed", bare, ops=count, unit="msgs"),
            Case(group, "inspect with JSON output", printed, ops=count, unit="msgs"),
        ]
    return result
