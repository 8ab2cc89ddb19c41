"""The worker's batch: claim up to k due schedules, decide each, write all, commit once.

1. **Claim** in ``DUE_ORDER`` (``due_claims``). SQLite: one statement claims
   and reads (``BEGIN IMMEDIATE`` serialized the transaction). PostgreSQL: the
   rows ``FOR UPDATE SKIP LOCKED``, the owners' admission locks tried, never
   waited for (``try_hold_each``; a schedule whose owner's turn another replica
   holds is *passed over*, left due), then the decision reads after the locks.
2. **Decide** each in claim order (``plan``); one that raises fails alone.
3. **Write** every plan's rows, a statement per table (``bulk_rows``), in a
   savepoint; a row the database refuses sends each plan to a savepoint of its
   own, so the refused schedule fails alone.
4. **Commit** once. Any other error after the claim rolls the batch back and
   raises ``BatchFailed`` naming every claimed schedule, all still due.

A heartbeat handed in (``heartbeats``) is written in the same transaction,
among the batch's writes, so it costs PostgreSQL no round trip of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import Connection, Engine, Integer, RowMapping, bindparam, select
from sqlalchemy.exc import DataError, IntegrityError

from server.storage.ports import BatchFailed
from server.storage.records import BatchOutcome, DueSchedule, Heartbeat, OccurrencePlan, Owner
from server.storage.sql import outcome
from server.storage.sql.advisory_locks import admission_of, try_hold_each
from server.storage.sql.audit import event_rows
from server.storage.sql.bulk_rows import BulkInsert, BulkUpdate, sent_together
from server.storage.sql.due_claims import (
    DECISION_READS,
    DUE_FIRST,
    DUE_ORDER,
    LEAVING_OUT,
    due_schedule,
)
from server.storage.sql.heartbeats import write_tick
from server.storage.sql.occurrence_rows import occurrence_row, run_row, write_materialization
from server.storage.sql.schedule_rows import change_values, revision_row, write_locked_change
from server.storage.sql.sessions import message_rows, session_row
from server.storage.sql.write_lock import write_transaction
from server.storage.tables import (
    audit_events,
    runs,
    schedule_occurrences,
    schedule_revisions,
    schedules,
    session_messages,
    sessions,
)

__all__ = ["BatchFailed", "materialize_batch"]

_ROW_REFUSED = (IntegrityError, DataError)
_LIMIT = bindparam("limit", type_=Integer)
_CLAIM = (
    select(schedules.c.id, schedules.c.tenant_id, schedules.c.principal_id)
    .where(*DUE_FIRST)
    .order_by(*DUE_ORDER)
    .limit(_LIMIT)
    .with_for_update(skip_locked=True)
)
_CLAIMS = {False: _CLAIM, True: _CLAIM.where(LEAVING_OUT)}
_CLAIM_AND_READ = DECISION_READS.where(*DUE_FIRST).order_by(*DUE_ORDER).limit(_LIMIT)
_CLAIMS_AND_READS = {False: _CLAIM_AND_READ, True: _CLAIM_AND_READ.where(LEAVING_OUT)}
_READ_CLAIMED = DECISION_READS.where(schedules.c.id.in_(bindparam("ids", expanding=True)))
_INSERTS = {
    "sessions": BulkInsert(sessions),
    "messages": BulkInsert(session_messages),
    "runs": BulkInsert(runs),
    "occurrences": BulkInsert(schedule_occurrences),
    "revisions": BulkInsert(schedule_revisions),
    "events": BulkInsert(audit_events, leave_out=("id",)),
}
_CHANGED = (
    "state",
    "pause_reason",
    "next_fire_at",
    "consecutive_failures",
    "updated_at",
    "active_until",
)
_KEPT = ("last_fired_at", "outcome_attention")
# The kept last outcome (``outcome``) is set by the same statement when the batch
# wrote the schedule's newest firing, and left as it is otherwise.
_ADVANCE = BulkUpdate(schedules, "id", (*_CHANGED, "current_revision"), _KEPT)


@dataclass(frozen=True, slots=True)
class _Decided:
    due: DueSchedule
    plan: OccurrencePlan


def materialize_batch(
    engine: Engine,
    now: datetime,
    plan: Callable[[DueSchedule], OccurrencePlan | None],
    excluding: Collection[UUID],
    limit: int,
    heartbeat: Heartbeat | None = None,
) -> BatchOutcome:
    """Claim up to ``limit`` due schedules outside ``excluding``, decide and write them: one commit.

    Raises what the claim raises when nothing was claimed yet (the database
    away), and ``BatchFailed`` (the cause chained) once something was.
    """
    claimed: list[UUID] = []
    try:
        with write_transaction(engine) as connection:
            due, passed_over = _claim(connection, now, excluding, limit, claimed)
            decided: list[_Decided] = []
            held: list[UUID] = []
            failed: list[tuple[UUID, BaseException]] = []
            for schedule in due:
                schedule_id = schedule.view.schedule.schedule_id
                try:
                    made = plan(schedule)
                except Exception as err:  # this schedule's own failure; siblings go on
                    failed.append((schedule_id, err))
                    continue
                if made is None:
                    held.append(schedule_id)
                else:
                    decided.append(_Decided(schedule, made))
            refused = _write(connection, decided, heartbeat)
    except Exception as err:
        if not claimed:
            raise
        raise BatchFailed(claimed) from err
    failed.extend(refused)
    refused_ids = {schedule_id for schedule_id, _ in refused}
    kept = [d for d in decided if d.due.view.schedule.schedule_id not in refused_ids]
    written = [d.due.view.schedule.schedule_id for d in kept]
    occurrences = [
        d.plan.materialization.occurrence for d in kept if d.plan.materialization is not None
    ]
    return BatchOutcome(
        claimed=tuple(claimed),
        written=tuple(written),
        held=tuple(held),
        passed_over=tuple(passed_over),
        failed=tuple(failed),
        occurrences=tuple(occurrences),
    )


def _claim(
    connection: Connection,
    now: datetime,
    excluding: Collection[UUID],
    limit: int,
    claimed: list[UUID],
) -> tuple[list[DueSchedule], list[UUID]]:
    """The claimed schedules to decide, in claim order, and those passed over."""
    parameters: dict[str, object] = {"now": now, "limit": limit}
    if excluding:
        parameters["excluding"] = list(excluding)
    if connection.dialect.name == "sqlite":
        rows = connection.execute(_CLAIMS_AND_READS[bool(excluding)], parameters).mappings().all()
        claimed.extend(row["id"] for row in rows)
        return [due_schedule(row) for row in rows], []
    locked = connection.execute(_CLAIMS[bool(excluding)], parameters).mappings().all()
    claimed.extend(row["id"] for row in locked)
    if not locked:
        return [], []
    owners = {row["id"]: Owner(row["tenant_id"], row["principal_id"]) for row in locked}
    turns = try_hold_each(connection, {admission_of(owner) for owner in owners.values()})
    mine = [i for i in claimed if admission_of(owners[i]) in turns]
    passed_over = [i for i in claimed if admission_of(owners[i]) not in turns]
    if not mine:
        return [], passed_over
    read: dict[UUID, RowMapping] = {
        row["id"]: row for row in connection.execute(_READ_CLAIMED, {"ids": mine}).mappings()
    }
    return [due_schedule(read[i]) for i in mine], passed_over


def _write(
    connection: Connection, decided: Sequence[_Decided], heartbeat: Heartbeat | None
) -> list[tuple[UUID, BaseException]]:
    """Write every plan at once, or each on its own when a row is refused; the refused ones.

    The heartbeat goes with the plans' rows, or on its own when they are refused or none.
    """
    if decided:
        try:
            with connection.begin_nested():
                _write_all(connection, decided, heartbeat)
            return []
        except _ROW_REFUSED:
            pass
    if heartbeat is not None:
        write_tick(connection, heartbeat)
    if not decided:
        return []
    refused: list[tuple[UUID, BaseException]] = []
    for one in decided:
        try:
            with connection.begin_nested():
                if one.plan.materialization is not None:
                    write_materialization(connection, one.plan.materialization)
                write_locked_change(connection, one.due.view.schedule, one.plan.change)
        except _ROW_REFUSED as err:
            refused.append((one.due.view.schedule.schedule_id, err))
    return refused


def _write_all(
    connection: Connection, decided: Sequence[_Decided], heartbeat: Heartbeat | None
) -> None:
    """Each table's rows of every plan in one statement, parents before children."""
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in _INSERTS}
    updates: list[dict[str, Any]] = []
    older: list[UUID] = []
    for one in decided:
        update_row: dict[str, Any] = {"keep": False, **dict.fromkeys(_KEPT)}
        written = one.plan.materialization
        if written is not None:
            if written.session is not None:
                rows["sessions"].append(session_row(written.session))
            rows["messages"].extend(message_rows(written.messages))
            if written.run is not None:
                rows["runs"].append(run_row(written.run))
            occurrence = written.occurrence
            rows["occurrences"].append(occurrence_row(occurrence))
            last = one.due.last_nominal_at
            if last is None or occurrence.nominal_fire_at > last:
                update_row = {"keep": True, **outcome.kept_for_newest(occurrence)}
            else:  # an older instant decided late: the ledger says what is newest
                older.append(occurrence.schedule_id)
        seen, change = one.due.view.schedule, one.plan.change
        update_row.update(change_values(seen, change), id=seen.schedule_id)
        updates.append(update_row)
        if change.new_revision is not None:
            rows["revisions"].append(revision_row(change.new_revision))
        rows["events"].extend(event_rows(change.events))
    with sent_together(connection):
        for name in ("sessions", "messages", "runs", "occurrences", "revisions"):
            _INSERTS[name].execute(connection, rows[name])
        _ADVANCE.execute(connection, updates)
        for schedule_id in older:
            outcome.refresh(connection, schedule_id)
        _INSERTS["events"].execute(connection, rows["events"])
        if heartbeat is not None:
            write_tick(connection, heartbeat)
