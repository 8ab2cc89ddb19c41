"""The list's order: newest-updated first, or soonest first, remembered on the device.

The rules of viewmodels/README.md ("List order"), each a test, against a
scripted server answering by (``order``, ``cursor``); an older server answers
400 to ``order=next_fire``.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import respx

from devtools.api_bodies import NOW, page, summary
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from viewmodels.paging import FeedPhase
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ListSection, ScheduleListViewModel
from viewmodels.schedule_list.view_model import ORDER_KEY

SOONEST = "next_fire"
NEWEST = page([summary("late", next_fire_at=NOW + timedelta(hours=5)), summary("early")])
EARLY = NOW + timedelta(minutes=30)
BY_NEXT_FIRE = page([summary("early", next_fire_at=EARLY), summary("late")], None)


@pytest.fixture
def orders(router: respx.MockRouter) -> ScriptedRoute:
    """``GET /v1/schedules`` answering by (order, cursor): page one in each order."""
    route = ScriptedRoute(router, "GET", "/v1/schedules", key="order+cursor")
    route.script((None, None), ok(NEWEST))
    route.script((SOONEST, None), ok(BY_NEXT_FIRE))
    return route


def make_list(
    api: ScheduleClient, clock: FakeClock, zone: ZoneInfo, storage: MemoryStorage | None = None
) -> ScheduleListViewModel:
    return ScheduleListViewModel(api, clock=clock, device_zone=zone, storage=storage)


def titles(vm: ScheduleListViewModel) -> list[str]:
    return [row.title for row in vm.snapshot.rows]


async def test_the_list_starts_newest_updated_first_with_the_order_choice_offered(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert "order" not in orders.requests[0].url.params
    assert vm.snapshot.order_shown
    assert not vm.snapshot.soonest_first
    assert vm.snapshot.soonest_first_label == "Soonest first"
    assert titles(vm) == ["Schedule late", "Schedule early"]


async def test_choosing_soonest_first_reads_page_one_in_that_order_at_once(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    vm = make_list(api, clock, device_zone)
    await vm.open()
    await vm.select_soonest_first(True)
    request = orders.requests[-1]
    assert request.url.params["order"] == SOONEST
    assert "cursor" not in request.url.params
    assert vm.snapshot.soonest_first
    assert titles(vm) == ["Schedule early", "Schedule late"]
    await vm.select_soonest_first(False)
    assert "order" not in orders.requests[-1].url.params
    assert titles(vm) == ["Schedule late", "Schedule early"]


async def test_later_pages_are_read_in_the_chosen_order(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    orders.rescript((SOONEST, None), ok(page([summary("early")], "c2")))
    orders.script((SOONEST, "c2"), ok(page([summary("late")], None)))
    vm = make_list(api, clock, device_zone)
    await vm.select_soonest_first(True)
    await vm.load_more()
    assert orders.requests[-1].url.params["order"] == SOONEST
    assert titles(vm) == ["Schedule early", "Schedule late"]
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_the_chosen_order_is_remembered_on_the_device_and_read_before_page_one(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    storage = MemoryStorage()
    await make_list(api, clock, device_zone, storage).select_soonest_first(True)
    assert await storage.get(ORDER_KEY) == "next_fire"
    before = len(orders.requests)
    reopened = make_list(api, clock, device_zone, storage)
    await reopened.open()
    assert [r.url.params.get("order") for r in orders.requests[before:]] == [SOONEST]
    assert reopened.snapshot.soonest_first
    assert titles(reopened) == ["Schedule early", "Schedule late"]


async def test_a_remembered_order_this_app_does_not_know_is_the_default(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    vm = make_list(api, clock, device_zone, MemoryStorage({ORDER_KEY: "by_colour"}))
    await vm.open()
    assert "order" not in orders.requests[0].url.params
    assert not vm.snapshot.soonest_first


async def test_a_server_refusing_soonest_first_hides_the_choice_and_keeps_its_order(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    orders.rescript(
        (SOONEST, None), refused(400, "request.invalid", field="order", reason="unknown")
    )
    storage = MemoryStorage({ORDER_KEY: "next_fire"})
    vm = make_list(api, clock, device_zone, storage)
    await vm.open()
    assert not vm.snapshot.order_shown
    assert vm.snapshot.first_page_error is None
    assert titles(vm) == ["Schedule late", "Schedule early"]
    await vm.reload()
    assert "order" not in orders.requests[-1].url.params
    assert await storage.get(ORDER_KEY) == "next_fire"  # another server may offer it


async def test_recent_history_offers_no_order_and_lists_in_its_own(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    vm = make_list(api, clock, device_zone, MemoryStorage({ORDER_KEY: "next_fire"}))
    await vm.open()
    await vm.select_section(ListSection.RECENT_HISTORY)
    assert not vm.snapshot.order_shown
    assert "order" not in orders.requests[-1].url.params
    await vm.select_attention(True)
    assert vm.snapshot.order_shown
    assert orders.requests[-1].url.params["order"] == SOONEST


async def test_soonest_first_reads_page_one_again_once_a_shown_firing_passes(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    vm = make_list(api, clock, device_zone)
    await vm.select_soonest_first(True)
    orders.rescript((SOONEST, None), ok(page([summary("late"), summary("early")], None)))
    clock.now = EARLY + timedelta(seconds=1)
    before = len(orders.requests)
    assert await vm.refresh_due()
    assert [r.url.params.get("order") for r in orders.requests[before:]] == [SOONEST]
    assert titles(vm) == ["Schedule late", "Schedule early"]


async def test_soonest_first_a_failed_read_after_a_passed_firing_keeps_the_rows_quietly(
    api: ScheduleClient, orders: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    vm = make_list(api, clock, device_zone)
    await vm.select_soonest_first(True)
    orders.rescript((SOONEST, None), *server_down())
    clock.now = EARLY + timedelta(seconds=1)
    assert not await vm.refresh_due()
    assert titles(vm) == ["Schedule early", "Schedule late"]
    assert vm.snapshot.first_page_error is None
    assert vm.snapshot.phase is FeedPhase.END_REACHED
