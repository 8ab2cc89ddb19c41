"""Stopping the scheduler: the work in flight finishes, nothing new starts, within a bound.

A stopping server (SIGTERM) must not leave half its batch behind: the scan
ends after the batch in flight, the dispatcher after the runs in
flight, and a run is never taken before a slot can execute it, so a
dispatcher that stops or dies holds only the runs it was executing (one
here: the dispatchers of these tests have one slot), which another takes
over once their leases lapse.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from datetime import timedelta
from uuid import UUID

import pytest

from server.identity import Principal, TokenDirectory
from server.storage.records import ClaimedRun
from server.worker.executor import RunResult
from server.worker.run_dispatch import RunDispatcher
from server.worker.runtime import SchedulingRuntime, running
from server.worker.worker import ScheduleWorker
from tests.server.api.conftest import Clock
from tests.server.scene import Scene

STOP_WITHIN = 20  # seconds; a generous bound for a loaded machine, never a sleep


def _due(scene: Scene, clock: Clock, count: int) -> list[UUID]:
    ids = [scene.create(title=f"Digest {n}").schedule.schedule_id for n in range(count)]
    due_at = scene.schedule(ids[0]).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=5)
    return ids


class StopWhileDeciding:
    """The scene's principals; the first look-up (inside a materialization) asks for a stop."""

    def __init__(self, directory: TokenDirectory, stopping: threading.Event) -> None:
        self._directory = directory
        self._stopping = stopping

    def authenticate(self, bearer_token: str | None) -> Principal | None:
        return self._directory.authenticate(bearer_token)

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        self._stopping.set()
        return self._directory.current(tenant_id, principal_id)


def test_a_stopping_scan_commits_the_batch_in_flight_and_starts_no_other(
    scene: Scene, clock: Clock
) -> None:
    ids = _due(scene, clock, 3)
    stopping = threading.Event()
    identity = StopWhileDeciding(scene.identity, stopping)
    worker = ScheduleWorker(scene.store, identity, stopping=stopping, batch_size=2)
    report = worker.run_once(clock())
    assert report.written == 2, "the batch in flight, asked to stop mid-way, commits whole"
    assert worker.run_once(clock()).written == 0, "no batch starts once stopping"
    assert sorted(len(scene.ledger(i)) for i in ids) == [0, 1, 1]
    assert len(scene.store.schedules.due(clock(), 10)) == 1, "left due for the next start"


class RecordingExecutor:
    """Completes each run, noting how many runs were RUNNING meanwhile; may ask for a stop."""

    def __init__(self, scene: Scene, stopping: threading.Event | None = None) -> None:
        self._scene = scene
        self._stopping = stopping
        self.running_seen: list[int] = []

    async def execute(self, run: ClaimedRun) -> RunResult:
        self.running_seen.append(self._count_running())
        if self._stopping is not None:
            self._stopping.set()
        return RunResult.completed("Done.")

    def _count_running(self) -> int:
        with self._scene.store.engine.connect() as connection:
            rows = connection.exec_driver_sql("SELECT count(*) FROM runs WHERE status = 'RUNNING'")
            return int(rows.scalar_one())


async def test_a_dispatcher_takes_a_run_only_when_it_executes_it(
    scene: Scene, clock: Clock
) -> None:
    _due(scene, clock, 3)
    assert scene.scan().written == 3
    executor = RecordingExecutor(scene)
    assert await RunDispatcher(scene.store, executor, clock).dispatch_once() == 3
    assert executor.running_seen == [1, 1, 1]


async def test_a_stopping_dispatcher_settles_the_run_in_flight_and_takes_no_other(
    scene: Scene, clock: Clock
) -> None:
    _due(scene, clock, 3)
    assert scene.scan().written == 3
    stopping = threading.Event()
    executor = RecordingExecutor(scene, stopping)
    dispatcher = RunDispatcher(scene.store, executor, clock, stopping=stopping)
    assert await dispatcher.dispatch_once() == 1
    with scene.store.engine.connect() as connection:
        statuses = sorted(connection.exec_driver_sql("SELECT status FROM runs").scalars())
    assert statuses == ["COMPLETED", "QUEUED", "QUEUED"], "the rest left for another replica"


class HungExecutor:
    """A runtime that never answers."""

    def __init__(self) -> None:
        self.started = asyncio.Event()

    async def execute(self, run: ClaimedRun) -> RunResult:
        self.started.set()
        await asyncio.Event().wait()
        raise AssertionError("never answers")


async def test_work_in_flight_that_outlives_the_stop_bound_is_abandoned_and_logged(
    scene: Scene, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    _due(scene, clock, 1)
    executor = HungExecutor()
    runtime = SchedulingRuntime(scene.store, scene.identity, clock, executor=executor)
    loop = asyncio.get_running_loop()
    with caplog.at_level(logging.WARNING):
        async with asyncio.timeout(STOP_WITHIN):
            async with running(runtime, stop_within=0.5):
                await executor.started.wait()
                leaving = loop.time()
            stopped_after = loop.time() - leaving
    assert 0.5 <= stopped_after < 0.5 + 5
    assert "outlived the 0.5 s stop bound" in caplog.text
    names = {t.get_name() for t in asyncio.all_tasks()}
    assert names.isdisjoint({"scheduling", "schedule worker", "run dispatcher", "retention purge"})
