"""A projection's past says how each firing's run stands, on SQLite and PostgreSQL.

A failed run is not a success: its occurrence reads ``run_status: "FAILED"``
with the failure reason; an occurrence whose session was erased links no run
and reads null. Runs are carried out by the real dispatcher at the scene's clock.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import httpx
import pytest

from server.domain.states import Disposition
from server.storage.records import Materialization, OccurrenceRecord
from tests.server.api.conftest import Clock
from tests.server.scene import Scene

pytestmark = pytest.mark.each_backend

DAY_1 = datetime(2026, 12, 1, 8, tzinfo=UTC)
"""The default definition fires daily at 09:00 Paris: 08:00 UTC in December."""


async def _past(client: httpx.AsyncClient, schedule_id: UUID) -> list[dict[str, Any]]:
    response = await client.get(
        f"/v1/schedules/{schedule_id}/projection",
        params={"from": "2026-12-01T00:00:00Z", "to": "2026-12-05T00:00:00Z"},
    )
    assert response.status_code == 200, response.text
    # The recorded entries only: an instant nothing recorded is ``expected``.
    past: list[dict[str, Any]] = [p for p in response.json()["past"] if not p["expected"]]
    return past


async def test_a_failed_runs_firing_reads_run_status_failed_in_the_past(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create().schedule.schedule_id
    clock.now = DAY_1 + timedelta(seconds=30)
    assert scene.scan().written == 1
    assert len(scene.start_queued()) == 1
    clock.advance(seconds=301)  # past the run's 300 s limit
    assert await scene.dispatcher().dispatch_once() == 1
    clock.now = DAY_1 + timedelta(days=1, seconds=30)
    assert scene.scan().written == 1
    assert len(await scene.carry_out_queued()) == 1
    clock.now = DAY_1 + timedelta(days=2, seconds=30)
    assert scene.scan().written == 1

    past = await _past(client, schedule_id)

    assert [(p["disposition"], p["run_status"], p["failure_reason"]) for p in past] == [
        ("MATERIALIZED", "FAILED", "deadline_exceeded"),
        ("MATERIALIZED", "COMPLETED", None),
        ("MATERIALIZED", "QUEUED", None),
    ]


async def test_an_erased_sessions_firing_reads_run_status_null(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create().schedule.schedule_id
    fired = DAY_1 + timedelta(seconds=4)
    erased = OccurrenceRecord(
        occurrence_id=uuid4(),
        schedule_id=schedule_id,
        schedule_revision=1,
        nominal_fire_at=DAY_1,
        disposition=Disposition.MATERIALIZED,
        session_id=None,
        run_id=None,
        reason_code=None,
        authority_version="v1",
        materialized_at=fired,
        links_erased_at=fired + timedelta(days=1),
        created_at=fired,
    )
    scene.store.occurrences.record(Materialization(erased))
    skipped = replace(
        erased,
        occurrence_id=uuid4(),
        nominal_fire_at=DAY_1 + timedelta(days=1),
        disposition=Disposition.SKIPPED_OVERLAP,
        reason_code="previous_run_in_flight",
        materialized_at=None,
        links_erased_at=None,
    )
    scene.store.occurrences.record(Materialization(skipped))
    clock.now = DAY_1 + timedelta(days=3)

    past = await _past(client, schedule_id)

    assert [(p["disposition"], p["session_id"], p["run_status"]) for p in past] == [
        ("MATERIALIZED", None, None),
        ("SKIPPED_OVERLAP", None, None),
    ]
    assert [p["failure_reason"] for p in past] == [None, None]
