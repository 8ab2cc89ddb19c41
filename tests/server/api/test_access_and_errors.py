"""Authentication, scopes, tenancy and the error envelope on every failure."""

from __future__ import annotations

from uuid import uuid4

import httpx
import pytest

from tests.server.api.conftest import as_, create, definition, error_code

ROUTES = [
    ("GET", "/v1/schedules", None, "schedule.read"),
    ("GET", "/v1/schedules/{id}", None, "schedule.read"),
    ("POST", "/v1/schedules", definition(), "schedule.write"),
    (
        "PATCH",
        "/v1/schedules/{id}",
        {"expected_revision": 1, "definition": definition()},
        "schedule.write",
    ),
    ("POST", "/v1/schedules/{id}/pause", {"expected_revision": 1}, "schedule.write"),
    ("POST", "/v1/schedules/{id}/resume", {"expected_revision": 1}, "schedule.write"),
    ("DELETE", "/v1/schedules/{id}?expected_revision=1", None, "schedule.cancel"),
    ("GET", "/v1/schedules/{id}/occurrences", None, "schedule.read"),
    ("GET", "/v1/browser-profiles", None, "browser.profile.read"),
    ("GET", "/v1/sessions", None, "session.read"),
    ("GET", "/v1/sessions/{id}/messages", None, "session.read"),
    ("GET", "/v1/folders", None, "session.read"),
    ("POST", "/v1/sessions/{id}/folder", {"folder_id": None}, "session.write"),
    ("GET", "/v1/principal", None, None),
]


@pytest.mark.parametrize(("method", "path", "body", "scope"), ROUTES)
async def test_every_route_refuses_a_missing_or_unknown_token(
    client: httpx.AsyncClient, method: str, path: str, body: object, scope: str | None
) -> None:
    url = path.replace("{id}", str(uuid4()))
    for headers in ({"Authorization": ""}, {"Authorization": "Bearer wrong"}):
        response = await client.request(method, url, json=body, headers=headers)
        assert response.status_code == 401
        assert error_code(response) == "auth.unauthenticated"
        assert response.headers["www-authenticate"] == "Bearer"


@pytest.mark.parametrize(("method", "path", "body", "scope"), [r for r in ROUTES if r[3]])
async def test_every_route_names_its_missing_scope(
    client: httpx.AsyncClient, method: str, path: str, body: object, scope: str
) -> None:
    url = path.replace("{id}", str(uuid4()))
    headers = {"Idempotency-Key": "k", **as_("reader")}
    response = await client.request(method, url, json=body, headers=headers)
    if scope == "schedule.read":
        assert response.status_code in (200, 404)
        return
    assert response.status_code == 403
    assert error_code(response) == "auth.scope_missing"
    assert response.json()["error"]["details"] == {"scope": scope}


@pytest.mark.parametrize("other", ["carol", "mallory"])
async def test_other_principals_and_tenants_see_404_for_reads_and_writes(
    client: httpx.AsyncClient, other: str
) -> None:
    created = await create(client)
    base = f"/v1/schedules/{created['schedule_id']}"
    headers = as_(other)
    attempts = [
        await client.get(base, headers=headers),
        await client.get(f"{base}/occurrences", headers=headers),
        await client.post(f"{base}/pause", json={"expected_revision": 1}, headers=headers),
        await client.post(f"{base}/resume", json={"expected_revision": 1}, headers=headers),
        await client.delete(base, params={"expected_revision": 1}, headers=headers),
        await client.patch(
            base, json={"expected_revision": 1, "definition": definition()}, headers=headers
        ),
    ]
    for response in attempts:
        assert response.status_code == 404
        assert error_code(response) == "schedule.not_found"
    assert (await client.get("/v1/schedules", headers=headers)).json()["items"] == []
    assert (await client.get(base)).json()["state"] == "ACTIVE"


async def test_unknown_route_and_method_answer_with_the_envelope(client: httpx.AsyncClient) -> None:
    missing = await client.get("/v1/nothing-here")
    assert missing.status_code == 404
    assert error_code(missing) == "route.not_found"
    wrong = await client.put("/v1/schedules")
    assert wrong.status_code == 405
    assert error_code(wrong) == "route.method_not_allowed"


@pytest.mark.parametrize(
    "query",
    ["limit=0", "limit=101", "limit=abc", "state=RUNNING", "cursor=%%%", "cursor=a.b"],
)
async def test_malformed_queries_are_request_invalid(client: httpx.AsyncClient, query: str) -> None:
    response = await client.get(f"/v1/schedules?{query}")
    assert response.status_code == 400
    assert error_code(response) == "request.invalid"


async def test_malformed_bodies_and_ids_are_request_invalid(client: httpx.AsyncClient) -> None:
    created = await create(client)
    base = f"/v1/schedules/{created['schedule_id']}"
    for response in (
        await client.post(f"{base}/pause", json={}),
        await client.post(f"{base}/pause", json={"expected_revision": "1"}),
        await client.post(
            f"{base}/pause", content=b"{not json", headers={"Content-Type": "application/json"}
        ),
        await client.delete(base),
        await client.get("/v1/schedules/not-a-uuid"),
        await client.post("/v1/schedules", json=[1, 2], headers={"Idempotency-Key": "k"}),
    ):
        assert response.status_code == 400, response.text
        assert error_code(response) == "request.invalid"


async def test_principal_route_describes_the_caller(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/principal", headers=as_("reader"))
    assert response.json() == {
        "principal_id": "reader",
        "tenant_id": "acme",
        "display_name": "Reader",
        "scopes": ["schedule.read"],
    }


async def test_unexpected_failure_is_a_server_error_envelope(
    client: httpx.AsyncClient, store: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store.schedules, "page", broken)  # type: ignore[attr-defined]
    transport = httpx.ASGITransport(app=client._transport.app, raise_app_exceptions=False)  # type: ignore[attr-defined]
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as raw:
        response = await raw.get("/v1/schedules", headers=as_("alice"))
    assert response.status_code == 500
    assert error_code(response) == "server.error"
    assert "disk on fire" not in response.text
