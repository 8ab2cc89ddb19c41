"""Shared pieces of every list route: the ``limit`` and ``cursor`` parameters and the page body.

Each route fetches one row more than asked; only when it exists is a cursor
for the last returned row issued, so ``next_cursor: null`` means the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

from fastapi import Query
from fastapi.responses import JSONResponse

from server.api.cursor import CursorCodec

Row = TypeVar("Row")

DEFAULT_LIMIT = 50
Limit = Annotated[int, Query(ge=1, le=100, description="Page size, 1..100.")]
Cursor = Annotated[
    str | None, Query(max_length=2048, description="Opaque cursor of a previous page.")
]


def page_response(
    rows: Sequence[Row],
    limit: int,
    render: Callable[[Row], dict[str, Any]],
    position: Callable[[Row], list[str]],
    cursors: CursorCodec,
    scope: str,
) -> JSONResponse:
    shown = rows[:limit]
    next_cursor = cursors.encode(scope, position(shown[-1])) if len(rows) > limit else None
    return JSONResponse({"items": [render(row) for row in shown], "next_cursor": next_cursor})
