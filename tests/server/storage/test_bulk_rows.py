"""A batch's rows in one statement: stored as a row-by-row insert stores them, refused alike.

On both databases: every value reads back as written (instants in UTC,
NULLs, booleans, ids); a value its column cannot hold is refused by the
database, never truncated on the way (PostgreSQL's text travels as ``text[]``
and the column's own length check refuses it); a naive instant is refused
before it is sent; an update writes its kept columns only on the rows that
ask for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from uuid import UUID, uuid4

import pytest
from sqlalchemy import select
from sqlalchemy.exc import DataError, IntegrityError

from server.storage.sql.bulk_rows import BulkInsert, BulkUpdate
from server.storage.sql.store import SqlStore
from server.storage.tables import audit_events, sessions

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
PARIS = timezone(timedelta(hours=1))


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    opened = SqlStore.open(database_url)
    yield opened
    opened.close()


def _session(title: str = "Digest", **changes: Any) -> dict[str, Any]:
    return {
        "id": uuid4(),
        "tenant_id": "t",
        "principal_id": "alice",
        "title": title,
        "last_activity_at": NOW,
        "folder_id": None,
        "metadata": "{}",
        "created_at": NOW,
        **changes,
    }


def _titles(store: SqlStore) -> dict[UUID, tuple[str, datetime]]:
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(sessions.c.id, sessions.c.title, sessions.c.last_activity_at)
        )
        return {row.id: (row.title, row.last_activity_at) for row in rows}


def test_rows_read_back_as_written_with_instants_in_utc_and_nulls_kept(store: SqlStore) -> None:
    events = [
        {
            "event_type": "bench",
            "tenant_id": "t",
            "principal_id": "alice",
            "actor": "scheduler",
            "schedule_id": schedule_id,
            "revision": revision,
            "payload": '{"a":1}',
            "occurred_at": NOW.astimezone(PARIS),
        }
        for schedule_id, revision in ((uuid4(), 1), (None, None), (uuid4(), 7))
    ]
    with store.engine.begin() as connection:
        BulkInsert(audit_events, leave_out=("id",)).execute(connection, events)
        stored = connection.execute(select(audit_events).order_by(audit_events.c.id)).all()
    assert [(r.schedule_id, r.revision, r.occurred_at) for r in stored] == [
        (e["schedule_id"], e["revision"], NOW) for e in events
    ]
    assert all(r.occurred_at.utcoffset() == timedelta(0) for r in stored)


def test_a_value_its_column_cannot_hold_is_refused_and_nothing_is_written(
    store: SqlStore,
) -> None:
    with pytest.raises(IntegrityError), store.engine.begin() as connection:
        BulkInsert(sessions).execute(connection, [_session(), _session(principal_id=None)])
    if store.engine.dialect.name == "postgresql":  # SQLite keeps no length
        with pytest.raises(DataError), store.engine.begin() as connection:
            BulkInsert(sessions).execute(connection, [_session(), _session(title="x" * 501)])
    assert _titles(store) == {}


def test_a_naive_instant_is_refused_before_it_is_sent(store: SqlStore) -> None:
    naive = _session(created_at=NOW.replace(tzinfo=None))
    with pytest.raises(ValueError, match="naive"), store.engine.begin() as connection:
        BulkInsert(sessions).execute(connection, [_session(), naive])
    assert _titles(store) == {}


def test_an_update_writes_kept_columns_only_on_the_rows_that_keep_them(store: SqlStore) -> None:
    first, second = _session(), _session()
    with store.engine.begin() as connection:
        BulkInsert(sessions).execute(connection, [first, second])
        later = NOW + timedelta(hours=1)
        BulkUpdate(sessions, "id", ("title",), ("last_activity_at",)).execute(
            connection,
            [
                {"id": first["id"], "title": "One", "keep": True, "last_activity_at": later},
                {"id": second["id"], "title": "Two", "keep": False, "last_activity_at": None},
            ],
        )
    assert _titles(store) == {first["id"]: ("One", later), second["id"]: ("Two", NOW)}
