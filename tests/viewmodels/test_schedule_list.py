"""The schedules sheet: sections, rows, and every paging safeguard (viewmodels/README.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import respx

from devtools.api_bodies import NOW, detail, page, profile, revision_body, summary, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from transport.models import ScheduleDetail
from viewmodels.formatting import Tone
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.paging import FeedPhase
from viewmodels.schedule_list import (
    BROWSING_UNAVAILABLE_TEXT,
    ListSection,
    ScheduleListSnapshot,
    ScheduleListViewModel,
)

CURRENT = ("ACTIVE", "PAUSED")
HISTORY = ("COMPLETED", "CANCELLED")


def make_list(
    api: ScheduleClient, clock: FakeClock, zone: ZoneInfo, **kw: int
) -> ScheduleListViewModel:
    return ScheduleListViewModel(api, clock=clock, device_zone=zone, **kw)


def ids(snapshot: ScheduleListSnapshot) -> list[str]:
    return [row.title for row in snapshot.rows]


async def test_opening_the_sheet_loads_page_one_of_current_with_active_and_paused_filters(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a")], None)))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    request = schedules_route.requests[0]
    assert request.url.params.get_list("state") == ["ACTIVE", "PAUSED"]
    assert request.url.params["limit"] == "20"
    assert "cursor" not in request.url.params
    assert vm.snapshot.section is ListSection.CURRENT
    assert ids(vm.snapshot) == ["Schedule a"]
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_a_person_on_the_12_hour_clock_reads_a_rows_cadence_and_next_firing_as_9_00_am(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script(
        (CURRENT, None), ok(page([summary("a", next_fire_at=NOW + timedelta(hours=1))], None))
    )
    vm = make_list(api, clock, display_zone(device_zone, HourCycle.H12))
    await vm.open()
    [row] = vm.snapshot.rows
    assert row.cadence_summary == "Every day at 9:00 am (Europe/Paris)"
    assert row.next_fire_text == "Next: today at 8:00 am (9:00 am Europe/Paris)"
    assert "Every day at 9:00 am (Europe/Paris)" in row.accessibility_label


async def test_page_size_is_a_constructor_argument(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([], None)))
    vm = make_list(api, clock, device_zone, page_size=50)
    await vm.open()
    assert schedules_route.requests[0].url.params["limit"] == "50"


async def click_recent_history(vm: ScheduleListViewModel) -> None:
    await vm.select_section(ListSection.RECENT_HISTORY)


async def double_click_recent_history(vm: ScheduleListViewModel) -> None:
    """The second click finds the tab chosen (Flutter empties the choice) before the first ran."""
    await asyncio.gather(
        asyncio.create_task(vm.select_section(ListSection.RECENT_HISTORY)),
        asyncio.create_task(vm.keep_section()),
    )


@pytest.mark.parametrize("switch", [click_recent_history, double_click_recent_history])
async def test_switching_to_recent_history_asks_for_completed_and_cancelled(
    switch: Callable[[ScheduleListViewModel], Awaitable[None]],
    api: ScheduleClient,
    schedules_route: ScriptedRoute,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a")])))
    schedules_route.script((HISTORY, None), ok(page([summary("old", state="COMPLETED")])))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    await switch(vm)
    assert schedules_route.requests[-1].url.params.get_list("state") == ["COMPLETED", "CANCELLED"]
    assert vm.snapshot.section is ListSection.RECENT_HISTORY
    assert ids(vm.snapshot) == ["Schedule old"]
    assert vm.snapshot.rows[0].state_label == "Completed"


async def test_pull_to_refresh_reloads_page_one_from_the_server(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script(
        (CURRENT, None), ok(page([summary("a")])), ok(page([summary("b"), summary("a")]))
    )
    vm = make_list(api, clock, device_zone)
    await vm.open()
    await vm.reload()
    assert schedules_route.cursors == [None, None]
    assert ids(vm.snapshot) == ["Schedule b", "Schedule a"]


async def test_row_shows_title_text_state_pause_reason_cadence_next_firing_and_preview(
    api: ScheduleClient,
    router: respx.MockRouter,
    schedules_route: ScriptedRoute,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    ScriptedRoute(router, "GET", "/v1/browser-profiles").script(None, ok(page([profile("p")])))
    schedules_route.script(
        (CURRENT, None),
        ok(
            page(
                [
                    summary(
                        "a",
                        title="Morning news digest",
                        next_fire_at=NOW + timedelta(hours=1),
                        browser_profile_id=uid("p"),
                    ),
                    summary("b", state="PAUSED", pause_reason="failure_limit", preview="Check"),
                ]
            )
        ),
    )
    vm = make_list(api, clock, device_zone)
    await vm.open()
    first, second = vm.snapshot.rows
    assert first.title == "Morning news digest"
    assert first.state_label == "Active"
    assert first.pause_reason_text is None
    assert first.cadence_summary == "Every day at 09:00 (Europe/Paris)"
    assert first.next_fire_text == "Next: today at 08:00 (09:00 Europe/Paris)"
    assert first.preview == "Summarize the overnight news"
    assert first.website_badge == "Website access", "a READY sign-in: the ordinary chip"
    assert not first.website_warning
    assert "Morning news digest" in first.accessibility_label
    assert second.state_label == "Paused"
    assert second.pause_reason_text == "Paused after repeated failures"
    assert second.next_fire_text is None, "no next_fire_at from the server, no next firing"
    assert second.website_badge is None, "no sign-in bound, no badge"


async def test_unknown_state_renders_humanized_not_raw(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a", state="WAITING_FOR_APPROVAL")])))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert vm.snapshot.rows[0].state_label == "Waiting for approval"
    assert vm.snapshot.rows[0].state_tone is Tone.NEUTRAL


async def test_a_row_carries_its_states_tone_for_the_view_to_colour(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script(
        (CURRENT, None), ok(page([summary("a"), summary("b", state="PAUSED", pause_reason="user")]))
    )
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert [row.state_tone for row in vm.snapshot.rows] == [Tone.LIVE, Tone.WARNING]


def test_refresh_is_offered_in_every_phase_but_while_page_one_is_read() -> None:
    offered = {phase for phase in FeedPhase if ScheduleListSnapshot(phase=phase).can_refresh}
    assert offered == set(FeedPhase) - {FeedPhase.LOADING_FIRST_PAGE}


async def test_unknown_cadence_kind_still_renders_its_zone_and_never_breaks_the_row(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    odd = {
        "kind": "EVERY-FORTNIGHT",
        "local_time": "07:15:00",
        "timezone": "Asia/Tokyo",
        "anchor": 3,
    }
    schedules_route.script((CURRENT, None), ok(page([summary("a", cadence=odd), summary("b")])))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert vm.snapshot.rows[0].cadence_summary == "Every fortnight at 07:15 (Asia/Tokyo)"
    assert len(vm.snapshot.rows) == 2


async def test_load_more_follows_the_servers_cursor(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a")], "c2")))
    schedules_route.script((CURRENT, "c2"), ok(page([summary("b")], None)))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert vm.snapshot.phase is FeedPhase.LOADED
    assert vm.snapshot.can_load_more
    await vm.load_more()
    assert schedules_route.cursors == [None, "c2"]
    assert ids(vm.snapshot) == ["Schedule a", "Schedule b"]
    assert vm.snapshot.phase is FeedPhase.END_REACHED
    await vm.load_more()
    assert len(schedules_route.requests) == 2, "nothing more is requested after the end"


async def test_safeguard_1_a_schedule_id_already_shown_is_ignored_when_a_later_page_repeats_it(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a"), summary("b")], "c2")))
    schedules_route.script(
        (CURRENT, "c2"), ok(page([summary("b", title="B again"), summary("c")], None))
    )
    vm = make_list(api, clock, device_zone)
    await vm.open()
    await vm.load_more()
    assert ids(vm.snapshot) == ["Schedule a", "Schedule b", "Schedule c"]


async def test_safeguard_2_a_cursor_that_was_already_requested_ends_paging(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a")], "c2")))
    schedules_route.script((CURRENT, "c2"), ok(page([summary("b")], "c3")))
    schedules_route.script((CURRENT, "c3"), ok(page([summary("c")], "c2")))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    for _ in range(5):
        await vm.load_more()
    assert schedules_route.cursors == [None, "c2", "c3"]
    assert vm.snapshot.phase is FeedPhase.END_REACHED
    assert not vm.snapshot.can_load_more
    assert ids(vm.snapshot) == ["Schedule a", "Schedule b", "Schedule c"]


async def test_safeguard_2_a_page_naming_its_own_cursor_as_next_ends_paging(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a")], "c2")))
    schedules_route.script((CURRENT, "c2"), ok(page([summary("b")], "c2")))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    await vm.load_more()
    await vm.load_more()
    assert schedules_route.cursors == [None, "c2"]
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_safeguard_3_an_older_reload_never_overwrites_a_newer_one(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    slow = schedules_route.hold((CURRENT, None), ok(page([summary("old")])))
    schedules_route.script((CURRENT, None), ok(page([summary("new")])))
    vm = make_list(api, clock, device_zone)
    first = asyncio.create_task(vm.reload())
    await slow.arrived.wait()
    await vm.reload()
    assert ids(vm.snapshot) == ["Schedule new"]
    slow.release()
    await first
    assert ids(vm.snapshot) == ["Schedule new"], "the stale first answer was dropped"
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_safeguard_3_switching_section_counts_as_a_reload(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    slow = schedules_route.hold((CURRENT, None), ok(page([summary("current")])))
    schedules_route.script((HISTORY, None), ok(page([summary("done", state="CANCELLED")])))
    vm = make_list(api, clock, device_zone)
    opening = asyncio.create_task(vm.open())
    await slow.arrived.wait()
    await vm.select_section(ListSection.RECENT_HISTORY)
    slow.release()
    await opening
    assert vm.snapshot.section is ListSection.RECENT_HISTORY
    assert ids(vm.snapshot) == ["Schedule done"]


async def test_safeguard_3_a_later_page_of_an_older_reload_is_dropped(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script(
        (CURRENT, None), ok(page([summary("a")], "c2")), ok(page([summary("fresh")], None))
    )
    slow = schedules_route.hold((CURRENT, "c2"), ok(page([summary("stale")])))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    more = asyncio.create_task(vm.load_more())
    await slow.arrived.wait()
    await vm.reload()
    slow.release()
    await more
    assert ids(vm.snapshot) == ["Schedule fresh"]
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_safeguard_4_a_failed_later_page_keeps_rows_and_retry_requests_exactly_that_page(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a")], "c2")))
    schedules_route.script((CURRENT, "c2"), ok(page([summary("b")], "c3")))
    schedules_route.script((CURRENT, "c3"), *server_down(), ok(page([summary("c")], None)))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    await vm.load_more()
    await vm.load_more()
    assert ids(vm.snapshot) == ["Schedule a", "Schedule b"], "loaded rows are kept"
    assert vm.snapshot.later_page_error == "The schedule server failed"
    assert vm.snapshot.first_page_error is None
    assert not vm.snapshot.can_load_more, "the inline retry replaces endless scrolling"
    failed_requests = len(schedules_route.requests)
    await vm.retry()
    assert schedules_route.cursors[failed_requests:] == ["c3"], "exactly the failed page"
    assert schedules_route.cursors.count("c2") == 1
    assert ids(vm.snapshot) == ["Schedule a", "Schedule b", "Schedule c"]
    assert vm.snapshot.later_page_error is None
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_safeguard_5_a_failed_first_page_shows_a_full_page_error_with_retry(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script(
        (CURRENT, None),
        refused(403, "auth.scope_missing", "", scope="schedule.read"),
        ok(page([summary("a")])),
    )
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert vm.snapshot.phase is FeedPhase.FAILED
    assert vm.snapshot.first_page_error == "This account lacks the permission for that action"
    assert vm.snapshot.failure_title == "Schedules could not be loaded"
    assert vm.snapshot.rows == ()
    assert vm.snapshot.empty_text is None, "an error is not an empty section"
    await vm.retry()
    assert schedules_route.cursors == [None, None]
    assert ids(vm.snapshot) == ["Schedule a"]
    assert vm.snapshot.first_page_error is None


async def test_safeguard_6_404_from_the_list_route_means_browsing_unavailable_not_an_error(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), refused(404, "not_found"))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert vm.snapshot.browsing_unavailable
    assert vm.snapshot.unavailable_text == "Schedule browsing isn't available on this server"
    assert vm.snapshot.first_page_error is None
    assert vm.snapshot.unavailable_text == BROWSING_UNAVAILABLE_TEXT


async def test_safeguard_6_405_from_the_list_route_means_browsing_unavailable_not_an_error(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), refused(405, "method_not_allowed"))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert vm.snapshot.browsing_unavailable
    assert vm.snapshot.first_page_error is None
    assert vm.snapshot.rows == ()


async def test_empty_sections_say_so_in_words_that_fit_the_section(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([])))
    schedules_route.script((HISTORY, None), ok(page([])))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert vm.snapshot.empty_text == "No active or paused schedules."
    await vm.select_section(ListSection.RECENT_HISTORY)
    assert vm.snapshot.empty_text == "No completed or cancelled schedules yet."


async def test_loading_phases_are_visible_while_pages_are_in_flight(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    first = schedules_route.hold((CURRENT, None), ok(page([summary("a")], "c2")))
    second = schedules_route.hold((CURRENT, "c2"), ok(page([summary("b")])))
    vm = make_list(api, clock, device_zone)
    seen: list[FeedPhase] = []
    # Other news (the Needs attention count) is published too: phases are kept as they change.
    vm.subscribe(lambda snap: None if seen[-1:] == [snap.phase] else seen.append(snap.phase))
    opening = asyncio.create_task(vm.open())
    await first.arrived.wait()
    assert vm.snapshot.phase is FeedPhase.LOADING_FIRST_PAGE
    first.release()
    await opening
    more = asyncio.create_task(vm.load_more())
    await second.arrived.wait()
    assert vm.snapshot.phase is FeedPhase.LOADING_MORE
    await vm.load_more()
    assert schedules_route.cursors == [None, "c2"], "no second request while one is in flight"
    second.release()
    await more
    assert vm.snapshot.end_of_list_text == "End of list"
    assert seen == [
        FeedPhase.LOADING_FIRST_PAGE,
        FeedPhase.LOADED,
        FeedPhase.LOADING_MORE,
        FeedPhase.END_REACHED,
    ]


async def test_keyboard_arrows_move_the_selection_through_the_rows(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a"), summary("b"), summary("c")])))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert vm.select_next() == uid("a")
    assert vm.select_next() == uid("b")
    assert vm.select_previous() == uid("a")
    assert vm.select_previous() == uid("a"), "stays on the first row"
    vm.select(uid("c"))
    assert vm.snapshot.selected_id == uid("c")
    assert vm.select_next() == uid("c"), "stays on the last row"


async def test_a_website_saved_in_the_detail_updates_its_loaded_row_in_place(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    """The row gains its badge where it is; other rows and later pages stay loaded."""
    schedules_route.script((CURRENT, None), ok(page([summary("a"), summary("b")], "c2")))
    schedules_route.script((CURRENT, "c2"), ok(page([summary("c")], None)))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    await vm.load_more()
    before = vm.snapshot.rows
    saved = ScheduleDetail.model_validate(
        detail("b", revision=revision_body(4, title="Schedule b", browser_profile_id=uid("p")))
    )
    vm.show_saved(saved)
    after = vm.snapshot.rows
    assert [row.schedule_id for row in after] == [row.schedule_id for row in before]
    assert after[0] is before[0] and after[2] is before[2]
    assert after[1].website_badge == "Website access" and before[1].website_badge is None
    assert after[1].preview == before[1].preview
    assert len(schedules_route.requests) == 2, "nothing is re-read"


async def test_a_saved_schedule_that_is_not_loaded_changes_nothing(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a")], None)))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    before = vm.snapshot
    vm.show_saved(ScheduleDetail.model_validate(detail("elsewhere")))
    assert vm.snapshot is before


async def test_an_active_row_whose_bound_sign_in_is_not_ready_shows_the_warning_chip(
    api: ScheduleClient,
    router: respx.MockRouter,
    schedules_route: ScriptedRoute,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    profiles = ScriptedRoute(router, "GET", "/v1/browser-profiles")
    profiles.script(None, ok(page([profile("ready"), profile("expired", state="EXPIRED")])))
    schedules_route.script(
        (CURRENT, None),
        ok(
            page(
                [
                    summary("a", browser_profile_id=uid("expired")),
                    summary("b", browser_profile_id=uid("gone")),
                    summary("c", browser_profile_id=uid("ready")),
                    summary("d", state="PAUSED", browser_profile_id=uid("expired")),
                ]
            )
        ),
    )
    vm = make_list(api, clock, device_zone)
    await vm.open()
    expired, gone, ready, paused = vm.snapshot.rows
    for row in (expired, gone):
        assert row.website_badge == "Website sign-in unavailable" and row.website_warning
        assert row.accessibility_label.endswith("Website sign-in unavailable")
    assert ready.website_badge == "Website access" and not ready.website_warning
    assert paused.website_badge == "Website access", "only an ACTIVE schedule warns"
    assert len(profiles.requests) == 1, "the sign-ins are read once per list load"


async def test_sign_ins_are_not_read_when_no_active_row_is_bound_and_a_refused_read_warns_nobody(
    api: ScheduleClient,
    router: respx.MockRouter,
    schedules_route: ScriptedRoute,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    profiles = ScriptedRoute(router, "GET", "/v1/browser-profiles")
    profiles.script(None, refused(403, "auth.scope_missing", "", scope="browser.profile.read"))
    schedules_route.script((CURRENT, None), ok(page([summary("a")])))
    vm = make_list(api, clock, device_zone)
    await vm.open()
    assert profiles.requests == [], "nothing bound, nothing read"
    schedules_route.rescript((CURRENT, None), ok(page([summary("a", browser_profile_id=uid("p"))])))
    await vm.reload()
    (row,) = vm.snapshot.rows
    assert len(profiles.requests) == 1
    assert row.website_badge == "Website access" and not row.website_warning
