"""The schedules sheet's state machine: page one on every open, switch or reload.

Paging safeguards (``DESIGN.md``, "The browser's rules"), each enforced here:

1. a schedule already shown is ignored when a later page repeats it;
2. a next cursor that was already requested ends paging (no loop);
3. every reload (open, section switch, refresh) bumps a generation; a response
   for an older generation is dropped, so it can never overwrite a newer one;
4. a failed later page keeps the rows and remembers that page's cursor, and
   ``retry()`` re-requests exactly that page;
5. a failed first page is a full-page error, ``retry()`` reloads page one;
6. 404/405 from the list route (``BrowsingUnavailable``) is "browsing
   unavailable", not an error.

The client never computes a next firing: rows show the server's ``next_fire_at``.
"""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError, BrowsingUnavailable
from transport.models import Page, ScheduleDetail, ScheduleSummary
from viewmodels.failure_text import failure_text
from viewmodels.observable import Observable
from viewmodels.ports import Clock, ScheduleApi
from viewmodels.schedule_list.rows import schedule_row, summary_of
from viewmodels.schedule_list.snapshot import (
    ListPhase,
    ListSection,
    ScheduleListSnapshot,
    ScheduleRow,
)

DEFAULT_PAGE_SIZE = 20


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
        self._generation = 0
        self._shown: set[UUID] = set()
        self._requested: set[str] = set()
        self._next_cursor: str | None = None
        self._failed_cursor: str | None = None

    @property
    def page_size(self) -> int:
        return self._page_size

    async def open(self) -> None:
        """Opening the sheet reloads page one of the current section."""
        await self.reload()

    async def select_section(self, section: ListSection) -> None:
        """Switch section: rows clear and page one of ``section`` loads (counts as a reload)."""
        if section is not self.snapshot.section:
            self._publish(replace(self.snapshot, section=section, rows=()))
        await self.reload()

    async def reload(self) -> None:
        """Page one again (pull-to-refresh). Rows stay visible until it answers."""
        self._generation += 1
        generation = self._generation
        self._requested = set()
        self._next_cursor = None
        self._failed_cursor = None
        self._publish(
            replace(
                self.snapshot,
                phase=ListPhase.LOADING_FIRST_PAGE,
                first_page_error=None,
                later_page_error=None,
                browsing_unavailable=False,
            )
        )
        try:
            page = await self._fetch(None)
        except BrowsingUnavailable:
            if generation == self._generation:
                self._publish(
                    replace(
                        self.snapshot, rows=(), phase=ListPhase.FAILED, browsing_unavailable=True
                    )
                )
            return
        except ApiError as error:
            if generation == self._generation:
                self._publish(
                    replace(
                        self.snapshot,
                        rows=(),
                        phase=ListPhase.FAILED,
                        first_page_error=failure_text(error),
                    )
                )
            return
        if generation != self._generation:
            return
        self._shown = set()
        self._apply(page, cursor=None, rows=())

    async def load_more(self) -> None:
        """The next page, when there is one and nothing else is in flight."""
        if not self.snapshot.can_load_more or self._next_cursor is None:
            return
        await self._load_later(self._next_cursor)

    async def retry(self) -> None:
        """After a failure: page one again, or exactly the later page that failed."""
        snapshot = self.snapshot
        if snapshot.later_page_error is not None and self._failed_cursor is not None:
            await self._load_later(self._failed_cursor)
        elif snapshot.first_page_error is not None or snapshot.browsing_unavailable:
            await self.reload()

    def select(self, schedule_id: UUID | None) -> None:
        """Mark a row as selected (the detail pane shows it)."""
        self._publish(replace(self.snapshot, selected_id=schedule_id))

    def show_saved(self, detail: ScheduleDetail) -> None:
        """A schedule saved from its detail: its loaded row shows the new record in place.

        The row keeps its position and every other loaded page stays, so a save
        deep in a long list does not throw the reader back to page one; the
        server's order applies again on the next reload.
        """
        rows = self.snapshot.rows
        for index, row in enumerate(rows):
            if row.schedule_id == detail.schedule_id:
                updated = schedule_row(summary_of(detail, row.preview), self._clock(), self._zone)
                self._publish(
                    replace(self.snapshot, rows=(*rows[:index], updated, *rows[index + 1 :]))
                )
                return

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

    async def _load_later(self, cursor: str) -> None:
        generation = self._generation
        self._publish(replace(self.snapshot, phase=ListPhase.LOADING_MORE, later_page_error=None))
        try:
            page = await self._fetch(cursor)
        except ApiError as error:
            if generation == self._generation:
                self._failed_cursor = cursor
                self._publish(
                    replace(
                        self.snapshot, phase=ListPhase.LOADED, later_page_error=failure_text(error)
                    )
                )
            return
        if generation != self._generation:
            return
        self._failed_cursor = None
        self._apply(page, cursor=cursor, rows=self.snapshot.rows)

    async def _fetch(self, cursor: str | None) -> Page[ScheduleSummary]:
        if cursor is not None:
            self._requested.add(cursor)
        return await self._api.list_schedules(
            states=self.snapshot.section.states, limit=self._page_size, cursor=cursor
        )

    def _apply(
        self,
        page: Page[ScheduleSummary],
        *,
        cursor: str | None,
        rows: tuple[ScheduleRow, ...],
    ) -> None:
        now = self._clock()
        added: list[ScheduleRow] = []
        for summary in page.items:
            if summary.schedule_id in self._shown:
                continue
            self._shown.add(summary.schedule_id)
            added.append(schedule_row(summary, now, self._zone))
        following = page.next_cursor
        if following is None or following == cursor or following in self._requested:
            self._next_cursor = None
            phase = ListPhase.END_REACHED
        else:
            self._next_cursor = following
            phase = ListPhase.LOADED
        self._publish(
            replace(
                self.snapshot,
                rows=(*rows, *added),
                phase=phase,
                first_page_error=None,
                later_page_error=None,
                browsing_unavailable=False,
            )
        )
