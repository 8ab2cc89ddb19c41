"""Queued runs over SQL: taken for execution once, finished once, with their accounting.

A run moves QUEUED -> RUNNING (``start``) and then to a terminal status
(``finish``), each a compare-and-set on its status, so two executors never
take one run and a run is never finished twice. ``finish`` writes the
answer, the session's new activity time, the schedule's post-run accounting
and its last outcome in one transaction: the accounting happens exactly when the run's
occurrence reaches its outcome, once per occurrence.

A RUNNING run carries a lease (holder, expiry) that its dispatcher renews;
``take_over`` moves a run whose lease lapsed to a new holder, a
compare-and-set on the lapse, so of two dispatchers one takes it over.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from uuid import UUID

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    RowMapping,
    and_,
    insert,
    or_,
    select,
    update,
)

from server.domain.states import RunStatus
from server.storage.jsontext import load_object
from server.storage.records import (
    ClaimedRun,
    MessageRecord,
    Owner,
    RunLease,
    RunRecord,
    ScheduleChange,
    ScheduleView,
)
from server.storage.sql import outcome
from server.storage.sql.due_claims import ACTIVE_RUN_STATUSES
from server.storage.sql.schedule_rows import schedule_view, schedule_views, write_locked_change
from server.storage.sql.sessions import message_rows
from server.storage.sql.write_lock import write_transaction
from server.storage.tables import (
    runs,
    schedule_occurrences,
    schedule_revisions,
    schedules,
    session_messages,
    sessions,
)

Accounting = Callable[[ScheduleView, UUID], ScheduleChange]
"""Decides a schedule's change from its current view and the finished run's occurrence id."""


def _run(row: RowMapping) -> RunRecord:
    return RunRecord(
        run_id=row["id"],
        owner=Owner(row["tenant_id"], row["principal_id"]),
        session_id=row["session_id"],
        status=RunStatus(row["status"]),
        priority=row["priority"],
        limits=load_object(row["limits"]),
        scheduled_for=row["scheduled_for"],
        deadline_at=row["deadline_at"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        failure_reason=row["failure_reason"],
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _lapsed(now: datetime) -> ColumnElement[bool]:
    """A RUNNING run whose holder let its lease lapse before ``now``, or that never had one."""
    return and_(
        runs.c.status == RunStatus.RUNNING,
        or_(runs.c.lease_expires_at.is_(None), runs.c.lease_expires_at < now),
    )


def _claimed(connection: Connection, run_id: UUID) -> ClaimedRun:
    """The taken run with its opening instruction and the revision that fired it."""
    occ = schedule_occurrences.c
    opening = (
        select(session_messages.c.text)
        .where(
            session_messages.c.session_id == runs.c.session_id,
            session_messages.c.scheduler_seed.is_(True),
        )
        .order_by(session_messages.c.created_at, session_messages.c.id)
        .limit(1)
        .scalar_subquery()
    )
    rev = schedule_revisions.c
    fired = and_(rev.schedule_id == occ.schedule_id, rev.revision == occ.schedule_revision)
    query = (
        select(
            runs,
            occ.id.label("occurrence_id"),
            occ.schedule_id,
            occ.nominal_fire_at,
            opening.label("instruction"),
            rev.definition,
        )
        .select_from(
            runs.outerjoin(schedule_occurrences, occ.run_id == runs.c.id).outerjoin(
                schedule_revisions, fired
            )
        )
        .where(runs.c.id == run_id)
    )
    row = connection.execute(query).mappings().one()
    definition = {} if row["definition"] is None else load_object(row["definition"])
    return ClaimedRun(
        run_id=row["id"],
        owner=Owner(row["tenant_id"], row["principal_id"]),
        session_id=row["session_id"],
        schedule_id=row["schedule_id"],
        occurrence_id=row["occurrence_id"],
        nominal_fire_at=row["nominal_fire_at"],
        instruction=row["instruction"] or "",
        limits=load_object(row["limits"]),
        delivered_at=row["scheduled_for"],
        deadline_at=row["deadline_at"],
        requested_scopes=tuple(definition.get("requested_scopes", ())),
        agent_id=_text(definition.get("agent_id")),
        agent_version=_text(definition.get("agent_version")),
        policy_profile=_text(definition.get("policy_profile")),
        browser_profile_id=_text(definition.get("browser_profile_id")),
    )


class SqlRunRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def get(self, run_id: UUID) -> RunRecord | None:
        with self._engine.connect() as connection:
            row = connection.execute(select(runs).where(runs.c.id == run_id)).mappings().first()
        return None if row is None else _run(row)

    def queued(self, now: datetime, limit: int) -> list[UUID]:
        """QUEUED runs eligible at ``now``: highest priority (lowest number) first, then oldest."""
        query = (
            select(runs.c.id)
            .where(runs.c.status == RunStatus.QUEUED, runs.c.scheduled_for <= now)
            .order_by(runs.c.priority, runs.c.scheduled_for, runs.c.id)
            .limit(limit)
        )
        with self._engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def overdue(self, now: datetime, limit: int) -> list[UUID]:
        """RUNNING runs whose deadline has passed (a QUEUED run's time limit has not begun)."""
        query = (
            select(runs.c.id)
            .where(runs.c.status == RunStatus.RUNNING, runs.c.deadline_at < now)
            .order_by(runs.c.deadline_at, runs.c.id)
            .limit(limit)
        )
        with self._engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def stranded(self, now: datetime, limit: int) -> list[UUID]:
        """RUNNING runs within their deadline whose lease lapsed (or that have none)."""
        query = (
            select(runs.c.id)
            .where(_lapsed(now), runs.c.deadline_at >= now)
            .order_by(runs.c.lease_expires_at, runs.c.id)
            .limit(limit)
        )
        with self._engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def start(self, run_id: UUID, now: datetime, lease: RunLease) -> ClaimedRun | None:
        """Move a QUEUED run to RUNNING under ``lease``; None when someone else took it.

        Its deadline becomes ``now`` plus the span it was queued with: the time
        limit counts from the start, so waiting in the queue never uses it up.
        """
        with write_transaction(self._engine) as connection:
            queued = connection.execute(
                select(runs.c.created_at, runs.c.deadline_at).where(
                    runs.c.id == run_id, runs.c.status == RunStatus.QUEUED
                )
            ).first()
            if queued is None:
                return None
            moved = connection.execute(
                update(runs)
                .where(runs.c.id == run_id, runs.c.status == RunStatus.QUEUED)
                .values(
                    status=RunStatus.RUNNING,
                    updated_at=now,
                    deadline_at=now + (queued.deadline_at - queued.created_at),
                    lease_holder=lease.holder,
                    lease_expires_at=lease.expires_at,
                )
            )
            if moved.rowcount != 1:
                return None
            return _claimed(connection, run_id)

    def take_over(self, run_id: UUID, now: datetime, lease: RunLease) -> ClaimedRun | None:
        """Lease a RUNNING run whose lease lapsed before ``now`` to a new holder; else None."""
        with write_transaction(self._engine) as connection:
            moved = connection.execute(
                update(runs)
                .where(runs.c.id == run_id, _lapsed(now))
                .values(
                    updated_at=now, lease_holder=lease.holder, lease_expires_at=lease.expires_at
                )
            )
            if moved.rowcount != 1:
                return None
            return _claimed(connection, run_id)

    def renew(self, run_ids: Collection[UUID], lease: RunLease) -> int:
        """Extend the lease of each of ``run_ids`` still RUNNING under ``lease.holder``."""
        if not run_ids:
            return 0
        with self._engine.begin() as connection:
            renewed = connection.execute(
                update(runs)
                .where(
                    runs.c.id.in_(list(run_ids)),
                    runs.c.status == RunStatus.RUNNING,
                    runs.c.lease_holder == lease.holder,
                )
                .values(lease_expires_at=lease.expires_at)
            )
        return int(renewed.rowcount)

    def finish(
        self,
        run_id: UUID,
        status: str,
        messages: Sequence[MessageRecord],
        now: datetime,
        account: Accounting,
        *,
        failure_reason: str | None = None,
    ) -> bool:
        """End an active run with ``status``, append ``messages``, and account for its schedule.

        ``failure_reason`` is kept on the run; the schedule's last outcome is
        brought up to date in the same transaction. Returns False, writing
        nothing, when the run had already ended.
        """
        with write_transaction(self._engine) as connection:
            moved = connection.execute(
                update(runs)
                .where(runs.c.id == run_id, runs.c.status.in_(ACTIVE_RUN_STATUSES))
                .values(
                    status=status,
                    updated_at=now,
                    failure_reason=failure_reason,
                    lease_holder=None,
                    lease_expires_at=None,
                )
            )
            if moved.rowcount != 1:
                return False
            if messages:
                connection.execute(insert(session_messages), message_rows(messages))
                session_id = select(runs.c.session_id).where(runs.c.id == run_id).scalar_subquery()
                connection.execute(
                    update(sessions)
                    .where(sessions.c.id == session_id)
                    .values(last_activity_at=max(m.created_at for m in messages))
                )
            occ = schedule_occurrences.c
            linked = connection.execute(
                select(occ.id, occ.schedule_id).where(occ.run_id == run_id)
            ).first()
            if linked is None:
                return True
            row = (
                connection.execute(
                    schedule_views()
                    .where(schedules.c.id == linked.schedule_id)
                    .with_for_update(of=schedules)
                )
                .mappings()
                .first()
            )
            if row is not None:  # purged meanwhile: nothing left to account
                view = schedule_view(row)
                write_locked_change(connection, view.schedule, account(view, linked.id))
                outcome.refresh(connection, linked.schedule_id)
        return True
