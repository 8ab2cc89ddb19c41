"""Walking a paginated list without trusting the server to end it.

``docs/API.md`` says clients must not rely on servers being well behaved: a
server that hands out a cursor it already handed out would make a naive loop
run forever. ``CursorTrail`` is the one repeated-cursor guard: every pager
(``iterate_pages`` here, the screens' ``viewmodels.paging.CursorFeed``) keeps
one. This module does not import httpx.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from transport.errors import RepeatedCursor
from transport.models.page import Page

T = TypeVar("T")


class CursorTrail:
    """The cursors one walk through a list has requested; a page naming one again would loop."""

    __slots__ = ("_requested",)

    def __init__(self) -> None:
        self._requested: set[str] = set()

    def request(self, cursor: str) -> None:
        """``cursor`` is being asked for (asking again, as a retry does, is no repeat)."""
        self._requested.add(cursor)

    def ends_at(self, next_cursor: str | None) -> bool:
        """Whether paging ends after a page naming ``next_cursor``: it is null, or already requested
        (a page naming its own cursor included)."""
        return next_cursor is None or next_cursor in self._requested


async def iterate_pages(
    fetch: Callable[[str | None], Awaitable[Page[T]]],
) -> AsyncIterator[Page[T]]:
    """Yield pages from ``fetch(None)`` on, following ``next_cursor`` until it is null.

    Raises ``RepeatedCursor`` (after yielding the page that carried it) when a
    page names a cursor that was already followed; errors from ``fetch``
    propagate unchanged.
    """
    trail = CursorTrail()
    cursor: str | None = None
    while True:
        page = await fetch(cursor)
        yield page
        cursor = page.next_cursor
        if cursor is None:
            return
        if trail.ends_at(cursor):
            raise RepeatedCursor(cursor)
        trail.request(cursor)
