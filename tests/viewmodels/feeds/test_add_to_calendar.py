"""Add to calendar and Subscribe to all schedules, decided by the view model.

A remote server's feed shows its address to copy, and its ``webcal://`` form
to open only where the platform opens links in a calendar app and the
address is https; the embedded server's is saved once as a file (made,
read, revoked), with the sentence that the file is a snapshot. A server
without ``/v1/feeds`` (404/405) shows no control and no error.
"""

from __future__ import annotations

import asyncio
import json

import pytest
import respx

from tests.viewmodels.fake_server import Reply, ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from viewmodels.feeds import ALL, CalendarPhase, FeedOffer, SaveOutcome
from viewmodels.feeds.words import (
    FEED_FAILED_TITLE,
    FEEDS_ENTRY_LABEL,
    HIDE_FEEDS_LABEL,
    NOT_SAVED_TEXT,
    SAVE_ALL_LABEL,
    SAVE_DIALOG_TITLE,
    SNAPSHOT_TEXT,
    SUBSCRIBE_ALL_LABEL,
    SUBSCRIBE_HERE_TEXT,
    SUBSCRIBE_TEXT,
    calendar_file_name,
)
from viewmodels.language import DEFAULT_LOCALE, words_for
from viewmodels.server_kind import ServerKind

from .conftest import (
    CALENDAR,
    FEED_ID,
    SCHEDULE_ID,
    SECRET,
    RecordingSaver,
    adder,
    created_json,
    feed_json,
    feeds_page,
)

ADDRESS = f"https://schedules.test/feeds/{SECRET}.ics"


@pytest.fixture
def offered(feeds_route: ScriptedRoute) -> ScriptedRoute:
    feeds_route.script(None, ok(feeds_page(feed_json())))
    return feeds_route


async def test_no_feed_control_shows_until_the_server_is_known_to_offer_feeds(
    api: ScheduleClient, offered: ScriptedRoute
) -> None:
    offer = FeedOffer(api)
    detail, agenda = adder(api, offer), adder(api, offer)
    assert not detail.snapshot.offered and not agenda.snapshot.offered
    await detail.learn()
    await agenda.learn()
    assert detail.snapshot.offered and agenda.snapshot.offered
    assert len(offered.requests) == 1  # asked once per session


@pytest.mark.parametrize(
    "answer",
    [refused(404, "route.not_found"), Reply(405, {"detail": "Method Not Allowed"})],
    ids=["404", "405"],
)
async def test_a_server_without_feed_routes_shows_no_feed_control_and_no_error(
    api: ScheduleClient, feeds_route: ScriptedRoute, answer: Reply
) -> None:
    feeds_route.script(None, answer)
    offer = FeedOffer(api)
    detail = adder(api, offer)
    await detail.learn()
    assert offer.snapshot is False
    assert not detail.snapshot.offered
    assert detail.snapshot.phase is CalendarPhase.IDLE
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")  # nothing to press: no request
    assert detail.snapshot.phase is CalendarPhase.IDLE


async def test_a_failed_first_question_leaves_the_controls_hidden_and_asks_again(
    api: ScheduleClient, feeds_route: ScriptedRoute
) -> None:
    feeds_route.script(None, *server_down(), ok(feeds_page()))
    offer = FeedOffer(api)
    detail = adder(api, offer)
    await detail.learn()
    assert offer.snapshot is None and not detail.snapshot.offered
    await detail.learn()
    assert detail.snapshot.offered


async def test_add_to_calendar_on_a_remote_server_shows_the_feeds_address_to_copy(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    new_feed_route.script(None, Reply(201, created_json()))
    detail = adder(api, FeedOffer(api))
    await detail.learn()
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert json.loads(new_feed_route.requests[-1].content) == {"schedule_id": str(SCHEDULE_ID)}
    shown = detail.snapshot
    assert (shown.phase, shown.target, shown.address) == (
        CalendarPhase.ADDRESS,
        SCHEDULE_ID,
        ADDRESS,
    )
    assert shown.shows(SCHEDULE_ID) and not shown.shows(ALL)
    assert (shown.text, shown.open_address) == (SUBSCRIBE_TEXT, None)
    assert shown.address_name == f"Calendar feed address: {ADDRESS}"


async def test_on_the_desktop_an_https_address_is_offered_to_open_as_webcal(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    new_feed_route.script(None, Reply(201, created_json()))
    detail = adder(api, FeedOffer(api), opens_links=True)
    await detail.learn()
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert detail.snapshot.open_address == f"webcal://schedules.test/feeds/{SECRET}.ics"
    assert detail.snapshot.text == SUBSCRIBE_HERE_TEXT


async def test_a_plain_http_address_is_never_offered_as_webcal(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    loopback = f"http://127.0.0.1:8765/feeds/{SECRET}.ics"
    new_feed_route.script(None, Reply(201, created_json(url=loopback)))
    detail = adder(api, FeedOffer(api), opens_links=True)
    await detail.learn()
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert (detail.snapshot.address, detail.snapshot.open_address) == (loopback, None)
    assert detail.snapshot.text == SUBSCRIBE_TEXT


async def test_subscribe_to_all_schedules_makes_one_feed_of_every_schedule(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    new_feed_route.script(None, Reply(201, created_json(schedule_id=None)))
    agenda = adder(api, FeedOffer(api))
    await agenda.learn()
    assert (agenda.snapshot.all_label, agenda.snapshot.feeds_entry_label) == (
        SUBSCRIBE_ALL_LABEL,
        FEEDS_ENTRY_LABEL,
    )
    await agenda.add_all()
    assert json.loads(new_feed_route.requests[-1].content) == {"schedule_id": None}
    assert agenda.snapshot.shows(ALL) and agenda.snapshot.address == ADDRESS


async def test_a_failed_feed_says_why_and_close_folds_the_panel(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    new_feed_route.script(None, refused(403, "auth.scope_missing"))
    detail = adder(api, FeedOffer(api))
    await detail.learn()
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert detail.snapshot.phase is CalendarPhase.FAILED
    assert detail.snapshot.error_title == FEED_FAILED_TITLE
    assert detail.snapshot.text.startswith("This account lacks the permission")
    detail.close()
    assert detail.snapshot.phase is CalendarPhase.IDLE and detail.snapshot.offered


async def test_a_person_with_as_many_feeds_as_the_server_keeps_is_told_to_revoke_one(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    new_feed_route.script(
        None, refused(409, "feed.limit_reached", "You already keep 100 feeds.", most=100)
    )
    detail = adder(api, FeedOffer(api))
    await detail.learn()
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert detail.snapshot.phase is CalendarPhase.FAILED
    assert detail.snapshot.text == (
        "You already have as many calendar feeds as this server allows; revoke one to make another"
    )
    assert detail.snapshot.offered, "the controls stay: after a revoke it works again"


async def test_a_feed_route_found_missing_later_hides_every_feed_control(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    new_feed_route.script(None, Reply(405, {"detail": "Method Not Allowed"}))
    offer = FeedOffer(api)
    detail, agenda = adder(api, offer), adder(api, offer)
    await detail.learn()
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert not detail.snapshot.offered and not agenda.snapshot.offered
    assert detail.snapshot.phase is CalendarPhase.IDLE


async def test_closing_the_panel_drops_a_feed_still_being_made(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    held = new_feed_route.hold(None, Reply(201, created_json()))
    detail = adder(api, FeedOffer(api))
    await detail.learn()
    adding = asyncio.ensure_future(detail.add_schedule(SCHEDULE_ID, "Water the plants"))
    await held.arrived.wait()
    assert detail.snapshot.phase is CalendarPhase.WORKING
    detail.close()
    held.release()
    await adding
    assert detail.snapshot.phase is CalendarPhase.IDLE


async def test_on_the_embedded_server_add_to_calendar_saves_the_feeds_calendar_once(
    api: ScheduleClient,
    offered: ScriptedRoute,
    new_feed_route: ScriptedRoute,
    calendar_route: respx.Route,
    revoke_route: respx.Route,
    saver: RecordingSaver,
) -> None:
    new_feed_route.script(None, Reply(201, created_json()))
    detail = adder(api, FeedOffer(api), ServerKind.EMBEDDED, saver=saver)
    await detail.learn()
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert saver.files == [("Water the plants.ics", CALENDAR)]
    assert saver.titles == [SAVE_DIALOG_TITLE]
    assert calendar_route.call_count == 1
    assert revoke_route.calls.last.request.url.path == f"/v1/feeds/{FEED_ID}"
    assert detail.snapshot.phase is CalendarPhase.FILE
    assert detail.snapshot.text == f"Saved Water the plants.ics. {SNAPSHOT_TEXT}"
    assert detail.snapshot.address is None


async def test_in_a_browser_the_embedded_calendar_file_is_a_download(
    api: ScheduleClient,
    offered: ScriptedRoute,
    new_feed_route: ScriptedRoute,
    calendar_route: respx.Route,
    revoke_route: respx.Route,
) -> None:
    new_feed_route.script(None, Reply(201, created_json(schedule_id=None)))
    saver = RecordingSaver(SaveOutcome.DOWNLOADED)
    agenda = adder(api, FeedOffer(api), ServerKind.EMBEDDED, saver=saver)
    await agenda.learn()
    await agenda.add_all()
    assert saver.files == [("All schedules.ics", CALENDAR)]
    assert agenda.snapshot.text == f"Downloaded All schedules.ics. {SNAPSHOT_TEXT}"


async def test_a_cancelled_save_dialog_says_nothing_was_saved(
    api: ScheduleClient,
    offered: ScriptedRoute,
    new_feed_route: ScriptedRoute,
    calendar_route: respx.Route,
    revoke_route: respx.Route,
) -> None:
    new_feed_route.script(None, Reply(201, created_json()))
    detail = adder(
        api, FeedOffer(api), ServerKind.EMBEDDED, saver=RecordingSaver(SaveOutcome.CANCELLED)
    )
    await detail.learn()
    await detail.add_schedule(SCHEDULE_ID, "Water the plants")
    assert detail.snapshot.text == NOT_SAVED_TEXT


async def test_the_embedded_server_keeps_no_feed_so_offers_no_feeds_list(
    api: ScheduleClient, offered: ScriptedRoute, saver: RecordingSaver
) -> None:
    agenda = adder(api, FeedOffer(api), ServerKind.EMBEDDED, saver=saver)
    await agenda.learn()
    assert agenda.snapshot.offered
    assert (agenda.snapshot.all_label, agenda.snapshot.feeds_entry_label) == (SAVE_ALL_LABEL, None)


async def test_the_embedded_server_without_a_way_to_save_files_offers_nothing(
    api: ScheduleClient, offered: ScriptedRoute
) -> None:
    detail = adder(api, FeedOffer(api), ServerKind.EMBEDDED)
    await detail.learn()
    assert not detail.snapshot.offered


@pytest.mark.parametrize(
    ("title", "file_name"),
    [
        ("Water the plants", "Water the plants.ics"),
        ("Backup: ../etc/passwd", "Backup- ..-etc-passwd.ics"),
        ('A<b>c|d?e*f"g\\h', "A-b-c-d-e-f-g-h.ics"),
        ("  ...  ", "Schedule.ics"),
        (None, "Schedule.ics"),
        ("x" * 300, "x" * 80 + ".ics"),
    ],
    ids=["plain", "path", "reserved", "blank", "none", "long"],
)
def test_a_calendar_file_name_has_no_path_or_reserved_characters(
    title: str | None, file_name: str
) -> None:
    assert calendar_file_name(title, words=words_for(DEFAULT_LOCALE)) == file_name


async def test_calendar_feeds_shows_the_list_and_hide_folds_it_whatever_the_panel_does(
    api: ScheduleClient, offered: ScriptedRoute, new_feed_route: ScriptedRoute
) -> None:
    new_feed_route.script(None, Reply(201, created_json(schedule_id=None)))
    agenda = adder(api, FeedOffer(api))
    await agenda.learn()
    agenda.toggle_feeds()
    assert (agenda.snapshot.feeds_shown, agenda.snapshot.feeds_entry_label) == (
        True,
        HIDE_FEEDS_LABEL,
    )
    await agenda.add_all()
    agenda.close()
    assert agenda.snapshot.feeds_shown
    agenda.toggle_feeds()
    assert (agenda.snapshot.feeds_shown, agenda.snapshot.feeds_entry_label) == (
        False,
        FEEDS_ENTRY_LABEL,
    )
