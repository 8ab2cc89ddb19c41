"""The materializer: what one due schedule's transaction decides and writes.

For the schedule that ``OccurrenceRepository.materialize_next`` claims (the
next one ACTIVE and due that no other worker holds, locked by the
transaction) the decision runs in this order (steps 2 to 6 are
``firing.decide_firing``, a pure function):

1. The misfire rule (``server.domain.misfire.decide``) over the instants
   owed since ``next_fire_at`` (or since the newest ledger entry, if later)
   picks the latest due instant as the only candidate; older ones are
   coalesced into one ``schedule.misfires_coalesced`` event. Nothing owed
   after all (a stale cache) only repairs ``next_fire_at``.
2. A stored definition that no longer passes validation is recorded
   CONFIGURATION_FAILED (``definition_invalid``): its grace cannot be trusted.
3. Outside the grace window the candidate is recorded MISSED.
4. Fresh authority (``authority``): else AUTHORIZATION_FAILED with its reason.
5. Overlap: the newest materialized occurrence's run still active gives
   SKIPPED_OVERLAP (``previous_run_in_flight``); no run is created and the
   held run is left alone. Overlap comes before admission: a skip creates no
   run, so it needs no capacity, and waiting for capacity must not turn an
   overlap into a miss.
6. Admission (``admission``): over the cap, nothing is written at all (the
   caller backs off and retries).
7. MATERIALIZED: a dedicated session titled with the revision's title,
   metadata ``schedule_id``/``schedule_revision``/``occurrence_id``/
   ``nominal_fire_at``, the instruction as its opening user message (hidden
   from the transcript, delivered to the executor), and
   a QUEUED priority-10 run whose deadline is now plus ``run_timeout_seconds``.

Then the schedule advances to the first instant after now (a ONCE completes),
failure accounting applies to the recorded disposition (``accounting``), and
audit events are added; none carries the instruction.

The same decision serves two callers. The worker claims the next due
schedule (``Materializer.materialize_next``). An update, pause or cancel that
finds its schedule due decides that instant first, in its own transaction
(``settle_due``), so the instant is decided by the revision current at it and
is never erased; an edit cannot wait for capacity, so there admission's "wait"
is recorded MISSED (``active_run_limit``). Two more plans keep a schedule
from being stuck: ``unmaterializable`` records CONFIGURATION_FAILED
(``materialization_failed``, or ``cadence_unreadable`` with a pause at the
failure limit) when a stored definition keeps failing to materialize, and
``repair_missing_next`` rebuilds the ``next_fire_at`` of an ACTIVE schedule
that lacks one (``schedule.next_fire_repaired``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final
from uuid import UUID

from server.control.lifecycle import iso_instant
from server.domain.cadence import Cadence, parse_cadence
from server.domain.misfire import MisfireDecision, Verdict, decide
from server.domain.recurrence import first_after
from server.domain.states import Disposition, PauseReason, RunStatus, ScheduleState
from server.identity import IdentityProvider, Principal
from server.storage.jsontext import load_object
from server.storage.ports import Store
from server.storage.records import (
    BatchOutcome,
    DueSchedule,
    Materialization,
    MessageRecord,
    OccurrencePlan,
    OccurrenceRecord,
    Owner,
    RunRecord,
    ScheduleChange,
    ScheduleRecord,
    SessionRecord,
)
from server.storage.row_ids import new_row_id
from server.worker import accounting, occurrence_events
from server.worker.admission import Admission
from server.worker.firing import Firing, FiringFacts, decide_firing
from server.worker.revision_check import checked_revision

__all__ = [
    "RUN_PRIORITY",
    "Claimed",
    "FiringIds",
    "MaterializationFailed",
    "Materializer",
    "Result",
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


class Result(StrEnum):
    WRITTEN = "WRITTEN"
    HELD = "HELD"
    """Admission said wait: nothing written, the schedule is still due."""


@dataclass(frozen=True, slots=True)
class Claimed:
    """Which schedule a materialization claimed, and what became of it."""

    schedule_id: UUID
    result: Result
    occurrence: OccurrenceRecord | None = None
    """The occurrence written, if any (the metrics read its nominal instant and disposition)."""


class MaterializationFailed(Exception):
    """The claimed schedule's transaction failed and rolled back; the cause is chained.

    Carries the schedule id only: the cause's message could quote the
    instruction, so callers log its type, never its text.
    """

    def __init__(self, schedule_id: UUID) -> None:
        super().__init__(str(schedule_id))
        self.schedule_id = schedule_id


class Materializer:
    """Materializes one schedule at a time, each in its own transaction."""

    def __init__(self, store: Store, identity: IdentityProvider, admission: Admission) -> None:
        self._store = store
        self._identity = identity
        self._admission = admission

    def materialize_batch(
        self, now: datetime, excluding: Collection[UUID], limit: int
    ) -> BatchOutcome:
        """Claim up to ``limit`` due schedules, decide each, write all, commit once.

        Each is decided as ``plan_occurrence`` decides one, on what the claim
        read, except that admission also counts the runs this batch queued
        before it for the same principal. Each principal's authority is read
        once per batch (``_BatchAuthority``) and checked against every one of
        its schedules. Storage isolates the schedules' failures
        (``BatchOutcome``); ``BatchFailed`` when the batch rolled back whole.
        """
        authority = _BatchAuthority(self._identity)
        queued: dict[Owner, int] = {}

        def plan(due: DueSchedule) -> OccurrencePlan | None:
            owner = due.view.schedule.owner
            earlier = queued.get(owner, 0)
            if earlier:
                due = replace(due, active_runs=due.active_runs + earlier)
            decided = plan_occurrence(due, now, authority, self._admission)
            if decided is not None and _queues_run(decided):
                queued[owner] = earlier + 1
            return decided

        return self._store.occurrences.materialize_batch(now, plan, excluding, limit)

    def materialize_next(self, now: datetime, excluding: Collection[UUID] = ()) -> Claimed | None:
        """Claim the next due schedule outside ``excluding``, decide, write; None if none was free.

        Raises ``MaterializationFailed`` when the claimed schedule could not be
        materialized (nothing of it is written); an error before any schedule
        was claimed propagates as it is.
        """
        claim = _OneClaim(lambda due: plan_occurrence(due, now, self._identity, self._admission))
        try:
            got = self._store.occurrences.materialize_next(now, claim.plan, excluding)
        except Exception as err:
            if claim.schedule_id is None:
                raise
            raise MaterializationFailed(claim.schedule_id) from err
        if got is None:
            return None
        return claim.outcome(got)


class _OneClaim:
    """The plan callback ``materialize_next`` hands the store, and what it decided.

    The store calls ``plan`` inside its transaction; the claimed schedule and
    its plan are kept here, where the caller reads them once the transaction
    has ended (the id names a failed claim; the plan says held or written).
    """

    def __init__(self, decide: Callable[[DueSchedule], OccurrencePlan | None]) -> None:
        self._decide = decide
        self.schedule_id: UUID | None = None
        self.decided: OccurrencePlan | None = None

    def plan(self, due: DueSchedule) -> OccurrencePlan | None:
        self.schedule_id = due.view.schedule.schedule_id
        self.decided = self._decide(due)
        return self.decided

    def outcome(self, schedule_id: UUID) -> Claimed:
        if self.decided is None:
            return Claimed(schedule_id, Result.HELD)
        materialization = self.decided.materialization
        written = None if materialization is None else materialization.occurrence
        return Claimed(schedule_id, Result.WRITTEN, written)


class _BatchAuthority:
    """The identity provider for one batch: each principal looked up once, then remembered.

    A batch lasts a fraction of a second; within it every schedule of a
    principal is checked against the same fresh entry, as if the firings
    had been one after the other.
    """

    def __init__(self, identity: IdentityProvider) -> None:
        self._identity = identity
        self._seen: dict[tuple[str, str], Principal | None] = {}

    def authenticate(self, bearer_token: str | None) -> Principal | None:
        return self._identity.authenticate(bearer_token)

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        key = (tenant_id, principal_id)
        if key not in self._seen:
            self._seen[key] = self._identity.current(tenant_id, principal_id)
        return self._seen[key]


def _queues_run(plan: OccurrencePlan) -> bool:
    return plan.materialization is not None and plan.materialization.run is not None


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
    events = [occurrence_events.occurrence_decided(record, materialization, standing, now)]
    if decision.coalesced is not None:
        events.append(occurrence_events.misfires_coalesced(record, decision.coalesced, now))
    scopes = list(payload.get("requested_scopes", []))
    events.extend(occurrence_events.run_queued(record, materialization, scopes, now))
    events.extend(occurrence_events.standing_changed(record, standing, limit, now))
    return OccurrencePlan(materialization, accounting.change_to(record, standing, now, events))


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
            "nominal_fire_at": iso_instant(occurrence.nominal_fire_at),
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
    events = [occurrence_events.next_fire_repaired(record, standing, now)]
    events.extend(occurrence_events.standing_changed(record, standing, 1, now))
    return OccurrencePlan(None, accounting.change_to(record, standing, now, events))


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
    failing = Firing(Disposition.CONFIGURATION_FAILED, "materialization_failed", None)
    return _plan(due, decision, failing, payload, now, new_row_id)


def _unreadable(record: ScheduleRecord, nominal_at: datetime, now: datetime) -> OccurrencePlan:
    occurrence = _decided_occurrence(
        record,
        nominal_at,
        Firing(Disposition.CONFIGURATION_FAILED, "cadence_unreadable", None),
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
    events = [occurrence_events.occurrence_decided(record, materialization, standing, now)]
    events.extend(occurrence_events.standing_changed(record, standing, 1, now))
    return OccurrencePlan(materialization, accounting.change_to(record, standing, now, events))


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
    events = [occurrence_events.next_fire_repaired(record, standing, now)]
    events.extend(occurrence_events.standing_changed(record, standing, 1, now))
    return accounting.change_to(record, standing, now, events)
