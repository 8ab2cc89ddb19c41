"""What the schedule list shows: a section, ready-to-render rows, and paging state.

Every string here is final text (state labels, cadence summaries, next firing):
views render it as is, in the snapshot's ``locale``. The constants stay English
(marked ``N_``, so tests and views name them); the snapshot says them in its
language, and a view showing one directly looks it up. The snapshot is
replaced whole on each change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from babel import Locale

from transport.models import ListOrder
from viewmodels.formatting.tone import Tone
from viewmodels.language import DEFAULT_LOCALE, N_, Words, words_for
from viewmodels.paging import FeedPhase
from viewmodels.schedule_list.search_match import TextSpan
from viewmodels.schedule_list.section import ListSection
from viewmodels.server_kind import ServerKind

__all__ = ["ListSection", "ScheduleListSnapshot", "ScheduleRow"]

ATTENTION_LABEL = N_("Needs attention")
NOTHING_NEEDS_ATTENTION_TEXT = N_("Nothing needs attention.")
SEARCH_LABEL = N_("Search schedules")
SOONEST_FIRST_LABEL = N_("Soonest first")
"""The order chip: on, the list is soonest first (by next firing), paused ones after."""
CLEAR_SEARCH_LABEL = N_("Clear search")


OPENED_ROW_TEXT = N_("Shown in the details")
"""Added to the opened row's spoken sentence: the fill and bar say it to the eye."""
BROWSING_UNAVAILABLE_TEXT = N_("Schedule browsing isn't available on this server")
FAILURE_TITLE = N_("Schedules could not be loaded")
END_OF_LIST_TEXT = N_("End of list")
LOADING_TEXT = N_("Loading schedules…")
REFRESHING_TEXT = N_("Refreshing schedules")
"""The progress bar's spoken name while page one is read again over the rows shown."""
REFRESH_LABEL = N_("Refresh")
SEARCH_ACTION_LABEL = N_("Search")
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
    opened_text: str = OPENED_ROW_TEXT
    """``OPENED_ROW_TEXT`` in the row's language."""

    @property
    def opened_accessibility_label(self) -> str:
        """The row's sentence while the detail shows it: the fill and bar say so to the eye."""
        return f"{self.accessibility_label}. {self.opened_text}"


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
    locale: Locale = DEFAULT_LOCALE
    """The language every text of the snapshot is in (the device zone's locale)."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    def section_label(self, section: ListSection) -> str:
        """A section's name, for the section switch: "Current", "Recent History"."""
        return self.words.gettext(section.label)

    @property
    def attention_label(self) -> str:
        """The filter chip's text: "Needs attention (3)"."""
        if self.attention_count is None:
            return self.words.gettext(ATTENTION_LABEL)
        # Translators: the filter chip, with how many schedules need attention.
        words = self.words.gettext("Needs attention ({count})")
        return words.format(count=self.attention_count)

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
        return self.words.gettext(SOONEST_FIRST_LABEL)

    @property
    def failure_title(self) -> str:
        """The full-page error's heading when page one failed (``first_page_error``)."""
        return self.words.gettext(FAILURE_TITLE)

    @property
    def end_of_list_text(self) -> str:
        """The footer under the last row once paging has ended."""
        return self.words.gettext(END_OF_LIST_TEXT)

    @property
    def loading_text(self) -> str:
        """The pane's words while page one is read with no rows to show."""
        return self.words.gettext(LOADING_TEXT)

    @property
    def refreshing_text(self) -> str:
        """The spoken name of the progress bar shown while ``refreshing``."""
        return self.words.gettext(REFRESHING_TEXT)

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
        if other is None:
            return None
        # Translators: a button: the same search in the other section ("Search Recent History").
        words = self.words.gettext("Search {section}")
        return words.format(section=self.section_label(other))

    @property
    def unavailable_text(self) -> str | None:
        return self.words.gettext(BROWSING_UNAVAILABLE_TEXT) if self.browsing_unavailable else None

    @property
    def empty_text(self) -> str | None:
        """What an empty, fully loaded section says; None when rows or work remain."""
        if self.rows or self.phase is not FeedPhase.END_REACHED:
            return None
        if self.first_page_error or self.browsing_unavailable:
            return None
        query, words = self.query.strip(), self.words
        if self.attention_only:
            if query:
                text = words.gettext("Nothing that needs attention matches “{query}”")
                return text.format(query=query)
            return words.gettext(NOTHING_NEEDS_ATTENTION_TEXT)
        return self.section.no_match_text(query, words) if query else self.section.empty_text(words)

    @property
    def empty_guidance(self) -> str | None:
        """The line under an empty section's sentence (not under "No … match")."""
        if self.empty_text is None or self.searching or self.attention_only:
            return None
        return self.section.empty_guidance(self.server, self.words)

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
        text = self.words.gettext("More schedules could not be loaded: {reason}")
        return text.format(reason=self.later_page_error)
