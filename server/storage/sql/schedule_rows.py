"""How a schedule and its current revision map to rows, and the scheduler's locked write.

``schedule_views()`` selects a schedule joined with its current revision (every
read needs both); ``schedule_view`` turns such a row into a ``ScheduleView``.
``change_values`` is the one place a ``ScheduleChange`` becomes column values
(with a new revision's folded search text and cadence columns, and the last
ACTIVE span: begun by a resume or an edit, ended by leaving ACTIVE),
and it always moves ``updated_at`` forward: every compare-and-set decided on
an older row then fails and re-reads, even when two writes land on one clock
instant. ``write_locked_change`` is how the scheduler's own transactions,
which hold the row, write a change with its events.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, RowMapping, Select, and_, bindparam, insert, select, update

from server.domain.states import PauseReason, ScheduleState
from server.storage.cadence_columns import cadence_values
from server.storage.records import (
    Owner,
    RevisionRecord,
    ScheduleChange,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.search_text import searchable_text
from server.storage.sql.audit import append_events
from server.storage.sql.outcome import last_outcome
from server.storage.tables import schedule_revisions, schedules

_TICK = timedelta(microseconds=1)
# Built once (the scheduler writes through it per materialization); the SET
# clause comes from the parameters given.
_UPDATE_LOCKED = update(schedules).where(schedules.c.id == bindparam("target"))

_UNVIEWED = frozenset({"search_text", "cadence_zone", "cadence_wall_time", "cadence_key"})
_VIEW_COLUMNS = (
    # Not the folded search copy nor the cadence's agenda columns: only WHEREs read them.
    *(column for column in schedules.c if column.name not in _UNVIEWED),
    schedule_revisions.c.revision,
    schedule_revisions.c.definition,
    schedule_revisions.c.created_by_principal_id,
    schedule_revisions.c.created_at.label("revision_created_at"),
    schedule_revisions.c.authority_version,
)
_JOIN = schedules.join(
    schedule_revisions,
    and_(
        schedule_revisions.c.schedule_id == schedules.c.id,
        schedule_revisions.c.revision == schedules.c.current_revision,
    ),
)


def schedule_row(record: ScheduleRecord, revision: RevisionRecord) -> dict[str, Any]:
    """The row of a new schedule whose current revision is ``revision``."""
    return {
        "id": record.schedule_id,
        "tenant_id": record.owner.tenant_id,
        "principal_id": record.owner.principal_id,
        "state": record.state,
        "pause_reason": record.pause_reason,
        "current_revision": record.current_revision,
        "next_fire_at": record.next_fire_at,
        "consecutive_failures": record.consecutive_failures,
        "created_at": record.created_at,
        "updated_at": record.updated_at,
        "active_since": record.active_since or max(record.created_at, revision.created_at),
        "active_until": record.active_until,
        "search_text": searchable_text(revision.definition),
        **cadence_values(revision.definition),
    }


def revision_row(record: RevisionRecord) -> dict[str, Any]:
    return {
        "schedule_id": record.schedule_id,
        "revision": record.revision,
        "definition": record.definition,
        "created_by_principal_id": record.created_by_principal_id,
        "created_at": record.created_at,
        "authority_version": record.authority_version,
    }


def schedule_views() -> Select[Any]:
    """Schedules joined with their current revision, for any query that reads views."""
    return select(*_VIEW_COLUMNS).select_from(_JOIN)


def change_values(seen: ScheduleRecord, change: ScheduleChange) -> dict[str, Any]:
    """The columns ``change`` writes over ``seen``; ``updated_at`` always moves forward.

    A new revision brings its folded search text and its cadence's wall-clock
    columns (``cadence_columns``), written with the revision in one transaction.
    A resume or a new revision begins the ACTIVE span anew (``active_since``);
    leaving ACTIVE ends it (``active_until``), which stays NULL while ACTIVE.
    """
    values: dict[str, Any] = {
        "state": change.state,
        "pause_reason": change.pause_reason,
        "next_fire_at": change.next_fire_at,
        "consecutive_failures": change.consecutive_failures,
        "updated_at": max(change.updated_at, seen.updated_at + _TICK),
        "current_revision": (
            change.new_revision.revision
            if change.new_revision is not None
            else seen.current_revision
        ),
    }
    if change.new_revision is not None:
        values["search_text"] = searchable_text(change.new_revision.definition)
        values.update(cadence_values(change.new_revision.definition))
    return values | _span_values(seen, change)


def _span_values(seen: ScheduleRecord, change: ScheduleChange) -> dict[str, Any]:
    """``active_until`` always (the batch writes it for every row), ``active_since`` on a start."""
    active = ScheduleState.ACTIVE
    if change.state == active:
        until = None
    elif seen.state == active:
        until = change.updated_at
    else:
        until = seen.active_until
    if change.new_revision is not None or (change.state == active and seen.state != active):
        return {"active_since": change.updated_at, "active_until": until}
    return {"active_until": until}


def write_locked_change(
    connection: Connection,
    seen: ScheduleRecord,
    change: ScheduleChange,
    *,
    also: Mapping[str, object] | None = None,
) -> None:
    """Write ``change`` to a row the caller's transaction holds locked, with its events.

    Only the scheduler's own transactions call this (they hold the row);
    every other writer goes through ``apply``'s compare-and-set, which then
    sees a newer ``updated_at`` and re-reads. ``also`` are further columns
    of the same row written by the same statement (the kept last outcome).
    """
    if _moves(seen, change) or also:
        values = {**change_values(seen, change), **(also or {})}
        connection.execute(_UPDATE_LOCKED, {"target": seen.schedule_id, **values})
    if change.new_revision is not None:
        connection.execute(insert(schedule_revisions), revision_row(change.new_revision))
    append_events(connection, change.events)


def _moves(seen: ScheduleRecord, change: ScheduleChange) -> bool:
    return change.new_revision is not None or (
        seen.state,
        seen.pause_reason,
        seen.next_fire_at,
        seen.consecutive_failures,
    ) != (change.state, change.pause_reason, change.next_fire_at, change.consecutive_failures)


def schedule_view(row: RowMapping) -> ScheduleView:
    """A view from a row of ``schedule_views()``, with its last outcome when the row has it."""
    return ScheduleView(
        schedule=ScheduleRecord(
            schedule_id=row["id"],
            owner=Owner(row["tenant_id"], row["principal_id"]),
            state=ScheduleState(row["state"]),
            pause_reason=_pause_reason(row["pause_reason"]),
            current_revision=row["current_revision"],
            next_fire_at=row["next_fire_at"],
            consecutive_failures=row["consecutive_failures"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            active_since=row["active_since"],
            active_until=row["active_until"],
        ),
        revision=RevisionRecord(
            schedule_id=row["id"],
            revision=row["revision"],
            definition=row["definition"],
            created_by_principal_id=row["created_by_principal_id"],
            created_at=row["revision_created_at"],
            authority_version=row["authority_version"],
        ),
        last_outcome=last_outcome(row) if "outcome_disposition" in row else None,
    )


def _pause_reason(value: str | None) -> PauseReason | None:
    return None if value is None else PauseReason(value)
