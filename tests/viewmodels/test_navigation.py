"""Routes, Back, Escape and the keyboard, decided by the navigation view model."""

from __future__ import annotations

from uuid import UUID
from zoneinfo import ZoneInfo

import pytest
import respx
from babel import Locale

from devtools.api_bodies import NOW, detail, page, principal, session, summary, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok
from transport.client import ScheduleClient
from viewmodels.detail import DetailPhase, ScheduleDetailViewModel
from viewmodels.navigation import (
    Location,
    NavigationViewModel,
    Place,
    parse_location,
    schedule_route,
    session_route,
)
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.sidebar import SessionMessagesViewModel, SidebarViewModel

ID = UUID("6a305594-85dc-5c5b-a98b-c6797d9b2615")
CURRENT = ("ACTIVE", "PAUSED")


@pytest.mark.parametrize(
    ("route", "expected"),
    [
        ("/", Location(Place.SCHEDULES)),
        ("", Location(Place.SCHEDULES)),
        (None, Location(Place.SCHEDULES)),
        ("/schedules", Location(Place.SCHEDULES)),
        (f"/schedules/{ID}", Location(Place.SCHEDULE, ID)),
        (f"/schedules/{ID}/", Location(Place.SCHEDULE, ID)),
        (f"/schedules/{ID}?from=mail", Location(Place.SCHEDULE, ID)),
        (f"/sessions/{ID}", Location(Place.SESSION, ID)),
        ("/schedules/not-a-uuid", Location(Place.SCHEDULES)),
        ("/elsewhere/entirely", Location(Place.SCHEDULES)),
    ],
)
def test_routes_read_as_screens(route: str | None, expected: Location) -> None:
    assert parse_location(route) == expected


def test_written_routes_round_trip() -> None:
    for route in ("/", schedule_route(ID), session_route(ID)):
        assert parse_location(route).route == route
    assert parse_location(schedule_route(ID)).schedule_id == ID
    assert parse_location(session_route(ID)).session_id == ID
    assert schedule_route(None) == "/"


class Screens:
    """Every view model of one window over the scripted server, and the navigation."""

    def __init__(self, api: ScheduleClient, clock: FakeClock, zone: ZoneInfo) -> None:
        self.schedules = ScheduleListViewModel(api, clock=clock, device_zone=zone)
        self.detail = ScheduleDetailViewModel(api, clock=clock, device_zone=zone)
        self.sidebar = SidebarViewModel(api, MemoryStorage(), clock=clock, device_zone=zone)
        self.messages = SessionMessagesViewModel(
            api, device_zone=zone, title_of=self.sidebar.title_of
        )
        self.navigation = NavigationViewModel(
            schedules=self.schedules,
            detail=self.detail,
            sidebar=self.sidebar,
            messages=self.messages,
        )


@pytest.fixture
def screens(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> Screens:
    ScriptedRoute(router, "GET", "/v1/schedules", key="states+cursor").script(
        (CURRENT, None), ok(page([summary("a"), summary("b")]))
    )
    for name in ("a", "b"):
        ScriptedRoute(router, "GET", f"/v1/schedules/{uid(name)}", key="none").script(
            None, ok(detail(name))
        )
    ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
    ScriptedRoute(router, "GET", "/v1/browser-profiles").script(None, ok(page([])))
    ScriptedRoute(router, "GET", "/v1/folders").script(None, ok(page([])))
    ScriptedRoute(router, "GET", "/v1/sessions").script(
        None, ok(page([session("chat", title="Packing list", last_activity_at=NOW)]))
    )
    ScriptedRoute(router, "GET", f"/v1/sessions/{uid('chat')}/messages").script(None, ok(page([])))
    return Screens(api, clock, device_zone)


def test_a_heading_reads_in_the_persons_language(screens: Screens) -> None:
    in_chinese = NavigationViewModel(
        schedules=screens.schedules,
        detail=screens.detail,
        sidebar=screens.sidebar,
        messages=screens.messages,
        locale=Locale.parse("zh_Hans_CN"),
    )
    assert in_chinese.heading(Place.AGENDA) == "日程"
    assert in_chinese.heading(Place.SETTINGS) == "设置"
    assert screens.navigation.heading(Place.AGENDA) == Place.AGENDA.heading == "Agenda"


async def test_starting_loads_the_sheet_and_the_sidebar(screens: Screens) -> None:
    await screens.navigation.start()
    assert [row.title for row in screens.schedules.snapshot.rows] == ["Schedule a", "Schedule b"]
    assert [row.title for row in screens.sidebar.snapshot.history] == ["Packing list"]


async def test_following_a_schedule_route_opens_its_detail_and_marks_its_row(
    screens: Screens,
) -> None:
    assert await screens.navigation.follow(schedule_route(uid("a"))) is None
    assert screens.navigation.snapshot == Location(Place.SCHEDULE, uid("a"))
    assert screens.detail.snapshot.phase is DetailPhase.LOADED
    assert screens.detail.snapshot.schedule_id == uid("a")
    assert screens.schedules.snapshot.selected_id == uid("a")
    assert screens.sidebar.snapshot.schedules_selected


async def test_following_a_session_route_opens_the_transcript_with_its_title(
    screens: Screens,
) -> None:
    await screens.navigation.start()
    await screens.navigation.follow(session_route(uid("chat")))
    assert screens.messages.snapshot.session_id == uid("chat")
    assert screens.messages.snapshot.title == "Packing list"
    assert screens.sidebar.snapshot.selected_session_id == uid("chat")


async def test_a_transcript_opened_before_the_sidebar_knows_it_gains_its_title_later(
    screens: Screens,
) -> None:
    screens.sidebar.subscribe(lambda _snapshot: screens.messages.refresh_title())
    await screens.navigation.follow(session_route(uid("chat")))
    assert screens.messages.snapshot.title is None
    await screens.sidebar.open()
    assert screens.messages.snapshot.title == "Packing list"


async def test_following_the_sheet_closes_the_detail(screens: Screens) -> None:
    await screens.navigation.follow(schedule_route(uid("a")))
    await screens.navigation.follow("/")
    assert screens.detail.snapshot.phase is DetailPhase.CLOSED
    assert screens.navigation.snapshot == Location(Place.SCHEDULES)


async def test_an_address_that_names_no_screen_is_rewritten_to_the_sheet(
    screens: Screens,
) -> None:
    assert await screens.navigation.follow("/schedules/not-a-uuid") == "/"
    assert await screens.navigation.follow("/elsewhere") == "/"
    assert await screens.navigation.follow(f"/schedules/{uid('a')}?from=mail") is None


async def test_escape_and_back_lead_to_the_sheet_and_do_nothing_on_it(screens: Screens) -> None:
    await screens.navigation.follow(session_route(uid("chat")))
    assert screens.navigation.back() == "/"
    assert await screens.navigation.press("Escape") == "/"
    await screens.navigation.follow("/")
    assert screens.navigation.back() is None
    assert await screens.navigation.press("Escape") is None


async def test_arrows_move_the_selection_and_enter_opens_it(screens: Screens) -> None:
    await screens.navigation.start()
    assert await screens.navigation.press("Arrow Down") is None
    assert await screens.navigation.press("Arrow Down") is None
    assert screens.schedules.snapshot.selected_id == uid("b")
    assert await screens.navigation.press("Arrow Up") is None
    assert await screens.navigation.press("Enter") == schedule_route(uid("a"))
    await screens.navigation.follow(schedule_route(uid("a")))
    assert await screens.navigation.press("Enter") is None, "already open"


async def test_after_tab_enter_is_the_focused_controls_until_the_arrows_lead_again(
    screens: Screens,
) -> None:
    await screens.navigation.start()
    await screens.navigation.press("Arrow Down")
    assert await screens.navigation.press("Tab") is None
    assert await screens.navigation.press("Enter") is None, "a sidebar entry or Close takes it"
    await screens.navigation.press("Arrow Down")
    assert await screens.navigation.press("Enter") == schedule_route(uid("b"))


async def test_enter_opens_nothing_while_a_transcript_is_shown(screens: Screens) -> None:
    await screens.navigation.start()
    await screens.navigation.press("Arrow Down")
    await screens.navigation.follow(session_route(uid("chat")))
    assert await screens.navigation.press("Enter") is None


async def test_ctrl_or_cmd_r_reloads_the_list_and_the_sidebar(
    screens: Screens, router: respx.MockRouter
) -> None:
    await screens.navigation.start()
    before = len(router.calls)
    assert await screens.navigation.press("r", ctrl=True) is None
    assert await screens.navigation.press("R", meta=True) is None
    assert await screens.navigation.press("r") is None, "a plain R is typing, not a reload"
    paths = [call.request.url.path for call in router.calls[before:]]
    assert paths.count("/v1/schedules") == 2
    assert paths.count("/v1/sessions") == 2


async def test_after_enter_the_arrows_move_the_focus_ring_while_the_opened_mark_stays(
    screens: Screens,
) -> None:
    await screens.navigation.start()
    await screens.navigation.press("Arrow Down")
    requests = screens.schedules.snapshot.heading_focus_requests
    route = await screens.navigation.press("Enter")
    assert screens.schedules.snapshot.heading_focus_requests == requests + 1, (
        "Enter moves the focus to the detail's heading"
    )
    await screens.navigation.follow(route)
    await screens.navigation.press("Arrow Down")
    shown = screens.schedules.snapshot
    assert (shown.selected_id, shown.opened_id) == (uid("b"), uid("a"))
    assert screens.detail.snapshot.schedule_id == uid("a")


async def test_escape_returns_the_focus_ring_to_the_opened_row(screens: Screens) -> None:
    await screens.navigation.start()
    await screens.navigation.follow(schedule_route(uid("a")))
    await screens.navigation.press("Arrow Down")
    assert screens.schedules.snapshot.selected_id == uid("b")
    await screens.navigation.follow(await screens.navigation.press("Escape"))
    shown = screens.schedules.snapshot
    assert (shown.selected_id, shown.opened_id) == (uid("a"), None)


async def test_in_settings_escape_leads_to_the_sheet_and_the_list_keys_do_nothing(
    screens: Screens,
) -> None:
    await screens.navigation.start()
    assert await screens.navigation.follow("/settings") is None
    assert screens.navigation.snapshot.place is Place.SETTINGS
    assert await screens.navigation.press("Arrow Down") is None
    assert await screens.navigation.press("Enter") is None
    assert screens.schedules.snapshot.selected_id is None
    assert await screens.navigation.press("Escape") == "/"
