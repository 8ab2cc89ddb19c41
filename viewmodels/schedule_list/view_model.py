"""The schedules sheet: page one on every open, section switch or reload, then paging.

The paging safeguards (duplicate rows, cursor loops, stale reloads, failed
later pages) are ``viewmodels.paging.CursorFeed``'s; this screen adds its own
two rules: a failed first page is a full-page error, and 404/405 from the list
route (``BrowsingUnavailable``) means "browsing unavailable", not an error.
Switching section counts as a reload.

Search and the Needs attention filter are the server's (``q``,
``needs_attention``): the list never pages everything in to filter it. Each
keystroke (``type_query``) shows the text at once, drops the answer still in
flight for the previous text and, after a quiet ``SEARCH_DEBOUNCE`` (the
``sleep`` is injected, so tests wait for nothing), reloads page one for the
newest text only; the feed's tickets make sure a slow answer to an older
text never replaces a newer one, and its paging safeguards hold for results
since a cursor is always replayed with the query it came with. The query
stays when the section changes. The Needs attention filter lists, across
every state, the schedules whose last firing needs attention; its chip
counts them (``GET /v1/schedules/counts``, read on open, on reload and each
live round).

The client never computes a next
firing: rows show the server's ``next_fire_at``, in words that read the
clock ("today at 09:00"), so ``refresh_clock_texts`` makes them again once
the device's date has changed.

Offline (``viewmodels.offline``): page one of each section is kept in the
view cache as it is read. Opening a section paints the kept copy at once
while page one is read; when the server cannot be reached the copy stays,
its passed next firings read "due (as of 10:42)", and the banner says when
it was read. A page one read from the server replaces it and ends the banner.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import date, datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError, BrowsingUnavailable, NotFound
from transport.models import Page, ScheduleDetail, ScheduleSummary
from viewmodels.failure_text import failure_text
from viewmodels.observable import Observable
from viewmodels.offline import CachedList, OfflineViewModel, unreachable
from viewmodels.paging import CursorFeed, FeedPhase, FeedState, LatestRequest
from viewmodels.ports import Clock, ScheduleApi
from viewmodels.schedule_list.rows import schedule_row, summary_of
from viewmodels.schedule_list.snapshot import ListSection, ScheduleListSnapshot, ScheduleRow

DEFAULT_PAGE_SIZE = 20
DUE_REREADS = 20
"""At most this many rows are read again per ``refresh_due`` (the rest on the next round)."""
SEARCH_DEBOUNCE = 0.2
"""Seconds of quiet after a keystroke before the search is sent (the issue allows 250 ms)."""
Sleep = Callable[[float], Awaitable[None]]


class ScheduleListViewModel(Observable[ScheduleListSnapshot]):
    """Current / Recent History with safe, user-driven paging."""

    def __init__(
        self,
        api: ScheduleApi,
        *,
        clock: Clock,
        device_zone: ZoneInfo,
        page_size: int = DEFAULT_PAGE_SIZE,
        offline: OfflineViewModel | None = None,
        sleep: Sleep = asyncio.sleep,
        debounce: float = SEARCH_DEBOUNCE,
    ) -> None:
        super().__init__(ScheduleListSnapshot())
        self._api = api
        self._sleep = sleep
        self._debounce = debounce
        self._typing = LatestRequest()
        self._counting = LatestRequest()
        self._clock = clock
        self._zone = device_zone
        self._page_size = page_size
        self._offline = offline
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

    @property
    def page_size(self) -> int:
        return self._page_size

    async def open(self) -> None:
        """Opening the sheet reloads page one of the current section."""
        await self.reload()

    async def select_section(self, section: ListSection) -> None:
        """Switch section: rows clear and page one of ``section`` loads (counts as a reload).

        The query stays; the Needs attention filter goes off.
        """
        if section is not self.snapshot.section or self.snapshot.attention_only:
            self._publish(
                replace(self.snapshot, section=section, attention_only=False, cached_at=None)
            )
            self._cached_at = None
            self._feed.clear()
        await self._reload_rows()

    async def select_attention(self, on: bool) -> None:
        """The Needs attention chip: on, what needs attention in any state; off, the section."""
        if on != self.snapshot.attention_only:
            self._publish(replace(self.snapshot, attention_only=on, cached_at=None))
            self._cached_at = None
            self._feed.clear()
        await self._reload_rows()

    async def reload(self) -> None:
        """Page one again (pull-to-refresh), and the counts. Rows stay visible until it answers."""
        await asyncio.gather(self._reload_rows(), self.refresh_counts())

    async def type_query(self, text: str) -> None:
        """A keystroke in the search field: shown at once, searched after the debounce.

        Only the newest text is searched: an older keystroke's wait ends
        without a request, and the answer still in flight for an older text is
        dropped at once.
        """
        if text == self.snapshot.query:
            return
        ticket = self._typing.begin()
        self._publish(replace(self.snapshot, query=text))
        self._feed.supersede()
        await self._sleep(self._debounce)
        if self._typing.is_current(ticket):
            await self._reload_rows()

    async def clear_query(self) -> None:
        """The clear button or Escape: no search, page one of the section at once."""
        self._typing.begin()
        if self.snapshot.query:
            cleared = replace(
                self.snapshot, query="", search_clears=self.snapshot.search_clears + 1
            )
            self._publish(cleared)
            await self._reload_rows()

    def focus_search(self) -> None:
        """Ctrl+F or /: the view moves the keyboard focus into the search field."""
        self._publish(
            replace(self.snapshot, search_focus_requests=self.snapshot.search_focus_requests + 1)
        )

    async def refresh_counts(self) -> bool:
        """The Needs attention chip's number; False when the server could not be read."""
        ticket = self._counting.begin()
        try:
            counts = await self._api.schedule_counts()
        except ApiError:
            return False
        if self._counting.is_current(ticket):
            self._publish(replace(self.snapshot, attention_count=counts.needs_attention))
        return True

    async def _reload_rows(self) -> None:
        """Page one of what is shown: the section, or its search or Needs attention filter.

        With a view cache, only the plain section is kept: an empty section
        paints its kept copy first, and a server that cannot be reached leaves
        the copy shown (offline). A search or filter is never answered from it.
        """
        shown = self.snapshot
        section = shown.section
        states = () if shown.attention_only else section.states
        query = shown.query.strip() or None
        attention = shown.attention_only
        plain = query is None and not attention
        self._reloads += 1
        reload = self._reloads
        first: list[Page[ScheduleSummary]] = []

        async def fetch(cursor: str | None) -> Page[ScheduleSummary]:
            page = await self._api.list_schedules(
                states=states,
                limit=self._page_size,
                cursor=cursor,
                query=query,
                needs_attention=attention,
            )
            if cursor is None and reload == self._reloads:
                first.append(page)
                self._cached_at = None  # the rows about to be made are the server's
            return page

        self._typing.begin()
        self._gone.clear()
        cached = None if self.snapshot.rows or not plain else await self._kept(section)
        if reload != self._reloads:
            return
        if cached is not None:
            self._cached_at = cached.read_at
            await self._feed.reload(_copy_of(cached))
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
            await self._feed.reload(_copy_of(cached))
        finally:
            self._restoring = False
        self._offline.showing_cached(cached.read_at)

    async def load_more(self) -> None:
        """The next page, when there is one and nothing else is in flight."""
        await self._feed.load_more()

    async def retry(self) -> None:
        """After a failure: exactly the later page that failed, or page one again."""
        await self._feed.retry()

    def select(self, schedule_id: UUID | None) -> None:
        """Move the keyboard's highlight (the focus ring) to a row; the opened mark stays."""
        self._publish(replace(self.snapshot, selected_id=schedule_id))

    def mark_opened(self, schedule_id: UUID) -> None:
        """The detail shows ``schedule_id``: its row takes both the opened mark and the highlight.

        The two marks part when ↑/↓ then move the highlight: the opened mark
        stays on the row the detail still shows.
        """
        self._publish(replace(self.snapshot, selected_id=schedule_id, opened_id=schedule_id))

    def focus_detail_heading(self) -> None:
        """Enter opened the highlighted row: the view moves the focus to the detail's heading."""
        self._publish(
            replace(self.snapshot, heading_focus_requests=self.snapshot.heading_focus_requests + 1)
        )

    def close_opened(self) -> None:
        """The detail closed: the highlight goes back to the row that was opened.

        So Escape returns the keyboard to the list where the reader left it,
        not to wherever ↑/↓ had wandered while the detail was open.
        """
        opened = self.snapshot.opened_id
        if opened is None:
            return
        self._publish(replace(self.snapshot, selected_id=opened, opened_id=None))

    def show_saved(self, detail: ScheduleDetail) -> None:
        """A schedule saved from its detail: its loaded row shows the new record in place."""
        row = next((r for r in self.snapshot.rows if r.schedule_id == detail.schedule_id), None)
        if row is not None:
            self._feed.replace(summary_of(detail, row.preview))

    async def refresh_due(self) -> bool:
        """Rows whose next firing has passed are read again and shown in place.

        Quietly: no progress, no error; the reader's place, the other rows and
        the selection stay. A row the server has not moved on yet reads "due
        now" until a later round finds it moved; a row the server no longer
        has stays until the next reload. Answers False when the server could
        not be read (the round stops at the first such failure).
        """
        if self._cached_at is not None:
            return False  # the rows are the cache's: a reload brings the server back, not this
        due = [
            row
            for row in self.snapshot.due_rows(self._clock())
            if row.schedule_id not in self._gone
        ]
        for row in due[:DUE_REREADS]:
            try:
                detail = await self._api.get_schedule(row.schedule_id)
            except NotFound:
                self._gone.add(row.schedule_id)
                continue
            except ApiError:
                return False
            self._feed.replace(summary_of(detail, row.preview))
        return True

    def refresh_clock_texts(self) -> None:
        """Past midnight, "tomorrow at 09:00" has become "today at 09:00": rows made again."""
        today = self._today()
        if today != self._texts_date or self._cached_at is not None:
            # Offline, a next firing that passes meanwhile comes to read "due (as of …)".
            self._texts_date = today
            self._feed.remake_rows()

    def select_next(self) -> UUID | None:
        """Keyboard down: the row after the selection (the first row when none)."""
        return self._move_selection(+1)

    def select_previous(self) -> UUID | None:
        """Keyboard up: the row before the selection (the last row when none)."""
        return self._move_selection(-1)

    def _move_selection(self, step: int) -> UUID | None:
        rows = self.snapshot.rows
        if not rows:
            return self.snapshot.selected_id
        ids = [row.schedule_id for row in rows]
        current = self.snapshot.selected_id
        if current in ids:
            index = min(max(ids.index(current) + step, 0), len(ids) - 1)
        else:
            index = 0 if step > 0 else len(ids) - 1
        self.select(ids[index])
        return ids[index]

    def _today(self) -> date:
        return self._clock().astimezone(self._zone).date()

    def _row(self, summary: ScheduleSummary) -> ScheduleRow:
        kept = self._cached_at
        if kept is None or self._offline is None:
            return schedule_row(summary, self._clock(), self._zone)
        return schedule_row(summary, self._clock(), self._zone, passed=self._offline.due_text(kept))

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
        self._publish(
            replace(
                self.snapshot,
                cached_at=self._cached_at,
                rows=feed.rows,
                phase=feed.phase,
                first_page_error=None if failure is None or unavailable else failure_text(failure),
                later_page_error=(
                    None
                    if feed.later_page_failure is None
                    else failure_text(feed.later_page_failure)
                ),
                browsing_unavailable=unavailable,
            )
        )


def _copy_of(kept: CachedList) -> Callable[[str | None], Awaitable[Page[ScheduleSummary]]]:
    """A fetch answering the kept page one (and nothing after it)."""
    page = Page[ScheduleSummary](items=list(kept.items), next_cursor=None)

    async def fetch(_cursor: str | None) -> Page[ScheduleSummary]:
        return page

    return fetch
