"""The enumerations the client knows today.

Wire models keep the raw string (servers may add values, and the UI must still
render an unknown one); these enums back the typed ``known_*`` accessors, which
answer None for a value outside this list.
"""

from __future__ import annotations

from enum import StrEnum


class ScheduleState(StrEnum):
    ACTIVE = "ACTIVE"
    PAUSED = "PAUSED"
    COMPLETED = "COMPLETED"
    CANCELLED = "CANCELLED"

    @property
    def ended(self) -> bool:
        """COMPLETED or CANCELLED: the schedule fires no more and can no longer change."""
        return self in (ScheduleState.COMPLETED, ScheduleState.CANCELLED)


class ListOrder(StrEnum):
    """``GET /v1/schedules``'s ``order``: newest-updated first (the default), or soonest first."""

    UPDATED = "updated"
    NEXT_FIRE = "next_fire"


class SchedulerState(StrEnum):
    """``GET /v1/scheduler``'s ``state``: whether firings are happening."""

    RUNNING = "running"
    LATE = "late"
    STOPPED = "stopped"


class PauseReason(StrEnum):
    USER = "user"
    FAILURE_LIMIT = "failure_limit"


class CadenceKind(StrEnum):
    ONCE = "ONCE"
    DAILY = "DAILY"
    WEEKLY = "WEEKLY"
    MONTHLY = "MONTHLY"
    YEARLY = "YEARLY"


class Disposition(StrEnum):
    """What became of one nominal firing in the occurrence ledger."""

    MATERIALIZED = "MATERIALIZED"
    MISSED = "MISSED"
    SKIPPED_OVERLAP = "SKIPPED_OVERLAP"
    AUTHORIZATION_FAILED = "AUTHORIZATION_FAILED"
    CONFIGURATION_FAILED = "CONFIGURATION_FAILED"


class RunStatus(StrEnum):
    """Where a firing's run stands; COMPLETED, FAILED and CANCELLED are terminal."""

    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


class FiringAdjustment(StrEnum):
    """How a clock change placed a firing (``docs/API.md``, Projection)."""

    MOVED_TO_TRANSITION = "MOVED_TO_TRANSITION"
    EARLIER_OF_TWO = "EARLIER_OF_TWO"


class NoticeReason(StrEnum):
    """Why a date the cadence selects never fires."""

    DATE_DOES_NOT_EXIST = "DATE_DOES_NOT_EXIST"
    DAY_NOT_IN_MONTH = "DAY_NOT_IN_MONTH"
    NOT_A_LEAP_YEAR = "NOT_A_LEAP_YEAR"


class ProfileState(StrEnum):
    READY = "READY"
    PENDING = "PENDING"
    EXPIRED = "EXPIRED"
    REVOKED = "REVOKED"


class MessageRole(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
