"""What the schedule list shows: a section, ready-to-render rows, and paging state.

Every string here is final text (state labels, cadence summaries, next firing):
views render it as is. The snapshot is replaced whole on each change.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from uuid import UUID


class ListSection(StrEnum):
    """The two sections of the schedules sheet and the states each one asks for."""

    CURRENT = "current"
    RECENT_HISTORY = "recent_history"

    @property
    def label(self) -> str:
        return "Current" if self is ListSection.CURRENT else "Recent History"

    @property
    def states(self) -> tuple[str, ...]:
        """The repeated ``state`` filter sent to ``GET /v1/schedules``."""
        if self is ListSection.CURRENT:
            return ("ACTIVE", "PAUSED")
        return ("COMPLETED", "CANCELLED")

    @property
    def empty_text(self) -> str:
        if self is ListSection.CURRENT:
            return "No active or paused schedules."
        return "No completed or cancelled schedules yet."


class ListPhase(StrEnum):
    """Where paging stands. Errors are separate fields so rows can stay visible."""

    IDLE = "idle"
    """Not opened yet."""
    LOADING_FIRST_PAGE = "loading_first_page"
    """Page one requested (rows still show the previous reload, if any)."""
    LOADED = "loaded"
    """At least page one is in; more pages exist."""
    LOADING_MORE = "loading_more"
    """A later page is in flight."""
    END_REACHED = "end_reached"
    """The server said there is nothing more (or paging stopped on a repeated cursor)."""
    FAILED = "failed"
    """Page one failed (``first_page_error``) or browsing is unavailable; no rows."""


BROWSING_UNAVAILABLE_TEXT = "Schedule browsing isn't available on this server"


@dataclass(frozen=True, slots=True)
class ScheduleRow:
    """One list row, formatted. ``preview`` is the server's bounded preview only."""

    schedule_id: UUID
    title: str
    state: str
    """The raw wire state, for views that pick an icon; the label is what to show."""
    state_label: str
    pause_reason_text: str | None
    """Why a PAUSED schedule is paused ("Paused by you"), else None."""
    cadence_summary: str
    next_fire_text: str | None
    """"Next: …" in the device zone, present only when the server sent ``next_fire_at``."""
    preview: str
    website_bound: bool
    """True when the schedule may use a website sign-in (a badge in the row)."""
    website_badge: str | None
    """The badge text ("Website access") when bound, else None."""
    accessibility_label: str
    """One sentence a screen reader speaks for the whole row."""


@dataclass(frozen=True, slots=True)
class ScheduleListSnapshot:
    """The list's whole state."""

    section: ListSection = ListSection.CURRENT
    rows: tuple[ScheduleRow, ...] = ()
    phase: ListPhase = ListPhase.IDLE
    first_page_error: str | None = None
    """Full-page error (page one failed); ``retry()`` reloads page one."""
    later_page_error: str | None = None
    """Inline error under the rows (a later page failed); ``retry()`` re-requests that page."""
    browsing_unavailable: bool = False
    """The server answered 404/405 on the list route: show ``unavailable_text``, not an error."""
    selected_id: UUID | None = None

    @property
    def unavailable_text(self) -> str | None:
        return BROWSING_UNAVAILABLE_TEXT if self.browsing_unavailable else None

    @property
    def empty_text(self) -> str | None:
        """What an empty, fully loaded section says; None when rows or work remain."""
        if self.rows or self.phase is not ListPhase.END_REACHED:
            return None
        if self.first_page_error or self.browsing_unavailable:
            return None
        return self.section.empty_text

    @property
    def can_load_more(self) -> bool:
        """True when scrolling to the end should call ``load_more()``."""
        return self.phase is ListPhase.LOADED and self.later_page_error is None

    @property
    def is_loading(self) -> bool:
        return self.phase in (ListPhase.LOADING_FIRST_PAGE, ListPhase.LOADING_MORE)
