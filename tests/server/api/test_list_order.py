"""``GET /v1/schedules?order=next_fire``: soonest first, its own cursors, its refusals."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.api.conftest import Clock, create

pytestmark = pytest.mark.each_backend


def _daily(at: str) -> dict[str, str]:
    return {"kind": "DAILY", "local_time": at, "timezone": "UTC"}


async def _collect(client: httpx.AsyncClient, query: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        url = f"/v1/schedules?{query}" + (f"&cursor={cursor}" if cursor else "")
        response = await client.get(url)
        assert response.status_code == 200, response.text
        page = response.json()
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            return items


async def _pause(client: httpx.AsyncClient, schedule: dict[str, Any]) -> None:
    paused = await client.post(
        f"/v1/schedules/{schedule['schedule_id']}/pause", json={"expected_revision": 1}
    )
    assert paused.status_code == 200, paused.text


async def test_next_fire_order_lists_active_soonest_first_then_paused_newest_first(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    made = []
    for at in ("18:00:00", "10:00:00", "23:30:00", "09:30:00", "12:00:00", "10:00:00"):
        clock.advance(seconds=1)
        made.append(await create(client, title=f"Daily at {at}", cadence=_daily(at)))
    for schedule in (made[1], made[4]):
        clock.advance(seconds=1)
        await _pause(client, schedule)
    listed = await _collect(client, "order=next_fire&limit=2")
    active = [s for s in made if s not in (made[1], made[4])]
    soonest = sorted(active, key=lambda s: (s["next_fire_at"], s["schedule_id"]))
    paused_newest_first = [made[4], made[1]]
    expected = [s["schedule_id"] for s in soonest + paused_newest_first]
    assert [item["schedule_id"] for item in listed] == expected


async def test_without_order_or_with_order_updated_the_list_keeps_its_order(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    for at in ("18:00:00", "10:00:00", "23:30:00"):
        clock.advance(seconds=1)
        await create(client, cadence=_daily(at))
    default = await _collect(client, "limit=2")
    assert await _collect(client, "order=updated&limit=2") == default
    stamps = [(item["updated_at"], item["schedule_id"]) for item in default]
    assert stamps == sorted(stamps, reverse=True)


async def test_state_q_and_needs_attention_combine_with_next_fire_order(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    for index, at in enumerate(("10:00:00", "18:00:00", "23:30:00", "09:30:00")):
        clock.advance(seconds=1)
        made = await create(client, title=f"Invoice {index}", cadence=_daily(at))
        if index == 2:
            await _pause(client, made)
    await create(client, title="Digest", cadence=_daily("09:15:00"))
    listed = await _collect(client, "order=next_fire&q=invoice&state=ACTIVE&limit=1")
    assert [item["title"] for item in listed] == ["Invoice 3", "Invoice 0", "Invoice 1"]
    attention = await _collect(client, "order=next_fire&needs_attention=true&limit=1")
    assert attention == await _collect(client, "needs_attention=true&limit=1")


@pytest.mark.parametrize("order", ["soonest", "NEXT_FIRE", "next_fire ", ""])
async def test_an_unknown_order_is_refused_naming_the_field(
    client: httpx.AsyncClient, order: str
) -> None:
    response = await client.get("/v1/schedules", params={"order": order})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "request.invalid"
    assert error["details"] == {"field": "order", "reason": "unknown"}


async def test_a_cursor_replayed_under_the_other_order_is_refused(
    client: httpx.AsyncClient,
) -> None:
    for _ in range(3):
        await create(client)
    soonest = (await client.get("/v1/schedules?order=next_fire&limit=1")).json()["next_cursor"]
    default = (await client.get("/v1/schedules?limit=1")).json()["next_cursor"]
    for query in (
        f"limit=1&cursor={soonest}",
        f"order=updated&limit=1&cursor={soonest}",
        f"order=next_fire&limit=1&cursor={default}",
    ):
        refused = await client.get(f"/v1/schedules?{query}")
        assert refused.status_code == 400
        assert refused.json()["error"]["details"]["field"] == "cursor"
    replayed = await client.get(f"/v1/schedules?order=next_fire&limit=1&cursor={soonest}")
    assert replayed.status_code == 200
