"""``GET /metrics``: off by default, loopback-only on the API port, and figures that are true.

The app runs in-process over a temporary SQLite file with a settable clock;
its worker is the real ``ScheduleWorker`` with the metrics as its observer.
"""

from __future__ import annotations

import ipaddress
from collections.abc import AsyncIterator
from datetime import timedelta
from uuid import uuid4

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from server.api.metrics import ServerMetrics
from server.app import create_app
from server.identity import ALL_SCOPES, TokenDirectory, make_principal, token_digest
from server.storage.sql.store import SqlStore
from server.worker.heartbeat import Pulse, this_replica
from server.worker.worker import ScheduleWorker
from tests.server.api.conftest import Clock, definition

TOKEN = "token-alice"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def directory() -> TokenDirectory:
    alice = make_principal(
        principal_id="alice", tenant_id="acme", display_name="Alice", scopes=ALL_SCOPES
    )
    return TokenDirectory([(token_digest(TOKEN), alice)])


def client_for(
    store: SqlStore,
    clock: Clock,
    metrics: ServerMetrics | None,
    *,
    route: bool = True,
    peer: str = "127.0.0.1",
    proxies: tuple[str, ...] = (),
) -> httpx.AsyncClient:
    app = create_app(
        store,
        directory(),
        clock,
        metrics=metrics,
        metrics_route=route,
        proxies=[ipaddress.ip_network(proxy) for proxy in proxies],
    )
    transport = httpx.ASGITransport(app=app, client=(peer, 50000))
    return httpx.AsyncClient(transport=transport, base_url="http://server")


@pytest.fixture
def metrics(store: SqlStore, clock: Clock) -> ServerMetrics:
    return ServerMetrics(store, clock)


@pytest.fixture
async def client(
    store: SqlStore, clock: Clock, metrics: ServerMetrics
) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(store, clock, metrics) as http:
        yield http


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def scrape(client: httpx.AsyncClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = await client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=")
    return samples(response.text)


async def create_once_due_in(client: httpx.AsyncClient, clock: Clock, seconds: int) -> str:
    at = (clock.now + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")
    response = await client.post(
        "/v1/schedules",
        json=definition(cadence={"kind": "ONCE", "at": at}),
        headers={**AUTH, "Idempotency-Key": str(uuid4())},
    )
    assert response.status_code == 201, response.text
    schedule_id: str = response.json()["schedule_id"]
    return schedule_id


async def test_metrics_are_off_unless_asked_for(store: SqlStore, clock: Clock) -> None:
    async with client_for(store, clock, None) as plain:
        response = await plain.get("/metrics")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "route.not_found"


@pytest.mark.parametrize(
    ("peer", "headers"),
    [
        pytest.param("203.0.113.7", {}, id="remote-peer"),
        pytest.param("127.0.0.1", {"X-Forwarded-For": "203.0.113.7"}, id="proxied"),
        pytest.param("127.0.0.1", {"Forwarded": "for=203.0.113.7"}, id="forwarded"),
    ],
)
async def test_on_the_api_port_only_an_unproxied_loopback_caller_may_read_them(
    store: SqlStore, clock: Clock, metrics: ServerMetrics, peer: str, headers: dict[str, str]
) -> None:
    async with client_for(store, clock, metrics, peer=peer) as outsider:
        response = await outsider.get("/metrics", headers=headers)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "route.not_found"
    assert "schedule_" not in response.text


@pytest.mark.parametrize(
    ("peer", "headers"),
    [
        pytest.param("127.0.0.1", {}, id="proxy-naming-no-client"),
        pytest.param("127.0.0.1", {"X-Forwarded-For": "127.0.0.1"}, id="proxy-naming-loopback"),
        pytest.param("127.0.0.1", {"X-Real-IP": "203.0.113.7"}, id="real-ip"),
        pytest.param("::1", {}, id="proxy-over-ipv6"),
    ],
)
async def test_no_request_through_a_trusted_proxy_may_read_them(
    store: SqlStore, clock: Clock, metrics: ServerMetrics, peer: str, headers: dict[str, str]
) -> None:
    """The proxy is on this machine, so its peer is loopback: being trusted refuses it."""
    proxies = ("127.0.0.1", "::1")
    async with client_for(store, clock, metrics, peer=peer, proxies=proxies) as proxied:
        response = await proxied.get("/metrics", headers=headers)
    assert response.status_code == 404
    assert "schedule_" not in response.text


async def test_requests_are_timed_by_route_template_method_and_status(
    client: httpx.AsyncClient,
) -> None:
    schedule_id = await create_once_due_in(client, Clock(), 3600)
    assert (await client.get(f"/v1/schedules/{schedule_id}", headers=AUTH)).status_code == 200
    assert (await client.get("/v1/schedules")).status_code == 401
    assert (await client.get("/no/such/route")).status_code == 404
    assert (await client.request("BREW", "/no/such/route")).status_code == 404
    found = await scrape(client)

    def count(route: str, method: str, status: str) -> float:
        labels = frozenset({("route", route), ("method", method), ("status", status)})
        return found.get(("schedule_server_request_duration_seconds_count", labels), 0.0)

    assert count("/v1/schedules", "POST", "201") == 1
    assert count("/v1/schedules/{schedule_id}", "GET", "200") == 1
    assert count("/v1/schedules", "GET", "401") == 1
    assert count("unmatched", "GET", "404") == 1
    assert count("unmatched", "OTHER", "404") == 1, "no label value a caller chose"
    assert not any(schedule_id in str(labels) for _name, labels in found), "no ids in labels"


async def test_backlog_lateness_dispositions_and_runs_follow_the_worker(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock, metrics: ServerMetrics
) -> None:
    for _ in range(2):
        await create_once_due_in(client, clock, 60)
    before = await scrape(client)
    assert before[("schedule_due_backlog", frozenset())] == 0
    clock.advance(seconds=60 + 3)  # due, and 3 s late when the worker gets to them
    assert (await scrape(client))[("schedule_due_backlog", frozenset())] == 2

    report = ScheduleWorker(store, directory(), observer=metrics).run_once(clock.now)
    assert report.written == 2
    after = await scrape(client)
    assert after[("schedule_due_backlog", frozenset())] == 0
    materialized = frozenset({("disposition", "MATERIALIZED")})
    assert after[("schedule_occurrences_total", materialized)] == 2
    assert after[("schedule_firing_lateness_seconds_count", frozenset())] == 2
    assert after[("schedule_firing_lateness_seconds_sum", frozenset())] == pytest.approx(6)
    assert after[("schedule_firing_lateness_seconds_bucket", frozenset({("le", "2.0")}))] == 0
    assert after[("schedule_firing_lateness_seconds_bucket", frozenset({("le", "5.0")}))] == 2
    assert after[("schedule_runs", frozenset({("status", "QUEUED")}))] == 2
    assert after[("schedule_materialization_errors_total", frozenset())] == 0


async def test_storage_faults_are_counted_and_the_fault_is_shown_until_a_write_succeeds(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    store.faults.record()
    store.faults.record()
    during = await scrape(client)
    assert during[("schedule_server_storage_errors_total", frozenset())] == 2
    assert during[("schedule_server_storage_faulted", frozenset())] == 1
    assert (await client.get("/readyz")).status_code == 200  # the probe write succeeds
    after = await scrape(client)
    assert after[("schedule_server_storage_faulted", frozenset())] == 0
    assert after[("schedule_server_storage_errors_total", frozenset())] == 2


async def test_each_server_counts_on_a_registry_of_its_own(store: SqlStore, clock: Clock) -> None:
    first, second = ServerMetrics(store, clock), ServerMetrics(store, clock)
    async with client_for(store, clock, first) as one, client_for(store, clock, second) as two:
        await one.get("/healthz")
        found_one, found_two = await scrape(one), await scrape(two)
    healthz = frozenset({("route", "/healthz"), ("method", "GET"), ("status", "200")})
    key = ("schedule_server_request_duration_seconds_count", healthz)
    assert found_one[key] == 1
    assert key not in found_two


async def test_overdue_heartbeats_and_due_against_decided_are_scraped(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock, metrics: ServerMetrics
) -> None:
    for _ in range(2):
        await create_once_due_in(client, clock, 60)
    clock.advance(seconds=60 + 61)  # due, and overdue by the default 60 s
    before = await scrape(client)
    assert before[("schedule_overdue", frozenset())] == 2
    assert before[("schedule_firings_due_total", frozenset())] == 0
    replica = this_replica(clock.now)
    worker = ScheduleWorker(store, directory(), observer=metrics, pulse=Pulse(replica))
    assert worker.run_once(clock.now).written == 2
    after = await scrape(client)
    assert after[("schedule_overdue", frozenset())] == 0
    assert after[("schedule_firings_due_total", frozenset())] == 2
    materialized = frozenset({("disposition", "MATERIALIZED")})
    assert after[("schedule_firings_decided_total", materialized)] == 2
    labels = frozenset({("replica", replica.replica_id), ("host", replica.host)})
    beat = after[("schedule_scheduler_last_tick_timestamp_seconds", labels)]
    assert beat == clock.now.timestamp()
