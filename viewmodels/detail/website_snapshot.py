"""What the website access picker shows: options, the server's binding, and why.

The picker is the browser's only write. Options are final labels; the current
binding stays visible even when it is not a READY, listed profile. The
constants are English (marked ``N_``); the snapshot says them in its
``locale``'s language, and so do the option labels and the question.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from uuid import UUID

from babel import Locale

from viewmodels.language import DEFAULT_LOCALE, N_, Words, words_for


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
    display_text: str = ""
    """The entry as shown: "intranet.example.com (expired)"; left out, it is made in English."""

    def __post_init__(self) -> None:
        if not self.display_text:
            shown = f"{self.label} ({self.state_text})" if self.state_text else self.label
            object.__setattr__(self, "display_text", shown)


def shown_option(
    profile_id: UUID | None,
    label: str,
    state_text: str | None = None,
    *,
    selectable: bool = True,
    words: Words,
) -> WebsiteOption:
    """An entry whose ``display_text`` is said in ``words``' language."""
    shown = label
    if state_text:
        # Translators: a website sign-in in the picker and why it can't be chosen again,
        # e.g. "intranet.example.com (expired)".
        shown = words.gettext("{sign_in} ({state})").format(sign_in=label, state=state_text)
    return WebsiteOption(profile_id, label, state_text, selectable, shown)


NONE_OPTION = WebsiteOption(profile_id=None, label="None")
"""The "None" entry in English; ``none_option`` says it in the person's language."""


def none_option(words: Words) -> WebsiteOption:
    """The entry that keeps the runs out of every website, in ``words``' language."""
    # Translators: the website access picker's entry for "no website sign-in".
    return WebsiteOption(profile_id=None, label=words.pgettext("website access", "None"))


ACCESS_EXPLANATION = N_(
    "A website sign-in lets this schedule's runs open that site as you; None keeps them out."
)
"""The picker's one line on what access means, shown beneath it."""
ALLOW_LABEL = N_("Allow")
CANCEL_LABEL = N_("Cancel")
UNDO_LABEL = N_("Undo")
SAVING_TEXT = N_("Saving…")
LOADING_SIGN_INS_TEXT = N_("Loading sign-ins…")
SAVED_TEXT = N_("Saved")


@dataclass(frozen=True, slots=True)
class GrantQuestion:
    """Granting a sign-in asks first; removing access never does."""

    option: WebsiteOption
    text: str
    """"Let “Inbox triage before standup” use your github.com sign-in when it runs?"."""


def grant_question_text(schedule_title: str, option: WebsiteOption, *, words: Words) -> str:
    """Asked before a sign-in is granted, in ``words``' language."""
    # Translators: {title} is the schedule's title; {site} the sign-in's host names,
    # e.g. "github.com".
    question = words.gettext("Let “{title}” use your {site} sign-in when it runs?")
    return question.format(title=schedule_title, site=option.label)


@dataclass(frozen=True, slots=True)
class SavedNote:
    """A save went through: "Saved", with Undo back to ``previous``."""

    previous: WebsiteOption
    """The binding before the save; Undo saves it again, guarded like any choice."""
    text: str = SAVED_TEXT


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
    locale: Locale = DEFAULT_LOCALE
    """The language the texts are said in (the view model's display zone's)."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    @property
    def explanation(self) -> str:
        """The picker's one line on what access means."""
        return self.words.gettext(ACCESS_EXPLANATION)

    @property
    def picker_enabled(self) -> bool:
        return self.editable and not self.saving

    @property
    def progress_text(self) -> str | None:
        """The note beside a progress ring: a choice being saved, else the sign-ins being read."""
        if self.saving:
            return self.words.gettext(SAVING_TEXT)
        if self.profiles_phase is ProfilesPhase.LOADING:
            return self.words.gettext(LOADING_SIGN_INS_TEXT)
        return None

    @property
    def can_retry(self) -> bool:
        """Retry sits beside the error only when listing the sign-ins failed.

        A refused choice is not retried: the picker shows the server's binding
        again and the user chooses anew.
        """
        return self.profiles_phase is ProfilesPhase.FAILED
