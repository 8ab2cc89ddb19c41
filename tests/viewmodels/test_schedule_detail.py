"""The detail pane: the point read, every listed field, not-found, newest open wins."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import NOW, detail, principal, revision_body, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from viewmodels.detail import (
    DetailPhase,
    GroupKind,
    ScheduleDetailSnapshot,
    ScheduleDetailViewModel,
)
from viewmodels.formatting import Tone
from viewmodels.formatting.clock_text import HourCycle, display_zone


def detail_route(router: respx.MockRouter, name: str) -> ScriptedRoute:
    return ScriptedRoute(router, "GET", f"/v1/schedules/{uid(name)}", key="none")


def quiet_picker(router: respx.MockRouter) -> None:
    """The picker's own reads, answered so detail tests can ignore them."""
    ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
    ScriptedRoute(router, "GET", "/v1/browser-profiles").script(
        None, ok({"items": [], "next_cursor": None})
    )


async def test_following_a_row_point_reads_the_schedule_and_shows_every_listed_field(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    route = detail_route(router, "s1")
    route.script(
        None,
        ok(
            detail(
                "s1",
                state="PAUSED",
                pause_reason="user",
                revision=revision_body(
                    3, requested_scopes=["schedule.read", "browser.profile.read"]
                ),
                consecutive_failures=1,
            )
        ),
    )
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(uid("s1"))
    assert vm.snapshot.phase is DetailPhase.LOADED
    fields = vm.snapshot.fields
    assert fields is not None
    assert fields.title == "Morning news digest"
    assert fields.state_label == "Paused"
    assert fields.state_tone is Tone.WARNING
    assert fields.pause_reason_text == "Paused by you"
    assert fields.revision == 3
    assert fields.instruction.startswith("Summarize the overnight news from my feeds, then")
    assert fields.value("State") is None, "the state is the heading's chip, never a line too"
    assert fields.value("Next firing") == "None scheduled"
    assert fields.value("Cadence") == (
        "Mondays, Wednesdays and Fridays at 08:00 (America/Los_Angeles)"
    )
    assert fields.value("Revision") == "3"
    assert fields.value("Requested scopes") == "browser.profile.read, schedule.read"
    assert fields.value("Agent") == f"{uid('agent')} (version 2026.11.2)"
    assert fields.value("Policy profile") == "default"
    assert fields.value("Run timeout") == "5 min"
    assert fields.value("Misfire grace") == "1 h"
    assert fields.value("Failure policy") == "1 of 3 consecutive failures"
    assert fields.value("Created") == "1 Nov 2026, 10:00 (Europe/London)"
    assert fields.value("Updated") == "20 Nov 2026, 10:00 (Europe/London)"
    advanced = next(group for group in fields.groups if group.title == "Advanced")
    limits = [line for line in advanced.lines if line.label.startswith(("Max", "Reserved"))]
    assert [(line.label, line.value) for line in limits] == [
        ("Max steps", "20"),
        ("Max tool calls", "40"),
        ("Max cost", "5.00"),
        ("Reserved steps", "2"),
        ("Reserved cost", "1.00"),
    ], "every finite limit and only those"
    assert [group.title for group in fields.groups] == [
        "Schedule",
        "Instruction",
        "Website access",
        "Calendar",
        "Advanced",
    ]
    assert [group.kind for group in fields.groups[:4]] == [
        GroupKind.LINES,
        GroupKind.INSTRUCTION,
        GroupKind.WEBSITE_ACCESS,
        GroupKind.CALENDAR,
    ]


async def test_next_firing_is_in_the_device_zone_and_names_the_schedule_zone_when_it_differs(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    detail_route(router, "s1").script(None, ok(detail("s1", next_fire_at=NOW + timedelta(hours=9))))
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(uid("s1"))
    assert vm.snapshot.fields is not None
    assert vm.snapshot.fields.value("Next firing") == (
        "1 Dec 2026, 16:00 (08:00 America/Los_Angeles)"
    )


async def test_a_person_on_the_12_hour_clock_reads_the_details_cadence_and_firing_as_8_00_am(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    detail_route(router, "s1").script(None, ok(detail("s1", next_fire_at=NOW + timedelta(hours=9))))
    vm = ScheduleDetailViewModel(
        api, clock=clock, device_zone=display_zone(device_zone, HourCycle.H12)
    )
    await vm.open(uid("s1"))
    assert vm.snapshot.fields is not None
    assert vm.snapshot.fields.value("Cadence") == (
        "Mondays, Wednesdays and Fridays at 8:00 am (America/Los_Angeles)"
    )
    assert vm.snapshot.fields.value("Next firing") == (
        "1 Dec 2026, 4:00 pm (8:00 am America/Los_Angeles)"
    )


async def test_a_404_shows_the_ordinary_not_found_message_with_a_retry(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    route = detail_route(router, "gone")
    route.script(None, refused(404, "schedule.not_found", "no such schedule"), ok(detail("gone")))
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(uid("gone"))
    assert vm.snapshot.phase is DetailPhase.NOT_FOUND
    assert vm.snapshot.error == "This schedule was removed or you no longer have access to it."
    assert "version" not in (vm.snapshot.error or "").lower()
    assert vm.snapshot.can_retry
    await vm.retry()
    assert len(route.requests) == 2
    assert vm.snapshot.phase is DetailPhase.LOADED


async def test_other_failures_show_their_reason_with_a_retry(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    detail_route(router, "s1").script(None, *server_down())
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(uid("s1"))
    assert vm.snapshot.phase is DetailPhase.FAILED
    assert vm.snapshot.error == "The schedule server failed"
    assert vm.snapshot.can_retry


async def test_the_newest_open_wins_over_a_slower_earlier_one(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    slow = detail_route(router, "first").hold(
        None, ok(detail("first", revision=revision_body(1, title="First")))
    )
    detail_route(router, "second").script(
        None, ok(detail("second", revision=revision_body(1, title="Second")))
    )
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    earlier = asyncio.create_task(vm.open(uid("first")))
    await slow.arrived.wait()
    await vm.open(uid("second"))
    slow.release()
    await earlier
    assert vm.snapshot.schedule_id == uid("second")
    assert vm.snapshot.fields is not None and vm.snapshot.fields.title == "Second"


async def test_close_drops_an_answer_still_in_flight(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    quiet_picker(router)
    slow = detail_route(router, "s1").hold(None, ok(detail("s1")))
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    opening = asyncio.create_task(vm.open(uid("s1")))
    await slow.arrived.wait()
    await vm.close()
    slow.release()
    await opening
    assert vm.snapshot.phase is DetailPhase.CLOSED
    assert vm.snapshot.fields is None


def test_the_closed_pane_says_nothing_is_selected_in_the_snapshots_words() -> None:
    closed = ScheduleDetailSnapshot()
    assert closed.phase is DetailPhase.CLOSED
    assert closed.empty_title == "No schedule selected"
    assert closed.empty_hint == "Choose a schedule to see its details."
