"""What the sidebar shows: Folders (when offered), Scheduled groups, History.

Rows carry final text (age line) and the affordances views may offer
(``can_move_to_folder`` is False for every session a schedule created).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING
from uuid import UUID

from viewmodels.paging import FeedPhase

if TYPE_CHECKING:
    from viewmodels.sidebar.group_rows import GroupRows


class SidebarPhase(StrEnum):
    IDLE = "idle"
    LOADING = "loading"
    """Reconciling with the server; the cached rows are shown meanwhile."""
    LOADED = "loaded"
    FAILED = "failed"
    """Reconciliation failed; the cached rows stay, ``error`` says why."""


@dataclass(frozen=True, slots=True)
class SessionRow:
    session_id: UUID
    title: str
    age_text: str
    """"2 h ago": tells one firing of a schedule from the next."""
    schedule_id: UUID | None
    folder_id: UUID | None
    can_move_to_folder: bool
    """False for sessions a schedule created: the server refuses that move."""
    selected: bool

    @property
    def accessibility_label(self) -> str:
        """What a screen reader says for the row: title, then age line."""
        return f"{self.title}, {self.age_text}"


@dataclass(frozen=True, slots=True)
class ScheduleGroup:
    """Two or more cached sessions of one schedule, collapsible."""

    schedule_id: UUID
    label: str
    """The title of the group's most recent session."""
    count: int
    count_text: str
    """"3 sessions"."""
    expanded: bool
    contains_selection: bool
    """The open session is in this group: show a marker while collapsed."""
    rows: GroupRows
    """Every session of the group in activity order, newest first (render only when expanded).

    A sequence whose rows are made on the first read (``GroupRows``): a collapsed
    group, which nobody reads the rows of, never makes them."""

    @property
    def shows_selection_marker(self) -> bool:
        return self.contains_selection and not self.expanded

    @property
    def accessibility_label(self) -> str:
        """ "Weekly report, 3 sessions, collapsed, contains the open session"."""
        state = "expanded" if self.expanded else "collapsed"
        marker = ", contains the open session" if self.shows_selection_marker else ""
        return f"{self.label}, {self.count_text}, {state}{marker}"


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
    def empty_text(self) -> str | None:
        """What an empty, reconciled sidebar says; None while there is anything to show."""
        if self.phase is not SidebarPhase.LOADED or self.scheduled or self.history:
            return None
        if any(folder.rows for folder in self.folders or ()):
            return None
        return "No sessions yet."


@dataclass(frozen=True, slots=True)
class ScheduleSessions:
    """What a schedule's detail says of its sessions: "5 sessions", with Show in the sidebar."""

    schedule_id: UUID
    count: int
    complete: bool
    """The sidebar read every session page: the count is the server's, not a part of it."""

    @property
    def text(self) -> str:
        """ "5 sessions", "1 session", "No sessions yet"; "… so far" while only part is known."""
        if self.count == 0:
            return "No sessions yet" if self.complete else "No sessions known yet"
        noun = "session" if self.count == 1 else "sessions"
        return f"{self.count} {noun}" if self.complete else f"{self.count} {noun} known so far"

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
