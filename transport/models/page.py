"""One page of a paginated list: its items and the cursor of the next page."""

from __future__ import annotations

from typing import Generic, TypeVar

from transport.models.base import WireModel

T = TypeVar("T")


class Page(WireModel, Generic[T]):
    """``{"items": [...], "next_cursor": "..." | null}``; a null cursor marks the last page."""

    items: list[T]
    next_cursor: str | None = None
