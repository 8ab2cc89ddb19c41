"""Search as the person types: debounced, newest query only, paged safely, kept across sections.

The search is the server's (``q``); the list never filters what it paged in.
The debounce's sleep is ``ManualSleep``: a test ends it by hand, so nothing
waits for real time.
"""

from __future__ import annotations

import asyncio
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import page, summary
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok
from tests.viewmodels.manual_sleep import ManualSleep
from transport.client import ScheduleClient
from viewmodels.detail import ScheduleDetailViewModel
from viewmodels.navigation import NavigationViewModel
from viewmodels.paging import FeedPhase
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ListSection, ScheduleListViewModel
from viewmodels.schedule_list.view_model import SEARCH_DEBOUNCE
from viewmodels.sidebar import SessionMessagesViewModel, SidebarViewModel

CURRENT = ("ACTIVE", "PAUSED")
HISTORY = ("COMPLETED", "CANCELLED")


def search_route(router: respx.MockRouter) -> ScriptedRoute:
    route = ScriptedRoute(router, "GET", "/v1/schedules", key="search")
    route.script((CURRENT, None, False, None), ok(page([summary("plain")])))
    return route


def make_list(
    api: ScheduleClient, clock: FakeClock, zone: ZoneInfo, sleep: ManualSleep
) -> ScheduleListViewModel:
    return ScheduleListViewModel(api, clock=clock, device_zone=zone, sleep=sleep)


async def opened_list(
    api: ScheduleClient, clock: FakeClock, zone: ZoneInfo
) -> tuple[ScheduleListViewModel, ManualSleep]:
    """The list opened on Current, with the sleep its debounce waits on."""
    sleep = ManualSleep()
    vm = make_list(api, clock, zone, sleep)
    await vm.open()
    return vm, sleep


async def search_for(vm: ScheduleListViewModel, sleep: ManualSleep, text: str) -> None:
    """Types ``text`` and lets its debounce pass, as a person who then stops typing."""
    typing = asyncio.create_task(vm.type_query(text))
    await sleep.sleepers(1)
    sleep.pass_time()
    await typing


def titles(vm: ScheduleListViewModel) -> list[str]:
    return [row.title for row in vm.snapshot.rows]


async def test_typing_shows_the_text_at_once_and_searches_after_a_debounce_of_at_most_250_ms(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    route.script((CURRENT, "digest", False, None), ok(page([summary("d", title="Digest")])))
    vm, sleep = await opened_list(api, clock, device_zone)
    typing = asyncio.create_task(vm.type_query("digest"))
    await sleep.sleepers(1)
    assert vm.snapshot.query == "digest"
    assert len(route.requests) == 1, "nothing is sent while the person may still be typing"
    assert sleep.asked == [SEARCH_DEBOUNCE] and SEARCH_DEBOUNCE <= 0.25
    sleep.pass_time()
    await typing
    assert route.key_of(route.requests[-1]) == (CURRENT, "digest", False, None)
    assert titles(vm) == ["Digest"]


async def test_only_the_newest_keystroke_is_searched(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    route.script((CURRENT, "dig", False, None), ok(page([summary("d", title="Digest")])))
    vm, sleep = await opened_list(api, clock, device_zone)
    keystrokes = [asyncio.create_task(vm.type_query(text)) for text in ("d", "di", "dig")]
    await sleep.sleepers(3)
    sleep.pass_time()
    await asyncio.gather(*keystrokes)
    assert [route.key_of(r)[1] for r in route.requests] == [None, "dig"]  # type: ignore[index]
    assert titles(vm) == ["Digest"]


async def test_a_slow_answer_to_an_older_query_never_replaces_a_newer_one(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    old = route.hold((CURRENT, "news", False, None), ok(page([summary("n", title="News")])))
    route.script((CURRENT, "newsletter", False, None), ok(page([summary("l", title="Letters")])))
    vm, sleep = await opened_list(api, clock, device_zone)
    first = asyncio.create_task(vm.type_query("news"))
    await sleep.sleepers(1)
    sleep.pass_time()
    await old.arrived.wait()
    second = asyncio.create_task(vm.type_query("newsletter"))
    await sleep.sleepers(2)
    old.release()  # the older answer lands while the newer text waits for its debounce
    await first
    assert titles(vm) == ["Schedule plain"], "an older query's answer was applied"
    sleep.pass_time()
    await second
    assert titles(vm) == ["Letters"]
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_a_slow_answer_to_an_older_query_is_dropped_after_the_newer_one_answered(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    old = route.hold((CURRENT, "a", False, None), ok(page([summary("a", title="Old")])))
    route.script((CURRENT, "ab", False, None), ok(page([summary("b", title="New")])))
    vm, sleep = await opened_list(api, clock, device_zone)
    first = asyncio.create_task(vm.type_query("a"))
    await sleep.sleepers(1)
    sleep.pass_time()
    await old.arrived.wait()
    second = asyncio.create_task(vm.type_query("ab"))
    await sleep.sleepers(2)
    sleep.pass_time()
    await second
    old.release()
    await first
    assert titles(vm) == ["New"]


async def test_search_results_page_with_their_query_and_the_paging_safeguards_hold(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    route.script((CURRENT, "x", False, None), ok(page([summary("a"), summary("b")], "c2")))
    # Page two repeats "b" and names its own cursor again: shown once, paging ends.
    route.script((CURRENT, "x", False, "c2"), ok(page([summary("b"), summary("c")], "c2")))
    vm, sleep = await opened_list(api, clock, device_zone)
    await search_for(vm, sleep, "x")
    await vm.load_more()
    assert route.key_of(route.requests[-1]) == (CURRENT, "x", False, "c2")
    assert titles(vm) == ["Schedule a", "Schedule b", "Schedule c"]
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_the_clear_button_reads_the_section_again_at_once(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    route.script((CURRENT, "x", False, None), ok(page([])))
    vm, sleep = await opened_list(api, clock, device_zone)
    await search_for(vm, sleep, "x")
    assert titles(vm) == []
    await vm.clear_query()
    assert vm.snapshot.query == "" and vm.snapshot.search_clears == 1
    assert route.key_of(route.requests[-1]) == (CURRENT, None, False, None)
    assert titles(vm) == ["Schedule plain"]
    assert len(sleep.asked) == 1, "clearing does not wait for a debounce"


async def test_no_results_say_so_and_offer_the_same_search_in_recent_history(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    route.script((CURRENT, "tax", False, None), ok(page([])))
    route.script((HISTORY, "tax", False, None), ok(page([summary("t", title="Tax return")])))
    vm, sleep = await opened_list(api, clock, device_zone)
    await search_for(vm, sleep, "tax")
    assert vm.snapshot.empty_text == "No current schedules match “tax”"
    assert vm.snapshot.search_elsewhere is ListSection.RECENT_HISTORY
    assert vm.snapshot.search_elsewhere_label == "Search Recent History"
    await vm.select_section(ListSection.RECENT_HISTORY)
    assert vm.snapshot.query == "tax", "the query is kept when the section changes"
    assert route.key_of(route.requests[-1]) == (HISTORY, "tax", False, None)
    assert titles(vm) == ["Tax return"]


async def test_an_empty_or_blank_query_is_no_filter(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    vm, sleep = await opened_list(api, clock, device_zone)
    await search_for(vm, sleep, "   ")
    assert route.key_of(route.requests[-1]) == (CURRENT, None, False, None)
    assert vm.snapshot.empty_text is None and titles(vm) == ["Schedule plain"]


async def test_ctrl_f_and_slash_ask_for_the_search_field_and_escape_clears_the_search(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = search_route(router)
    route.script((CURRENT, "x", False, None), ok(page([])))
    ScriptedRoute(router, "GET", "/v1/sessions").script(None, ok(page([])))
    ScriptedRoute(router, "GET", "/v1/folders").script(None, ok(page([])))
    sleep = ManualSleep()
    schedules = make_list(api, clock, device_zone, sleep)
    sidebar = SidebarViewModel(api, MemoryStorage(), clock=clock, device_zone=device_zone)
    navigation = NavigationViewModel(
        schedules=schedules,
        detail=ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone),
        sidebar=sidebar,
        messages=SessionMessagesViewModel(api, device_zone=device_zone),
    )
    await schedules.open()
    await navigation.press("F", ctrl=True)
    await navigation.press("F", meta=True)
    await navigation.press("/")
    await navigation.press("F")  # a plain F is typing, not a shortcut
    assert schedules.snapshot.search_focus_requests == 3
    await search_for(schedules, sleep, "x")
    assert await navigation.press("Escape") is None
    assert schedules.snapshot.query == ""
    assert route.key_of(route.requests[-1]) == (CURRENT, None, False, None)
