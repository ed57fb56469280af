"""The differential fuzzer's inputs: seeds and seeded mutations of them, per kind of entry point.

Seeds are every compatibility vector of every version (``output/py/vectors``; Kafka records from the manifests) and
valid messages hypothesis draws from the definitions (``tests/strategies.py``), encoded by the Python codec. The
mutations are those of ``fuzz.py`` (bytes flipped, cut, spliced, invalid UTF-8, deep nesting, ...) and, per family:

- JSON: keys repeated (with the same or another value, before or after), values of another type, escapes (lone
  and paired surrogates, NUL, quotes), odd and huge numbers, nesting around the depth limit, inserted tokens, keys
  re-cased, dropped or added; and, aimed (``JSON_CLASSES``, half of a JSON decode entry's inputs), each class of
  input once found to disagree: an odd value (a number beyond a double's range, a big integer, invalid UTF-8, a
  lone surrogate, nesting around the limit) under a key no message reads or where the message reads one, and a
  key repeated with an odd value first or last;
- binary: type codes of other messages, length fields off by a little or a lot, frames cut;
- Kafka records: headers dropped, repeated, re-cased, with bad values, odd content types, every time format, and
  the JSON mutations on structured values;
- rows (encode, to_kafka): a value replaced by null or an odd value of its Spark type, a message renamed.
"""

from __future__ import annotations

import base64
import functools
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
from entries import Protocol, arrow_of, binary, unbinary
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    DataType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructType,
    TimestampType,
    VariantType,
)

import fuzz

DEPTH_LIMIT = 1000
"""The JSON nesting depth both codecs accept at most (the nesting mutations aim around it)."""

ODD_NUMBERS = [
    "0", "-0", "-0.0", "1.0", "1E2", "1e400", "-1e400", "0.1e-400", "5e-324", "1.7976931348623157e308",
    "12345678901234567890123", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "2147483647", "2147483648", "-2147483649", "255", "256", "-129", "32768", "1.5",
    "0.1", "100000000000000000000.0", "1e16", "65789255236850478925523685049.0", "0.10000000000000000001",
]  # fmt: skip
ODD_STRINGS = [
    "\ud800", "\udc00", "\ud800\udc00", "\udbff\udfff", "x\ud800y", "\x00", '"', "\\", "\u2028", "é€😀", "",
    "BOGUS", "1", "true", "null", "00000000-0000-0000-0000-000000000000", "not-a-uuid",
    "2018-04-05T03:56:31Z", "2018-04-05t03:56:31.1234567+01:00", "0001-01-01T00:00:00+00:01", "AAAA", "QQ",
    "QQ==\n", "::", "http://[",
]  # fmt: skip
PREFIXES = [
    b"\xef\xbb\xbf", b"\x00", b"\x00\x00\x00", b" \x00", b"\xfe\xff", b"\xff\xfe", b"\x00\x00\xfe\xff", b"\x007",
]  # fmt: skip
"""What a text may start with that Jackson reads as a byte-order mark or a UTF-16 or UTF-32 text (a zero in the
first two bytes), where JSON in UTF-8 (RFC 8259: no BOM) and msgspec see bytes that are not JSON."""
TOKENS = [b",", b":", b"]", b"}", b"[", b"{", b'"', b"null", b" ", b"\n", b"1", b"tru", b"\\", b"\\u", b"/*"]
TIMES = [
    "2018-04-05T03:56:31Z", "2018-04-05T03:56:31z", "2018-04-05t03:56:31Z", "2018-04-05 03:56:31Z",
    "2018-04-05T03:56:31.1Z", "2018-04-05T03:56:31.123456789Z", "2018-04-05T03:56:31.1234567890Z",
    "2018-04-05T03:56:31+01:00", "2018-04-05T03:56:31-23:59", "2018-04-05T03:56:31+24:00", "2018-04-05T03:56:60Z",
    "2018-04-05T03:56:31", "2018-04-05", "2018-02-30T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
    "2018-04-05T03:56:31.Z", "2018-04-05T03:56:31,5Z", "+2018-04-05T03:56:31Z", "",
    # an offset that puts the instant before 0001 or after 9999 (UTC): no Spark TIMESTAMP holds it
    "0001-01-01T00:00:00+00:01", "0001-01-01T00:59:59.999999+01:00", "9999-12-31T23:59:59-00:01",
    "9999-12-31T23:30:00-23:59", "0001-01-01T00:00:00-00:01", "9999-12-31T23:59:59.999999+00:01",
    # an offset beyond Java's 18:00 (RFC 3339 allows 23:59): held and written at UTC, or the nearest offset in the years
    "2018-04-05T03:56:31+20:00", "2018-04-05T03:56:31-18:01", "2018-04-05T03:56:31+18:00", "2018-04-05T03:56:31+18:01",
    "0001-01-01T00:10:00+23:00", "0001-01-01T00:59:59.999999+19:00", "9999-12-31T23:00:00-19:30",
]  # fmt: skip
CONTENT_TYPES = [
    "application/json", "application/json; charset=utf-8", "Application/JSON", "text/plain",
    "text/plain; charset=us-ascii", "text/plain; charset=latin-1", "application/cloudevents+json",
    "application/cloudevents+json; charset=UTF-8", "APPLICATION/CLOUDEVENTS+JSON", "application/cloudevents",
    "application/cloudevents-batch+json", "application/vnd.x+json", "application/xml", "image/png", "",
    "application/json;", "text/", ";", "application/json; charset=\"utf-8\"",
]  # fmt: skip
INTEGERS = [0, -1, 1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1]
LONGS = [*INTEGERS, 2**63 - 1, -(2**63), 2**53 + 1]
FLOATS = [0.0, -0.0, 1.5, 1e308, -1e308, 5e-324, 1e16, 0.1, float("nan"), float("inf"), float("-inf"), 3.4e38, 1e39]
VARIANT_TEXTS = [
    "1", "null", "[]", "{}", '{"a":1,"b":[true,null]}', '"s"', "1.5", "1e300", "-0", '"\\u00e9"', "[[[]]]",
    # nested around the limit: the message's own levels put some of these over it, the others just under; the
    # last over it by itself (a parser with the limit refuses it before the message's writer sees it)
    *("[" * n + "]" * n for n in (DEPTH_LIMIT - 3, DEPTH_LIMIT - 1, DEPTH_LIMIT + 1)),
    *('{"a":' * (n - 1) + "{}" + "}" * (n - 1) for n in (DEPTH_LIMIT - 2, DEPTH_LIMIT)),
]  # fmt: skip


# ---------------------------------------------------------------- seeds


def vector_frames(root: Path, protocol: str) -> list[tuple[bytes, str | None]]:
    """Every vector of every version (the main framing), with its direction."""
    frames = []
    for manifest_path in sorted((root / "vectors" / protocol).glob("*/manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        blob = (manifest_path.parent / manifest["file"]).read_bytes()
        for v in manifest["vectors"]:
            frames.append((blob[v["offset"] : v["offset"] + v["length"]], v.get("direction")))
    return frames


def vector_records(root: Path, protocol: str) -> list[tuple[bytes | None, list[tuple[str, bytes | None]]]]:
    """The Kafka records of every version's manifest: (value, headers)."""
    records = []
    for manifest_path in sorted((root / "vectors" / protocol).glob("*/manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        for r in manifest.get("records", []):
            value = None if r["value"] is None else bytes.fromhex(r["value"])
            headers = [(k, None if v is None else bytes.fromhex(v)) for k, v in r["headers"]]
            records.append((value, headers))
    return records


@functools.cache
def _models(root: Path) -> dict[str, Any]:
    """The definitions' models by protocol name (what the strategies are built from)."""
    sys.path.insert(0, str(root))
    from streamcodecs_gen.pipeline import load_protocols  # noqa: PLC0415 - the repository is put on the path

    return {p.name: p for p in load_protocols(root / "protocol-definitions", root)}


def hypothesis_messages(root: Path, protocol: Protocol, per_message: int, seed: int) -> list[Any]:
    """Valid messages (the codec's objects) drawn by hypothesis from the protocol's definition, ``per_message`` of
    each message (fewer where hypothesis finds fewer distinct ones)."""
    sys.path.insert(0, str(root / "tests"))
    from strategies import message_strategy  # noqa: PLC0415 - tests/ is put on the path just above

    model = _models(root)[protocol.name]
    found: list[Any] = []
    for message in model.messages:
        try:
            strategy = message_strategy(model, message)
        except (KeyError, TypeError):  # a type the strategies do not know: its vectors still cover it
            continue
        _draw(strategy, protocol.codec.MESSAGES[message.name], per_message, seed, found)
    return found


def _draw(strategy: Any, cls: Any, count: int, seed: int, found: list[Any]) -> None:
    """Appends up to ``count`` messages of class ``cls`` drawn from ``strategy`` (values as ``to_dict`` gives)."""
    from hypothesis import HealthCheck, Phase, given, settings  # noqa: PLC0415 - only the fuzzer needs it
    from hypothesis import seed as with_seed  # noqa: PLC0415

    @with_seed(seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(values: dict[str, Any]) -> None:
        try:
            found.append(cls.from_dict(values))
        except (TypeError, ValueError):
            pass

    collect()


# ---------------------------------------------------------------- JSON mutations


def _split_frame(data: bytes) -> tuple[bytes, bytes]:
    """A JSON frame as its text and its framing (a line end, or a line end and an end line)."""
    for suffix in (b"\nend\n", b"\n"):
        if data.endswith(suffix):
            return data[: -len(suffix)], suffix
    return data, b""


def _pairs(items: list[tuple[str, Any]]) -> list[list[Any]]:
    return [[k, v] for k, v in items]


class _Object(list):  # type: ignore[type-arg]
    """A parsed JSON object kept as its list of [key, value] pairs (repeated keys and order kept)."""


def _parse(text: bytes) -> Any:
    return json.loads(text, object_pairs_hook=lambda items: _Object(_pairs(items)))


def _dump(value: Any, rng: random.Random, ascii_only: bool) -> str:
    space = rng.random() < 0.1
    comma, colon = (", ", ": ") if space else (",", ":")
    if isinstance(value, _Object):
        return "{" + comma.join(_dump(k, rng, ascii_only) + colon + _dump(v, rng, ascii_only) for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + comma.join(_dump(v, rng, ascii_only) for v in value) + "]"
    if isinstance(value, _Raw):
        return value.text
    return json.dumps(value, ensure_ascii=ascii_only)


class _Raw:
    """JSON text written as it is (an odd number, a deep nest)."""

    def __init__(self, text: str) -> None:
        self.text = text


def _nodes(value: Any, depth: int = 1) -> Iterator[tuple[Any, int]]:
    """Every object and array in ``value``, with its depth (the top level's is 1)."""
    if isinstance(value, list):
        yield value, depth
        for item in value:
            yield from _nodes(item[1] if isinstance(value, _Object) else item, depth + 1)


def _swap(rng: random.Random, value: Any) -> Any:
    """A value of another JSON type (or an odd one of the same)."""
    choices: list[Any] = [None, True, False, [], _Object(), 0, -1, 1.5, "x", [value], _Raw(rng.choice(ODD_NUMBERS))]
    if isinstance(value, str) and value.lstrip("-").isdigit():
        choices.append(_Raw(value))
    if isinstance(value, int | float) and not isinstance(value, bool):
        choices.append(str(value))
    if isinstance(value, str):
        choices += [value.upper(), value + rng.choice(ODD_STRINGS), rng.choice(ODD_STRINGS)]
    return rng.choice(choices)


def json_mutation(rng: random.Random, data: bytes) -> bytes:
    """One structural mutation of a JSON frame (its framing kept), or a byte-level one when it is not JSON."""
    text, suffix = _split_frame(data)
    try:
        tree = _parse(text)
    except (ValueError, RecursionError):
        return fuzz.mutations(rng, data, "json")()
    nodes = list(_nodes(tree))
    objects = [(n, d) for n, d in nodes if isinstance(n, _Object) and n]
    choice = rng.randrange(10)
    ascii_only = rng.random() < 0.3
    if choice == 0 and objects:  # a key repeated, with the same or another value, before or after
        node, _ = objects[0] if rng.random() < 0.5 else rng.choice(objects)
        at = rng.randrange(len(node))
        key, value = node[at]
        other = value if rng.random() < 0.3 else _swap(rng, value)
        node.insert(rng.randrange(len(node) + 1), [key, other])
    elif choice == 1 and objects:  # a value of another type
        node, _ = rng.choice(objects)
        pair = rng.choice(node)
        pair[1] = _swap(rng, pair[1])
    elif choice == 2 and nodes:  # an escape or an odd string
        node, _ = rng.choice(nodes)
        odd = rng.choice(ODD_STRINGS)
        if isinstance(node, _Object) and node and rng.random() < 0.3:
            pair = rng.choice(node)
            pair[0] = pair[0] + odd
        elif isinstance(node, _Object) and node:
            pair = rng.choice(node)
            pair[1] = (pair[1] if isinstance(pair[1], str) else "") + odd
        elif node:
            node[rng.randrange(len(node))] = odd
        ascii_only = ascii_only or any(0xD800 <= ord(c) <= 0xDFFF for c in odd)
    elif choice == 3 and nodes:  # nesting around the depth limit
        node, depth = rng.choice(nodes)
        total = DEPTH_LIMIT + rng.choice([-2, -1, 0, 1, 2, 500])
        wrap = max(1, total - depth)
        inner = rng.choice(["[" * wrap + "]" * wrap, '{"a":' * (wrap - 1) + "[]" + "}" * (wrap - 1)])
        nest = _Raw(inner)
        if isinstance(node, _Object) and node:
            rng.choice(node)[1] = nest
        elif isinstance(node, _Object):
            node.append(["deep", nest])
        else:
            node.append(nest)
    elif choice == 4 and rng.random() < 0.2:  # bytes a decoder may take for a byte-order mark or UTF-16/32
        return rng.choice(PREFIXES) + text + suffix
    elif choice == 4:  # an inserted token
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(TOKENS) + text[at:] + suffix
    elif choice == 5 and objects:  # a key re-cased, dropped or added
        node, _ = rng.choice(objects)
        at = rng.randrange(len(node))
        what = rng.randrange(3)
        if what == 0:
            node[at][0] = node[at][0].swapcase()
        elif what == 1:
            del node[at]
        else:
            node.insert(at, [rng.choice(["x", "extra", "Action", ""]), _swap(rng, None)])
    elif choice == 6 and objects:  # an odd number
        node, _ = rng.choice(objects)
        rng.choice(node)[1] = _Raw(rng.choice(ODD_NUMBERS))
    elif choice == 7:  # upper-case hex in every escape
        written = _dump(tree, rng, True).encode("utf-8")
        return written.replace(b"\\ud", b"\\uD") + suffix
    elif choice == 8:
        return fuzz.mutations(rng, data, "json")()
    try:
        written = _dump(tree, rng, ascii_only).encode("utf-8")
    except UnicodeEncodeError:
        written = _dump(tree, rng, True).encode("utf-8")
    return written + suffix


# ---------------------------------------------------------------- JSON classes


HUGE_NUMBERS = ["1e400", "-1e400", "1E+400", "-2e308", "1" + "0" * 400 + ".0", "0.1e310"]
"""Numbers beyond a double's range (``Number out of range`` where a message reads one)."""
BIG_INTEGERS = ["18446744073709551616", "-9223372036854775809", "99999999999999999999", "1" + "0" * 400]
UNREAD_KEYS = ["x", "extra", "zz", "\u00e9t\u00e9"]
"""Keys no message of the JSON protocols declares (a message skips them: their values are checked for syntax only;
in a CloudEvents document every member is read, as an extension attribute)."""
_BAD_UTF8 = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf"]
_HOLE = "\x00hole\x00"  # where the bytes of an invalid UTF-8 value go, after writing


def _objects(tree: Any) -> list[tuple[_Object, int]]:
    return [(n, d) for n, d in _nodes(tree) if isinstance(n, _Object)]


def _huge(rng: random.Random, depth: int) -> tuple[Any, bool]:
    huge = _Raw(rng.choice(HUGE_NUMBERS))
    return rng.choice([huge, [1, huge], _Object([["a", huge]]), _Object([["k", huge], ["k", 1]])]), False


def _number(rng: random.Random, depth: int) -> tuple[Any, bool]:
    return _Raw(rng.choice(BIG_INTEGERS + ODD_NUMBERS)), False


def _text(rng: random.Random, depth: int) -> tuple[Any, bool]:
    if rng.random() < 0.5:
        return _HOLE, False
    return rng.choice(["\ud800", "x\udc00", "\udbff", "a\ud800\ud800b"]), True


def _deep(rng: random.Random, depth: int) -> tuple[Any, bool]:
    wrap = max(1, DEPTH_LIMIT + rng.choice([-1, 0, 1]) - depth)
    return _Raw(rng.choice(["[" * wrap + "]" * wrap, '{"a":' * (wrap - 1) + "[]" + "}" * (wrap - 1)])), False


ODD_VALUES: dict[str, Callable[[random.Random, int], tuple[Any, bool]]] = {
    "huge": _huge,  # a number beyond a double's range (1e400), bare or inside
    "number": _number,  # a big integer or another odd number
    "text": _text,  # invalid UTF-8 or a lone surrogate escape
    "deep": _deep,  # nesting around the limit
}
"""Values of the kinds that each found a disagreement once, by kind: ``kind(rng, depth)`` is a value for an object
at ``depth``, and whether it must be written with ASCII escapes (a lone surrogate can only be written so)."""


def _unread(kind: str) -> Callable[[random.Random, Any], bool | None]:
    def mutate(rng: random.Random, tree: Any) -> bool | None:
        """An odd value under a key no message reads, in a random object of the text."""
        objects = _objects(tree)
        if not objects:
            return None
        node, depth = rng.choice(objects)
        value, escaped = ODD_VALUES[kind](rng, depth)
        node.insert(rng.randrange(len(node) + 1), [rng.choice(UNREAD_KEYS), value])
        return escaped

    return mutate


def _read(kind: str) -> Callable[[random.Random, Any], bool | None]:
    def mutate(rng: random.Random, tree: Any) -> bool | None:
        """An odd value where the message reads one: a value replaced, or put in a list."""
        objects = [(n, d) for n, d in _objects(tree) if n]
        if not objects:
            return None
        node, depth = rng.choice(objects)
        pair = rng.choice(node)
        value, escaped = ODD_VALUES[kind](rng, depth)
        if isinstance(pair[1], list) and not isinstance(pair[1], _Object):
            pair[1].insert(rng.randrange(len(pair[1]) + 1), value)
        else:
            pair[1] = value
        return escaped

    return mutate


def _repeated(rng: random.Random, tree: Any) -> bool | None:
    """A key repeated (the tag key among them): an odd value first and the good one last, or the other way."""
    objects = [(n, d) for n, d in _objects(tree) if n]
    if not objects:
        return None
    node, depth = objects[0] if rng.random() < 0.5 else rng.choice(objects)
    at = rng.randrange(len(node))
    key, value = node[at]
    if rng.random() < 0.5:
        odd, escaped = ODD_VALUES[rng.choice(list(ODD_VALUES))](rng, depth)
    else:
        odd, escaped = _swap(rng, value), False
    node.insert(at + rng.randrange(2), [key, odd])  # before (a reader keeping the last value never reads it) or after
    return escaped


JSON_CLASSES: dict[str, Callable[[random.Random, Any], bool | None]] = {
    **{f"unread {kind}": _unread(kind) for kind in ODD_VALUES},
    **{f"read {kind}": _read(kind) for kind in ("huge", "text")},
    "repeated": _repeated,
}
"""Targeted mutations of a JSON text, one per class of input the long run found a disagreement in (each is also
among the random mutations, but too rarely for a short sample to meet it). Each changes a parsed text in place and
returns whether it must be written with ASCII escapes, or None when the text has no place for it."""


def json_class_mutation(rng: random.Random, data: bytes, name: str) -> bytes | None:
    """``data`` mutated as class ``name`` of :data:`JSON_CLASSES`; None when it is not a JSON text with an object."""
    text, suffix = _split_frame(data)
    try:
        tree = _parse(text)
    except (ValueError, RecursionError):
        return None
    escaped = JSON_CLASSES[name](rng, tree)
    if escaped is None:
        return None
    try:
        written = _dump(tree, rng, escaped or rng.random() < 0.3).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate the seed held
        written = _dump(tree, rng, True).encode("utf-8")
    return written.replace(json.dumps(_HOLE).encode(), b'"' + rng.choice(_BAD_UTF8) + b'"') + suffix


def json_class_cases(rng: random.Random, seeds: list[tuple[bytes, str | None]], count: int) -> list[list[Any]]:
    """``count`` decode cases (``[frame, direction]``), each class of :data:`JSON_CLASSES` in turn on a random seed
    (the seeds that are not JSON objects are passed over)."""
    directions = sorted({d for _, d in seeds if d is not None})
    names = list(JSON_CLASSES)
    cases: list[list[Any]] = []
    tries = 0
    while len(cases) < count and tries < 20 * count:
        tries += 1
        data, direction = rng.choice(seeds)
        mutated = json_class_mutation(rng, data, names[len(cases) % len(names)])
        if mutated is None:
            continue
        if rng.random() < 0.5:
            direction = rng.choice([None, *directions])
        cases.append([binary(mutated), direction])
    return cases


# ---------------------------------------------------------------- binary mutations


def binary_mutation(rng: random.Random, data: bytes, codes: list[int]) -> bytes:
    """One mutation of a binary frame (4-byte type code, 4-byte length, payload)."""
    frame = bytearray(data)
    choice = rng.randrange(4)
    if choice == 0 and len(frame) >= 4 and codes:
        frame[0:4] = rng.choice(codes).to_bytes(4, "big", signed=True)
    elif choice == 1 and len(frame) >= 8:
        length = int.from_bytes(frame[4:8], "big", signed=True)
        changed = length + rng.choice([-8, -4, -1, 1, 4, 2**20, -(2**31) - length])
        frame[4:8] = (changed & 0xFFFFFFFF).to_bytes(4, "big")
    elif choice == 2:
        return bytes(frame[: rng.randrange(len(frame) + 1)])
    else:
        return fuzz.mutations(rng, data, "binary")()
    return bytes(frame)


# ---------------------------------------------------------------- Kafka record mutations


def record_mutation(
    rng: random.Random, value: bytes | None, headers: list[tuple[str, bytes | None]]
) -> tuple[bytes | None, list[tuple[str, bytes | None]] | None]:
    """One mutation of a Kafka record: its headers or its value."""
    headers = list(headers)
    choice = rng.randrange(9)
    if choice == 0 and headers:  # a header dropped
        del headers[rng.randrange(len(headers))]
    elif choice == 1 and headers:  # a header repeated, with the same or another value
        name, old = rng.choice(headers)
        new = old if rng.random() < 0.3 else rng.choice([b"", b"x", b"\xff", rng.choice(TIMES).encode(), None])
        headers.insert(rng.randrange(len(headers) + 1), (name, new))
    elif choice == 2 and headers:  # a header re-cased
        at = rng.randrange(len(headers))
        name, old = headers[at]
        headers[at] = (rng.choice([name.upper(), name.title(), name.swapcase()]), old)
    elif choice == 3 and headers:  # a bad value
        at = rng.randrange(len(headers))
        odd = rng.choice([None, b"", b"\xff\xfe", b"\xed\xa0\x80", "é".encode("latin-1"), b" x ", b"1.0", b"\x00"])
        headers[at] = (headers[at][0], odd)
    elif choice == 4:  # a content type
        headers = [(k, v) for k, v in headers if k.lower() != "content-type"]
        headers.append(("content-type", rng.choice(CONTENT_TYPES).encode("utf-8")))
    elif choice == 5:  # a time
        headers = [(k, v) for k, v in headers if k != "ce_time"]
        headers.append(("ce_time", rng.choice(TIMES).encode("utf-8")))
    elif choice == 6 and value is not None:  # the value
        value = json_mutation(rng, value) if value[:1] in (b"{", b"[") else fuzz.mutations(rng, value, "kafka")()
    elif choice == 7:  # no value, or no headers at all
        if rng.random() < 0.5:
            value = None
        else:
            return value, None
    else:
        name = rng.choice(["ce_id", "ce_source", "ce_type", "ce_specversion", "ce_x", "ce_", "ce_ext0x0", "x"])
        headers.append((name, rng.choice([b"1.0", b"x", b"", b"0.3", b"https://example.com", b"\xff"])))
    return value, headers


# ---------------------------------------------------------------- row mutations


def _odd(rng: random.Random, value: Any, data_type: DataType) -> Any:
    """A null or an odd value of ``data_type`` in the plain form."""
    if rng.random() < 0.35:
        return None
    if isinstance(data_type, StringType):
        return rng.choice([s for s in ODD_STRINGS if not any(0xD800 <= ord(c) <= 0xDFFF for c in s)] + ["x" * 300])
    if isinstance(data_type, LongType):
        return rng.choice(LONGS)
    if isinstance(data_type, IntegerType):
        return rng.choice(INTEGERS)
    if isinstance(data_type, BooleanType):
        return not value
    if isinstance(data_type, BinaryType):
        return binary(
            rng.choice([b"", b"\xff", b"null", b'{"a":1}', b"\xed\xa0\x80", rng.randbytes(rng.randrange(40))])
        )
    if isinstance(data_type, DoubleType | FloatType):
        import struct  # noqa: PLC0415

        return {"f": struct.pack(">d", rng.choice(FLOATS)).hex()}
    if isinstance(data_type, TimestampType):
        # the first and the last microsecond of the years 0001 to 9999 (UTC), and one past each: Spark holds those too
        edges = [253402300799999999, -62135596800000000, 253402300800000000, -62135596800000001, -(2**63), 2**63 - 1]
        return {"t": rng.choice([0, -1, 1522900591007000, 1, *edges])}
    if isinstance(data_type, VariantType):
        return {"v": rng.choice(VARIANT_TEXTS)}
    if isinstance(data_type, ArrayType):
        items = list(value or [])
        if items and rng.random() < 0.5:
            items.append(items[rng.randrange(len(items))])
        elif items:
            del items[rng.randrange(len(items))]
        return items
    if isinstance(data_type, MapType):
        pairs = list((value or {"m": []})["m"])
        if pairs and rng.random() < 0.5:
            del pairs[rng.randrange(len(pairs))]
        else:
            pairs.append([rng.choice(["x", "ext", "id", "Z", "a_b", "0"]), _odd(rng, None, data_type.valueType)])
        return {"m": pairs}
    return None


def _leaves(value: Any, data_type: DataType, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], DataType]]:
    yield path, data_type
    if value is None:
        return
    if isinstance(data_type, StructType):
        for i, f in enumerate(data_type.fields):
            yield from _leaves(value[i], f.dataType, (*path, i))
    elif isinstance(data_type, ArrayType):
        for i, item in enumerate(value):
            yield from _leaves(item, data_type.elementType, (*path, i))


def _holder(row: Any, path: tuple[Any, ...]) -> Any:
    """The list that holds the value at ``path`` (a non-empty path of indexes) in a plain row."""
    for step in path[:-1]:
        row = row[step]
    return row


def row_mutation(rng: random.Random, row: Any, data_type: DataType, message_names: list[str] | None) -> Any:
    """A row (plain form) with one value replaced: null or an odd value of its type, or its message renamed."""
    row = json.loads(json.dumps(row))  # a copy
    if message_names and isinstance(data_type, StructType) and rng.random() < 0.1:
        row[0] = rng.choice([*message_names, "Bogus", None])
        return row
    paths = list(_leaves(row, data_type))
    if message_names and rng.random() < 0.8:
        # Mostly a value of the message the row holds (its other columns are null and not read): each field kind of
        # each message gets a null, an odd value, an out-of-range integer (a closed enum's), a deep VARIANT
        inside = [(p, t) for p, t in paths if len(p) >= 2 and row[p[0]] is not None]
        paths = [paths[0], *inside] if inside else paths
    path, leaf_type = rng.choice(paths[1:] or paths)
    if not path:
        return _odd(rng, row, leaf_type)
    holder = _holder(row, path)
    holder[path[-1]] = _odd(rng, holder[path[-1]], leaf_type)
    return row


def row_sweep(rng: random.Random, rows: list[Any], data_type: DataType) -> list[Any]:
    """Every value of one row per message (plain form) replaced in turn by a null and by an odd value of its type:
    each field kind of each message meets a null (a bool's, an enum's, a UUID's) in every run, which random
    mutation of a short sample does not promise."""
    swept = []
    first: dict[Any, Any] = {}
    for row in rows:
        first.setdefault(row[0], row)
    for row in first.values():
        for path, leaf_type in _leaves(row, data_type):
            if len(path) < 2 or row[path[0]] is None:
                continue  # (the message's own column only: the others are null and not read)
            leaf = _holder(row, path)[path[-1]]
            odd = next((v for v in (_odd(rng, leaf, leaf_type) for _ in range(20)) if v is not None), None)
            for value in [None] if odd is None else [None, odd]:  # (a struct has no odd value of its own)
                copy = json.loads(json.dumps(row))
                _holder(copy, path)[path[-1]] = value
                swept.append(copy)
    return swept


def representable(row: Any, data_type: DataType) -> bool:
    """Whether a plain row can be a Spark value (the Python path gets it through Arrow)."""
    try:
        arrow_of([row], data_type)
    except (ValueError, OverflowError, KeyError, pa.ArrowException):
        return False
    return True


# ---------------------------------------------------------------- cases per entry kind


def frame_cases(
    rng: random.Random,
    seeds: list[tuple[bytes, str | None]],
    count: int,
    mutate: Callable[[random.Random, bytes], bytes],
) -> list[list[Any]]:
    """Cases of a decode entry: ``[frame, direction]``, each a seed as it is (one in eight) or mutated."""
    directions = sorted({d for _, d in seeds if d is not None})
    cases = []
    for _ in range(count):
        data, direction = rng.choice(seeds)
        if rng.random() >= 0.125:
            for _ in range(1 + (rng.random() < 0.3)):
                data = mutate(rng, data)
        if rng.random() < 0.5:
            direction = rng.choice([None, *directions])
        cases.append([binary(data), direction])
    return cases


def record_cases(
    rng: random.Random, seeds: list[tuple[bytes | None, list[tuple[str, bytes | None]]]], count: int
) -> list[list[Any]]:
    """Cases of ``from_kafka``: ``[value, header names, header values]``."""
    cases = []
    for _ in range(count):
        value, headers = rng.choice(seeds)
        mutated: list[tuple[str, bytes | None]] | None = headers
        if rng.random() >= 0.125:
            for _ in range(1 + (rng.random() < 0.4)):
                value, mutated = record_mutation(rng, value, mutated or [])
        names = None if mutated is None else [k for k, _ in mutated]
        values = None if mutated is None else [binary(v) for _, v in mutated]
        cases.append([binary(value), names, values])
    return cases


def inline_cases(rng: random.Random, frames: list[bytes], count: int) -> list[list[Any]]:
    """Cases of ``split_inline``: values holding inline frames back to back, mutated."""
    cases = []
    for _ in range(count):
        value = b"".join(rng.choice(frames) for _ in range(rng.randrange(5)))
        if value and rng.random() >= 0.2:
            value = fuzz.mutations(rng, value, "binary")()
        cases.append([binary(value)])
    return cases


def data_cases(rng: random.Random, count: int) -> list[list[Any]]:
    """Cases of ``data_text``: a content type (or none) and data."""
    data = [b"", b"plain text", "é€😀".encode(), b"\xff\xfe", b'{"a":[1,2.5,null]}', b"[1", b"\x00\x01", None]
    return [[rng.choice([None, *CONTENT_TYPES]), binary(rng.choice(data))] for _ in range(count)]


def headers_cases(record_inputs: list[list[Any]]) -> list[list[Any]]:
    """Cases of ``content_mode``: the headers of records."""
    return [[names, values] for _, names, values in record_inputs]


def documents(records: list[list[Any]]) -> list[bytes]:
    """The JSON event format documents among records' values."""
    found = []
    for value, _, _ in records:
        data = unbinary(value)
        if data is not None and data[:1] == b"{":
            found.append(data)
    return found


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# ---------------------------------------------------------------- MessagePack framing variants


def vector_packed(root: Path, protocol: str, variant: str) -> list[tuple[bytes, str | None]]:
    """Every vector of every version in a MessagePack framing variant (``vectors/<p>/<v>/<variant>/``)."""
    frames = []
    for manifest_path in sorted((root / "vectors" / protocol).glob(f"*/{variant}/manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        blob = (manifest_path.parent / manifest["file"]).read_bytes()
        for v in manifest["vectors"]:
            frames.append((blob[v["offset"] : v["offset"] + v["length"]], v.get("direction")))
    return frames


_TIMESTAMPS = [b"\xd6\xff\x00\x00\x00\x01", b"\xd7\xff" + b"\x00" * 7 + b"\x01", b"\xd4\xff\x00",
               b"\xd7\xff" + b"\xff" * 8, b"\xc7\x0c\xff" + b"\x00" * 4 + (2**40).to_bytes(8, "big"),
               b"\xc7\x0c\xff" + b"\x00" * 4 + (253402300800).to_bytes(8, "big"),
               # nanoseconds that round (msgspec keeps microseconds, a half up), into the next second too
               b"\xd7\xff" + (123456789 << 34 | 1).to_bytes(8, "big"),
               b"\xd7\xff" + (999999500 << 34 | 1).to_bytes(8, "big"),
               b"\xc7\x0c\xff" + (999999500).to_bytes(4, "big") + (253402300799).to_bytes(8, "big")]  # fmt: skip
_PACKED_ODD: list[bytes] = [
    b"\xc1", b"\xc0", b"\xc2", b"\xc3", b"\xca\x7f\xc0\x00\x00", b"\xca\x3f\xc0\x00\x01", b"\xcb\x7f\xf8" + b"\x00" * 6,
    b"\xcb\xff\xf0" + b"\x00" * 6, b"\xcf" + b"\xff" * 8, b"\xd3\x80" + b"\x00" * 7, b"\xce\x80\x00\x00\x00",
    b"\xd2\x80\x00\x00\x00", b"\xcc\xff", b"\xd0\x80", b"\xe0", b"\x7f", b"\xc4\x01x", b"\xc4\x00", b"\xa2\xc3\x28",
    b"\xd9\x01\xff", b"\xa1\x00", b"\xd4\x05\x00", b"\xc7\x00\x07", b"\x81\x01\x02", b"\x81\xc4\x01k\x01",
    b"\x81\x91\x01\x01", b"\x81\x80\x01", b"\x81\xc0\xc0", b"\x80", b"\x90", b"\xdc\x00\x00", b"\xde\x00\x00",
    b"\xdd\x00\x00\x00\x01\x01", b"\x82\xa1a\x01\xa1a\x02", b"\x91" * 1001 + b"\x90", b"\x91" * 997 + b"\x90",
    b"\x81\xa1a" * 600 + b"\xc0", *_TIMESTAMPS,
]  # fmt: skip


def _packed_values(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of every whole value in a MessagePack value (its own included), in the order of its bytes."""
    spans: list[tuple[int, int]] = []

    def walk(at: int) -> int:
        start = at
        count, is_map, at = _items(data, at)
        if count < 0:
            end = _scalar_end(data, start)
            spans.append((start, end))
            return end
        for _ in range(count * (2 if is_map else 1)):
            at = walk(at)
        spans.append((start, at))
        return at

    try:
        walk(0)
    except (IndexError, ValueError, RecursionError):  # cut short, not MessagePack, or very deep: the spans so far
        pass
    return spans


def _items(data: bytes, at: int) -> tuple[int, bool, int]:
    head = data[at]
    if 0x80 <= head <= 0x9F:
        return head & 0x0F, head < 0x90, at + 1
    if head in (0xDC, 0xDE):
        return int.from_bytes(data[at + 1 : at + 3], "big"), head == 0xDE, at + 3
    if head in (0xDD, 0xDF):
        return int.from_bytes(data[at + 1 : at + 5], "big"), head == 0xDF, at + 5
    return -1, False, at


def _scalar_end(data: bytes, at: int) -> int:
    head = data[at]
    if head <= 0x7F or head >= 0xE0 or head in (0xC0, 0xC2, 0xC3):
        return at + 1
    if 0xA0 <= head <= 0xBF:
        return at + 1 + (head & 0x1F)
    sizes = {0xCA: 5, 0xCB: 9, 0xCC: 2, 0xCD: 3, 0xCE: 5, 0xCF: 9, 0xD0: 2, 0xD1: 3, 0xD2: 5, 0xD3: 9,
             0xD4: 3, 0xD5: 4, 0xD6: 6, 0xD7: 10, 0xD8: 18}  # fmt: skip
    if head in sizes:
        return at + sizes[head]
    widths = {0xC4: (1, 0), 0xC5: (2, 0), 0xC6: (4, 0), 0xD9: (1, 0), 0xDA: (2, 0), 0xDB: (4, 0),
              0xC7: (1, 1), 0xC8: (2, 1), 0xC9: (4, 1)}  # fmt: skip
    if head in widths:
        width, extra = widths[head]
        return at + 1 + width + extra + int.from_bytes(data[at + 1 : at + 1 + width], "big")
    raise ValueError(head)


_PACKED_TEXTS = ["", "x", "command", "tuple", "id", "stream", "__tick", "__system", "__heartbeat", "é€😀", "emit",
                 "sync", "ack", "pid", "conf", "context", "task", "comp", "anchors", "x" * 40]  # fmt: skip


def _packed_text(rng: random.Random) -> bytes:
    text = rng.choice(_PACKED_TEXTS)
    raw = text.encode()
    return (bytes([0xA0 | len(raw)]) if len(raw) < 32 else b"\xd9" + bytes([len(raw)])) + raw


def packed_mutation(rng: random.Random, data: bytes) -> bytes:
    """A MessagePack value changed: one of its values (or a map key) replaced by an odd one (another type, a map
    key that is not a string, an extension, NaN, integers at their types' edges, invalid UTF-8, deep nesting), a
    key or value dropped or repeated, or its bytes cut, flipped or extended."""
    spans = _packed_values(data)
    roll = rng.random()
    if spans and roll < 0.6:
        start, end = rng.choice(spans)
        if rng.random() < 0.7:
            new = rng.choice(_PACKED_ODD) if rng.random() < 0.7 else _packed_text(rng)
        else:
            other_start, other_end = rng.choice(spans)
            new = data[other_start:other_end]  # another of its values
        return data[:start] + new + data[end:]
    if roll < 0.7 and data:  # a map or an array with one more item, or one fewer
        opens = [i for i, b in enumerate(data) if 0x81 <= b <= 0x8E or 0x91 <= b <= 0x9E]
        if opens:
            at = rng.choice(opens)
            step = rng.choice([-1, 1])
            more = rng.choice(_PACKED_ODD) if step > 0 else b""
            return data[:at] + bytes([data[at] + step]) + data[at + 1 :] + more
    if roll < 0.8:  # an entry added to the message's map
        if data and 0x80 <= data[0] <= 0x8E:
            key = rng.choice([_packed_text(rng), b"\x05", b"\xc4\x01k", b"\xc0", b"\xcb\x7f\xf8" + b"\x00" * 6])
            return bytes([data[0] + 1]) + key + rng.choice(_PACKED_ODD) + data[1:]
    if not data:
        return rng.choice(_PACKED_ODD)
    at = rng.randrange(len(data))
    kind = rng.randrange(5)
    if kind == 0:
        return data[:at]
    if kind == 1:
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if kind == 2:
        return data[:at] + bytes([rng.randrange(256)]) + data[at:]
    if kind == 3:
        return data + rng.choice(_PACKED_ODD)
    return data[:at] + data[at + rng.randrange(1, 8) :]
