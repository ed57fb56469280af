"""The kafka family's runtime (streamcodecs._runtime.kafkawire): validators and canonical string encodings.

Cases come from the RFCs (3986 Appendix A and section 1.1.2 examples, 3339 section 5.6/5.8, 4648 section 4, 2045
section 5.1) and the CloudEvents type system.  The shortcuts the runtime takes for speed (simple URI patterns,
remembered valid values, the printable-string test) are checked to give the same answers as the full rules.
"""

from __future__ import annotations

import datetime
import math
import re
import uuid
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamcodecs._runtime import kafkapatterns as kp
from streamcodecs._runtime import kafkarules as kr
from streamcodecs._runtime import kafkawire as kw

from streamcodecs_gen.analysis.runtime import python_kafka_codec
from streamcodecs_gen.types import WIRE_TYPES

URI_ALPHABET = "abcAZ09-._~:/?#[]@!$&'()*+,;=%" + "fF" + ' \\<>"{}|^`é'


def accepts(check, text: str) -> bool:
    try:
        check(text)
    except kw.Invalid:
        return False
    return True


@pytest.mark.parametrize(
    "text",
    [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        "http://[v7.fe:x]/",
        "http://[::ffff:192.0.2.1]/",
        "http://u:p@h:8080/p?q#f",
        "s:",
        "http://h/%7Euser",
        "x:/a//b",
    ],
)
def test_uri_examples(text: str) -> None:
    assert accepts(kw.uri_from_text, text) and accepts(kw.uri_reference_from_text, text)


@pytest.mark.parametrize(
    "text",
    [
        "//example.org/scheme-relative/URI/with/absolute/path/to/resource.txt",
        "/relative/URI/with/absolute/path",
        "relative/path/to/resource.txt",
        "../../../resource.txt",
        "./resource.txt#frag01",
        "resource.txt",
        "#frag01",
        "",
        "?query",
        "//[::1]:8080",
        "a@b",
    ],
)
def test_relative_references(text: str) -> None:
    assert accepts(kw.uri_reference_from_text, text)
    assert not accepts(kw.uri_from_text, text)


@pytest.mark.parametrize(
    "text",
    [
        "http://[::1",
        "http://[:::1]/",
        "http://[1:2:3:4:5:6:7:8:9]/",
        "http://h:8a/",
        "1http://x",
        "a b",
        "%",
        "%g0",
        "http://h/<>",
        "http://h/\\",
        "http://h/é",
        "x:[",
        ":x",
        "//h/p?q#f#g",
        "http://h:80abc",
        "abc\n",
    ],
)
def test_not_uri_references(text: str) -> None:
    assert not accepts(kw.uri_reference_from_text, text)
    assert not accepts(kw.uri_from_text, text)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=URI_ALPHABET, max_size=24))
def test_uri_shortcuts_agree_with_the_grammar(text: str) -> None:
    # Whatever the simple patterns accept, the RFC 3986 grammar accepts too (the shortcut never widens the rule).
    if kp.SIMPLE_URI(text):
        assert kp.URI_MATCH(text)
    if kp.SIMPLE_REFERENCE(text):
        assert kp.URI_REFERENCE_MATCH(text)
    assert accepts(kw.uri_reference_from_text, text) == bool(kp.URI_REFERENCE_MATCH(text))
    assert accepts(kw.uri_from_text, text) == bool(kp.URI_MATCH(text))


def test_remembered_values_are_bounded_and_only_valid() -> None:
    kw.VALID_URI_REFERENCE.clear()
    assert not accepts(kw.uri_reference_from_text, "a b")
    assert "a b" not in kw.VALID_URI_REFERENCE
    kw.uri_reference_from_text("/ok")
    assert "/ok" in kw.VALID_URI_REFERENCE
    for i in range(kr._REMEMBER + 10):
        kw.uri_reference_from_text(f"/p/{i}")
    assert len(kw.VALID_URI_REFERENCE) == kr._REMEMBER
    kw.uri_reference_from_text("/x" * kr._REMEMBER_LENGTH)
    kw.VALID_URI_REFERENCE.clear()
    kw.uri_reference_from_text("/y" * kr._REMEMBER_LENGTH)
    assert not kw.VALID_URI_REFERENCE  # too long to keep
    with pytest.raises(kw.Invalid, match="must be a str"):
        kw.uri_reference_to_text(["/ok"])


def test_forbidden_string_characters() -> None:
    forbidden = [c for c in range(0x110000) if not accepts(kw.check_text, chr(c))]
    assert len(forbidden) == 2179
    assert forbidden[:3] == [0, 1, 2] and 0x7F in forbidden and 0x9F in forbidden and 0xA0 not in forbidden
    assert 0xD800 in forbidden and 0xFDEF in forbidden and 0x1FFFE in forbidden and 0x10FFFF in forbidden
    assert 0xFDF0 not in forbidden and 0x1FFFD not in forbidden and 0x200B not in forbidden and 0xE000 not in forbidden
    assert "U+000A" in str(pytest.raises(kw.Invalid, kw.string_to_text, "a\nb").value)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("application/json", True),
        ("text/plain; charset=utf-8", True),
        ('text/plain ;charset="a \\" b"', True),
        ("a/b;c=d;e=f", True),
        ("application/vnd.api+json", True),
        ("*/*", True),
        ("json", False),
        ("a/b;", False),
        ("a/b; c", False),
        ("a /b", False),
        ("a/b c", False),
        ('a/b; c="d', False),
        ("", False),
        ("a/b\n", False),
        ("té/xt", False),
    ],
)
def test_media_types(text: str, ok: bool) -> None:
    assert accepts(kw.media_type_from_text, text) == ok


def test_media_type_parts() -> None:
    assert kw.media_type_essence(" Text/Plain ; charset=UTF-8") == "text/plain"
    assert kw.media_type_parameter('text/plain; Charset="UTF-8"', "charset") == "UTF-8"
    assert kw.media_type_parameter("text/plain; a=1; charset=us-ascii", "charset") == "us-ascii"
    assert kw.media_type_parameter("text/plain", "charset") is None
    is_json = kw.JsonMediaTypes(["json"], ["+json"])
    for text, expected in [
        ("application/json", True),
        ("Application/JSON; charset=utf-8", True),
        ("model/gltf+json", True),
        ("application/vnd.api+json", True),
        ("text/json", True),
        ("application/+json", False),
        ("application/json-seq", False),
        ("text/plain", False),
        ("application/jsonx", False),
    ]:
        assert is_json(text) is expected, text
        assert is_json.cached(text) is expected
    # Answers are remembered for the first 1024 media types met; later ones are decided each time, as rightly.
    for i in range(1100):
        assert is_json.cached(f"application/x{i}+json") is True and is_json(f"text/x{i}") is False
    assert is_json.cached("application/x1099+json") is True and is_json.cached("text/x1099; a=b") is False


def _made(name: str) -> SimpleNamespace:
    """The four conversions of an integer or float type as the generated codec binds them: the runtime call the
    analysis renders for the type's record (``int_codec(-128, 127)``), evaluated."""
    call = python_kafka_codec(WIRE_TYPES[name])
    assert call is not None, name
    made = eval(call, dict(vars(kw)))
    return SimpleNamespace(**dict(zip(("from_text", "from_json", "to_text", "to_json"), made, strict=True)))


INT8, INT32, INT64, FLOAT32, FLOAT64 = map(_made, ("int8", "int32", "int64", "float32", "float64"))


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("-0", 0), ("2147483647", 2**31 - 1), ("-2147483648", -(2**31)), ("42", 42)],
)
def test_canonical_integers(text: str, value: int) -> None:
    assert INT32.from_text(text) == value


@pytest.mark.parametrize("text", ["+1", "01", "1.0", " 1", "1 ", "2147483648", "-2147483649", "", "1_000", "١"])
def test_not_canonical_integers(text: str) -> None:
    with pytest.raises(kw.Invalid):
        INT32.from_text(text)


def test_integers_booleans_and_json_types() -> None:
    assert INT8.to_text(-128) == "-128" and INT64.from_json(2**63 - 1) == 2**63 - 1
    for bad in (True, 1.0, "1", 2**31):
        with pytest.raises(kw.Invalid):
            INT32.to_json(bad)
    assert kw.bool_from_text("true") is True and kw.bool_from_text("false") is False
    for bad in ("True", "1", "TRUE", ""):
        with pytest.raises(kw.Invalid):
            kw.bool_from_text(bad)
    assert kw.bool_to_text(False) == "false"
    with pytest.raises(kw.Invalid):
        kw.bool_to_text(1)
    assert kw.attribute_value_to_text(True) == "true" and kw.attribute_value_to_json(True) is True
    assert kw.attribute_value_to_json(7) == 7 and kw.attribute_value_to_json(b"\x00") == "AA=="
    assert kw.json_kind(None) == "null" and kw.json_kind(1.5) == "a number" and kw.json_kind({}) == "an object"


@pytest.mark.parametrize(
    ("text", "value"),
    [("", b""), ("YQ==", b"a"), ("YWI=", b"ab"), ("YWJj", b"abc"), ("YWJ=", b"ab"), ("+/+/", b"\xfb\xff\xbf")],
)
def test_base64(text: str, value: bytes) -> None:
    assert kw.base64_from_text(text) == value


@pytest.mark.parametrize("text", ["YQ", "YQ=", "YWI", "Y WI=", "YWI=\n", "-_-_", "YQ==YQ==", "====", "Y*WI="])
def test_not_base64(text: str) -> None:
    with pytest.raises(kw.Invalid, match="not base64"):
        kw.base64_from_text(text)


def test_timestamp_parts() -> None:
    aware = datetime.datetime(
        2018, 4, 5, 3, 56, 24, 7, tzinfo=datetime.timezone(datetime.timedelta(hours=-3, minutes=-30))
    )
    assert kw.timestamp_to_text(aware) == "2018-04-05T03:56:24.000007-03:30"
    assert kw.timestamp_from_text(kw.timestamp_to_text(aware)) == aware

    class Subclass(datetime.datetime):
        def isoformat(self, *args, **kwargs):  # a subclass writing its own way is not consulted
            return "nonsense"

    assert kw.timestamp_to_text(Subclass(2018, 4, 5, tzinfo=datetime.UTC)) == "2018-04-05T00:00:00Z"
    with pytest.raises(kw.Invalid, match="timezone-aware"):
        kw.timestamp_to_text(datetime.datetime(2018, 4, 5))


@settings(max_examples=500, deadline=None)
@given(
    st.datetimes(
        min_value=datetime.datetime(1, 1, 2),
        max_value=datetime.datetime(9999, 12, 30),
        timezones=st.sampled_from(
            [
                datetime.UTC,
                datetime.timezone(datetime.timedelta(minutes=-719)),
                datetime.timezone(datetime.timedelta(hours=14)),
            ]
        ),
    )
)
def test_timestamps_round_trip(value: datetime.datetime) -> None:
    text = kw.timestamp_to_text(value)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?(Z|[+-]\d\d:\d\d)", text)
    assert kw.timestamp_from_text(text) == value
    assert kw.timestamp_from_json(text) == value
    expected = value.isoformat()
    assert text == (expected[:-6] + "Z" if expected.endswith("+00:00") else expected)


def test_other_wire_types() -> None:
    assert FLOAT64.from_text("-1.5e3") == -1500.0 and FLOAT64.to_text(0.1) == "0.1"
    for bad in ("NaN", "1.", ".5", "inf"):
        with pytest.raises(kw.Invalid):
            FLOAT64.from_text(bad)
    with pytest.raises(kw.Invalid):
        FLOAT32.to_json(1e39)
    with pytest.raises(kw.Invalid):
        FLOAT64.to_json(math.nan)
    u = uuid.UUID(int=12345)
    assert kw.uuid_from_text(str(u).upper()) == u and kw.uuid_to_text(u) == str(u)
    with pytest.raises(kw.Invalid):
        kw.uuid_from_text("{" + str(u) + "}")
    assert kw.any_from_text('{"a":[1]}') == {"a": [1]} and kw.any_to_text({"a": [1]}) == '{"a":[1]}'
    with pytest.raises(kw.Invalid, match="NaN"):
        kw.any_to_json([math.nan])


def test_json_helpers() -> None:
    assert kw.json_encode({"a": None}, {"a": None}) == b'{"a":null}'
    with pytest.raises(kw.Invalid, match="NaN"):
        kw.json_encode({"a": {"b": [math.inf]}}, {"a": {"b": [math.inf]}})
    with pytest.raises(kw.Invalid, match="cannot be written as JSON"):
        kw.json_encode({"a": object()}, None)
    with pytest.raises(kw.Invalid) as info:
        kw.json_decode(b'{"a": tru}')
    assert info.value.offset is not None and 6 <= info.value.offset <= 10
    assert str(info.value) == "malformed JSON: invalid character"
    with pytest.raises(kw.Invalid, match="not UTF-8"):
        kw.json_decode(b'"\xff"')
    with pytest.raises(kw.Invalid, match="nested too deeply|malformed"):
        kw.json_decode(b"[" * 100000)


def test_ascii_lower() -> None:
    assert kw.ascii_lower("CE_ID") == "ce_id"
    assert kw.ascii_lower("CE_\u212a") == "ce_\u212a"  # the Kelvin sign is not K
    assert kw.ascii_lower("ÄB") == "Äb"
