"""The plan for one due schedule: what its due instant becomes, as rows to write.

``plan_occurrence`` decides in this order: the misfire rule picks the latest
owed instant (older ones are coalesced into one event; nothing owed only
repairs ``next_fire_at``), then ``decision.decide_firing`` (definition, grace,
authority, overlap, admission). A MATERIALIZED firing gets a dedicated
session with the instruction as its hidden opening message and a QUEUED run;
then the schedule advances (a ONCE completes), the failure count applies
(``accounting``) and the audit events are added; none carries the instruction.

The worker plans the schedules it claims; an edit that finds its schedule due
plans that instant first (``settle_due``), where admission cannot wait and
records MISSED. ``unmaterializable`` records a definition that keeps failing
CONFIGURATION_FAILED, and ``repair_missing_next`` rebuilds a lost
``next_fire_at``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Final
from uuid import UUID

from server.domain.cadence import Cadence, parse_cadence
from server.domain.misfire import MisfireDecision, Verdict, decide
from server.domain.recurrence import first_after
from server.domain.states import Disposition, PauseReason, ReasonCode, RunStatus, ScheduleState
from server.firing import accounting, events
from server.firing.admission import Admission
from server.firing.decision import Firing, FiringFacts, decide_firing
from server.firing.revision_check import checked_revision
from server.identity import IdentityProvider
from server.storage.jsontext import load_object
from server.storage.records import (
    DueSchedule,
    Materialization,
    MessageRecord,
    OccurrencePlan,
    OccurrenceRecord,
    RunRecord,
    ScheduleChange,
    ScheduleRecord,
    SessionRecord,
)
from server.storage.row_ids import new_row_id

__all__ = [
    "RUN_PRIORITY",
    "FiringIds",
    "materialized",
    "plan_occurrence",
    "repair_missing_next",
    "settle_due",
    "unmaterializable",
]

DECISIONS_REMEMBERED: Final = 1024
"""Misfire decisions kept (``_misfire``); a batch needs one per distinct cadence and instant."""
RUN_PRIORITY: Final = 10
"""Scheduled runs queue at async priority 10, never interactive priority 0."""
_TICK: Final = timedelta(microseconds=1)
_ANY_GRACE: Final = timedelta(seconds=1)
"""Only places the instant of a definition that cannot run anyway."""


def settle_due(
    due: DueSchedule, now: datetime, identity: IdentityProvider, admission: Admission
) -> OccurrencePlan:
    """The plan for a due schedule that a request holds before changing it.

    The worker's decision, except that admission cannot make it wait (the
    change is about to move ``next_fire_at`` on): over the cap, the instant
    is recorded MISSED (``active_run_limit``). A cadence that no longer reads
    is recorded CONFIGURATION_FAILED (``unmaterializable``), so the request
    neither fails nor erases the instant.
    """
    try:
        planned = plan_occurrence(due, now, identity, admission, may_wait=False)
    except (ValueError, KeyError, TypeError):
        return unmaterializable(due, now)
    if planned is None:
        raise ValueError("an occurrence plan that may not wait was held")
    return planned


def plan_occurrence(
    due: DueSchedule,
    now: datetime,
    identity: IdentityProvider,
    admission: Admission,
    *,
    may_wait: bool = True,
    new_id: Callable[[], UUID] = new_row_id,
) -> OccurrencePlan | None:
    """The plan for one claimed schedule, or None to write nothing (admission said wait).

    Raises when the stored cadence itself cannot be read: there is then no
    instant to record, and the caller logs and retries later. With
    ``may_wait`` false, admission's denial records MISSED instead of None.
    Every row id comes from ``new_id`` (a test passes its own, for
    deterministic rows).
    """
    record = due.view.schedule
    checked = checked_revision(due.view.revision.definition)
    payload, cadence, valid = checked.payload, checked.cadence, checked.valid
    grace = _ANY_GRACE if valid is None else timedelta(seconds=valid["misfire_grace_seconds"])
    if record.next_fire_at is None:
        raise ValueError("a claimed schedule has a next_fire_at")
    owed_since = record.next_fire_at - _TICK
    if due.last_nominal_at is not None and due.last_nominal_at > owed_since:
        owed_since = due.last_nominal_at
    decision = _misfire(cadence, grace, owed_since, now)
    if decision.verdict is Verdict.NOTHING_DUE:
        return _repair(record, decision, now)
    owner = record.owner
    facts = FiringFacts(
        requested_scopes=None if valid is None else frozenset(valid["requested_scopes"]),
        outside_grace=decision.verdict is Verdict.MISSED,
        pinned_authority=due.view.revision.authority_version,
        run_in_flight=due.run_in_flight,
        admitted=admission.admits(due.active_runs),
        may_wait=may_wait,
    )
    firing = decide_firing(facts, lambda: identity.current(owner.tenant_id, owner.principal_id))
    if firing is None:
        return None
    return _plan(due, decision, firing, payload, now, new_id)


@lru_cache(maxsize=DECISIONS_REMEMBERED)
def _misfire(
    cadence: Cadence, grace: timedelta, owed_since: datetime, now: datetime
) -> MisfireDecision:
    """``misfire.decide``, remembered: a pure function of these four values.

    A herd shares them: the schedules of one cadence, due at one instant and
    scanned by one batch (one ``now``), are decided by one calendar
    computation instead of one each. Every schedule is still decided, on its
    own grace and its own ledger's instant.
    """
    return decide(cadence, grace=grace, last_nominal_at=owed_since, now=now)


def _plan(
    due: DueSchedule,
    decision: MisfireDecision,
    firing: Firing,
    payload: dict[str, Any],
    now: datetime,
    new_id: Callable[[], UUID],
) -> OccurrencePlan:
    record = due.view.schedule
    if decision.nominal_at is None:
        raise ValueError("a firing has a nominal instant")
    occurrence = _decided_occurrence(record, decision.nominal_at, firing, now, new_id())
    materialization = (
        materialized(record, occurrence, payload, now, FiringIds(new_id(), new_id(), new_id()))
        if firing.disposition == Disposition.MATERIALIZED
        else Materialization(occurrence)
    )
    limit = accounting.max_failures(payload)
    advanced = accounting.Standing(
        state=ScheduleState.COMPLETED if decision.completes else ScheduleState.ACTIVE,
        pause_reason=None,
        next_fire_at=decision.next_fire_at,
        consecutive_failures=record.consecutive_failures,
    )
    outcome = accounting.outcome_of_disposition(firing.disposition)
    standing = accounting.after_outcome(advanced, outcome, limit)
    audit = [events.occurrence_decided(record, materialization, standing, now)]
    if decision.coalesced is not None:
        audit.append(events.misfires_coalesced(record, decision.coalesced, now))
    scopes = list(payload.get("requested_scopes", []))
    audit.extend(events.run_queued(record, materialization, scopes, now))
    audit.extend(events.standing_changed(record, standing, limit, now))
    return OccurrencePlan(materialization, accounting.change_to(record, standing, now, audit))


def _decided_occurrence(
    record: ScheduleRecord,
    nominal_at: datetime,
    firing: Firing,
    now: datetime,
    occurrence_id: UUID,
) -> OccurrenceRecord:
    return OccurrenceRecord(
        occurrence_id=occurrence_id,
        schedule_id=record.schedule_id,
        schedule_revision=record.current_revision,
        nominal_fire_at=nominal_at,
        disposition=firing.disposition,
        session_id=None,
        run_id=None,
        reason_code=firing.reason_code,
        authority_version=None if firing.principal is None else firing.principal.authority_version,
        materialized_at=None,
        links_erased_at=None,
        created_at=now,
    )


@dataclass(frozen=True, slots=True)
class FiringIds:
    """The ids of the rows a firing creates: its session, run and opening message."""

    session_id: UUID
    run_id: UUID
    message_id: UUID


def materialized(
    record: ScheduleRecord,
    occurrence: OccurrenceRecord,
    payload: dict[str, Any],
    now: datetime,
    ids: FiringIds,
) -> Materialization:
    """What a firing writes: its dedicated session, the delivered instruction, the QUEUED run.

    The instruction is the session's opening message, hidden from the
    transcript (the executor is handed it). The demo builds its history
    through this too, so a demo firing is shaped like a real one.
    """
    session_id, run_id = ids.session_id, ids.run_id
    session = SessionRecord(
        session_id=session_id,
        owner=record.owner,
        title=payload["title"],
        last_activity_at=now,
        folder_id=None,
        metadata={
            "schedule_id": str(record.schedule_id),
            "schedule_revision": record.current_revision,
            "occurrence_id": str(occurrence.occurrence_id),
            "nominal_fire_at": events.iso_instant(occurrence.nominal_fire_at),
        },
        created_at=now,
    )
    opening = MessageRecord(ids.message_id, session_id, "user", payload["instruction"], True, now)
    run = RunRecord(
        run_id=run_id,
        owner=record.owner,
        session_id=session_id,
        status=RunStatus.QUEUED,
        priority=RUN_PRIORITY,
        limits=payload["limits"],
        scheduled_for=now,
        deadline_at=now + timedelta(seconds=payload["run_timeout_seconds"]),
        created_at=now,
        updated_at=now,
    )
    linked = replace(occurrence, session_id=session_id, run_id=run_id, materialized_at=now)
    return Materialization(linked, session=session, messages=(opening,), run=run)


def _repair(record: ScheduleRecord, decision: MisfireDecision, now: datetime) -> OccurrencePlan:
    """Nothing was owed after all: rebuild the cached ``next_fire_at`` from the cadence."""
    standing = accounting.Standing(
        state=ScheduleState.COMPLETED if decision.completes else ScheduleState.ACTIVE,
        pause_reason=None,
        next_fire_at=decision.next_fire_at,
        consecutive_failures=record.consecutive_failures,
    )
    audit = [events.next_fire_repaired(record, standing, now)]
    audit.extend(events.standing_changed(record, standing, 1, now))
    return OccurrencePlan(None, accounting.change_to(record, standing, now, audit))


def unmaterializable(due: DueSchedule, now: datetime) -> OccurrencePlan:
    """Record the due instant CONFIGURATION_FAILED: its definition keeps failing to materialize.

    With a readable cadence the instant is the one the worker would have
    decided (``materialization_failed``), the failure counts and the
    schedule moves on, so a definition that fails every time reaches its
    failure limit and pauses. With an unreadable cadence there is no next
    instant: the cached ``next_fire_at`` is recorded (``cadence_unreadable``)
    and the schedule pauses at once (``failure_limit``).
    """
    record = due.view.schedule
    if record.next_fire_at is None:
        raise ValueError("a due schedule has a next_fire_at")
    try:
        payload = load_object(due.view.revision.definition)
        cadence = parse_cadence(payload["cadence"])
    except (ValueError, KeyError, TypeError):
        return _unreadable(record, record.next_fire_at, now)
    owed_since = record.next_fire_at - _TICK
    if due.last_nominal_at is not None and due.last_nominal_at > owed_since:
        owed_since = due.last_nominal_at
    decision = decide(cadence, grace=_ANY_GRACE, last_nominal_at=owed_since, now=now)
    if decision.verdict is Verdict.NOTHING_DUE:
        return _repair(record, decision, now)
    failing = Firing(Disposition.CONFIGURATION_FAILED, ReasonCode.MATERIALIZATION_FAILED, None)
    return _plan(due, decision, failing, payload, now, new_row_id)


def _unreadable(record: ScheduleRecord, nominal_at: datetime, now: datetime) -> OccurrencePlan:
    occurrence = _decided_occurrence(
        record,
        nominal_at,
        Firing(Disposition.CONFIGURATION_FAILED, ReasonCode.CADENCE_UNREADABLE, None),
        now,
        new_row_id(),
    )
    materialization = Materialization(occurrence)
    standing = accounting.Standing(
        state=ScheduleState.PAUSED,
        pause_reason=PauseReason.FAILURE_LIMIT,
        next_fire_at=None,
        consecutive_failures=record.consecutive_failures + 1,
    )
    audit = [events.occurrence_decided(record, materialization, standing, now)]
    audit.extend(events.standing_changed(record, standing, 1, now))
    return OccurrencePlan(materialization, accounting.change_to(record, standing, now, audit))


def repair_missing_next(due: DueSchedule, now: datetime) -> ScheduleChange | None:
    """Rebuild the ``next_fire_at`` of an ACTIVE schedule that has none, or None if it has one.

    The instant owed next is the first one after the newest recorded
    instant, or after the schedule's creation when none is recorded: an
    instant that already passed is then decided by the worker as any due
    one (fired within its grace, else MISSED), so the repair erases nothing.
    None left (a decided ONCE) completes the schedule.
    """
    record = due.view.schedule
    if record.state != ScheduleState.ACTIVE or record.next_fire_at is not None:
        return None
    cadence = parse_cadence(load_object(due.view.revision.definition)["cadence"])
    owed_after = due.last_nominal_at or record.created_at
    upcoming = first_after(cadence, owed_after)
    standing = accounting.Standing(
        state=ScheduleState.ACTIVE if upcoming is not None else ScheduleState.COMPLETED,
        pause_reason=None,
        next_fire_at=upcoming,
        consecutive_failures=record.consecutive_failures,
    )
    audit = [events.next_fire_repaired(record, standing, now)]
    audit.extend(events.standing_changed(record, standing, 1, now))
    return accounting.change_to(record, standing, now, audit)
