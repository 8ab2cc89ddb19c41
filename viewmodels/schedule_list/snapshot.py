"""What the schedule list shows: a section, ready-to-render rows, and paging state.

Every string here is final text (state labels, cadence summaries, next firing):
views render it as is. The snapshot is replaced whole on each change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from transport.models import ListOrder, ScheduleState
from viewmodels.formatting.tone import Tone
from viewmodels.paging import FeedPhase
from viewmodels.schedule_list.search_match import TextSpan
from viewmodels.server_kind import (
    LOAD_DEMO_TEXT,
    RECENT_HISTORY_KEEPS_TEXT,
    WHERE_SCHEDULES_COME_FROM,
    ServerKind,
)


class ListSection(StrEnum):
    """The two sections of the schedules sheet and the states each one asks for."""

    CURRENT = "current"
    RECENT_HISTORY = "recent_history"

    @property
    def label(self) -> str:
        return "Current" if self is ListSection.CURRENT else "Recent History"

    @property
    def states(self) -> tuple[ScheduleState, ...]:
        """The repeated ``state`` filter sent to ``GET /v1/schedules``."""
        if self is ListSection.CURRENT:
            return (ScheduleState.ACTIVE, ScheduleState.PAUSED)
        return (ScheduleState.COMPLETED, ScheduleState.CANCELLED)

    @property
    def empty_text(self) -> str:
        if self is ListSection.CURRENT:
            return "No active or paused schedules."
        return "No completed or cancelled schedules yet."

    def empty_guidance(self, server: ServerKind) -> str:
        """What follows an empty section's sentence: where its schedules come from.

        The embedded demo server also says how to load the demo; Recent
        History says how long an ended schedule stays in it (the server's
        30-day retention).
        """
        if self is ListSection.RECENT_HISTORY:
            return RECENT_HISTORY_KEEPS_TEXT
        if server is ServerKind.EMBEDDED:
            return f"{WHERE_SCHEDULES_COME_FROM} {LOAD_DEMO_TEXT}"
        return WHERE_SCHEDULES_COME_FROM

    @property
    def other(self) -> ListSection:
        return ListSection.RECENT_HISTORY if self is ListSection.CURRENT else ListSection.CURRENT

    def no_match_text(self, query: str) -> str:
        """What a search that found nothing in this section says."""
        if self is ListSection.CURRENT:
            return f"No current schedules match “{query}”"
        return f"No schedules in Recent History match “{query}”"


ATTENTION_LABEL = "Needs attention"
NOTHING_NEEDS_ATTENTION_TEXT = "Nothing needs attention."
SEARCH_LABEL = "Search schedules"
SOONEST_FIRST_LABEL = "Soonest first"
"""The order chip: on, the list is soonest first (by next firing), paused ones after."""
CLEAR_SEARCH_LABEL = "Clear search"


OPENED_ROW_TEXT = "Shown in the details"
"""Added to the opened row's spoken sentence: the fill and bar say it to the eye."""
BROWSING_UNAVAILABLE_TEXT = "Schedule browsing isn't available on this server"
FAILURE_TITLE = "Schedules could not be loaded"
END_OF_LIST_TEXT = "End of list"
LOADING_TEXT = "Loading schedules…"
REFRESHING_TEXT = "Refreshing schedules"
"""The progress bar's spoken name while page one is read again over the rows shown."""
REFRESH_LABEL = "Refresh"
SEARCH_ACTION_LABEL = "Search"
"""A phone's app-bar action that shows the search field."""


@dataclass(frozen=True, slots=True)
class ScheduleRow:
    """One list row, formatted. ``preview`` is the server's bounded preview only."""

    schedule_id: UUID
    title: str
    state: str
    """The raw wire state, for views that pick an icon; the label is what to show."""
    state_label: str
    state_tone: Tone
    """The tone the state label is tinted in; the view maps it to colours."""
    pause_reason_text: str | None
    """Why a PAUSED schedule is paused ("Paused by you"), else None."""
    cadence_summary: str
    next_fire_at: datetime | None
    """The server's next firing: once it has passed, the row is read again."""
    next_fire_text: str | None
    """"Next: …" in the device zone, present only when the server sent ``next_fire_at``."""
    preview: str
    website_badge: str | None
    """The badge text ("Website access") when the schedule may use a website sign-in;
    "Website sign-in unavailable" when ``website_warning``."""
    attention_text: str | None
    """The warning line ("Run failed: it ran past its deadline") when the last firing needs
    attention, else None."""
    accessibility_label: str
    """One sentence a screen reader speaks for the whole row."""
    website_warning: bool = False
    """ACTIVE and its bound sign-in is not ready (or gone): the badge is a warning."""
    ended_text: str | None = None
    """How and when an ended schedule ended ("Cancelled on 3 Nov"), else None."""
    next_fire_overdue: bool = False
    """The server says the next firing is overdue: ``next_fire_text`` is a warning."""
    title_spans: tuple[TextSpan, ...] = ()
    """The title in runs, the words a search matched marked; empty: the title as is."""
    preview_spans: tuple[TextSpan, ...] = ()
    """The preview in runs, as ``title_spans``."""
    match_text: str | None = None
    """A searched row showing none of the words: why it is listed (its instruction matched)."""

    @property
    def opened_accessibility_label(self) -> str:
        """The row's sentence while the detail shows it: the fill and bar say so to the eye."""
        return f"{self.accessibility_label}. {OPENED_ROW_TEXT}"


@dataclass(frozen=True, slots=True)
class ScheduleListSnapshot:
    """The list's whole state."""

    section: ListSection = ListSection.CURRENT
    rows: tuple[ScheduleRow, ...] = ()
    phase: FeedPhase = FeedPhase.IDLE
    first_page_error: str | None = None
    """Full-page error (page one failed); ``retry()`` reloads page one."""
    later_page_error: str | None = None
    """Inline error under the rows (a later page failed); ``retry()`` re-requests that page."""
    browsing_unavailable: bool = False
    """The server answered 404/405 on the list route: show ``unavailable_text``, not an error."""
    selected_id: UUID | None = None
    """The keyboard's highlight (the focus ring): ↑/↓ move it, Enter opens its row."""
    opened_id: UUID | None = None
    """The row the detail shows (the opened mark): it stays while ↑/↓ move the highlight."""
    cached_at: datetime | None = None
    """The rows are the device's copy, read from the server at this instant (offline)."""
    query: str = ""
    """The search text as typed; the rows answer it once the debounce has passed."""
    attention_only: bool = False
    """The Needs attention filter is on: rows that need attention, in any state."""
    attention_count: int | None = None
    """How many schedules need attention (``GET /v1/schedules/counts``); None until read."""
    search_focus_requests: int = 0
    """Grows by one each time Ctrl+F or / asks for the search field to take the focus."""
    server: ServerKind = ServerKind.PLATFORM
    """Which server the list shows: its empty sentence differs."""
    zone_text: str = ""
    """Once beside the filter: whose time "your time" is ("Times in UTC, your device's zone")."""
    heading_focus_requests: int = 0
    """Grows by one each time Enter opens the highlighted row: the detail's heading then
    takes the keyboard focus, so a screen reader reads what was opened."""
    search_clears: int = 0
    """Grows by one each time the search is cleared (the clear button, Escape): the only
    time the field's text changes other than by typing."""
    order: ListOrder = ListOrder.UPDATED
    """The order the person chose (remembered on the device); ``applied_order`` is sent."""
    order_offered: bool = True
    """False once the server refused the soonest-first order (an older server)."""

    @property
    def attention_label(self) -> str:
        """The filter chip's text: "Needs attention (3)"."""
        if self.attention_count is None:
            return ATTENTION_LABEL
        return f"{ATTENTION_LABEL} ({self.attention_count})"

    @property
    def order_shown(self) -> bool:
        """The order chip shows where it orders something: Current or Needs attention.

        Recent History lists ended schedules, which never fire, so it has no
        soonest; a server that refused the order shows no chip at all.
        """
        return self.order_offered and (self.section is ListSection.CURRENT or self.attention_only)

    @property
    def applied_order(self) -> ListOrder:
        """The order the rows are asked in: the chosen one where it is shown, else the default."""
        return self.order if self.order_shown else ListOrder.UPDATED

    @property
    def soonest_first(self) -> bool:
        """The order chip is on."""
        return self.order is ListOrder.NEXT_FIRE

    @property
    def soonest_first_label(self) -> str:
        return SOONEST_FIRST_LABEL

    @property
    def failure_title(self) -> str:
        """The full-page error's heading when page one failed (``first_page_error``)."""
        return FAILURE_TITLE

    @property
    def end_of_list_text(self) -> str:
        """The footer under the last row once paging has ended."""
        return END_OF_LIST_TEXT

    @property
    def loading_text(self) -> str:
        """The pane's words while page one is read with no rows to show."""
        return LOADING_TEXT

    @property
    def refreshing_text(self) -> str:
        """The spoken name of the progress bar shown while ``refreshing``."""
        return REFRESHING_TEXT

    @property
    def can_refresh(self) -> bool:
        """Refresh is offered except while page one is being read (it would only repeat it)."""
        return self.phase is not FeedPhase.LOADING_FIRST_PAGE

    @property
    def searching(self) -> bool:
        return bool(self.query.strip())

    @property
    def search_elsewhere(self) -> ListSection | None:
        """The section a search that found nothing offers to run the same search in."""
        if self.empty_text is None or not self.searching or self.attention_only:
            return None
        return self.section.other

    @property
    def search_elsewhere_label(self) -> str | None:
        other = self.search_elsewhere
        return None if other is None else f"Search {other.label}"

    @property
    def unavailable_text(self) -> str | None:
        return BROWSING_UNAVAILABLE_TEXT if self.browsing_unavailable else None

    @property
    def empty_text(self) -> str | None:
        """What an empty, fully loaded section says; None when rows or work remain."""
        if self.rows or self.phase is not FeedPhase.END_REACHED:
            return None
        if self.first_page_error or self.browsing_unavailable:
            return None
        query = self.query.strip()
        if self.attention_only:
            if query:
                return f"Nothing that needs attention matches “{query}”"
            return NOTHING_NEEDS_ATTENTION_TEXT
        return self.section.no_match_text(query) if query else self.section.empty_text

    @property
    def empty_guidance(self) -> str | None:
        """The line under an empty section's sentence (not under "No … match")."""
        if self.empty_text is None or self.searching or self.attention_only:
            return None
        return self.section.empty_guidance(self.server)

    def due_rows(self, now: datetime) -> tuple[ScheduleRow, ...]:
        """Rows whose next firing has come: the server has news for them."""
        return tuple(
            row for row in self.rows if row.next_fire_at is not None and row.next_fire_at <= now
        )

    @property
    def can_load_more(self) -> bool:
        """True when scrolling to the end should call ``load_more()``."""
        return self.phase is FeedPhase.LOADED and self.later_page_error is None

    @property
    def refreshing(self) -> bool:
        """Page one is being read again while the previous rows stay on screen."""
        return self.phase is FeedPhase.LOADING_FIRST_PAGE and bool(self.rows)

    @property
    def later_page_message(self) -> str | None:
        """The inline sentence under the rows when a later page failed."""
        if self.later_page_error is None:
            return None
        return f"More schedules could not be loaded: {self.later_page_error}"
