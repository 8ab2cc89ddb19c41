"""Replicas started together on one empty PostgreSQL database load the demo once.

The test holds the demo lock as a third replica still loading would; both
replicas wait for it (seen in ``pg_locks``), then one finds the store empty
and loads, the other finds it loaded. Without the turn both would load: the
demo's stable identifiers collide and one start-up fails half-way.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from sqlalchemy import create_engine, func, select
from sqlalchemy.pool import NullPool

from server.demo import load_demo_if_empty
from server.demo.entries import demo_data
from server.storage.engine import open_engine
from server.storage.sql.advisory_locks import DEMO_DATA, hold
from server.storage.sql.store import SqlStore
from server.storage.tables import schedules
from tests.server.lock_waits import WITHIN_SECONDS, eventually, lock_waiters

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_replicas_starting_together_on_an_empty_database_load_the_demo_once(
    postgres_url: str,
) -> None:
    stores = [SqlStore.open(postgres_url), SqlStore(open_engine(postgres_url))]
    test_engine = create_engine(postgres_url, poolclass=NullPool)
    loaded: list[bool] = []
    failures: list[BaseException] = []

    def start(store: SqlStore) -> None:
        try:
            loaded.append(load_demo_if_empty(store, "alice", "acme", NOW))
        except BaseException as err:  # handed to the assertions below
            failures.append(err)

    try:
        with test_engine.connect() as observer, test_engine.connect() as holder:
            hold(holder, DEMO_DATA)
            starting = [threading.Thread(target=start, args=(store,)) for store in stores]
            for thread in starting:
                thread.start()
            eventually(
                lambda: lock_waiters(observer, locktype="advisory") == 2,
                "both replicas to wait for the demo lock",
            )
            holder.rollback()
        for thread in starting:
            thread.join(WITHIN_SECONDS)
        assert failures == []
        assert sorted(loaded) == [False, True]
        with stores[0].engine.connect() as connection:
            count = connection.execute(select(func.count()).select_from(schedules)).scalar_one()
        assert count == len(demo_data().schedules)
    finally:
        for store in stores:
            store.close()
        test_engine.dispose()
