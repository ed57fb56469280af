"""The binary family's Python-target context: the layout (``layout.py``) and the names the templates call."""

from __future__ import annotations

import re
from typing import Any

from ..families.framing import BinaryFraming
from ..layout import binary_layout, fixed_code, min_size
from ..model import Protocol, TypeRef
from ..types import WIRE_TYPES


def python_context(protocol: Protocol) -> dict[str, Any]:
    """What the binary templates read: the protocol's layout and how each type is read and written."""
    framing = protocol.framing_as(BinaryFraming)
    lay = binary_layout(protocol)
    order = ">"

    def helper(ref: TypeRef) -> str:
        assert ref.wire
        return ref.wire.helper_for(framing.bytes_length)

    def writer(ref: TypeRef) -> str:
        assert ref.wire
        return ref.wire.writer_for(framing.bytes_length)

    def item_key(ref: TypeRef) -> str:
        return re.sub(r"[^0-9a-zA-Z]+", "_", ref.text).strip("_").lower()

    def list_items(p: Protocol) -> list[tuple[str, TypeRef]]:
        items = {item_key(r.item): r.item for r in p.all_types() if r.kind == "list" and r.item}
        return sorted(items.items())

    def py_of(wire_name: str, owner: Any) -> str:
        return next(f.py for f in owner.fields if f.name == wire_name)

    def fixed_code_of(wire_name: str) -> str:
        code = WIRE_TYPES[wire_name].struct
        assert code
        return code

    # Register every Struct the templates will ask for before rendering, so the constant table is complete.
    for name in (
        framing.code_type,
        framing.length_type,
        *[s.size_prefix.type for s in protocol.structs if s.size_prefix],
    ):
        lay.constant(order + fixed_code_of(name))
    for ref in protocol.all_types():
        code = fixed_code(ref)
        if code:
            lay.constant(order + code)
    return {
        "layout": lay,
        "order": order,
        "framing": framing,
        "helper": helper,
        "writer": writer,
        "binary_imports": sorted({line for r in protocol.all_types() if r.wire for line in r.wire.binary_imports}),
        "item_reader": lambda ref: f"_read_item_{item_key(ref)}",
        "list_items": list_items,
        "min_size": min_size,
        "min_size_of_wire": lambda name: WIRE_TYPES[name].size,
        "fixed_code": fixed_code,
        "fixed_code_of": fixed_code_of,
        "py_of": py_of,
    }
