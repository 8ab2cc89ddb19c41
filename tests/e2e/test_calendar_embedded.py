"""The calendar view model against the real embedded server and its demo data.

The same client and view model as the app, over ``httpx.ASGITransport`` into
``open_embedded(..., demo=True)`` with a fixed clock (30 November 2026) and a
New York device: the demo's nightly backup check (02:30 New York time) shows
its ledger on the current month and, in March 2027, the night the clocks go
forward, said in the server's words.
"""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

from tests.e2e.conftest import fixed_clock
from transport.client import ScheduleClient
from transport.paging import iterate_pages
from viewmodels.calendar import CalendarPhase, CalendarViewModel, DayCell, MarkKind

NEW_YORK = ZoneInfo("America/New_York")
TITLE = "Nightly backup check"


async def _calendar(api: ScheduleClient) -> CalendarViewModel:
    pages = iterate_pages(lambda c: api.list_schedules(states=("ACTIVE",), cursor=c))
    async for page in pages:
        for row in page.items:
            if row.title == TITLE:
                calendar = CalendarViewModel(api, clock=fixed_clock, device_zone=NEW_YORK)
                await calendar.show(row.schedule_id)
                return calendar
    raise AssertionError(f"the demo has no {TITLE!r}")


def _cell(calendar: CalendarViewModel, day: date) -> DayCell:
    return next(cell for week in calendar.snapshot.weeks for cell in week if cell.day == day)


async def test_the_current_month_shows_the_demos_ledger_and_what_will_fire(
    api: ScheduleClient,
) -> None:
    calendar = await _calendar(api)

    assert calendar.snapshot.phase is CalendarPhase.LOADED
    assert calendar.snapshot.month_title == "November 2026"
    past_kinds = {
        mark.kind for day in range(22, 31) for mark in _cell(calendar, date(2026, 11, day)).marks
    }
    assert {MarkKind.FIRED, MarkKind.MISSED, MarkKind.SKIPPED, MarkKind.REFUSED} <= past_kinds
    assert _cell(calendar, date(2026, 12, 1)).label.endswith("fires at 02:30")
    assert calendar.snapshot.zone_text is None


async def test_the_spring_forward_night_is_said_in_the_servers_words(api: ScheduleClient) -> None:
    calendar = await _calendar(api)
    for _ in range(4):
        await calendar.next_month()

    assert calendar.snapshot.month_title == "March 2027"
    assert calendar.snapshot.notes == (
        "New York's clocks go forward on 14 Mar: this firing is at 03:00 there",
    )
    (mark,) = _cell(calendar, date(2027, 3, 14)).marks
    assert mark.kind is MarkKind.ADJUSTED
    assert _cell(calendar, date(2027, 3, 15)).label.endswith("fires at 02:30")
