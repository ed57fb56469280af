"""What a wire family is to the generator: the one object per family that the stages ask (see ``__init__``)."""

from __future__ import annotations

from typing import Any, ClassVar

from .framing import build


class Family:
    """A wire family. Subclasses set the class attributes and override the hooks their wire needs."""

    name: ClassVar[str]
    framing_type: ClassVar[type]
    """The frozen dataclass of the family's ``framing`` (``framing.py``), built once per protocol by :meth:`framing`."""

    def framing(self, node: Any) -> Any:
        """The typed framing configuration of a definition whose ``framing`` mapping the schema accepted."""
        return build(self.framing_type, node)

    def __repr__(self) -> str:
        return f"<family {self.name}>"
