"""Words for wire enumerations, including the ones this client does not know yet.

A compatible server may add a state, pause reason, profile state or role at any
time; the client must still show something readable, so an unknown value is
humanized (separators become spaces, first letter capitalized) rather than
hidden or shown raw; a known one is in the person's language (``words``). A
past firing's outcome has its own module, ``outcomes``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from transport.models import (
    FiringAdjustment,
    MessageRole,
    PauseReason,
    ProfileState,
    ScheduleState,
    known_member,
)
from viewmodels.language import N_, Words

V = TypeVar("V")
_Said = Callable[[Words], str]

_SEPARATORS = re.compile(r"[_\-.\s]+")

_STATE_LABELS: dict[ScheduleState, _Said] = {
    ScheduleState.ACTIVE: lambda words: words.pgettext("schedule state", "Active"),
    ScheduleState.PAUSED: lambda words: words.pgettext("schedule state", "Paused"),
    ScheduleState.COMPLETED: lambda words: words.pgettext("schedule state", "Completed"),
    ScheduleState.CANCELLED: lambda words: words.pgettext("schedule state", "Cancelled"),
}

_PAUSE_REASONS: dict[PauseReason, _Said] = {
    PauseReason.USER: lambda words: words.gettext("Paused by you"),
    PauseReason.FAILURE_LIMIT: lambda words: words.gettext("Paused after repeated failures"),
}

_PROFILE_STATES: dict[ProfileState, _Said] = {
    # Translators: a browser sign-in's state in running text, lower case where the language allows.
    ProfileState.READY: lambda words: words.pgettext("sign-in state", "ready"),
    ProfileState.PENDING: lambda words: words.pgettext("sign-in state", "pending sign-in"),
    ProfileState.EXPIRED: lambda words: words.pgettext("sign-in state", "expired"),
    ProfileState.REVOKED: lambda words: words.pgettext("sign-in state", "revoked"),
}

_ROLES: dict[MessageRole, _Said] = {
    # Translators: who wrote a message in a session's transcript.
    MessageRole.USER: lambda words: words.pgettext("message author", "You"),
    MessageRole.ASSISTANT: lambda words: words.pgettext("message author", "Assistant"),
}

_ADJUSTMENTS: dict[FiringAdjustment, _Said] = {
    # Translators: how a clock change placed a firing, in running text after the time.
    FiringAdjustment.MOVED_TO_TRANSITION: lambda words: words.gettext("moved by the clock change"),
    FiringAdjustment.EARLIER_OF_TWO: lambda words: words.gettext(
        "the first of two, as the clocks go back"
    ),
}

UNKNOWN_TEXT = N_("Unknown")
NOT_AVAILABLE_TEXT = N_("Not available")
"""A field the server left out, or sent in a form this client cannot read (English:
the place that shows it translates it, ``words.gettext(NOT_AVAILABLE_TEXT)``)."""


def available(value: V | None, render: Callable[[V], str], *, words: Words) -> str:
    """``render(value)``, or "Not available" when the value is missing or was unreadable."""
    return words.gettext(NOT_AVAILABLE_TEXT) if value is None else render(value)


def humanize(raw: str, *, words: Words) -> str:
    """``WAITING_FOR_APPROVAL`` -> "Waiting for approval" (separators ``_ - .``); the value
    itself is not translated, only "Unknown" for one with no letters."""
    humanized = _SEPARATORS.sub(" ", raw).strip().lower()
    if not humanized:
        return words.gettext(UNKNOWN_TEXT)
    return humanized[0].upper() + humanized[1:]


def state_label(state: str, *, words: Words) -> str:
    """The text label of a schedule state (never colour alone)."""
    known = known_member(ScheduleState, state)
    return humanize(state, words=words) if known is None else _STATE_LABELS[known](words)


def pause_reason_text(state: str, pause_reason: str | None, *, words: Words) -> str | None:
    """Why a PAUSED schedule is paused; None for any other state or no reason."""
    if known_member(ScheduleState, state) is not ScheduleState.PAUSED or pause_reason is None:
        return None
    known = known_member(PauseReason, pause_reason)
    return humanize(pause_reason, words=words) if known is None else _PAUSE_REASONS[known](words)


def profile_state_text(state: str, *, words: Words) -> str:
    """A sign-in's state in running text ("expired"), lower case."""
    known = known_member(ProfileState, state)
    if known is None:
        return humanize(state, words=words).lower()
    return _PROFILE_STATES[known](words)


def role_label(role: str, *, words: Words) -> str:
    """Who wrote a message: "You", "Assistant", or an unknown role humanized."""
    known = known_member(MessageRole, role)
    return humanize(role, words=words) if known is None else _ROLES[known](words)


def adjustment_text(adjustment: str | None, *, words: Words) -> str | None:
    """How a clock change placed a firing, in running text; None when it did not."""
    if adjustment is None:
        return None
    known = known_member(FiringAdjustment, adjustment)
    if known is not None:
        return _ADJUSTMENTS[known](words)
    # Translators: a clock-change adjustment this app does not know, humanized.
    return words.gettext("adjusted: {adjustment}").format(
        adjustment=humanize(adjustment, words=words).lower()
    )
