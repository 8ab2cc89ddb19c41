"""Each write that starts or ends a schedule's ACTIVE span keeps it on the row, on both databases.

Created, resumed or edited: ``active_since`` is that instant and
``active_until`` is NULL; paused, cancelled, completed or paused after
failures (by the scheduler's batch or at a run's end): ``active_until`` is
that instant, and a cancel after a pause keeps the pause's. The projection
reads the span from the row: with the audit log emptied it still expects
only what fell after the last resume.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from sqlalchemy import delete

from server.control.projection import project
from server.definitions.checks import parse_definition
from server.storage.tables import audit_events
from server.worker.executor import RunResult
from tests.clock import Clock
from tests.server.api.conftest import definition
from tests.server.scene import ALICE, Scene

pytestmark = pytest.mark.each_backend

CREATED = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)  # the scene's clock; daily 08:00 UTC
FAILED = RunResult.failed("EXECUTOR_ERROR", "The agent stopped.")


def _span(scene: Scene, schedule_id: UUID) -> tuple[datetime | None, datetime | None]:
    record = scene.schedule(schedule_id)
    return record.active_since, record.active_until


def test_create_pause_resume_and_edit_move_the_span(scene: Scene, clock: Clock) -> None:
    view = scene.create()
    schedule_id = view.schedule.schedule_id
    assert _span(scene, schedule_id) == (CREATED, None)

    clock.now = CREATED + timedelta(hours=1)
    scene.service.pause(ALICE, schedule_id, 1)
    assert _span(scene, schedule_id) == (CREATED, clock.now)

    clock.now = CREATED + timedelta(days=2)
    scene.service.resume(ALICE, schedule_id, 1)
    assert _span(scene, schedule_id) == (clock.now, None)

    clock.now = CREATED + timedelta(days=3)
    edited = scene.service.update(ALICE, schedule_id, 1, definition(title="Renamed"))
    assert edited.schedule.current_revision == 2
    assert _span(scene, schedule_id) == (clock.now, None)


def test_a_cancel_after_a_pause_keeps_the_pauses_end(scene: Scene, clock: Clock) -> None:
    schedule_id = scene.create().schedule.schedule_id
    paused_at = CREATED + timedelta(hours=1)
    clock.now = paused_at
    scene.service.pause(ALICE, schedule_id, 1)
    clock.now = CREATED + timedelta(days=4)
    scene.service.cancel(ALICE, schedule_id, 1)

    assert _span(scene, schedule_id) == (CREATED, paused_at)


def test_the_scheduler_ends_the_span_of_a_completed_once(scene: Scene, clock: Clock) -> None:
    schedule_id = scene.create(
        cadence={"kind": "ONCE", "at": "2026-12-01T10:00:00Z"}
    ).schedule.schedule_id
    clock.now = datetime(2026, 12, 1, 10, 0, 5, tzinfo=UTC)
    assert scene.scan().written == 1

    assert scene.schedule(schedule_id).state == "COMPLETED"
    assert _span(scene, schedule_id) == (CREATED, clock.now)


def test_the_scheduler_ends_the_span_of_a_schedule_paused_after_a_missed_firing(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create(
        max_consecutive_failures=1, misfire_grace_seconds=60
    ).schedule.schedule_id
    clock.now = datetime(2026, 12, 1, 8, 2, tzinfo=UTC)
    assert scene.scan().written == 1

    assert scene.schedule(schedule_id).state == "PAUSED"
    assert _span(scene, schedule_id) == (CREATED, clock.now)


def test_a_failed_runs_end_ends_the_span_when_it_pauses_the_schedule(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create(max_consecutive_failures=1).schedule.schedule_id
    clock.now = datetime(2026, 12, 1, 8, 0, 5, tzinfo=UTC)
    assert scene.scan().written == 1
    (run,) = scene.start_queued()
    clock.advance(seconds=10)
    assert scene.dispatcher().settle(run, FAILED, clock())

    assert scene.schedule(schedule_id).state == "PAUSED"
    assert _span(scene, schedule_id) == (CREATED, clock.now)


def test_the_projection_reads_the_span_from_the_row_not_the_audit_log(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create().schedule.schedule_id
    clock.now = CREATED + timedelta(hours=1)
    scene.service.pause(ALICE, schedule_id, 1)
    clock.now = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    scene.service.resume(ALICE, schedule_id, 1)
    with scene.store.engine.begin() as connection:
        connection.execute(delete(audit_events))
    clock.now = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
    view = scene.store.schedules.get(ALICE.owner, schedule_id)
    assert view is not None

    found = project(
        scene.store,
        view,
        parse_definition(definition()).cadence,
        CREATED,
        clock.now,
        clock.now,
    )

    assert found.expected == (
        datetime(2026, 12, 4, 8, 0, tzinfo=UTC),
        datetime(2026, 12, 5, 8, 0, tzinfo=UTC),
    )
