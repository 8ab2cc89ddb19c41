"""The shared footing of every wire model: frozen, tolerant of new fields, UTC only.

``API.md`` lets servers add object fields and enumeration values at any time, so
every model keeps unknown fields (``extra="allow"``) instead of dropping them:
a definition sent back to the server must carry them unchanged. Validation
errors never echo input values (``hide_input_in_errors``), because a body may
hold a schedule's complete instruction, which must not reach logs.

Instants are RFC 3339 strings with an explicit offset. A naive instant breaks
the contract and fails validation; an aware one is normalised to UTC so that
every instant the client hands out compares and prints the same way, and goes
back on the wire as ``...Z``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, TypeVar

from pydantic import AfterValidator, AwareDatetime, BaseModel, BeforeValidator, ConfigDict


class WireModel(BaseModel):
    """Base of every response model: immutable, keeps unknown fields, hides inputs."""

    model_config = ConfigDict(frozen=True, extra="allow", hide_input_in_errors=True)


def _instant_text_only(value: object) -> object:
    # Numbers would be read as Unix timestamps by pydantic; the contract says
    # RFC 3339 text, so anything but text (or an already-built datetime) is wrong.
    if isinstance(value, str | datetime):
        return value
    raise ValueError("an instant must be an RFC 3339 string")


def _to_utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


Instant = Annotated[
    AwareDatetime,
    BeforeValidator(_instant_text_only),
    AfterValidator(_to_utc),
]
"""An aware instant, normalised to UTC; a naive one is a validation error."""


E = TypeVar("E", bound=StrEnum)


def known_member(enum: type[E], raw: str | None) -> E | None:
    """The enumeration member spelled ``raw``, or None for a value this client does not know."""
    if raw is None:
        return None
    try:
        return enum(raw)
    except ValueError:
        return None
