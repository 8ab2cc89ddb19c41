"""What the Agenda screen shows: firings grouped by the person's local day, and the busy strip.

Every string is final text, in the snapshot's ``locale``; the constants stay
English (marked ``N_``) and a view showing one looks it up. A row is one
firing; a day is a heading with its rows, and on Today the place of the "Now"
line; the busy strip is one cell per hour (Today, Next 7 days) or per day
(Month), a quiet one marked. Paging state is the list's (``viewmodels.paging``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from uuid import UUID

from babel import Locale

from viewmodels.agenda.window import AgendaSpan
from viewmodels.formatting.marks import MarkKind
from viewmodels.language import DEFAULT_LOCALE, N_, Words, words_for
from viewmodels.paging import FeedPhase

AGENDA_HEADING = N_("Agenda")
SPANS = (AgendaSpan.TODAY, AgendaSpan.WEEK, AgendaSpan.MONTH)
NOW_TEXT = N_("Now")
NOT_OFFERED_TEXT = N_("This server does not offer an agenda")
BUSY_HOURS_HEADING = N_("Busy hours")
BUSY_DAYS_HEADING = N_("Busy days")
END_TEXT = N_("End of agenda")
FAILURE_TITLE = N_("Couldn't read the agenda")
LOADING_TEXT = N_("Reading the agenda…")
SEARCH_LABEL = N_("Search the agenda")
AGENDA_ENTRY_LABEL = N_("Agenda")
"""The destination's entry beside Schedules (the sidebar, the phone's drawer)."""


@dataclass(frozen=True, slots=True)
class AgendaRow:
    """One firing, in words."""

    schedule_id: UUID
    at: datetime
    day: date
    """The local date in the person's zone: the day heading it sits under."""
    time_text: str
    """ "09:00", the person's clock."""
    own_time_text: str | None
    """ "10:00 in Paris" when the schedule's zone reads another time; else None."""
    title: str
    cadence_text: str
    past: bool
    mark: MarkKind
    """The firing's mark: to come, or what became of it (the calendar's kinds)."""
    outcome_text: str | None
    """A past firing's outcome ("Ran", "No record"); None for one still to come."""
    clash_text: str | None
    """ "9 schedules at 09:00" when others fire at the same instant."""
    overlap_text: str | None
    paused_text: str | None
    """ "Paused: shown as if resumed" for a paused schedule's firing."""

    @property
    def key(self) -> str:
        """The row's reconciliation key: one firing is one schedule at one instant."""
        return f"{self.schedule_id}@{self.at.isoformat()}"

    @property
    def name(self) -> str:
        """The row's accessible name: its lines in reading order."""
        parts = [self.time_text, self.own_time_text, self.title, self.cadence_text]
        parts += [self.outcome_text, self.paused_text, self.clash_text, self.overlap_text]
        return ", ".join(part for part in parts if part)


@dataclass(frozen=True, slots=True)
class AgendaDay:
    """One local day's heading and rows; ``now_at`` places the Now line before row ``now_at``."""

    day: date
    heading: str
    rows: tuple[AgendaRow, ...]
    now_at: int | None = None

    @property
    def key(self) -> str:
        """The heading's scroll key, where Back brings the agenda."""
        return day_key(self.day)


def day_key(day: date) -> str:
    return f"agenda-day-{day.isoformat()}"


@dataclass(frozen=True, slots=True)
class BusyCell:
    """One hour or day of the busy strip."""

    label: str
    """ "09" for an hour ("9 am" on an en_GB 12-hour clock), "9" for a day."""
    count: int
    quiet: bool
    heat: float
    """0 for none, up to 1 for the busiest cell of the window."""
    name: str
    """ "09:00 Wednesday 9 December: 3 firings" / "... : no firing (quiet)"."""


@dataclass(frozen=True, slots=True)
class AgendaSnapshot:
    span: AgendaSpan = AgendaSpan.TODAY
    phase: FeedPhase = FeedPhase.IDLE
    days: tuple[AgendaDay, ...] = ()
    busy_heading: str | None = None
    """None hides the strip (no density route, or not read yet)."""
    busy: tuple[BusyCell, ...] = ()
    quiet_text: str | None = None
    """The quiet slots in a sentence: hours with no firing, or days in Month."""
    not_offered: bool = False
    first_page_error: str | None = None
    later_page_error: str | None = None
    empty_text: str | None = None
    query: str = ""
    attention_only: bool = False
    zone_text: str = ""
    cached_at: datetime | None = None
    """The rows are the copy last read at this instant (the server cannot be reached)."""
    anchor: date | None = None
    """The day heading to bring back into view (after Back from a detail)."""
    locale: Locale = DEFAULT_LOCALE
    """The language every text of the snapshot is in (the device zone's locale)."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    @property
    def loading(self) -> bool:
        return self.phase is FeedPhase.LOADING_FIRST_PAGE and not self.days

    @property
    def can_load_more(self) -> bool:
        return self.phase is FeedPhase.LOADED and self.later_page_error is None

    @property
    def loading_more(self) -> bool:
        return self.phase is FeedPhase.LOADING_MORE

    @property
    def end_text(self) -> str | None:
        if self.phase is not FeedPhase.END_REACHED or not self.days:
            return None
        return self.words.gettext(END_TEXT)
