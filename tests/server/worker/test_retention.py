"""Retention: terminal schedules go thirty days after their last change; sessions and runs stay."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID, uuid4

import pytest

from server.storage.records import RevisionRecord, ScheduleRecord, ScheduleView
from server.worker.retention import BATCH, purge_expired
from tests.server.api.conftest import NOW, Clock
from tests.server.scene import ALICE, Scene

IMPORTED = 247


def _imported(scene: Scene, state: str, updated: datetime, count: int) -> list[UUID]:
    views = []
    for _ in range(count):
        schedule_id = uuid4()
        record = ScheduleRecord(
            schedule_id,
            ALICE.owner,
            state,
            None,
            1,
            updated + timedelta(days=1) if state == "ACTIVE" else None,
            0,
            updated - timedelta(days=5),
            updated,
        )
        views.append(ScheduleView(record, RevisionRecord(schedule_id, 1, "{}", "alice", updated)))
    scene.store.schedules.import_many(views)
    return [view.schedule.schedule_id for view in views]


def test_terminal_schedules_past_thirty_days_are_purged_in_batches_and_sessions_stay(
    scene: Scene, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock.now = NOW - timedelta(days=60)
    fired = scene.create().schedule.schedule_id
    due_at = scene.schedule(fired).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=5)
    scene.scan()
    scene.settle_queued()
    clock.advance(hours=23)  # cancelled before its next instant, which it would decide first
    scene.service.cancel(ALICE, fired, 1)
    once = scene.create(cadence={"kind": "ONCE", "at": (clock() + timedelta(hours=1)).isoformat()})
    clock.advance(hours=1, seconds=5)
    scene.scan()
    assert scene.schedule(once.schedule.schedule_id).state == "COMPLETED"
    expired = [fired, once.schedule.schedule_id]
    expired += _imported(scene, "CANCELLED", NOW - timedelta(days=31), IMPORTED)
    kept = _imported(scene, "COMPLETED", NOW - timedelta(days=29), 3)
    kept += _imported(scene, "ACTIVE", NOW - timedelta(days=90), 2)
    sessions_and_runs = (scene.count("sessions"), scene.count("runs"))
    assert sessions_and_runs == (2, 2)
    assert scene.count("schedule_idempotency_keys") == 2

    batches: list[int] = []
    purge = scene.store.schedules.purge_terminal

    def counted(before: datetime, limit: int) -> int:
        deleted = purge(before, limit)
        batches.append(deleted)
        return deleted

    monkeypatch.setattr(scene.store.schedules, "purge_terminal", counted)
    assert purge_expired(scene.store, NOW) == len(expired)

    assert batches == [BATCH, BATCH, len(expired) - 2 * BATCH]
    assert all(scene.store.schedules.get(ALICE.owner, i) is None for i in expired)
    assert all(scene.store.schedules.revisions(i) == [] for i in expired)
    assert all(scene.store.schedules.get(ALICE.owner, i) is not None for i in kept)
    assert scene.count("schedule_occurrences") == 0
    assert scene.count("schedule_idempotency_keys") == 0
    assert (scene.count("sessions"), scene.count("runs")) == sessions_and_runs
    assert scene.events(fired), "the audit log stays"
    assert purge_expired(scene.store, NOW) == 0
