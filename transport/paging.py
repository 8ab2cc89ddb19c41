"""Walking a paginated list without trusting the server to end it.

``docs/API.md`` says clients must not rely on servers being well behaved: a server
that hands out a cursor it already handed out would make a naive loop run
forever. ``iterate_pages`` remembers every cursor it followed and raises
``RepeatedCursor`` instead, so no caller can loop. This module does not import
httpx.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from transport.errors import RepeatedCursor
from transport.models.page import Page

T = TypeVar("T")


async def iterate_pages(
    fetch: Callable[[str | None], Awaitable[Page[T]]],
) -> AsyncIterator[Page[T]]:
    """Yield pages from ``fetch(None)`` on, following ``next_cursor`` until it is null.

    Raises ``RepeatedCursor`` (after yielding the page that carried it) when a
    page names a cursor that was already followed; errors from ``fetch``
    propagate unchanged.
    """
    followed: set[str] = set()
    cursor: str | None = None
    while True:
        page = await fetch(cursor)
        yield page
        cursor = page.next_cursor
        if cursor is None:
            return
        if cursor in followed:
            raise RepeatedCursor(cursor)
        followed.add(cursor)
