"""The app stays current while schedules fire: sessions arrive, passed firings are re-read.

The worker's effects are scripted as the server's answers before and after a
firing; the clock is the fake one, moved past a next firing by the test. The
rounds' loop is driven with an injected wait, so no test sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import respx

from devtools.api_bodies import (
    NOW,
    counts_json,
    detail,
    last_outcome_json,
    page,
    principal,
    revision_body,
    session,
    summary,
    uid,
)
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok, server_down
from transport.client import ScheduleClient
from viewmodels.attention import AttentionNotices
from viewmodels.detail import DetailPhase, ScheduleDetailViewModel
from viewmodels.live_updates import LiveUpdates
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.sidebar import SidebarViewModel

CURRENT = ("ACTIVE", "PAUSED")
FIRES = NOW + timedelta(minutes=10)
TOMORROW = FIRES + timedelta(days=1)


class Window:
    """A window's list, detail and sidebar over the scripted server, and its live updates."""

    def __init__(
        self, api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, zone: ZoneInfo
    ) -> None:
        self.router = router
        self.clock = clock
        self.schedules_route = ScriptedRoute(router, "GET", "/v1/schedules", key="states+cursor")
        self.sessions_route = ScriptedRoute(router, "GET", "/v1/sessions")
        ScriptedRoute(router, "GET", "/v1/folders").script(None, ok(page([])))
        ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
        ScriptedRoute(router, "GET", "/v1/browser-profiles").script(None, ok(page([])))
        self.schedules = ScheduleListViewModel(api, clock=clock, device_zone=zone)
        self.detail = ScheduleDetailViewModel(api, clock=clock, device_zone=zone)
        self.sidebar = SidebarViewModel(api, MemoryStorage(), clock=clock, device_zone=zone)
        self.live = LiveUpdates(
            schedules=self.schedules, detail=self.detail, sidebar=self.sidebar, clock=clock
        )

    def point_read(self, name: str) -> ScriptedRoute:
        return ScriptedRoute(self.router, "GET", f"/v1/schedules/{uid(name)}", key="none")

    def paths(self) -> list[str]:
        return [call.request.url.path for call in self.router.calls]


@pytest.fixture
def window(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> Window:
    return Window(api, router, clock, device_zone)


def firing(n: int, hours_ago: float) -> dict[str, object]:
    return session(
        f"digest-{n}",
        schedule="digest",
        title="Morning digest",
        last_activity_at=NOW - timedelta(hours=hours_ago),
    )


async def test_a_firings_session_joins_its_collapsed_group_without_a_reload(
    window: Window,
) -> None:
    window.sessions_route.script(None, ok(page([firing(1, 2), firing(2, 1)])))
    await window.sidebar.open()
    (group,) = window.sidebar.snapshot.scheduled
    assert group.count == 2 and not group.expanded
    window.sessions_route.rescript(None, ok(page([firing(3, 0), firing(2, 1), firing(1, 2)])))
    folders_read = window.paths().count("/v1/folders")
    await window.live.check()
    (group,) = window.sidebar.snapshot.scheduled
    assert group.count == 3
    assert group.rows[0].session_id == uid("digest-3")
    assert not group.expanded, "a firing never expands a collapsed group"
    assert window.paths().count("/v1/folders") == folders_read, "no full reconciliation"


async def test_a_row_whose_next_firing_passed_is_read_again_in_place(window: Window) -> None:
    window.schedules_route.script(
        (CURRENT, None),
        ok(
            page(
                [
                    summary("a", next_fire_at=FIRES + timedelta(hours=1)),
                    summary("b"),
                    summary("c", next_fire_at=FIRES),
                ]
            )
        ),
    )
    window.sessions_route.script(None, ok(page([])))
    window.point_read("c").script(None, ok(detail("c", next_fire_at=TOMORROW)))
    await window.schedules.open()
    window.schedules.select(uid("c"))
    before = window.schedules.snapshot.rows
    assert before[2].next_fire_text == "Next: today at 07:10 (08:10 Europe/Paris)"
    await window.live.check()
    assert window.paths().count(f"/v1/schedules/{uid('c')}") == 0, "not due yet, not read"
    window.clock.advance(timedelta(minutes=11))
    await window.live.check()
    after = window.schedules.snapshot.rows
    assert [row.schedule_id for row in after] == [row.schedule_id for row in before]
    assert after[0] is before[0] and after[1] is before[1], "other rows untouched"
    assert after[2].next_fire_text == "Next: tomorrow at 07:10 (23:10 America/Los_Angeles)"
    assert window.schedules.snapshot.selected_id == uid("c"), "the selection stays"
    assert window.paths().count("/v1/schedules") == 1, "no reload of the list"


async def test_a_row_the_server_has_not_moved_on_yet_reads_due_now_never_a_past_time(
    window: Window,
) -> None:
    window.schedules_route.script((CURRENT, None), ok(page([summary("a", next_fire_at=FIRES)])))
    window.sessions_route.script(None, ok(page([])))
    window.point_read("a").script(
        None,
        ok(detail("a", next_fire_at=FIRES)),
        ok(detail("a", next_fire_at=TOMORROW)),
    )
    await window.schedules.open()
    window.clock.advance(timedelta(minutes=11))
    await window.live.check()
    assert window.schedules.snapshot.rows[0].next_fire_text == "Next: due now"
    await window.live.check()
    assert (
        window.schedules.snapshot.rows[0].next_fire_text
        == "Next: tomorrow at 07:10 (23:10 America/Los_Angeles)"
    )


async def test_a_pause_or_completion_the_worker_caused_shows_up_in_the_row(
    window: Window,
) -> None:
    window.schedules_route.script(
        (CURRENT, None),
        ok(page([summary("flaky", next_fire_at=FIRES), summary("once", next_fire_at=FIRES)])),
    )
    window.sessions_route.script(None, ok(page([])))
    window.point_read("flaky").script(
        None, ok(detail("flaky", state="PAUSED", pause_reason="failure_limit"))
    )
    window.point_read("once").script(None, ok(detail("once", state="COMPLETED")))
    await window.schedules.open()
    window.clock.advance(timedelta(minutes=11))
    await window.live.check()
    flaky, once = window.schedules.snapshot.rows
    assert flaky.state_label == "Paused" and flaky.next_fire_text is None
    assert flaky.pause_reason_text == "Paused after repeated failures"
    assert once.state_label == "Completed"


async def test_an_open_detail_whose_next_firing_passed_is_read_again_quietly(
    window: Window,
) -> None:
    window.sessions_route.script(None, ok(page([])))
    window.point_read("a").script(
        None,
        ok(detail("a", next_fire_at=FIRES)),
        ok(detail("a", next_fire_at=TOMORROW, revision=revision_body(3))),
    )
    await window.detail.open(uid("a"))
    phases: list[DetailPhase] = []
    window.detail.subscribe(lambda snapshot: phases.append(snapshot.phase))
    window.clock.advance(timedelta(minutes=11))
    await window.live.check()
    fields = window.detail.snapshot.fields
    assert fields is not None
    assert fields.value("Next firing") == "2 Dec 2026, 07:10 (23:10 America/Los_Angeles)"
    assert phases == [DetailPhase.LOADED], "no loading state on the way"


async def test_the_next_round_comes_when_a_shown_next_firing_does(window: Window) -> None:
    window.schedules_route.script((CURRENT, None), ok(page([summary("a", next_fire_at=FIRES)])))
    assert window.live.delay() == timedelta(seconds=30), "nothing shown: the poll interval"
    await window.schedules.open()
    window.clock.advance(timedelta(minutes=9, seconds=50))
    assert window.live.delay() == timedelta(seconds=11), "ten seconds, then a second's grace"
    window.clock.advance(timedelta(minutes=5))
    assert window.live.delay() == timedelta(seconds=30), "a passed firing waits for the poll"


async def test_rounds_back_off_while_the_server_cannot_be_read_then_recover(
    window: Window,
) -> None:
    window.sessions_route.script(None, *server_down() * 6, ok(page([])))
    await window.live.check()
    assert window.live.delay() == timedelta(seconds=60)
    await window.live.check()
    assert window.live.delay() == timedelta(seconds=120)
    await window.live.check()
    await window.live.check()
    await window.live.check()
    assert window.live.delay() == timedelta(minutes=5), "capped"
    window.sessions_route.rescript(None, ok(page([])))
    await window.live.check()
    assert window.live.failures == 0
    assert window.live.delay() == timedelta(seconds=30)


async def test_texts_that_read_the_clock_move_on_even_while_the_server_cannot_be_read(
    window: Window,
) -> None:
    morning = NOW + timedelta(days=1, hours=2)  # 09:00 London on Wednesday 2 December
    window.schedules_route.script((CURRENT, None), ok(page([summary("a", next_fire_at=morning)])))
    window.sessions_route.script(None, ok(page([session("chat", last_activity_at=NOW)])))
    await window.schedules.open()
    await window.sidebar.open()
    assert (
        window.schedules.snapshot.rows[0].next_fire_text
        == "Next: tomorrow at 09:00 (10:00 Europe/Paris)"
    )
    assert window.sidebar.snapshot.history[0].age_text == "just now"
    lists = window.schedules.snapshot, window.sidebar.snapshot
    await window.live.check()
    assert (window.schedules.snapshot, window.sidebar.snapshot) == lists, "nothing moved on yet"
    window.sessions_route.rescript(None, *server_down() * 3)
    window.clock.advance(hours=18)  # 01:00 on Wednesday
    await window.live.check()
    assert window.live.failures == 1
    assert (
        window.schedules.snapshot.rows[0].next_fire_text
        == "Next: today at 09:00 (10:00 Europe/Paris)"
    )
    assert window.sidebar.snapshot.history[0].age_text == "18 h ago"


class Activity:
    """The embedded server's in-process signal, as the app hands it over."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[], None]] = []

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self.listeners.append(callback)
        return lambda: self.listeners.remove(callback)

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()


async def test_server_activity_wakes_a_round_and_rounds_never_overlap(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    window = Window(api, router, clock, device_zone)
    activity = Activity()
    live = LiveUpdates(
        schedules=window.schedules,
        detail=window.detail,
        sidebar=window.sidebar,
        clock=clock,
        activity=activity,
    )
    held = window.sessions_route.hold(None, ok(page([])))
    window.sessions_route.script(None, ok(page([])))
    waits: list[float] = []
    waiting = asyncio.Condition()

    async def wait(event: asyncio.Event, seconds: float) -> None:
        waits.append(seconds)
        async with waiting:
            waiting.notify_all()
        await event.wait()

    async def settle(until: Callable[[], bool]) -> None:
        async with waiting:
            await waiting.wait_for(until)

    running = asyncio.create_task(live.run(wait))
    await settle(lambda: len(waits) == 1)
    assert waits == [30.0], "nothing shown yet: the poll interval"
    activity.changed()
    await held.arrived.wait()
    activity.changed()
    activity.changed()
    assert len(window.sessions_route.requests) == 1, "no second round while one runs"
    held.release()
    await settle(lambda: len(waits) == 3)
    assert len(window.sessions_route.requests) == 2, "the wakes in between make one more round"
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert activity.listeners == [], "stopping unsubscribes"


async def test_no_round_runs_while_the_app_is_in_the_background(window: Window) -> None:
    held = window.sessions_route.hold(None, ok(page([])))
    window.live.set_foreground(False)
    rounds = asyncio.create_task(window.live.run(lambda event, seconds: asyncio.sleep(0)))
    for _ in range(20):
        await asyncio.sleep(0)
    assert window.sessions_route.requests == []
    window.live.set_foreground(True)
    await held.arrived.wait()
    held.release()
    rounds.cancel()
    with pytest.raises(asyncio.CancelledError):
        await rounds


async def test_a_round_announces_what_newly_needs_attention_and_moves_the_chips_count(
    window: Window, api: ScheduleClient, counts_route: ScriptedRoute
) -> None:
    fine = last_outcome_json(run_status="COMPLETED", failure_reason=None, needs_attention=False)
    window.schedules_route.script((CURRENT, None), ok(page([summary("a", last_outcome=fine)])))
    window.sessions_route.script(None, ok(page([])))
    # The attention list asks for no state: ((), cursor None).
    window.schedules_route.script(
        ((), None),
        ok(page([])),  # the list's filter, switched on
        ok(page([])),  # the first look
        ok(page([summary("a", title="Nightly backup")])),
    )
    counts_route.rescript(
        None, ok(counts_json(needs_attention=0)), ok(counts_json(needs_attention=1))
    )
    notices = AttentionNotices(
        api, MemoryStorage(), clock=window.clock, device_zone=ZoneInfo("Europe/London")
    )
    live = LiveUpdates(
        schedules=window.schedules,
        detail=window.detail,
        sidebar=window.sidebar,
        clock=window.clock,
        notices=notices,
    )
    await window.schedules.open()
    await window.schedules.select_attention(True)
    assert window.schedules.snapshot.rows == ()
    await live.check()  # the first look on this device: learnt, not announced
    assert notices.snapshot.notice is None
    await live.check()
    notice = notices.snapshot.notice
    assert notice is not None and notice.title == "Nightly backup"
    assert window.schedules.snapshot.attention_label == "Needs attention (1)"
    shown = [row.title for row in window.schedules.snapshot.rows]
    assert shown == ["Nightly backup"], "the Needs attention list shown gains it"
