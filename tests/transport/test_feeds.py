"""The calendar feed routes through the client: make, list, revoke, and read a feed's calendar.

A relative address is made absolute against the client's server; the
calendar is read from the client's own server whatever host the address
names; a server without the routes (404/405) answers ``FEEDS_NOT_OFFERED``,
while a 404 naming the schedule or the feed stays a ``NotFound``.
"""

from __future__ import annotations

import json
from uuid import UUID

import pytest
import respx

from transport.client import ScheduleClient
from transport.errors import NotFound
from transport.models import FEEDS_NOT_OFFERED, CreatedFeed

from .conftest import BASE_URL, TOKEN

FEED_ID = UUID("6f1c2d3e-4b5a-4c6d-8e7f-901234567890")
SCHEDULE_ID = UUID("0b9f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b")
SECRET = "s3cr3t-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-"


def feed_json(**extra: object) -> dict[str, object]:
    return {
        "feed_id": str(FEED_ID),
        "schedule_id": str(SCHEDULE_ID),
        "name": "Water the plants",
        "created_at": "2026-12-06T09:30:00Z",
        **extra,
    }


def refusal(code: str) -> dict[str, object]:
    return {"error": {"code": code, "message": "", "details": {}}}


async def test_a_new_feed_sends_its_schedule_and_reads_an_absolute_address(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.post("/v1/feeds").respond(201, json=feed_json(url=f"/feeds/{SECRET}.ics"))
    created = await client.create_feed(SCHEDULE_ID, name="Plants")
    assert isinstance(created, CreatedFeed)
    assert json.loads(route.calls.last.request.content) == {
        "schedule_id": str(SCHEDULE_ID),
        "name": "Plants",
    }
    assert created.url == f"{BASE_URL}/feeds/{SECRET}.ics"
    assert (created.feed_id, created.name) == (FEED_ID, "Water the plants")


async def test_a_feed_of_all_schedules_sends_a_null_schedule_and_keeps_an_absolute_address(
    router: respx.Router, client: ScheduleClient
) -> None:
    public = f"https://calendar.example.test/feeds/{SECRET}.ics"
    route = router.post("/v1/feeds").respond(201, json=feed_json(schedule_id=None, url=public))
    created = await client.create_feed(None)
    assert json.loads(route.calls.last.request.content) == {"schedule_id": None}
    assert isinstance(created, CreatedFeed)
    assert (created.schedule_id, created.url) == (None, public)


async def test_the_list_reads_feeds_without_addresses(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/feeds").respond(200, json={"items": [feed_json()], "next_cursor": "c2"})
    page = await client.list_feeds(limit=10, cursor="c1")
    assert page is not FEEDS_NOT_OFFERED
    assert [feed.feed_id for feed in page.items] == [FEED_ID]
    assert page.next_cursor == "c2"
    assert list(route.calls.last.request.url.params.multi_items()) == [
        ("limit", "10"),
        ("cursor", "c1"),
    ]


async def test_revoking_answers_nothing_on_204(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.delete(f"/v1/feeds/{FEED_ID}").respond(204)
    assert await client.revoke_feed(FEED_ID) is None
    assert route.called


@pytest.mark.parametrize("status", [404, 405])
async def test_a_server_without_feed_routes_answers_not_offered(
    router: respx.Router, client: ScheduleClient, status: int
) -> None:
    body = refusal("route.not_found") if status == 404 else {"detail": "Method Not Allowed"}
    router.post("/v1/feeds").respond(status, json=body)
    router.get("/v1/feeds").respond(status, json=body)
    router.delete(f"/v1/feeds/{FEED_ID}").respond(status, json=body)
    assert await client.create_feed(SCHEDULE_ID) is FEEDS_NOT_OFFERED
    assert await client.list_feeds() is FEEDS_NOT_OFFERED
    assert await client.revoke_feed(FEED_ID) is FEEDS_NOT_OFFERED


async def test_an_unknown_schedule_or_feed_stays_not_found(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.post("/v1/feeds").respond(404, json=refusal("schedule.not_found"))
    router.delete(f"/v1/feeds/{FEED_ID}").respond(404, json=refusal("feed.not_found"))
    with pytest.raises(NotFound):
        await client.create_feed(SCHEDULE_ID)
    with pytest.raises(NotFound):
        await client.revoke_feed(FEED_ID)


@pytest.mark.parametrize(
    "address",
    [
        f"{BASE_URL}/feeds/{SECRET}.ics",
        f"https://elsewhere.example.test/feeds/{SECRET}.ics",
        f"https://elsewhere.example.test/prefix/feeds/{SECRET}.ics",
    ],
    ids=["own-server", "another-host", "another-host-under-a-prefix"],
)
async def test_a_feeds_calendar_is_read_from_the_clients_own_server(
    router: respx.Router, client: ScheduleClient, address: str
) -> None:
    calendar = b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"
    route = router.get(f"/feeds/{SECRET}.ics").respond(
        200, content=calendar, headers={"Content-Type": "text/calendar; charset=utf-8"}
    )
    assert await client.feed_calendar(address) == calendar
    request = route.calls.last.request
    assert request.url.host == "schedules.example.test"
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
