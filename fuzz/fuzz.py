#!/usr/bin/env python3
"""Feed random and mutated input into every generated ``decode`` and ``Reader``; stop by count or time.

Seeds are the compatibility vectors of every protocol version (``output/py/vectors``).  Mutations: bit flips, byte
substitutions, truncation, duplication, length and count fields set to huge or negative values, insertions of deep
nesting, invalid UTF-8 and invalid base64, and lines without an end.  The only exception a decoder may raise is its
module's ``DecodeError``; anything else, or one input taking longer than ``--slow`` seconds of CPU time (CPU, not
wall time, so that a loaded machine makes no finding), is a failure, printed with the input (hex) so it can be
replayed.  Memory is capped (``--memory-mb``), so a length prefix that made a decoder
allocate gigabytes would fail as MemoryError.

    .venv/bin/python fuzz/fuzz.py --count 1000000 --seconds 600      # the full run
    .venv/bin/python fuzz/fuzz.py --count 20000                       # the CI run (tests/test_fuzz.py)
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "output" / "py"
sys.path.insert(0, str(GENERATED))

HUGE = [b"\x7f\xff\xff\xff", b"\xff\xff\xff\xff", b"\x80\x00\x00\x00", b"\x00\xff\xff\xff", b"\x01\x00\x00\x00"]


@dataclass
class Target:
    protocol: str
    module: ModuleType
    family: str
    seeds: list[bytes]
    serializer: str = "json"  # or a framing variant's name (its vectors are in <version>/<name>/)

    @property
    def options(self) -> dict[str, str]:
        """Keyword arguments of decode and Reader: a framing variant is chosen with ``serializer=``."""
        return {} if self.serializer == "json" else {"serializer": self.serializer}


def load_targets(only: list[str] | None) -> list[Target]:
    package = importlib.import_module("streamcodecs")
    targets = []
    for name in package.PROTOCOLS:
        if only and name not in only:
            continue
        module = importlib.import_module(f"streamcodecs.{name}")
        seeds: list[bytes] = []
        family = ""
        for manifest_path in sorted((GENERATED / "vectors" / name).glob("*/manifest.json")):
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            family = manifest["family"]
            blob = (manifest_path.parent / manifest["file"]).read_bytes()
            seeds += [blob[v["offset"] : v["offset"] + v["length"]] for v in manifest["vectors"]]
        if seeds:
            targets.append(Target(name, module, family, seeds))
        variants: dict[str, list[bytes]] = {}
        for manifest_path in sorted((GENERATED / "vectors" / name).glob("*/*/manifest.json")):
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            blob = (manifest_path.parent / manifest["file"]).read_bytes()
            found = variants.setdefault(manifest["framing"], [])
            found += [blob[v["offset"] : v["offset"] + v["length"]] for v in manifest["vectors"]]
        for framing, framing_seeds in sorted(variants.items()):
            targets.append(Target(f"{name}/{framing}", module, framing, framing_seeds, framing))
    return targets


def mutations(rng: random.Random, seed: bytes, family: str) -> Callable[[], bytes]:
    def flip() -> bytes:
        data = bytearray(seed)
        for _ in range(rng.randint(1, 4)):
            if data:
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)

    def substitute() -> bytes:
        data = bytearray(seed)
        for _ in range(rng.randint(1, 4)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)

    def truncate() -> bytes:
        return seed[: rng.randrange(len(seed) + 1)]

    def huge_length() -> bytes:
        if len(seed) < 4:
            return seed
        data = bytearray(seed)
        at = rng.randrange(len(data) - 3)
        data[at : at + 4] = rng.choice(HUGE)
        return bytes(data)

    def splice() -> bytes:
        cut = rng.randrange(len(seed) + 1)
        return seed[:cut] + seed[rng.randrange(len(seed) + 1) :]

    def json_nesting() -> bytes:
        depth = rng.choice([10, 1000, 100000])
        cut = rng.randrange(len(seed) + 1)
        return seed[:cut] + b"[" * depth + b"]" * rng.choice([0, depth]) + seed[cut:]

    def bad_utf8() -> bytes:
        cut = rng.randrange(len(seed) + 1)
        return (
            seed[:cut]
            + rng.choice([b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82", b"\xf8\x88\x80\x80\x80"])
            + seed[cut:]
        )

    def bad_base64() -> bytes:
        return seed.replace(b'"', b'"!*', 1) if rng.random() < 0.5 else seed.replace(b"=", b"==", 1)

    def no_end() -> bytes:
        return seed.rstrip(b"\n").replace(b"\nend", b"") + b"x" * rng.randrange(100)

    def random_bytes() -> bytes:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(64)))

    pool: list[Callable[[], bytes]] = [flip, substitute, truncate, huge_length, splice, bad_utf8, random_bytes]
    if family in ("json", "kafka"):
        pool += [json_nesting, bad_base64, no_end]
    return rng.choice(pool)


def inputs(rng: random.Random, target: Target) -> Iterator[bytes]:
    while True:
        seed = rng.choice(target.seeds)
        yield mutations(rng, seed, target.family)()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1_000_000, help="inputs in all (split across protocols)")
    parser.add_argument("--seconds", type=float, default=900, help="stop after this long whatever the count")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--slow", type=float, default=2.0, help="CPU seconds one input may take")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space cap for this process")
    parser.add_argument("--protocol", action="append", help="only these protocols")
    args = parser.parse_args(argv)
    cap = args.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    rng = random.Random(args.seed)
    targets = load_targets(args.protocol)
    if not targets:
        print("no protocol with vectors found: run ./generator.py first", file=sys.stderr)
        return 2
    per_target = max(1, args.count // len(targets))
    deadline = time.monotonic() + args.seconds
    counts: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    failures = []
    slowest = (0.0, "", b"")
    for target in targets:
        module = target.module
        allowed = module.DecodeError
        source = inputs(rng, target)
        for index in range(per_target):
            if time.monotonic() > deadline:
                break
            data = next(source)
            use_reader = index % 4 == 3
            start = time.process_time()
            try:
                if use_reader:
                    reader = module.Reader(**target.options)
                    step = rng.randint(1, 64)
                    for at in range(0, len(data), step):
                        try:
                            reader.feed(data[at : at + step])
                        except allowed:
                            pass
                else:
                    module.decode(data, **target.options)
                outcomes["decoded"] += 1
            except allowed:
                outcomes["DecodeError"] += 1
            except BaseException as exc:  # noqa: BLE001 - any other exception is the finding
                failures.append(
                    (
                        target.protocol,
                        "Reader" if use_reader else "decode",
                        type(exc).__name__,
                        str(exc)[:200],
                        data.hex(),
                    )
                )
                if isinstance(exc, KeyboardInterrupt):
                    raise
            elapsed = time.process_time() - start
            counts[target.protocol] += 1
            if elapsed > slowest[0]:
                slowest = (elapsed, target.protocol, data)
            if elapsed > args.slow:
                failures.append((target.protocol, "slow", f"{elapsed:.2f}s", "", data.hex()))
    total = sum(counts.values())
    print(
        f"fuzzed {total} inputs in {args.seconds - max(0.0, deadline - time.monotonic()):.1f}s: "
        + ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))
    )
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print(f"slowest input: {slowest[0] * 1000:.2f} ms CPU ({slowest[1]}, {len(slowest[2])} bytes)")
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")
    for failure in failures[:20]:
        print("FAILURE", *failure)
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
