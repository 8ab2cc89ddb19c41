"""The audit events about a schedule, built in one place: ``schedule_event`` and the scheduler's.

Every event names the schedule, its revision, tenant and principal (the
``AuditEvent`` columns), the actor (``scheduler`` for the firing rules, the
principal for the lifecycle's changes) and the time, and the states before and
after where a state is involved. Occurrence events add the occurrence id and
nominal instant; a materialized one adds its session and run. No event carries
the instruction, a credential or policy text.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from server.domain.misfire import Coalesced
from server.domain.states import (
    AuditEventKind,
    PauseReason,
    ScheduleState,
    occurrence_event_kind,
)
from server.firing.accounting import Standing
from server.storage.records import AuditEvent, Materialization, ScheduleRecord

__all__ = [
    "SCHEDULER_ACTOR",
    "iso_instant",
    "misfires_coalesced",
    "next_fire_repaired",
    "occurrence_decided",
    "run_accounted",
    "run_queued",
    "schedule_event",
    "standing_changed",
]

SCHEDULER_ACTOR: Final = "scheduler"


def schedule_event(
    kind: AuditEventKind, record: ScheduleRecord, actor: str, now: datetime, **payload: object
) -> AuditEvent:
    """An audit event about ``record`` at its current revision, from its state before the change."""
    return AuditEvent(
        event_type=kind,
        owner=record.owner,
        actor=actor,
        occurred_at=now,
        schedule_id=record.schedule_id,
        revision=record.current_revision,
        payload={"previous_state": record.state, **payload},
    )


def iso_instant(instant: datetime | None) -> str | None:
    """An instant as event payloads carry it (ISO 8601), or None."""
    return None if instant is None else instant.isoformat()


def occurrence_decided(
    record: ScheduleRecord, materialization: Materialization, standing: Standing, now: datetime
) -> AuditEvent:
    """``schedule.occurrence.<disposition>``."""
    occurrence = materialization.occurrence
    return schedule_event(
        occurrence_event_kind(occurrence.disposition),
        record,
        SCHEDULER_ACTOR,
        now,
        next_state=standing.state,
        occurrence_id=str(occurrence.occurrence_id),
        nominal_fire_at=iso_instant(occurrence.nominal_fire_at),
        reason_code=occurrence.reason_code,
        session_id=_text(occurrence.session_id),
        run_id=_text(occurrence.run_id),
        authority_version=occurrence.authority_version,
        previous_next_fire_at=iso_instant(record.next_fire_at),
        next_fire_at=iso_instant(standing.next_fire_at),
    )


def misfires_coalesced(record: ScheduleRecord, coalesced: Coalesced, now: datetime) -> AuditEvent:
    """``schedule.misfires_coalesced``: only first, last and count, however many were missed."""
    return AuditEvent(
        event_type=AuditEventKind.SCHEDULE_MISFIRES_COALESCED,
        owner=record.owner,
        actor=SCHEDULER_ACTOR,
        occurred_at=now,
        schedule_id=record.schedule_id,
        revision=record.current_revision,
        payload={
            "first_nominal_at": iso_instant(coalesced.first_nominal_at),
            "last_nominal_at": iso_instant(coalesced.last_nominal_at),
            "count": coalesced.count,
        },
    )


def run_queued(
    record: ScheduleRecord,
    materialization: Materialization,
    requested_scopes: list[str],
    now: datetime,
) -> list[AuditEvent]:
    """``session.created`` and ``run.queued`` for a materialized occurrence (else nothing).

    The run snapshots exactly the revision's requested scopes and the
    authority version the firing was checked against.
    """
    session, run = materialization.session, materialization.run
    if session is None or run is None:
        return []
    occurrence = materialization.occurrence
    linkage = {
        "occurrence_id": str(occurrence.occurrence_id),
        "session_id": str(session.session_id),
    }
    return [
        schedule_event(AuditEventKind.SESSION_CREATED, record, SCHEDULER_ACTOR, now, **linkage),
        schedule_event(
            AuditEventKind.RUN_QUEUED,
            record,
            SCHEDULER_ACTOR,
            now,
            **linkage,
            run_id=str(run.run_id),
            priority=run.priority,
            requested_scopes=requested_scopes,
            authority_version=occurrence.authority_version,
            deadline_at=iso_instant(run.deadline_at),
        ),
    ]


def standing_changed(
    record: ScheduleRecord, standing: Standing, max_failures: int, now: datetime
) -> list[AuditEvent]:
    """``schedule.completed`` or ``schedule.auto_paused`` when the decision ended there."""
    if record.state == standing.state:
        return []
    if standing.state == ScheduleState.COMPLETED:
        return [
            schedule_event(
                AuditEventKind.SCHEDULE_COMPLETED,
                record,
                SCHEDULER_ACTOR,
                now,
                next_state=ScheduleState.COMPLETED,
            )
        ]
    if standing.auto_paused:
        return [
            schedule_event(
                AuditEventKind.SCHEDULE_AUTO_PAUSED,
                record,
                SCHEDULER_ACTOR,
                now,
                next_state=ScheduleState.PAUSED,
                pause_reason=PauseReason.FAILURE_LIMIT,
                consecutive_failures=standing.consecutive_failures,
                max_consecutive_failures=max_failures,
                previous_next_fire_at=iso_instant(record.next_fire_at),
                next_fire_at=None,
            )
        ]
    return []


def next_fire_repaired(record: ScheduleRecord, standing: Standing, now: datetime) -> AuditEvent:
    """``schedule.next_fire_repaired``: the cache was rebuilt from the cadence."""
    return schedule_event(
        AuditEventKind.SCHEDULE_NEXT_FIRE_REPAIRED,
        record,
        SCHEDULER_ACTOR,
        now,
        next_state=standing.state,
        previous_next_fire_at=iso_instant(record.next_fire_at),
        next_fire_at=iso_instant(standing.next_fire_at),
    )


def run_accounted(
    record: ScheduleRecord,
    occurrence_id: str,
    run_status: str,
    failure: Mapping[str, Any] | None,
    standing: Standing,
    now: datetime,
) -> AuditEvent:
    """``schedule.run_accounted``: the run's terminal status and the resulting failure count.

    ``failure`` is None unless the run failed; then only its classification
    (reason code, error class), never its message.
    """
    return schedule_event(
        AuditEventKind.SCHEDULE_RUN_ACCOUNTED,
        record,
        SCHEDULER_ACTOR,
        now,
        next_state=standing.state,
        occurrence_id=occurrence_id,
        run_status=run_status,
        consecutive_failures=standing.consecutive_failures,
        failure=None if failure is None else dict(failure),
    )


def _text(value: object | None) -> str | None:
    return None if value is None else str(value)
