"""Migration 0005_search backfills what older databases hold, on SQLite and PostgreSQL.

A database at the revision before it gets schedules, revisions and a ledger
written as older servers wrote them; after the upgrade every schedule is
found by its current title and instruction (not an earlier revision's), and
its last outcome is the one its ledger says.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import uuid4

from sqlalchemy import Connection, insert

from server.storage.engine import open_engine
from server.storage.jsontext import canonical_json
from server.storage.migrate import downgrade, upgrade
from server.storage.records import Owner
from server.storage.search_text import search_words
from server.storage.sql.store import SqlStore
from server.storage.tables import schedule_occurrences, schedule_revisions, schedules

BEFORE = "0002_scheduling_worker"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ALICE = Owner("acme", "alice")


def _older_schedule(connection: Connection, titles: list[str], disposition: str | None) -> None:
    schedule_id = uuid4()
    connection.execute(
        insert(schedules).values(
            id=schedule_id,
            tenant_id=ALICE.tenant_id,
            principal_id=ALICE.principal_id,
            state="ACTIVE",
            pause_reason=None,
            current_revision=len(titles),
            next_fire_at=NOW + timedelta(hours=1),
            consecutive_failures=0,
            created_at=NOW,
            updated_at=NOW,
        )
    )
    for number, title in enumerate(titles, start=1):
        connection.execute(
            insert(schedule_revisions).values(
                schedule_id=schedule_id,
                revision=number,
                definition=canonical_json({"title": title, "instruction": "Do it."}),
                created_by_principal_id="alice",
                created_at=NOW,
            )
        )
    if disposition is not None:
        connection.execute(
            insert(schedule_occurrences).values(
                id=uuid4(),
                schedule_id=schedule_id,
                schedule_revision=len(titles),
                nominal_fire_at=NOW - timedelta(hours=1),
                disposition=disposition,
                reason_code="grace_exceeded",
                created_at=NOW,
            )
        )


def test_the_upgrade_indexes_current_texts_and_keeps_last_outcomes(
    empty_database_url: str,
) -> None:
    engine = open_engine(empty_database_url)
    upgrade(engine, BEFORE)
    with engine.begin() as connection:  # each insert names only columns older servers had
        _older_schedule(connection, ["Café orders", "Bakery orders"], "MISSED")
        _older_schedule(connection, ["Weekly 会議 notes"], None)
    upgrade(engine)
    engine.dispose()
    store = SqlStore.open(empty_database_url)
    try:
        found = store.schedules.page(ALICE, frozenset(), None, 10, words=search_words("BAKERY"))
        assert [v.last_outcome and v.last_outcome.disposition for v in found] == ["MISSED"]
        assert found[0].last_outcome is not None and found[0].last_outcome.needs_attention
        assert store.schedules.page(ALICE, frozenset(), None, 10, words=("cafe",)) == []
        (meeting,) = store.schedules.page(ALICE, frozenset(), None, 10, words=("会議",))
        assert meeting.last_outcome is None
        counts = store.schedules.counts(ALICE)
        assert (counts.current, counts.needs_attention) == (2, 1)
    finally:
        store.close()


def test_the_search_migration_steps_back_and_forth_over_data(empty_database_url: str) -> None:
    engine = open_engine(empty_database_url)
    upgrade(engine, BEFORE)
    with engine.begin() as connection:
        _older_schedule(connection, ["Bakery orders"], "MISSED")
    upgrade(engine)
    downgrade(engine, BEFORE)
    upgrade(engine)
    engine.dispose()
    store = SqlStore.open(empty_database_url)
    try:
        assert len(store.schedules.page(ALICE, frozenset(), None, 10, words=("bakery",))) == 1
    finally:
        store.close()
