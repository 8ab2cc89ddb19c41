"""How an occurrence and what a firing creates map to rows, and their one write.

``occurrence_row`` and ``run_row`` turn records into column values,
``occurrence_record`` reads a ledger row back (``past_occurrence`` with its
run's status), and ``write_materialization`` inserts an occurrence with its
session, messages and run in the caller's transaction (the worker's batch
writes its plans' rows in bulk instead, and falls back to this for one plan
at a time).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, RowMapping, insert

from server.domain.states import Disposition, RunStatus
from server.storage.jsontext import canonical_json
from server.storage.records import Materialization, OccurrenceRecord, PastOccurrence, RunRecord
from server.storage.sql import outcome
from server.storage.sql.sessions import message_rows, session_row
from server.storage.tables import runs, schedule_occurrences, session_messages, sessions

__all__ = [
    "occurrence_record",
    "occurrence_row",
    "past_occurrence",
    "run_row",
    "write_materialization",
]

# Built once: building a statement costs several times what executing a cached one does.
_INSERT_OCCURRENCE = insert(schedule_occurrences)
_INSERT_SESSION = insert(sessions)
_INSERT_MESSAGES = insert(session_messages)
_INSERT_RUN = insert(runs)


def occurrence_record(row: RowMapping) -> OccurrenceRecord:
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


def past_occurrence(row: RowMapping) -> PastOccurrence:
    """A ledger row read with its run's ``run_status`` and ``run_failure_reason`` (outer join)."""
    status = row["run_status"]
    return PastOccurrence(
        occurrence_record(row),
        None if status is None else RunStatus(status),
        row["run_failure_reason"],
    )


def write_materialization(connection: Connection, materialization: Materialization) -> None:
    """Insert an occurrence with its session, messages and run in the caller's transaction.

    The schedule's kept last outcome follows in the same transaction
    (``outcome.refresh``).

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
