"""Keyset paging: order, the state filter before cursor and limit, tamper-evident cursors."""

from __future__ import annotations

import base64
import json

import httpx

from tests.server.api.conftest import Clock, as_, create


async def _collect(client: httpx.AsyncClient, query: str) -> list[dict[str, object]]:
    items: list[dict[str, object]] = []
    cursor = None
    while True:
        url = f"/v1/schedules?{query}" + (f"&cursor={cursor}" if cursor else "")
        page = (await client.get(url)).json()
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            return items


async def test_state_filter_applies_before_cursor_and_limit(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    ids = []
    for index in range(9):
        clock.advance(minutes=1)
        created = await create(client, title=f"Schedule {index}")
        ids.append(created["schedule_id"])
        if index % 3 == 0:
            clock.advance(seconds=1)
            await client.post(
                f"/v1/schedules/{created['schedule_id']}/pause", json={"expected_revision": 1}
            )
    paused = await _collect(client, "state=PAUSED&limit=2")
    assert [item["schedule_id"] for item in paused] == [ids[6], ids[3], ids[0]]
    current = await _collect(client, "state=ACTIVE&state=PAUSED&limit=4")
    assert len(current) == 9
    assert len({item["schedule_id"] for item in current}) == 9
    stamps = [(item["updated_at"], item["schedule_id"]) for item in current]
    assert stamps == sorted(stamps, reverse=True)
    assert await _collect(client, "state=COMPLETED&state=CANCELLED&limit=3") == []


async def test_equal_update_times_page_by_schedule_id_without_gaps(
    client: httpx.AsyncClient,
) -> None:
    ids = sorted([(await create(client))["schedule_id"] for _ in range(7)], reverse=True)
    listed = await _collect(client, "limit=3")
    assert [item["schedule_id"] for item in listed] == ids


async def test_last_page_has_null_cursor(client: httpx.AsyncClient) -> None:
    for _ in range(2):
        await create(client)
    page = (await client.get("/v1/schedules?limit=2")).json()
    assert len(page["items"]) == 2
    assert page["next_cursor"] is None


async def test_tampered_cursor_is_request_invalid(client: httpx.AsyncClient) -> None:
    for _ in range(3):
        await create(client)
    cursor = (await client.get("/v1/schedules?limit=1")).json()["next_cursor"]
    body, mac = cursor.split(".")
    position = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    position[0] = "2099-01-01T00:00:00+00:00"
    forged_body = base64.urlsafe_b64encode(json.dumps(position).encode()).rstrip(b"=").decode()
    for bad in (f"{forged_body}.{mac}", cursor[:-2], "garbage", cursor + "x", "a.b.c"):
        response = await client.get(f"/v1/schedules?limit=1&cursor={bad}")
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "request.invalid"


async def test_cursor_of_another_principal_or_filter_is_refused(client: httpx.AsyncClient) -> None:
    for _ in range(3):
        await create(client)
    cursor = (await client.get("/v1/schedules?limit=1")).json()["next_cursor"]
    foreign = await client.get(f"/v1/schedules?limit=1&cursor={cursor}", headers=as_("carol"))
    assert foreign.status_code == 400
    refiltered = await client.get(f"/v1/schedules?state=PAUSED&limit=1&cursor={cursor}")
    assert refiltered.status_code == 400
    other_route = await client.get(f"/v1/sessions?cursor={cursor}")
    assert other_route.status_code == 400


async def test_cursor_from_another_server_is_refused(
    client: httpx.AsyncClient, store: object, clock: Clock
) -> None:
    from server.app import create_app
    from server.identity import LocalIdentity

    for _ in range(3):
        await create(client)
    other = create_app(store, LocalIdentity(), clock)  # type: ignore[arg-type]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=other), base_url="http://other"
    ) as second:
        cursor = (await second.get("/v1/schedules?limit=1")).json()["next_cursor"]
    response = await client.get(f"/v1/schedules?limit=1&cursor={cursor}")
    assert response.status_code == 400
