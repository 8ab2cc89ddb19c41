"""A firing the server marks overdue: the row's and the detail's words, and the notice, once.

The server sends ``overdue_since`` (the instant the firing came due) while it
waits undecided past the server's threshold; then "Overdue: due at 06:48
(12 min ago)" replaces "Next: due now" as a warning, the detail says what it
means, and Needs attention announces it once, in the app and on the desktop.
A server that never sends the field keeps today's words.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import respx

from app.notifications import OsNotifications
from devtools.api_bodies import NOW, detail, page, principal, revision_body, summary, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok
from transport.client import ScheduleClient
from viewmodels.attention import AttentionNotice, AttentionNotices
from viewmodels.detail import ScheduleDetailViewModel
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel

CURRENT = ("ACTIVE", "PAUSED")
DUE = NOW - timedelta(minutes=12)
OVERDUE_TEXT = "Overdue: due at 06:48 (12 min ago)"
ATTENTION = ((), None, True, None)


def overdue(name: str, **changes: object) -> dict[str, object]:
    return summary(name, next_fire_at=DUE, overdue_since=DUE, **changes)


async def open_rows(api: ScheduleClient, clock: FakeClock, zone: ZoneInfo) -> ScheduleListViewModel:
    vm = ScheduleListViewModel(api, clock=clock, device_zone=zone)
    await vm.open()
    return vm


async def test_an_overdue_row_says_when_it_was_due_as_a_warning_instead_of_due_now(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    schedules_route.script(
        (CURRENT, None), ok(page([overdue("late"), summary("due", next_fire_at=DUE)]))
    )
    vm = await open_rows(api, clock, device_zone)
    late, due = vm.snapshot.rows
    assert late.next_fire_text == OVERDUE_TEXT
    assert late.next_fire_overdue
    assert OVERDUE_TEXT in late.accessibility_label
    assert due.next_fire_text == "Next: due now", (
        "no overdue_since (an older server): today's words"
    )
    assert not due.next_fire_overdue


async def test_a_firing_overdue_since_yesterday_names_the_day(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    since = NOW - timedelta(hours=22)
    schedules_route.script(
        (CURRENT, None), ok(page([summary("a", next_fire_at=since, overdue_since=since)]))
    )
    vm = await open_rows(api, clock, device_zone)
    (row,) = vm.snapshot.rows
    assert row.next_fire_text == "Overdue: due at 09:00 yesterday (22 h ago)"


async def test_the_detail_says_the_firing_is_overdue_and_what_that_means(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
    ScriptedRoute(router, "GET", "/v1/browser-profiles").script(None, ok(page([])))
    route = ScriptedRoute(router, "GET", f"/v1/schedules/{uid('s')}", key="none")
    late = detail(
        "s",
        next_fire_at=DUE,
        overdue_since=DUE,
        revision=revision_body(misfire_grace_seconds=3600),
    )
    route.script(None, ok(late), ok(detail("s", next_fire_at=DUE)))
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(uid("s"))
    assert vm.snapshot.fields is not None
    (line,) = [
        line
        for group in vm.snapshot.fields.groups
        for line in group.lines
        if line.label == "Next firing"
    ]
    assert line.value == OVERDUE_TEXT and line.warning
    assert line.explanation == (
        "The server has not fired it yet. Firings resume when its scheduler runs;"
        " a firing later than its misfire grace (1 h) is recorded as missed."
    )
    await vm.retry()
    assert vm.snapshot.fields is not None
    assert vm.snapshot.fields.value("Next firing") != OVERDUE_TEXT, "without the field, as today"


class Told:
    def __init__(self) -> None:
        self.notices: list[AttentionNotice] = []
        self.sent: list[tuple[str, str]] = []

    def __call__(self, notice: AttentionNotice) -> None:
        self.notices.append(notice)

    async def send(self, title: str, message: str) -> str:
        self.sent.append((title, message))
        return "id"


async def test_a_newly_overdue_schedule_is_announced_once_in_the_app_and_on_the_desktop(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = ScriptedRoute(router, "GET", "/v1/schedules", key="search")
    route.script(
        ATTENTION,
        ok(page([])),
        ok(page([overdue("backup", title="Nightly backup")])),
    )
    told = Told()
    desktop = OsNotifications(told)

    async def announce(notice: AttentionNotice) -> None:
        told(notice)
        await desktop(notice)

    notices = AttentionNotices(
        api, MemoryStorage(), clock=clock, device_zone=device_zone, on_announce=announce
    )
    await notices.check()
    await notices.check()
    await notices.check()
    notice = notices.snapshot.notice
    assert notice is not None
    assert notice.text == f"“Nightly backup” needs attention: {OVERDUE_TEXT}"
    assert told.notices == [notice], "announced once"
    assert told.sent == [("Needs attention: Nightly backup", OVERDUE_TEXT)]


async def test_a_schedule_overdue_again_later_is_announced_again(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    later = DUE + timedelta(days=1)
    route = ScriptedRoute(router, "GET", "/v1/schedules", key="search")
    route.script(
        ATTENTION,
        ok(page([])),
        ok(page([overdue("backup")])),
        ok(page([summary("backup", next_fire_at=later, overdue_since=later)])),
    )
    told = Told()
    notices = AttentionNotices(
        api, MemoryStorage(), clock=clock, device_zone=device_zone, on_announce=told
    )
    await notices.check()
    await notices.check()
    clock.advance(days=1, minutes=5)
    await notices.check()
    assert len(told.notices) == 2
    assert told.notices[1].outcome_text == "Overdue: due at 06:48 (17 min ago)"
