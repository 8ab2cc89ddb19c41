"""The occurrence ledger over SQL; a decision and its session and run commit together.

``materialize_next`` is the scheduler's one transaction per due schedule:
claim the next due row that nobody else holds (``claim_due``), read what the
decision needs, let the caller decide, and write the occurrence, its session,
opening message and run, the schedule's advance and the audit events, all or
nothing. A failure anywhere before the
commit leaves the schedule exactly as due as it was; so does a replica that
dies mid-way, since the database rolls back a transaction whose connection
is gone and frees its row for the next replica that scans.

``settle_then_apply`` is the same transaction for one named schedule, taken
by a request (update, pause, cancel) or the worker's own repairs: it holds
the row (waiting for a worker that holds it, where the claim skips), decides
the due instant if there is one with the worker's plan, then writes the
request's change on the schedule as it then stands.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import Connection, Engine, RowMapping, Select, bindparam, func, insert, select

from server.domain.states import Disposition, RunStatus, ScheduleState
from server.storage.columns import UtcDateTime
from server.storage.jsontext import canonical_json
from server.storage.records import (
    BatchOutcome,
    DueSchedule,
    Materialization,
    OccurrencePlan,
    OccurrenceRecord,
    Owner,
    RunRecord,
    ScheduleChange,
    ScheduleView,
)
from server.storage.sql import outcome
from server.storage.sql.advisory_locks import admission_of, hold
from server.storage.sql.keyset import keyset_page, owned_by
from server.storage.sql.schedule_rows import schedule_view, schedule_views, write_locked_change
from server.storage.sql.sessions import message_rows, session_row
from server.storage.sql.write_lock import write_transaction
from server.storage.tables import (
    runs,
    schedule_occurrences,
    schedules,
    session_messages,
    sessions,
)

ACTIVE_RUN_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)

# Built once: the scheduler runs these per materialization, and building a
# statement costs several times what executing a cached one does.
_INSERT_OCCURRENCE = insert(schedule_occurrences)
_INSERT_SESSION = insert(sessions)
_INSERT_MESSAGES = insert(session_messages)
_INSERT_RUN = insert(runs)
_OCC = schedule_occurrences.c
_LAST_NOMINAL = (
    select(func.max(_OCC.nominal_fire_at))
    .where(_OCC.schedule_id == schedules.c.id)
    .scalar_subquery()
)
_NEWEST_RUN_STATUS = (
    select(runs.c.status)
    .select_from(schedule_occurrences.outerjoin(runs, runs.c.id == _OCC.run_id))
    .where(_OCC.schedule_id == schedules.c.id, _OCC.disposition == Disposition.MATERIALIZED)
    .order_by(_OCC.nominal_fire_at.desc())
    .limit(1)
    .scalar_subquery()
)
_ACTIVE_RUNS = (
    select(func.count())
    .select_from(runs)
    .where(
        runs.c.tenant_id == schedules.c.tenant_id,
        runs.c.principal_id == schedules.c.principal_id,
        runs.c.status.in_(ACTIVE_RUN_STATUSES),
    )
    .scalar_subquery()
)
_DUE_FIRST = (
    schedules.c.state == ScheduleState.ACTIVE,
    schedules.c.next_fire_at <= bindparam("now", type_=UtcDateTime()),
)
_LEAVING_OUT = schedules.c.id.not_in(bindparam("excluding", expanding=True))
# Claims take due schedules in the due index's order: earliest first, so a
# claim reads index entries, not every schedule due at the same instant; and
# among those due at one instant, each owner's together, so that replicas
# claiming side by side share at most the owner at their boundary, not every
# owner's admission turn (``batch_claims``).
_DUE_ORDER = (schedules.c.next_fire_at, schedules.c.tenant_id, schedules.c.principal_id)
# Row-locking databases: the claim locks the next due row that nobody holds.
_CLAIM = (
    select(schedules.c.id, schedules.c.tenant_id, schedules.c.principal_id)
    .where(*_DUE_FIRST)
    .order_by(*_DUE_ORDER)
    .limit(1)
    .with_for_update(skip_locked=True)
)
_DECISION_READS = schedule_views().add_columns(
    _LAST_NOMINAL.label("last_nominal_at"),
    _NEWEST_RUN_STATUS.label("newest_run_status"),
    _ACTIVE_RUNS.label("active_runs"),
)
_READ_CLAIMED = _DECISION_READS.where(schedules.c.id == bindparam("schedule_id"))
_SHOWN = outcome.with_outcome(schedule_views()).where(schedules.c.id == bindparam("schedule_id"))
# One named schedule's row lock (``settle_then_apply``): waits for a worker
# that holds it rather than skipping it, so the request decides on its commit.
_LOCK_ONE = (
    select(schedules.c.id, schedules.c.tenant_id, schedules.c.principal_id)
    .where(schedules.c.id == bindparam("schedule_id"))
    .with_for_update()
)
# The batch claim (``batch_claims``) builds on these.
DECISION_READS = _DECISION_READS
DUE_FIRST = _DUE_FIRST
DUE_ORDER = _DUE_ORDER
LEAVING_OUT = _LEAVING_OUT
# SQLite: BEGIN IMMEDIATE has serialized the transaction already, so one
# statement claims and reads.
_CLAIM_AND_READ = _DECISION_READS.where(*_DUE_FIRST).order_by(*_DUE_ORDER).limit(1)
# Each claim also comes leaving some schedules out (those the worker backs off
# from): a statement of its own, as a list parameter is spliced into the SQL
# at each execution.
_CLAIMS = {False: _CLAIM, True: _CLAIM.where(_LEAVING_OUT)}
_CLAIMS_AND_READS = {False: _CLAIM_AND_READ, True: _CLAIM_AND_READ.where(_LEAVING_OUT)}


def _occurrence(row: RowMapping) -> OccurrenceRecord:
    return OccurrenceRecord(
        occurrence_id=row["id"],
        schedule_id=row["schedule_id"],
        schedule_revision=row["schedule_revision"],
        nominal_fire_at=row["nominal_fire_at"],
        disposition=Disposition(row["disposition"]),
        session_id=row["session_id"],
        run_id=row["run_id"],
        reason_code=row["reason_code"],
        authority_version=row["authority_version"],
        materialized_at=row["materialized_at"],
        links_erased_at=row["links_erased_at"],
        created_at=row["created_at"],
    )


def _lock_then_read(
    connection: Connection, claim: Select[Any], parameters: dict[str, object]
) -> RowMapping | None:
    """Row lock, the owner's admission lock, then the reads (see ``claim_due``)."""
    claimed = connection.execute(claim, parameters).mappings().first()
    if claimed is None:
        return None
    hold(connection, admission_of(Owner(claimed["tenant_id"], claimed["principal_id"])))
    read = {"schedule_id": claimed["id"]}
    return connection.execute(_READ_CLAIMED, read).mappings().one()


def due_schedule(row: RowMapping) -> DueSchedule:
    return DueSchedule(
        view=schedule_view(row),
        last_nominal_at=row["last_nominal_at"],
        run_in_flight=row["newest_run_status"] in ACTIVE_RUN_STATUSES,
        active_runs=row["active_runs"],
    )


def _is_due(record: DueSchedule, now: datetime) -> bool:
    schedule = record.view.schedule
    return (
        schedule.state == ScheduleState.ACTIVE
        and schedule.next_fire_at is not None
        and schedule.next_fire_at <= now
    )


def write_materialization(
    connection: Connection, materialization: Materialization, *, keep_outcome: bool = True
) -> None:
    """Insert an occurrence with its session, messages and run in the caller's transaction.

    The schedule's kept last outcome follows in the same transaction
    (``outcome.refresh``), unless the caller writes it with the schedule's
    own change (``keep_outcome=False``, the scheduler's claim).

    Parents go first (session, its messages, the run, then the occurrence that
    links them): the links' foreign keys are deferred, so the reverse order
    would also commit, but SQLite would then look for the waiting child rows
    on every parent insert, and ``schedule_occurrences.session_id`` has no
    index to find them with: a scan of the whole ledger per materialization.
    """
    if materialization.session is not None:
        connection.execute(_INSERT_SESSION, session_row(materialization.session))
    if materialization.messages:
        connection.execute(_INSERT_MESSAGES, message_rows(materialization.messages))
    if materialization.run is not None:
        connection.execute(_INSERT_RUN, run_row(materialization.run))
    occurrence = materialization.occurrence
    connection.execute(_INSERT_OCCURRENCE, occurrence_row(occurrence))
    if keep_outcome:
        outcome.refresh(connection, occurrence.schedule_id)


def run_row(run: RunRecord) -> dict[str, Any]:
    return {
        "id": run.run_id,
        "tenant_id": run.owner.tenant_id,
        "principal_id": run.owner.principal_id,
        "session_id": run.session_id,
        "status": run.status,
        "priority": run.priority,
        "limits": canonical_json(run.limits),
        "scheduled_for": run.scheduled_for,
        "deadline_at": run.deadline_at,
        "created_at": run.created_at,
        "updated_at": run.updated_at,
        "failure_reason": run.failure_reason,
        "lease_holder": None,  # a queued run has no lease yet
        "lease_expires_at": None,
    }


def occurrence_row(occurrence: OccurrenceRecord) -> dict[str, Any]:
    return {
        "id": occurrence.occurrence_id,
        "schedule_id": occurrence.schedule_id,
        "schedule_revision": occurrence.schedule_revision,
        "nominal_fire_at": occurrence.nominal_fire_at,
        "disposition": occurrence.disposition,
        "session_id": occurrence.session_id,
        "run_id": occurrence.run_id,
        "reason_code": occurrence.reason_code,
        "authority_version": occurrence.authority_version,
        "materialized_at": occurrence.materialized_at,
        "links_erased_at": occurrence.links_erased_at,
        "created_at": occurrence.created_at,
    }


class SqlOccurrenceRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def record(self, materialization: Materialization) -> None:
        with self._engine.begin() as connection:
            write_materialization(connection, materialization)

    def materialize_next(
        self,
        now: datetime,
        plan: Callable[[DueSchedule], OccurrencePlan | None],
        excluding: Collection[UUID] = (),
    ) -> UUID | None:
        """Claim the next schedule ACTIVE and due at ``now``; write what ``plan`` decides.

        The next: the earliest ``next_fire_at``, leaving out ``excluding``
        and any schedule another transaction holds. One transaction: the
        claim, the reads ``plan`` decides on, and every write of its plan
        (none when ``plan`` returns None). Returns the claimed schedule's id,
        or None when no schedule could be claimed.
        """
        with write_transaction(self._engine) as connection:
            due = self.claim_due(connection, now, excluding)
            if due is None:
                return None
            decided = plan(due)
            if decided is not None:
                kept: dict[str, object] = {}
                if decided.materialization is not None:
                    occurrence = decided.materialization.occurrence
                    newest = due.last_nominal_at is None or (
                        occurrence.nominal_fire_at > due.last_nominal_at
                    )
                    write_materialization(
                        connection, decided.materialization, keep_outcome=not newest
                    )
                    if newest:  # the schedule's own update carries it: no statement more
                        kept = outcome.kept_for_newest(occurrence)
                write_locked_change(connection, due.view.schedule, decided.change, also=kept)
        return due.view.schedule.schedule_id

    def materialize_batch(
        self,
        now: datetime,
        plan: Callable[[DueSchedule], OccurrencePlan | None],
        excluding: Collection[UUID],
        limit: int,
    ) -> BatchOutcome:
        """See ``batch_claims.materialize_batch``."""
        from server.storage.sql.batch_claims import materialize_batch

        return materialize_batch(self._engine, now, plan, excluding, limit)

    def claim_due(
        self, connection: Connection, now: datetime, excluding: Collection[UUID] = ()
    ) -> DueSchedule | None:
        """The claim: the next due schedule's row, held by this transaction, with what it needs.

        Runs inside ``write_transaction``. It takes the ACTIVE schedule with
        the earliest ``next_fire_at <= now`` outside ``excluding``, and reads
        what the decision needs: the current revision, the newest ledger
        instant, whether the newest materialized run is still active, and how
        many active runs the owner has.

        On PostgreSQL, in three steps:

        1. Lock the row, ``FOR UPDATE SKIP LOCKED``: rows that other replicas
           hold are passed over, so replicas split the due schedules between
           them instead of queueing for one row (or trying rows one by one and
           finding them taken); a row another replica advanced and committed
           meanwhile is re-checked on its newest version and no longer
           qualifies.
        2. Take the owner's admission lock (``advisory_locks``), so two
           replicas materializing two schedules of one principal count its
           active runs one after the other.
        3. Read, in a statement of its own: PostgreSQL reads a statement's
           subqueries as of the statement's start, so folded into step 1 they
           could miss an occurrence or a run that another replica committed
           while step 1 waited.

        On SQLite one statement claims and reads: ``write_transaction`` began
        with ``BEGIN IMMEDIATE``, so it reads the latest commit and nothing
        changes before this transaction ends.
        """
        parameters: dict[str, object] = {"now": now}
        if excluding:
            parameters["excluding"] = list(excluding)
        if connection.dialect.name == "sqlite":
            claim_and_read = _CLAIMS_AND_READS[bool(excluding)]
            row = connection.execute(claim_and_read, parameters).mappings().first()
        else:
            row = _lock_then_read(connection, _CLAIMS[bool(excluding)], parameters)
        if row is None:
            return None
        return due_schedule(row)

    def settle_then_apply(
        self,
        owner: Owner | None,
        schedule_id: UUID,
        now: datetime,
        settle: Callable[[DueSchedule], OccurrencePlan],
        decide: Callable[[DueSchedule], ScheduleChange | None],
    ) -> ScheduleView | None:
        """Decide the due instant, if any, then apply ``decide``'s change: one transaction.

        The named schedule's row is held first, as the worker's claim holds
        it (``FOR UPDATE``, waiting for a worker that holds it; SQLite's
        write lock), so no worker decides it meanwhile. When it is ACTIVE
        and ``next_fire_at <= now``, ``settle`` plans that instant (the
        worker's own decision) and its rows are written; then ``decide`` sees
        the schedule as it stands after that and its change is written. None
        when the schedule does not exist (or is not ``owner``'s); else the
        schedule as committed.
        """
        parameters = {"schedule_id": schedule_id}
        with write_transaction(self._engine) as connection:
            if connection.dialect.name != "sqlite":
                locked = connection.execute(_LOCK_ONE, parameters).mappings().first()
                if locked is None:
                    return None
                hold(connection, admission_of(Owner(locked["tenant_id"], locked["principal_id"])))
            current = self._read_one(connection, owner, schedule_id)
            if current is None:
                return None
            if _is_due(current, now):
                settled = settle(current)
                if settled.materialization is not None:
                    write_materialization(connection, settled.materialization)
                write_locked_change(connection, current.view.schedule, settled.change)
                current = self._read_one(connection, owner, schedule_id)
                if current is None:
                    raise LookupError("a schedule held by this transaction disappeared")
            change = decide(current)
            if change is not None:
                write_locked_change(connection, current.view.schedule, change)
            # As the point read shows it, last outcome included.
            after = connection.execute(_SHOWN, parameters).mappings().first()
            if after is None:
                raise LookupError("a schedule held by this transaction disappeared")
            return schedule_view(after)

    @staticmethod
    def _read_one(
        connection: Connection, owner: Owner | None, schedule_id: UUID
    ) -> DueSchedule | None:
        row = connection.execute(_READ_CLAIMED, {"schedule_id": schedule_id}).mappings().first()
        if row is None:
            return None
        due = due_schedule(row)
        if owner is not None and due.view.schedule.owner != owner:
            return None
        return due

    def page(
        self,
        owner: Owner,
        schedule_id: UUID,
        after: tuple[datetime, UUID] | None,
        limit: int,
    ) -> list[OccurrenceRecord]:
        occ = schedule_occurrences.c
        query = keyset_page(
            select(schedule_occurrences)
            .join(schedules, schedules.c.id == occ.schedule_id)
            .where(occ.schedule_id == schedule_id, owned_by(schedules, owner)),
            occ.nominal_fire_at,
            occ.id,
            after,
            limit,
            newest_first=True,
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [_occurrence(row) for row in rows]
