"""The detail's Calendar section: one month of the schedule's projection at a time.

Each month is one read of ``GET /v1/schedules/{id}/projection``; the newest
request wins (a ``LatestRequest``), a failure keeps the grid with a retry, and
``refresh`` reads the shown month again quietly. Each month read is kept beside
its detail in the view cache and shown offline. While a day cell has the focus
(``set_grid_focus``) the calendar takes the arrows and Page Up/Down (``press``
answers whether it took the key); the grid is one Tab stop (``tab_stop_day``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError
from transport.models import Projection
from viewmodels.calendar.cells import weeks
from viewmodels.calendar.month_content import DayEntry, MonthContent, month_content
from viewmodels.calendar.month_grid import (
    Month,
    first_weekday,
    grid_days,
    request_window,
    tab_stop_day,
)
from viewmodels.calendar.snapshot import (
    MARK_WORDS,
    CalendarPhase,
    CalendarSnapshot,
    DayLine,
    MarkKind,
)
from viewmodels.failure_text import failure_text
from viewmodels.formatting.clock_text import locale_of, long_date_text, weekday_abbreviations
from viewmodels.language import N_, words_for
from viewmodels.observable import Observable
from viewmodels.offline import OfflineViewModel, unreachable
from viewmodels.paging import LatestRequest
from viewmodels.ports import Clock, ScheduleApi

EMPTY_DAY_TEXT = N_("Nothing scheduled on this day")
NOT_READ_MONTH = N_("This month was not read while the schedule server could be reached.")
_DAY_KEYS = {"Arrow Left": -1, "Arrow Right": 1, "Arrow Up": -7, "Arrow Down": 7}
_MONTH_KEYS = {"Page Up": -1, "Page Down": 1}


@dataclass(frozen=True, slots=True)
class _Shown:
    schedule_id: UUID
    month: Month
    selected: date


class CalendarViewModel(Observable[CalendarSnapshot]):
    """Owned by ``ScheduleDetailViewModel``, which calls ``show``, ``refresh`` and ``clear``."""

    def __init__(
        self,
        api: ScheduleApi,
        *,
        clock: Clock,
        device_zone: ZoneInfo,
        offline: OfflineViewModel | None = None,
    ) -> None:
        super().__init__(CalendarSnapshot())
        self._api = api
        self._offline = offline
        self._read: tuple[UUID, str, Projection, datetime] | None = None
        self._clock = clock
        self._zone = device_zone
        self._locale = locale_of(device_zone)
        self._words = words_for(self._locale)
        self._first_weekday = first_weekday(self._locale)
        self._requests = LatestRequest()
        self._shown: _Shown | None = None
        self._content: MonthContent | None = None
        self._phase = CalendarPhase.IDLE
        self._error: str | None = None
        self._grid_focused = False
        self._keyboard_moves = 0
        self._marked_today: date | None = None

    async def show(self, schedule_id: UUID, *, opening: date | None = None) -> None:
        """A schedule was opened: its calendar at the current month, today chosen.

        ``opening`` chooses another day instead: an ended schedule opens on
        its last firing's, since nothing it did is in the current month.
        """
        chosen = opening or self._today()
        self._shown = _Shown(schedule_id, Month.of(chosen), chosen)
        await self._load(quiet=False)

    async def refresh(self) -> bool:
        """Read the shown month again, keeping it on screen; False when the server failed."""
        if self._shown is None:
            return True
        return await self._load(quiet=True)

    def clear(self) -> None:
        """The detail closed: nothing shown, answers in flight dropped."""
        self._requests.drop()
        self._shown = None
        self._read = None
        self._content = None
        self._phase = CalendarPhase.IDLE
        self._error = None
        self._grid_focused = False
        self._publish(CalendarSnapshot())

    def refresh_clock_texts(self) -> None:
        """Past midnight the grid marks the new today."""
        if self._shown is not None and self._today() != self._marked_today:
            self._render()

    async def previous_month(self) -> None:
        await self._move_months(-1)

    async def next_month(self) -> None:
        await self._move_months(1)

    async def select_day(self, day: date) -> None:
        """Choose ``day``; a day of another month shows (and reads) that month."""
        shown = self._shown
        if shown is None:
            return
        self._shown = _Shown(shown.schedule_id, Month.of(day), day)
        if shown.month.holds(day):
            self._render()
        else:
            await self._load(quiet=False)

    async def retry(self) -> None:
        """Read the shown month again after a failure."""
        if self._shown is not None:
            await self._load(quiet=False)

    @property
    def grid_focused(self) -> bool:
        return self._grid_focused

    def set_grid_focus(self, focused: bool) -> None:
        """The view says whether a day cell holds the keyboard focus (the ring follows)."""
        if focused != self._grid_focused:
            self._grid_focused = focused
            if self._shown is not None:
                self._render()

    async def press(self, key: str) -> bool:
        """A key pressed while the grid may have focus; True when the calendar took it."""
        shown = self._shown
        if shown is None or not self._grid_focused:
            return False
        if key in _DAY_KEYS:
            self._keyboard_moves += 1
            await self.select_day(shown.selected + timedelta(days=_DAY_KEYS[key]))
            return True
        if key in _MONTH_KEYS:
            self._keyboard_moves += 1
            month = shown.month.shifted(_MONTH_KEYS[key])
            await self.select_day(month.same_day(shown.selected))
            return True
        if key == "Escape":
            self.set_grid_focus(False)
            return True
        return False

    async def _move_months(self, months: int) -> None:
        shown = self._shown
        if shown is None:
            return
        month = shown.month.shifted(months)
        today = self._today()
        chosen = today if month.holds(today) else month.first_day
        self._shown = _Shown(shown.schedule_id, month, chosen)
        await self._load(quiet=False)

    async def _load(self, *, quiet: bool) -> bool:
        shown = self._shown
        if shown is None:
            return True
        ticket = self._requests.begin()
        if not quiet or self._content is None:
            self._content = None
            self._phase = CalendarPhase.LOADING
            self._error = None
            self._render()
        start, end = request_window(grid_days(shown.month, self._first_weekday), self._zone)
        try:
            projection = await self._api.get_projection(shown.schedule_id, start=start, end=end)
        except ApiError as error:
            if self._offline is not None and unreachable(error) and not quiet:
                kept = await self._offline.cache.month(shown.schedule_id, _month_key(shown.month))
                if self._requests.is_current(ticket):
                    if kept is not None:
                        self._content = month_content(kept.projection, shown.month, self._zone)
                        self._phase = CalendarPhase.LOADED
                        self._error = None
                    else:
                        self._phase = CalendarPhase.FAILED
                        self._error = self._words.gettext(NOT_READ_MONTH)
                    self._render()
                return False
            if self._requests.is_current(ticket) and self._content is None:
                self._phase = CalendarPhase.FAILED
                self._error = failure_text(error, words=self._words)
                self._render()
            return False
        if self._requests.is_current(ticket):
            self._content = month_content(projection, shown.month, self._zone)
            self._phase = CalendarPhase.LOADED
            self._error = None
            self._render()
            self._read = (shown.schedule_id, _month_key(shown.month), projection, self._clock())
            await self.keep_read()
        return True

    async def keep_read(self) -> None:
        """The month last read, into the view cache beside its detail (once that is kept)."""
        if self._offline is not None and self._read is not None:
            await self._offline.cache.keep_month(*self._read)

    def _render(self) -> None:
        shown = self._shown
        if shown is None:
            self._publish(CalendarSnapshot())
            return
        content = self._content
        entries = None if content is None else content.entries
        chosen = () if entries is None else entries.get(shown.selected, ())
        loading = self._phase is CalendarPhase.LOADING
        today = self._marked_today = self._today()
        locale, words = self._locale, self._words
        days = grid_days(shown.month, self._first_weekday)
        grid = weeks(shown.month, days, entries, today, shown.selected, locale)
        title = shown.month.title(locale)
        drawn = {mark.kind for week in grid for cell in week for mark in cell.marks}
        legend = tuple((k, words.gettext(MARK_WORDS[k])) for k in MarkKind if k in drawn)
        status = None if content is None else content.status_text
        if loading:
            # Translators: while a month of the calendar is read; {month} is "March 2027".
            status = words.gettext("Reading {month}…").format(month=title)
        empty = content is not None and not chosen
        self._publish(
            CalendarSnapshot(
                schedule_id=shown.schedule_id,
                phase=self._phase,
                month_title=title,
                weekday_headings=weekday_abbreviations(self._first_weekday, locale),
                weeks=grid,
                selected_day=shown.selected,
                day_heading=long_date_text(shown.selected, locale),
                day_lines=tuple(DayLine(entry.kind, entry.line) for entry in chosen),
                day_empty_text=words.gettext(EMPTY_DAY_TEXT) if empty else None,
                notes=() if content is None else content.notes,
                legend=legend,
                status_text=status,
                zone_text=None if content is None else content.zone_text,
                error=self._error,
                keyboard_moves=self._keyboard_moves,
                tab_stop_day=tab_stop_day(
                    shown.month, shown.selected, today, _firing_days(entries)
                ),
                grid_focused=self._grid_focused,
            )
        )

    def _today(self) -> date:
        return self._clock().astimezone(self._zone).date()


def _firing_days(entries: Mapping[date, tuple[DayEntry, ...]] | None) -> tuple[date, ...]:
    """Days with a firing, past or to come (a date that never fires is only a notice)."""
    if entries is None:
        return ()
    return tuple(
        day
        for day, found in entries.items()
        if any(e.kind is not MarkKind.NO_FIRING for e in found)
    )


def _month_key(month: Month) -> str:
    return f"{month.year:04d}-{month.month:02d}"
