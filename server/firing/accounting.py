"""Failure accounting: how one decided outcome moves a schedule's failure count.

The failure-accounting rule, as a pure function of where the schedule stands:

- a run that COMPLETED resets ``consecutive_failures`` to zero;
- a FAILED run, an authorization failure, a configuration failure and a
  missed occurrence add one;
- a user-cancelled run and an overlap skip change nothing;
- reaching ``max_consecutive_failures`` while ACTIVE pauses the schedule with
  ``pause_reason = failure_limit`` (the caller emits ``schedule.auto_paused``).

The plan applies it to the dispositions it records; the run dispatcher
applies it when a run ends, in the same transaction as the run's
terminal status, so each occurrence is accounted exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from server.domain.states import Disposition, PauseReason, RunStatus, ScheduleState
from server.storage.records import AuditEvent, ScheduleChange, ScheduleRecord

__all__ = [
    "Outcome",
    "Standing",
    "after_outcome",
    "change_to",
    "max_failures",
    "outcome_of_disposition",
    "outcome_of_run",
]


class Outcome(StrEnum):
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"
    NEUTRAL = "NEUTRAL"


_DISPOSITION_OUTCOMES = {
    Disposition.MISSED: Outcome.FAILED,
    Disposition.AUTHORIZATION_FAILED: Outcome.FAILED,
    Disposition.CONFIGURATION_FAILED: Outcome.FAILED,
    Disposition.SKIPPED_OVERLAP: Outcome.NEUTRAL,
    # A materialized occurrence is accounted when its run ends.
    Disposition.MATERIALIZED: Outcome.NEUTRAL,
}
_RUN_OUTCOMES = {
    RunStatus.COMPLETED: Outcome.SUCCEEDED,
    RunStatus.FAILED: Outcome.FAILED,
    RunStatus.CANCELLED: Outcome.NEUTRAL,
}


def outcome_of_disposition(disposition: Disposition) -> Outcome:
    return _DISPOSITION_OUTCOMES[disposition]


def outcome_of_run(status: RunStatus) -> Outcome:
    return _RUN_OUTCOMES[status]


@dataclass(frozen=True, slots=True)
class Standing:
    """The accounting-relevant fields of a schedule."""

    state: ScheduleState
    pause_reason: PauseReason | None
    next_fire_at: datetime | None
    consecutive_failures: int

    @classmethod
    def of(cls, record: ScheduleRecord) -> Standing:
        return cls(
            record.state, record.pause_reason, record.next_fire_at, record.consecutive_failures
        )

    @property
    def auto_paused(self) -> bool:
        return self.state == ScheduleState.PAUSED and self.pause_reason == PauseReason.FAILURE_LIMIT


def after_outcome(standing: Standing, outcome: Outcome, max_failures: int) -> Standing:
    """Where the schedule stands once ``outcome`` is counted."""
    if outcome is Outcome.NEUTRAL:
        return standing
    if outcome is Outcome.SUCCEEDED:
        return replace(standing, consecutive_failures=0)
    failures = standing.consecutive_failures + 1
    if standing.state == ScheduleState.ACTIVE and failures >= max_failures:
        return Standing(ScheduleState.PAUSED, PauseReason.FAILURE_LIMIT, None, failures)
    return replace(standing, consecutive_failures=failures)


def max_failures(payload: Mapping[str, Any]) -> int:
    """A definition's ``max_consecutive_failures``; 1 when a broken definition has none."""
    value = payload.get("max_consecutive_failures")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def change_to(
    record: ScheduleRecord, standing: Standing, now: datetime, events: Iterable[AuditEvent]
) -> ScheduleChange:
    """The change that moves ``record`` to ``standing`` at ``now``, with ``events``."""
    return ScheduleChange(
        state=standing.state,
        pause_reason=standing.pause_reason,
        next_fire_at=standing.next_fire_at,
        consecutive_failures=standing.consecutive_failures,
        updated_at=now,
        new_revision=None,
        events=tuple(events),
    )
