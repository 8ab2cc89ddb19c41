"""Words for wire enumerations, including the ones this client does not know yet.

A compatible server may add a state, pause reason, profile state or role at any
time; the client must still show something readable, so an unknown value is
humanized (separators become spaces, first letter capitalized) rather than
hidden or shown raw.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

V = TypeVar("V")

_SEPARATORS = re.compile(r"[_\-.\s]+")

_STATE_LABELS = {
    "ACTIVE": "Active",
    "PAUSED": "Paused",
    "COMPLETED": "Completed",
    "CANCELLED": "Cancelled",
}

_PAUSE_REASONS = {
    "user": "Paused by you",
    "failure_limit": "Paused after repeated failures",
}

_PROFILE_STATES = {
    "READY": "ready",
    "PENDING": "pending sign-in",
    "EXPIRED": "expired",
    "REVOKED": "revoked",
}

_ROLES = {"user": "You", "assistant": "Assistant"}

_ADJUSTMENTS = {
    "MOVED_TO_TRANSITION": "moved by the clock change",
    "EARLIER_OF_TWO": "the first of two, as the clocks go back",
}

_DISPOSITIONS = {
    "MATERIALIZED": "Fired",
    "MISSED": "Missed",
    "SKIPPED_OVERLAP": "Skipped: the previous run was still going",
    "AUTHORIZATION_FAILED": "Refused: the schedule lacked the authority to run",
    "CONFIGURATION_FAILED": "Not run: its definition was invalid",
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
    return _STATE_LABELS.get(state) or humanize(state)


def pause_reason_text(state: str, pause_reason: str | None) -> str | None:
    """Why a PAUSED schedule is paused; None for any other state or no reason."""
    if state != "PAUSED" or pause_reason is None:
        return None
    return _PAUSE_REASONS.get(pause_reason) or humanize(pause_reason)


def profile_state_text(state: str) -> str:
    """A sign-in's state in running text ("expired"), lower case."""
    return _PROFILE_STATES.get(state) or humanize(state).lower()


def role_label(role: str) -> str:
    return _ROLES.get(role) or humanize(role)


def adjustment_text(adjustment: str | None) -> str | None:
    """How a clock change placed a firing, in running text; None when it did not."""
    if adjustment is None:
        return None
    return _ADJUSTMENTS.get(adjustment) or f"adjusted: {humanize(adjustment).lower()}"


def disposition_text(disposition: str) -> str:
    """What became of a past firing, as a sentence start: "Fired", "Skipped: …"."""
    return _DISPOSITIONS.get(disposition) or humanize(disposition)
