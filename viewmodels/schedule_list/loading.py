"""Reading the schedules sheet's rows: from the server, page by page, or from the kept copy.

Page one is read on every reload; a failed first page is a full-page error
and 404/405 from the list route means "browsing unavailable". With a view
cache, page one of each plain section is kept as it is read, painted first
when the rows are empty, and shown (offline) when the server cannot be
reached; a search or filter is never answered from it. Pages are asked in
the snapshot's ``applied_order``; a server that refuses soonest first
(``ListOrderNotOffered``) hides the choice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import date, datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import BrowsingUnavailable, ListOrderNotOffered
from transport.models import ListOrder, Page, ScheduleDetail, ScheduleSummary
from viewmodels.failure_text import failure_text
from viewmodels.offline import CachedList, OfflineViewModel, unreachable
from viewmodels.paging import CursorFeed, Debounce, FeedPhase, FeedState, only_page
from viewmodels.ports import Clock, ScheduleApi
from viewmodels.schedule_list.keyboard import KeyboardMarks
from viewmodels.schedule_list.rows import schedule_row, summary_of
from viewmodels.schedule_list.sign_ins import SignInReadiness
from viewmodels.schedule_list.snapshot import ListSection, ScheduleListSnapshot, ScheduleRow

Fetch = Callable[[str | None], Awaitable[Page[ScheduleSummary]]]
"""One page of the list after a cursor (None: page one)."""


class ListLoading(KeyboardMarks):
    """The rows of what the snapshot asks for (section, search, filter), kept safe while paging."""

    def __init__(
        self,
        initial: ScheduleListSnapshot,
        api: ScheduleApi,
        *,
        clock: Clock,
        device_zone: ZoneInfo,
        page_size: int,
        offline: OfflineViewModel | None,
        typing: Debounce,
    ) -> None:
        super().__init__(initial)
        self._api = api
        self._clock = clock
        self._zone = device_zone
        self._page_size = page_size
        self._offline = offline
        self._typing = typing
        """The search text waiting for its debounce; a reload cancels it."""
        self._cached_at: datetime | None = None
        """The rows are the cache's copy read at this instant (offline); None: the server's."""
        self._may_fall_back = False
        self._restoring = False
        self._reloads = 0
        self._feed: CursorFeed[ScheduleSummary, ScheduleRow] = CursorFeed(
            key=lambda summary: summary.schedule_id,
            to_row=self._row,
            on_change=self._show_feed,
        )
        self._gone: set[UUID] = set()
        """Schedules a re-read found missing: not read again until the next reload."""
        self._texts_date = self._today()
        self._sign_ins = SignInReadiness(api)
        self._searched = ""
        """The search the rows being read answer: their matched words are marked."""

    def _start_over(self) -> None:
        """What is asked for changed (section, filter): no rows, nothing in flight."""
        self._cached_at = None
        self._feed.clear()

    async def _reload_rows(self) -> None:
        """Page one of what is shown: the section, or its search or Needs attention filter.

        With a view cache, only the plain section is kept: an empty section
        paints its kept copy first, and a server that cannot be reached leaves
        the copy shown (offline). A search or filter is never answered from it.
        """
        shown = self.snapshot
        section = shown.section
        plain = not shown.query.strip() and not shown.attention_only
        self._reloads += 1
        reload = self._reloads
        first: list[Page[ScheduleSummary]] = []
        read = self._reader(shown)

        async def fetch(cursor: str | None) -> Page[ScheduleSummary]:
            page = await read(cursor)
            if cursor is None and reload == self._reloads:
                first.append(page)
                self._cached_at = None  # the rows about to be made are the server's
            await self._sign_ins.read(page.items, reload)
            return page

        self._typing.cancel()
        self._gone.clear()
        cached = None if self.snapshot.rows or not plain else await self._kept(section)
        if reload != self._reloads:
            return
        if cached is not None:
            self._cached_at = cached.read_at
            await self._feed.reload(only_page(cached.items))
        self._may_fall_back = plain and self._offline is not None and self._offline.cache.enabled
        try:
            await self._feed.reload(fetch)
        finally:
            self._may_fall_back = False
        if reload != self._reloads:
            return
        state = self._feed.state
        if first and state.first_page_failure is None:
            if self._offline is not None:
                self._offline.reached()
                if plain:
                    await self._offline.cache.keep_section(
                        section.value, first[0].items, self._clock()
                    )
            return
        failure = state.first_page_failure
        if failure is None:
            return
        if cached is None and plain and unreachable(failure):
            cached = await self._kept(section)
            if reload != self._reloads:
                return
        if cached is not None and unreachable(failure) and self._offline is not None:
            await self._show_copy(cached)
        else:
            self._show_feed(state)

    def _reader(self, shown: ScheduleListSnapshot) -> Fetch:
        """The pages of what ``shown`` asks for, in its order; an older server's in its own."""
        states = () if shown.attention_only else shown.section.states
        query = shown.query.strip() or None
        order = shown.applied_order
        self._searched = query or ""

        async def read(cursor: str | None) -> Page[ScheduleSummary]:
            nonlocal order
            try:
                return await self._api.list_schedules(
                    states=states,
                    limit=self._page_size,
                    cursor=cursor,
                    query=query,
                    needs_attention=shown.attention_only,
                    order=order,
                )
            except ListOrderNotOffered:
                # An older server: the choice hides, and the list is its one order.
                order = ListOrder.UPDATED
                self._publish(replace(self.snapshot, order_offered=False))
                return await read(cursor)

        return read

    async def show_kept_copy(self) -> None:
        """The server stopped answering (a live round said so): the kept page one, no read.

        Nothing changes when the rows already are the copy or nothing is kept
        for the section (the rows shown stay, as before).
        """
        shown = self.snapshot
        if self._offline is None or self._cached_at is not None:
            return
        if shown.query.strip() or shown.attention_only:
            return  # a search or filter is never answered from the copy
        self._reloads += 1
        reload = self._reloads
        cached = await self._kept(self.snapshot.section)
        if cached is not None and reload == self._reloads:
            await self._show_copy(cached)

    async def _show_copy(self, cached: CachedList) -> None:
        assert self._offline is not None
        self._cached_at = cached.read_at
        self._restoring = True
        try:
            await self._feed.reload(only_page(cached.items))
        finally:
            self._restoring = False
        self._offline.showing_cached(cached.read_at)

    async def load_more(self) -> None:
        """The next page, when there is one and nothing else is in flight."""
        await self._feed.load_more()

    async def retry(self) -> None:
        """After a failure: exactly the later page that failed, or page one again."""
        await self._feed.retry()

    def show_saved(self, detail: ScheduleDetail) -> None:
        """A schedule saved from its detail: its loaded row shows the new record in place."""
        row = next((r for r in self.snapshot.rows if r.schedule_id == detail.schedule_id), None)
        if row is not None:
            self._feed.replace(summary_of(detail, row.preview))

    def _today(self) -> date:
        return self._clock().astimezone(self._zone).date()

    def _row(self, summary: ScheduleSummary) -> ScheduleRow:
        kept = self._cached_at
        if kept is None or self._offline is None:
            return schedule_row(
                summary,
                self._clock(),
                self._zone,
                unready_profiles=self._sign_ins.unready,
                searched=self._searched,
            )
        return schedule_row(
            summary,
            self._clock(),
            self._zone,
            passed=self._offline.due_text(kept),
            searched=self._searched,
        )

    async def _kept(self, section: ListSection) -> CachedList | None:
        if self._offline is None:
            return None
        return await self._offline.cache.section(section.value)

    def _show_feed(self, feed: FeedState[ScheduleRow]) -> None:
        failure = feed.first_page_failure
        if self._may_fall_back and unreachable(failure):
            return  # reload() shows the cache's copy instead, or this failure after all
        if self._restoring and feed.phase is FeedPhase.LOADING_FIRST_PAGE:
            return  # the copy replaces the rows at once: no empty "loading" in between
        unavailable = isinstance(failure, BrowsingUnavailable)
        words = self.snapshot.words
        self._publish(
            replace(
                self.snapshot,
                cached_at=self._cached_at,
                rows=feed.rows,
                phase=feed.phase,
                first_page_error=(
                    None if failure is None or unavailable else failure_text(failure, words=words)
                ),
                later_page_error=(
                    None
                    if feed.later_page_failure is None
                    else failure_text(feed.later_page_failure, words=words)
                ),
                browsing_unavailable=unavailable,
            )
        )
