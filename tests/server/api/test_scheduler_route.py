"""``GET /v1/scheduler``: running, late, stopped by the newest heartbeat; the caller's backlog.

The app here runs no scheduler (as a ``--no-worker`` replica): the route
answers from the heartbeat rows other replicas write, on both backends.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest

from server.app import create_app
from server.control.scheduler_status import SchedulerWatch
from server.identity import TokenDirectory, make_principal, token_digest
from server.storage.records import Heartbeat
from server.storage.sql.store import SqlStore
from server.worker.heartbeat import this_replica
from tests.clock import NOW, Clock
from tests.server.api.conftest import as_, create, definition

pytestmark = pytest.mark.each_backend


def _beat(store: SqlStore, at: Any) -> None:
    store.replicas.tick(Heartbeat(this_replica(at), at))


async def _status(client: httpx.AsyncClient, caller: str = "alice") -> dict[str, Any]:
    response = await client.get("/v1/scheduler", headers=as_(caller))
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    body: dict[str, Any] = response.json()
    return body


async def test_no_replica_ever_ticked_reads_stopped(client: httpx.AsyncClient) -> None:
    assert await _status(client) == {
        "state": "stopped",
        "last_tick_at": None,
        "replicas_running": 0,
        "oldest_due_at": None,
        "due_backlog": 0,
    }


async def test_running_until_30_s_silent_then_late_then_stopped_past_2_minutes(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    _beat(store, clock.now)
    expected = [(30, "running", 1), (31, "late", 0), (120, "late", 0), (121, "stopped", 0)]
    for seconds, state, running in expected:
        clock.now = NOW + timedelta(seconds=seconds)
        status = await _status(client)
        assert (status["state"], status["replicas_running"]) == (state, running), seconds
        assert status["last_tick_at"] == "2026-11-30T09:00:00Z"


async def test_the_newest_replica_decides_and_each_fresh_one_counts(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    _beat(store, clock.now - timedelta(minutes=5))  # killed a while ago
    _beat(store, clock.now - timedelta(seconds=4))
    _beat(store, clock.now - timedelta(seconds=1))
    status = await _status(client)
    assert (status["state"], status["replicas_running"]) == ("running", 2)
    assert status["last_tick_at"] == "2026-11-30T08:59:59Z"


async def test_the_backlog_is_the_callers_own_and_names_no_host(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    at = (clock.now + timedelta(seconds=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
    later = (clock.now + timedelta(seconds=90)).strftime("%Y-%m-%dT%H:%M:%SZ")
    await create(client, cadence={"kind": "ONCE", "at": at})
    await create(client, cadence={"kind": "ONCE", "at": later})
    carols = await client.post(
        "/v1/schedules",
        json=definition(cadence={"kind": "ONCE", "at": at}),
        headers={**as_("carol"), "Idempotency-Key": "carol-1"},
    )
    assert carols.status_code == 201
    _beat(store, clock.now)
    clock.advance(seconds=60)
    mine = await _status(client)
    assert (mine["due_backlog"], mine["oldest_due_at"]) == (1, at)
    clock.advance(seconds=60)
    assert (await _status(client))["due_backlog"] == 2
    assert (await _status(client, "mallory"))["due_backlog"] == 0, "another tenant's"
    assert (await _status(client, "carol"))["due_backlog"] == 1, "another principal's"
    host = store.replicas.ticks()[0].replica.host
    response = await client.get("/v1/scheduler")
    assert host not in response.text
    assert set(response.json()) == {
        "state",
        "last_tick_at",
        "replicas_running",
        "oldest_due_at",
        "due_backlog",
    }


def _served(
    store: SqlStore, clock: Clock, scopes: frozenset[str], watch: SchedulerWatch | None = None
) -> httpx.AsyncClient:
    """A client of an app whose one caller holds ``scopes``, with ``watch`` if given."""
    caller = make_principal(principal_id="pat", tenant_id="acme", display_name="P", scopes=scopes)
    directory = TokenDirectory([(token_digest("token-pat"), caller)])
    app = create_app(store, directory, clock, watch=watch or SchedulerWatch())
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://server",
        headers={"Authorization": "Bearer token-pat"},
    )


async def test_the_late_and_stopped_thresholds_are_server_settings(
    store: SqlStore, clock: Clock
) -> None:
    watch = SchedulerWatch(late_after=timedelta(seconds=6), stopped_after=timedelta(seconds=9))
    _beat(store, clock.now)
    states = []
    async with _served(store, clock, frozenset({"schedule.read"}), watch) as client:
        for seconds in (6, 7, 10):
            clock.now = NOW + timedelta(seconds=seconds)
            states.append((await client.get("/v1/scheduler")).json()["state"])
    assert states == ["running", "late", "stopped"]


async def test_a_token_without_schedule_read_is_refused(store: SqlStore, clock: Clock) -> None:
    async with _served(store, clock, frozenset({"session.read"})) as client:
        response = await client.get("/v1/scheduler")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "auth.scope_missing"
