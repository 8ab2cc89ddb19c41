"""An app over the server tests' one store and clock (tests/server/conftest.py), callers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from uuid import UUID, uuid4

import httpx
import pytest

from devtools.api_bodies import definition_json
from server.app import create_app
from server.identity import ALL_SCOPES, TokenDirectory, make_principal, token_digest
from server.storage.records import Owner, ProfileRecord
from server.storage.sql.store import SqlStore
from tests.clock import NOW, Clock

TOKENS = {
    "alice": ("acme", ALL_SCOPES),
    "carol": ("acme", ALL_SCOPES),  # same tenant, another principal
    "mallory": ("globex", ALL_SCOPES),  # another tenant
    "reader": ("acme", frozenset({"schedule.read"})),
    "nobrowser": ("acme", ALL_SCOPES - {"browser.profile.read"}),
    "nocancel": ("acme", ALL_SCOPES - {"schedule.cancel"}),
}


def definition(**changes: Any) -> dict[str, Any]:
    return definition_json(**changes)


def definition_of(detail: dict[str, Any]) -> dict[str, Any]:
    """What a client sends back: the revision less the server-derived fields."""
    derived = {"revision", "timezone", "created_by_principal_id", "created_at"}
    return {k: v for k, v in detail["revision"].items() if k not in derived}


@pytest.fixture
def app_client(store: SqlStore, clock: Clock) -> Iterator[Any]:
    entries = []
    for name, (tenant, scopes) in TOKENS.items():
        digest = token_digest(f"token-{name}")
        entries.append(
            (
                digest,
                make_principal(
                    principal_id=name,
                    tenant_id=tenant,
                    display_name=name.title(),
                    scopes=scopes,
                ),
            )
        )
    yield create_app(store, TokenDirectory(entries), clock, cursor_secret=b"s" * 32)


@pytest.fixture
async def client(app_client: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app_client),
        base_url="http://server",
        headers={"Authorization": "Bearer token-alice"},
    ) as http:
        yield http


def as_(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer token-{name}"}


def add_profile(store: SqlStore, principal: str, state: str, tenant: str = "acme") -> UUID:
    profile_id = uuid4()
    store.profiles.add(
        ProfileRecord(
            profile_id=profile_id,
            owner=Owner(tenant, principal),
            display_name=f"{state.title()} sign-in",
            state=state,
            allowed_origins=("https://mail.google.com",),
            created_at=NOW,
            updated_at=NOW,
        )
    )
    return profile_id


async def create(
    client: httpx.AsyncClient, key: str | None = None, **changes: Any
) -> dict[str, Any]:
    response = await client.post(
        "/v1/schedules",
        json=definition(**changes),
        headers={"Idempotency-Key": key or str(uuid4())},
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def error_code(response: httpx.Response) -> str:
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    code: str = body["error"]["code"]
    return code
