"""Sidebar groups you can tell apart: an ended schedule's state, each firing's outcome, the count.

Each group's schedule is read through its projection (the ``CalendarServer``
route) after a reconciliation and when a new firing joins it; the words and
marks are the ones every screen uses (``formatting.outcomes``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import NOW, past, projection, uid
from tests.clock import FakeClock
from tests.viewmodels.calendar_server import CalendarServer
from tests.viewmodels.fake_server import refused
from tests.viewmodels.test_sidebar import Sessions, firing, sidebar
from transport.client import ScheduleClient
from viewmodels.formatting.marks import MarkKind
from viewmodels.ports import MemoryStorage
from viewmodels.sidebar.firings import LONGEST_WINDOW

H = timedelta(hours=1)


def digest_projection(state: str = "ACTIVE") -> Any:
    """The digest schedule's projection: firing 2 ran, firing 1 failed past its deadline."""

    def build(schedule_id: str, start: str, end: str) -> dict[str, Any]:
        if schedule_id != str(uid("digest")):
            return projection(schedule_id, start, end)
        return projection(
            schedule_id,
            start,
            end,
            state=state,
            past_items=[
                past(
                    "o1",
                    NOW - 50 * H,
                    session="digest-1",
                    run_status="FAILED",
                    failure_reason="deadline_exceeded",
                ),
                past("o2", NOW - 26 * H, session="digest-2", run_status="COMPLETED"),
            ],
        )

    return build


async def opened(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    zone: ZoneInfo,
    *,
    state: str = "ACTIVE",
) -> tuple[Any, CalendarServer, Sessions]:
    schedules = CalendarServer(router, digest_projection(state))
    server = Sessions(router)
    server.serve(firing(2, hours_ago=26), firing(1, hours_ago=50))
    vm = sidebar(api, storage, clock, zone)
    await vm.open()
    return vm, schedules, server


async def test_an_ended_schedules_group_says_its_state(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    for state, words in (("CANCELLED", "Cancelled"), ("COMPLETED", "Completed")):
        vm, _schedules, _server = await opened(
            api, router, storage, clock, device_zone, state=state
        )
        (group,) = vm.snapshot.scheduled
        assert group.ended_text == words
        assert group.accessibility_label.endswith(f", {words}")


async def test_a_running_or_paused_schedules_group_says_no_state(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    for state in ("ACTIVE", "PAUSED"):
        vm, _schedules, _server = await opened(
            api, router, storage, clock, device_zone, state=state
        )
        assert vm.snapshot.scheduled[0].ended_text is None


async def test_each_session_row_carries_its_firings_outcome_in_the_shared_words_and_marks(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    vm, _schedules, _server = await opened(api, router, storage, clock, device_zone)
    rows = vm.snapshot.scheduled[0].rows
    assert [(row.outcome_text, row.outcome_mark) for row in rows] == [
        ("Ran", MarkKind.RAN),
        ("Run failed: it ran past its deadline", MarkKind.FAILED),
    ]
    assert rows[0].detail_line == "1 d ago · Ran"
    assert rows[1].accessibility_label == (
        "Digest firing 1, 2 d ago, Run failed: it ran past its deadline"
    )


async def test_the_group_count_is_a_number_badge_and_is_still_spoken_in_words(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    vm, _schedules, _server = await opened(api, router, storage, clock, device_zone)
    (group,) = vm.snapshot.scheduled
    assert group.count_badge == "2"
    assert group.accessibility_label.startswith("Digest firing 2, 2 sessions, collapsed")


async def test_the_schedule_is_read_over_its_sessions_firings_at_most_92_days_back(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    schedules = CalendarServer(router, digest_projection())
    server = Sessions(router)
    server.serve(firing(2, hours_ago=26), firing(1, hours_ago=24 * 400))
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    ((start, end),) = schedules.windows
    assert start <= NOW - 26 * H and end > NOW
    assert end - start == LONGEST_WINDOW


async def test_a_new_firing_joining_a_group_reads_its_schedule_again(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    vm, schedules, server = await opened(api, router, storage, clock, device_zone)
    reads = len(schedules.requests)
    server.serve(firing(3, hours_ago=0), firing(2, hours_ago=26), firing(1, hours_ago=50))
    assert await vm.catch_up()
    assert len(schedules.requests) == reads + 1
    newest = vm.snapshot.scheduled[0].rows[0]
    assert newest.session_id == uid("digest-3") and newest.outcome_text is None


async def test_a_schedule_that_cannot_be_read_keeps_what_was_known(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    vm, schedules, _server = await opened(
        api, router, storage, clock, device_zone, state="CANCELLED"
    )
    schedules.queue.append(refused(404, "schedule.not_found"))
    await vm.refresh()
    (group,) = vm.snapshot.scheduled
    assert group.ended_text == "Cancelled"
    assert group.rows[0].outcome_text == "Ran"
