"""The banner when firings are not happening, read from ``GET /v1/scheduler``.

Stopped and late each have their sentence, measured against the injected
clock; the embedded server also says how to recover; a running scheduler,
a state this client does not know, an unreadable answer and a server
without the route (404/405, then not asked again) show nothing. The live
updates read it each round, so the banner goes by itself.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import respx

from devtools.api_bodies import NOW, page, principal, scheduler_json
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from transport.retry import MAX_ATTEMPTS
from viewmodels.detail import ScheduleDetailViewModel
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.live_updates import LiveUpdates
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.scheduler_health import (
    RESTART_APP_TEXT,
    SchedulerHealthSnapshot,
    SchedulerHealthViewModel,
)
from viewmodels.server_kind import ServerKind
from viewmodels.sidebar import SidebarViewModel

STOPPED_AT_0635 = "Schedules are not firing: the server's scheduler last ran at 06:35 (25 min ago)."


@pytest.fixture
def scheduler_route(router: respx.MockRouter) -> ScriptedRoute:
    return ScriptedRoute(router, "GET", "/v1/scheduler", key="none")


def health(
    api: ScheduleClient, clock: FakeClock, zone: ZoneInfo, server: ServerKind = ServerKind.PLATFORM
) -> SchedulerHealthViewModel:
    return SchedulerHealthViewModel(api, clock=clock, device_zone=zone, server=server)


async def test_a_stopped_scheduler_says_schedules_are_not_firing_and_when_it_last_ran(
    api: ScheduleClient, scheduler_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    scheduler_route.script(None, ok(scheduler_json()))
    vm = health(api, clock, device_zone)
    await vm.check()
    assert vm.snapshot == SchedulerHealthSnapshot(STOPPED_AT_0635, None, stopped=True)


async def test_a_person_on_the_12_hour_clock_reads_when_the_scheduler_last_ran_as_6_35_am(
    api: ScheduleClient, scheduler_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    scheduler_route.script(None, ok(scheduler_json()))
    vm = health(api, clock, display_zone(device_zone, HourCycle.H12))
    await vm.check()
    assert vm.snapshot.banner_text == (
        "Schedules are not firing: the server's scheduler last ran at 6:35 am (25 min ago)."
    )


async def test_a_late_scheduler_says_firings_run_late_and_how_long_ago_it_ran(
    api: ScheduleClient, scheduler_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    tick = NOW - timedelta(seconds=45)
    scheduler_route.script(None, ok(scheduler_json(state="late", last_tick_at=tick)))
    vm = health(api, clock, device_zone)
    await vm.check()
    assert vm.snapshot.banner_text == "Firings are running late: the scheduler last ran 45 s ago."
    assert not vm.snapshot.stopped


async def test_a_scheduler_that_never_ran_says_so_without_a_time(
    api: ScheduleClient, scheduler_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    scheduler_route.script(None, ok(scheduler_json(last_tick_at=None)))
    vm = health(api, clock, device_zone)
    await vm.check()
    assert vm.snapshot.banner_text == (
        "Schedules are not firing: the server's scheduler has not run."
    )


async def test_the_embedded_server_says_to_restart_the_app_and_a_platform_does_not(
    api: ScheduleClient, scheduler_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    scheduler_route.script(None, ok(scheduler_json()))
    embedded = health(api, clock, device_zone, ServerKind.EMBEDDED)
    platform = health(api, clock, device_zone, ServerKind.PLATFORM)
    await embedded.check()
    await platform.check()
    assert embedded.snapshot.recovery_text == RESTART_APP_TEXT
    assert embedded.snapshot.banner_text == platform.snapshot.banner_text == STOPPED_AT_0635
    assert platform.snapshot.recovery_text is None


async def test_the_banner_goes_by_itself_once_the_scheduler_runs_again(
    api: ScheduleClient, scheduler_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    scheduler_route.script(
        None, ok(scheduler_json()), ok(scheduler_json(state="running", last_tick_at=NOW))
    )
    vm = health(api, clock, device_zone)
    await vm.check()
    assert vm.snapshot.banner_text is not None
    await vm.check()
    assert vm.snapshot == SchedulerHealthSnapshot()


async def test_the_stopped_age_is_measured_again_as_the_clock_moves(
    api: ScheduleClient, scheduler_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    scheduler_route.script(None, ok(scheduler_json()))
    vm = health(api, clock, device_zone)
    await vm.check()
    seen: list[SchedulerHealthSnapshot] = []
    vm.subscribe(seen.append)
    vm.refresh_clock_texts()
    assert seen == [], "published only on change"
    clock.advance(minutes=5)
    vm.refresh_clock_texts()
    assert vm.snapshot.banner_text == (
        "Schedules are not firing: the server's scheduler last ran at 06:35 (30 min ago)."
    )


@pytest.mark.parametrize("status", [404, 405])
async def test_a_server_without_the_route_shows_no_banner_and_is_not_asked_again(
    api: ScheduleClient,
    scheduler_route: ScriptedRoute,
    clock: FakeClock,
    device_zone: ZoneInfo,
    status: int,
) -> None:
    scheduler_route.script(None, refused(status, "http.not_found"))
    vm = health(api, clock, device_zone)
    await vm.check()
    await vm.check()
    assert vm.snapshot == SchedulerHealthSnapshot()
    assert not vm.offered
    assert len(scheduler_route.requests) == 1


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(ok(scheduler_json(state="resting")), id="unknown-state"),
        pytest.param(ok(scheduler_json(state="running")), id="running"),
        pytest.param(ok({"last_tick_at": None}), id="unreadable"),
        pytest.param(server_down()[0], id="server-error"),
    ],
)
async def test_a_running_unknown_or_unreadable_answer_shows_no_banner(
    api: ScheduleClient,
    scheduler_route: ScriptedRoute,
    clock: FakeClock,
    device_zone: ZoneInfo,
    answer: object,
) -> None:
    scheduler_route.script(None, ok(scheduler_json()))
    vm = health(api, clock, device_zone)
    await vm.check()
    assert vm.snapshot.banner_text is not None
    scheduler_route.rescript(None, answer)  # type: ignore[arg-type]
    await vm.check()
    assert vm.snapshot == SchedulerHealthSnapshot()
    assert vm.offered


async def test_each_live_round_reads_the_scheduler_and_its_failure_fails_no_round(
    api: ScheduleClient,
    router: respx.MockRouter,
    scheduler_route: ScriptedRoute,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    ScriptedRoute(router, "GET", "/v1/schedules", key="states+cursor").script(
        (("ACTIVE", "PAUSED"), None), ok(page([]))
    )
    ScriptedRoute(router, "GET", "/v1/sessions").script(None, ok(page([])))
    ScriptedRoute(router, "GET", "/v1/folders").script(None, ok(page([])))
    ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
    scheduler_route.script(
        None,
        ok(scheduler_json()),
        *server_down(),
        ok(scheduler_json(state="running", last_tick_at=NOW)),
    )
    schedules = ScheduleListViewModel(api, clock=clock, device_zone=device_zone)
    scheduler = health(api, clock, device_zone)
    live = LiveUpdates(
        schedules=schedules,
        detail=ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone),
        sidebar=SidebarViewModel(api, MemoryStorage(), clock=clock, device_zone=device_zone),
        clock=clock,
        scheduler=scheduler,
    )
    await schedules.open()
    await live.check()
    assert scheduler.snapshot.banner_text == STOPPED_AT_0635
    await live.check()
    assert live.failures == 0, "an unreadable scheduler status is not an unreachable server"
    assert scheduler.snapshot.banner_text is None
    await live.check()
    assert scheduler.snapshot == SchedulerHealthSnapshot()
    assert len(scheduler_route.requests) == 1 + MAX_ATTEMPTS + 1, "once a round (and retries)"


async def test_a_window_reads_a_remote_scheduler_at_once_and_the_embedded_one_at_its_first_round(
    api: ScheduleClient, scheduler_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    scheduler_route.script(None, ok(scheduler_json(last_tick_at=None)))
    remote = health(api, clock, device_zone, ServerKind.PLATFORM)
    embedded = health(api, clock, device_zone, ServerKind.EMBEDDED)
    await remote.first_look()
    await embedded.first_look()
    assert remote.snapshot.banner_text is not None
    assert embedded.snapshot.banner_text is None, "its scheduler may not have ticked yet"
    assert len(scheduler_route.requests) == 1
