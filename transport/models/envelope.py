"""The error envelope every non-2xx response carries (``docs/API.md``, "Errors")."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from transport.models.base import WireModel


class ErrorBody(WireModel):
    """The stable machine code, a message for people and structured details.

    Only ``code`` is needed; a message that is not text reads as empty and
    details that are not an object as empty, so the code still maps.
    """

    code: str
    message: str = ""
    details: dict[str, Any] = Field(default_factory=dict)

    @field_validator("message", mode="before")
    @classmethod
    def _odd_message_is_empty(cls, value: object) -> object:
        return value if isinstance(value, str) else ""

    @field_validator("details", mode="before")
    @classmethod
    def _odd_details_are_empty(cls, value: object) -> object:
        return value if isinstance(value, dict) else {}


class ErrorEnvelope(WireModel):
    """``{"error": {"code": ..., "message": ..., "details": {...}}}``."""

    error: ErrorBody
