"""What the sidebar shows (Folders when offered, Scheduled groups, History) and a transcript.

Rows carry final text (age line) and the affordances views may offer
(``can_move_to_folder`` is False for every session a schedule created).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from babel import Locale

from viewmodels.language import DEFAULT_LOCALE, N_, Words, words_for
from viewmodels.paging import FeedPhase
from viewmodels.sidebar.groups import ScheduleGroup
from viewmodels.sidebar.rows import SessionRow

SCHEDULES_ENTRY_LABEL = N_("Schedules")
"""The sidebar's first entry: it opens the schedules sheet."""
OPEN_SIDEBAR_LABEL = N_("Open sidebar")
"""A phone's app-bar button that slides the sidebar in."""
FOLDERS_HEADING = N_("Folders")
# Translators: the sidebar's heading of the sessions grouped by the schedule that made them.
SCHEDULED_HEADING = N_("Scheduled")
HISTORY_HEADING = N_("History")
LOADING_HISTORY_TEXT = N_("Loading history")
OPEN_SCHEDULE_LABEL = N_("Open schedule")
"""The button of a scheduled session's transcript header that opens its schedule."""
TRANSCRIPT_FAILURE_TITLE = N_("This session could not be loaded")
LOADING_MESSAGES_TEXT = N_("Loading messages…")
NO_MESSAGES_TEXT = N_("No messages in this session.")


class SidebarPhase(StrEnum):
    IDLE = "idle"
    LOADING = "loading"
    """Reconciling with the server; the cached rows are shown meanwhile."""
    LOADED = "loaded"
    FAILED = "failed"
    """Reconciliation failed; the cached rows stay, ``error`` says why."""


@dataclass(frozen=True, slots=True)
class FolderEntry:
    folder_id: UUID
    name: str
    rows: tuple[SessionRow, ...]


@dataclass(frozen=True, slots=True)
class SidebarSnapshot:
    phase: SidebarPhase = SidebarPhase.IDLE
    folders: tuple[FolderEntry, ...] | None = None
    """None when the server offers no folders (no Folders section at all)."""
    scheduled: tuple[ScheduleGroup, ...] = ()
    """Groups newest first (most recent session's activity, tie-break schedule id)."""
    history: tuple[SessionRow, ...] = ()
    """Unfiled chats and single-session schedules, newest first."""
    selected_session_id: UUID | None = None
    schedules_selected: bool = False
    """The "Schedules" entry (opens the schedules sheet) is the current selection."""
    error: str | None = None
    revealed_schedule_id: UUID | None = None
    """Show in the sidebar asked for this schedule: its group is expanded and marked."""
    reveals: int = 0
    """How many times Show in the sidebar was asked (a phone opens its drawer on each)."""
    locale: Locale = DEFAULT_LOCALE
    """The person's locale: the sidebar's words are in its language."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    @property
    def shows_folders(self) -> bool:
        """The Folders section appears: the server offers folders and has some."""
        return bool(self.folders)

    @property
    def shows_scheduled(self) -> bool:
        """The Scheduled section appears (some schedule has two or more sessions)."""
        return bool(self.scheduled)

    @property
    def shows_progress(self) -> bool:
        """Reconciling with nothing cached to show meanwhile."""
        return self.phase is SidebarPhase.LOADING and not (self.scheduled or self.history)

    @property
    def progress_text(self) -> str:
        """The spoken name of the progress bar shown while ``shows_progress``."""
        return self.words.gettext(LOADING_HISTORY_TEXT)

    @property
    def empty_text(self) -> str | None:
        """What an empty, reconciled sidebar says; None while there is anything to show."""
        if self.phase is not SidebarPhase.LOADED or self.scheduled or self.history:
            return None
        if any(folder.rows for folder in self.folders or ()):
            return None
        return self.words.gettext("No sessions yet.")


@dataclass(frozen=True, slots=True)
class ScheduleSessions:
    """What a schedule's detail says of its sessions: "5 sessions", with Show in the sidebar."""

    schedule_id: UUID
    count: int
    complete: bool
    """The sidebar read every session page: the count is the server's, not a part of it."""
    locale: Locale = DEFAULT_LOCALE
    """The person's locale: the count is said in its language."""

    @property
    def text(self) -> str:
        """ "5 sessions", "1 session", "No sessions yet"; "… so far" while only part is known."""
        words, count = words_for(self.locale), self.count
        if count == 0 and self.complete:
            return words.gettext("No sessions yet")
        if count == 0:
            return words.gettext("No sessions known yet")
        if self.complete:
            text = words.ngettext("{count} session", "{count} sessions", count)
        else:
            text = words.ngettext(
                "{count} session known so far", "{count} sessions known so far", count
            )
        return text.format(count=count)

    @property
    def can_reveal(self) -> bool:
        """Show in the sidebar: offered when the sidebar lists at least one of them."""
        return self.count > 0


@dataclass(frozen=True, slots=True)
class SessionOrigin:
    """Where a scheduled session came from, as the sidebar knows it."""

    schedule_id: UUID
    fired_at: datetime | None


@dataclass(frozen=True, slots=True)
class TranscriptOrigin:
    """The header of a scheduled session's transcript, with Open schedule."""

    schedule_id: UUID
    text: str
    """"Started by the schedule “Nightly backup check”"; "Started by a schedule" until
    (or unless) its title could be read."""
    fired_text: str | None
    """"Firing of 1 Dec 2026, 07:30" (the firing's due time, device zone), when known."""


@dataclass(frozen=True, slots=True)
class MessageRow:
    message_id: UUID
    role: str
    role_label: str
    """"You", "Assistant", or the humanized unknown role."""
    text: str
    time_text: str
    markdown: str | None = None
    """An assistant message's text as safe Markdown (no raw HTML, no images); None: plain."""
    from_you: bool = False
    """The person wrote it (drawn on the other side of the transcript from the assistant)."""

    @property
    def byline(self) -> str:
        """The line above the message: who wrote it and when ("You · 10:42")."""
        return f"{self.role_label} · {self.time_text}"


@dataclass(frozen=True, slots=True)
class SessionMessagesSnapshot:
    """A session's transcript, read-only, oldest first."""

    session_id: UUID | None = None
    title: str | None = None
    """The session's title as the sidebar lists it; None while it is not known."""
    origin: TranscriptOrigin | None = None
    """For a session a schedule created: which one, and when it fired."""
    messages: tuple[MessageRow, ...] = ()
    phase: FeedPhase = FeedPhase.IDLE
    first_page_error: str | None = None
    later_page_error: str | None = None
    locale: Locale = DEFAULT_LOCALE
    """The person's locale: the pane's words are in its language."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    @property
    def can_load_more(self) -> bool:
        return self.phase is FeedPhase.LOADED and self.later_page_error is None

    @property
    def loading(self) -> bool:
        """Nothing to show yet: the first page is on its way."""
        return self.session_id is not None and self.phase in (
            FeedPhase.IDLE,
            FeedPhase.LOADING_FIRST_PAGE,
        )

    @property
    def failure_title(self) -> str:
        """The full-pane error's heading when the first page failed (``first_page_error``)."""
        return self.words.gettext(TRANSCRIPT_FAILURE_TITLE)

    @property
    def loading_text(self) -> str:
        """The pane's words while ``loading``."""
        return self.words.gettext(LOADING_MESSAGES_TEXT)

    @property
    def empty_text(self) -> str | None:
        """What a transcript with no messages says; None while loading, failed or not empty."""
        if self.messages or self.loading or self.first_page_error:
            return None
        return self.words.gettext(NO_MESSAGES_TEXT)
