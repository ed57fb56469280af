"""KCL MultiLang: decoding and encoding ``processRecords`` lines of 1, 100 and 1000 records, same run.

Decode, against
- amazon-kclpy's own parsing of the line: ``json.loads`` with its ``object_hook`` dispatch (``dispatch.message_decode``,
  which builds its ``ProcessRecordsInput`` and ``Record`` objects), plus the Base64 decoding of every record's data,
  which its ``Record`` does when ``binary_data`` is read;
- bare ``json.loads`` (no validation, data left as Base64 text).
streamcodecs decodes the line into typed messages with every field validated and every record's data decoded to
bytes. The peers get the line as ``str`` (what kclpy reads from its text stdin; already decoded, in their favour),
streamcodecs gets the bytes.

Encode: streamcodecs' ``encode`` (Jackson-identical bytes, typed values checked, upper-case hex escapes) against
``json.dumps`` of the equivalent dict (data already as Base64 text, in json.dumps' favour).

Issue targets: decode at least 3x faster than amazon-kclpy and no slower than ``json.loads``; encode at most
1.3x msgspec's bare encode of the same Struct (issue 30). Each record: 200 bytes of data, a 16-character partition
key, a 56-digit sequence number. Before timing, the cases check that all parsers see the same records.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable
from functools import partial

import msgspec
from run import Case
from streamcodecs import kcl

BARE = "msgspec bare encode"
TYPED = "types tested + bare encode"

OURS = "streamcodecs"
KCLPY = "amazon-kclpy"
SIZES = (1, 100, 1000)


def _records(count: int) -> list[kcl.Record]:
    rng = random.Random(count)
    return [
        kcl.Record(
            data=bytes(rng.getrandbits(8) for _ in range(200)),
            partition_key=f"pk-{rng.getrandbits(48):012x}",
            sequence_number=str(49590338271490256608559692538361571095921575989136588898 + i),
            approximate_arrival_timestamp=1476889707000 + i,
            sub_sequence_number=0,
        )
        for i in range(count)
    ]


def _plain(message: kcl.ProcessRecords) -> dict[str, object]:
    """The dict a JSON library would be given to write the same line."""
    return {
        "action": "processRecords",
        "records": [
            {
                "data": base64.b64encode(r.data or b"").decode("ascii"),
                "partitionKey": r.partition_key,
                "sequenceNumber": r.sequence_number,
                "approximateArrivalTimestamp": r.approximate_arrival_timestamp,
                "subSequenceNumber": r.sub_sequence_number,
                "action": "record",
            }
            for r in message.records
        ],
        "millisBehindLatest": message.millis_behind_latest,
    }


def _typed_then_bare(message: kcl.ProcessRecords, bare: Callable[[object], bytes]) -> bytes:
    """The least a check in Python costs: every record's class and its fields' classes tested, nothing else."""
    record, text, whole = kcl.Record, str, int
    for r in message.records:
        if not (
            type(r) is record
            and type(r.data) is bytes
            and type(r.partition_key) is text
            and type(r.sequence_number) is text
            and type(r.approximate_arrival_timestamp) is whole
            and type(r.sub_sequence_number) is whole
            and r.action == "record"
        ):
            raise AssertionError(r)
    return bare(message) + b"\n"


def cases() -> list[Case]:
    try:
        from amazon_kclpy import dispatch
    except ImportError:
        dispatch = None
        print(
            f"bench_kcl: amazon-kclpy is not installed, so the {KCLPY} cases are left out "
            "(run tests/peers/install_kclpy.py)"
        )

    result: list[Case] = []
    for count in SIZES:
        message = kcl.ProcessRecords(records=_records(count), millis_behind_latest=0)
        line = kcl.encode(message)
        text = line.decode("utf-8")
        plain = _plain(message)
        want = [r.data for r in message.records]

        def ours_decode(line: bytes = line) -> object:
            return kcl.decode(line, direction="to_child")

        def bare_loads(text: str = text) -> object:
            return json.loads(text)

        assert ours_decode() == message
        assert bare_loads() == plain
        assert json.dumps(plain, separators=(",", ":")).encode() + b"\n" == line
        unit = "records"
        group = f"kcl decode processRecords x{count}"
        result.append(Case(group, OURS, ours_decode, ops=count, target=(KCLPY, 3.0), unit=unit))
        if dispatch is not None:
            hook = dispatch.message_decode

            def kclpy_parse(text: str = text, hook: object = hook) -> object:
                parsed = json.loads(text, object_hook=hook)
                return [record.binary_data for record in parsed.records]

            assert kclpy_parse() == want
            result.append(Case(group, KCLPY, kclpy_parse, ops=count, unit=unit))
        group = f"kcl decode processRecords x{count} (bare JSON)"
        result.append(Case(group, OURS, ours_decode, ops=count, target=("json.loads", 1.0), unit=unit))
        result.append(Case(group, "json.loads", bare_loads, ops=count, unit=unit))

        group = f"kcl encode processRecords x{count}"
        result.append(Case(group, OURS, lambda m=message: kcl.encode(m), ops=count, target=(BARE, 1 / 1.3), unit=unit))
        # The floor (issue 30): msgspec's own encoder on the same Struct, with no check and no framing work but the
        # newline; ours may cost at most 1.3x it
        bare = msgspec.json.Encoder().encode
        assert bare(message) + b"\n" == line
        result.append(Case(group, BARE, lambda m=message, e=bare: e(m) + b"\n", ops=count, unit=unit))
        # What checking costs at the least: each record's class and each field's class tested in one Python loop
        # (no range, no refusal to word), then the bare encode; its ratio bounds any check written in Python
        result.append(
            Case(group, TYPED, partial(_typed_then_bare, message, bare), ops=count, target=(BARE, 1 / 1.3), unit=unit)
        )
        result.append(Case(group, "json.dumps", lambda p=plain: json.dumps(p), ops=count, unit=unit))
    return result
