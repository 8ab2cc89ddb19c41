"""The feeds list: each feed's name and creation date, and Revoke that asks first.

Revoke asks in a sentence naming the feed; only Revoke in that question
sends ``DELETE /v1/feeds/{id}``, then the list is read again. A feed revoked
elsewhere meanwhile (404) is gone all the same; any other failure says why
and keeps the row. A server without feeds shows nothing.
"""

from __future__ import annotations

from uuid import UUID
from zoneinfo import ZoneInfo

import httpx
import pytest
import respx

from tests.viewmodels.fake_server import Reply, ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from viewmodels.feeds import AddToCalendarViewModel, CalendarFeedsViewModel, FeedOffer, FeedRow
from viewmodels.feeds.words import FEEDS_EMPTY_TEXT
from viewmodels.server_kind import ServerKind

from .conftest import FEED_ID, SCHEDULE_ID, created_json, feed_json, feeds_page

ALL_ID = UUID("11111111-2222-4333-8444-555555555555")
PLANTS = feed_json("Water the plants", created_at="2026-12-01T09:30:00Z")
EVERYTHING = feed_json(
    "All schedules", feed_id=ALL_ID, schedule_id=None, created_at="2026-07-14T23:30:00Z"
)


def feeds_list(api: ScheduleClient, zone: ZoneInfo) -> CalendarFeedsViewModel:
    return CalendarFeedsViewModel(api, FeedOffer(api), device_zone=zone)


async def test_each_feed_shows_its_name_and_creation_date_in_the_devices_zone(
    api: ScheduleClient, feeds_route: ScriptedRoute, device_zone: ZoneInfo
) -> None:
    feeds_route.script(None, ok(feeds_page(PLANTS, EVERYTHING)))
    feeds = feeds_list(api, device_zone)
    await feeds.load()
    assert feeds.snapshot.offered and feeds.snapshot.empty_text is None
    # 23:30 UTC on 14 July is 00:30 on 15 July in London's summer time.
    assert feeds.snapshot.rows == (
        FeedRow(
            FEED_ID,
            "Water the plants",
            "Created 1 Dec 2026",
            "Water the plants, created 1 Dec 2026",
            "Revoke “Water the plants”? Calendar apps subscribed to it stop receiving"
            " firings at once.",
        ),
        FeedRow(
            ALL_ID,
            "All schedules",
            "Created 15 Jul 2026",
            "All schedules, created 15 Jul 2026",
            "Revoke “All schedules”? Calendar apps subscribed to it stop receiving"
            " firings at once.",
        ),
    )


async def test_no_feeds_says_where_feeds_come_from(
    api: ScheduleClient, feeds_route: ScriptedRoute, device_zone: ZoneInfo
) -> None:
    feeds_route.script(None, ok(feeds_page()))
    feeds = feeds_list(api, device_zone)
    await feeds.load()
    assert (feeds.snapshot.rows, feeds.snapshot.empty_text) == ((), FEEDS_EMPTY_TEXT)


async def test_revoke_asks_first_and_only_the_answer_revokes(
    api: ScheduleClient,
    feeds_route: ScriptedRoute,
    revoke_route: respx.Route,
    device_zone: ZoneInfo,
) -> None:
    feeds_route.script(None, ok(feeds_page(PLANTS, EVERYTHING)), ok(feeds_page(EVERYTHING)))
    feeds = feeds_list(api, device_zone)
    await feeds.load()
    feeds.ask_revoke(FEED_ID)
    assert feeds.snapshot.confirming == FEED_ID
    assert not revoke_route.called
    await feeds.confirm_revoke()
    assert revoke_route.calls.last.request.url.path == f"/v1/feeds/{FEED_ID}"
    assert feeds.snapshot.confirming is None
    assert [row.feed_id for row in feeds.snapshot.rows] == [ALL_ID]


async def test_cancel_keeps_the_feed(
    api: ScheduleClient,
    feeds_route: ScriptedRoute,
    revoke_route: respx.Route,
    device_zone: ZoneInfo,
) -> None:
    feeds_route.script(None, ok(feeds_page(PLANTS)))
    feeds = feeds_list(api, device_zone)
    await feeds.load()
    feeds.ask_revoke(FEED_ID)
    feeds.cancel_revoke()
    await feeds.confirm_revoke()  # nothing is being asked any more
    assert not revoke_route.called
    assert feeds.snapshot.confirming is None and len(feeds.snapshot.rows) == 1


async def test_a_feed_revoked_elsewhere_meanwhile_is_gone_all_the_same(
    api: ScheduleClient,
    feeds_route: ScriptedRoute,
    router: respx.MockRouter,
    device_zone: ZoneInfo,
) -> None:
    feeds_route.script(None, ok(feeds_page(PLANTS)), ok(feeds_page()))
    router.delete(f"/v1/feeds/{FEED_ID}").respond(
        404, json={"error": {"code": "feed.not_found", "message": "", "details": {}}}
    )
    feeds = feeds_list(api, device_zone)
    await feeds.load()
    feeds.ask_revoke(FEED_ID)
    await feeds.confirm_revoke()
    assert feeds.snapshot.revoke_error is None
    assert (feeds.snapshot.rows, feeds.snapshot.empty_text) == ((), FEEDS_EMPTY_TEXT)


async def test_a_failed_revoke_says_why_and_keeps_the_row(
    api: ScheduleClient,
    feeds_route: ScriptedRoute,
    router: respx.MockRouter,
    device_zone: ZoneInfo,
) -> None:
    feeds_route.script(None, ok(feeds_page(PLANTS)))
    router.delete(f"/v1/feeds/{FEED_ID}").mock(side_effect=httpx.ConnectError("down"))
    feeds = feeds_list(api, device_zone)
    await feeds.load()
    feeds.ask_revoke(FEED_ID)
    await feeds.confirm_revoke()
    assert feeds.snapshot.revoke_error == (
        "Couldn't revoke “Water the plants”: Could not reach the schedule server"
    )
    assert feeds.snapshot.confirming == FEED_ID and len(feeds.snapshot.rows) == 1


async def test_a_failed_list_says_why_and_retry_reads_it_again(
    api: ScheduleClient, feeds_route: ScriptedRoute, device_zone: ZoneInfo
) -> None:
    # The first answer tells the server offers feeds; the list itself then fails once.
    feeds_route.script(None, ok(feeds_page(PLANTS)), *server_down(), ok(feeds_page(PLANTS)))
    feeds = feeds_list(api, device_zone)
    await feeds.load()
    assert feeds.snapshot.error is not None and feeds.snapshot.rows == ()
    await feeds.retry()
    assert feeds.snapshot.error is None and len(feeds.snapshot.rows) == 1


@pytest.mark.parametrize("status", [404, 405])
async def test_a_server_without_feeds_shows_no_list(
    api: ScheduleClient, feeds_route: ScriptedRoute, device_zone: ZoneInfo, status: int
) -> None:
    feeds_route.script(None, refused(status, "route.not_found"))
    feeds = feeds_list(api, device_zone)
    await feeds.load()
    assert not feeds.snapshot.offered
    assert feeds.snapshot.error is None and feeds.snapshot.rows == ()


async def test_a_feed_made_while_the_list_shows_appears_in_it(
    api: ScheduleClient,
    feeds_route: ScriptedRoute,
    new_feed_route: ScriptedRoute,
    device_zone: ZoneInfo,
) -> None:
    before, after = ok(feeds_page(EVERYTHING)), ok(feeds_page(PLANTS, EVERYTHING))
    feeds_route.script(None, before, before, after)  # the first answers whether feeds exist
    new_feed_route.script(None, Reply(201, created_json()))
    offer = FeedOffer(api)
    feeds = CalendarFeedsViewModel(api, offer, device_zone=device_zone)
    detail = AddToCalendarViewModel(
        api, offer, server=ServerKind.PLATFORM, on_feed_made=feeds.refresh
    )
    await feeds.load()
    assert [row.feed_id for row in feeds.snapshot.rows] == [ALL_ID]
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert [row.feed_id for row in feeds.snapshot.rows] == [FEED_ID, ALL_ID]


async def test_a_list_never_shown_is_not_read_when_a_feed_is_made(
    api: ScheduleClient, feeds_route: ScriptedRoute, device_zone: ZoneInfo
) -> None:
    feeds = feeds_list(api, device_zone)
    await feeds.refresh()
    assert feeds_route.requests == []
