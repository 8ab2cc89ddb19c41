"""The server's state vocabulary: one closed set of values per thing that has a state.

Each is a ``StrEnum``, so it is stored and sent as its plain string (the
database and the wire keep the values they always had) while the code that
decides branches on members: a misspelt state is a mypy error, not a firing
decided on the wrong branch.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "AuditEventKind",
    "Disposition",
    "PauseReason",
    "ProfileState",
    "ReasonCode",
    "RunStatus",
    "ScheduleState",
    "SchedulerState",
    "occurrence_event_kind",
]


class ScheduleState(StrEnum):
    """Where a schedule stands; COMPLETED and CANCELLED are terminal."""

    ACTIVE = "ACTIVE"
    PAUSED = "PAUSED"
    COMPLETED = "COMPLETED"
    CANCELLED = "CANCELLED"

    @property
    def terminal(self) -> bool:
        return self in (ScheduleState.COMPLETED, ScheduleState.CANCELLED)


class SchedulerState(StrEnum):
    """Whether the scheduler is firing, by its newest heartbeat (``GET /v1/scheduler``)."""

    RUNNING = "running"
    LATE = "late"
    STOPPED = "stopped"


class PauseReason(StrEnum):
    """Why a PAUSED schedule is paused: a person, or its failure limit."""

    USER = "user"
    FAILURE_LIMIT = "failure_limit"


class ProfileState(StrEnum):
    """Where a website sign-in (browser profile) stands; only a READY one may be used."""

    READY = "READY"
    PENDING = "PENDING"
    EXPIRED = "EXPIRED"
    REVOKED = "REVOKED"


class Disposition(StrEnum):
    """What the worker decided for one due instant of a schedule."""

    MATERIALIZED = "MATERIALIZED"
    MISSED = "MISSED"
    SKIPPED_OVERLAP = "SKIPPED_OVERLAP"
    AUTHORIZATION_FAILED = "AUTHORIZATION_FAILED"
    CONFIGURATION_FAILED = "CONFIGURATION_FAILED"


class ReasonCode(StrEnum):
    """Why an occurrence was not materialized, or why the server failed a run."""

    # An occurrence's ``reason_code``: the firing rules, the authority's four among them.
    DEFINITION_INVALID = "definition_invalid"
    MISFIRE_GRACE_EXCEEDED = "misfire_grace_exceeded"
    PRINCIPAL_UNKNOWN = "principal_unknown"
    PRINCIPAL_DISABLED = "principal_disabled"
    SCOPE_REVOKED = "scope_revoked"
    AUTHORITY_CHANGED = "authority_changed"
    PREVIOUS_RUN_IN_FLIGHT = "previous_run_in_flight"
    ACTIVE_RUN_LIMIT = "active_run_limit"
    MATERIALIZATION_FAILED = "materialization_failed"
    CADENCE_UNREADABLE = "cadence_unreadable"
    # A run's ``failure_reason`` when the server failed it (an executor may give its own).
    DEADLINE_EXCEEDED = "deadline_exceeded"
    EXECUTOR_ERROR = "executor_error"
    EXECUTOR_REFUSED = "executor_refused"
    EXECUTOR_ANSWER_INVALID = "executor_answer_invalid"
    BROWSER_PROFILE_UNAVAILABLE = "browser_profile_unavailable"


class RunStatus(StrEnum):
    """Where a run stands; COMPLETED, FAILED and CANCELLED are terminal."""

    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


class AuditEventKind(StrEnum):
    """Every audit event the server appends (``event_type`` in the audit log)."""

    SCHEDULE_CREATED = "schedule.created"
    SCHEDULE_UPDATED = "schedule.updated"
    SCHEDULE_PAUSED = "schedule.paused"
    SCHEDULE_RESUMED = "schedule.resumed"
    SCHEDULE_CANCELLED = "schedule.cancelled"
    SCHEDULE_COMPLETED = "schedule.completed"
    SCHEDULE_AUTO_PAUSED = "schedule.auto_paused"
    SCHEDULE_MISFIRES_COALESCED = "schedule.misfires_coalesced"
    SCHEDULE_NEXT_FIRE_REPAIRED = "schedule.next_fire_repaired"
    SCHEDULE_RUN_ACCOUNTED = "schedule.run_accounted"
    OCCURRENCE_MATERIALIZED = "schedule.occurrence.materialized"
    OCCURRENCE_MISSED = "schedule.occurrence.missed"
    OCCURRENCE_SKIPPED_OVERLAP = "schedule.occurrence.skipped_overlap"
    OCCURRENCE_AUTHORIZATION_FAILED = "schedule.occurrence.authorization_failed"
    OCCURRENCE_CONFIGURATION_FAILED = "schedule.occurrence.configuration_failed"
    SESSION_CREATED = "session.created"
    RUN_QUEUED = "run.queued"


def occurrence_event_kind(disposition: Disposition) -> AuditEventKind:
    """The audit event that records an occurrence of ``disposition``."""
    return AuditEventKind(f"schedule.occurrence.{disposition.lower()}")
