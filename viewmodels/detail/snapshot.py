"""What the detail pane shows: the point read's full record, formatted.

Only the point read supplies the complete instruction; the list's preview is
never promoted into this snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from uuid import UUID


class DetailPhase(StrEnum):
    CLOSED = "closed"
    """Nothing selected."""
    LOADING = "loading"
    LOADED = "loaded"
    NOT_FOUND = "not_found"
    """404 on the point read: removed or no longer accessible (retry offered)."""
    FAILED = "failed"
    """Any other failure, with its reason (retry offered)."""


NOT_FOUND_TEXT = "This schedule was removed or you no longer have access to it."


@dataclass(frozen=True, slots=True)
class LabelledValue:
    """One "label: value" line of the detail, in display order."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class ScheduleDetailFields:
    """Every field the design lists, as final text, plus the raw keys views need."""

    schedule_id: UUID
    title: str
    state: str
    state_label: str
    pause_reason_text: str | None
    next_fire_text: str | None
    """In the device zone; names the schedule's zone when it differs. None unless ACTIVE."""
    cadence_summary: str
    revision: int
    revision_text: str
    instruction: str
    """The complete instruction, from the point read."""
    requested_scopes: tuple[str, ...]
    scopes_text: str
    agent_id: str
    agent_version: str
    agent_text: str
    policy_profile: str
    limits: tuple[LabelledValue, ...]
    """Only the finite limits, in a fixed order (steps, model calls, tool calls, cost, reserves)."""
    run_timeout_text: str
    misfire_grace_text: str
    failure_policy_text: str
    """"1 of 3 consecutive failures"."""
    created_text: str
    updated_text: str
    browser_profile_id: UUID | None

    @property
    def rows(self) -> tuple[LabelledValue, ...]:
        """Every line of the detail in display order, for a plain two-column layout."""
        state = self.state_label
        if self.pause_reason_text:
            state = f"{state} ({self.pause_reason_text})"
        lines = [
            LabelledValue("State", state),
            LabelledValue("Next firing", self.next_fire_text or "None scheduled"),
            LabelledValue("Cadence", self.cadence_summary),
            LabelledValue("Revision", str(self.revision)),
            LabelledValue("Requested scopes", self.scopes_text),
            LabelledValue("Agent", self.agent_text),
            LabelledValue("Policy profile", self.policy_profile),
            *self.limits,
            LabelledValue("Run timeout", self.run_timeout_text),
            LabelledValue("Misfire grace", self.misfire_grace_text),
            LabelledValue("Failure policy", self.failure_policy_text),
            LabelledValue("Created", self.created_text),
            LabelledValue("Updated", self.updated_text),
        ]
        return tuple(lines)


@dataclass(frozen=True, slots=True)
class ScheduleDetailSnapshot:
    schedule_id: UUID | None = None
    phase: DetailPhase = DetailPhase.CLOSED
    fields: ScheduleDetailFields | None = None
    """The loaded record; present only when ``phase`` is LOADED."""
    error: str | None = None
    """The reason shown with a retry (NOT_FOUND and FAILED)."""

    @property
    def can_retry(self) -> bool:
        return self.phase in (DetailPhase.NOT_FOUND, DetailPhase.FAILED)
