"""A feed of all the caller's schedules is the agenda's content over the feed's window: the
same (schedule, instant) pairs as ``GET /v1/agenda`` walked page by page, and past the bound
the 2,000 of them nearest to now, saying so."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from server.feeds.window import MAX_EVENTS
from tests.clock import Clock
from tests.server.api.conftest import as_, create, definition
from tests.server.feeds.served import (
    calendar_app,
    client,
    fetch_calendar,
    identity,
    new_feed,
    served,
    vevents,
)

__all__ = ["calendar_app", "client", "identity", "served"]  # fixtures

ZONES = ("America/New_York", "Europe/London", "Asia/Kolkata", "Australia/Lord_Howe")


def _z(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


async def _agenda(client: httpx.AsyncClient, now: datetime) -> list[tuple[str, str]]:
    """Every (schedule id, instant) of the agenda over the feed's window, page by page."""
    params: dict[str, Any] = {
        "from": _z(now - timedelta(days=30)),
        "to": _z(now + timedelta(days=60)),
        "limit": 200,
    }
    found: list[tuple[str, str]] = []
    while True:
        response = await client.get("/v1/agenda", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        found += [(item["schedule_id"], item["at"]) for item in page["items"]]
        if page["next_cursor"] is None:
            return found
        params["cursor"] = page["next_cursor"]


def _pairs(calendar: Any) -> list[tuple[str, str]]:
    """Each event's schedule id (from its UID) and instant."""
    pairs = []
    for event in vevents(calendar):
        at = _z(event["DTSTART"].dt)
        uid = str(event["UID"])
        assert uid.endswith("-" + at.replace("-", "").replace(":", ""))
        pairs.append((uid[:36], at))
    return sorted(pairs, key=lambda pair: (pair[1], pair[0]))


async def _schedules(client: httpx.AsyncClient, count: int) -> list[str]:
    made = []
    for n in range(count):
        cadence = {
            "kind": "DAILY",
            "local_time": f"{(n * 5) % 24:02d}:{(n * 7) % 60:02d}:00",
            "timezone": ZONES[n % len(ZONES)],
        }
        made.append((await create(client, title=f"Digest {n}", cadence=cadence))["schedule_id"])
    return made


async def test_a_feed_of_all_schedules_holds_the_agendas_items(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient, clock: Clock
) -> None:
    made = await _schedules(client, 5)
    paused = f"/v1/schedules/{made[0]}/pause"
    assert (await client.post(paused, json={"expected_revision": 1})).status_code == 200
    theirs = {"Idempotency-Key": "carol", **as_("carol")}
    assert (await client.post("/v1/schedules", json=definition(), headers=theirs)).is_success
    clock.advance(days=10)
    feed = await new_feed(client, None)

    _, calendar = await fetch_calendar(calendar_app, feed["url"])
    pairs = _pairs(calendar)
    assert pairs == await _agenda(client, clock())
    assert {schedule for schedule, _ in pairs} == set(made[1:])
    assert "all your schedules" in str(calendar["X-WR-CALDESC"])
    assert "nearest" not in str(calendar["X-WR-CALDESC"])


async def test_past_the_bound_the_feed_keeps_the_agendas_items_nearest_to_now(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient, clock: Clock
) -> None:
    await _schedules(client, 25)  # 25 daily schedules: 2,250 firings in 90 days
    clock.advance(days=30)
    now = clock()
    feed = await new_feed(client, None)

    _, calendar = await fetch_calendar(calendar_app, feed["url"])
    agenda = await _agenda(client, now)
    nearest = sorted(agenda, key=lambda p: abs(datetime.fromisoformat(p[1]) - now))[:MAX_EVENTS]

    assert len(agenda) > MAX_EVENTS
    assert _pairs(calendar) == sorted(nearest, key=lambda pair: (pair[1], pair[0]))
    assert any(datetime.fromisoformat(at) < now for _, at in _pairs(calendar))
    assert "Only the 2,000 firings nearest to now are shown" in str(calendar["X-WR-CALDESC"])
