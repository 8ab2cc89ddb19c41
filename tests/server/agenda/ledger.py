"""Missed firings written straight to the ledger, for the agenda's tests."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from uuid import UUID

from server.domain.states import Disposition
from server.storage.records import OccurrenceRecord
from server.storage.sql.occurrence_rows import occurrence_row
from server.storage.sql.store import SqlStore
from server.storage.tables import schedule_occurrences


def record_missed(store: SqlStore, missed: Iterable[tuple[UUID, UUID, datetime]]) -> None:
    """Each (occurrence, schedule, nominal instant) recorded MISSED past its grace."""
    rows = [
        occurrence_row(
            OccurrenceRecord(
                occurrence_id=occurrence_id,
                schedule_id=schedule_id,
                schedule_revision=1,
                nominal_fire_at=at,
                disposition=Disposition.MISSED,
                session_id=None,
                run_id=None,
                reason_code="MISFIRE_GRACE_EXCEEDED",
                authority_version=None,
                materialized_at=None,
                links_erased_at=None,
                created_at=at,
            )
        )
        for occurrence_id, schedule_id, at in missed
    ]
    with store.engine.begin() as connection:
        connection.execute(schedule_occurrences.insert(), rows)
