"""The error envelope every non-2xx response carries (``API.md``, "Error envelope")."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from transport.models.wire import WireModel


class ErrorBody(WireModel):
    """The stable machine code, a message for people and structured details."""

    code: str
    message: str = ""
    details: dict[str, Any] = Field(default_factory=dict)


class ErrorEnvelope(WireModel):
    """``{"error": {"code": ..., "message": ..., "details": {...}}}``."""

    error: ErrorBody
