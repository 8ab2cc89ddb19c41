"""Schedules as the list and the point read show them.

``ScheduleSummary`` is a list row and never carries the complete instruction
(only ``instruction_preview``). ``ScheduleDetail`` is the point read, the only
source of the complete current ``ScheduleRevision``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from uuid import UUID

from pydantic import Field

from transport.models.cadence import Cadence
from transport.models.enums import PauseReason, ScheduleState
from transport.models.wire import Instant, WireModel, known_member

_NOT_DEFINITION = frozenset({"revision", "timezone", "created_by_principal_id", "created_at"})
"""Revision fields the server derives or stamps; ``API.md`` leaves them out of a definition."""


class ScheduleSummary(WireModel):
    """One row of ``GET /v1/schedules``."""

    schedule_id: UUID
    title: str
    state: str
    pause_reason: str | None = None
    current_revision: int
    next_fire_at: Instant | None = None
    cadence: Cadence
    instruction_preview: str = Field(repr=False)
    browser_profile_id: UUID | None = None
    created_at: Instant
    updated_at: Instant

    @property
    def known_state(self) -> ScheduleState | None:
        return known_member(ScheduleState, self.state)

    @property
    def known_pause_reason(self) -> PauseReason | None:
        return known_member(PauseReason, self.pause_reason)


class Limits(WireModel):
    """Budgets of one run; None means unlimited. Money travels as a decimal string."""

    max_steps: int | None = None
    max_model_calls: int | None = None
    max_tool_calls: int | None = None
    max_cost: Decimal | None = None
    reserve_steps: int | None = None
    reserve_model_calls: int | None = None
    reserve_cost: Decimal | None = None


class ScheduleRevision(WireModel):
    """One immutable version of a schedule's definition.

    Fields this client does not model are kept, so ``definition()`` can send
    them back unchanged, as ``API.md`` requires of a full-definition update.
    """

    revision: int
    title: str
    instruction: str = Field(repr=False)
    agent_id: UUID
    agent_version: str
    policy_profile: str
    requested_scopes: list[str]
    browser_profile_id: UUID | None = None
    limits: Limits
    run_timeout_seconds: int
    cadence: Cadence
    timezone: str
    misfire_grace_seconds: int
    max_consecutive_failures: int
    created_by_principal_id: str
    created_at: Instant

    def definition(self) -> dict[str, Any]:
        """The JSON-ready definition: this revision less the fields the server derives.

        Only fields the server sent (or the caller set) are included, unknown
        ones and unknown nested ones unchanged; known values come back in their
        wire form (UUIDs as strings, money as the same decimal string, instants
        as RFC 3339 with ``Z``).
        """
        return self.model_dump(mode="json", exclude_unset=True, exclude=set(_NOT_DEFINITION))


class ScheduleDetail(WireModel):
    """``GET /v1/schedules/{id}``: the schedule record and its complete current revision."""

    schedule_id: UUID
    state: str
    pause_reason: str | None = None
    current_revision: int
    next_fire_at: Instant | None = None
    consecutive_failures: int
    created_at: Instant
    updated_at: Instant
    revision: ScheduleRevision

    @property
    def known_state(self) -> ScheduleState | None:
        return known_member(ScheduleState, self.state)

    @property
    def known_pause_reason(self) -> PauseReason | None:
        return known_member(PauseReason, self.pause_reason)

    @property
    def title(self) -> str:
        return self.revision.title
