"""The JSON family: one JSON value per message, told apart by a tag key or by its shape (KCL, Storm)."""

from __future__ import annotations

from .base import Family
from .framing import JsonFraming


class Json(Family):
    name = "json"
    framing_type = JsonFraming


JSON = Json()
