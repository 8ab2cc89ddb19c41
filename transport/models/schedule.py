"""Schedules as the list and the point read show them.

``ScheduleSummary`` is a list row and never carries the complete instruction
(only ``instruction_preview``). ``ScheduleDetail`` is the point read, the only
source of the complete current ``ScheduleRevision``.

Strict (a failure makes the answer unreadable): the identity, and what the
screens cannot work without: a row's title, state and preview; the detail's
state, ``current_revision`` (the write's ``expected_revision``), the revision's
title and complete instruction, and its ``browser_profile_id`` (the value the
website picker shows and changes: misreading it would hide or overwrite a
binding). Every other field is ``Lenient``: the nullable fields of docs/API.md
(``pause_reason``, ``next_fire_at`` and ``next_fire_adjustment``, ``timezone``,
``browser_profile_id`` on a row, ``last_outcome``), ``overdue_since`` (present
only while the firing is overdue; older servers never send it), and
presentation-only ones that degrade to "Not available" alone.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from pydantic import Field

from transport.models.base import Instant, Lenient, Money, WireModel, known_member
from transport.models.cadence import Cadence
from transport.models.enums import FiringAdjustment, PauseReason, ScheduleState
from transport.models.last_outcome import LastOutcome

_NOT_DEFINITION = frozenset({"revision", "timezone", "created_by_principal_id", "created_at"})
"""Revision fields the server derives or stamps; ``docs/API.md`` leaves them out of a definition."""


class ScheduleSummary(WireModel):
    """One row of ``GET /v1/schedules``."""

    schedule_id: UUID
    title: str
    state: str
    pause_reason: Lenient[str] = None
    current_revision: Lenient[int] = None
    next_fire_at: Lenient[Instant] = None
    next_fire_adjustment: Lenient[str] = None
    cadence: Lenient[Cadence] = None
    instruction_preview: str = Field(repr=False)
    browser_profile_id: Lenient[UUID] = None
    created_at: Lenient[Instant] = None
    updated_at: Lenient[Instant] = None
    last_outcome: Lenient[LastOutcome] = None
    overdue_since: Lenient[Instant] = None

    @property
    def known_state(self) -> ScheduleState | None:
        return known_member(ScheduleState, self.state)

    @property
    def known_pause_reason(self) -> PauseReason | None:
        return known_member(PauseReason, self.pause_reason)

    @property
    def known_next_fire_adjustment(self) -> FiringAdjustment | None:
        return known_member(FiringAdjustment, self.next_fire_adjustment)


class Limits(WireModel):
    """Budgets of one run; None when not sent. Money travels as a decimal string."""

    max_steps: Lenient[int] = None
    max_model_calls: Lenient[int] = None
    max_tool_calls: Lenient[int] = None
    max_cost: Lenient[Money] = None
    reserve_steps: Lenient[int] = None
    reserve_model_calls: Lenient[int] = None
    reserve_cost: Lenient[Money] = None


class ScheduleRevision(WireModel):
    """One immutable version of a schedule's definition.

    The object is kept as received, so ``definition()`` can send every field
    back unchanged, as ``docs/API.md`` requires of a full-definition update.
    ``timezone`` is null for a schedule with no zone (a ONCE one, on servers
    that say so).
    """

    revision: Lenient[int] = None
    title: str
    instruction: str = Field(repr=False)
    agent_id: Lenient[UUID] = None
    agent_version: Lenient[str] = None
    policy_profile: Lenient[str] = None
    requested_scopes: Lenient[list[str]] = None
    browser_profile_id: UUID | None = None
    limits: Lenient[Limits] = None
    run_timeout_seconds: Lenient[int] = None
    cadence: Lenient[Cadence] = None
    timezone: Lenient[str] = None
    misfire_grace_seconds: Lenient[int] = None
    max_consecutive_failures: Lenient[int] = None
    created_by_principal_id: Lenient[str] = None
    created_at: Lenient[Instant] = None

    def definition(self) -> dict[str, Any]:
        """The JSON-ready definition: this revision as received, less the fields the server derives.

        Every other field comes back exactly as the server sent it: unknown
        ones, unknown nested ones, and ones this client could not read.
        """
        received = self.received()
        return {key: value for key, value in received.items() if key not in _NOT_DEFINITION}


class ScheduleDetail(WireModel):
    """``GET /v1/schedules/{id}``: the schedule record and its complete current revision."""

    schedule_id: UUID
    state: str
    pause_reason: Lenient[str] = None
    current_revision: int
    next_fire_at: Lenient[Instant] = None
    next_fire_adjustment: Lenient[str] = None
    consecutive_failures: Lenient[int] = None
    created_at: Lenient[Instant] = None
    updated_at: Lenient[Instant] = None
    last_outcome: Lenient[LastOutcome] = None
    overdue_since: Lenient[Instant] = None
    revision: ScheduleRevision

    @property
    def known_state(self) -> ScheduleState | None:
        return known_member(ScheduleState, self.state)

    @property
    def known_pause_reason(self) -> PauseReason | None:
        return known_member(PauseReason, self.pause_reason)

    @property
    def known_next_fire_adjustment(self) -> FiringAdjustment | None:
        return known_member(FiringAdjustment, self.next_fire_adjustment)

    @property
    def title(self) -> str:
        return self.revision.title
