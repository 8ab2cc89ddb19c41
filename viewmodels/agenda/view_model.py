"""The Agenda screen: every firing of the person's schedules over Today, Next 7 days or Month.

It reads ``GET /v1/agenda`` page by page through the list's ``CursorFeed`` (its
safeguards: duplicates, a repeated cursor, stale reloads, the later page's
inline retry) and the busy strip from ``GET /v1/agenda/density``; a server
without the agenda says so in a sentence, one without the density route only
hides the strip. Search and Needs attention are the list's (``q``,
``needs_attention``), debounced the same way. Each live round remakes the rows
(the Now line moves, a firing passes) and reads page one again quietly. With
a view cache, page one of each plain span is kept as it is read
(``kept_copy``), painted first when no row is shown, and shown under the
offline banner when the server cannot be reached, in this session or a later one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import date
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError
from transport.models import (
    AGENDA_NOT_OFFERED,
    AgendaDensity,
    AgendaItem,
    Page,
)
from viewmodels.agenda.days import agenda_days, busy_cells, busy_heading, quiet_text
from viewmodels.agenda.kept_copy import AgendaCopy
from viewmodels.agenda.snapshot import AgendaRow, AgendaSnapshot
from viewmodels.agenda.window import AgendaSpan, span_window
from viewmodels.failure_text import failure_text
from viewmodels.formatting.clock_text import locale_of, your_time_text
from viewmodels.language import N_
from viewmodels.observable import Observable
from viewmodels.offline import OfflineViewModel, unreachable
from viewmodels.paging import CursorFeed, Debounce, FeedPhase, FeedState, LatestRequest, Sleep
from viewmodels.ports import Clock, ScheduleApi

DEFAULT_PAGE_SIZE = 50
SEARCH_DEBOUNCE = 0.2
EMPTY_TEXT = {
    AgendaSpan.TODAY: N_("Nothing fires today."),
    AgendaSpan.WEEK: N_("Nothing fires in the next 7 days."),
    AgendaSpan.MONTH: N_("Nothing fires this month."),
}
NO_MATCH_TEXT = N_("No firings match “{query}”")
NOTHING_NEEDS_ATTENTION_TEXT = N_("No schedule that needs attention fires in this time.")


class AgendaViewModel(Observable[AgendaSnapshot]):
    """The agenda's window, filters, rows by day and busy strip."""

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
        super().__init__(
            AgendaSnapshot(zone_text=your_time_text(device_zone), locale=locale_of(device_zone))
        )
        self._api = api
        self._clock = clock
        self._zone = device_zone
        self._page_size = page_size
        self._offline = offline
        self._feed: CursorFeed[AgendaItem, AgendaRow] = CursorFeed(
            key=lambda item: (item.schedule_id, item.at),
            to_row=self._row,
            on_change=self._show_feed,
        )
        self._typing = Debounce(sleep, debounce)
        self._density_reads = LatestRequest()
        self._reloads = 0
        self._opened = False
        self._not_offered = False
        self._density: AgendaDensity | None = None
        self._copy = AgendaCopy(offline)

    @property
    def opened(self) -> bool:
        return self._opened

    async def open(self) -> None:
        """The destination was chosen: page one of the window, unless it is already shown."""
        if self._opened and self.snapshot.phase is not FeedPhase.IDLE:
            return
        self._opened = True
        await self.reload()

    async def select_span(self, span: AgendaSpan) -> None:
        """Today, Next 7 days or Month: the rows clear and the new window loads."""
        if span is not self.snapshot.span:
            self._publish(replace(self.snapshot, span=span, anchor=None))
            self._copy.read_at = None
            self._feed.clear()
            await self.reload()

    async def type_query(self, text: str) -> None:
        """A keystroke in the agenda's search: shown at once, searched after the debounce."""
        if text == self.snapshot.query:
            return
        self._publish(replace(self.snapshot, query=text))
        self._feed.supersede()
        if await self._typing.settled():
            await self.reload()

    async def clear_query(self) -> None:
        self._typing.cancel()
        if self.snapshot.query:
            self._publish(replace(self.snapshot, query=""))
            await self.reload()

    async def select_attention(self, on: bool) -> None:
        """The Needs attention chip: only the firings of schedules that need attention."""
        if on != self.snapshot.attention_only:
            self._publish(replace(self.snapshot, attention_only=on))
            await self.reload()

    async def reload(self) -> None:
        """Page one of the window and the busy strip, side by side; rows stay until it answers."""
        self._typing.cancel()
        self._reloads += 1
        await asyncio.gather(self._reload_rows(self._reloads), self._read_density())

    async def load_more(self) -> None:
        await self._feed.load_more()

    async def retry(self) -> None:
        """After a failure: exactly the later page that failed, or page one again."""
        if self.snapshot.first_page_error is not None or self._copy.read_at is not None:
            await self.reload()
        else:
            await self._feed.retry()

    def mark_opened(self, schedule_id: UUID, day: date) -> None:
        """A row was opened: its day is where Back returns."""
        del schedule_id  # the day is what the screen scrolls back to
        self._publish(replace(self.snapshot, anchor=day))

    async def refresh(self) -> bool:
        """A live round: the rows read the clock again (the Now line moves, a firing passes),
        then page one is read again while it is all that is shown.

        Answers False when the server could not be read. Nothing is read while
        the agenda is not open, nor while later pages hold the reader's place.
        """
        if not self._opened:
            return True
        self._feed.remake_rows()
        self._show_feed(self._feed.state)
        state = self._feed.state
        if state.phase not in (FeedPhase.LOADED, FeedPhase.END_REACHED, FeedPhase.FAILED):
            return True
        if len(state.rows) > self._page_size:
            return True
        await self.reload()
        return self._feed.state.first_page_failure is None and self._copy.read_at is None

    def _fetch(
        self, shown: AgendaSnapshot, reload: int, first: list[Page[AgendaItem]]
    ) -> Callable[[str | None], Awaitable[Page[AgendaItem]]]:
        """The pages of ``shown``'s window and filters (those the reload began with, so a
        search typed meanwhile is never kept as the plain agenda); page one, as the server
        answered it, also lands in ``first``."""
        start, end = span_window(shown.span, self._clock(), self._zone)
        query = shown.query.strip() or None
        attention = shown.attention_only

        async def fetch(cursor: str | None) -> Page[AgendaItem]:
            page = await self._api.list_agenda(
                start=start,
                end=end,
                query=query,
                needs_attention=attention,
                limit=self._page_size,
                cursor=cursor,
            )
            if page is AGENDA_NOT_OFFERED:
                if reload == self._reloads:
                    self._not_offered = True
                    self._copy.read_at = None
                return Page[AgendaItem](items=[], next_cursor=None)
            if cursor is None and reload == self._reloads:
                self._not_offered = False
                self._copy.read_at = None  # the rows about to be made are the server's
                first.append(page)
            return page

        return fetch

    async def _reload_rows(self, reload: int) -> None:
        """Page one from the server; the plain agenda's kept copy painted first when no row
        is shown, kept once the server answers, and shown when it cannot be reached."""
        shown = self.snapshot
        plain = not shown.query.strip() and not shown.attention_only
        cached = await self._copy.read(shown.span) if plain else None
        if reload != self._reloads:
            return
        if cached is not None and not shown.days:
            await self._copy.paint(self._feed, cached)
        first: list[Page[AgendaItem]] = []
        self._copy.awaited_by = reload if cached is not None else None
        try:
            await self._feed.reload(self._fetch(shown, reload, first))
        finally:
            if self._copy.awaited_by == reload:
                self._copy.awaited_by = None
        if reload != self._reloads:
            return
        failure = self._feed.state.first_page_failure
        if failure is None and first and not self._not_offered:
            await self._copy.answered(shown.span, first[0].items, self._clock(), keep=plain)
        elif cached is not None and unreachable(failure):
            await self._copy.show_offline(self._feed, cached)
        else:
            if failure is not None:
                self._copy.read_at = None  # no row is shown: the failure is
            self._show_feed(self._feed.state)

    async def _read_density(self) -> None:
        ticket = self._density_reads.begin()
        span = self.snapshot.span
        start, end = span_window(span, self._clock(), self._zone)
        try:
            density = await self._api.agenda_density(
                start=start,
                end=end,
                bucket=span.bucket,
                timezone=self._zone.key,
                query=self.snapshot.query.strip() or None,
                needs_attention=self.snapshot.attention_only,
            )
        except ApiError:
            density = None  # the strip hides; the rows say what went wrong, if anything
        if not self._density_reads.is_current(ticket):
            return
        self._density = None if density is AGENDA_NOT_OFFERED else density
        self._show_feed(self._feed.state)

    def _row(self, item: AgendaItem) -> AgendaRow:
        return self._copy.row(item, self._clock(), self._zone)

    def _show_feed(self, feed: FeedState[AgendaRow]) -> None:
        if self._copy.hides(feed, self._reloads):
            return  # _reload_rows shows the kept copy instead, or this failure after all
        now = self._clock()
        today = now.astimezone(self._zone).date()
        shown = self.snapshot
        density = self._density if not self._not_offered else None
        failure = feed.first_page_failure
        words = shown.words
        self._publish(
            replace(
                shown,
                phase=feed.phase,
                days=agenda_days(_sorted(feed.rows), today, now, self._zone),
                not_offered=self._not_offered,
                busy_heading=None if density is None else busy_heading(shown.span, words),
                busy=() if density is None else busy_cells(density, shown.span, self._zone, today),
                quiet_text=(
                    None if density is None else quiet_text(density, shown.span, self._zone, today)
                ),
                first_page_error=None if failure is None else failure_text(failure, words=words),
                later_page_error=(
                    None
                    if feed.later_page_failure is None
                    else failure_text(feed.later_page_failure, words=words)
                ),
                empty_text=self._empty_text(feed),
                cached_at=None if failure is not None else self._copy.read_at,
            )
        )

    def _empty_text(self, feed: FeedState[AgendaRow]) -> str | None:
        if feed.rows or feed.phase is not FeedPhase.END_REACHED or self._not_offered:
            return None
        query, words = self.snapshot.query.strip(), self.snapshot.words
        if query:
            return words.gettext(NO_MATCH_TEXT).format(query=query)
        if self.snapshot.attention_only:
            return words.gettext(NOTHING_NEEDS_ATTENTION_TEXT)
        return words.gettext(EMPTY_TEXT[self.snapshot.span])


def _sorted(rows: Sequence[AgendaRow]) -> tuple[AgendaRow, ...]:
    """The server's order (instant, then schedule), kept should a page arrive out of it."""
    return tuple(sorted(rows, key=lambda row: (row.at, str(row.schedule_id))))
