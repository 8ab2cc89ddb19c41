"""The worker on a storage fault: backs off as a whole, says so once, blames no schedule.

The database is made read-only in-process (SQLite's ``query_only`` on every
connection of the store), so every materialization's write fails with
``SQLITE_READONLY`` while reads go on, as on a read-only volume.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event

from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock
from tests.server.scene import Scene

WORKER_LOG = "server.worker.worker"


@contextmanager
def read_only(store: SqlStore) -> Iterator[None]:
    def query_only(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA query_only = ON")

    store.engine.dispose()
    event.listen(store.engine, "connect", query_only)
    try:
        yield
    finally:
        event.remove(store.engine, "connect", query_only)
        store.engine.dispose()


def test_a_storage_fault_backs_the_whole_worker_off_logs_once_and_recovers(
    scene: Scene, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    ids = [scene.create().schedule.schedule_id for _ in range(3)]
    due_at = scene.schedule(ids[0]).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=5)
    worker = scene.worker()
    caplog.set_level(logging.INFO, logger=WORKER_LOG)
    with read_only(scene.store):
        reports = [worker.run_once(clock.now + timedelta(seconds=s)) for s in (0, 10, 20)]
        assert scene.store.faults.faulted
        waits = [
            r.retry_at - (clock.now + timedelta(seconds=s))
            for r, s in zip(reports, (0, 10, 20), strict=True)
            if r.retry_at
        ]
    assert [(r.written, r.failed, r.storage_fault) for r in reports] == [(0, 0, True)] * 3
    assert waits == [timedelta(seconds=1), timedelta(seconds=2), timedelta(seconds=4)]
    assert worker.next_wake(clock.now, reports[0]) == reports[0].retry_at, "no spin on the due ones"
    said = [r.getMessage() for r in caplog.records if r.name == WORKER_LOG]
    assert said == [
        "storage fault (OperationalError, SQLITE_READONLY): the worker backs off and retries"
        " until the database takes writes again"
    ]
    caplog.clear()
    after = worker.run_once(clock.now + timedelta(seconds=30))
    assert after.written == 3, "no schedule was blamed or deferred"
    assert not scene.store.faults.faulted
    assert [r.getMessage() for r in caplog.records if r.name == WORKER_LOG] == [
        "the database takes writes again; the worker goes on"
    ]
    assert scene.store.faults.count >= 3
