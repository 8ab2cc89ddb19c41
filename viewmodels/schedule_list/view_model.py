"""The schedules sheet: page one on every open, section switch or reload, then paging.

The paging safeguards (duplicate rows, cursor loops, stale reloads, failed
later pages) are ``viewmodels.paging.CursorFeed``'s; this screen adds its own
two rules: a failed first page is a full-page error, and 404/405 from the list
route (``BrowsingUnavailable``) means "browsing unavailable", not an error.
Switching section counts as a reload. The client never computes a next
firing: rows show the server's ``next_fire_at``, in words that read the
clock ("today at 09:00"), so ``refresh_clock_texts`` makes them again once
the device's date has changed.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError, BrowsingUnavailable, NotFound
from transport.models import Page, ScheduleDetail, ScheduleSummary
from viewmodels.failure_text import failure_text
from viewmodels.observable import Observable
from viewmodels.paging import CursorFeed, FeedState
from viewmodels.ports import Clock, ScheduleApi
from viewmodels.schedule_list.rows import schedule_row, summary_of
from viewmodels.schedule_list.snapshot import ListSection, ScheduleListSnapshot, ScheduleRow

DEFAULT_PAGE_SIZE = 20
DUE_REREADS = 20
"""At most this many rows are read again per ``refresh_due`` (the rest on the next round)."""


class ScheduleListViewModel(Observable[ScheduleListSnapshot]):
    """Current / Recent History with safe, user-driven paging."""

    def __init__(
        self,
        api: ScheduleApi,
        *,
        clock: Clock,
        device_zone: ZoneInfo,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> None:
        super().__init__(ScheduleListSnapshot())
        self._api = api
        self._clock = clock
        self._zone = device_zone
        self._page_size = page_size
        self._feed: CursorFeed[ScheduleSummary, ScheduleRow] = CursorFeed(
            key=lambda summary: summary.schedule_id,
            to_row=lambda summary: schedule_row(summary, self._clock(), self._zone),
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
        """Switch section: rows clear and page one of ``section`` loads (counts as a reload)."""
        if section is not self.snapshot.section:
            self._publish(replace(self.snapshot, section=section))
            self._feed.clear()
        await self.reload()

    async def reload(self) -> None:
        """Page one again (pull-to-refresh). Rows stay visible until it answers."""
        states = self.snapshot.section.states

        async def fetch(cursor: str | None) -> Page[ScheduleSummary]:
            return await self._api.list_schedules(
                states=states, limit=self._page_size, cursor=cursor
            )

        self._gone.clear()
        await self._feed.reload(fetch)

    async def load_more(self) -> None:
        """The next page, when there is one and nothing else is in flight."""
        await self._feed.load_more()

    async def retry(self) -> None:
        """After a failure: exactly the later page that failed, or page one again."""
        await self._feed.retry()

    def select(self, schedule_id: UUID | None) -> None:
        """Mark a row as selected (the detail pane shows it)."""
        self._publish(replace(self.snapshot, selected_id=schedule_id))

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
        if today != self._texts_date:
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

    def _show_feed(self, feed: FeedState[ScheduleRow]) -> None:
        failure = feed.first_page_failure
        unavailable = isinstance(failure, BrowsingUnavailable)
        self._publish(
            replace(
                self.snapshot,
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
