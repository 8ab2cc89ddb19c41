"""The run queue's leases and time limits, on each backend.

A run's time limit counts from its start (``start`` sets its deadline), a
QUEUED run is never overdue, and a RUNNING run carries a lease that only its
holder renews; once it lapses, ``take_over`` hands the run to one new holder.
"""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from server.storage.records import RunLease
from server.worker.executor import RunResult
from tests.clock import Clock
from tests.server.scene import Scene

pytestmark = pytest.mark.each_backend

TIMEOUT = timedelta(seconds=300)  # the test definition's run_timeout_seconds
LEASE = timedelta(seconds=30)


def _queued(scene: Scene, clock: Clock, count: int = 1) -> list[UUID]:
    """``count`` schedules fired at the clock: their runs' ids, QUEUED."""
    ids = [scene.create(title=f"Digest {n}").schedule.schedule_id for n in range(count)]
    due_at = scene.schedule(ids[0]).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=5)
    assert scene.scan().written == count
    queued = scene.store.runs.queued(clock(), 10)
    assert len(queued) == count
    return queued


def _lease(holder: str, clock: Clock) -> RunLease:
    return RunLease(holder, clock() + LEASE)


def test_a_queued_run_is_never_overdue_and_its_time_limit_counts_from_its_start(
    scene: Scene, clock: Clock
) -> None:
    (run_id,) = _queued(scene, clock)
    clock.advance(hours=24)  # waited a day for a slot
    assert scene.store.runs.overdue(clock(), 10) == []
    started_at = clock()
    run = scene.store.runs.start(run_id, started_at, _lease("a", clock))
    assert run is not None
    assert run.deadline_at == started_at + TIMEOUT
    stored = scene.store.runs.get(run_id)
    assert stored is not None and stored.deadline_at == started_at + TIMEOUT
    clock.now = run.deadline_at
    assert scene.store.runs.overdue(clock(), 10) == []
    clock.advance(seconds=1)
    assert scene.store.runs.overdue(clock(), 10) == [run_id]


def test_a_lapsed_lease_is_taken_over_once_and_only_its_holder_renews_it(
    scene: Scene, clock: Clock
) -> None:
    (run_id,) = _queued(scene, clock)
    runs = scene.store.runs
    taken = runs.start(run_id, clock(), _lease("a", clock))
    assert taken is not None
    assert runs.start(run_id, clock(), _lease("b", clock)) is None, "taken once"

    clock.advance(seconds=20)
    assert runs.stranded(clock(), 10) == []
    assert runs.take_over(run_id, clock(), _lease("b", clock)) is None, "a live lease holds"
    assert runs.renew([run_id], _lease("b", clock)) == 0, "only the holder renews"
    assert runs.renew([run_id], _lease("a", clock)) == 1  # now until 50 s after the start

    clock.advance(seconds=20)  # past the first lease, within the renewed one
    assert runs.stranded(clock(), 10) == []
    clock.advance(seconds=11)
    assert runs.stranded(clock(), 10) == [run_id]
    again = runs.take_over(run_id, clock(), _lease("b", clock))
    assert again is not None
    assert runs.take_over(run_id, clock(), _lease("c", clock)) is None, "taken over once"
    assert again == taken, "delivered again exactly as first taken: same id, same deadline"
    assert runs.renew([run_id], _lease("a", clock)) == 0, "the old holder has lost it"
    assert runs.renew([run_id], _lease("b", clock)) == 1


def test_a_run_past_its_deadline_is_overdue_not_stranded_and_an_ended_run_is_neither(
    scene: Scene, clock: Clock
) -> None:
    first, second = _queued(scene, clock, 2)
    runs = scene.store.runs
    assert runs.start(first, clock(), _lease("a", clock)) is not None
    taken = runs.start(second, clock(), _lease("a", clock))
    assert taken is not None
    assert scene.dispatcher().settle(taken, RunResult.completed("Done."), clock())

    clock.advance(TIMEOUT + timedelta(seconds=1))
    assert runs.stranded(clock(), 10) == [], "past its deadline: overdue, not stranded"
    assert runs.overdue(clock(), 10) == [first]
    assert runs.take_over(second, clock(), _lease("b", clock)) is None, "it has ended"
    assert runs.renew([first, second], _lease("a", clock)) == 1
