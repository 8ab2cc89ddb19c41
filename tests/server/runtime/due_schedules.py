"""Schedules already due in a server's database, written straight through the store.

A real ``schedule-server`` fires them at its first scan, so a test decides what
is due without waiting for a cadence: each is DAILY in UTC at the minute two
minutes before ``now``, with an hour's grace, and its ``next_fire_at`` is that
instant, so its first firing is MATERIALIZED. The revisions pin no authority
version (as imported ones do); the principals must be in the server's file.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from server.definitions.checks import parse_definition
from server.domain.recurrence import latest_at_or_before
from server.storage.engine import open_engine
from server.storage.records import Owner, RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import definition

TENANT = "acme"


def import_due(database_url: str, principal_ids: Sequence[str]) -> tuple[datetime, list[UUID]]:
    """One due schedule per entry of ``principal_ids``; the instant they are due and their ids."""
    now = datetime.now(UTC)
    local = (now - timedelta(minutes=2)).strftime("%H:%M")
    checked = parse_definition(
        definition(
            cadence={"kind": "DAILY", "local_time": local, "timezone": "UTC"},
            misfire_grace_seconds=3600,
        )
    )
    due_at = latest_at_or_before(checked.cadence, now)
    assert due_at is not None
    created = now - timedelta(days=1)
    views = []
    for principal_id in principal_ids:
        schedule_id = uuid4()
        owner = Owner(TENANT, principal_id)
        record = ScheduleRecord(schedule_id, owner, "ACTIVE", None, 1, due_at, 0, created, created)
        revision = RevisionRecord(schedule_id, 1, checked.text, principal_id, created)
        views.append(ScheduleView(record, revision))
    store = SqlStore(open_engine(database_url))
    try:
        store.schedules.import_many(views)
    finally:
        store.close()
    return due_at, [view.schedule.schedule_id for view in views]
