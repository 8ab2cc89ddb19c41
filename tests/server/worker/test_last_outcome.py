"""The last outcome and Needs attention follow the real scheduler, on both databases.

A schedule's last outcome is kept on its row by the transaction that writes
an occurrence or ends a run; these tests drive the worker and the run
dispatcher through a MISSED firing, a refused one (AUTHORIZATION_FAILED) and
a run past its deadline (FAILED), each cleared by a later completed run, and
read the outcome back the ways the routes do: the point read, the list, the
Needs attention filter and the counts.
"""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from server.identity import ALL_SCOPES
from server.storage.records import LastOutcome
from server.worker.executor import RunResult
from tests.server.api.conftest import Clock
from tests.server.scene import ALICE, Scene, directory, principal

GRACE = timedelta(seconds=3600)


pytestmark = pytest.mark.each_backend


def _outcome(scene: Scene, schedule_id: UUID) -> LastOutcome | None:
    view = scene.store.schedules.get(ALICE.owner, schedule_id)
    assert view is not None
    (listed,) = [
        v
        for v in scene.store.schedules.page(ALICE.owner, frozenset(), None, 100)
        if v.schedule.schedule_id == schedule_id
    ]
    assert listed.last_outcome == view.last_outcome, "the list and the point read agree"
    return view.last_outcome


def _needing_attention(scene: Scene) -> list[UUID]:
    views = scene.store.schedules.page(ALICE.owner, frozenset(), None, 100, needs_attention=True)
    counted = scene.store.schedules.counts(ALICE.owner).needs_attention
    assert counted == len(views), "the count and the filter agree"
    return [v.schedule.schedule_id for v in views]


def _to_next_firing(scene: Scene, clock: Clock, schedule_id: UUID, late: timedelta) -> None:
    due = scene.schedule(schedule_id).next_fire_at
    assert due is not None
    clock.now = due + late
    assert scene.scan().written == 1


def _fire_and_complete(scene: Scene, clock: Clock, schedule_id: UUID) -> None:
    _to_next_firing(scene, clock, schedule_id, timedelta(seconds=5))
    queued = _outcome(scene, schedule_id)
    assert queued is not None
    assert (queued.disposition, queued.run_status, queued.needs_attention) == (
        "MATERIALIZED",
        "QUEUED",
        False,
    )
    assert len(scene.settle_queued(RunResult.completed("Done."))) == 1
    completed = _outcome(scene, schedule_id)
    assert completed is not None
    assert (completed.run_status, completed.failure_reason, completed.needs_attention) == (
        "COMPLETED",
        None,
        False,
    )
    assert schedule_id not in _needing_attention(scene)


def test_a_schedule_that_never_fired_has_no_last_outcome(scene: Scene) -> None:
    schedule_id = scene.create().schedule.schedule_id
    assert _outcome(scene, schedule_id) is None
    assert _needing_attention(scene) == []


def test_missed_refused_and_failed_need_attention_until_a_later_run_completes(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create(max_consecutive_failures=10).schedule.schedule_id
    first = scene.schedule(schedule_id).next_fire_at
    assert first is not None

    _to_next_firing(scene, clock, schedule_id, GRACE + timedelta(minutes=5))
    missed = _outcome(scene, schedule_id)
    assert missed is not None
    assert (missed.nominal_fire_at, missed.disposition, missed.needs_attention) == (
        first,
        "MISSED",
        True,
    )
    assert missed.reason_code is not None
    assert (missed.run_status, missed.session_id) == (None, None)
    assert _needing_attention(scene) == [schedule_id]
    _fire_and_complete(scene, clock, schedule_id)

    scene.identity = directory(principal(scopes=ALL_SCOPES - {"schedule.write"}))
    _to_next_firing(scene, clock, schedule_id, timedelta(seconds=5))
    refused = _outcome(scene, schedule_id)
    assert refused is not None
    assert (refused.disposition, refused.reason_code, refused.needs_attention) == (
        "AUTHORIZATION_FAILED",
        "authority_changed",
        True,
    )
    assert _needing_attention(scene) == [schedule_id]
    scene.identity = directory(ALICE)
    _fire_and_complete(scene, clock, schedule_id)

    _to_next_firing(scene, clock, schedule_id, timedelta(seconds=5))
    (taken,) = scene.start_queued()  # taken, then its dispatcher vanished
    clock.now = taken.deadline_at + timedelta(seconds=1)
    assert scene.dispatch_once() == 1, "the next dispatcher's pass fails it"
    failed = _outcome(scene, schedule_id)
    assert failed is not None
    assert (failed.disposition, failed.run_status, failed.failure_reason) == (
        "MATERIALIZED",
        "FAILED",
        "deadline_exceeded",
    )
    assert failed.session_id == taken.session_id
    assert failed.needs_attention
    assert _needing_attention(scene) == [schedule_id]
    _fire_and_complete(scene, clock, schedule_id)


def test_a_failed_run_keeps_its_reason_and_the_failure_limit_pause_needs_attention(
    scene: Scene, clock: Clock
) -> None:
    paused_id = scene.create(max_consecutive_failures=1).schedule.schedule_id
    later = {"kind": "DAILY", "local_time": "09:30:00", "timezone": "Europe/Paris"}
    calm_id = scene.create(title="Not fired yet", cadence=later).schedule.schedule_id
    _to_next_firing(scene, clock, paused_id, timedelta(seconds=5))
    scene.settle_queued(RunResult.failed("executor_error", "RuntimeError"))
    record = scene.schedule(paused_id)
    assert (record.state, record.pause_reason) == ("PAUSED", "failure_limit")
    outcome = _outcome(scene, paused_id)
    assert outcome is not None
    assert (outcome.run_status, outcome.failure_reason) == ("FAILED", "executor_error")
    assert _needing_attention(scene) == [paused_id]
    assert calm_id not in _needing_attention(scene)
    counts = scene.store.schedules.counts(ALICE.owner)
    assert (counts.current, counts.history, counts.needs_attention) == (2, 0, 1)
