"""The closed state machine of a schedule, as pure decisions.

    ACTIVE -> ACTIVE (update)      ACTIVE -> PAUSED (pause)     ACTIVE -> CANCELLED
    PAUSED -> PAUSED (update)      PAUSED -> ACTIVE (resume)    PAUSED -> CANCELLED
    COMPLETED, CANCELLED: terminal

Each function takes the record as read and returns the change to write, or
None when the schedule already is where the request wants it (an idempotent
repeat writes nothing). A stale ``expected_revision`` is refused before
anything else, then a terminal state; the ACTIVE -> COMPLETED step belongs to
the worker. Pausing clears ``next_fire_at``; resuming computes the first
instant strictly after now, so time spent paused is never backfilled.

An ACTIVE schedule always has a next firing: an update or a resume that
would leave it none is refused (``cadence.at``, ``not_in_future``). A due
instant is the caller's (``service`` decides it first), never these functions'.
"""

from __future__ import annotations

from datetime import datetime

from server.definitions.errors import InvalidDefinition, RevisionConflict, ScheduleTerminal
from server.domain.cadence import Cadence
from server.domain.recurrence import first_after
from server.domain.states import AuditEventKind, PauseReason, ScheduleState
from server.firing.events import iso_instant, schedule_event
from server.storage.records import AuditEvent, RevisionRecord, ScheduleChange, ScheduleRecord

TERMINAL: frozenset[ScheduleState] = frozenset({ScheduleState.COMPLETED, ScheduleState.CANCELLED})


def check_revision(record: ScheduleRecord, expected_revision: int) -> None:
    if record.current_revision != expected_revision:
        raise RevisionConflict(record.current_revision)


def _mutable(record: ScheduleRecord) -> None:
    if record.state in TERMINAL:
        raise ScheduleTerminal(record.state)


_HALTS: dict[ScheduleState, tuple[AuditEventKind, PauseReason | None]] = {
    ScheduleState.PAUSED: (AuditEventKind.SCHEDULE_PAUSED, PauseReason.USER),
    ScheduleState.CANCELLED: (AuditEventKind.SCHEDULE_CANCELLED, None),
}


def _halt(
    record: ScheduleRecord,
    expected_revision: int,
    actor: str,
    now: datetime,
    target: ScheduleState,
) -> ScheduleChange | None:
    """Pause and cancel alike: to ``target`` with no next firing, the failure count kept."""
    check_revision(record, expected_revision)
    if record.state == target:
        return None
    _mutable(record)
    kind, pause_reason = _HALTS[target]
    event = schedule_event(
        kind,
        record,
        actor,
        now,
        next_state=target,
        previous_next_fire_at=iso_instant(record.next_fire_at),
        next_fire_at=None,
    )
    return ScheduleChange(
        state=target,
        pause_reason=pause_reason,
        next_fire_at=None,
        consecutive_failures=record.consecutive_failures,
        updated_at=now,
        new_revision=None,
        events=(event,),
    )


def pause(
    record: ScheduleRecord, expected_revision: int, actor: str, now: datetime
) -> ScheduleChange | None:
    return _halt(record, expected_revision, actor, now, ScheduleState.PAUSED)


def resume(
    record: ScheduleRecord,
    expected_revision: int,
    cadence: Cadence,
    actor: str,
    now: datetime,
) -> ScheduleChange | None:
    check_revision(record, expected_revision)
    if record.state == ScheduleState.ACTIVE:
        return None
    _mutable(record)
    next_fire = first_after(cadence, now)
    if next_fire is None:
        raise InvalidDefinition("cadence.at", "not_in_future")
    event = schedule_event(
        AuditEventKind.SCHEDULE_RESUMED,
        record,
        actor,
        now,
        next_state=ScheduleState.ACTIVE,
        previous_next_fire_at=None,
        next_fire_at=iso_instant(next_fire),
    )
    # A failure-limit pause starts counting afresh once a person resumes it.
    return ScheduleChange(
        state=ScheduleState.ACTIVE,
        pause_reason=None,
        next_fire_at=next_fire,
        consecutive_failures=0,
        updated_at=now,
        new_revision=None,
        events=(event,),
    )


def cancel(
    record: ScheduleRecord, expected_revision: int, actor: str, now: datetime
) -> ScheduleChange | None:
    return _halt(record, expected_revision, actor, now, ScheduleState.CANCELLED)


def update(
    record: ScheduleRecord,
    current: RevisionRecord,
    expected_revision: int,
    definition_text: str,
    cadence: Cadence,
    actor: str,
    authority_version: str,
    now: datetime,
) -> ScheduleChange | None:
    """A new revision, or None when the canonical definition is unchanged.

    The revision records ``authority_version``, the updating principal's
    present one: later firings require it unchanged.
    """
    check_revision(record, expected_revision)
    _mutable(record)
    if definition_text == current.definition:
        return None
    revision = RevisionRecord(
        schedule_id=record.schedule_id,
        revision=record.current_revision + 1,
        definition=definition_text,
        created_by_principal_id=actor,
        created_at=now,
        authority_version=authority_version,
    )
    next_fire = first_after(cadence, now) if record.state == ScheduleState.ACTIVE else None
    if record.state == ScheduleState.ACTIVE and next_fire is None:
        raise InvalidDefinition("cadence.at", "not_in_future")
    event = AuditEvent(
        event_type=AuditEventKind.SCHEDULE_UPDATED,
        owner=record.owner,
        actor=actor,
        occurred_at=now,
        schedule_id=record.schedule_id,
        revision=revision.revision,
        payload={
            "previous_state": record.state,
            "next_state": record.state,
            "previous_revision": record.current_revision,
            "previous_next_fire_at": iso_instant(record.next_fire_at),
            "next_fire_at": iso_instant(next_fire),
        },
    )
    return ScheduleChange(
        state=record.state,
        pause_reason=record.pause_reason,
        next_fire_at=next_fire,
        consecutive_failures=record.consecutive_failures,
        updated_at=now,
        new_revision=revision,
        events=(event,),
    )
