"""The Agenda destination: its routes, a row opening its schedule, Back returning to its day."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID
from zoneinfo import ZoneInfo

import pytest
import respx

from devtools.api_bodies import detail, page, page_json, principal, uid
from tests.clock import FakeClock
from tests.viewmodels.agenda.conftest import item
from tests.viewmodels.fake_server import ScriptedRoute, ok
from transport.client import ScheduleClient
from viewmodels.agenda import AgendaSpan, AgendaViewModel
from viewmodels.detail import DetailPhase, ScheduleDetailViewModel
from viewmodels.navigation import AGENDA_ROUTE, Location, NavigationViewModel, Place, parse_location
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.sidebar import SessionMessagesViewModel, SidebarViewModel

ID = UUID("6a305594-85dc-5c5b-a98b-c6797d9b2615")


@pytest.mark.parametrize(
    ("route", "expected"),
    [
        ("/agenda", Location(Place.AGENDA)),
        ("/agenda/", Location(Place.AGENDA)),
        (f"/agenda/schedules/{ID}", Location(Place.AGENDA_SCHEDULE, ID)),
        ("/agenda/schedules/not-a-uuid", Location(Place.AGENDA)),
        ("/agenda/elsewhere", Location(Place.AGENDA)),
    ],
)
def test_agenda_routes_read_as_the_agenda_and_its_details(route: str, expected: Location) -> None:
    assert parse_location(route) == expected
    assert parse_location(expected.route) == expected


@pytest.fixture
def schedule_detail(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> ScheduleDetailViewModel:
    ScriptedRoute(router, "GET", f"/v1/schedules/{uid('a')}", key="none").script(
        None, ok(detail("a"))
    )
    ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
    ScriptedRoute(router, "GET", "/v1/browser-profiles").script(None, ok(page([])))
    return ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)


@pytest.fixture
def navigation(
    api: ScheduleClient,
    clock: FakeClock,
    device_zone: ZoneInfo,
    agenda: AgendaViewModel,
    agenda_route: ScriptedRoute,
    schedule_detail: ScheduleDetailViewModel,
) -> NavigationViewModel:
    agenda_route.script(None, ok(page_json(item("a", datetime(2026, 12, 3, 9, tzinfo=UTC)))))
    sidebar = SidebarViewModel(api, MemoryStorage(), clock=clock, device_zone=device_zone)
    return NavigationViewModel(
        schedules=ScheduleListViewModel(api, clock=clock, device_zone=device_zone),
        detail=schedule_detail,
        sidebar=sidebar,
        messages=SessionMessagesViewModel(api, device_zone=device_zone, title_of=sidebar.title_of),
        agenda=agenda,
    )


async def test_following_the_agenda_route_loads_the_agenda(
    navigation: NavigationViewModel, agenda: AgendaViewModel
) -> None:
    assert await navigation.follow(AGENDA_ROUTE) is None
    assert agenda.opened
    assert navigation.back() == "/", "Back leaves the agenda for the sheet"


async def test_a_row_opens_its_schedule_and_back_returns_to_its_day(
    navigation: NavigationViewModel, agenda: AgendaViewModel
) -> None:
    await navigation.follow(AGENDA_ROUTE)
    await agenda.select_span(AgendaSpan.WEEK)
    [day] = agenda.snapshot.days
    route = navigation.open_from_agenda(day.rows[0].schedule_id, day.day)
    await navigation.follow(route)
    assert navigation.snapshot == Location(Place.AGENDA_SCHEDULE, uid("a"))
    assert navigation.snapshot.schedule_id == uid("a")
    back = navigation.back()
    assert back == AGENDA_ROUTE
    await navigation.follow(back)
    assert agenda.snapshot.anchor == day.day
    assert agenda.snapshot.span is AgendaSpan.WEEK
    assert [row.title for d in agenda.snapshot.days for row in d.rows] == ["a"]


async def test_escape_leaves_an_agenda_detail_for_the_agenda_and_the_agenda_for_the_sheet(
    navigation: NavigationViewModel, agenda: AgendaViewModel
) -> None:
    await navigation.follow(f"/agenda/schedules/{uid('a')}")
    assert await navigation.press("Escape") == AGENDA_ROUTE
    await navigation.follow(AGENDA_ROUTE)
    assert await navigation.press("Escape") == "/", "then the agenda for the sheet, as Settings"


async def test_escape_in_the_agenda_clears_its_search_before_leaving(
    navigation: NavigationViewModel, agenda: AgendaViewModel
) -> None:
    await navigation.follow(AGENDA_ROUTE)
    await agenda.type_query("backup")
    assert await navigation.press("Escape") is None
    assert agenda.snapshot.query == ""
    assert await navigation.press("Escape") == "/"


async def test_leaving_the_detail_for_the_agenda_closes_it(
    navigation: NavigationViewModel,
) -> None:
    await navigation.follow(f"/agenda/schedules/{uid('a')}")
    await navigation.follow(AGENDA_ROUTE)
    assert navigation.snapshot.schedule_id is None
    assert navigation._detail.snapshot.phase is DetailPhase.CLOSED
