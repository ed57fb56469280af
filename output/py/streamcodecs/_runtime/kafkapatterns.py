# Copied from streamcodecs_gen/py_package/_runtime/kafkapatterns.py by ./generator.py; edit that file, not this copy.
"""The Kafka family's text grammars: the regular expressions its wire types' text forms are checked with.

Control characters and noncharacters (every string), RFC 3986 URI and URI-reference (Appendix A; IPv4address is
covered by reg-name), RFC 2045 media types with RFC 7231 whitespace and quoted strings, canonical integers, JSON
number syntax (floats in headers), UUIDs, padded base64 (RFC 4648 section 4) and RFC 3339 timestamps.  Each
``*_MATCH`` is a compiled pattern's ``fullmatch`` (a ``$`` anchor would let a trailing newline through);
``kafkawire`` applies them and the Java codec applies the same patterns.
"""

from __future__ import annotations

import re

__all__ = [
    "BASE64_MATCH",
    "CANONICAL_INT",
    "FORBIDDEN",
    "JSON_NUMBER",
    "MEDIA_TYPE_MATCH",
    "PARAMETER",
    "SIMPLE_REFERENCE",
    "SIMPLE_URI",
    "TIMESTAMP_MATCH",
    "URI_MATCH",
    "URI_REFERENCE_MATCH",
    "UUID_MATCH",
]

# --- text -------------------------------------------------------------------------------------------------------

_PLANE_ENDS = "".join(rf"\U{plane:04X}FFFE\U{plane:04X}FFFF" for plane in range(1, 17))
FORBIDDEN = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff" + _PLANE_ENDS + "]")
"""Control characters (C0, DEL, C1), surrogates and the 66 Unicode noncharacters: no string may hold them."""

# --- RFC 3986 URI and URI-reference (Appendix A; IPv4address is covered by reg-name) ------------------------------

_HEX = r"[0-9A-Fa-f]"
_PCT = rf"%{_HEX}{_HEX}"
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCHAR = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:@]|{_PCT})"
_SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*"
_USERINFO = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:]|{_PCT})*"
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
_HOST = rf"(?:{_IP_LITERAL}|(?:[{_UNRESERVED}{_SUB_DELIMS}]|{_PCT})*)"
_AUTHORITY = rf"(?:{_USERINFO}@)?{_HOST}(?::[0-9]*)?"
_PATH_ABEMPTY = rf"(?:/{_PCHAR}*)*"
_PATH_ABSOLUTE = rf"/(?:{_PCHAR}+(?:/{_PCHAR}*)*)?"
_PATH_NOSCHEME = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}@]|{_PCT})+(?:/{_PCHAR}*)*"
_PATH_ROOTLESS = rf"{_PCHAR}+(?:/{_PCHAR}*)*"
_QUERY_OR_FRAGMENT = rf"(?:{_PCHAR}|[/?])*"
_ABSOLUTE_URI = (
    rf"{_SCHEME}:(?://{_AUTHORITY}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_ROOTLESS}|)(?:\?{_QUERY_OR_FRAGMENT})?"
)
_URI = rf"{_ABSOLUTE_URI}(?:#{_QUERY_OR_FRAGMENT})?"
_RELATIVE_REF = (
    rf"(?://{_AUTHORITY}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_NOSCHEME}|)"
    rf"(?:\?{_QUERY_OR_FRAGMENT})?(?:#{_QUERY_OR_FRAGMENT})?"
)
URI_MATCH = re.compile(_URI).fullmatch
URI_REFERENCE_MATCH = re.compile(rf"(?:{_URI}|{_RELATIVE_REF})").fullmatch
# Most references are plain paths or http(s) URLs; these simpler patterns accept only valid ones, so the full
# grammar runs only for the rest.
_SIMPLE_URI_TEXT = r"[A-Za-z][A-Za-z0-9+\-.]*://[A-Za-z0-9\-._~]*(?::[0-9]*)?(?:/[A-Za-z0-9\-._~]*)*"
SIMPLE_URI = re.compile(_SIMPLE_URI_TEXT).fullmatch
SIMPLE_REFERENCE = re.compile(rf"{_SIMPLE_URI_TEXT}|[A-Za-z0-9\-._~/]*").fullmatch

# --- media types (RFC 2045 section 5.1 tokens, RFC 7231 section 3.1.1.1 whitespace and quoted strings) -------------

_TOKEN = r"[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+"
_QUOTED = r'"(?:[\t !#-\[\]-~\x80-\xff]|\\[\t -~\x80-\xff])*"'
MEDIA_TYPE_MATCH = re.compile(rf"{_TOKEN}/{_TOKEN}(?:[ \t]*;[ \t]*{_TOKEN}=(?:{_TOKEN}|{_QUOTED}))*").fullmatch
PARAMETER = re.compile(rf"[ \t]*;[ \t]*({_TOKEN})=({_TOKEN}|{_QUOTED})")

# --- canonical integers, JSON numbers, UUID, base64, RFC 3339 timestamps ----------------------------------------

CANONICAL_INT = re.compile(r"-?(?:0|[1-9][0-9]*)").fullmatch
JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?").fullmatch
UUID_MATCH = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}").fullmatch
BASE64_MATCH = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?").fullmatch
TIMESTAMP_MATCH = re.compile(
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"(?:\.[0-9]{1,9})?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
).fullmatch
