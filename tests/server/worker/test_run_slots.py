"""Runs side by side in bounded slots; waiting never fails one; a lapsed lease is taken over.

The seed: different schedules run concurrently, subject to tenant admission,
and an overdue occurrence never blocks an unrelated one. So one owner's long
run holds one slot while the others' runs complete; a run that waited for a
slot starts with its whole time limit; and a run whose dispatcher stopped
renewing its lease is delivered again, with the same id, by another. Leases
expire by the scene's clock; a run is held by an executor awaiting an event.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from server.firing.admission import Admission
from server.identity import Principal
from server.storage.records import ClaimedRun
from server.storage.sql.store import SqlStore
from server.worker.executor import RunResult
from server.worker.run_dispatch import RunDispatcher
from server.worker.runtime import SchedulingRuntime, SchedulingSettings, running
from tests.clock import Clock
from tests.server.scene import ALICE, Answering, Scene, principal

pytestmark = pytest.mark.each_backend

BOUND = 20  # seconds; a generous bound for a loaded machine, never a sleep
BOB = principal("bob")


class Holding:
    """Completes each run, but holds those ``holds`` picks until ``release``."""

    def __init__(self, holds: frozenset[str] = frozenset({"alice"})) -> None:
        self._holds = holds
        self._released = asyncio.Event()
        self.started: list[UUID] = []
        self.progress = asyncio.Event()

    def release(self) -> None:
        self._released.set()

    async def execute(self, run: ClaimedRun) -> RunResult:
        self.started.append(run.run_id)
        self.progress.set()
        if run.owner.principal_id in self._holds:
            await self._released.wait()
        return RunResult.completed(f"Done by {run.owner.principal_id}.")


def _once_at(
    scene: Scene, at: datetime, by: Principal = ALICE, count: int = 1, **changes: Any
) -> list[UUID]:
    cadence = {"kind": "ONCE", "at": at.strftime("%Y-%m-%dT%H:%M:%SZ")}
    return [
        scene.create(by, title=f"Digest {n}", cadence=cadence, **changes).schedule.schedule_id
        for n in range(count)
    ]


def _statuses(scene: Scene) -> dict[str, list[str]]:
    with scene.store.engine.connect() as connection:
        rows = connection.exec_driver_sql("SELECT principal_id, status FROM runs").all()
    found: dict[str, list[str]] = {}
    for who, status in rows:
        found.setdefault(who, []).append(status)
    return {who: sorted(statuses) for who, statuses in found.items()}


@pytest.fixture
def two_owners(store: SqlStore, clock: Clock) -> Scene:
    return Scene(store, clock, ALICE, BOB)


async def test_one_owners_long_run_holds_one_slot_while_the_other_owners_runs_complete(
    two_owners: Scene, clock: Clock
) -> None:
    scene = two_owners
    _once_at(scene, clock() + timedelta(minutes=1))
    _once_at(scene, clock() + timedelta(minutes=2), BOB, 5)
    clock.advance(minutes=1, seconds=5)
    assert scene.scan().written == 1, "alice's long run is queued first"
    clock.advance(minutes=1)
    assert scene.scan().written == 5
    executor = Holding()
    runtime = SchedulingRuntime(scene.store, scene.identity, clock, executor=executor)
    changed = asyncio.Event()
    runtime.changes.subscribe(changed.set)
    async with running(runtime):
        try:
            async with asyncio.timeout(BOUND):
                while _statuses(scene).get("bob") != ["COMPLETED"] * 5:
                    await changed.wait()
                    changed.clear()
            during = _statuses(scene)
        finally:
            executor.release()
    assert during == {"alice": ["RUNNING"], "bob": ["COMPLETED"] * 5}
    assert _statuses(scene) == {"alice": ["COMPLETED"], "bob": ["COMPLETED"] * 5}


async def test_a_run_that_waited_past_its_queued_deadline_starts_with_its_whole_time_limit(
    scene: Scene, clock: Clock
) -> None:
    (schedule_id,) = _once_at(scene, clock() + timedelta(minutes=1))
    clock.advance(minutes=1, seconds=5)
    assert scene.scan().written == 1
    clock.advance(hours=24)  # every slot was busy for a day
    executor = Answering(RunResult.completed("Done."))
    assert await RunDispatcher(scene.store, executor, clock).dispatch_once() == 1
    (occurrence,) = scene.ledger(schedule_id)
    assert occurrence.run_id is not None
    run = scene.store.runs.get(occurrence.run_id)
    assert run is not None
    assert (run.status, run.failure_reason) == ("COMPLETED", None)
    assert run.deadline_at == clock() + timedelta(seconds=300), "counted from its start"
    (accounted,) = scene.events(schedule_id, "schedule.run_accounted")
    assert accounted.payload["failure"] is None


async def test_a_dispatcher_takes_a_run_only_into_a_free_slot(scene: Scene, clock: Clock) -> None:
    _once_at(scene, clock() + timedelta(minutes=1), count=3)
    clock.advance(minutes=1, seconds=5)
    assert scene.scan().written == 3
    executor = Holding()
    dispatcher = RunDispatcher(scene.store, executor, clock, slots=2)
    async with asyncio.timeout(BOUND), dispatcher.executing():
        taking = asyncio.create_task(dispatcher.take_ready())
        while len(executor.started) < 2:
            await executor.progress.wait()
            executor.progress.clear()
        assert _statuses(scene) == {"alice": ["QUEUED", "RUNNING", "RUNNING"]}
        assert not taking.done(), "the third waits for a slot, QUEUED"
        executor.release()
        assert await taking == 3
    assert _statuses(scene) == {"alice": ["COMPLETED"] * 3}
    assert len(set(executor.started)) == 3


async def test_a_run_whose_lease_lapsed_is_delivered_again_by_another_dispatcher_once(
    scene: Scene, clock: Clock
) -> None:
    (schedule_id,) = _once_at(scene, clock() + timedelta(minutes=1))
    clock.advance(minutes=1, seconds=5)
    assert scene.scan().written == 1
    stopped = Holding()  # its replica stops renewing, as a killed one does
    first = RunDispatcher(scene.store, stopped, clock)
    answering = Answering(RunResult.completed("Done once."))
    other = RunDispatcher(scene.store, answering, clock)
    async with asyncio.timeout(BOUND), first.executing():
        assert await first.take_ready() == 1
        clock.advance(seconds=20)
        assert await other.dispatch_once() == 0, "a live lease is left alone"
        assert await first.renew_leases() == 1
        clock.advance(seconds=20)
        assert await other.dispatch_once() == 0, "past its first lease, within the renewed one"
        clock.advance(seconds=11)
        assert await other.dispatch_once() == 1
        stopped.release()  # its late answer finds the run ended
    assert stopped.started == answering.carried
    (occurrence,) = scene.ledger(schedule_id)
    assert occurrence.run_id == answering.carried[0]
    run = scene.store.runs.get(occurrence.run_id)
    assert run is not None and run.status == "COMPLETED"
    assert len(scene.events(schedule_id, "schedule.run_accounted")) == 1
    messages = scene.store.sessions.visible_messages(ALICE.owner, run.session_id, None, 10)
    assert [m.text for m in messages] == ["Done once."]


async def test_an_executor_that_outlives_the_deadline_fails_the_run_and_frees_its_slot(
    scene: Scene, clock: Clock
) -> None:
    (schedule_id,) = _once_at(scene, clock() + timedelta(minutes=1), run_timeout_seconds=1)
    clock.advance(minutes=1, seconds=5)
    assert scene.scan().written == 1
    never = Holding()  # never released: only the deadline ends it
    async with asyncio.timeout(BOUND):
        assert await RunDispatcher(scene.store, never, clock).dispatch_once() == 1
    (occurrence,) = scene.ledger(schedule_id)
    assert occurrence.run_id is not None
    run = scene.store.runs.get(occurrence.run_id)
    assert run is not None
    assert (run.status, run.failure_reason) == ("FAILED", "deadline_exceeded")


def test_the_run_slots_must_exceed_the_active_run_cap() -> None:
    with pytest.raises(ValueError, match="must exceed the active-run cap"):
        SchedulingSettings(admission=Admission(8), run_slots=8)
    assert SchedulingSettings(admission=Admission(8), run_slots=9).run_slots == 9
