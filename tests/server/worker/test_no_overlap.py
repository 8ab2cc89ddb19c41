"""gate.schedule.no_overlap: a schedule whose run is still active skips its next instant once."""

from __future__ import annotations

from datetime import timedelta

from tests.server.api.conftest import Clock
from tests.server.scene import Scene


def test_a_held_run_makes_the_next_instant_skipped_once_and_another_schedule_still_fires(
    scene: Scene, clock: Clock
) -> None:
    # Its run may last a day (the longest timeout), so it is in flight at the next instant.
    held = scene.create(title="Held", run_timeout_seconds=86400).schedule.schedule_id
    first = scene.schedule(held).next_fire_at
    assert first is not None
    clock.now = first + timedelta(minutes=1)
    assert scene.scan().written == 1
    (materialized,) = scene.ledger(held)
    assert materialized.run_id is not None
    run_before = scene.store.runs.get(materialized.run_id)

    # A second schedule, due at the next instant alongside the held one.
    clock.now = first + timedelta(hours=12)
    other = scene.create(title="Other").schedule.schedule_id
    clock.now = first + timedelta(days=1, seconds=5)
    report = scene.scan()
    assert report.written == 2

    skipped = scene.ledger(held)[-1]
    assert skipped.disposition == "SKIPPED_OVERLAP"
    assert skipped.reason_code == "previous_run_in_flight"
    assert skipped.nominal_fire_at == first + timedelta(days=1)
    assert (skipped.session_id, skipped.run_id) == (None, None)
    assert scene.store.runs.get(materialized.run_id) == run_before, "the held run is left alone"
    assert len(scene.events(held, "schedule.occurrence.skipped_overlap")) == 1
    assert scene.schedule(held).consecutive_failures == 0, "an overlap is not a failure"
    assert scene.schedule(held).next_fire_at == first + timedelta(days=2)
    assert [o.disposition for o in scene.ledger(other)] == ["MATERIALIZED"]
    assert scene.count("runs") == 2

    # Scanning again at the same instant records nothing more.
    assert scene.scan().written == 0
    assert len(scene.ledger(held)) == 2

    # Once the held run ends, the next instant materializes again.
    scene.settle_queued()
    clock.now = first + timedelta(days=2, seconds=5)
    scene.scan()
    assert scene.ledger(held)[-1].disposition == "MATERIALIZED"
