"""Overdue: a firing undecided 60 s past due carries ``overdue_since`` and needs attention.

No scheduler runs here, so due firings wait as they would with it stopped;
the worker's scan, run by hand, decides them. On SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest

from server.app import create_app
from server.control.scheduler_status import SchedulerWatch
from server.identity import ALL_SCOPES, TokenDirectory, make_principal, token_digest
from server.storage.sql.store import SqlStore
from server.worker.worker import ScheduleWorker
from tests.clock import Clock
from tests.server.api.conftest import create

pytestmark = pytest.mark.each_backend

DUE_IN = 30


async def _due_soon(client: httpx.AsyncClient, clock: Clock, title: str = "Due soon") -> str:
    at = (clock.now + timedelta(seconds=DUE_IN)).strftime("%Y-%m-%dT%H:%M:%SZ")
    created = await create(client, title=title, cadence={"kind": "ONCE", "at": at})
    schedule_id: str = created["schedule_id"]
    return schedule_id


async def _listed(client: httpx.AsyncClient, **params: Any) -> dict[str, dict[str, Any]]:
    response = await client.get("/v1/schedules", params=params)
    assert response.status_code == 200, response.text
    return {item["title"]: item for item in response.json()["items"]}


async def _detail(client: httpx.AsyncClient, schedule_id: str) -> dict[str, Any]:
    response = await client.get(f"/v1/schedules/{schedule_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_a_firing_undecided_60_s_past_due_reads_overdue_since_its_due_instant(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    schedule_id = await _due_soon(client, clock)
    due_at = (await _detail(client, schedule_id))["next_fire_at"]
    clock.advance(seconds=DUE_IN + 60)
    assert "overdue_since" not in await _detail(client, schedule_id), "60 s: not yet"
    assert "overdue_since" not in (await _listed(client))["Due soon"]
    clock.advance(seconds=1)
    assert (await _detail(client, schedule_id))["overdue_since"] == due_at
    assert (await _listed(client))["Due soon"]["overdue_since"] == due_at


async def test_needs_attention_lists_and_counts_overdue_schedules(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    await _due_soon(client, clock, "Late one")
    await create(client, title="Fine one")
    assert await _listed(client, needs_attention="true") == {}
    assert (await client.get("/v1/schedules/counts")).json()["needs_attention"] == 0
    clock.advance(seconds=DUE_IN + 61)
    assert list(await _listed(client, needs_attention="true")) == ["Late one"]
    counts = (await client.get("/v1/schedules/counts")).json()
    assert counts == {"current": 2, "history": 0, "needs_attention": 1}
    searched = await client.get("/v1/schedules/counts", params={"q": "fine"})
    assert searched.json()["needs_attention"] == 0


async def test_a_decided_firing_is_overdue_no_longer(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    schedule_id = await _due_soon(client, clock)
    clock.advance(minutes=5)
    assert "overdue_since" in await _detail(client, schedule_id)
    assert ScheduleWorker(store, _directory()).run_once(clock.now).written == 1
    assert "overdue_since" not in await _detail(client, schedule_id)
    assert await _listed(client, needs_attention="true") == {}


async def test_a_paused_schedule_is_never_overdue(client: httpx.AsyncClient, clock: Clock) -> None:
    schedule_id = await _due_soon(client, clock)
    paused = await client.post(f"/v1/schedules/{schedule_id}/pause", json={"expected_revision": 1})
    assert paused.status_code == 200, paused.text
    clock.advance(minutes=5)
    assert "overdue_since" not in await _detail(client, schedule_id)


async def test_the_overdue_threshold_is_a_server_setting(store: SqlStore, clock: Clock) -> None:
    watch = SchedulerWatch(overdue_after=timedelta(seconds=10))
    app = create_app(store, _directory(), clock, watch=watch)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://server",
        headers={"Authorization": "Bearer token-alice"},
    ) as client:
        schedule_id = await _due_soon(client, clock)
        clock.advance(seconds=DUE_IN + 11)
        assert "overdue_since" in await _detail(client, schedule_id)


def _directory() -> TokenDirectory:
    alice = make_principal(
        principal_id="alice", tenant_id="acme", display_name="Alice", scopes=ALL_SCOPES
    )
    return TokenDirectory([(token_digest("token-alice"), alice)])
