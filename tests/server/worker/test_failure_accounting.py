"""Post-run accounting: failures count, success resets, the limit pauses, once per occurrence."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from server.storage.records import ClaimedRun
from server.worker.executor import RunResult
from server.worker.run_dispatch import RunDispatcher
from tests.server.api.conftest import Clock
from tests.server.scene import ALICE, Scene

FAILED = RunResult.failed("tool.browser.profile_unavailable", "ProfileUnavailable")


def _fire(scene: Scene, clock: Clock, schedule_id: UUID) -> None:
    due_at = scene.schedule(schedule_id).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=5)
    assert scene.scan().written == 1


def test_failures_count_success_resets_and_the_limit_pauses_with_failure_limit(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create(max_consecutive_failures=2).schedule.schedule_id
    _fire(scene, clock, schedule_id)
    scene.settle_queued(FAILED)
    assert scene.schedule(schedule_id).consecutive_failures == 1
    _fire(scene, clock, schedule_id)
    scene.settle_queued(RunResult.completed("All good."))
    assert scene.schedule(schedule_id).consecutive_failures == 0

    _fire(scene, clock, schedule_id)
    scene.settle_queued(FAILED)
    _fire(scene, clock, schedule_id)
    scene.settle_queued(FAILED)
    record = scene.schedule(schedule_id)
    assert (record.state, record.pause_reason, record.next_fire_at) == (
        "PAUSED",
        "failure_limit",
        None,
    )
    assert record.consecutive_failures == 2
    (paused,) = scene.events(schedule_id, "schedule.auto_paused")
    assert paused.payload["consecutive_failures"] == 2
    accounted = scene.events(schedule_id, "schedule.run_accounted")
    assert [e.payload["run_status"] for e in accounted] == [
        "FAILED",
        "COMPLETED",
        "FAILED",
        "FAILED",
    ]
    assert accounted[0].payload["failure"] == {
        "reason": "tool.browser.profile_unavailable",
        "error_class": "ProfileUnavailable",
    }
    assert accounted[1].payload["failure"] is None

    clock.advance(days=3)
    assert scene.scan().written == 0, "a paused schedule never fires"
    resumed = scene.service.resume(ALICE, schedule_id, 1)
    assert (resumed.schedule.state, resumed.schedule.consecutive_failures) == ("ACTIVE", 0)


def test_accounting_happens_once_per_occurrence(scene: Scene, clock: Clock) -> None:
    schedule_id = scene.create(max_consecutive_failures=5).schedule.schedule_id
    _fire(scene, clock, schedule_id)
    dispatcher = scene.dispatcher()
    (run,) = scene.start_queued()
    assert dispatcher.settle(run, FAILED, clock())
    assert not dispatcher.settle(run, FAILED, clock()), "a finished run is not finished again"
    assert not dispatcher.settle(run, RunResult.completed("late"), clock())
    assert scene.schedule(schedule_id).consecutive_failures == 1
    assert len(scene.events(schedule_id, "schedule.run_accounted")) == 1
    finished = scene.store.runs.get(run.run_id)
    assert finished is not None and finished.status == "FAILED"


@pytest.mark.parametrize(
    ("disposition_of", "expected"),
    [
        pytest.param("missed", 1, id="a-missed-occurrence-counts"),
        pytest.param("overlap", 0, id="an-overlap-skip-does-not-count"),
    ],
)
def test_missed_occurrences_count_and_overlap_skips_do_not(
    scene: Scene, clock: Clock, disposition_of: str, expected: int
) -> None:
    schedule_id = scene.create(misfire_grace_seconds=60).schedule.schedule_id
    if disposition_of == "overlap":
        _fire(scene, clock, schedule_id)
        _fire(scene, clock, schedule_id)
        assert scene.ledger(schedule_id)[-1].disposition == "SKIPPED_OVERLAP"
    else:
        due_at = scene.schedule(schedule_id).next_fire_at
        assert due_at is not None
        clock.now = due_at + timedelta(minutes=2)
        scene.scan()
        assert scene.ledger(schedule_id)[-1].disposition == "MISSED"
    assert scene.schedule(schedule_id).consecutive_failures == expected


class BrokenRuntime:
    """An executor whose runtime went away: every run raises."""

    async def execute(self, run: ClaimedRun) -> RunResult:
        raise ConnectionError("the runtime went away")


async def test_an_executor_that_raises_fails_the_run_and_a_run_past_its_deadline_is_failed(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create(max_consecutive_failures=5).schedule.schedule_id
    _fire(scene, clock, schedule_id)
    assert await RunDispatcher(scene.store, BrokenRuntime(), clock).dispatch_once() == 1
    (accounted,) = scene.events(schedule_id, "schedule.run_accounted")
    assert accounted.payload["failure"] == {
        "reason": "executor_error",
        "error_class": "ConnectionError",
    }

    _fire(scene, clock, schedule_id)
    (queued,) = scene.start_queued()  # taken, then its taker vanished
    clock.advance(seconds=301)  # run_timeout_seconds is 300
    assert await scene.dispatcher().dispatch_once() == 1
    expired = scene.store.runs.get(queued.run_id)
    assert expired is not None and expired.status == "FAILED"
    last = scene.events(schedule_id, "schedule.run_accounted")[-1]
    assert last.payload["failure"] == {
        "reason": "deadline_exceeded",
        "error_class": "DeadlineExceeded",
    }
    assert scene.schedule(schedule_id).consecutive_failures == 2
