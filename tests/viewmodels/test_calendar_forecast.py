"""The calendar's forecast and its gaps: days that should have fired, firings that may be
skipped, and a paused schedule's firings as if resumed.

A server that sends ``expected`` past instants and ``may_overlap`` gets marks of
their own, each with its legend entry and sentence; a server that omits them
(``devtools.api_bodies`` builds today's answer) keeps today's calendar. The
clock is Thursday, 10 December 2026 and the device zone Europe/London (UTC in
winter), so 06:30 UTC reads 06:30.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import firing, instant, projection, uid
from tests.viewmodels.calendar_server import CalendarServer
from tests.viewmodels.conftest import FakeClock
from transport.client import ScheduleClient
from viewmodels.calendar import CalendarViewModel, DayCell, MarkKind

LONDON = ZoneInfo("Europe/London")
S1 = uid("s1")
MISSED_DAY = date(2026, 12, 4)
AT = datetime(2026, 12, 4, 6, 30, tzinfo=UTC)
NOT_FIRED = "Not fired: nothing was recorded (the scheduler was not running at 06:30)"


def _expected(at: datetime, **changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "occurrence_id": None,
        "nominal_fire_at": instant(at),
        "disposition": None,
        "reason_code": None,
        "expected": True,
    }
    entry.update(changes)
    return entry


async def _shown(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, **answer: Any
) -> CalendarViewModel:
    clock.now = datetime(2026, 12, 10, 12, tzinfo=UTC)
    CalendarServer(router, lambda s, a, b: projection(s, a, b, **answer))
    calendar = CalendarViewModel(api, clock=clock, device_zone=LONDON)
    await calendar.show(S1)
    return calendar


def _cell(calendar: CalendarViewModel, day: date) -> DayCell:
    for week in calendar.snapshot.weeks:
        for cell in week:
            if cell.day == day:
                return cell
    raise AssertionError(f"{day} is not on the grid")


async def test_a_day_that_should_have_fired_says_not_fired_never_nothing_scheduled(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    calendar = await _shown(api, router, clock, past_items=[_expected(AT)])
    await calendar.select_day(MISSED_DAY)

    snapshot = calendar.snapshot
    cell = _cell(calendar, MISSED_DAY)
    assert [(mark.kind, mark.count) for mark in cell.marks] == [(MarkKind.NOT_FIRED, 1)]
    assert cell.label == f"Friday, 4 December 2026: {NOT_FIRED[:1].lower()}{NOT_FIRED[1:]}"
    (line,) = snapshot.day_lines
    assert (line.kind, line.text) == (
        MarkKind.NOT_FIRED,
        "06:30 — Not fired: nothing was recorded (the scheduler was not running)",
    )
    assert snapshot.day_empty_text is None
    assert "nothing scheduled" not in cell.label
    assert (MarkKind.NOT_FIRED, "not fired, nothing recorded") in snapshot.legend


async def test_an_older_server_without_expected_instants_keeps_todays_empty_day(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    calendar = await _shown(api, router, clock)
    await calendar.select_day(MISSED_DAY)
    assert _cell(calendar, MISSED_DAY).marks == ()
    assert calendar.snapshot.day_empty_text == "Nothing scheduled on this day"


async def test_a_firing_that_may_overlap_says_it_may_be_skipped_with_its_own_mark_and_legend(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    soon = datetime(2026, 12, 14, 9, tzinfo=UTC)
    later = datetime(2026, 12, 15, 9, tzinfo=UTC)
    firings = [{**firing(soon), "may_overlap": True}, {**firing(later), "may_overlap": False}]
    calendar = await _shown(api, router, clock, firings=firings)
    await calendar.select_day(soon.date())

    risky, plain = _cell(calendar, soon.date()), _cell(calendar, later.date())
    assert [mark.kind for mark in risky.marks] == [MarkKind.MAY_OVERLAP]
    assert risky.label.endswith("fires at 09:00, may be skipped if the previous run is still going")
    assert [mark.kind for mark in plain.marks] == [MarkKind.FIRES]
    (line,) = calendar.snapshot.day_lines
    assert line.text == "09:00 — Fires; may be skipped if the previous run is still going"
    assert calendar.snapshot.legend == (
        (MarkKind.FIRES, "fires"),
        (MarkKind.MAY_OVERLAP, "may be skipped if the previous run is still going"),
    )


async def test_an_older_server_without_may_overlap_marks_plain_firings(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    soon = datetime(2026, 12, 14, 9, tzinfo=UTC)
    calendar = await _shown(api, router, clock, firings=[firing(soon)])
    cell = _cell(calendar, soon.date())
    assert [mark.kind for mark in cell.marks] == [MarkKind.FIRES]
    assert cell.label.endswith(": fires at 09:00")


async def test_a_paused_schedule_marks_its_days_hollow_and_says_nothing_fires_until_resumed(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    would = datetime(2026, 12, 14, 9, tzinfo=UTC)
    calendar = await _shown(
        api,
        router,
        clock,
        firings=[firing(would), {**firing(would.replace(day=15)), "may_overlap": True}],
        state="PAUSED",
        as_if_resumed=True,
    )

    snapshot = calendar.snapshot
    assert snapshot.status_text is not None
    assert snapshot.status_text.startswith("Paused: nothing fires until it is resumed")
    for day in (14, 15):
        assert [mark.kind for mark in _cell(calendar, date(2026, 12, day)).marks] == [
            MarkKind.WOULD_FIRE
        ]
    assert snapshot.legend == ((MarkKind.WOULD_FIRE, "would fire if resumed"),)
    assert _cell(calendar, would.date()).label.endswith("would fire at 09:00")


async def test_the_legend_says_a_skipped_firing_in_a_sentence(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    skipped = {
        "occurrence_id": str(uid("o1")),
        "nominal_fire_at": instant(AT),
        "disposition": "SKIPPED_OVERLAP",
    }
    calendar = await _shown(api, router, clock, past_items=[skipped])
    assert calendar.snapshot.legend == (
        (MarkKind.SKIPPED, "Skipped: the previous run was still going"),
    )
