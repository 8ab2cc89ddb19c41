"""The due instant a change decides first is the worker's decision, except that it cannot wait.

Where the worker would hold a schedule for capacity (the owner's active-run
cap), a change that is about to move ``next_fire_at`` on records the instant
MISSED (``active_run_limit``) rather than erase it.
"""

from __future__ import annotations

from server.control.service import ScheduleService
from server.firing.admission import Admission
from tests.server.scene import ALICE, Scene

DAILY = {"kind": "DAILY", "local_time": "09:30:00", "timezone": "UTC"}


def test_a_change_over_the_active_run_cap_records_the_due_instant_missed(scene: Scene) -> None:
    service = ScheduleService(
        scene.store, scene.clock, identity=scene.identity, admission=Admission(max_active_runs=1)
    )
    first = scene.create(cadence=DAILY, title="First").schedule.schedule_id
    second = scene.create(cadence=DAILY, title="Second").schedule.schedule_id
    scene.clock.advance(minutes=31)
    service.pause(ALICE, first, 1)  # fires: the owner's one active run
    service.pause(ALICE, second, 1)  # the cap is reached: the instant is recorded, not erased
    (fired,) = scene.ledger(first)
    (held,) = scene.ledger(second)
    assert fired.disposition == "MATERIALIZED"
    assert (held.disposition, held.reason_code) == ("MISSED", "active_run_limit")
    assert held.nominal_fire_at == fired.nominal_fire_at
    assert scene.count("runs") == 1
