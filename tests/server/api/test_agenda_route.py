"""``GET /v1/agenda`` on SQLite and PostgreSQL: paging, filters, states, the past, refusals.

Schedules are made through the real service and fired by the real worker and
dispatcher at the scene's clock (``tests.server.scene``); the agenda is read
through the app. The default definition fires daily at 09:00 Paris (08:00 UTC
in winter) and is created at 09:00 UTC on 30 November 2026.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import httpx
import pytest

from server.app import create_app
from server.storage.sql.store import SqlStore
from tests.clock import Clock
from tests.server.api.conftest import definition, error_code
from tests.server.scene import ALICE, Scene, principal

pytestmark = pytest.mark.each_backend

CAROL = principal("carol")
DAY_1 = datetime(2026, 12, 1, 8, tzinfo=UTC)
WEEK = {"from": "2026-11-30T00:00:00Z", "to": "2026-12-07T00:00:00Z"}


@pytest.fixture
def scene(store: SqlStore, clock: Clock) -> Scene:
    return Scene(store, clock, ALICE, CAROL)


@pytest.fixture
async def client(scene: Scene, clock: Clock) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(scene.store, scene.identity, clock, cursor_secret=b"s" * 32)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://server",
        headers={"Authorization": "Bearer token-alice"},
    ) as http:
        yield http


async def _page(client: httpx.AsyncClient, **params: str) -> dict[str, Any]:
    response = await client.get("/v1/agenda", params={**WEEK, **params})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _walk(client: httpx.AsyncClient, **params: str) -> list[dict[str, Any]]:
    """Every item, page by page."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        body = await _page(client, **params, **({"cursor": cursor} if cursor else {}))
        items.extend(body["items"])
        cursor = body["next_cursor"]
        if cursor is None:
            return items


def _keys(items: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(item["at"], item["schedule_id"]) for item in items]


async def test_pages_neither_repeat_nor_skip_an_item(
    client: httpx.AsyncClient, scene: Scene
) -> None:
    for hour in ("06:00", "09:00", "09:00", "09:00", "12:30"):
        scene.create(cadence={"kind": "DAILY", "local_time": hour, "timezone": "Europe/Paris"})

    whole = (await _page(client, limit="200"))["items"]
    walked = await _walk(client, limit="2")

    assert len(whole) == 5 * 6 + 1  # 30 November: only the 12:30 is after the creation
    assert _keys(walked) == _keys(whole) == sorted(_keys(whole))
    assert len(set(_keys(walked))) == len(walked)


async def test_clash_count_counts_the_instant_across_a_page_boundary(
    client: httpx.AsyncClient, scene: Scene
) -> None:
    for _ in range(5):
        scene.create()

    first = await _page(client, limit="3")
    second = await _page(client, limit="3", cursor=first["next_cursor"])

    at_nine = [i for i in first["items"] + second["items"] if i["at"] == "2026-12-01T08:00:00Z"]
    assert len(at_nine) == 5
    assert {item["clash_count"] for item in at_nine} == {5}


async def test_a_cursor_is_bound_to_its_window_and_filters(
    client: httpx.AsyncClient, scene: Scene
) -> None:
    for _ in range(3):
        scene.create()
    cursor = (await _page(client, limit="1"))["next_cursor"]
    assert cursor is not None

    for changed in (
        {"q": "news"},
        {"state": "PAUSED"},
        {"needs_attention": "true"},
        {"from": "2026-11-30T00:00:01Z"},
        {"to": "2026-12-08T00:00:00Z"},
    ):
        response = await client.get(
            "/v1/agenda", params={**WEEK, "limit": "1", "cursor": cursor, **changed}
        )
        assert response.status_code == 400, changed
        assert error_code(response) == "request.invalid"
        assert response.json()["error"]["details"]["field"] == "cursor"
    other = await client.get(
        "/v1/agenda",
        params={**WEEK, "limit": "1", "cursor": cursor},
        headers={"Authorization": "Bearer token-carol"},
    )
    assert other.status_code == 400


@pytest.mark.parametrize(
    ("params", "field", "reason"),
    [
        ({"from": "2026-12-01T00:00:00"}, "from", "naive_datetime"),
        ({"from": "yesterday"}, "from", "invalid_datetime"),
        ({"to": "2026-11-30T00:00:00Z"}, "to", "not_after_from"),
        ({"to": "2027-03-03T00:00:00Z"}, "to", "window_too_long"),
    ],
    ids=["naive", "not_an_instant", "empty_window", "over_92_days"],
)
async def test_the_window_is_refused_as_the_projections(
    client: httpx.AsyncClient, params: dict[str, str], field: str, reason: str
) -> None:
    response = await client.get("/v1/agenda", params={**WEEK, **params})
    assert response.status_code == 400
    assert error_code(response) == "request.invalid"
    details = response.json()["error"]["details"]
    assert (details["field"], details["reason"]) == (field, reason)


@pytest.mark.parametrize(
    "params",
    [{"limit": "0"}, {"limit": "201"}, {"limit": "1.5"}, {"state": "ACTIVE"}, {"state": "x"}],
    ids=["limit_zero", "limit_over_200", "limit_not_digits", "state_active", "state_unknown"],
)
async def test_a_bad_limit_or_state_is_400(
    client: httpx.AsyncClient, params: dict[str, str]
) -> None:
    response = await client.get("/v1/agenda", params={**WEEK, **params})
    assert response.status_code == 400
    assert error_code(response) == "request.invalid"


async def test_a_missing_window_edge_is_400(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/agenda", params={"from": WEEK["from"]})
    assert response.status_code == 400


async def test_another_principals_firings_never_appear_nor_count(
    client: httpx.AsyncClient, scene: Scene
) -> None:
    mine = scene.create().schedule.schedule_id
    for _ in range(3):
        scene.create(CAROL)

    items = await _walk(client)

    assert {item["schedule_id"] for item in items} == {str(mine)}
    assert {item["clash_count"] for item in items} == {1}


async def test_search_and_needs_attention_filter_as_the_list_does(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    bakery = scene.create(title="Café orders").schedule.schedule_id
    scene.create(title="Morning news digest")

    found = await _walk(client, q="CAFE")
    assert {item["schedule_id"] for item in found} == {str(bakery)}
    assert {item["clash_count"] for item in found} == {1}  # counted over the same filters

    clock.now = DAY_1 + timedelta(hours=2)  # the 08:00 firings due, undecided: overdue
    noon = {"kind": "DAILY", "local_time": "12:00", "timezone": "Europe/Paris"}
    later = scene.create(title="Lunch menu", cadence=noon).schedule.schedule_id
    for decided in (False, True):  # then MISSED: their outcome needs attention
        if decided:
            scene.scan()
        flagged = await _walk(client, needs_attention="true")
        listed = await client.get("/v1/schedules", params={"needs_attention": "true"})
        assert _ids(flagged) == {UUID(s["schedule_id"]) for s in listed.json()["items"]}
        assert later not in _ids(flagged) and len(_ids(flagged)) == 2


async def test_a_paused_schedule_shows_only_with_state_paused_as_if_resumed(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    view = scene.create()
    clock.now = DAY_1 + timedelta(days=2, hours=2)
    scene.scan()
    scene.service.pause(ALICE, view.schedule.schedule_id, view.schedule.current_revision)

    plain = await _walk(client)
    paused = await _walk(client, state="PAUSED")

    assert [(i["at"], i["as_if_resumed"], i["disposition"]) for i in plain] == [
        ("2026-12-03T08:00:00Z", False, "MISSED"),  # its past: from the ledger only
    ]
    assert [(i["at"], i["state"], i["as_if_resumed"]) for i in paused] == [
        ("2026-12-03T08:00:00Z", "PAUSED", False),
        *(
            (f"2026-12-0{day}T08:00:00Z", "PAUSED", True)
            for day in (4, 5, 6)  # after now only, as the projection gives them
        ),
    ]


async def test_completed_and_cancelled_schedules_show_only_their_recorded_past(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    once = scene.create(cadence={"kind": "ONCE", "at": "2026-12-01T10:00:00Z"})
    daily = scene.create()
    clock.now = DAY_1 + timedelta(hours=2, minutes=1)
    scene.scan()
    current = scene.store.schedules.get(ALICE.owner, daily.schedule.schedule_id)
    assert current is not None
    scene.service.cancel(ALICE, daily.schedule.schedule_id, current.schedule.current_revision)

    items = await _walk(client)

    assert [(i["at"], i["state"], i["disposition"]) for i in items] == [
        ("2026-12-01T08:00:00Z", "CANCELLED", "MISSED"),
        ("2026-12-01T10:00:00Z", "COMPLETED", "MATERIALIZED"),
    ]
    assert items[1]["schedule_id"] == str(once.schedule.schedule_id)
    assert items[1]["local_time"] == "10:00:00" and items[1]["timezone"] == "UTC"


async def test_past_items_carry_their_record_or_null_and_a_failed_runs_status(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    scene.create()
    clock.now = DAY_1 + timedelta(seconds=30)
    assert scene.scan().written == 1
    assert len(scene.start_queued()) == 1
    clock.advance(seconds=301)  # past the run's 300 s limit: the run fails
    assert await scene.dispatcher().dispatch_once() == 1
    clock.now = DAY_1 + timedelta(days=2, hours=1)  # 2 December went unrecorded

    items = await _walk(client)

    assert [(i["at"], i["disposition"], i["reason_code"], i["run_status"]) for i in items] == [
        ("2026-12-01T08:00:00Z", "MATERIALIZED", None, "FAILED"),
        ("2026-12-02T08:00:00Z", None, None, None),
        ("2026-12-03T08:00:00Z", None, None, None),
        *((f"2026-12-0{day}T08:00:00Z", None, None, None) for day in (4, 5, 6)),
    ]


async def test_an_item_carries_its_schedules_title_zone_cadence_and_local_fields(
    client: httpx.AsyncClient, scene: Scene
) -> None:
    cadence = {
        "kind": "WEEKLY",
        "local_time": "07:30:00",
        "weekdays": [3],
        "timezone": "Asia/Kolkata",
    }
    scene.create(title="Weekly report", cadence=cadence)

    (item,) = await _walk(client)

    assert item == {
        "at": "2026-12-02T02:00:00Z",
        "local_date": "2026-12-02",
        "local_time": "07:30:00",
        "scheduled_date": "2026-12-02",
        "scheduled_time": "07:30:00",
        "adjustment": None,
        "schedule_id": item["schedule_id"],
        "title": "Weekly report",
        "state": "ACTIVE",
        "timezone": "Asia/Kolkata",
        "cadence": cadence,
        "as_if_resumed": False,
        "disposition": None,
        "reason_code": None,
        "run_status": None,
        "clash_count": 1,
        "may_overlap": False,
    }


async def test_may_overlap_marks_a_firing_closer_to_the_last_than_its_run_limit(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    clock.now = datetime(2027, 3, 20, tzinfo=UTC)
    scene.create(run_timeout_seconds=86_400)  # daily, a day's limit: only a short day overlaps

    items = await _walk(client, **{"from": "2027-03-26T00:00:00Z", "to": "2027-03-31T00:00:00Z"})

    assert [(i["local_date"], i["may_overlap"]) for i in items] == [
        ("2027-03-26", False),
        ("2027-03-27", False),
        ("2027-03-28", True),  # 23 hours after the 27th's: the clocks went forward
        ("2027-03-29", False),
        ("2027-03-30", False),
    ]


async def test_a_firing_moved_to_a_transition_at_the_window_start_is_listed(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    clock.now = datetime(2027, 3, 1, tzinfo=UTC)
    cadence = {"kind": "DAILY", "local_time": "02:30", "timezone": "America/New_York"}
    scene.create(cadence=cadence)

    items = await _walk(client, **{"from": "2027-03-14T07:00:00Z", "to": "2027-03-14T08:00:00Z"})

    assert [(i["at"], i["local_time"], i["adjustment"]) for i in items] == [
        ("2027-03-14T07:00:00Z", "03:00:00", "MOVED_TO_TRANSITION"),
    ]


def _ids(items: list[dict[str, Any]]) -> set[UUID]:
    return {UUID(item["schedule_id"]) for item in items}


async def test_a_full_update_moves_the_schedules_firings_to_its_new_cadence(
    client: httpx.AsyncClient, scene: Scene
) -> None:
    view = scene.create()
    tokyo = {"kind": "DAILY", "local_time": "07:00", "timezone": "Asia/Tokyo"}
    scene.service.update(
        ALICE, view.schedule.schedule_id, 1, definition(title="Tokyo", cadence=tokyo)
    )

    items = await _walk(client)

    assert {(i["local_time"], i["timezone"], i["title"]) for i in items} == {
        ("07:00:00", "Asia/Tokyo", "Tokyo")
    }
    assert len(items) == 7  # 22:00 UTC, 30 November to 6 December


def _expected(items: list[dict[str, Any]]) -> list[str]:
    return [item["at"] for item in items if item.get("expected")]


async def test_an_unrecorded_past_instant_is_expected_and_a_recorded_or_future_one_is_not(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    scene.create()
    clock.now = DAY_1 + timedelta(seconds=30)
    assert scene.scan().written == 1
    clock.now = DAY_1 + timedelta(days=2, hours=1)  # 2 and 3 December went unrecorded

    items = await _walk(client)

    assert [(i["at"], i["disposition"], i.get("expected")) for i in items] == [
        ("2026-12-01T08:00:00Z", "MATERIALIZED", None),
        ("2026-12-02T08:00:00Z", None, True),
        ("2026-12-03T08:00:00Z", None, True),
        *((f"2026-12-0{day}T08:00:00Z", None, None) for day in (4, 5, 6)),
    ]


async def test_an_instant_within_the_overdue_threshold_is_not_yet_expected(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    scene.create()
    clock.now = DAY_1 + timedelta(seconds=59)

    items = await _walk(client)

    assert items[0]["at"] == "2026-12-01T08:00:00Z" and items[0]["disposition"] is None
    assert _expected(items) == []


async def test_the_agenda_expects_what_the_projection_expects_after_a_resume(
    client: httpx.AsyncClient, scene: Scene, clock: Clock
) -> None:
    view = scene.create()
    schedule_id = view.schedule.schedule_id
    clock.now = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    scene.service.pause(ALICE, schedule_id, 1)
    clock.now = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    scene.service.resume(ALICE, schedule_id, 1)
    clock.now = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)

    items = await _walk(client)
    projection = await client.get(f"/v1/schedules/{schedule_id}/projection", params=WEEK)

    # Its paused days are listed (computed from its creation) but never expected.
    assert [i["at"] for i in items][:3] == [f"2026-12-0{day}T08:00:00Z" for day in (1, 2, 3)]
    assert _expected(items) == ["2026-12-04T08:00:00Z", "2026-12-05T08:00:00Z"]
    past = projection.json()["past"]
    assert _expected(items) == [p["nominal_fire_at"] for p in past if p["expected"]]


async def test_an_agenda_page_of_future_firings_reads_no_span(
    client: httpx.AsyncClient, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene.create()
    asked: list[object] = []
    monkeypatch.setattr(scene.store.schedules, "active_since", asked.append)

    items = await _walk(client)

    assert len(items) == 6 and asked == []


async def test_the_openapi_documents_expected_as_an_optional_agenda_field(
    client: httpx.AsyncClient,
) -> None:
    document = (await client.get("/openapi.json")).json()
    schema = document["components"]["schemas"]["AgendaItem"]

    assert schema["properties"]["expected"]["type"] == "boolean"
    assert "expected" not in schema.get("required", [])
