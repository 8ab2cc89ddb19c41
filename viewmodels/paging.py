"""User-driven paging and overlapping loads, each rule written once.

Every screen that pages through a server list (the schedules sheet, a
session's transcript) composes one ``CursorFeed``, which holds the paging
safeguards: an item already shown is ignored when a later page repeats it; a
repeated cursor ends paging (``transport.paging.CursorTrail``, the one guard);
an older reload never overwrites a newer one; a failed later page keeps the
rows and ``retry()`` asks for exactly that page. Every screen whose loads can
overlap holds one ``LatestRequest``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Generic, TypeVar

from transport.errors import ApiError
from transport.models import Page
from transport.paging import CursorTrail

Item = TypeVar("Item")
Row = TypeVar("Row")

Fetch = Callable[[str | None], Awaitable[Page[Item]]]
"""Reads the page after a cursor (None: page one)."""


class LatestRequest:
    """Newest request wins: ``begin()`` hands out a ticket, and only the last one is current.

    A screen begins a ticket for each load, checks ``is_current(ticket)``
    before applying the answer, and calls ``drop()`` when it closes so that
    nothing still in flight is applied afterwards.
    """

    __slots__ = ("_latest",)

    def __init__(self) -> None:
        self._latest = 0

    def begin(self) -> int:
        self._latest += 1
        return self._latest

    def is_current(self, ticket: int) -> bool:
        return ticket == self._latest

    def drop(self) -> None:
        """Every ticket handed out so far stops being current."""
        self._latest += 1


def only_page(items: Sequence[Item]) -> Fetch[Item]:
    """A fetch answering ``items`` as page one, with nothing after it (a kept copy)."""
    page = Page[Item](items=list(items), next_cursor=None)

    async def fetch(_cursor: str | None) -> Page[Item]:
        return page

    return fetch


Sleep = Callable[[float], Awaitable[None]]
"""Waits the given seconds (``asyncio.sleep``; a fake clock's in tests)."""


class Debounce:
    """Typing: a search starts once the keys rest, and only for the newest keystroke.

    ``settled()`` waits the pause and answers whether no later keystroke (nor
    ``cancel()``, a search started another way) came meanwhile.
    """

    __slots__ = ("_latest", "_pause", "_sleep")

    def __init__(self, sleep: Sleep, pause: float) -> None:
        self._latest = LatestRequest()
        self._sleep = sleep
        self._pause = pause

    async def settled(self) -> bool:
        ticket = self._latest.begin()
        await self._sleep(self._pause)
        return self._latest.is_current(ticket)

    def cancel(self) -> None:
        self._latest.drop()


class FeedPhase(StrEnum):
    """Where paging stands. Errors are kept apart so loaded rows can stay visible."""

    IDLE = "idle"
    """Nothing requested yet (or the feed was cleared)."""
    LOADING_FIRST_PAGE = "loading_first_page"
    """Page one requested; the previous reload's rows, if any, stay until it answers."""
    LOADED = "loaded"
    """At least page one is in and more pages exist."""
    LOADING_MORE = "loading_more"
    """A later page is in flight."""
    END_REACHED = "end_reached"
    """The server said there is nothing more, or paging stopped on a repeated cursor."""
    FAILED = "failed"
    """Page one failed: no rows, ``first_page_failure`` says why."""


@dataclass(frozen=True, slots=True)
class FeedState(Generic[Row]):
    """What a feed holds now; the owning screen folds it into its own snapshot."""

    rows: tuple[Row, ...] = ()
    phase: FeedPhase = FeedPhase.IDLE
    first_page_failure: ApiError | None = None
    later_page_failure: ApiError | None = None
    """A later page failed; the rows stay and ``retry()`` asks for that page."""

    @property
    def can_load_more(self) -> bool:
        """True when reaching the end of the rows should ask for the next page."""
        return self.phase is FeedPhase.LOADED and self.later_page_failure is None


class CursorFeed(Generic[Item, Row]):
    """Pages of ``Item`` shown as ``Row``s, with the four safeguards of this module.

    ``key(item)`` names an item for duplicate detection; ``to_row(item)`` makes
    the row a screen shows. ``on_change(state)`` is called with every new state.
    """

    def __init__(
        self,
        *,
        key: Callable[[Item], Hashable],
        to_row: Callable[[Item], Row],
        on_change: Callable[[FeedState[Row]], None],
    ) -> None:
        self._key = key
        self._to_row = to_row
        self._on_change = on_change
        self._state: FeedState[Row] = FeedState()
        self._requests = LatestRequest()
        self._ticket = 0
        self._fetch: Fetch[Item] | None = None
        self._items: tuple[Item, ...] = ()
        self._shown: set[Hashable] = set()
        self._trail = CursorTrail()
        self._next_cursor: str | None = None
        self._failed_cursor: str | None = None

    @property
    def state(self) -> FeedState[Row]:
        return self._state

    async def reload(self, fetch: Fetch[Item]) -> None:
        """Page one from ``fetch``, which also serves the later pages of this reload."""
        ticket = self._ticket = self._requests.begin()
        self._fetch = fetch
        self._trail = CursorTrail()
        self._next_cursor = None
        self._failed_cursor = None
        self._set(
            replace(
                self._state,
                phase=FeedPhase.LOADING_FIRST_PAGE,
                first_page_failure=None,
                later_page_failure=None,
            )
        )
        try:
            page = await fetch(None)
        except ApiError as error:
            if self._requests.is_current(ticket):
                self._items = ()
                self._set(FeedState(phase=FeedPhase.FAILED, first_page_failure=error))
            return
        if self._requests.is_current(ticket):
            self._items = ()
            self._shown = set()
            self._apply(page, cursor=None)

    async def load_more(self) -> None:
        """The next page, when there is one and nothing else is in flight."""
        if self._state.can_load_more and self._next_cursor is not None:
            await self._load_later(self._next_cursor)

    async def retry(self) -> None:
        """After a failure: exactly the later page that failed, or page one again."""
        if self._state.later_page_failure is not None and self._failed_cursor is not None:
            await self._load_later(self._failed_cursor)
        elif self._state.first_page_failure is not None and self._fetch is not None:
            await self.reload(self._fetch)

    def supersede(self) -> None:
        """A newer reload is coming (a search being typed): answers in flight are dropped now.

        The rows stay on screen until that reload answers.
        """
        self._requests.drop()

    def clear(self) -> None:
        """No rows and nothing in flight (a closed transcript, a switched section)."""
        self._requests.drop()
        self._fetch = None
        self._items = ()
        self._shown = set()
        self._set(FeedState())

    def replace(self, item: Item) -> bool:
        """Show ``item`` in place of the loaded row with its key; False when none is loaded.

        The row keeps its position and every other loaded page stays, so an
        item changed deep in a long list does not throw the reader back to
        page one; the server's order applies again on the next reload.
        """
        key = self._key(item)
        index = next((i for i, held in enumerate(self._items) if self._key(held) == key), None)
        if index is None:
            return False
        self._items = (*self._items[:index], item, *self._items[index + 1 :])
        rows = self._state.rows
        self._set(
            replace(self._state, rows=(*rows[:index], self._to_row(item), *rows[index + 1 :]))
        )
        return True

    def remake_rows(self) -> None:
        """Every loaded row made again from its item; shown only when one of them changed."""
        rows = tuple(self._to_row(item) for item in self._items)
        if rows != self._state.rows:
            self._set(replace(self._state, rows=rows))

    async def _load_later(self, cursor: str) -> None:
        fetch = self._fetch
        if fetch is None:
            return
        ticket = self._ticket
        self._set(replace(self._state, phase=FeedPhase.LOADING_MORE, later_page_failure=None))
        self._trail.request(cursor)
        try:
            page = await fetch(cursor)
        except ApiError as error:
            if self._requests.is_current(ticket):
                self._failed_cursor = cursor
                self._set(replace(self._state, phase=FeedPhase.LOADED, later_page_failure=error))
            return
        if self._requests.is_current(ticket):
            self._failed_cursor = None
            self._apply(page, cursor=cursor)

    def _apply(self, page: Page[Item], *, cursor: str | None) -> None:
        rows = () if cursor is None else self._state.rows
        kept: list[Item] = []
        added: list[Row] = []
        for item in page.items:
            key = self._key(item)
            if key in self._shown:
                continue
            self._shown.add(key)
            kept.append(item)
            added.append(self._to_row(item))
        self._items = (*self._items, *kept)
        following = page.next_cursor
        if self._trail.ends_at(following):
            self._next_cursor = None
            phase = FeedPhase.END_REACHED
        else:
            self._next_cursor = following
            phase = FeedPhase.LOADED
        self._set(FeedState(rows=(*rows, *added), phase=phase))

    def _set(self, state: FeedState[Row]) -> None:
        self._state = state
        self._on_change(state)
