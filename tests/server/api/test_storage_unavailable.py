"""A lock held past its timeout, in-process: 503 ``server.unavailable``, one log line, recovery.

SQLite's busy timeout is shortened for the test (30 s in service); another
connection holds the write lock, as a stuck writer would. Every write then
waits out the timeout and is refused with the envelope and ``Retry-After``;
reads go on; ``/readyz`` says ``storage_fault`` until the lock is gone and
its probe write succeeds; then writes are accepted again.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from uuid import uuid4

import httpx
import pytest

from server.app import create_app
from server.identity import ALL_SCOPES, TokenDirectory, make_principal, token_digest
from server.storage import engine as engine_module
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock, definition

AUTH = {"Authorization": "Bearer token-alice"}


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SqlStore]:
    monkeypatch.setattr(engine_module, "SQLITE_BUSY_TIMEOUT_SECONDS", 0.2)
    opened = SqlStore.open(f"sqlite:///{tmp_path / 'locked.db'}")
    yield opened
    opened.close()


@pytest.fixture
async def client(store: SqlStore) -> AsyncIterator[httpx.AsyncClient]:
    alice = make_principal(
        principal_id="alice", tenant_id="acme", display_name="Alice", scopes=ALL_SCOPES
    )
    app = create_app(store, TokenDirectory([(token_digest("token-alice"), alice)]), Clock())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as http:
        yield http


async def create(client: httpx.AsyncClient) -> httpx.Response:
    return await client.post(
        "/v1/schedules", json=definition(), headers={**AUTH, "Idempotency-Key": str(uuid4())}
    )


async def test_a_write_lock_held_past_the_timeout_is_503_with_one_log_line_and_recovers(
    client: httpx.AsyncClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first = await create(client)
    assert first.status_code == 201
    holder = sqlite3.connect(tmp_path / "locked.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a stuck writer
    caplog.set_level(logging.INFO, logger="server.api")
    try:
        refused = await create(client)
        listed = await client.get("/v1/schedules", headers=AUTH)
        readyz = await client.get("/readyz")
    finally:
        holder.rollback()
        holder.close()
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "5"
    error = refused.json()["error"]
    assert error["code"] == "server.unavailable"
    request_id = error["details"]["request_id"]
    assert error["details"]["retry_after_seconds"] == 5
    assert listed.status_code == 200
    assert [item["schedule_id"] for item in listed.json()["items"]] == [first.json()["schedule_id"]]
    assert readyz.status_code == 503
    assert readyz.json()["error"]["details"] == {"reason": "storage_fault"}
    lines = [record.getMessage() for record in caplog.records if record.name == "server.api"]
    assert lines == [
        f"storage fault (OperationalError, SQLITE_BUSY) while serving request {request_id};"
        " answered 503"
    ]
    assert all(record.exc_info is None for record in caplog.records)

    assert (await client.get("/readyz")).status_code == 200
    assert (await create(client)).status_code == 201
