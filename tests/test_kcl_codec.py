"""The KCL MultiLang codec (``streamcodecs.kcl``): Jackson-identical encoding of what the daemon sends, only known
keys in what the child sends, decoding in any key order, the Reader, and DecodeError naming line and field.

Expected bytes are written out by hand from the Java side's rules (Jackson 2.18 defaults as used by the
MultiLangDaemon: compact, ``action`` first, fields in declaration order, nulls written, ``"action":"record"`` last
in each record, Base64 with padding and no line breaks, ``\\u00XX`` with upper-case hex for the control characters
without a short escape, ``/`` and non-ASCII not escaped), never produced by the codec under test.
"""

from __future__ import annotations

import base64
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamcodecs import kcl

SEQ = "49590338271490256608559692538361571095921575989136588898"
LONG_MAX = 9223372036854775807


def record(**overrides: object) -> kcl.Record:
    values: dict[str, object] = dict(
        data=b"hi",
        partition_key="pk",
        sequence_number="4959",
        approximate_arrival_timestamp=1476889707000,
        sub_sequence_number=0,
    )
    values.update(overrides)
    return kcl.Record(**values)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- byte-identical to the Java daemon

JAVA_LINES = [
    (
        kcl.Initialize(shard_id="shardId-000000000000", sequence_number="TRIM_HORIZON", sub_sequence_number=0),
        b'{"action":"initialize","shardId":"shardId-000000000000","sequenceNumber":"TRIM_HORIZON","subSequenceNumber":0}',
    ),
    (
        kcl.Initialize(shard_id="shardId-000000000000"),
        b'{"action":"initialize","shardId":"shardId-000000000000","sequenceNumber":null,"subSequenceNumber":null}',
    ),
    (
        kcl.Initialize(shard_id="s", sequence_number=SEQ, sub_sequence_number=LONG_MAX),
        b'{"action":"initialize","shardId":"s","sequenceNumber":"'
        + SEQ.encode()
        + b'","subSequenceNumber":9223372036854775807}',
    ),
    # the reference notes' verified example
    (
        kcl.ProcessRecords(records=[record()], millis_behind_latest=0),
        b'{"action":"processRecords","records":[{"data":"aGk=","partitionKey":"pk","sequenceNumber":"4959",'
        b'"approximateArrivalTimestamp":1476889707000,"subSequenceNumber":0,"action":"record"}],"millisBehindLatest":0}',
    ),
    (
        kcl.ProcessRecords(records=[], millis_behind_latest=None),
        b'{"action":"processRecords","records":[],"millisBehindLatest":null}',
    ),
    # KCL 1.x: null data, unknown arrival time, not a KPL user record
    (
        kcl.ProcessRecords(
            records=[record(data=None, approximate_arrival_timestamp=None, sub_sequence_number=None)],
            millis_behind_latest=-1,
        ),
        b'{"action":"processRecords","records":[{"data":null,"partitionKey":"pk","sequenceNumber":"4959",'
        b'"approximateArrivalTimestamp":null,"subSequenceNumber":null,"action":"record"}],"millisBehindLatest":-1}',
    ),
    (
        kcl.ProcessRecords(
            records=[record(data=b""), record(data=b"\x00\xff\xfe", sub_sequence_number=3)],
            millis_behind_latest=86400000,
        ),
        b'{"action":"processRecords","records":['
        b'{"data":"","partitionKey":"pk","sequenceNumber":"4959","approximateArrivalTimestamp":1476889707000,'
        b'"subSequenceNumber":0,"action":"record"},'
        b'{"data":"AP/+","partitionKey":"pk","sequenceNumber":"4959","approximateArrivalTimestamp":1476889707000,'
        b'"subSequenceNumber":3,"action":"record"}],"millisBehindLatest":86400000}',
    ),
    (kcl.LeaseLost(), b'{"action":"leaseLost"}'),
    (kcl.ShardEnded(), b'{"action":"shardEnded"}'),
    (kcl.ShutdownRequested(), b'{"action":"shutdownRequested"}'),
    (kcl.Shutdown(reason=kcl.ShutdownReason.TERMINATE), b'{"action":"shutdown","reason":"TERMINATE"}'),
    (kcl.Shutdown(reason=kcl.ShutdownReason.ZOMBIE), b'{"action":"shutdown","reason":"ZOMBIE"}'),
    (kcl.Shutdown(reason=None), b'{"action":"shutdown","reason":null}'),
    (
        kcl.CheckpointReply(sequence_number=SEQ, sub_sequence_number=7, error=None),
        b'{"action":"checkpoint","sequenceNumber":"' + SEQ.encode() + b'","subSequenceNumber":7,"error":null}',
    ),
    (
        kcl.CheckpointReply(sequence_number=None, sub_sequence_number=None, error="ThrottlingException"),
        b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":"ThrottlingException"}',
    ),
    # strings: short escapes, upper-case \u00XX, "/" DEL C1 U+2028 and astral characters raw (UTF-8)
    (
        kcl.Initialize(shard_id='a"b\\c\b\t\n\f\r\x00\x0b\x0e\x1a\x1f/\x7f\x85\u00e9\u2028\u2029\U0001f600'),
        b'{"action":"initialize","shardId":"a\\"b\\\\c\\b\\t\\n\\f\\r\\u0000\\u000B\\u000E\\u001A\\u001F/'
        b'\x7f\xc2\x85\xc3\xa9\xe2\x80\xa8\xe2\x80\xa9\xf0\x9f\x98\x80","sequenceNumber":null,"subSequenceNumber":null}',
    ),
    # text that merely looks like an escape keeps its case
    (
        kcl.Initialize(shard_id="\\u000b \\\x0b"),
        b'{"action":"initialize","shardId":"\\\\u000b \\\\\\u000B","sequenceNumber":null,"subSequenceNumber":null}',
    ),
]


@pytest.mark.parametrize(
    ("message", "line"), JAVA_LINES, ids=lambda v: type(v).__name__ if not isinstance(v, bytes) else ""
)
def test_daemon_messages_encode_as_the_java_daemon_writes_them(message: kcl.Message, line: bytes) -> None:
    assert kcl.encode(message) == line + b"\n"
    assert kcl.decode(line, direction="to_child") == message


def jackson_string(text: str) -> bytes:
    """A JSON string as Jackson 2.x's default generator writes it (CharTypes.sOutputEscapes128, upper-case hex)."""
    short = {0x08: "b", 0x09: "t", 0x0A: "n", 0x0C: "f", 0x0D: "r", 0x22: '"', 0x5C: "\\"}
    out = []
    for char in text:
        code = ord(char)
        if code in short:
            out.append("\\" + short[code])
        elif code < 0x20:
            out.append(f"\\u{code:04X}")
        else:
            out.append(char)
    return ('"' + "".join(out) + '"').encode("utf-8")


def test_every_code_point_up_to_u00ff_is_escaped_like_jackson() -> None:
    for code in range(0x100):
        char = chr(code)
        line = kcl.encode(kcl.Status(response_for=char))
        assert line == b'{"action":"status","responseFor":' + jackson_string(char) + b"}\n", hex(code)


TRICKY = st.lists(
    st.sampled_from(
        ["\\", "u", "0", "1", "b", "B", "e", "f", "F", "\x0b", "\x1f", "\x00", '"', "/", "\u00e9", "\u2028", "\n", "\r"]
    )
).map("".join)
TEXT = st.one_of(TRICKY, st.text(st.characters(exclude_categories=["Cs"])))


@settings(max_examples=400, deadline=None)
@given(TEXT, TEXT)
def test_any_string_is_escaped_like_jackson(key: str, sequence: str) -> None:
    message = kcl.ProcessRecords(records=[record(partition_key=key, sequence_number=sequence)], millis_behind_latest=1)
    expected = (
        b'{"action":"processRecords","records":[{"data":"aGk=","partitionKey":'
        + jackson_string(key)
        + b',"sequenceNumber":'
        + jackson_string(sequence)
        + b',"approximateArrivalTimestamp":1476889707000,'
        b'"subSequenceNumber":0,"action":"record"}],"millisBehindLatest":1}\n'
    )
    assert kcl.encode(message) == expected
    assert kcl.decode(expected, direction="to_child") == message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_record_data_is_base64_with_padding_and_no_line_breaks(data: bytes) -> None:
    line = kcl.encode(kcl.ProcessRecords(records=[record(data=data)], millis_behind_latest=None))
    assert line.count(b"\n") == 1
    assert b'"data":"' + base64.b64encode(data) + b'","partitionKey"' in line
    assert kcl.decode(line, direction="to_child").records[0].data == data  # type: ignore[union-attr]


# --------------------------------------------------------------------------- what the child sends

JAVA_CHILD_KEYS = {  # bean properties of StatusMessage / CheckpointMessage, plus the type id
    kcl.Status: {"action", "responseFor"},
    kcl.Checkpoint: {"action", "sequenceNumber", "subSequenceNumber", "error"},
}


@pytest.mark.parametrize(
    ("message", "line"),
    [
        (kcl.Status(response_for="processRecords"), b'{"action":"status","responseFor":"processRecords"}'),
        (kcl.Checkpoint(), b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null}'),
        (
            kcl.Checkpoint(sequence_number=SEQ, sub_sequence_number=2),
            b'{"action":"checkpoint","sequenceNumber":"' + SEQ.encode() + b'","subSequenceNumber":2}',
        ),
        (
            kcl.Checkpoint(sequence_number="1", error="x"),
            b'{"action":"checkpoint","sequenceNumber":"1","subSequenceNumber":null,"error":"x"}',
        ),
    ],
)
def test_child_messages_carry_only_keys_the_daemon_knows(message: kcl.Message, line: bytes) -> None:
    assert kcl.encode(message) == line + b"\n"
    assert set(json.loads(line)) <= JAVA_CHILD_KEYS[type(message)]
    assert kcl.decode(line, direction="to_daemon") == message


def test_the_removed_1x_checkpoint_key_is_never_written() -> None:
    with pytest.raises(kcl.EncodeError) as caught:
        kcl.encode(kcl.Checkpoint(checkpoint="5"))
    assert caught.value.field == "Checkpoint.checkpoint"
    with pytest.raises(kcl.EncodeError):
        kcl.encode(kcl.CheckpointReply(checkpoint=None, error=None))


def test_a_checkpoint_without_position_keys_reads_as_nulls_as_in_java() -> None:
    assert kcl.decode(b'{"action":"checkpoint"}', direction="to_daemon") == kcl.Checkpoint()


# --------------------------------------------------------------------------- key order, versions, directions


def permutations_of(line: bytes) -> list[bytes]:
    value = json.loads(line)
    return [json.dumps(dict(order)).encode() for order in itertools.permutations(value.items())]


@pytest.mark.parametrize(
    "line",
    [
        b'{"action":"initialize","shardId":"s","sequenceNumber":"TRIM_HORIZON","subSequenceNumber":0}',
        b'{"action":"checkpoint","sequenceNumber":"5","subSequenceNumber":null,"error":"ShutdownException"}',
        b'{"action":"shutdown","reason":"ZOMBIE"}',
    ],
)
def test_to_child_decoding_accepts_any_key_order(line: bytes) -> None:
    want = kcl.decode(line, direction="to_child")
    for variant in permutations_of(line):
        assert kcl.decode(variant, direction="to_child") == want


@pytest.mark.parametrize(
    "line",
    [
        b'{"action": "status", "responseFor": "initialize"}',
        b'{"action": "checkpoint", "sequenceNumber": "9", "subSequenceNumber": 3}',
        b'{"action":"checkpoint","sequenceNumber":null,"subSequenceNumber":null,"error":null}',
    ],
)
def test_daemon_side_decoding_accepts_any_key_order(line: bytes) -> None:
    want = kcl.decode(line, direction="to_daemon")
    for variant in permutations_of(line):
        assert kcl.decode(variant, direction="to_daemon") == want


def test_records_decode_in_any_key_order_with_action_anywhere() -> None:
    line = kcl.encode(kcl.ProcessRecords(records=[record(sub_sequence_number=4)], millis_behind_latest=5))
    want = kcl.decode(line)
    rec = json.loads(line)["records"][0]
    for order in itertools.permutations(rec.items()):
        variant = {"millisBehindLatest": 5, "records": [dict(order)], "action": "processRecords"}
        assert kcl.decode(json.dumps(variant), direction="to_child") == want


def test_lines_of_older_daemons_decode_with_defaults() -> None:
    # 1.2.0: record without action/arrival/sub-sequence, initialize with the shard only, checkpoint key
    old = kcl.decode(
        b'{"action":"processRecords","records":[{"data":"aGk=","partitionKey":"p","sequenceNumber":"1"}]}',
        direction="to_child",
    )
    assert old == kcl.ProcessRecords(
        records=[
            kcl.Record(
                data=b"hi",
                partition_key="p",
                sequence_number="1",
                approximate_arrival_timestamp=None,
                sub_sequence_number=None,
            )
        ],
        millis_behind_latest=None,
    )
    assert kcl.decode(b'{"action":"initialize","shardId":"s"}') == kcl.Initialize(shard_id="s")
    reply = kcl.decode(b'{"action":"checkpoint","checkpoint":"456","error":null}', direction="to_child")
    assert isinstance(reply, kcl.CheckpointReply) and reply.checkpoint == "456" and reply.sequence_number is None
    # 2.0.x shutdown reasons
    assert kcl.decode(b'{"action":"shutdown","reason":"SHARD_END"}').reason is kcl.ShutdownReason.SHARD_END  # type: ignore[union-attr]


def test_direction_picks_the_message_a_tag_means() -> None:
    # "checkpoint" is the reply to the child and the request to the daemon
    reply = b'{"action":"checkpoint","sequenceNumber":"1","subSequenceNumber":null,"error":null}'
    assert type(kcl.decode(reply, direction="to_child")) is kcl.CheckpointReply
    assert type(kcl.decode(reply, direction="to_daemon")) is kcl.Checkpoint
    # kclpy's request has no error key: only the request fits without a direction
    assert (
        type(kcl.decode(b'{"action": "checkpoint", "sequenceNumber": "1", "subSequenceNumber": null}'))
        is kcl.Checkpoint
    )
    with pytest.raises(kcl.DecodeError) as caught:
        kcl.decode(b'{"action":"initialize","shardId":"s"}', direction="to_daemon")
    assert caught.value.field == "action"


@pytest.mark.parametrize(
    ("line", "direction", "reason", "offset"),
    [
        (b'{"action":"zz"}', "to_child", "no message matches this action: 'zz' in direction 'to_child'", 10),
        (b'{"action":"zz"}', "to_daemon", "no message matches this action: 'zz' in direction 'to_daemon'", 10),
        (b'{"action":"zz"}', None, "no message matches this action: 'zz'", 10),
        # a tag of the other direction
        (
            b'{"action":"status","responseFor":"x"}',
            "to_child",
            "no message matches this action: 'status' in direction 'to_child'",
            10,
        ),
        (
            b' {"a":1, "action":"initialize"}',
            "to_daemon",
            "no message matches this action: 'initialize' in direction 'to_daemon'",
            18,
        ),
        # the first tag picks the message (as msgspec and Jackson read it): that one is refused
        (
            b'{"action":"zz","action":"shutdown"}',
            "to_child",
            "no message matches this action: 'zz' in direction 'to_child'",
            10,
        ),
    ],
)
def test_an_unknown_tag_or_one_of_the_other_direction_is_refused_in_the_familys_words_at_the_tag(
    line: bytes, direction: str | None, reason: str, offset: int
) -> None:
    # as Storm's (the general path) says it: not msgspec's "Invalid value 'zz'", which names no direction
    with pytest.raises(kcl.DecodeError) as caught:
        kcl.decode(line, direction=direction)
    assert (caught.value.reason, caught.value.offset, caught.value.field) == (reason, offset, "action")
    with pytest.raises(kcl.DecodeError) as read:
        list(kcl.Reader(direction=direction).feed(line + b"\n"))
    assert (read.value.reason, read.value.offset, read.value.field) == (reason, offset, "action")


def test_module_contract() -> None:
    assert kcl.VERSION == "2.1.0" == kcl.VERSIONS[-1]
    assert kcl.DIRECTIONS == ("to_child", "to_daemon")
    assert set(kcl.MESSAGES) == {
        "Initialize",
        "ProcessRecords",
        "LeaseLost",
        "ShardEnded",
        "ShutdownRequested",
        "Shutdown",
        "CheckpointReply",
        "Status",
        "Checkpoint",
    }
    assert issubclass(kcl.DecodeError, ValueError) and issubclass(kcl.EncodeError, ValueError)
    message = kcl.ProcessRecords(records=[record(data=b"\x00")], millis_behind_latest=3)
    plain = message.to_dict()
    assert plain == {
        "records": [
            {
                "data": b"\x00",
                "partition_key": "pk",
                "sequence_number": "4959",
                "approximate_arrival_timestamp": 1476889707000,
                "sub_sequence_number": 0,
                "action": "record",
            }
        ],
        "millis_behind_latest": 3,
    }
    assert kcl.ProcessRecords.from_dict(plain) == message
    for message, _ in JAVA_LINES:
        assert kcl.decode(kcl.encode(message)) == message
        assert type(message).from_dict(message.to_dict()) == message


# --------------------------------------------------------------------------- the Reader


def test_reader_skips_blank_lines_and_handles_crlf_and_any_cut() -> None:
    lines = [kcl.encode(m) for m, _ in JAVA_LINES[:6]]
    stream = b"\n" + b"\r\n".join(line.rstrip(b"\n") for line in lines) + b"\r\n \t\n\n"
    want = [m for m, _ in JAVA_LINES[:6]]
    assert kcl.Reader(direction="to_child").feed(stream) == want
    for cut in range(len(stream) + 1):
        reader = kcl.Reader(direction="to_child")
        assert reader.feed(stream[:cut]) + reader.feed(stream[cut:]) == want
    bytewise = kcl.Reader(direction="to_child")
    assert [m for i in range(len(stream)) for m in bytewise.feed(stream[i : i + 1])] == want


def test_reader_reads_kclpy_framing() -> None:
    stream = (
        b'\n{"action": "status", "responseFor": "initialize"}\n\n{"action": "checkpoint", '
        b'"sequenceNumber": null, "subSequenceNumber": null}\n'
    )
    assert kcl.Reader(direction="to_daemon").feed(stream) == [kcl.Status(response_for="initialize"), kcl.Checkpoint()]


def test_reader_reports_the_line_and_goes_on_after_a_bad_one() -> None:
    reader = kcl.Reader(direction="to_child")
    good = kcl.encode(kcl.LeaseLost())
    with pytest.raises(kcl.DecodeError) as caught:
        reader.feed(good + b"\n" + b'{"action":"initialize"}\n' + good)
    assert caught.value.line == 3 and caught.value.field == "shardId"
    assert caught.value.decoded == [kcl.LeaseLost()]
    assert "line 3" in str(caught.value) and "shardId" in str(caught.value)
    assert reader.feed(b"") == [kcl.LeaseLost()]


def test_reader_limits_line_length() -> None:
    reader = kcl.Reader(direction="to_child", max_message=64)
    with pytest.raises(kcl.DecodeError) as caught:
        reader.feed(b'{"action":"initialize","shardId":"' + b"x" * 100 + b'"}\n')
    assert caught.value.line == 1
    assert reader.feed(kcl.encode(kcl.ShardEnded())) == [kcl.ShardEnded()]


# --------------------------------------------------------------------------- errors

BAD_LINES = [  # (line, direction, field the error must name; None where there is no field, e.g. bad JSON)
    (b'{"action":"initialize","shardId":"s"', "to_child", None),
    (b"not json", "to_child", None),
    (b'{"action":"initialize","shardId":"s"} trailing', "to_child", None),
    (b'\xff{"action":"leaseLost"}', "to_child", None),
    (b'{"action":"initialize","shardId":"\xc3"}', "to_child", None),
    (b'{"action":"explode"}', "to_child", "action"),
    (b'{"action":7}', "to_child", "action"),
    (b'{"shardId":"s"}', "to_child", "action"),
    (b'["initialize"]', "to_child", None),
    (b'{"action":"initialize"}', "to_child", "shardId"),
    (b'{"action":"initialize","shardId":7}', "to_child", "shardId"),
    (b'{"action":"initialize","shardId":"s","subSequenceNumber":"7"}', "to_child", "subSequenceNumber"),
    (b'{"action":"initialize","shardId":"s","subSequenceNumber":1.5}', "to_child", "subSequenceNumber"),
    (b'{"action":"initialize","shardId":"s","subSequenceNumber":9223372036854775808}', "to_child", "subSequenceNumber"),
    (b'{"action":"processRecords","records":null}', "to_child", "records"),
    (b'{"action":"processRecords","millisBehindLatest":0}', "to_child", "records"),
    (
        b'{"action":"processRecords","records":[{"data":"aGk=","sequenceNumber":"1"}]}',
        "to_child",
        "records[0].partitionKey",
    ),
    (
        b'{"action":"processRecords","records":[{"data":"aGk=","partitionKey":"p","sequenceNumber":"1"},'
        b'{"data":"aGk","partitionKey":"p","sequenceNumber":"2"}]}',
        "to_child",
        "records[1].data",
    ),
    (
        b'{"action":"processRecords","records":[{"data":"aG\\nk=","partitionKey":"p","sequenceNumber":"1"}]}',
        "to_child",
        "records[0].data",
    ),
    (
        b'{"action":"processRecords","records":[{"data":"a!==","partitionKey":"p","sequenceNumber":"1"}]}',
        "to_child",
        "records[0].data",
    ),
    (
        b'{"action":"processRecords","records":[{"data":5,"partitionKey":"p","sequenceNumber":"1"}]}',
        "to_child",
        "records[0].data",
    ),
    (
        b'{"action":"processRecords","records":[{"data":"","partitionKey":"p","sequenceNumber":"1",'
        b'"action":"recorded"}]}',
        "to_child",
        "records[0].action",
    ),
    (b'{"action":"shutdown","reason":"REQUESTED"}', "to_child", "reason"),
    (b'{"action":"checkpoint","sequenceNumber":"1","subSequenceNumber":null}', "to_child", "error"),
    # Jackson would coerce these; the codec does not
    (b'{"action":"checkpoint","sequenceNumber":123,"subSequenceNumber":null}', "to_daemon", "sequenceNumber"),
    (b'{"action":"checkpoint","sequenceNumber":"1","subSequenceNumber":"7"}', "to_daemon", "subSequenceNumber"),
    (b'{"action":"status"}', "to_daemon", "responseFor"),
    (b'{"action":"status","responseFor":null}', "to_daemon", "responseFor"),
    (b'{"action":"processRecords","records":[]}', "to_daemon", "action"),
]


@pytest.mark.parametrize(("line", "direction", "field"), BAD_LINES)
def test_bad_lines_raise_decode_error_naming_line_and_field(line: bytes, direction: str, field: str | None) -> None:
    with pytest.raises(kcl.DecodeError) as caught:
        kcl.decode(line, direction=direction)
    assert caught.value.field == field
    reader = kcl.Reader(direction=direction)
    with pytest.raises(kcl.DecodeError) as caught:
        first = kcl.encode(kcl.ShardEnded() if direction == "to_child" else kcl.Checkpoint())
        reader.feed(b"\n" + first + line + b"\n")
    assert caught.value.line == 3 and caught.value.field == field
    if field:
        assert f"field {field}" in str(caught.value)
    assert "line 3" in str(caught.value)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from([line for _, line in JAVA_LINES]), st.data())
def test_mangled_lines_give_a_message_or_decode_error_only(line: bytes, data: st.DataObject) -> None:
    position = data.draw(st.integers(0, len(line)))
    junk = data.draw(st.binary(max_size=4))
    mangled = line[:position] + junk + line[position + data.draw(st.integers(0, 3)) :]
    for direction in (None, "to_child", "to_daemon"):
        try:
            kcl.decode(mangled, direction=direction)
        except kcl.DecodeError:
            pass


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (kcl.Initialize(shard_id=7), "Initialize.shardId"),  # type: ignore[arg-type]
        (kcl.Initialize(shard_id="s", sub_sequence_number=LONG_MAX + 1), "Initialize.subSequenceNumber"),
        (
            kcl.ProcessRecords(records=[record(approximate_arrival_timestamp="5")], millis_behind_latest=0),
            "ProcessRecords.records[0].approximateArrivalTimestamp",
        ),
        (kcl.Status(response_for="\ud800"), "Status.responseFor"),  # a lone surrogate, named by the check
    ],
)
def test_values_the_wire_cannot_carry_raise_encode_error(message: kcl.Message, field: str) -> None:
    with pytest.raises(kcl.EncodeError) as caught:
        kcl.encode(message)
    assert caught.value.field == field
