"""Migration 0012_active_span backfills each schedule's last ACTIVE span from its audit log.

A database at 0011 gets schedules as older servers wrote them, with the audit
events their lifecycle left; after the upgrade ``active_since`` is the latest
of creation, the current revision and the last resume, and a schedule no
longer ACTIVE ends at its first stop after that (NULL when the log has none).
Run on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from sqlalchemy import Connection, insert, select

from server.storage.engine import open_engine
from server.storage.jsontext import canonical_json
from server.storage.migrate import upgrade
from server.storage.tables import audit_events, schedule_revisions, schedules

BEFORE = "0011_calendar_feeds"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _at(hours: int) -> datetime:
    return NOW + timedelta(hours=hours)


def _older_schedule(
    connection: Connection, state: str, revisions: list[datetime], events: list[tuple[str, int]]
) -> UUID:
    """A row as 0011 wrote it, its revisions made at ``revisions``, and ``(kind, hour)`` events."""
    schedule_id = uuid4()
    connection.execute(
        insert(schedules).values(
            id=schedule_id,
            tenant_id="acme",
            principal_id="alice",
            state=state,
            pause_reason="user" if state == "PAUSED" else None,
            current_revision=len(revisions),
            consecutive_failures=0,
            created_at=NOW,
            updated_at=NOW,
        )
    )
    for number, made in enumerate(revisions, start=1):
        connection.execute(
            insert(schedule_revisions).values(
                schedule_id=schedule_id,
                revision=number,
                definition=canonical_json({"title": "Digest"}),
                created_by_principal_id="alice",
                created_at=made,
            )
        )
    for kind, hour in events:
        connection.execute(
            insert(audit_events).values(
                event_type=kind,
                tenant_id="acme",
                principal_id="alice",
                actor="alice",
                schedule_id=schedule_id,
                payload="{}",
                occurred_at=_at(hour),
            )
        )
    return schedule_id


def test_the_upgrade_backfills_each_schedules_span_from_its_audit_log(
    empty_database_url: str,
) -> None:
    engine = open_engine(empty_database_url)
    upgrade(engine, BEFORE)
    with engine.begin() as connection:  # each insert names only columns 0011 had
        created = _older_schedule(connection, "ACTIVE", [NOW], [("schedule.created", 0)])
        resumed = _older_schedule(
            connection,
            "ACTIVE",
            [NOW],
            [("schedule.paused", 1), ("schedule.resumed", 48), ("schedule.updated", 50)],
        )
        edited = _older_schedule(
            connection, "ACTIVE", [NOW, _at(72)], [("schedule.paused", 1), ("schedule.resumed", 24)]
        )
        paused = _older_schedule(
            connection,
            "PAUSED",
            [NOW],
            [("schedule.paused", 1), ("schedule.resumed", 48), ("schedule.paused", 60)],
        )
        cancelled = _older_schedule(
            connection,
            "CANCELLED",
            [NOW],
            [("schedule.paused", 2), ("schedule.cancelled", 96)],
        )
        completed = _older_schedule(connection, "COMPLETED", [NOW], [("schedule.completed", 25)])
        unlogged = _older_schedule(connection, "PAUSED", [NOW], [])
        edited_paused = _older_schedule(
            connection, "PAUSED", [NOW, _at(30)], [("schedule.auto_paused", 5)]
        )
    upgrade(engine)
    with engine.connect() as connection:
        rows = {
            row.id: (row.active_since, row.active_until)
            for row in connection.execute(
                select(schedules.c.id, schedules.c.active_since, schedules.c.active_until)
            )
        }
    engine.dispose()

    assert rows == {
        created: (NOW, None),
        resumed: (_at(48), None),
        edited: (_at(72), None),
        paused: (_at(48), _at(60)),
        cancelled: (NOW, _at(2)),
        completed: (NOW, _at(25)),
        unlogged: (NOW, None),
        edited_paused: (_at(30), None),
    }
