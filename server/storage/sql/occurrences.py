"""The occurrence ledger over SQL: recorded firings, the worker's batch, a request's hold.

``materialize_batch`` is the worker's transaction (``batch_claims``).
``settle_then_apply`` is the transaction for one named schedule, taken by a
request (update, pause, cancel) or the worker's own repairs: it holds the row
(waiting for a worker that holds it, where a claim skips), decides the due
instant if there is one with the firing rules' plan, then writes the
request's change on the schedule as it then stands. ``page`` reads the
ledger, newest first; ``window`` reads a window of it with each entry's run.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from uuid import UUID

from sqlalchemy import Connection, Engine, bindparam, select

from server.domain.states import ScheduleState
from server.storage.records import (
    BatchOutcome,
    DueSchedule,
    Heartbeat,
    Materialization,
    OccurrencePlan,
    OccurrenceRecord,
    Owner,
    PastOccurrence,
    ScheduleChange,
    ScheduleView,
)
from server.storage.sql import outcome
from server.storage.sql.advisory_locks import admission_of, hold
from server.storage.sql.batch_claims import materialize_batch
from server.storage.sql.due_claims import DECISION_READS, due_schedule
from server.storage.sql.keyset import keyset_page, owned_by
from server.storage.sql.occurrence_rows import (
    occurrence_record,
    past_occurrence,
    write_materialization,
)
from server.storage.sql.schedule_rows import schedule_view, schedule_views, write_locked_change
from server.storage.sql.write_lock import write_transaction
from server.storage.tables import runs, schedule_occurrences, schedules

_READ_ONE = DECISION_READS.where(schedules.c.id == bindparam("schedule_id"))
_SHOWN = outcome.with_outcome(schedule_views()).where(schedules.c.id == bindparam("schedule_id"))
# One named schedule's row lock (``settle_then_apply``): waits for a worker
# that holds it rather than skipping it, so the request decides on its commit.
_LOCK_ONE = (
    select(schedules.c.id, schedules.c.tenant_id, schedules.c.principal_id)
    .where(schedules.c.id == bindparam("schedule_id"))
    .with_for_update()
)


def _is_due(record: DueSchedule, now: datetime) -> bool:
    schedule = record.view.schedule
    return (
        schedule.state == ScheduleState.ACTIVE
        and schedule.next_fire_at is not None
        and schedule.next_fire_at <= now
    )


class SqlOccurrenceRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def record(self, materialization: Materialization) -> None:
        with self._engine.begin() as connection:
            write_materialization(connection, materialization)

    def materialize_batch(
        self,
        now: datetime,
        plan: Callable[[DueSchedule], OccurrencePlan | None],
        excluding: Collection[UUID],
        limit: int,
        heartbeat: Heartbeat | None = None,
    ) -> BatchOutcome:
        """See ``batch_claims.materialize_batch``."""
        return materialize_batch(self._engine, now, plan, excluding, limit, heartbeat)

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
        row = connection.execute(_READ_ONE, {"schedule_id": schedule_id}).mappings().first()
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
        return [occurrence_record(row) for row in rows]

    def window(
        self, owner: Owner, schedule_id: UUID, start: datetime, end: datetime
    ) -> list[PastOccurrence]:
        occ = schedule_occurrences.c
        query = (
            select(
                schedule_occurrences,
                runs.c.status.label("run_status"),
                runs.c.failure_reason.label("run_failure_reason"),
            )
            .join(schedules, schedules.c.id == occ.schedule_id)
            .outerjoin(runs, runs.c.id == occ.run_id)
            .where(
                occ.schedule_id == schedule_id,
                owned_by(schedules, owner),
                occ.nominal_fire_at >= start,
                occ.nominal_fire_at < end,
            )
            .order_by(occ.nominal_fire_at, occ.id)
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [past_occurrence(row) for row in rows]
