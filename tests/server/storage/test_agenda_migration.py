"""Migration 0008_agenda_index backfills each schedule's cadence columns, on SQLite and PostgreSQL.

A database at 0007 gets schedules written as older servers wrote them (one
with an earlier revision of another cadence, one without a cadence); after
the upgrade each row carries its current cadence's zone, wall time and key.
The longest cadence key (a YEARLY of all 366 dates) is written at head: on
PostgreSQL ``ix_schedules_cadence_groups`` holds it compressed, under the
btree's 2,704-byte row limit.
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


EVERY_DAY_OF_A_LEAP_YEAR = {
    "kind": "YEARLY",
    "local_time": "09:30:00",
    "timezone": "Europe/Paris",
    "dates": [
        {"month": month, "day": day}
        for month, days in enumerate((31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31), start=1)
        for day in range(1, days + 1)
    ],
}


def test_the_longest_yearly_cadence_fits_the_cadence_groups_index(database_url: str) -> None:
    engine = open_engine(database_url)
    upgrade(engine)
    key = canonical_json(EVERY_DAY_OF_A_LEAP_YEAR)
    with engine.begin() as connection:
        schedule_id = _older_schedule(connection, [EVERY_DAY_OF_A_LEAP_YEAR])
        connection.execute(
            schedules.update().where(schedules.c.id == schedule_id).values(cadence_key=key)
        )
    with engine.connect() as connection:
        stored = connection.execute(
            select(schedules.c.cadence_key).where(schedules.c.id == schedule_id)
        ).scalar_one()
    engine.dispose()

    assert len(key) > 2704  # longer than a btree row, uncompressed
    assert stored == key
