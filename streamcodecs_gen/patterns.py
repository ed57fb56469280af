"""The Kafka family's text grammars, written once: the regular expressions its wire types' text forms are checked with.

Control characters and noncharacters (every string), RFC 3986 URI and URI-reference (Appendix A; IPv4address is
covered by reg-name), RFC 2045 media types with RFC 7231 whitespace and quoted strings, canonical integers, JSON
number syntax (floats in headers), UUIDs, padded base64 (RFC 4648 section 4) and RFC 3339 timestamps.

Each is rendered once per run into the Python runtime's ``_runtime/kafkapatterns.py``
(``templates/py/runtime/kafkapatterns.py.j2``) and handed to the Java codec's ``KafkaWire`` constructor
(``analysis/kafka.py``, ``templates/java/kafka/Codec.java.j2``), so both runtimes apply the same pattern. They are
written in the syntax both regex engines read alike; the one difference, Python's ``\\UXXXXXXXX`` escape, is
rewritten for Java (:func:`java_regex`). Every pattern but ``PARAMETER`` and ``FORBIDDEN`` is applied whole
(``fullmatch``: a ``$`` anchor would let a trailing newline through).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from types import ModuleType

# --- RFC 3986 URI and URI-reference (Appendix A; IPv4address is covered by reg-name) ------------------------------
# Every repetition of a group is possessive (``*+``, ``++``): what each repeats cannot begin what follows it, so no
# match needs one given back, and Java's Pattern, which recurses once per repetition of a group it may backtrack
# into, would throw StackOverflowError on a few thousand of them (a URI of 3,000 ``!``, a long quoted parameter).

_HEX = r"[0-9A-Fa-f]"
_PCT = rf"%{_HEX}{_HEX}"
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCHAR = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:@]|{_PCT})"
_SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*"
_USERINFO = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:]|{_PCT})*+"
_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_IPV4 = rf"{_DEC_OCTET}\.{_DEC_OCTET}\.{_DEC_OCTET}\.{_DEC_OCTET}"
_H16 = rf"{_HEX}{{1,4}}"
_LS32 = rf"(?:{_H16}:{_H16}|{_IPV4})"
_IPV6 = (
    "(?:"
    rf"(?:{_H16}:){{6}}{_LS32}"
    rf"|::(?:{_H16}:){{5}}{_LS32}"
    rf"|(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}"
    rf"|(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}"
    rf"|(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}"
    rf"|(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}"
    rf"|(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}"
    rf"|(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}"
    rf"|(?:(?:{_H16}:){{0,6}}{_H16})?::"
    ")"
)
_IP_LITERAL = rf"\[(?:{_IPV6}|v{_HEX}+\.[{_UNRESERVED}{_SUB_DELIMS}:]+)\]"
_HOST = rf"(?:{_IP_LITERAL}|(?:[{_UNRESERVED}{_SUB_DELIMS}]|{_PCT})*+)"
_AUTHORITY = rf"(?:{_USERINFO}@)?{_HOST}(?::[0-9]*)?"
_PATH_ABEMPTY = rf"(?:/{_PCHAR}*+)*+"
_PATH_ABSOLUTE = rf"/(?:{_PCHAR}++(?:/{_PCHAR}*+)*+)?"
_PATH_NOSCHEME = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}@]|{_PCT})++(?:/{_PCHAR}*+)*+"
_PATH_ROOTLESS = rf"{_PCHAR}++(?:/{_PCHAR}*+)*+"
_QUERY_OR_FRAGMENT = rf"(?:{_PCHAR}|[/?])*+"
_ABSOLUTE_URI = (
    rf"{_SCHEME}:(?://{_AUTHORITY}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_ROOTLESS}|)(?:\?{_QUERY_OR_FRAGMENT})?"
)
_URI = rf"{_ABSOLUTE_URI}(?:#{_QUERY_OR_FRAGMENT})?"
_RELATIVE_REF = (
    rf"(?://{_AUTHORITY}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_NOSCHEME}|)"
    rf"(?:\?{_QUERY_OR_FRAGMENT})?(?:#{_QUERY_OR_FRAGMENT})?"
)
_SIMPLE_URI = r"[A-Za-z][A-Za-z0-9+\-.]*://[A-Za-z0-9\-._~]*(?::[0-9]*)?(?:/[A-Za-z0-9\-._~]*+)*+"

# --- media types (RFC 2045 section 5.1 tokens, RFC 7231 section 3.1.1.1 whitespace and quoted strings) -------------

_TOKEN = r"[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+"
_QUOTED = r'"(?:[\t !#-\[\]-~\x80-\xff]|\\[\t -~\x80-\xff])*+"'

# --- control characters, surrogates and noncharacters ------------------------------------------------------------

_PLANE_ENDS = "".join(rf"\U{plane:04X}FFFE\U{plane:04X}FFFF" for plane in range(1, 17))


@dataclass(frozen=True)
class TextPattern:
    """One pattern: its name in the Python runtime (``kafkapatterns.NAME``), the name of the ``KafkaWire``
    constructor's argument that takes it (None: the Java codec does not use it), the regular expression and how the
    Python runtime applies it (``fullmatch``: the name is the compiled pattern's ``fullmatch``; else the compiled
    pattern, for ``search``/``finditer``)."""

    name: str
    java: str | None
    regex: str
    doc: str
    whole: bool = True

    @property
    def python_pieces(self) -> list[str]:
        """The pattern as Python string literals, one a line, whose concatenation is it."""
        return python_literal(self.regex)

    def compiled(self) -> object:
        """What ``kafkapatterns.NAME`` holds."""
        pattern = re.compile(self.regex)
        return pattern.fullmatch if self.whole else pattern


PATTERNS: tuple[TextPattern, ...] = (
    TextPattern(
        "FORBIDDEN",
        "forbidden",
        r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff" + _PLANE_ENDS + "]",
        "Control characters (C0, DEL, C1), surrogates and the 66 Unicode noncharacters: no string may hold them.",
        whole=False,
    ),
    TextPattern(
        "SIMPLE_URI",
        "simpleUri",
        _SIMPLE_URI,
        "A plain http(s)-like URL: valid URIs only, so the full grammar runs only for the rest.",
    ),
    TextPattern("URI_MATCH", "uri", _URI, "An absolute URI with an optional fragment (RFC 3986 section 4.3 and 3.5)."),
    TextPattern(
        "SIMPLE_REFERENCE",
        "simpleReference",
        rf"{_SIMPLE_URI}|[A-Za-z0-9\-._~/]*",
        "A plain URL or path: valid URI-references only, so the full grammar runs only for the rest.",
    ),
    TextPattern(
        "URI_REFERENCE_MATCH",
        "uriReference",
        rf"(?:{_URI}|{_RELATIVE_REF})",
        "A URI or a relative reference (RFC 3986 section 4.1).",
    ),
    TextPattern(
        "MEDIA_TYPE_MATCH",
        "mediaType",
        rf"{_TOKEN}/{_TOKEN}(?:[ \t]*;[ \t]*{_TOKEN}=(?:{_TOKEN}|{_QUOTED}))*+",
        "type/subtype, then ;name=value parameters (a token or a quoted string).",
    ),
    TextPattern(
        "PARAMETER",
        "parameter",
        rf"[ \t]*;[ \t]*({_TOKEN})=({_TOKEN}|{_QUOTED})",
        "One parameter of a media type: its name and its value (a token or a quoted string), in groups 1 and 2.",
        whole=False,
    ),
    TextPattern(
        "TIMESTAMP_MATCH",
        "timestamp",
        r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
        r"(?:\.[0-9]{1,9})?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])",
        "An RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS, an optional fraction of up to 9 digits, then Z or +hh:mm.",
    ),
    TextPattern(
        "BASE64_MATCH",
        "base64",
        r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?",
        "Base64 of RFC 4648 section 4: the standard alphabet, padded, no whitespace.",
    ),
    TextPattern(
        "JSON_NUMBER",
        "number",
        r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?",
        "A number in JSON's syntax (RFC 8259 section 6): a float's text in a header.",
    ),
    TextPattern(
        "UUID_MATCH",
        "uuid",
        r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
        "A UUID: 8-4-4-4-12 hex digits, either case.",
    ),
    TextPattern(
        "CANONICAL_INT",
        "canonicalInteger",
        r"-?(?:0|[1-9][0-9]*)",
        "An integer in canonical form: -?digits, no leading zeros or +.",
    ),
)
"""Every pattern, in the order the Python module lists them and ``KafkaWire``'s constructor takes them."""

BY_NAME = {pattern.name: pattern for pattern in PATTERNS}
assert len(BY_NAME) == len(PATTERNS), "a pattern name is used twice"


def java_regex(regex: str) -> str:
    """``regex`` as Java's ``Pattern`` reads it: Python's ``\\UXXXXXXXX`` escape becomes ``\\x{X...}``."""
    return re.sub(r"\\U([0-9A-Fa-f]{8})", lambda m: "\\x{" + format(int(m.group(1), 16), "X") + "}", regex)


def java_patterns() -> dict[str, str]:
    """The ``KafkaWire`` constructor's arguments, by name and in its order: the Java form of each pattern."""
    return {p.java: java_regex(p.regex) for p in PATTERNS if p.java is not None}


def python_literal(regex: str, width: int = 96) -> list[str]:
    """Python string literals whose concatenation is ``regex``: raw where the text allows (a piece ends before a
    second kind of quote), each of at most ``width`` characters of text, and no escape split."""
    pieces: list[str] = []
    piece = ""
    for token in _TOKENS.findall(regex):
        quotes = {q for q in "'\"" if q in piece + token}
        if piece and (len(piece) + len(token) > width or len(quotes) > 1):
            pieces.append(piece)
            piece = ""
        piece += token
    pieces.append(piece)
    return [_literal(piece) for piece in pieces]


_TOKENS = re.compile(r"\\U[0-9A-Fa-f]{8}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|\\.|.", re.S)


def _literal(text: str) -> str:
    printable = text.isascii() and text.isprintable()
    for quote in ('"', "'"):
        if printable and quote not in text and not text.endswith("\\"):
            return f"r{quote}{text}{quote}"
    return repr(text)


def patterns_at_source() -> ModuleType:
    """The rendered ``_runtime/kafkapatterns`` beside the hand-written runtime at its source
    (``py_package/_runtime``), so that ``kafkawire`` imports there too: the same compiled patterns the template
    renders, once per process."""
    name = "streamcodecs_gen.py_package._runtime.kafkapatterns"
    if name not in sys.modules:
        module = ModuleType(name, "The Kafka family's text grammars (rendered into the package as kafkapatterns.py).")
        for pattern in PATTERNS:
            setattr(module, pattern.name, pattern.compiled())
        module.__all__ = [pattern.name for pattern in PATTERNS]  # type: ignore[attr-defined]
        sys.modules[name] = module
    return sys.modules[name]
