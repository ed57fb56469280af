"""The typed path of a MessagePack framing (:func:`streamcodecs._runtime.jsonpaths.typed_packed`): a protocol whose
every direction is a union of tagged messages reads a MessagePack value in one msgspec pass, as its JSON text. No
shipped protocol has both, so KCL's definition with a MessagePack variant stands for one here."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from streamcodecs_gen.cli import main as generate

REPO = Path(__file__).resolve().parent.parent
VARIANT = """  variants:
    - name: msgpack
      encoding: msgpack
      doc: The same messages as MessagePack values, back to back.
"""


@pytest.fixture(scope="module")
def packed_kcl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    root = tmp_path_factory.mktemp("packedkcl")
    defs = root / "defs"
    defs.mkdir()
    text = (REPO / "protocol-definitions" / "kcl.yaml").read_text(encoding="utf-8")
    assert "\n  tag_key: action\n" in text
    text = text.replace("\n  tag_key: action\n", "\n  tag_key: action\n" + VARIANT, 1)
    (defs / "kcl.yaml").write_text(text, encoding="utf-8")
    out = root / "out"
    assert generate(["-p", str(defs), "-r", str(out), "-n", "packedkcl", "--no-binary", "-q"]) == 0
    sys.path.insert(0, str(out))
    try:
        module = importlib.import_module("packedkcl.kcl")
        assert "typed_packed" in (out / "packedkcl" / "kcl" / "messages.py").read_text(encoding="utf-8")
        yield module
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n.startswith("packedkcl")]:
            del sys.modules[name]


def _s(text: str) -> bytes:
    raw = text.encode()
    assert len(raw) < 32
    return bytes([0xA0 | len(raw)]) + raw


def _map(*pairs: tuple[str, bytes], wide: bool = False) -> bytes:
    head = b"\xde" + len(pairs).to_bytes(2, "big") if wide else bytes([0x80 | len(pairs)])
    return head + b"".join(_s(k) + v for k, v in pairs)


def _cases() -> list[tuple[bytes, bytes, str]]:
    """(value, the bytes the refused value starts with, field): a repeated key, as tests/test_decode_offsets.py's
    JSON texts; the typed path reads each occurrence in turn and refuses the first it cannot take."""
    five, six = b"\x05", b"\x06"
    cases = []
    for wide in (False, True):
        cases.append(
            (
                _map(("action", _s("checkpoint")), ("checkpoint", _s("1")), ("checkpoint", five), wide=wide),
                five,
                "checkpoint",
            )
        )
        cases.append(
            (
                _map(
                    ("action", _s("checkpoint")),
                    ("checkpoint", _s("1")),
                    ("checkpoint", _s("2")),
                    ("checkpoint", five),
                    ("checkpoint", six),
                    wide=wide,
                ),
                five,
                "checkpoint",
            )
        )
        record = _map(("data", b"\xc4\x01A"), ("data", five), wide=wide)  # (bytes: bin)
        cases.append(
            (
                _map(("action", _s("processRecords")), ("records", b"\x90"), ("records", b"\x91" + record), wide=wide),
                five,
                "records[0].data",
            )
        )
    return cases


@pytest.mark.parametrize(("data", "refused", "field"), _cases())
def test_a_repeated_key_is_refused_at_the_occurrence_the_typed_path_could_not_take(
    packed_kcl: ModuleType, data: bytes, refused: bytes, field: str
) -> None:
    """It named the key's first occurrence (the valid "1"), where the JSON text's typed path, the general path and
    the Java codec name the one refused (e97d63a for JSON text)."""
    for direction in (None,):
        with pytest.raises(packed_kcl.DecodeError) as caught:
            packed_kcl.decode(data, direction=direction, serializer="msgpack")
        assert caught.value.field == field
        offset = caught.value.offset
        assert data[offset : offset + len(refused)] == refused and data.rfind(refused) == offset, (offset, data)
