#!/usr/bin/env python3
"""The differential fuzzer: the Java codec and the Python codec of every protocol, fed the same inputs through every
entry point of its Spark functions, must take the same decision, give the same values and word their errors the
same (but for the wording of a JSON syntax error, which Jackson and msgspec each have their own of).

Each Spark function runs, on the JVM path, a Java UDF class of the package's jar, and on the Python path the codec
on Arrow batches (``streamcodecs.spark.<protocol>._FUNCTIONS``). Here the UDF classes are called directly, without
Spark, by a small Java program (``Differential.java``, compiled on first use, run as one process per protocol and
fed in batches) on arguments built as Spark hands them to a UDF, and their results are taken through Spark's
internal form as Spark stores them; the Python path's functions are called on the same batches. The inputs
(``inputs.py``) are every vector of every version and hypothesis-drawn messages, mutated with a seed. A protocol's
MessagePack framing variants (Storm's ``serializer="msgpack"``) are fuzzed on the codecs themselves (``fuzz_packed``:
decode, and encode of what was decoded, compared as the values it wrote; ``--no-packed`` leaves them out); their
Spark functions (``DecodePacked``/``EncodePacked``, and the Python path with ``serializer=``) call those codecs, and
tests/test_spark_storm_msgpack.py holds the two paths' rows equal byte for byte.

    .venv/bin/python fuzz/differential.py                        # the long run: 100,000 inputs per protocol
    .venv/bin/python fuzz/differential.py --count 2000 --seed 3  # a short sample (tests/test_differential.py)

A protocol added by YAML alone is covered: the protocols, their entry points and their seeds come from the
generated package (``--package-root``, default ``output/py``). Exit 0 when every input agreed, 1 otherwise (the
first disagreements are printed with their input, to replay).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import math
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "fuzz"))

import inputs  # noqa: E402
from entries import Entry, Protocol  # noqa: E402

SHARES = {  # each entry point's share of a protocol's inputs
    "decode": 0.55,
    "encode": 0.3,
    "split_inline": 0.15,
    "from_kafka": 0.35,
    "content_mode": 0.05,
    "data_text": 0.05,
    "to_kafka_binary": 0.1,
    "to_kafka_structured": 0.1,
}
KAFKA_SHARES = {"decode": 0.15, "encode": 0.2}
CLASS_SHARE = 0.5
"""The share of a JSON decode entry's inputs aimed at the classes once found to disagree (the rest are random)."""
_SYNTAX = re.compile(
    r"malformed JSON: (?!a string is not valid|Input data was truncated \(offset|nested too deeply \(offset).*", re.S
)
"""A JSON syntax error, however worded (Jackson's and msgspec's words and offsets differ); the strict rules' own
texts (invalid UTF-8, lone surrogates, nesting deeper than the limit, at the bracket that opens one level too many)
are not syntax errors and must read the same, and neither is a text cut short: both codecs refuse it as truncated
at its end (msgspec's verdict decides which texts are cut short), so its words and its offset are compared as any
other refusal's."""


class Java:
    """``Differential.java`` running over the UDF classes of the protocols."""

    def __init__(self, package_root: Path, package: str, protocols: list[Protocol]) -> None:
        from streamcodecs_gen import jar  # noqa: PLC0415 - the generator is on the path (REPO)

        source = REPO / "fuzz" / "Differential.java"
        the_jar = package_root / package.replace(".", "/") / "spark" / jar.JAR_NAME
        classpath = [str(the_jar), *map(str, sorted(jar.spark_jars().glob("*.jar")))]
        key = hashlib.sha256(source.read_bytes() + "\n".join(classpath).encode()).hexdigest()[:16]
        classes = Path(tempfile.gettempdir()) / f"streamcodecs-differential-{key}"
        if not (classes / "Differential.class").is_file():
            build = Path(tempfile.mkdtemp(prefix="streamcodecs-differential-"))
            subprocess.run(
                ["javac", "-d", str(build), "-cp", ":".join(classpath), str(source)],
                check=True,
                capture_output=True,
                text=True,
            )
            build.rename(classes) if not classes.exists() else None
        udfs = {
            f"{p.name}.{e.udf}": {
                "args": [json.loads(t.json()) for t in e.args],
                "returns": json.loads(e.returns.json()),
            }
            for p in protocols
            for e in p.entries
        }
        self.process = subprocess.Popen(
            [
                "java",
                "-Xss8m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                ":".join([str(classes), *classpath]),
                "Differential",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self._write(json.dumps({"package": package, "udfs": udfs}) + "\n")
        ready = self.process.stdout.readline()  # type: ignore[union-attr]
        if ready.strip() != "ready":
            raise RuntimeError(f"the Java side did not start: {ready!r}")

    def _write(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def variant_texts(self, texts: list[str]) -> list[str]:
        """Spark's ``to_json`` of each VARIANT made from a JSON text."""
        requests = [json.dumps(["!variant", {"v": t}], ensure_ascii=True) for t in texts]
        self._write(f"{len(requests)}\n" + "\n".join(requests) + "\n")
        assert self.process.stdout is not None
        return [json.loads(self.process.stdout.readline()) for _ in requests]

    def call(self, protocol: Protocol, entry: Entry, cases: list[list[Any]]) -> list[Any]:
        udf = f"{protocol.name}.{entry.udf}"
        requests = [json.dumps([udf, *entry.java_args(case)], ensure_ascii=True) for case in cases]
        self._write(f"{len(requests)}\n" + "\n".join(requests) + "\n")
        assert self.process.stdout is not None
        return [json.loads(self.process.stdout.readline()) for _ in requests]

    def codec(self, protocol: str, serializer: str, cases: list[list[Any]]) -> list[Any]:
        """The Java codec's answers to ``!codec`` requests: each ``[{"b": frame}, direction]`` decoded in framing
        ``serializer``, and what was decoded encoded again."""
        requests = [json.dumps(["!codec", protocol, serializer, direction, frame]) for frame, direction in cases]
        self._write(f"{len(requests)}\n" + "\n".join(requests) + "\n")
        assert self.process.stdout is not None
        return [json.loads(self.process.stdout.readline()) for _ in requests]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def normal(value: Any) -> Any:
    """An answer made comparable: VARIANTs as the JSON values they hold, syntax errors as one text."""
    if isinstance(value, dict):
        if set(value) == {"v"}:
            return ("variant", _variant(json.loads(value["v"])))
        return {k: normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normal(v) for v in value]
    if isinstance(value, str):
        return _SYNTAX.sub("malformed JSON: <a syntax error>", value)
    return value


def _same(python: Any, jvm: Any) -> bool:
    """Whether both answers agree (:func:`normal`), with room on the stack for values nested as deep as the codecs
    allow (set only here, after the Python path ran: the codec under test runs with the interpreter's limit)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        return bool(normal(json.loads(json.dumps(python))) == normal(jvm))
    finally:
        sys.setrecursionlimit(limit)


def _variant(value: Any) -> Any:
    """A VARIANT's JSON value compared as Spark holds it: objects as sorted items (Spark sorts their keys), numbers
    by value (Spark keeps 1.0 as a decimal, which prints as 1.0 or 1)."""
    if isinstance(value, dict):
        return sorted((k, _variant(v)) for k, v in value.items())
    if isinstance(value, list):
        return [_variant(v) for v in value]
    if isinstance(value, float) and math.isfinite(value) and value == int(value) and abs(value) < 2**63:
        return int(value)
    return value


class Run:
    """One protocol's run: its inputs, both sides' answers, the disagreements."""

    def __init__(self, protocol: Protocol, java: Java, rng: random.Random, batch: int) -> None:
        self.protocol = protocol
        self.java = java
        self.rng = rng
        self.batch = batch
        self.counts: Counter[str] = Counter()
        self.disagreements: list[tuple[str, list[Any], Any, Any]] = []
        self.disagreeing: Counter[str] = Counter()

    def compare(self, entry: Entry, cases: list[list[Any]]) -> list[Any]:
        """Runs ``cases`` through ``entry`` on both sides; returns the Python path's answers."""
        python: list[Any] = []
        for start in range(0, len(cases), self.batch):
            chunk = cases[start : start + self.batch]
            ours = _as_spark_shows(_python(entry, _as_spark_shows(chunk, self.java)), self.java, answers=True)
            theirs = self.java.call(self.protocol, entry, chunk)
            for case, a, b in zip(chunk, ours, theirs, strict=True):
                self.counts[entry.name] += 1
                if not _same(a, b):
                    self.disagreeing[entry.name] += 1
                    self.disagreements.append((entry.name, case, a, b))
            python += ours
        return python


def _as_spark_shows(values: list[Any], java: Java, answers: bool = False) -> list[Any]:
    """``values`` with each VARIANT (``{"v": text}``) as Spark holds it: the text Spark's ``to_json`` gives for the
    VARIANT Spark makes of it (keys sorted, numbers as Spark keeps them). The Python path's cases are handed
    VARIANTs so, and its answers' VARIANT texts become VARIANTs so (``parse_json``, ``_variant.from_text``). A
    text Spark cannot make a VARIANT of stays as it is (in ``answers`` marked: in Spark it would fail the job)."""
    texts: list[str] = []

    def collect(value: Any) -> None:
        if isinstance(value, dict) and set(value) == {"v"} and isinstance(value["v"], str):
            texts.append(value["v"])
        elif isinstance(value, dict):
            for v in value.values():
                collect(v)
        elif isinstance(value, list):
            for v in value:
                collect(v)

    collect(values)
    if not texts:
        return values
    shown = dict(zip(texts, java.variant_texts(texts), strict=True))

    def replace(value: Any) -> Any:
        if isinstance(value, dict) and set(value) == {"v"} and isinstance(value["v"], str):
            held = shown[value["v"]]
            if isinstance(held, str):
                return {"v": held}
            return {"v": value["v"], "no variant": held} if answers else value
        if isinstance(value, dict):
            return {k: replace(v) for k, v in value.items()}
        if isinstance(value, list):
            return [replace(v) for v in value]
        return value

    return [replace(value) for value in values]


def _python(entry: Entry, cases: list[list[Any]]) -> list[Any]:
    """The Python path's answers; where a batch raises (in Spark that fails the job), each case alone, and for
    the cases that raise ``{"thrown": text}``, as the Java side answers for a UDF that throws."""
    try:
        return entry.python(cases)
    except Exception:  # noqa: BLE001 - any exception is a finding, reported case by case
        pass
    out: list[Any] = []
    for case in cases:
        try:
            out += entry.python([case])
        except Exception as exc:  # noqa: BLE001
            out.append({"thrown": f"{type(exc).__name__}: {exc}"})
    return out


def _entry(protocol: Protocol, name: str) -> Entry | None:
    return next((e for e in protocol.entries if e.name == name), None)


def _share(protocol: Protocol, name: str, count: int) -> int:
    """The entry point's part of the protocol's ``count`` inputs: the parts of its entry points add up to it."""

    def share(entry: str) -> float:
        return (KAFKA_SHARES if protocol.family == "kafka" else {}).get(entry, SHARES.get(entry, 0.1))

    total = sum(share(e.name) for e in protocol.entries)
    return max(1, math.ceil(count * share(name) / total))


def _rows(answers: list[Any], column: int | None = None) -> list[Any]:
    """The rows (or, with ``column``, the struct in that column) of answers that decoded a message."""
    rows = []
    for answer in answers:
        if not isinstance(answer, list) or answer[-1] is not None:  # the error column is last; a dict: it threw
            continue
        rows.append(answer if column is None else answer[column])
    return rows


def _row_cases(run: Run, rows: list[Any], data_type: Any, count: int, names: list[str] | None) -> list[list[Any]]:
    cases: list[list[Any]] = []
    if not rows:
        return cases
    if names:  # rows holding messages: every value of each message made null, then odd, besides the count
        cases = [[row] for row in inputs.row_sweep(run.rng, rows, data_type) if inputs.representable(row, data_type)]
        count += len(cases)
    while len(cases) < count:
        row = run.rng.choice(rows)
        if run.rng.random() < 0.6:
            row = inputs.row_mutation(run.rng, row, data_type, names)
        if inputs.representable(row, data_type):
            cases.append([row])
    return cases


def _decode_cases(
    run: Run, seeds: list[tuple[bytes, str | None]], count: int, mutate: Callable[[random.Random, bytes], bytes]
) -> list[list[Any]]:
    """A decode entry's cases: for JSON, a share of them (:data:`CLASS_SHARE`) aimed at each class of input that
    was once found to disagree (``inputs.JSON_CLASSES``), so that even a short sample meets every class; the rest
    seeds mutated at random."""
    aimed: list[list[Any]] = []
    if mutate is inputs.json_mutation:
        aimed = inputs.json_class_cases(run.rng, seeds, math.ceil(count * CLASS_SHARE))
    return aimed + inputs.frame_cases(run.rng, seeds, count - len(aimed), mutate)


def fuzz_json_or_binary(run: Run, root: Path, count: int, per_message: int, seed: int) -> None:
    protocol = run.protocol
    codec = protocol.codec
    seeds = inputs.vector_frames(root, protocol.name)
    inline_frames: list[bytes] = []
    inline = getattr(protocol.spark, "_INLINE", None)
    inline_names = set(inline.kinds) if inline is not None else set()
    for message in inputs.hypothesis_messages(REPO, protocol, per_message, seed):
        try:
            if type(message).__name__ in inline_names:
                inline_frames.append(codec.encode_inline(message))
            else:
                seeds.append((codec.encode(message), None))
        except (codec.EncodeError, ValueError):
            continue
    if protocol.family == "binary":
        codes = sorted({int.from_bytes(d[:4], "big", signed=True) for d, _ in seeds if len(d) >= 4})

        def mutate(rng: random.Random, data: bytes) -> bytes:
            return inputs.binary_mutation(rng, data, codes)

    else:
        mutate = inputs.json_mutation
    decode = _entry(protocol, "decode")
    assert decode is not None
    decoded = run.compare(decode, _decode_cases(run, seeds, _share(protocol, "decode", count), mutate))
    encode = _entry(protocol, "encode")
    assert encode is not None
    names = list(codec.MESSAGES)
    rows = _rows(decoded)
    run.compare(encode, _row_cases(run, rows, protocol.spark.DECODED, _share(protocol, "encode", count), names))
    split = _entry(protocol, "split_inline")
    if split is not None and inline_frames:
        run.compare(split, inputs.inline_cases(run.rng, inline_frames, _share(protocol, "split_inline", count)))


PACKED_SHARE = 0.5
"""A protocol's MessagePack (framing variant) inputs, as a share of its ``--count``: its codecs called directly (the
variants have no Spark function yet), each input decoded and what was decoded encoded again, on both sides."""


def _packed_python(codec: Any, serializer: str, data: bytes, direction: str | None) -> Any:
    """The Python codec's answer to a ``!codec`` request (``Differential.java`` says its form)."""
    try:
        message = codec.decode(data, direction=direction, serializer=serializer)
    except codec.DecodeError as exc:
        return [None, str(exc), None]
    except Exception as exc:  # noqa: BLE001 - any other exception is a finding
        return {"thrown": f"{type(exc).__name__}: {exc}"}
    try:
        again: dict[str, str] = {"b": base64.b64encode(codec.encode(message, serializer=serializer)).decode()}
    except codec.EncodeError as exc:
        again = {"e": str(exc)}
    except Exception as exc:  # noqa: BLE001
        return {"thrown": f"{type(exc).__name__}: {exc}"}
    return [type(message).__name__, None, again]


def _packed_normal(answer: Any) -> Any:
    """A ``!codec`` answer made comparable: what encode wrote as the values it holds, each map's entries sorted (the
    Java codec holds a free-form value as a VARIANT, whose objects keep their keys sorted; the Python codec keeps a
    dict's order), numbers with their kind (1 and 1.0 differ, NaN equals NaN)."""
    if isinstance(answer, list) and len(answer) == 3 and isinstance(answer[2], dict) and "b" in answer[2]:
        import msgpack  # noqa: PLC0415 - only the MessagePack inputs need it (requirements.txt)

        held = msgpack.unpackb(base64.b64decode(answer[2]["b"]), raw=False, strict_map_key=False)
        return [answer[0], answer[1], {"values": _canonical(held)}]
    return answer


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return ["map", sorted(([_canonical(k), _canonical(v)] for k, v in value.items()), key=repr)]
    if isinstance(value, list | tuple):
        return ["list", [_canonical(v) for v in value]]
    if isinstance(value, bool):
        return ["bool", value]
    if isinstance(value, float):
        return ["float", value.hex()]
    if isinstance(value, bytes):
        return ["bytes", value.hex()]
    if value is None or isinstance(value, int | str):
        return value
    return ["other", repr(value)]


def fuzz_packed(run: Run, root: Path, count: int, per_message: int, seed: int) -> None:
    """The protocol's MessagePack framing variants: vectors and hypothesis messages in each, mutated
    (``inputs.packed_mutation``), decoded (and what was decoded encoded again) by both codecs."""
    protocol = run.protocol
    codec = protocol.codec
    for serializer in getattr(codec, "SERIALIZERS", ("json",))[1:]:
        seeds = inputs.vector_packed(root, protocol.name, serializer)
        for message in inputs.hypothesis_messages(REPO, protocol, per_message, seed):
            try:
                seeds.append((codec.encode(message, serializer=serializer), None))
            except (codec.EncodeError, ValueError):
                continue
        name = f"decode {serializer}"
        cases = inputs.frame_cases(run.rng, seeds, count, inputs.packed_mutation)
        for start in range(0, len(cases), run.batch):
            chunk = cases[start : start + run.batch]
            ours = [_packed_python(codec, serializer, base64.b64decode(f["b"]), d) for f, d in chunk]
            theirs = run.java.codec(protocol.name, serializer, chunk)
            for case, a, b in zip(chunk, ours, theirs, strict=True):
                run.counts[name] += 1
                limit = sys.getrecursionlimit()
                sys.setrecursionlimit(max(limit, 20_000))  # (values nest as deep as the codecs allow)
                try:
                    same = _packed_normal(a) == _packed_normal(b)
                finally:
                    sys.setrecursionlimit(limit)
                if not same:
                    run.disagreeing[name] += 1
                    run.disagreements.append((name, case, a, b))


def fuzz_kafka(run: Run, root: Path, count: int, per_message: int, seed: int) -> None:
    protocol = run.protocol
    codec = protocol.codec
    seeds = inputs.vector_records(root, protocol.name)
    for message in inputs.hypothesis_messages(REPO, protocol, per_message, seed):
        for mode in ("binary", "structured"):
            try:
                record = codec.to_kafka(message, mode)
            except codec.EncodeError:
                continue
            seeds.append((record.value, list(record.headers)))
    entry = _entry(protocol, "from_kafka")
    assert entry is not None
    records = inputs.record_cases(run.rng, seeds, _share(protocol, "from_kafka", count))
    answers = run.compare(entry, records)
    documents = inputs.documents(records) + [d for d, _ in inputs.vector_frames(root, protocol.name)]
    for name, cases in (
        (
            "decode",
            _decode_cases(run, [(d, None) for d in documents], _share(protocol, "decode", count), inputs.json_mutation),
        ),
        ("content_mode", inputs.headers_cases(records)[: _share(protocol, "content_mode", count)]),
        ("data_text", inputs.data_cases(run.rng, _share(protocol, "data_text", count))),
    ):
        entry = _entry(protocol, name)
        assert entry is not None
        if name == "decode":
            cases = [case[:1] for case in cases]
        run.compare(entry, cases)
    functions = protocol.spark._FUNCTIONS
    events = _rows(answers, column=2)
    schema = functions.event.schema
    for name in ("to_kafka_binary", "to_kafka_structured"):
        entry = _entry(protocol, name)
        assert entry is not None
        run.compare(entry, _row_cases(run, events, schema, _share(protocol, name, count), None))
    entry = _entry(protocol, "encode")
    assert entry is not None
    decoded_rows = [[functions.event.message, event, None] for event in events]
    names = [functions.event.message]
    run.compare(entry, _row_cases(run, decoded_rows, protocol.spark.DECODED, _share(protocol, "encode", count), names))


def _fuzz(protocol: Protocol, java: Java, root: Path, args: argparse.Namespace, per_message: int) -> int:
    """Fuzzes one protocol, prints what it found; returns the number of disagreements."""
    name = protocol.name
    run = Run(protocol, java, random.Random(f"{args.seed}:{name}"), args.batch)
    began = time.monotonic()
    if protocol.family == "kafka":
        fuzz_kafka(run, root, args.count, per_message, args.seed)
    else:
        fuzz_json_or_binary(run, root, args.count, per_message, args.seed)
        if args.packed:
            fuzz_packed(run, root, math.ceil(args.count * PACKED_SHARE), per_message, args.seed)
    disagreements = len(run.disagreements)
    per_entry = ", ".join(
        f"{entry} {n}" + (f" ({run.disagreeing[entry]} disagree)" if run.disagreeing[entry] else "")
        for entry, n in run.counts.items()
    )
    took = time.monotonic() - began
    print(f"{name}: {sum(run.counts.values())} inputs, {disagreements} disagreements in {took:.1f}s: {per_entry}")
    for entry_name, case, python, jvm in run.disagreements[: args.show]:
        print(f"  DISAGREE {name}.{entry_name}")
        print(f"    input:  {json.dumps(case, ensure_ascii=True)[:600]}")
        print(f"    python: {json.dumps(python, ensure_ascii=True)[:600]}")
        print(f"    jvm:    {json.dumps(jvm, ensure_ascii=True)[:600]}")
    if args.dump is not None:
        with args.dump.open("a", encoding="utf-8") as out:
            for entry_name, case, python, jvm in run.disagreements:
                record = {"protocol": name, "entry": entry_name, "input": case, "python": python, "jvm": jvm}
                out.write(json.dumps(record, ensure_ascii=True) + "\n")
    sys.stdout.flush()
    return disagreements


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="inputs per protocol (over its entry points)")
    parser.add_argument("--seed", type=int, default=20261128)
    parser.add_argument("--protocol", action="append", help="only these protocols")
    parser.add_argument("--batch", type=int, default=500, help="inputs per batch on both sides")
    parser.add_argument("--per-message", type=int, help="hypothesis messages per message (default: from --count)")
    parser.add_argument("--show", type=int, default=10, help="disagreements printed per protocol")
    parser.add_argument("--dump", type=Path, help="write every disagreement here, one JSON line each")
    parser.add_argument(
        "--no-packed",
        dest="packed",
        action="store_false",
        help="not the MessagePack framing variants (by default fuzzed on the codecs: PACKED_SHARE of --count more)",
    )
    parser.add_argument("--package-root", type=Path, default=REPO / "output" / "py")
    parser.add_argument("--package", default="streamcodecs")
    args = parser.parse_args(argv)
    root = args.package_root.resolve()
    sys.path.insert(0, str(root))
    sys.path.insert(1, str(REPO))
    import importlib  # noqa: PLC0415

    from entries import load  # noqa: PLC0415

    package = importlib.import_module(args.package)
    per_message = args.per_message or max(2, min(50, args.count // 4000))
    total_disagreements = 0
    started = time.monotonic()
    protocols = []
    for name in package.PROTOCOLS:
        if args.protocol and name not in args.protocol:
            continue
        protocol = load(name)
        if protocol.no_java is not None:
            print(f"{name}: no Java codec ({protocol.no_java}): both Spark paths run the Python codec")
            continue
        protocols.append(protocol)
    java = Java(root, args.package, protocols)
    try:
        for protocol in protocols:
            total_disagreements += _fuzz(protocol, java, root, args, per_message)
    finally:
        java.close()
    print(f"{total_disagreements} disagreements in all ({time.monotonic() - started:.1f}s)")
    return 1 if total_disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
