"""An edit committed after a due instant never erases it, on a server without a worker.

The app here runs no worker (``schedule-server serve --no-worker``): the due
instant is decided by the request itself, with the revision current at it,
before the change applies to future instants. A worker that starts later
finds nothing left to decide for that instant.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx

from server.storage.sql.store import SqlStore
from server.worker.worker import ScheduleWorker
from tests.server.api.conftest import NOW, Clock, create, definition_of, error_code
from tests.server.scene import ALICE, directory

ONCE_IN_4_S = {"kind": "ONCE", "at": (NOW + timedelta(seconds=4)).strftime("%Y-%m-%dT%H:%M:%SZ")}
DAILY_9_UTC = {"kind": "DAILY", "local_time": "09:00:05", "timezone": "UTC"}


async def _occurrences(client: httpx.AsyncClient, schedule_id: str) -> list[dict[str, Any]]:
    response = await client.get(f"/v1/schedules/{schedule_id}/occurrences")
    assert response.status_code == 200
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def _worker_pass(store: SqlStore, clock: Clock) -> int:
    """A worker starting later (a restart with the worker): what it still writes."""
    worker = ScheduleWorker(store, directory(ALICE))
    worker.repair_missing_next_fire(clock())
    return worker.run_once(clock()).written


async def _renamed_after(
    client: httpx.AsyncClient, clock: Clock, cadence: dict[str, str], seconds: int
) -> tuple[str, httpx.Response]:
    """A schedule created at NOW and renamed ``seconds`` later: its id and the PATCH's answer."""
    created = await create(client, cadence=cadence)
    schedule_id: str = created["schedule_id"]
    clock.advance(seconds=seconds)
    renamed = {**definition_of(created), "title": "Renamed"}
    response = await client.patch(
        f"/v1/schedules/{schedule_id}", json={"expected_revision": 1, "definition": renamed}
    )
    return schedule_id, response


async def _pause(
    client: httpx.AsyncClient, schedule_id: str, expected_revision: int = 1
) -> httpx.Response:
    return await client.post(
        f"/v1/schedules/{schedule_id}/pause", json={"expected_revision": expected_revision}
    )


async def test_a_once_schedule_patched_6_s_after_it_came_due_still_fires_once(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    schedule_id, response = await _renamed_after(client, clock, ONCE_IN_4_S, seconds=10)
    # The instant was decided first and completed the ONCE: the edit came too late.
    assert response.status_code == 409
    assert error_code(response) == "schedule.terminal"
    (occurrence,) = await _occurrences(client, schedule_id)
    assert occurrence["disposition"] == "MATERIALIZED"
    assert occurrence["schedule_revision"] == 1
    assert occurrence["nominal_fire_at"] == ONCE_IN_4_S["at"]
    detail = (await client.get(f"/v1/schedules/{schedule_id}")).json()
    assert (detail["state"], detail["next_fire_at"]) == ("COMPLETED", None)
    assert _worker_pass(store, clock) == 0
    assert len(await _occurrences(client, schedule_id)) == 1


async def test_a_daily_schedule_patched_after_its_due_instant_fires_that_day_with_the_old_revision(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    schedule_id, response = await _renamed_after(client, clock, DAILY_9_UTC, seconds=11)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["current_revision"] == 2
    assert body["next_fire_at"] == "2026-12-01T09:00:05Z"
    (occurrence,) = await _occurrences(client, schedule_id)
    assert (occurrence["schedule_revision"], occurrence["disposition"]) == (1, "MATERIALIZED")
    assert occurrence["nominal_fire_at"] == "2026-11-30T09:00:05Z"
    assert _worker_pass(store, clock) == 0


async def test_pause_and_cancel_after_the_due_instant_decide_it_first(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    paused = await create(client, cadence=DAILY_9_UTC)
    cancelled = await create(client, cadence=DAILY_9_UTC)
    clock.advance(seconds=30)
    response = await _pause(client, paused["schedule_id"])
    assert response.status_code == 200 and response.json()["state"] == "PAUSED"
    response = await client.delete(
        f"/v1/schedules/{cancelled['schedule_id']}", params={"expected_revision": 1}
    )
    assert response.status_code == 200 and response.json()["state"] == "CANCELLED"
    for schedule in (paused, cancelled):
        (occurrence,) = await _occurrences(client, schedule["schedule_id"])
        assert occurrence["nominal_fire_at"] == "2026-11-30T09:00:05Z"


async def test_an_edit_past_the_grace_records_the_due_instant_missed(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    created = await create(client, cadence=DAILY_9_UTC, misfire_grace_seconds=60)
    clock.advance(minutes=5)
    response = await _pause(client, created["schedule_id"])
    assert response.status_code == 200
    (occurrence,) = await _occurrences(client, created["schedule_id"])
    assert (occurrence["disposition"], occurrence["reason_code"]) == (
        "MISSED",
        "misfire_grace_exceeded",
    )


async def test_a_stale_edit_is_refused_but_the_due_instant_is_still_decided(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    created = await create(client, cadence=DAILY_9_UTC)
    clock.advance(seconds=30)
    response = await _pause(client, created["schedule_id"], expected_revision=7)
    assert error_code(response) == "schedule.revision_conflict"
    assert len(await _occurrences(client, created["schedule_id"])) == 1
    detail = (await client.get(f"/v1/schedules/{created['schedule_id']}")).json()
    assert (detail["state"], detail["current_revision"]) == ("ACTIVE", 1)
    assert detail["next_fire_at"] == "2026-12-01T09:00:05Z"


async def test_moving_a_once_instant_into_the_past_is_refused(
    client: httpx.AsyncClient,
) -> None:
    created = await create(client, cadence=ONCE_IN_4_S)
    past = {"kind": "ONCE", "at": (NOW - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")}
    response = await client.patch(
        f"/v1/schedules/{created['schedule_id']}",
        json={"expected_revision": 1, "definition": {**definition_of(created), "cadence": past}},
    )
    assert response.status_code == 422
    assert response.json()["error"]["details"]["field"] == "cadence.at"


async def test_resuming_a_once_whose_instant_passed_while_paused_is_refused(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    created = await create(client, cadence=ONCE_IN_4_S)
    schedule_id = created["schedule_id"]
    paused = await _pause(client, schedule_id)
    assert paused.status_code == 200
    clock.advance(minutes=1)
    response = await client.post(
        f"/v1/schedules/{schedule_id}/resume", json={"expected_revision": 1}
    )
    assert response.status_code == 422
    detail = (await client.get(f"/v1/schedules/{schedule_id}")).json()
    assert (detail["state"], detail["next_fire_at"]) == ("PAUSED", None)
