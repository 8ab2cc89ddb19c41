"""Words for wire enumerations, including the ones this client does not know yet.

A compatible server may add a state, pause reason, profile state or role at any
time; the client must still show something readable, so an unknown value is
humanized (separators become spaces, first letter capitalized) rather than
hidden or shown raw. A past firing's outcome has its own module, ``outcomes``.
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

V = TypeVar("V")

_SEPARATORS = re.compile(r"[_\-.\s]+")

_STATE_LABELS = {
    ScheduleState.ACTIVE: "Active",
    ScheduleState.PAUSED: "Paused",
    ScheduleState.COMPLETED: "Completed",
    ScheduleState.CANCELLED: "Cancelled",
}

_PAUSE_REASONS = {
    PauseReason.USER: "Paused by you",
    PauseReason.FAILURE_LIMIT: "Paused after repeated failures",
}

_PROFILE_STATES = {
    ProfileState.READY: "ready",
    ProfileState.PENDING: "pending sign-in",
    ProfileState.EXPIRED: "expired",
    ProfileState.REVOKED: "revoked",
}

_ROLES = {MessageRole.USER: "You", MessageRole.ASSISTANT: "Assistant"}

_ADJUSTMENTS = {
    FiringAdjustment.MOVED_TO_TRANSITION: "moved by the clock change",
    FiringAdjustment.EARLIER_OF_TWO: "the first of two, as the clocks go back",
}

UNKNOWN_TEXT = "Unknown"
NOT_AVAILABLE_TEXT = "Not available"
"""A field the server left out, or sent in a form this client cannot read."""


def available(value: V | None, render: Callable[[V], str]) -> str:
    """``render(value)``, or "Not available" when the value is missing or was unreadable."""
    return NOT_AVAILABLE_TEXT if value is None else render(value)


def humanize(raw: str) -> str:
    """``WAITING_FOR_APPROVAL`` -> "Waiting for approval" (separators ``_ - .``)."""
    words = _SEPARATORS.sub(" ", raw).strip().lower()
    if not words:
        return UNKNOWN_TEXT
    return words[0].upper() + words[1:]


def state_label(state: str) -> str:
    """The text label of a schedule state (never colour alone)."""
    known = known_member(ScheduleState, state)
    return humanize(state) if known is None else _STATE_LABELS[known]


def pause_reason_text(state: str, pause_reason: str | None) -> str | None:
    """Why a PAUSED schedule is paused; None for any other state or no reason."""
    if known_member(ScheduleState, state) is not ScheduleState.PAUSED or pause_reason is None:
        return None
    known = known_member(PauseReason, pause_reason)
    return humanize(pause_reason) if known is None else _PAUSE_REASONS[known]


def profile_state_text(state: str) -> str:
    """A sign-in's state in running text ("expired"), lower case."""
    known = known_member(ProfileState, state)
    return humanize(state).lower() if known is None else _PROFILE_STATES[known]


def role_label(role: str) -> str:
    known = known_member(MessageRole, role)
    return humanize(role) if known is None else _ROLES[known]


def adjustment_text(adjustment: str | None) -> str | None:
    """How a clock change placed a firing, in running text; None when it did not."""
    if adjustment is None:
        return None
    known = known_member(FiringAdjustment, adjustment)
    return f"adjusted: {humanize(adjustment).lower()}" if known is None else _ADJUSTMENTS[known]
