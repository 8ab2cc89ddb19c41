"""Search, Needs attention, last outcomes and counts over HTTP, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest

from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock, as_, create, definition, error_code
from tests.server.scene import Scene

pytestmark = pytest.mark.each_backend


async def _titles(client: httpx.AsyncClient, **params: Any) -> list[str]:
    response = await client.get("/v1/schedules", params=params)
    assert response.status_code == 200, response.text
    return [item["title"] for item in response.json()["items"]]


async def test_q_finds_every_word_ignoring_case_and_accents_with_literal_characters(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    for title in ("Café 100% report", "Cafe plain report", "Tea 100 report"):
        clock.advance(minutes=1)
        await create(client, title=title)
    assert await _titles(client, q="CAFÉ") == ["Cafe plain report", "Café 100% report"]
    assert await _titles(client, q="100%") == ["Café 100% report"]
    assert await _titles(client, q="cafe 100") == ["Café 100% report"]
    assert await _titles(client, q="' OR 1=1 --") == []
    assert len(await _titles(client, q="   ")) == 3
    assert await _titles(client, q="report", state="PAUSED") == []


async def test_q_over_500_characters_is_refused_with_the_envelope(
    client: httpx.AsyncClient,
) -> None:
    assert (await client.get("/v1/schedules", params={"q": "a" * 500})).status_code == 200
    for path in ("/v1/schedules", "/v1/schedules/counts"):
        response = await client.get(path, params={"q": "é" * 501})
        assert response.status_code == 400
        assert error_code(response) == "request.invalid"
        assert response.json()["error"]["details"] == {"field": "q", "reason": "too_long"}


async def test_a_cursor_is_bound_to_its_search_and_needs_attention(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    for index in range(5):
        clock.advance(minutes=1)
        await create(client, title=f"Report {index}")
    first = (await client.get("/v1/schedules", params={"q": "report", "limit": 2})).json()
    cursor = first["next_cursor"]
    assert cursor is not None
    for other in ({"q": "repor"}, {}, {"q": "report", "needs_attention": "true"}):
        refused = await client.get("/v1/schedules", params={**other, "cursor": cursor, "limit": 2})
        assert refused.status_code == 400, other
        assert refused.json()["error"]["details"]["field"] == "cursor"
    titles = [item["title"] for item in first["items"]]
    while cursor is not None:
        page = (
            await client.get("/v1/schedules", params={"q": "report", "limit": 2, "cursor": cursor})
        ).json()
        titles += [item["title"] for item in page["items"]]
        cursor = page["next_cursor"]
    assert titles == [f"Report {index}" for index in reversed(range(5))]


async def test_counts_are_the_callers_own_and_take_the_search(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    mine = await create(client, title="Garden watering")
    await create(client, title="Bike repair")
    await client.delete(f"/v1/schedules/{mine['schedule_id']}", params={"expected_revision": 1})
    carols = await client.post(
        "/v1/schedules",
        json=definition(title="Garden watering"),
        headers={**as_("carol"), "Idempotency-Key": "carol-1"},
    )
    assert carols.status_code == 201
    counts = (await client.get("/v1/schedules/counts")).json()
    assert counts == {"current": 1, "history": 1, "needs_attention": 0}
    searched = (await client.get("/v1/schedules/counts", params={"q": "GARDEN"})).json()
    assert searched == {"current": 0, "history": 1, "needs_attention": 0}
    carol = (await client.get("/v1/schedules/counts", headers=as_("carol"))).json()
    assert carol == {"current": 1, "history": 0, "needs_attention": 0}


async def test_counts_is_a_route_of_its_own_beside_schedule_ids(
    client: httpx.AsyncClient,
) -> None:
    assert (await client.get("/v1/schedules/counts")).status_code == 200
    for method in ("PATCH", "DELETE", "POST"):
        response = await client.request(method, "/v1/schedules/counts")
        assert response.status_code == 405, method
        assert error_code(response) == "route.method_not_allowed"
        assert response.headers["Allow"] == "GET"
    assert (await client.get("/v1/schedules", params={"needs_attention": "maybe"})).status_code == (
        400
    )


async def test_last_outcome_and_needs_attention_after_a_missed_firing(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    scene = Scene(store, clock)
    missed = scene.create(title="Missed one").schedule
    assert missed.next_fire_at is not None
    clock.now = missed.next_fire_at + timedelta(hours=2)
    assert scene.scan().written == 1
    calm = scene.create(title="Calm one").schedule
    created = (await client.get(f"/v1/schedules/{calm.schedule_id}")).json()
    assert created["last_outcome"] is None
    rows = {row["title"]: row for row in (await client.get("/v1/schedules")).json()["items"]}
    outcome = rows["Missed one"]["last_outcome"]
    assert outcome["disposition"] == "MISSED"
    assert outcome["needs_attention"] is True
    assert outcome["run_status"] is None
    detail = (await client.get(f"/v1/schedules/{missed.schedule_id}")).json()
    assert detail["last_outcome"] == outcome
    paused = await client.post(
        f"/v1/schedules/{missed.schedule_id}/pause",
        json={"expected_revision": detail["current_revision"]},
    )
    assert paused.json()["last_outcome"] == outcome, "a write answers the outcome too"
    assert await _titles(client, needs_attention="true") == ["Missed one"]
    assert await _titles(client, needs_attention="true", q="calm") == []
    counts = (await client.get("/v1/schedules/counts")).json()
    assert counts == {"current": 2, "history": 0, "needs_attention": 1}
    assert rows["Calm one"]["last_outcome"] is None
