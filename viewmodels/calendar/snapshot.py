"""What the detail's Calendar section shows: a month grid, the chosen day, the month's notes.

Every text is final and every mark carries its words, so a view draws the
grid without deciding anything and a screen reader hears the same marks a
sighted user sees (``DayCell.label``). Marks differ by kind, and each kind has
its own shape in the view: colour is never the only difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from uuid import UUID

from viewmodels.formatting.clock_text import weekday_abbreviations
from viewmodels.formatting.marks import MarkKind as MarkKind
from viewmodels.language import DEFAULT_LOCALE, N_

PREVIOUS_MONTH_LABEL = N_("Previous month")
NEXT_MONTH_LABEL = N_("Next month")


class CalendarPhase(StrEnum):
    IDLE = "idle"
    """No schedule shown."""
    LOADING = "loading"
    """The month's projection is being read; the grid shows its days meanwhile."""
    LOADED = "loaded"
    FAILED = "failed"
    """The read failed: the grid stays, with ``error`` and a retry."""


MARK_WORDS = {
    MarkKind.FIRES: N_("fires"),
    MarkKind.ADJUSTED: N_("fires, clock change"),
    MarkKind.MAY_OVERLAP: N_("may be skipped if the previous run is still going"),
    MarkKind.WOULD_FIRE: N_("would fire if resumed"),
    MarkKind.RAN: N_("ran"),
    MarkKind.RUNNING: N_("running"),
    MarkKind.FAILED: N_("run failed"),
    MarkKind.MISSED: N_("missed"),
    MarkKind.SKIPPED: N_("Skipped: the previous run was still going"),
    MarkKind.REFUSED: N_("refused, no authority"),
    MarkKind.NOT_RUN: N_("not run"),
    MarkKind.NOT_FIRED: N_("not fired, nothing recorded"),
    MarkKind.NO_RECORD: N_("no record"),
    MarkKind.NO_FIRING: N_("never fires"),
}
"""The legend's word for each mark (English; the snapshot's legend is translated)."""


@dataclass(frozen=True, slots=True)
class DayMark:
    """``count`` marks of one kind on one day."""

    kind: MarkKind
    count: int
    count_text: str | None = None
    """Set when there are too many to draw one by one ("12"): draw one mark and this."""


@dataclass(frozen=True, slots=True)
class DayCell:
    day: date
    number_text: str
    in_month: bool
    """False for the leading and trailing days of the neighbouring months (dimmed)."""
    is_today: bool
    selected: bool
    marks: tuple[DayMark, ...]
    label: str
    """What a screen reader says: the date, today, and every mark in words."""


@dataclass(frozen=True, slots=True)
class DayLine:
    """One entry of the chosen day: a firing, a past outcome or a notice, as one sentence."""

    kind: MarkKind
    text: str


@dataclass(frozen=True, slots=True)
class CalendarSnapshot:
    schedule_id: UUID | None = None
    phase: CalendarPhase = CalendarPhase.IDLE
    month_title: str = ""
    """ "March 2027"."""
    weekday_headings: tuple[str, ...] = weekday_abbreviations(1, DEFAULT_LOCALE)
    """The seven columns' headings ("Mon" …), from the locale's first weekday."""
    weeks: tuple[tuple[DayCell, ...], ...] = ()
    """Weeks from the locale's first weekday covering the month, padded with the
    neighbouring months' days."""
    selected_day: date | None = None
    day_heading: str = ""
    """ "Sunday, 14 March 2027"."""
    day_lines: tuple[DayLine, ...] = ()
    """The chosen day's firings, past outcomes and notices, earliest first."""
    day_empty_text: str | None = None
    """Set when the chosen day holds nothing (after the month loaded)."""
    notes: tuple[str, ...] = ()
    """The month's clock changes and dates that never fire, one plain sentence each."""
    legend: tuple[tuple[MarkKind, str], ...] = ()
    """Each kind of mark the grid shows, with its word, in the marks' order."""
    status_text: str | None = None
    """A fact about the whole calendar: paused (shown as if resumed), ended, loading."""
    zone_text: str | None = None
    """Which clock the times are on, when the schedule's zone is not the device's."""
    error: str | None = None
    """Why the month could not be read (FAILED), shown with a retry."""
    keyboard_moves: int = 0
    """Counts selections made with the keyboard: the view moves focus to the chosen day."""
    tab_stop_day: date | None = None
    """The grid's one Tab stop (``month_grid.tab_stop_day``): the only focusable day, so
    the grid costs one Tab, and the arrows move inside it."""
    grid_focused: bool = False
    """A day holds the keyboard focus: the view draws the focus ring on ``tab_stop_day``."""

    @property
    def loading(self) -> bool:
        return self.phase is CalendarPhase.LOADING

    @property
    def can_retry(self) -> bool:
        return self.phase is CalendarPhase.FAILED
