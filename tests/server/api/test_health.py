"""``/healthz`` and ``/readyz``: no token, no rate limit, and readiness that tells the truth.

Each test runs on SQLite and on the session's real PostgreSQL.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import httpx
import pytest

from devtools.postgres_cluster import PostgresCluster
from server.api.rate_limit import RateLimit
from server.app import create_app
from server.identity import generated_local_directory
from server.storage.engine import open_engine
from server.storage.migrate import downgrade
from server.storage.sql.store import SqlStore

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def fixed_clock() -> datetime:
    return NOW


def http_client(store: SqlStore, rate_limit: RateLimit | None = None) -> httpx.AsyncClient:
    directory, _token = generated_local_directory()
    app = create_app(store, directory, fixed_clock, rate_limit=rate_limit)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://server")


pytestmark = pytest.mark.each_backend


@pytest.fixture
async def client(store: SqlStore) -> AsyncIterator[httpx.AsyncClient]:
    async with http_client(store) as http:
        yield http


def not_ready_reason(response: httpx.Response) -> str:
    assert response.status_code == 503
    error = response.json()["error"]
    assert error["code"] == "server.not_ready"
    reason: str = error["details"]["reason"]
    return reason


async def test_healthz_answers_without_a_token(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert (await client.get("/v1/principal")).status_code == 401  # the API still needs one


async def test_readyz_is_ready_on_a_migrated_database(client: httpx.AsyncClient) -> None:
    response = await client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ready"}
    assert response.headers["Cache-Control"] == "no-store"


async def test_probes_are_never_rate_limited(store: SqlStore) -> None:
    async with http_client(store, RateLimit(requests_per_minute=1, burst=1)) as client:
        statuses = {(await client.get(path)).status_code for path in ["/healthz", "/readyz"] * 5}
    assert statuses == {200}


async def test_readyz_refuses_while_migrations_are_pending(
    store: SqlStore, client: httpx.AsyncClient
) -> None:
    downgrade(store.engine, "base")
    assert not_ready_reason(await client.get("/readyz")) == "migrations_pending"
    assert (await client.get("/healthz")).status_code == 200  # alive, only not ready


async def test_readyz_refuses_when_the_database_is_gone_and_names_no_part_of_it(
    empty_postgres_url: str, postgres_cluster: PostgresCluster
) -> None:
    store = SqlStore.open(empty_postgres_url)
    try:
        async with http_client(store) as client:
            assert (await client.get("/readyz")).status_code == 200
            postgres_cluster.drop_database(empty_postgres_url.rsplit("/", 1)[1])
            response = await client.get("/readyz")
        assert not_ready_reason(response) == "database_unreachable"
        for secret in (postgres_cluster.password, str(postgres_cluster.port), "127.0.0.1"):
            assert secret not in response.text
    finally:
        store.close()


async def test_readyz_refuses_when_nothing_listens_at_the_database_address() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]  # bound, never listening: connections are refused
        url = f"postgresql+psycopg://alice:hunter2@127.0.0.1:{closed_port}/schedules"
        store = SqlStore(open_engine(url))
        try:
            async with http_client(store) as client:
                response = await client.get("/readyz")
        finally:
            store.close()
    assert not_ready_reason(response) == "database_unreachable"
    assert "hunter2" not in response.text


async def test_openapi_lists_both_probes_without_authentication(
    client: httpx.AsyncClient,
) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    for path in ("/healthz", "/readyz"):
        operation = paths[path]["get"]
        assert operation["x-no-authentication"] is True
        assert operation["security"] == []
    assert "503" in paths["/readyz"]["get"]["responses"]
