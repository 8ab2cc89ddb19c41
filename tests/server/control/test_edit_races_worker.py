"""An edit racing the worker for the same due instant: decided once, by whichever holds it first.

Twenty schedules come due at one instant; a worker scans in one thread while
another pauses, updates or cancels every one of them. Whoever holds a
schedule's row first decides the instant, the other finds it decided, so
each schedule ends with exactly one occurrence for that instant, with
revision 1, and every change applied after it. Runs on SQLite and
PostgreSQL.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from server.storage.jsontext import load_object
from tests.server.scene import ALICE, Scene

SCHEDULES = 20
DAILY = {"kind": "DAILY", "local_time": "09:30:00", "timezone": "UTC"}


pytestmark = pytest.mark.each_backend


def test_edits_racing_a_worker_leave_each_due_instant_decided_exactly_once(scene: Scene) -> None:
    created = [scene.create(cadence=DAILY, title=f"Schedule {i}") for i in range(SCHEDULES)]
    due = created[0].schedule.next_fire_at
    assert due is not None
    scene.clock.advance(minutes=31)
    worker = scene.worker()
    scanning = threading.Thread(target=lambda: worker.run_once(scene.clock()))
    scanning.start()
    for index, view in enumerate(created):
        schedule_id = view.schedule.schedule_id
        match index % 3:
            case 0:
                scene.service.pause(ALICE, schedule_id, 1)
            case 1:
                definition = {**load_object(view.revision.definition), "title": "Renamed"}
                scene.service.update(ALICE, schedule_id, 1, definition)
            case _:
                scene.service.cancel(ALICE, schedule_id, 1)
    scanning.join(timeout=60)
    assert not scanning.is_alive()
    for index, view in enumerate(created):
        schedule_id = view.schedule.schedule_id
        ledger = scene.ledger(schedule_id)
        assert [(o.nominal_fire_at, o.schedule_revision) for o in ledger] == [(due, 1)]
        record = scene.schedule(schedule_id)
        assert record.state == ("PAUSED", "ACTIVE", "CANCELLED")[index % 3]
        if record.state == "ACTIVE":
            assert record.current_revision == 2
            assert record.next_fire_at == due + timedelta(days=1)
    assert scene.count("runs") == SCHEDULES
