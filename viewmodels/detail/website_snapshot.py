"""What the website access picker shows: options, the server's binding, and why.

The picker is the browser's only write. Options are final labels; the current
binding stays visible even when it is not a READY, listed profile.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from uuid import UUID


class ProfilesPhase(StrEnum):
    IDLE = "idle"
    LOADING = "loading"
    LOADED = "loaded"
    FAILED = "failed"
    NOT_NEEDED = "not_needed"
    """Read-only picker (terminal/unknown state or missing scope): no list is loaded."""


@dataclass(frozen=True, slots=True)
class WebsiteOption:
    """One picker entry. ``profile_id`` None is the "None" option."""

    profile_id: UUID | None
    label: str
    """"None", or the allowed origins' host names ("mail.google.com, calendar.google.com")."""
    state_text: str | None = None
    """For a bound profile that is not choosable: "expired", "no longer available"…"""
    selectable: bool = True
    """False for the kept-visible current binding that is not READY or not listed."""

    @property
    def display_text(self) -> str:
        return f"{self.label} ({self.state_text})" if self.state_text else self.label


NONE_OPTION = WebsiteOption(profile_id=None, label="None")

ACCESS_EXPLANATION = (
    "A website sign-in lets this schedule's runs open that site as you; None keeps them out."
)
"""The picker's one line on what access means, shown beneath it."""
ALLOW_LABEL = "Allow"
CANCEL_LABEL = "Cancel"
UNDO_LABEL = "Undo"
SAVING_TEXT = "Saving…"
LOADING_SIGN_INS_TEXT = "Loading sign-ins…"


@dataclass(frozen=True, slots=True)
class GrantQuestion:
    """Granting a sign-in asks first; removing access never does."""

    option: WebsiteOption
    text: str
    """"Let “Inbox triage before standup” use your github.com sign-in when it runs?"."""


def grant_question_text(schedule_title: str, option: WebsiteOption) -> str:
    return f"Let \u201c{schedule_title}\u201d use your {option.label} sign-in when it runs?"


@dataclass(frozen=True, slots=True)
class SavedNote:
    """A save went through: "Saved", with Undo back to ``previous``."""

    previous: WebsiteOption
    """The binding before the save; Undo saves it again, guarded like any choice."""
    text: str = "Saved"


@dataclass(frozen=True, slots=True)
class WebsiteAccessSnapshot:
    schedule_id: UUID | None = None
    current: WebsiteOption = NONE_OPTION
    """The server's binding as last read (after a refused save too)."""
    options: tuple[WebsiteOption, ...] = (NONE_OPTION,)
    profiles_phase: ProfilesPhase = ProfilesPhase.IDLE
    editable: bool = False
    """True only for ACTIVE/PAUSED schedules when the principal holds the needed scopes."""
    not_editable_reason: str | None = None
    """Why the control is disabled (terminal state, missing scope…), shown beside it."""
    saving: bool = False
    """A choice is being saved: picker disabled, progress shown."""
    error: str | None = None
    """Why profiles could not be listed or why the last choice was refused."""
    question: GrantQuestion | None = None
    """A sign-in was chosen and awaits Allow or Cancel; nothing is sent yet."""
    saved: SavedNote | None = None
    """The last save went through; Undo is offered until the next choice or load."""
    explanation: str = ACCESS_EXPLANATION

    @property
    def picker_enabled(self) -> bool:
        return self.editable and not self.saving

    @property
    def progress_text(self) -> str | None:
        """The note beside a progress ring: a choice being saved, else the sign-ins being read."""
        if self.saving:
            return SAVING_TEXT
        if self.profiles_phase is ProfilesPhase.LOADING:
            return LOADING_SIGN_INS_TEXT
        return None

    @property
    def can_retry(self) -> bool:
        """Retry sits beside the error only when listing the sign-ins failed.

        A refused choice is not retried: the picker shows the server's binding
        again and the user chooses anew.
        """
        return self.profiles_phase is ProfilesPhase.FAILED
