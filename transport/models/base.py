"""The shared footing of every wire model: frozen, liberal in what it reads, UTC only.

Models keep unknown fields and the object as received (``received()``), so a
definition sent back carries every field unchanged; validation errors never
echo input (a body may hold an instruction). A ``Lenient[...]`` field never
fails its model: what does not parse reads as None and is reported by
``unreadable(name)``. Instants need an offset and are normalised to UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any, Self, TypeVar

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic_core import to_jsonable_python

T = TypeVar("T")


class WireModel(BaseModel):
    """Base of every response model: immutable, keeps unknown fields and the object received."""

    model_config = ConfigDict(frozen=True, extra="allow", hide_input_in_errors=True)
    _received: Any = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_received(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        model = handler(data)
        if isinstance(data, dict) and model is not data:
            model._received = data
        return model

    def received(self) -> dict[str, Any]:
        """A JSON-ready copy of the object as the server sent it (or the caller built it)."""
        raw = self._received if self._received is not None else self.model_dump(exclude_unset=True)
        copied: dict[str, Any] = to_jsonable_python(raw)
        return copied

    def unreadable(self, name: str) -> bool:
        """Whether the server sent a value for field ``name`` that this client could not read."""
        raw = self._received
        return isinstance(raw, dict) and raw.get(name) is not None and getattr(self, name) is None


def _none_when_unreadable(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    try:
        return handler(value)
    except ValidationError:
        return None


Lenient = Annotated[T | None, WrapValidator(_none_when_unreadable)]
"""A field that reads as None when null, absent or unparseable (see ``unreadable``)."""


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


def _finite(value: Decimal) -> Decimal:
    if not value.is_finite():
        raise ValueError("an amount must be finite")
    return value


Money = Annotated[Decimal, AfterValidator(_finite)]
"""A finite decimal amount; the wire sends it as a decimal string."""


E = TypeVar("E", bound=StrEnum)


def known_member(enum: type[E], raw: str | None) -> E | None:
    """The enumeration member spelled ``raw``, or None for a value this client does not know."""
    if raw is None:
        return None
    try:
        return enum(raw)
    except ValueError:
        return None
