"""The busy hours count exactly the agenda's items: the density against the agenda walked.

A seeded mix of a real scheduler's schedules over two weeks spanning clock
changes (London, Nuuk's midnight, Lord Howe's half hour), worked by the worker
hour by hour up to now with a stretch it missed: shared cadences, one created
inside the window, one whose cadence changed, paused, cancelled and completed
ones, another principal's at the same instants. For each filter (none,
``state=PAUSED``, ``q``, ``needs_attention``) and bucket (hours; days in two
zones), every bucket's count is the number of the agenda's items in it, the
agenda read page by page, on both databases. The refusals are the route's
(``tests/server/api/test_agenda_density_route.py``).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from server.app import create_app
from server.identity import Principal
from server.storage.sql.store import SqlStore
from tests.clock import Clock
from tests.server.api.conftest import definition
from tests.server.scene import ALICE, Scene, principal

pytestmark = pytest.mark.each_backend

CAROL = principal("carol")
CREATED = datetime(2027, 3, 22, tzinfo=UTC)
NOW = datetime(2027, 3, 30, 12, tzinfo=UTC)
MISSED_FROM = datetime(2027, 3, 30, 2, tzinfo=UTC)
WINDOW = {"from": "2027-03-25T00:00:00Z", "to": "2027-04-08T00:00:00Z"}
ZONES = (
    "Europe/London",
    "America/New_York",
    "America/Nuuk",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "Pacific/Apia",
)
FILTERS: tuple[dict[str, str], ...] = (
    {},
    {"state": "PAUSED"},
    {"q": "digest"},
    {"needs_attention": "true"},
    {"state": "PAUSED", "q": "digest"},
)
BUCKETS: tuple[dict[str, str], ...] = (
    {"bucket": "hour"},
    {"bucket": "day", "timezone": "Europe/London"},
    {"bucket": "day", "timezone": "Australia/Lord_Howe"},
)


def _cadence(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(("DAILY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"))
    rule: dict[str, Any] = {
        "kind": kind,
        "local_time": rng.choice(("00:30", "01:30", "02:15", "09:00", "23:30")),
        "timezone": rng.choice(ZONES),
    }
    if kind == "WEEKLY":
        rule["weekdays"] = sorted(rng.sample(range(1, 8), 3))
    elif kind == "MONTHLY":
        rule.update(days_of_month=[1, 28], last_day=True)
    elif kind == "YEARLY":
        rule["dates"] = [{"month": 3, "day": 28}, {"month": 4, "day": 4}]
    return rule


def _create(scene: Scene, by: Principal, title: str, cadence: dict[str, Any]) -> dict[str, Any]:
    view = scene.create(by, title=title, cadence=cadence)
    return {"id": view.schedule.schedule_id, "revision": view.schedule.current_revision}


def _seed(scene: Scene) -> None:
    """The schedules, their changes, and the worker's hourly scans up to ``NOW``."""
    rng = random.Random(34)
    clock = scene.clock
    clock.now = CREATED
    london_9 = {"kind": "DAILY", "local_time": "09:00", "timezone": "Europe/London"}
    for number in range(3):  # one cadence, three schedules, and Carol's at the same instants
        _create(scene, ALICE, f"Morning digest {number}", london_9)
    _create(scene, CAROL, "Carol's digest", london_9)
    for number in range(16):
        title = f"{'Digest' if number % 3 == 0 else 'Report'} {number}"
        _create(scene, ALICE, title, _cadence(rng))
    once = {"kind": "ONCE", "at": "2027-03-27T15:00:00Z"}
    _create(scene, ALICE, "Once digest", once)
    _create(scene, ALICE, "Once later", {**once, "at": "2027-04-02T06:45:00Z"})
    edited = _create(scene, ALICE, "Edited", {**london_9, "local_time": "07:00"})
    paused = _create(scene, ALICE, "Paused digest", {**london_9, "local_time": "10:00"})
    cancelled = _create(scene, ALICE, "Cancelled", {**london_9, "local_time": "11:00"})
    changes: dict[datetime, Callable[[], object]] = {
        datetime(2027, 3, 26, 12, tzinfo=UTC): lambda: scene.service.update(
            ALICE,
            edited["id"],
            edited["revision"],
            definition(title="Edited", cadence={**london_9, "local_time": "08:00"}),
        ),
        datetime(2027, 3, 27, 6, tzinfo=UTC): lambda: _create(
            scene, ALICE, "Created in the window", {**london_9, "timezone": "America/Nuuk"}
        ),
        datetime(2027, 3, 28, 6, tzinfo=UTC): lambda: scene.service.pause(
            ALICE, paused["id"], paused["revision"]
        ),
        datetime(2027, 3, 29, tzinfo=UTC): lambda: scene.service.cancel(
            ALICE, cancelled["id"], cancelled["revision"]
        ),
    }
    while clock.now < NOW:
        clock.advance(hours=1)
        if clock.now in changes:
            changes[clock.now]()
        if not MISSED_FROM <= clock.now < MISSED_FROM + timedelta(hours=6):
            scene.scan()


@pytest.fixture
async def scene_client(store: SqlStore, clock: Clock) -> AsyncIterator[httpx.AsyncClient]:
    scene = Scene(store, clock, ALICE, CAROL)
    _seed(scene)
    app = create_app(store, scene.identity, clock, cursor_secret=b"s" * 32)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://server"
    ) as client:
        yield client


def _as(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer token-{name}"}


async def _agenda(client: httpx.AsyncClient, name: str, filters: dict[str, str]) -> list[str]:
    """Every agenda item's instant, page by page."""
    found: list[str] = []
    params: dict[str, Any] = {**WINDOW, **filters, "limit": 200}
    while True:
        response = await client.get("/v1/agenda", params=params, headers=_as(name))
        assert response.status_code == 200, response.text
        body = response.json()
        found += [item["at"] for item in body["items"]]
        if body["next_cursor"] is None:
            return found
        params["cursor"] = body["next_cursor"]


def _per_bucket(instants: list[str], starts: list[datetime]) -> list[int]:
    counts = [0] * len(starts)
    for text in instants:
        counts[bisect_right(starts, datetime.fromisoformat(text)) - 1] += 1
    return counts


async def test_each_bucket_counts_the_agenda_s_items_in_it(
    scene_client: httpx.AsyncClient,
) -> None:
    totals: dict[tuple[str, str], int] = {}
    for name in ("alice", "carol"):
        for filters in FILTERS:
            instants = await _agenda(scene_client, name, filters)
            totals[name, str(filters)] = len(instants)
            for bucket in BUCKETS:
                response = await scene_client.get(
                    "/v1/agenda/density", params={**WINDOW, **filters, **bucket}, headers=_as(name)
                )
                assert response.status_code == 200, response.text
                body = response.json()
                starts = [datetime.fromisoformat(b["start"]) for b in body["buckets"]]
                counts = [b["count"] for b in body["buckets"]]
                assert counts == _per_bucket(instants, starts), (name, filters, bucket)
                assert body["bucket"] == bucket["bucket"]
                assert body["timezone"] == bucket.get("timezone", "UTC")
    every = totals["alice", "{}"]
    assert every > totals["alice", str(FILTERS[2])] > 0
    assert every > totals["alice", str(FILTERS[3])] > 0
    assert totals["alice", str(FILTERS[1])] > every
    assert 0 < totals["carol", "{}"] < every
