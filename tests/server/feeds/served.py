"""A server for the feed tests: the API fixtures' principals behind an identity a test can
change (disable a principal, take a scope away), and helpers to make and fetch feeds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import icalendar
import pytest
from fastapi import FastAPI

from server.app import create_app
from server.identity import Principal, TokenDirectory, make_principal
from server.storage.sql.store import SqlStore
from tests.clock import Clock
from tests.server.api.test_rate_limit import directory

CALENDAR_APP = ("192.0.2.10", 50000)
"""The calendar app's address (TEST-NET-1): it sends no token."""


class ChangingIdentity:
    """The test principals, any of which a test may disable or strip of a scope."""

    def __init__(self) -> None:
        self.inner: TokenDirectory = directory()
        self.changed: dict[str, Principal] = {}

    def change(self, principal_id: str, *, enabled: bool = True, without: str = "") -> None:
        found = self.inner.current("acme", principal_id)
        assert found is not None
        self.changed[principal_id] = make_principal(
            principal_id=found.principal_id,
            tenant_id=found.tenant_id,
            display_name=found.display_name,
            scopes=found.scopes - {without},
            enabled=enabled,
        )

    def authenticate(self, bearer_token: str | None) -> Principal | None:
        found = self.inner.authenticate(bearer_token)
        if found is None:
            return None
        changed = self.changed.get(found.principal_id, found)
        return changed if changed.enabled else None

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        found = self.inner.current(tenant_id, principal_id)
        return None if found is None else self.changed.get(principal_id, found)


@pytest.fixture
def identity() -> ChangingIdentity:
    return ChangingIdentity()


@pytest.fixture
def served(store: SqlStore, clock: Clock, identity: ChangingIdentity) -> FastAPI:
    return create_app(store, identity, clock, cursor_secret=b"s" * 32)


@pytest.fixture
async def client(served: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """Alice, signed in."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=served),
        base_url="http://server",
        headers={"Authorization": "Bearer token-alice"},
    ) as http:
        yield http


@pytest.fixture
async def calendar_app(served: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A calendar app fetching feeds: no token, an address of its own."""
    transport = httpx.ASGITransport(app=served, client=CALENDAR_APP)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as http:
        yield http


async def new_feed(
    client: httpx.AsyncClient, schedule_id: str | None, **extra: Any
) -> dict[str, Any]:
    response = await client.post("/v1/feeds", json={"schedule_id": schedule_id, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def fetch_calendar(http: httpx.AsyncClient, url: str) -> tuple[str, icalendar.Calendar]:
    """The feed's text and the same text parsed by ``icalendar``."""
    response = await http.get(url)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    return response.text, icalendar.Calendar.from_ical(response.content)


def vevents(calendar: icalendar.Calendar) -> list[icalendar.Event]:
    return list(calendar.walk("VEVENT"))
