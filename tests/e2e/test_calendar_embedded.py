"""The calendar view model against the real embedded server and its demo data.

The same client and view model as the app, over ``httpx.ASGITransport`` into
``open_embedded(..., demo=True)`` with a fixed clock (30 November 2026) and a
New York device: the demo's nightly backup check (02:30 New York time) shows
its ledger on the current month and, in March 2027, the night the clocks go
forward, said in the server's words; the CRM pipeline export, whose latest
runs failed past their deadline, shows those days with the failed mark.
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
FAILING_TITLE = "CRM pipeline export"


async def _calendar(api: ScheduleClient, title: str = TITLE) -> CalendarViewModel:
    pages = iterate_pages(lambda c: api.list_schedules(states=("ACTIVE", "PAUSED"), cursor=c))
    async for page in pages:
        for row in page.items:
            if row.title == title:
                calendar = CalendarViewModel(api, clock=fixed_clock, device_zone=NEW_YORK)
                await calendar.show(row.schedule_id)
                return calendar
    raise AssertionError(f"the demo has no {title!r}")


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
    assert {MarkKind.RAN, MarkKind.MISSED, MarkKind.SKIPPED, MarkKind.REFUSED} <= past_kinds
    assert _cell(calendar, date(2026, 12, 1)).label.endswith("fires at 02:30")
    assert calendar.snapshot.zone_text is None


async def test_the_days_a_demo_run_failed_carry_the_failed_mark_never_ran(
    api: ScheduleClient,
) -> None:
    calendar = await _calendar(api, FAILING_TITLE)

    cells = [cell for week in calendar.snapshot.weeks for cell in week]
    failed = [cell for cell in cells if MarkKind.FAILED in {mark.kind for mark in cell.marks}]
    assert len(failed) == 2  # the demo's ledger "FFMA": the two newest runs failed
    for cell in failed:
        assert [mark.kind for mark in cell.marks] == [MarkKind.FAILED]
        assert cell.label.endswith("run failed at 08:00: it ran past its deadline")
    assert (MarkKind.FAILED, "run failed") in calendar.snapshot.legend


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
