"""A stored definition that cannot be materialized is recorded once, never retried for ever.

Rows are broken directly in the store, as an older server or a hand edit
could leave them; each case runs on SQLite and on PostgreSQL.

- A definition the validator now refuses (here: U+0000 in the title, which
  PostgreSQL could not even write into a session) is recorded
  CONFIGURATION_FAILED ``definition_invalid`` at its first attempt, the same
  on both databases.
- A cadence that no longer reads has no instant to move on to: after
  ``GIVE_UP_AFTER`` failed attempts, spaced by the worker's bounded backoff,
  the cached instant is recorded CONFIGURATION_FAILED ``cadence_unreadable``
  and the schedule pauses (``failure_limit``); later scans leave it alone.
- An ACTIVE schedule without a ``next_fire_at`` is repaired when the worker
  starts (``schedule.next_fire_repaired``), and the instant it owed is then
  decided like any due one.
"""

from __future__ import annotations

import json
from datetime import timedelta
from uuid import UUID

import pytest
from sqlalchemy import text

from server.worker.worker import GIVE_UP_AFTER
from tests.server.api.conftest import NOW
from tests.server.scene import Scene

DAILY = {"kind": "DAILY", "local_time": "09:30:00", "timezone": "UTC"}


pytestmark = pytest.mark.each_backend


def _rewrite_definition(scene: Scene, schedule_id: UUID, **changes: object) -> None:
    view = scene.store.schedules.get(scene.schedule(schedule_id).owner, schedule_id)
    assert view is not None
    stored = json.loads(view.revision.definition)
    stored.update(changes)
    with scene.store.engine.begin() as connection:
        connection.execute(
            text("UPDATE schedule_revisions SET definition = :d WHERE schedule_id = :s"),
            {"d": json.dumps(stored), "s": schedule_id.hex if _is_sqlite(scene) else schedule_id},
        )


def _is_sqlite(scene: Scene) -> bool:
    return scene.store.engine.dialect.name == "sqlite"


def test_a_stored_title_with_u0000_is_recorded_configuration_failed_on_either_database(
    scene: Scene,
) -> None:
    schedule_id = scene.create(cadence=DAILY, max_consecutive_failures=5).schedule.schedule_id
    _rewrite_definition(scene, schedule_id, title="Digest\x00")
    scene.clock.advance(minutes=31)
    report = scene.scan()
    assert (report.written, report.failed) == (1, 0)
    (occurrence,) = scene.ledger(schedule_id)
    assert (occurrence.disposition, occurrence.reason_code) == (
        "CONFIGURATION_FAILED",
        "definition_invalid",
    )
    assert scene.count("runs") == 0


def test_an_unreadable_cadence_is_recorded_once_after_bounded_retries_and_pauses(
    scene: Scene,
) -> None:
    created = scene.create(cadence=DAILY)
    schedule_id = created.schedule.schedule_id
    cached = created.schedule.next_fire_at
    _rewrite_definition(scene, schedule_id, cadence={"kind": "DAILY", "local_time": "noon"})
    worker = scene.worker()
    scene.clock.advance(minutes=31)
    for attempt in range(1, GIVE_UP_AFTER + 1):
        report = worker.run_once(scene.clock())
        assert report.failed == 1, f"attempt {attempt}"
        if attempt < GIVE_UP_AFTER:
            assert scene.ledger(schedule_id) == []
            assert report.retry_at is not None
            scene.clock.now = report.retry_at
    (occurrence,) = scene.ledger(schedule_id)
    assert (occurrence.nominal_fire_at, occurrence.disposition, occurrence.reason_code) == (
        cached,
        "CONFIGURATION_FAILED",
        "cadence_unreadable",
    )
    record = scene.schedule(schedule_id)
    assert (record.state, record.pause_reason, record.next_fire_at) == (
        "PAUSED",
        "failure_limit",
        None,
    )
    assert scene.events(schedule_id, "schedule.auto_paused")
    scene.clock.advance(days=2)
    assert worker.run_once(scene.clock()).failed == 0
    assert len(scene.ledger(schedule_id)) == 1


def test_an_active_schedule_without_a_next_firing_is_repaired_at_start_and_then_decided(
    scene: Scene,
) -> None:
    at = NOW + timedelta(minutes=5)
    once = {"kind": "ONCE", "at": at.strftime("%Y-%m-%dT%H:%M:%SZ")}
    schedule_id = scene.create(cadence=once, misfire_grace_seconds=60).schedule.schedule_id
    with scene.store.engine.begin() as connection:  # what an older server's edit left behind
        connection.execute(text("UPDATE schedules SET next_fire_at = NULL"))
    scene.clock.advance(hours=1)
    worker = scene.worker()
    assert worker.repair_missing_next_fire(scene.clock()) == 1
    (repaired,) = scene.events(schedule_id, "schedule.next_fire_repaired")
    assert repaired.payload["next_fire_at"] == at.isoformat()
    assert scene.schedule(schedule_id).next_fire_at == at
    worker.run_once(scene.clock())
    (occurrence,) = scene.ledger(schedule_id)
    assert (occurrence.nominal_fire_at, occurrence.disposition) == (at, "MISSED")
    assert scene.schedule(schedule_id).state == "COMPLETED"
    assert worker.repair_missing_next_fire(scene.clock()) == 0
