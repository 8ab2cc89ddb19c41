"""What the detail pane shows: the point read's full record, formatted and grouped.

Only the point read supplies the complete instruction; the list's preview is
never promoted into this snapshot. The groups come in display order with
their headings, so a view renders them as they are. The constants are English
(marked ``N_``); the snapshot says its own in its ``locale``'s language, and a
view looks up the labels it shows itself (``views.words``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from babel import Locale

from viewmodels.formatting.tone import Tone
from viewmodels.language import DEFAULT_LOCALE, N_, Words, words_for


class DetailPhase(StrEnum):
    CLOSED = "closed"
    """Nothing selected."""
    LOADING = "loading"
    LOADED = "loaded"
    NOT_FOUND = "not_found"
    """404 on the point read: removed or no longer accessible (retry offered)."""
    FAILED = "failed"
    """Any other failure, with its reason (retry offered)."""
    NOT_READ = "not_read"
    """The server cannot be reached and this schedule was never read while it could."""


EMPTY_TITLE = N_("No schedule selected")
EMPTY_HINT = N_("Choose a schedule to see its details.")
NOT_FOUND_TITLE = N_("Schedule not found")
NOT_FOUND_TEXT = N_("This schedule was removed or you no longer have access to it.")
FAILED_TITLE = N_("This schedule could not be loaded")
LOADING_TEXT = N_("Loading schedule…")
NOT_READ_TITLE = N_("Not read while online")
NOT_READ_TEXT = N_(
    "This schedule was not read while the schedule server could be reached, "
    "so this device has nothing to show for it."
)
CLOSE_DETAILS_LABEL = N_("Close details")
SHOW_IN_SIDEBAR_LABEL = N_("Show in the sidebar")
"""Beside "5 sessions": expands and marks the schedule's group in the sidebar."""
COPY_INSTRUCTION_LABEL = N_("Copy instruction")
INSTRUCTION_COPIED_TEXT = N_("Instruction copied")
"""The brief note once the complete instruction is on the clipboard."""


@dataclass(frozen=True, slots=True)
class LabelledValue:
    """One "label: value" line of the detail."""

    label: str
    value: str
    explanation: str | None = None
    """One plain line on what the field means (the Advanced group's fields have one)."""
    warning: bool = False
    """The value is a warning (an overdue firing): the view shows it in the error colour."""


@dataclass(frozen=True, slots=True)
class PauseHelp:
    """What a paused schedule's detail says under its heading."""

    failure_text: str | None
    """The last failure's reason ("Run failed at …: it ran past its deadline")."""
    session_id: UUID | None
    """The failed firing's session, opened in the transcript by ``session_label``."""
    session_label: str | None
    resume_text: str
    """How the person gets it resumed: ask their agent by name (never in this app)."""
    check_first_text: str | None = None
    """What to check before resuming, when a failure paused it."""
    copy_label: str = ""
    """The button that copies ``copy_text``: the schedule's name and id, to hand the agent."""
    copy_text: str = ""
    copied_text: str = ""
    """The brief note once ``copy_text`` is on the clipboard."""


class GroupKind(StrEnum):
    """How a group is drawn: labelled lines, the instruction, the website picker, the calendar."""

    LINES = "lines"
    INSTRUCTION = "instruction"
    WEBSITE_ACCESS = "website_access"
    CALENDAR = "calendar"
    """The month grid of ``ScheduleDetailViewModel.calendar`` (its own snapshot)."""


@dataclass(frozen=True, slots=True)
class DetailGroup:
    """One titled group of the detail; ``lines`` is empty for the special kinds."""

    title: str
    kind: GroupKind = GroupKind.LINES
    lines: tuple[LabelledValue, ...] = ()
    starts_folded: bool = False
    """The group starts folded at every size (Advanced): a tap opens it."""


@dataclass(frozen=True, slots=True)
class ScheduleDetailFields:
    """Every field the design lists, as final text, grouped in display order."""

    schedule_id: UUID
    title: str
    state: str
    """The raw wire state; the label is what to show."""
    state_label: str
    state_tone: Tone
    """The tone the state label is tinted in; the view maps it to colours."""
    pause_reason_text: str | None
    revision: int
    instruction: str
    """The complete instruction, from the point read."""
    groups: tuple[DetailGroup, ...]
    ended_text: str | None = None
    """How and when an ended schedule ended, with its last outcome; None while it runs."""
    pause: PauseHelp | None = None
    """Why a paused schedule is paused, and what to do; None unless PAUSED."""

    def value(self, label: str) -> str | None:
        """The value of the line labelled ``label``, in whichever group shows it."""
        for group in self.groups:
            for line in group.lines:
                if line.label == label:
                    return line.value
        return None


@dataclass(frozen=True, slots=True)
class ScheduleDetailSnapshot:
    schedule_id: UUID | None = None
    phase: DetailPhase = DetailPhase.CLOSED
    fields: ScheduleDetailFields | None = None
    """The loaded record; present only when ``phase`` is LOADED."""
    error: str | None = None
    """The reason shown with a retry (NOT_FOUND, FAILED and NOT_READ)."""
    cached_at: datetime | None = None
    """The record is the device's copy, read from the server at this instant (offline)."""
    locale: Locale = DEFAULT_LOCALE
    """The language the pane's texts are said in (the view model's display zone's)."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    @property
    def empty_title(self) -> str:
        """The closed pane's heading."""
        return self.words.gettext(EMPTY_TITLE)

    @property
    def empty_hint(self) -> str:
        """The closed pane's line under its heading."""
        return self.words.gettext(EMPTY_HINT)

    @property
    def loading_text(self) -> str:
        """The pane's words while the point read is on its way (LOADING)."""
        return self.words.gettext(LOADING_TEXT)

    @property
    def can_retry(self) -> bool:
        """A failure panel with Retry replaces the detail."""
        return self.phase in (DetailPhase.NOT_FOUND, DetailPhase.FAILED, DetailPhase.NOT_READ)

    @property
    def error_title(self) -> str | None:
        """The failure panel's heading."""
        if self.phase is DetailPhase.NOT_FOUND:
            return self.words.gettext(NOT_FOUND_TITLE)
        if self.phase is DetailPhase.FAILED:
            return self.words.gettext(FAILED_TITLE)
        if self.phase is DetailPhase.NOT_READ:
            return self.words.gettext(NOT_READ_TITLE)
        return None
