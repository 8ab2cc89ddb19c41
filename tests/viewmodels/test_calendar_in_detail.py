"""The calendar inside the detail: loaded with it, kept current, told apart from the list's keys.

Also the two places outside the calendar that say when the next firing is
adjusted: the detail's Next firing line and the list row.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
import respx

from devtools.api_bodies import detail, firing, page, projection, summary, uid
from tests.viewmodels.calendar_server import CalendarServer
from tests.viewmodels.conftest import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok
from tests.viewmodels.test_navigation import Screens
from tests.viewmodels.test_schedule_detail import detail_route, quiet_picker
from transport.client import ScheduleClient
from transport.models import ScheduleSummary
from viewmodels.calendar import CalendarPhase
from viewmodels.detail import GroupKind, ScheduleDetailViewModel
from viewmodels.navigation import schedule_route
from viewmodels.schedule_list.rows import schedule_row

SPRING_FORWARD = datetime(2027, 3, 14, 7, 0, tzinfo=UTC)


async def test_opening_a_schedule_shows_its_calendar_beside_the_detail(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    detail_route(router, "s1").script(None, ok(detail("s1")))
    server = CalendarServer(router)
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)

    await vm.open(uid("s1"))

    fields = vm.snapshot.fields
    assert fields is not None
    assert [g.title for g in fields.groups if g.kind is GroupKind.CALENDAR] == ["Calendar"]
    assert vm.calendar.snapshot.schedule_id == uid("s1")
    assert vm.calendar.snapshot.phase is CalendarPhase.LOADED
    assert len(server.requests) == 1
    await vm.close()
    assert vm.calendar.snapshot.phase is CalendarPhase.IDLE


async def test_the_next_firing_line_and_the_row_say_when_the_next_firing_is_adjusted(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    detail_route(router, "s1").script(
        None,
        ok(detail("s1", next_fire_at=SPRING_FORWARD, next_fire_adjustment="MOVED_TO_TRANSITION")),
    )
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(uid("s1"))
    assert vm.snapshot.fields is not None
    line = vm.snapshot.fields.value("Next firing")

    assert line == "14 Mar 2027, 07:00 (23:00 America/Los_Angeles), moved by the clock change"
    moved = schedule_row(
        ScheduleSummary.model_validate(
            summary("s1", next_fire_at=SPRING_FORWARD, next_fire_adjustment="MOVED_TO_TRANSITION")
        ),
        clock(),
        device_zone,
    )
    assert moved.next_fire_text == (
        "Next: 14 Mar 2027 at 07:00 (08:00 Europe/Paris, moved by the clock change)"
    )
    assert "moved by the clock change" in moved.accessibility_label
    earlier = summary("s2", next_fire_at=SPRING_FORWARD, next_fire_adjustment="EARLIER_OF_TWO")
    row = schedule_row(ScheduleSummary.model_validate(earlier), clock(), device_zone)
    assert row.next_fire_text == (
        "Next: 14 Mar 2027 at 07:00 (08:00 Europe/Paris, the first of two, as the clocks go back)"
    )
    odd = summary("s3", next_fire_at=SPRING_FORWARD, next_fire_adjustment="SHIFTED_BY_DECREE")
    row = schedule_row(ScheduleSummary.model_validate(odd), clock(), device_zone)
    assert row.next_fire_text == (
        "Next: 14 Mar 2027 at 07:00 (08:00 Europe/Paris, adjusted: shifted by decree)"
    )
    plain = summary("s4", next_fire_at=SPRING_FORWARD)
    row = schedule_row(ScheduleSummary.model_validate(plain), clock(), device_zone)
    assert row.next_fire_text == "Next: 14 Mar 2027 at 07:00 (08:00 Europe/Paris)"


async def test_a_passed_firing_rereads_the_calendar_month_without_a_loading_state(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    due = datetime(2026, 12, 1, 9, tzinfo=UTC)
    detail_route(router, "s1").script(None, ok(detail("s1", next_fire_at=due)))
    server = CalendarServer(router, lambda s, a, b: projection(s, a, b, firings=[firing(due)]))
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(uid("s1"))
    phases: list[CalendarPhase] = []
    vm.calendar.subscribe(lambda snapshot: phases.append(snapshot.phase))

    clock.now = due.replace(minute=1)
    assert await vm.refresh_due()

    assert len(server.requests) == 2
    assert phases == [CalendarPhase.LOADED]


@pytest.fixture
def screens(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> Screens:
    ScriptedRoute(router, "GET", "/v1/schedules", key="states+cursor").script(
        (("ACTIVE", "PAUSED"), None), ok(page([summary("a"), summary("b")]))
    )
    quiet_picker(router)
    detail_route(router, "a").script(None, ok(detail("a")))
    ScriptedRoute(router, "GET", "/v1/folders").script(None, ok(page([])))
    ScriptedRoute(router, "GET", "/v1/sessions").script(None, ok(page([])))
    CalendarServer(router)
    return Screens(api, clock, device_zone)


async def test_the_calendar_takes_the_arrows_only_while_a_day_has_focus(screens: Screens) -> None:
    await screens.navigation.start()
    await screens.navigation.follow(schedule_route(uid("a")))
    calendar = screens.detail.calendar
    chosen = calendar.snapshot.selected_day

    calendar.set_grid_focus(True)
    assert await screens.navigation.press("Arrow Down") is None
    assert screens.schedules.snapshot.selected_id == uid("a"), "the list kept its selection"
    assert calendar.snapshot.selected_day is not None and chosen is not None
    assert (calendar.snapshot.selected_day - chosen).days == 7

    assert await screens.navigation.press("Escape") is None, "the first Escape leaves the grid"
    await screens.navigation.press("Arrow Down")
    assert screens.schedules.snapshot.selected_id == uid("b"), "the list has its arrows back"
    assert (calendar.snapshot.selected_day - chosen).days == 7
    assert await screens.navigation.press("Escape") == "/", "the next one closes the detail"
