"""The calendar in Chromium, at both sizes: a paused schedule's hollow marks, a day not fired.

A paused schedule's calendar says at the top that nothing fires until it is
resumed, and its as-if-resumed days carry the hollow mark with its legend
entry. An active daily schedule's day that the scheduler never decided (the
demo's nightly backup check has one night its scheduler was not running) says
"Not fired: nothing was recorded", never "nothing scheduled". Which schedule and which day come from
the served database, not from the demo's titles.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import tzlocal
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import (
    PREVIOUS_MONTH,
    button,
    calendar_day,
    schedule_row,
    schedule_rows,
)
from devtools.browser.flutter_page import click_in_list, scroll_into_view, scroll_until_attached
from tests.ui.artifacts import save_screenshot
from tests.ui.schedule_database import ScheduleDatabase, StoredSchedule
from viewmodels.calendar.snapshot import MARK_WORDS, MarkKind

pytestmark = pytest.mark.ui

DETAIL_POINTS = {"desktop": (1000, 500), "phone": (195, 600)}
"""Points over the detail (the wide layout's right pane, the phone's pushed screen)."""


def paused_daily(database: ScheduleDatabase) -> StoredSchedule:
    """A PAUSED schedule that fires every day, so the month shown has as-if-resumed days."""
    for schedule in database.schedules_in(("PAUSED",)):
        if database.cadence(schedule.schedule_id).get("kind") == "DAILY":
            return schedule
    raise AssertionError("the demo needs a PAUSED DAILY schedule")


def day_not_fired(database: ScheduleDatabase, now: datetime) -> tuple[StoredSchedule, date]:
    """An ACTIVE DAILY schedule and the latest device-local day, since its active span began,
    on which its wall time passed with no decision recorded."""
    device_zone = tzlocal.get_localzone()
    for schedule in database.schedules_in(("ACTIVE",)):
        cadence = database.cadence(schedule.schedule_id)
        if cadence.get("kind") != "DAILY":
            continue
        zone = ZoneInfo(str(cadence["timezone"]))
        wall = time.fromisoformat(str(cadence["local_time"]))
        since = database.active_since(schedule.schedule_id)
        decided = database.decided_instants(schedule.schedule_id)
        day = now.astimezone(zone).date() - timedelta(days=1)
        while datetime.combine(day, wall, tzinfo=zone) > since:
            nominal = datetime.combine(day, wall, tzinfo=zone).astimezone(UTC)
            if nominal < now - timedelta(hours=1) and nominal not in decided:
                return schedule, nominal.astimezone(device_zone).date()
            day -= timedelta(days=1)
    raise AssertionError("the demo needs an ACTIVE DAILY schedule with a day never decided")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_paused_calendar_marks_as_if_resumed_days_hollow_and_says_nothing_fires(
    size: str, request: pytest.FixtureRequest, database: ScheduleDatabase
) -> None:
    page: Page = request.getfixturevalue(size)
    schedule = paused_daily(database)
    click_in_list(page, schedule_rows(page).first, schedule_row(page, schedule.title))
    would_fire = page.get_by_role("button", name=re.compile(r": would fire at \d\d:\d\d"))
    scroll_until_attached(page, DETAIL_POINTS[size], would_fire.first)
    # The status line and the legend are read as part of the Calendar section's name.
    status = "Paused: nothing fires until it is resumed"
    legend = re.escape(MARK_WORDS[MarkKind.WOULD_FIRE])
    calendar = page.get_by_role("group", name=re.compile(rf"^Calendar {status}\b.*{legend}"))
    expect(calendar).to_be_attached()
    active_day = re.compile(r"^\w+day \d+ \w+ \d{4}[^:]*: fires at \d\d:\d\d")
    expect(page.get_by_role("button", name=active_day)).to_have_count(0)
    scroll_into_view(page, DETAIL_POINTS[size], would_fire.first)
    save_screenshot(page, f"calendar-paused-hollow-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_day_the_scheduler_never_decided_says_not_fired_never_nothing_scheduled(
    size: str, request: pytest.FixtureRequest, database: ScheduleDatabase
) -> None:
    page: Page = request.getfixturevalue(size)
    now = datetime.now(UTC)
    schedule, day = day_not_fired(database, now)
    click_in_list(page, schedule_rows(page).first, schedule_row(page, schedule.title))
    previous_month = button(page, PREVIOUS_MONTH)
    scroll_until_attached(page, DETAIL_POINTS[size], previous_month)
    today = now.astimezone(tzlocal.get_localzone()).date()
    for _ in range((today.year - day.year) * 12 + today.month - day.month):
        previous_month.click()
    expect(page.get_by_role("heading", name=day.strftime("%B %Y"))).to_be_attached()
    cell = calendar_day(page, day, re.compile(r"not fired: nothing was recorded"))
    scroll_until_attached(page, DETAIL_POINTS[size], cell)  # a phone's month may be below
    expect(calendar_day(page, day, re.compile(r"nothing scheduled"))).to_have_count(0)
    scroll_into_view(page, DETAIL_POINTS[size], cell)
    save_screenshot(page, f"calendar-not-fired-{size}")
