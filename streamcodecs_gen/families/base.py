"""What a wire family is to the generator: the one object per family that the stages ask (see ``__init__``)."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from ..naming import java_camel, java_safe
from ..problems import Problem
from .framing import FramingVariant, build

if TYPE_CHECKING:
    from ..model import Field, Protocol, Struct
    from ..origin import HasOrigin, Key, Origin
    from ..resolve import TypeScope


class CheckContext(typing.Protocol):
    """What a family's check hooks read: one protocol's model, the scope its type names resolved in, and the options.
    The checks' ``Context`` (``checks/context.py``) is one; the family names no later stage."""

    protocol: Protocol
    scope: TypeScope
    id_check: bool

    def may_lack(self, *lists: str) -> bool:
        """Whether the model may lack an item the schema refused of one of ``lists`` (``messages/fields``): a rule
        that concludes from what is not there does not then apply."""

    @property
    def framing(self) -> Any:
        """The family's typed framing configuration (``framing.py``)."""

    def problem(self, at: HasOrigin | Origin, key: Key, message: str, hint: str = "") -> Problem:
        """A problem at the line of ``key`` of a node (or of an origin), in the file the node was written in."""


class Family:
    """A wire family. Subclasses set the class attributes and override the hooks their wire needs.

    The shared checks (``checks/``) and ``--compat`` ask the flags below instead of comparing family names; the
    hooks add the family's own rules at fixed points of the checks, so problems keep one order. The hooks run over
    the model (a field, its owner, the protocol through ``ctx.protocol``), as the shared checks do.
    """

    name: ClassVar[str]
    framing_type: ClassVar[type]
    """The frozen dataclass of the family's ``framing`` (``framing.py``), built once per protocol by :meth:`framing`."""
    reader_suffix: ClassVar[bytes] = b""
    """What follows one encoded message in a stream the family's Reader reads (encode() includes the rest)."""

    positional: ClassVar[bool] = False
    """A field's position carries meaning: new fields go after the newer ones, a type read to the end of the frame
    comes last, and a released field keeps its place."""
    presence_rules: ClassVar[bool] = False
    """Fields may carry ``presence``/``when_nonempty``, and a field added later is read only when present."""
    late_fields_need_default: ClassVar[bool] = True
    """A field added after its owner needs a default (or nullable/optional/const) for older peers' messages."""
    plain_keys: ClassVar[bool] = False
    """Field names are written as JSON keys without escaping, so they cannot hold a quote or a backslash."""
    open_enums: ClassVar[bool] = False
    """Enums may be open (``unknown: keep``)."""
    negative_lengths: ClassVar[bool] = False
    """bytes and list fields may take ``negative`` (a negative length or count read as empty)."""
    additional_map: ClassVar[bool] = False
    """A message may declare one ``additional`` map<string,T> field for the attributes it does not declare."""
    nonfinite_floats: ClassVar[bool] = False
    """A float field's wire carries NaN and infinity, so a default may be one (JSON has no form for them)."""

    java_rename: ClassVar[str] = "set another `py:` name (the Java name is its camelCase)"
    """What to change when two fields of an owner have one Java name (:meth:`java_name`)."""

    def java_name(self, f: Field) -> str:
        """The field's name in the family's Java codec: its record component, accessor and local variable. Two
        fields of an owner must not share one (the checks refuse it; javac would)."""
        return java_safe(java_camel(f.py))

    def framing(self, node: Any) -> Any:
        """The typed framing configuration of a definition whose ``framing`` mapping the schema accepted."""
        return build(self.framing_type, node)

    def variants(self, framing: Any) -> list[FramingVariant]:
        """Other framings of the same messages a peer may choose (``framing.variants``); none by default."""
        return []

    # --- The family's semantic checks, each run at its place in checks.CHECKS -----------------------------------

    def discriminators(self, ctx: CheckContext) -> Iterator[Problem]:
        """How messages are told apart (check_discriminators)."""
        return iter(())

    def protocol_rules(self, ctx: CheckContext) -> Iterator[Problem]:
        """Rules on the protocol as a whole (check_family_rules, before the fields)."""
        return iter(())

    def field_rules(self, ctx: CheckContext, owner: Struct, f: Field) -> Iterator[Problem]:
        """Rules on one field of a struct or message (check_family_rules)."""
        return iter(())

    def owner_rules(self, ctx: CheckContext, owner: Struct) -> Iterator[Problem]:
        """Rules on a struct or message, after its fields (check_family_rules)."""
        return iter(())

    def definition_rules(self, ctx: CheckContext) -> Iterator[Problem]:
        """Rules run last, once everything else is known to resolve (check_family_definition)."""
        return iter(())

    def __repr__(self) -> str:
        return f"<family {self.name}>"


def discriminator_keys(owner: Struct) -> set[str]:
    """Which of ``code``, ``tag`` and ``shape`` a message was written with (none, for a struct)."""
    return {key for key in ("code", "tag", "shape") if getattr(owner, key, None) is not None}
