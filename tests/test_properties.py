"""Property tests from the definitions: encode → decode is the identity for every message of every protocol."""

from __future__ import annotations

import gc
import importlib
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import message_strategy

from streamcodecs_gen.model import Message, Protocol
from streamcodecs_gen.pipeline import load_protocols

REPO = Path(__file__).resolve().parent.parent
PROTOCOLS = [p for p in load_protocols(REPO / "protocol-definitions", REPO) if p.family in ("binary", "json")]
CASES = [(p, m) for p in PROTOCOLS for m in p.messages if not m.inline_only]


def _shadowed(protocol: Protocol, message: Message, data: dict[str, Any]) -> bool:
    """A shape message whose values also match an earlier shape in a direction is read as that earlier one."""
    if not message.shape:
        return False
    for direction in message.directions:
        for other in protocol.messages_for(direction):
            if other is message:
                break
            if other.shape and other.shape.json == message.shape.json:
                py_of = {f.name: f.py for f in message.fields}
                keys_present = all(k in py_of for k in other.shape.keys)
                matches = all(data.get(py_of.get(k, "")) == v for k, v in other.shape.match.items())
                if keys_present and matches:
                    return True
    return False


def tracked_structs(value: Any) -> list[str]:
    """The msgspec Structs in a decoded message (itself included) that Python's cycle collector tracks: none should
    be (README, "The generated module contract": they are declared ``gc=False``), even those holding lists."""
    found = []
    if isinstance(value, msgspec.Struct):
        if gc.is_tracked(value):
            found.append(type(value).__name__)
        value = [getattr(value, name) for name in value.__struct_fields__]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        found += [name for item in value for name in tracked_structs(item)]
    return found


@pytest.mark.parametrize(("protocol", "message"), CASES, ids=[f"{p.name}.{m.name}" for p, m in CASES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip(protocol: Protocol, message: Message, data: st.DataObject) -> None:
    codec = importlib.import_module(f"streamcodecs.{protocol.name}")
    values = data.draw(message_strategy(protocol, message))
    if _shadowed(protocol, message, values):
        return
    original = codec.MESSAGES[message.name].from_dict(values)
    frame = codec.encode(original)
    decoded = codec.decode(frame, direction=message.directions[0])
    assert decoded == original
    assert tracked_structs(decoded) == []
    assert codec.encode(decoded) == frame
    reader = codec.Reader(direction=message.directions[0])
    assert [m for i in range(0, len(frame), 3) for m in reader.feed(frame[i : i + 3])] == [original]
