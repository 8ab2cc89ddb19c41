"""Migration 0008_agenda_index backfills each schedule's cadence columns, on SQLite and PostgreSQL.

A database at 0007 gets schedules written as older servers wrote them (one
with an earlier revision of another cadence, one without a cadence); after
the upgrade each row carries its current cadence's zone, wall time and key.
"""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID, uuid4

from sqlalchemy import Connection, insert, select

from server.storage.engine import open_engine
from server.storage.jsontext import canonical_json
from server.storage.migrate import upgrade
from server.storage.tables import schedule_revisions, schedules

BEFORE = "0007_run_leases"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
PARIS = {"kind": "DAILY", "local_time": "09:30:15", "timezone": "Europe/Paris"}
ONCE = {"kind": "ONCE", "at": "2026-12-24T18:45:00Z"}


def _older_schedule(connection: Connection, cadences: list[dict[str, object] | None]) -> UUID:
    schedule_id = uuid4()
    connection.execute(
        insert(schedules).values(
            id=schedule_id,
            tenant_id="acme",
            principal_id="alice",
            state="ACTIVE",
            current_revision=len(cadences),
            consecutive_failures=0,
            created_at=NOW,
            updated_at=NOW,
        )
    )
    for number, cadence in enumerate(cadences, start=1):
        body = {"title": "Digest"} if cadence is None else {"title": "Digest", "cadence": cadence}
        connection.execute(
            insert(schedule_revisions).values(
                schedule_id=schedule_id,
                revision=number,
                definition=canonical_json(body),
                created_by_principal_id="alice",
                created_at=NOW,
            )
        )
    return schedule_id


def test_the_upgrade_writes_each_schedules_current_cadence_columns(
    empty_database_url: str,
) -> None:
    engine = open_engine(empty_database_url)
    upgrade(engine, BEFORE)
    with engine.begin() as connection:  # each insert names only columns 0007 had
        paris = _older_schedule(connection, [ONCE, PARIS])
        once = _older_schedule(connection, [ONCE])
        bare = _older_schedule(connection, [None])
    upgrade(engine)
    columns = (schedules.c.cadence_zone, schedules.c.cadence_wall_time, schedules.c.cadence_key)
    with engine.connect() as connection:
        rows = {
            row.id: tuple(row)[1:] for row in connection.execute(select(schedules.c.id, *columns))
        }
    engine.dispose()

    assert rows[paris] == ("Europe/Paris", 9 * 3600 + 30 * 60 + 15, canonical_json(PARIS))
    assert rows[once] == ("UTC", 18 * 3600 + 45 * 60, canonical_json(ONCE))
    assert rows[bare] == (None, None, None)
