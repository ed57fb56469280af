"""The JSON family's field modes (streamcodecs_gen.analysis.json), one case per rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from streamcodecs_gen.analysis.json import field_mode, omit_defaults
from streamcodecs_gen.model import Field, Origin, TypeRef
from streamcodecs_gen.types import WIRE_TYPES


def field(name: str = "f", removed: str | None = None, **kwargs: Any) -> Field:
    ref = TypeRef("string", "wire", wire=WIRE_TYPES["string"])
    return Field(name, name, ref, "1.0", removed, "", Origin("p.yaml", 1), **kwargs)


@dataclass
class Owner:
    fields: list[Field]


def test_omit_defaults_when_a_field_is_optional() -> None:
    assert omit_defaults(Owner([field(), field("g", optional=True)]))
    assert not omit_defaults(Owner([field(), field("g", has_default=True, default="x")]))


@pytest.mark.parametrize(
    ("kwargs", "with_optional_sibling", "expected"),
    [
        ({}, False, "required"),
        ({"has_const": True, "const": "x", "removed": "2.0"}, False, "const"),  # const wins over removed
        ({"removed": "2.0", "has_default": True}, False, "unset"),
        ({"optional": True}, False, "default"),  # default None: omitted by omit_defaults
        ({"optional": True, "has_default": True, "default": "x"}, False, "unset_default"),
        ({"added_later": True, "nullable": True}, False, "default"),
        ({"added_later": True, "nullable": True, "has_default": True, "default": "x"}, True, "unset_default"),
        ({"has_default": True, "default": "x"}, False, "default"),
        ({"has_default": True, "default": "x"}, True, "unset_default"),  # else omit_defaults would drop "x"
        ({"nullable": True}, True, "required"),
    ],
)
def test_field_mode(kwargs: dict[str, Any], with_optional_sibling: bool, expected: str) -> None:
    f = field(**kwargs)
    owner = Owner([f, field("sibling", optional=True)] if with_optional_sibling else [f])
    assert field_mode(owner, f) == expected
