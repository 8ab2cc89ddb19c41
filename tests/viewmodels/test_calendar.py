"""The detail's Calendar section: the grid, each adjustment, notice and past outcome in words.

Each scenario plays the server over respx (``CalendarServer``): the test
builds the projection a server would answer for the window asked, and the
view model only places it. The device zone is Europe/London unless a test
says otherwise; the clock is set to a day of the month shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import respx

from devtools.api_bodies import firing, notice, past, projection, uid
from tests.viewmodels.calendar_server import CalendarServer
from tests.viewmodels.conftest import FakeClock
from tests.viewmodels.fake_server import refused, server_down
from transport.client import ScheduleClient
from viewmodels.calendar import CalendarPhase, CalendarViewModel, DayCell, MarkKind
from viewmodels.calendar.month_grid import Month, tab_stop_day
from viewmodels.formatting.clock_text import HourCycle, display_zone

NEW_YORK = ZoneInfo("America/New_York")
LONDON = ZoneInfo("Europe/London")
S1 = uid("s1")


def _calendar(api: ScheduleClient, clock: FakeClock, zone: ZoneInfo = LONDON) -> CalendarViewModel:
    return CalendarViewModel(api, clock=clock, device_zone=zone)


def _cell(calendar: CalendarViewModel, day: date) -> DayCell:
    for week in calendar.snapshot.weeks:
        for cell in week:
            if cell.day == day:
                return cell
    raise AssertionError(f"{day} is not on the grid")


def _kinds(cell: DayCell) -> list[tuple[MarkKind, int]]:
    return [(mark.kind, mark.count) for mark in cell.marks]


def _daily(
    wall: time, zone: ZoneInfo, adjusted: dict[date, dict[str, Any]] | None = None
) -> Callable[[str, str, str], dict[str, Any]]:
    """A server for a DAILY rule: a firing per local date of the window, or ``adjusted``'s."""

    def build(schedule_id: str, start: str, end: str) -> dict[str, Any]:
        first = datetime.fromisoformat(start).astimezone(zone).date()
        last = datetime.fromisoformat(end).astimezone(zone).date()
        firings = []
        day = first
        while day <= last:
            if day in (adjusted or {}):
                firings.append(adjusted[day])  # type: ignore[index]
            else:
                local = datetime.combine(day, wall, tzinfo=zone)
                firings.append(firing(local.astimezone(UTC), local=local))
            day += timedelta(days=1)
        return projection(schedule_id, start, end, firings=firings, timezone=zone.key)

    return build


async def test_the_grid_is_monday_first_weeks_with_today_marked_and_outside_days_dimmed(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    CalendarServer(router)
    calendar = _calendar(api, clock)  # today: Tuesday, 1 December 2026

    await calendar.show(S1)

    snapshot = calendar.snapshot
    assert snapshot.phase is CalendarPhase.LOADED
    assert snapshot.month_title == "December 2026"
    assert [len(week) for week in snapshot.weeks] == [7] * 5
    first_week = snapshot.weeks[0]
    assert [cell.day for cell in first_week][:2] == [date(2026, 11, 30), date(2026, 12, 1)]
    assert all(cell.day.isoweekday() == 1 for cell in (week[0] for week in snapshot.weeks))
    assert (first_week[0].in_month, first_week[1].in_month) == (False, True)
    today = first_week[1]
    assert today.is_today and today.selected
    assert today.label == "Tuesday, 1 December 2026, today: nothing scheduled"
    assert first_week[0].label == (
        "Monday, 30 November 2026, outside December 2026: nothing scheduled"
    )
    assert snapshot.day_heading == "Tuesday, 1 December 2026"
    assert snapshot.day_empty_text == "Nothing scheduled on this day"


async def test_past_midnight_the_grid_marks_the_new_today_without_reading_again(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    server = CalendarServer(router)
    calendar = _calendar(api, clock)
    await calendar.show(S1)
    asked = len(server.requests)
    shown = calendar.snapshot
    calendar.refresh_clock_texts()
    assert calendar.snapshot is shown, "the same day: nothing to tell"
    clock.advance(days=1)
    calendar.refresh_clock_texts()
    assert _cell(calendar, date(2026, 12, 2)).is_today
    assert not _cell(calendar, date(2026, 12, 1)).is_today
    assert _cell(calendar, date(2026, 12, 1)).selected, "the chosen day stays chosen"
    assert len(server.requests) == asked


async def test_the_window_asked_covers_the_grid_within_the_servers_limit(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    server = CalendarServer(router)
    calendar = _calendar(api, clock)

    await calendar.show(S1)

    ((start, end),) = server.windows
    assert start.astimezone(LONDON).time() == time(0) and end.astimezone(LONDON).time() == time(0)
    assert start.astimezone(LONDON).date() < date(2026, 11, 30)
    assert end.astimezone(LONDON).date() > date(2027, 1, 3)
    assert end - start <= timedelta(days=92)


async def test_loading_shows_the_days_with_progress_before_the_marks(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    server = CalendarServer(router)
    held = server.hold()
    calendar = _calendar(api, clock)

    task = asyncio.create_task(calendar.show(S1))
    await held.arrived.wait()

    loading = calendar.snapshot
    assert loading.phase is CalendarPhase.LOADING and loading.loading
    assert loading.status_text == "Reading December 2026…"
    assert len(loading.weeks) == 5
    assert loading.weeks[0][1].label == "Tuesday, 1 December 2026, today"
    assert loading.day_empty_text is None
    held.release()
    await task
    assert calendar.snapshot.phase is CalendarPhase.LOADED


async def test_choosing_a_day_lists_its_firings_in_the_device_zone_with_the_schedules_beside(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    CalendarServer(router, _daily(time(9), NEW_YORK))
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    await calendar.select_day(date(2026, 12, 3))

    snapshot = calendar.snapshot
    assert snapshot.day_heading == "Thursday, 3 December 2026"
    assert [(line.kind, line.text) for line in snapshot.day_lines] == [
        (MarkKind.FIRES, "14:00 (09:00 America/New_York) — Fires")
    ]
    assert snapshot.zone_text == (
        "Times are in your zone (Europe/London), with America/New_York times beside them"
    )
    cell = _cell(calendar, date(2026, 12, 3))
    assert cell.selected and _kinds(cell) == [(MarkKind.FIRES, 1)]
    assert cell.label == "Thursday, 3 December 2026: fires at 14:00"


async def test_a_person_on_the_12_hour_clock_reads_a_days_firings_and_outcomes_as_6_00_pm(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    clock.now = datetime(2026, 12, 2, 12, tzinfo=UTC)
    ran = past("o1", datetime(2026, 12, 2, 9, tzinfo=UTC), run_status="COMPLETED")

    def build(schedule_id: str, start: str, end: str) -> dict[str, Any]:
        daily = _daily(time(13), NEW_YORK)(schedule_id, start, end)
        return {**daily, "past": [ran]}

    CalendarServer(router, build)
    calendar = _calendar(api, clock, display_zone(LONDON, HourCycle.H12))
    await calendar.show(S1)

    await calendar.select_day(date(2026, 12, 3))
    assert [line.text for line in calendar.snapshot.day_lines] == [
        "6:00 pm (1:00 pm America/New_York) — Fires"
    ]
    assert _cell(calendar, date(2026, 12, 3)).label == "Thursday, 3 December 2026: fires at 6:00 pm"
    assert _cell(calendar, date(2026, 12, 2)).label == (
        "Wednesday, 2 December 2026, today: fires at 6:00 pm; ran at 9:00 am"
    )


async def _new_yorks_spring_forward(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, zone: ZoneInfo
) -> CalendarViewModel:
    """A daily 02:30 New York schedule's calendar in ``zone``, on 14 March 2027 (03:00 then)."""
    clock.now = datetime(2027, 3, 10, 12, tzinfo=UTC)
    moved = firing(
        datetime(2027, 3, 14, 7, 0, tzinfo=UTC),
        local=datetime(2027, 3, 14, 3, 0),
        scheduled=datetime(2027, 3, 14, 2, 30),
        adjustment="MOVED_TO_TRANSITION",
    )
    CalendarServer(router, _daily(time(2, 30), NEW_YORK, {date(2027, 3, 14): moved}))
    calendar = _calendar(api, clock, zone)
    await calendar.show(S1)
    await calendar.select_day(date(2027, 3, 14))
    return calendar


async def test_a_firing_moved_by_a_spring_forward_is_said_once_in_plain_words(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    calendar = await _new_yorks_spring_forward(api, router, clock, ZoneInfo("UTC"))

    sentence = (
        "New York's clocks go forward on 14 Mar: this firing is at 03:00 there (07:00 your time)"
    )
    snapshot = calendar.snapshot
    assert snapshot.notes == (sentence,)
    assert [line.text for line in snapshot.day_lines] == [
        "07:00 (03:00 America/New_York) — Fires, moved by the clock change"
    ], "the chosen day says what, the month's note why: the sentence shows once"
    cell = _cell(calendar, date(2027, 3, 14))
    assert _kinds(cell) == [(MarkKind.ADJUSTED, 1)]
    assert cell.label == "Sunday, 14 March 2027: fires at 07:00, moved by the clock change"


async def test_a_firing_made_the_first_of_two_by_a_fall_back_is_said_once_in_plain_words(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    clock.now = datetime(2026, 10, 20, tzinfo=UTC)
    earlier = firing(
        datetime(2026, 11, 1, 5, 30, tzinfo=UTC),
        local=datetime(2026, 11, 1, 1, 30),
        adjustment="EARLIER_OF_TWO",
    )
    CalendarServer(router, _daily(time(1, 30), NEW_YORK, {date(2026, 11, 1): earlier}))
    calendar = _calendar(api, clock, NEW_YORK)
    await calendar.show(S1)

    await calendar.next_month()
    await calendar.select_day(date(2026, 11, 1))

    sentence = (
        "New York's clocks go back on 1 Nov: 01:30 happens twice there,"
        " and this firing is at the first"
    )
    assert calendar.snapshot.notes == (sentence,)
    assert [line.text for line in calendar.snapshot.day_lines] == [
        "01:30 — Fires, the first of two, as the clocks go back"
    ]
    assert _cell(calendar, date(2026, 11, 1)).label == (
        "Sunday, 1 November 2026: fires at 01:30, the first of two, as the clocks go back"
    )


async def test_a_gap_running_to_midnight_names_both_dates(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    nuuk = ZoneInfo("America/Nuuk")
    clock.now = datetime(2026, 3, 2, tzinfo=UTC)
    moved = firing(
        datetime(2026, 3, 29, 1, 0, tzinfo=UTC),
        local=datetime(2026, 3, 29, 0, 0),
        scheduled=datetime(2026, 3, 28, 23, 30),
        adjustment="MOVED_TO_TRANSITION",
    )

    def build(schedule_id: str, start: str, end: str) -> dict[str, Any]:
        return projection(schedule_id, start, end, firings=[moved], timezone=nuuk.key)

    CalendarServer(router, build)
    calendar = _calendar(api, clock, nuuk)
    await calendar.show(S1)

    assert calendar.snapshot.notes == (
        "Nuuk's clocks go forward on 28 Mar: this firing is at 00:00 on 29 Mar there",
    )
    assert _kinds(_cell(calendar, date(2026, 3, 29))) == [(MarkKind.ADJUSTED, 1)]


async def test_a_person_on_the_12_hour_clock_reads_the_clock_change_sentences_in_12_hours(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    twelve_hour = display_zone(ZoneInfo("UTC"), HourCycle.H12)
    calendar = await _new_yorks_spring_forward(api, router, clock, twelve_hour)

    assert calendar.snapshot.notes == (
        "New York's clocks go forward on 14 Mar: this firing is at 3:00 am there"
        " (7:00 am your time)",
    )
    assert [line.text for line in calendar.snapshot.day_lines] == [
        "7:00 am (3:00 am America/New_York) — Fires, moved by the clock change"
    ]


async def test_a_person_on_the_12_hour_clock_reads_which_time_happens_twice_in_12_hours(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    clock.now = datetime(2026, 10, 20, tzinfo=UTC)
    earlier = firing(
        datetime(2026, 11, 1, 5, 30, tzinfo=UTC),
        local=datetime(2026, 11, 1, 1, 30),
        scheduled=datetime(2026, 11, 1, 1, 30),
        adjustment="EARLIER_OF_TWO",
    )
    CalendarServer(router, _daily(time(1, 30), NEW_YORK, {date(2026, 11, 1): earlier}))
    calendar = _calendar(api, clock, display_zone(NEW_YORK, HourCycle.H12))
    await calendar.show(S1)

    await calendar.next_month()

    assert calendar.snapshot.notes == (
        "New York's clocks go back on 1 Nov: 1:30 am happens twice there,"
        " and this firing is at the first",
    )


async def test_an_unknown_adjustment_is_humanized(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    odd = firing(
        datetime(2026, 12, 6, 9, tzinfo=UTC),
        local=datetime(2026, 12, 6, 9, 0),
        adjustment="LEAP_SECOND_SMEAR",
    )
    CalendarServer(router, lambda s, a, b: projection(s, a, b, firings=[odd]))
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    assert calendar.snapshot.notes == (
        "On 6 Dec 2026 in Europe/London a clock change applies (Leap second smear);"
        " it fires at 09:00",
    )
    assert _cell(calendar, date(2026, 12, 6)).label.endswith(
        "fires at 09:00, adjusted: leap second smear"
    )


async def test_a_date_the_zone_skipped_is_a_notice_on_its_day(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    apia = ZoneInfo("Pacific/Apia")
    clock.now = datetime(2011, 12, 10, tzinfo=UTC)

    def build(schedule_id: str, start: str, end: str) -> dict[str, Any]:
        skipped = notice("2011-12-30", "DATE_DOES_NOT_EXIST")
        return projection(schedule_id, start, end, notices=[skipped], timezone=apia.key)

    CalendarServer(router, build)
    calendar = _calendar(api, clock, apia)
    await calendar.show(S1)
    await calendar.select_day(date(2011, 12, 30))

    sentence = (
        "30 Dec 2011 does not exist in Pacific/Apia (its clocks skipped the day);"
        " nothing fires that day"
    )
    assert calendar.snapshot.notes == (sentence,)
    assert [(line.kind, line.text) for line in calendar.snapshot.day_lines] == [
        (MarkKind.NO_FIRING, sentence)
    ]
    assert _cell(calendar, date(2011, 12, 30)).label == (
        "Friday, 30 December 2011: no firing, this date does not exist in the schedule's zone"
    )


async def test_the_31st_of_a_30_day_month_is_a_notice_on_the_months_last_day(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    clock.now = datetime(2027, 4, 2, tzinfo=UTC)
    CalendarServer(
        router,
        lambda s, a, b: projection(s, a, b, notices=[notice("2027-04-31", "DAY_NOT_IN_MONTH")]),
    )
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    assert calendar.snapshot.notes == ("April 2027 has no 31st; nothing fires for it this month",)
    last = _cell(calendar, date(2027, 4, 30))
    assert _kinds(last) == [(MarkKind.NO_FIRING, 1)]
    assert last.label == "Friday, 30 April 2027: no firing on the 31st, which this month lacks"


async def test_29_february_in_a_common_year_is_a_notice(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    clock.now = datetime(2027, 2, 3, tzinfo=UTC)
    CalendarServer(
        router,
        lambda s, a, b: projection(s, a, b, notices=[notice("2027-02-29", "NOT_A_LEAP_YEAR")]),
    )
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    assert calendar.snapshot.notes == ("2027 is not a leap year; nothing fires for 29 February",)
    assert _cell(calendar, date(2027, 2, 28)).label == (
        "Sunday, 28 February 2027: no firing on 29 February, not a leap year"
    )


async def test_an_unknown_notice_reason_is_humanized(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    CalendarServer(
        router,
        lambda s, a, b: projection(s, a, b, notices=[notice("2026-12-24", "HOLIDAY_BLACKOUT")]),
    )
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    assert calendar.snapshot.notes == ("Nothing fires for 24 Dec 2026: holiday blackout",)
    assert _cell(calendar, date(2026, 12, 24)).label.endswith("no firing, holiday blackout")


async def _past_day(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, outcome: dict[str, Any]
) -> tuple[DayCell, str]:
    clock.now = datetime(2026, 12, 10, tzinfo=UTC)
    item = past("o1", datetime(2026, 12, 4, 9, tzinfo=UTC), **outcome)
    CalendarServer(router, lambda s, a, b: projection(s, a, b, past_items=[item]))
    calendar = _calendar(api, clock)
    await calendar.show(S1)
    await calendar.select_day(date(2026, 12, 4))
    (line,) = calendar.snapshot.day_lines
    return _cell(calendar, date(2026, 12, 4)), line.text


@pytest.mark.parametrize(
    ("outcome", "kind", "label", "line"),
    [
        pytest.param(
            {"run_status": "COMPLETED"},
            MarkKind.RAN,
            "Friday, 4 December 2026: ran at 09:00",
            "09:00 — Ran",
            id="run-completed-ran",
        ),
        pytest.param(
            {"run_status": "FAILED", "failure_reason": "deadline_exceeded"},
            MarkKind.FAILED,
            "Friday, 4 December 2026: run failed at 09:00: it ran past its deadline",
            "09:00 — Run failed: it ran past its deadline",
            id="run-failed-is-not-ran",
        ),
        pytest.param(
            {"run_status": "RUNNING"},
            MarkKind.RUNNING,
            "Friday, 4 December 2026: running since 09:00",
            "09:00 — Running",
            id="run-still-going-running",
        ),
        pytest.param(
            {},
            MarkKind.RAN,
            "Friday, 4 December 2026: ran at 09:00",
            "09:00 — Ran",
            id="older-server-without-run-status-ran",
        ),
        pytest.param(
            {"disposition": "MISSED", "reason_code": "misfire_grace_exceeded"},
            MarkKind.MISSED,
            "Friday, 4 December 2026: missed at 09:00: the server was down",
            "09:00 — Missed: the server was down",
            id="past-its-grace-missed",
        ),
        pytest.param(
            {"disposition": "SKIPPED_OVERLAP", "reason_code": "previous_run_in_flight"},
            MarkKind.SKIPPED,
            "Friday, 4 December 2026: skipped at 09:00: the previous run was still going",
            "09:00 — Skipped: the previous run was still going",
            id="previous-run-still-going-skipped",
        ),
        pytest.param(
            {"disposition": "AUTHORIZATION_FAILED", "reason_code": "scope_revoked"},
            MarkKind.REFUSED,
            "Friday, 4 December 2026: refused at 09:00:"
            " the schedule's owner lost a scope it asks for",
            "09:00 — Refused: the schedule's owner lost a scope it asks for",
            id="missing-authority-refused",
        ),
        pytest.param(
            {"disposition": "CONFIGURATION_FAILED", "reason_code": "definition_invalid"},
            MarkKind.NOT_RUN,
            "Friday, 4 December 2026: not run at 09:00: its saved definition is no longer valid",
            "09:00 — Not run: its saved definition is no longer valid",
            id="invalid-definition-not-run",
        ),
        pytest.param(
            {"disposition": "WAITING_FOR_APPROVAL"},
            MarkKind.NOT_RUN,
            "Friday, 4 December 2026: the firing at 09:00 did not run as planned"
            " (waiting for approval)",
            "09:00 — Did not run as planned (waiting for approval)",
            id="unknown-disposition-humanized",
        ),
    ],
)
async def test_a_past_firing_is_marked_and_said_by_its_outcome(
    api: ScheduleClient,
    router: respx.MockRouter,
    clock: FakeClock,
    outcome: dict[str, Any],
    kind: MarkKind,
    label: str,
    line: str,
) -> None:
    cell, said = await _past_day(api, router, clock, outcome)
    assert _kinds(cell) == [(kind, 1)]
    assert cell.label == label
    assert said == line


async def test_a_failed_run_gets_its_own_mark_and_legend_entry_beside_a_run_that_ran(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    clock.now = datetime(2026, 12, 10, tzinfo=UTC)
    items = [
        past("o1", datetime(2026, 12, 3, 9, tzinfo=UTC), run_status="COMPLETED"),
        past("o2", datetime(2026, 12, 4, 9, tzinfo=UTC), run_status="FAILED"),
    ]
    CalendarServer(router, lambda s, a, b: projection(s, a, b, past_items=items))
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    assert _kinds(_cell(calendar, date(2026, 12, 3))) == [(MarkKind.RAN, 1)]
    assert _kinds(_cell(calendar, date(2026, 12, 4))) == [(MarkKind.FAILED, 1)]
    assert calendar.snapshot.legend == ((MarkKind.RAN, "ran"), (MarkKind.FAILED, "run failed"))


async def test_many_firings_on_a_day_show_a_count_and_say_it(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    hourly = [firing(datetime(2026, 12, 5, hour, tzinfo=UTC)) for hour in range(24)]
    CalendarServer(router, lambda s, a, b: projection(s, a, b, firings=hourly))
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    cell = _cell(calendar, date(2026, 12, 5))
    (mark,) = cell.marks
    assert (mark.kind, mark.count, mark.count_text) == (MarkKind.FIRES, 24, "24")
    assert cell.label == "Saturday, 5 December 2026: fires 24 times"


async def test_an_older_months_late_answer_never_replaces_the_newer_month(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    def build(schedule_id: str, start: str, end: str) -> dict[str, Any]:
        middle = (
            datetime.fromisoformat(start)
            + (datetime.fromisoformat(end) - datetime.fromisoformat(start)) / 2
        )
        return projection(schedule_id, start, end, firings=[firing(middle)])

    server = CalendarServer(router, build)
    calendar = _calendar(api, clock)
    await calendar.show(S1)
    held = server.hold()

    january = asyncio.create_task(calendar.next_month())
    await held.arrived.wait()
    await calendar.next_month()  # February answers at once
    february = calendar.snapshot
    held.release()
    await january

    assert calendar.snapshot == february
    assert calendar.snapshot.month_title == "February 2027"
    assert calendar.snapshot.phase is CalendarPhase.LOADED


async def test_a_failed_month_keeps_the_grid_with_a_retry_that_reads_it_again(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    server = CalendarServer(router, _daily(time(9), LONDON))
    server.queue.extend(server_down())
    calendar = _calendar(api, clock)

    await calendar.show(S1)

    failed = calendar.snapshot
    assert failed.phase is CalendarPhase.FAILED and failed.can_retry
    assert failed.error
    assert len(failed.weeks) == 5 and failed.month_title == "December 2026"
    assert all(not cell.marks for week in failed.weeks for cell in week)
    await calendar.retry()
    assert calendar.snapshot.phase is CalendarPhase.LOADED
    assert _kinds(_cell(calendar, date(2026, 12, 2))) == [(MarkKind.FIRES, 1)]


async def test_a_paused_schedule_is_shown_as_if_resumed_and_an_ended_one_says_so(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    would = firing(datetime(2026, 12, 3, 9, tzinfo=UTC))
    server = CalendarServer(
        router,
        lambda s, a, b: projection(s, a, b, firings=[would], state="PAUSED", as_if_resumed=True),
    )
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    assert calendar.snapshot.status_text == (
        "Paused: nothing fires until it is resumed. Hollow marks show the firings it would"
        " make if resumed now"
    )
    assert _cell(calendar, date(2026, 12, 3)).label.endswith("would fire at 09:00")

    server.build = lambda s, a, b: projection(s, a, b, state="CANCELLED")
    await calendar.retry()
    assert calendar.snapshot.status_text == "This schedule has ended; nothing more will fire"


async def test_the_shift_note_says_from_when_and_until_when_your_time_differs(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    # New York springs forward on 14 March 2027, London on 28 March: for those
    # two weeks a 10:00 New York firing is 14:00 in London instead of 15:00.
    clock.now = datetime(2027, 3, 1, 12, tzinfo=UTC)
    CalendarServer(router, _daily(time(10), NEW_YORK))
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    words = "your time: 14:00 instead of 15:00 until 28 Mar"
    assert calendar.snapshot.notes == (
        "From 14 Mar it fires at 14:00 your time; from 28 Mar at 15:00 again",
    ), "read from the server's firings: New York changed, London not yet"
    for day in (date(2027, 3, 14), date(2027, 3, 27)):
        assert _cell(calendar, day).label.endswith(f"fires at 14:00, {words}")
    for day in (date(2027, 3, 13), date(2027, 3, 28)):
        assert _cell(calendar, day).label.endswith("fires at 15:00")
    await calendar.select_day(date(2027, 3, 20))
    assert [line.text for line in calendar.snapshot.day_lines] == [
        f"14:00 (10:00 America/New_York) — Fires; {words}"
    ]


async def test_a_person_on_the_12_hour_clock_reads_the_shift_note_in_12_hours(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    clock.now = datetime(2027, 3, 1, 12, tzinfo=UTC)
    CalendarServer(router, _daily(time(10), NEW_YORK))
    calendar = _calendar(api, clock, display_zone(LONDON, HourCycle.H12))
    await calendar.show(S1)

    assert calendar.snapshot.notes == (
        "From 14 Mar it fires at 2:00 pm your time; from 28 Mar at 3:00 pm again",
    )
    assert _cell(calendar, date(2027, 3, 20)).label.endswith(
        "fires at 2:00 pm, your time: 2:00 pm instead of 3:00 pm until 28 Mar"
    )


async def test_a_lasting_change_of_your_time_is_not_called_a_shift(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    clock.now = datetime(2027, 3, 1, 12, tzinfo=UTC)
    CalendarServer(router, _daily(time(10), NEW_YORK))
    calendar = _calendar(api, clock, ZoneInfo("UTC"))
    await calendar.show(S1)

    assert calendar.snapshot.notes == ()
    assert _cell(calendar, date(2027, 3, 20)).label.endswith("fires at 14:00")


async def test_arrows_move_the_chosen_day_only_while_the_grid_has_focus_and_escape_leaves_it(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    server = CalendarServer(router)
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    assert await calendar.press("Arrow Right") is False
    assert calendar.snapshot.selected_day == date(2026, 12, 1)
    calendar.set_grid_focus(True)
    assert await calendar.press("Arrow Right") is True
    assert await calendar.press("Arrow Down") is True
    assert calendar.snapshot.selected_day == date(2026, 12, 9)
    assert await calendar.press("Arrow Up") and await calendar.press("Arrow Up")
    assert await calendar.press("Arrow Left") and await calendar.press("Arrow Left")
    assert calendar.snapshot.selected_day == date(2026, 11, 23)
    assert calendar.snapshot.month_title == "November 2026"
    assert await calendar.press("Page Down")
    assert calendar.snapshot.month_title == "December 2026"
    assert await calendar.press("Enter") is False
    assert calendar.snapshot.keyboard_moves == 7
    assert len(server.requests) == 3
    calendar.set_grid_focus(False)
    assert await calendar.press("Arrow Down") is False
    calendar.set_grid_focus(True)
    assert await calendar.press("Escape") is True, "Escape leaves the grid"
    assert not calendar.grid_focused
    assert await calendar.press("Arrow Down") is False


async def test_page_up_and_page_down_keep_the_day_of_the_month_clamped_at_its_end(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    CalendarServer(router)
    calendar = _calendar(api, clock)
    await calendar.show(S1)
    calendar.set_grid_focus(True)
    await calendar.select_day(date(2026, 12, 9))

    assert await calendar.press("Page Down")
    assert calendar.snapshot.selected_day == date(2027, 1, 9), "9 Dec → 9 Jan, not 1 Jan"
    await calendar.select_day(date(2027, 1, 31))
    assert await calendar.press("Page Down")
    assert calendar.snapshot.selected_day == date(2027, 2, 28), "31 Jan → 28 Feb"
    await calendar.select_day(date(2028, 1, 31))
    assert await calendar.press("Page Down")
    assert calendar.snapshot.selected_day == date(2028, 2, 29), "a leap year's 29 Feb"
    assert await calendar.press("Page Up")
    assert calendar.snapshot.selected_day == date(2028, 1, 29)
    assert calendar.snapshot.month_title == "January 2028"


async def test_the_grid_is_one_tab_stop_on_the_chosen_day_with_the_ring_while_focused(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    CalendarServer(router)
    calendar = _calendar(api, clock)
    await calendar.show(S1)
    assert calendar.snapshot.tab_stop_day == date(2026, 12, 1)
    assert not calendar.snapshot.grid_focused

    calendar.set_grid_focus(True)
    assert await calendar.press("Arrow Right")
    assert calendar.snapshot.tab_stop_day == calendar.snapshot.selected_day == date(2026, 12, 2)
    assert calendar.snapshot.grid_focused, "the view draws the focus ring"
    assert await calendar.press("Escape")
    assert not calendar.snapshot.grid_focused


def test_tab_reaches_the_chosen_day_else_today_else_the_first_firing() -> None:
    december = Month(2026, 12)
    today = date(2026, 11, 20)
    firings = (date(2026, 12, 14), date(2026, 12, 7), date(2027, 1, 2))
    assert tab_stop_day(december, date(2026, 12, 9), today, firings) == date(2026, 12, 9)
    assert tab_stop_day(december, None, date(2026, 12, 3), firings) == date(2026, 12, 3)
    assert tab_stop_day(december, date(2026, 11, 30), today, firings) == date(2026, 12, 7)
    assert tab_stop_day(december, None, today, ()) == date(2026, 12, 1)


async def test_previous_and_next_month_choose_the_first_or_today(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    CalendarServer(router)
    calendar = _calendar(api, clock)
    await calendar.show(S1)

    await calendar.previous_month()
    assert (calendar.snapshot.month_title, calendar.snapshot.selected_day) == (
        "November 2026",
        date(2026, 11, 1),
    )
    await calendar.next_month()
    assert (calendar.snapshot.month_title, calendar.snapshot.selected_day) == (
        "December 2026",
        date(2026, 12, 1),
    )


async def test_clear_drops_an_answer_still_in_flight(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    server = CalendarServer(router)
    held = server.hold()
    calendar = _calendar(api, clock)
    task = asyncio.create_task(calendar.show(S1))
    await held.arrived.wait()

    calendar.clear()
    held.release()
    await task

    assert calendar.snapshot.phase is CalendarPhase.IDLE and calendar.snapshot.weeks == ()


async def test_a_refusal_reads_as_the_failure_reason(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    server = CalendarServer(router)
    server.queue.append(refused(403, "auth.scope_missing", scope="schedule.read"))
    calendar = _calendar(api, clock)
    await calendar.show(S1)
    assert calendar.snapshot.phase is CalendarPhase.FAILED
    assert calendar.snapshot.error
