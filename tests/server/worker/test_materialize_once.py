"""gate.schedule.materialize_once: two workers racing on one due schedule materialize it once.

Run on both backends: on SQLite the second worker waits for the write lock
and finds the schedule advanced; on PostgreSQL it skips the row the first
holds (``FOR UPDATE SKIP LOCKED``) or finds it advanced.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

from server.storage.sql.store import SqlStore
from server.worker.worker import ScanReport, ScheduleWorker
from tests.server.api.conftest import Clock
from tests.server.scene import Scene

RACES = 12


def race(workers: list[ScheduleWorker], now: datetime) -> list[ScanReport]:
    """Every worker's ``run_once(now)``, each on its own thread, released together."""
    start = threading.Barrier(len(workers))
    reports: list[ScanReport] = []

    def scan(worker: ScheduleWorker) -> None:
        start.wait()
        reports.append(worker.run_once(now))

    threads = [threading.Thread(target=scan, args=(worker,)) for worker in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return reports


def test_two_workers_on_two_engines_racing_on_one_due_schedule_materialize_it_once(
    database_url: str, clock: Clock
) -> None:
    stores = [SqlStore.open(database_url), SqlStore.open(database_url)]  # two connection pools
    try:
        scene = Scene(stores[0], clock)
        workers = [ScheduleWorker(store, scene.identity) for store in stores]
        for _ in range(RACES):
            schedule_id = scene.create().schedule.schedule_id
            due_at = scene.schedule(schedule_id).next_fire_at
            assert due_at is not None
            now = due_at + timedelta(seconds=1)
            before = scene.counts()
            reports = race(workers, now)

            assert sorted(report.written for report in reports) == [0, 1]
            assert sum(report.failed for report in reports) == 0
            after = scene.counts()
            assert {table: after[table] - before[table] for table in after} == {
                "schedule_occurrences": 1,
                "sessions": 1,
                "session_messages": 1,
                "runs": 1,
            }
            (occurrence,) = scene.ledger(schedule_id)
            assert occurrence.disposition == "MATERIALIZED"
            assert len(scene.events(schedule_id, "schedule.occurrence.materialized")) == 1
            assert len(scene.events(schedule_id, "run.queued")) == 1
            assert scene.schedule(schedule_id).next_fire_at == due_at + timedelta(days=1)
            scene.settle_queued()
    finally:
        for store in stores:
            store.close()
