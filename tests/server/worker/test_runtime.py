"""The scheduler as it runs: the loops, isolation between schedules, admission, wake-ups."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from datetime import timedelta
from uuid import UUID

import pytest
from sqlalchemy import text

from server.control.service import ScheduleService
from server.firing.admission import Admission
from server.storage.jsontext import load_object
from server.worker.change_feed import ChangeFeed
from server.worker.runtime import SchedulingRuntime, running
from server.worker.wake import WakeSignal
from tests.server.api.conftest import Clock, definition
from tests.server.scene import ALICE, Scene

STOP_WITHIN = 20  # seconds; a generous bound for a loaded machine, never a sleep


def _due(scene: Scene, clock: Clock, *titles: str) -> list[UUID]:
    ids = [scene.create(title=title).schedule.schedule_id for title in titles]
    due_at = scene.schedule(ids[0]).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=5)
    return ids


async def test_the_runtime_fires_answers_and_publishes_each_committed_change(
    scene: Scene, clock: Clock
) -> None:
    (schedule_id,) = _due(scene, clock, "Morning news digest")
    runtime = SchedulingRuntime(scene.store, scene.identity, clock)
    published = asyncio.Event()
    calls: list[int] = []

    def changed() -> None:
        calls.append(1)
        published.set()

    unsubscribe = runtime.changes.subscribe(changed)
    async with asyncio.timeout(STOP_WITHIN), running(runtime):
        while not _answered(scene, schedule_id):
            await published.wait()
            published.clear()
    unsubscribe()
    assert len(calls) >= 2, "the occurrence, then the run's end"
    record = scene.schedule(schedule_id)
    assert record.next_fire_at is not None and record.next_fire_at > clock()


def _answered(scene: Scene, schedule_id: UUID) -> bool:
    ledger = scene.ledger(schedule_id)
    if not ledger or ledger[0].run_id is None:
        return False
    run = scene.store.runs.get(ledger[0].run_id)
    return run is not None and run.status == "COMPLETED"


async def test_leaving_running_stops_every_loop_even_when_the_caller_is_cancelled(
    scene: Scene, clock: Clock
) -> None:
    runtime = SchedulingRuntime(scene.store, scene.identity, clock)
    inside = asyncio.Event()

    async def app() -> None:
        async with running(runtime):
            inside.set()
            await asyncio.Event().wait()  # until Ctrl+C

    task = asyncio.create_task(app())
    async with asyncio.timeout(STOP_WITHIN):
        await inside.wait()
        task.cancel()
        await asyncio.wait({task})
    assert task.cancelled()
    names = {t.get_name() for t in asyncio.all_tasks()}
    assert names.isdisjoint({"scheduling", "schedule worker", "run dispatcher", "retention purge"})


def test_a_schedule_that_cannot_be_read_never_stops_its_siblings_and_is_logged_by_id_only(
    scene: Scene, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    broken, first, second = _due(scene, clock, "Broken", "First", "Second")
    view = scene.store.schedules.get(ALICE.owner, broken)
    assert view is not None
    payload = load_object(view.revision.definition)
    payload["cadence"] = {"kind": "FORTNIGHTLY"}
    with scene.store.engine.begin() as connection:
        connection.execute(
            text("UPDATE schedule_revisions SET definition = :d WHERE schedule_id = :id"),
            {"d": json.dumps(payload), "id": broken.hex},
        )
    worker = scene.worker()
    with caplog.at_level(logging.WARNING):
        report = worker.run_once(clock())
    assert (report.written, report.failed) == (2, 1)
    assert [len(scene.ledger(i)) for i in (broken, first, second)] == [0, 1, 1]
    (logged,) = caplog.records
    assert str(broken) in logged.getMessage()
    assert "CadenceError" in logged.getMessage()
    assert "overnight news" not in caplog.text, "never the instruction"

    assert worker.run_once(clock()).failed == 0, "it waits out its backoff"
    assert report.retry_at == clock() + timedelta(seconds=1)
    clock.advance(seconds=1)
    assert worker.run_once(clock()).failed == 1
    assert scene.store.schedules.due(clock(), 10) == [broken], "still due, still isolated"


def test_over_the_admission_cap_nothing_is_written_and_the_schedule_is_retried_later(
    scene: Scene, clock: Clock
) -> None:
    pair = _due(scene, clock, "One", "Other")
    worker = scene.worker(admission=Admission(max_active_runs=1))
    before = {schedule_id: scene.schedule(schedule_id) for schedule_id in pair}
    report = worker.run_once(clock())
    assert (report.written, report.held) == (1, 1)
    (waiting,) = [schedule_id for schedule_id in pair if not scene.ledger(schedule_id)]
    assert scene.schedule(waiting) == before[waiting], "nothing written for it"
    assert scene.store.schedules.due(clock(), 10) == [waiting]
    assert report.retry_at == clock() + timedelta(seconds=1)
    assert worker.next_wake(clock(), report) == report.retry_at

    scene.settle_queued()
    clock.advance(milliseconds=500)
    assert worker.run_once(clock()).written == 0, "not before its backoff ends"
    clock.advance(milliseconds=500)
    assert worker.run_once(clock()).written == 1
    assert [len(scene.ledger(schedule_id)) for schedule_id in pair] == [1, 1]
    assert scene.ledger(waiting)[0].disposition == "MATERIALIZED"


def test_create_update_and_resume_wake_the_worker_and_pause_and_cancel_do_not(
    scene: Scene,
) -> None:
    wakes: list[str] = []
    service = ScheduleService(
        scene.store, scene.clock, lambda: wakes.append("wake"), identity=scene.identity
    )
    view = service.create(ALICE, definition(), "key")
    assert wakes == ["wake"]
    schedule_id = view.schedule.schedule_id
    service.pause(ALICE, schedule_id, 1)
    assert wakes == ["wake"]
    service.update(ALICE, schedule_id, 1, definition(title="Renamed"))
    service.resume(ALICE, schedule_id, 2)
    service.cancel(ALICE, schedule_id, 2)
    assert wakes == ["wake"] * 3


async def test_a_wake_from_another_thread_ends_the_wait_and_an_early_one_is_kept() -> None:
    wake = WakeSignal()
    wake.notify()  # before anyone waits
    async with asyncio.timeout(STOP_WITHIN):
        assert await wake.wait(STOP_WITHIN)
        waiting = asyncio.create_task(wake.wait(STOP_WITHIN))
        await asyncio.sleep(0)  # let the waiter attach
        threading.Thread(target=wake.notify).start()
        assert await waiting
    assert not await wake.wait(0), "each wake is consumed once"


def test_change_subscribers_are_called_until_they_unsubscribe_and_one_failing_spares_others(
    caplog: pytest.LogCaptureFixture,
) -> None:
    feed = ChangeFeed()
    calls: list[str] = []

    def failing() -> None:
        raise RuntimeError("subscriber bug")

    feed.subscribe(failing)
    unsubscribe = feed.subscribe(lambda: calls.append("seen"))
    with caplog.at_level(logging.WARNING):
        feed.publish()
    assert calls == ["seen"]
    assert "RuntimeError" in caplog.text
    unsubscribe()
    feed.publish()
    assert calls == ["seen"]
