"""gate.schedule.cancel_separate: cancelling a schedule leaves its already created run alone."""

from __future__ import annotations

from datetime import timedelta

from tests.server.api.conftest import Clock
from tests.server.scene import ALICE, Scene


def test_cancel_stops_future_occurrences_and_leaves_the_created_run_to_finish(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create().schedule.schedule_id
    first = scene.schedule(schedule_id).next_fire_at
    assert first is not None
    clock.now = first + timedelta(seconds=5)
    scene.scan()
    (occurrence,) = scene.ledger(schedule_id)
    assert occurrence.run_id is not None
    run_before = scene.store.runs.get(occurrence.run_id)

    clock.advance(minutes=1)
    cancelled = scene.service.cancel(ALICE, schedule_id, 1)
    assert cancelled.schedule.state == "CANCELLED"
    assert scene.store.runs.get(occurrence.run_id) == run_before, "still QUEUED, untouched"

    assert scene.scan(first + timedelta(days=3, seconds=5)).written == 0
    assert len(scene.ledger(schedule_id)) == 1

    # The run is still carried out (before its deadline, as a live dispatcher
    # does), and its accounting does not reopen the schedule.
    assert scene.settle_queued() == [occurrence.run_id]
    run_after = scene.store.runs.get(occurrence.run_id)
    assert run_after is not None and run_after.status == "COMPLETED"
    record = scene.schedule(schedule_id)
    assert (record.state, record.next_fire_at) == ("CANCELLED", None)
    messages = scene.store.sessions.visible_messages(ALICE.owner, run_after.session_id, None, 10)
    assert [m.role for m in messages] == ["assistant"]
