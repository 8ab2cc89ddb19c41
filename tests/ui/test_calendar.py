"""The detail's calendar in Chromium: a month with a clock change says the adjusted firing.

A month with outcomes marks a firing whose run failed with the failed mark,
never as one that ran: the demo's schedule whose latest runs failed past their
deadline (found in the database, not by title) shows it on each failed day.

Also the keyboard: a chosen day takes the arrows, Escape gives them back to
the list; Page Down keeps the day of the month (9th → 9th); the grid is one
Tab stop, so a single Tab leaves it and the arrows go back to the list.

The served demo has a schedule firing in the gap New York's spring-forward
opens (a DAILY between 02:00 and 03:00, America/New_York). The test opens it
as a person would, moves the calendar to the month of New York's next
spring-forward with the Next month button, finds that day's cell by its
accessible name (which carries the adjustment in words), chooses it, and finds
the adjustment's sentence by its accessible name, at desktop and phone size.
Where that month is comes from the zone database and this machine's clock,
so the test holds whenever it runs.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import tzlocal
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import (
    NEXT_MONTH,
    PREVIOUS_MONTH,
    button,
    calendar_day,
    calendar_note,
    schedule_row,
    schedule_rows,
)
from devtools.browser.flutter_page import click_in_list, scroll_into_view, scroll_until_attached
from tests.ui.artifacts import save_screenshot
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase, StoredSchedule
from viewmodels.calendar.month_grid import Month
from viewmodels.calendar.snapshot import MARK_WORDS, MarkKind
from viewmodels.formatting.clock_text import day_month_text
from viewmodels.language import DEFAULT_LOCALE
from views.calendar_grid import MARK_GLYPHS, MARK_SIZE

pytestmark = pytest.mark.ui

NEW_YORK = ZoneInfo("America/New_York")
DESKTOP_DETAIL = (1000, 500)
PHONE_DETAIL = (195, 600)
"""Points over the detail (the wide layout's right pane, the phone's pushed screen)."""


def gap_schedule(database: ScheduleDatabase) -> tuple[StoredSchedule, time]:
    """The demo's schedule whose wall time New York's spring-forward skips."""
    for schedule in database.schedules_in(CURRENT_STATES):
        cadence = database.cadence(schedule.schedule_id)
        if cadence.get("kind") == "DAILY" and cadence.get("timezone") == NEW_YORK.key:
            wall = time.fromisoformat(str(cadence["local_time"]))
            if time(2) <= wall < time(3) and schedule.state == "ACTIVE":
                return schedule, wall
    raise AssertionError("the demo needs an ACTIVE DAILY between 02:00 and 03:00 New York time")


def next_spring_forward(after: datetime) -> date:
    """The next local date New York's clocks go forward, read from the zone database."""
    day = after.astimezone(NEW_YORK).date() + timedelta(days=1)
    while True:
        morning = datetime.combine(day, time(1), tzinfo=NEW_YORK).utcoffset()
        noon = datetime.combine(day, time(12), tzinfo=NEW_YORK).utcoffset()
        assert morning is not None and noon is not None
        if noon > morning:
            return day
        day += timedelta(days=1)


def open_calendar_at_spring_forward(
    page: Page, database: ScheduleDatabase, detail_point: tuple[float, float]
) -> tuple[date, time]:
    schedule, wall = gap_schedule(database)
    click_in_list(page, schedule_rows(page).first, schedule_row(page, schedule.title))
    next_month = button(page, NEXT_MONTH)
    scroll_until_attached(page, detail_point, next_month)
    device_zone = tzlocal.get_localzone()
    today = datetime.now(UTC).astimezone(device_zone).date()
    change = next_spring_forward(datetime.now(UTC))
    for _ in range((change.year - today.year) * 12 + change.month - today.month):
        next_month.click()
    return change, wall


def _sentence(change: date, wall: time) -> re.Pattern[str]:
    del wall  # the day's line names the rule's time; the note, the clock change
    return re.compile(
        rf"^New York's clocks go forward on {day_month_text(change, DEFAULT_LOCALE)}:"
        rf" this firing is at 03:00 there"
    )


def _check(page: Page, change: date, wall: time, detail_point: tuple[float, float]) -> None:
    expect(page.get_by_role("heading", name=change.strftime("%B %Y"))).to_be_attached()
    cell = calendar_day(page, change, re.compile(r"moved by the clock change"))
    expect(cell).to_be_attached()
    scroll_into_view(page, detail_point, cell)
    cell.click()
    expect(calendar_day(page, change)).to_have_attribute("aria-current", "true")
    expect(calendar_note(page, _sentence(change, wall))).to_be_visible()


def test_desktop_calendar_says_the_spring_forward_firing_in_a_sentence(
    desktop: Page, database: ScheduleDatabase
) -> None:
    change, wall = open_calendar_at_spring_forward(desktop, database, DESKTOP_DETAIL)
    _check(desktop, change, wall, DESKTOP_DETAIL)
    save_screenshot(desktop, "calendar-desktop")


def test_a_chosen_day_takes_the_arrows_until_escape_gives_them_back_to_the_list(
    desktop: Page, database: ScheduleDatabase
) -> None:
    schedule, _ = gap_schedule(database)
    click_in_list(desktop, schedule_rows(desktop).first, schedule_row(desktop, schedule.title))
    today = datetime.now(UTC).astimezone(tzlocal.get_localzone()).date()
    # Two days back stays in the month shown at least until the 3rd of the month.
    day = today - timedelta(days=2) if today.day >= 3 else today
    cell = calendar_day(desktop, day)
    scroll_until_attached(desktop, DESKTOP_DETAIL, cell)
    scroll_into_view(desktop, DESKTOP_DETAIL, cell)
    cell.click()
    chosen = desktop.locator("flt-semantics[role='button'][aria-current='true']")
    expect(calendar_day(desktop, day)).to_have_attribute("aria-current", "true")
    selected_row = schedule_rows(desktop).and_(chosen)
    expect(selected_row).to_have_count(1)
    listed = selected_row.get_attribute("aria-label") or selected_row.inner_text()

    desktop.keyboard.press("ArrowRight")
    expect(calendar_day(desktop, day + timedelta(days=1))).to_have_attribute("aria-current", "true")
    expect(schedule_rows(desktop).and_(chosen)).to_have_text(listed)

    desktop.keyboard.press("Escape")
    desktop.keyboard.press("ArrowDown")
    moved_on = schedule_rows(desktop).and_(chosen).filter(has_not_text=schedule.title)
    expect(moved_on).to_have_count(1)
    expect(calendar_day(desktop, day + timedelta(days=1))).to_have_attribute("aria-current", "true")


def test_page_down_keeps_the_day_of_the_month_and_tab_leaves_the_grid_in_one_step(
    desktop: Page, database: ScheduleDatabase
) -> None:
    schedule, _ = gap_schedule(database)
    click_in_list(desktop, schedule_rows(desktop).first, schedule_row(desktop, schedule.title))
    today = datetime.now(UTC).astimezone(tzlocal.get_localzone()).date()
    day = today.replace(day=9)  # the calendar opens on this month; the 9th is never its 1st
    cell = calendar_day(desktop, day)
    scroll_until_attached(desktop, DESKTOP_DETAIL, cell)
    scroll_into_view(desktop, DESKTOP_DETAIL, cell)
    cell.click()
    expect(calendar_day(desktop, day)).to_have_attribute("aria-current", "true")

    desktop.keyboard.press("PageDown")  # 9 Dec → 9 Jan (it used to land on the 1st)
    following = Month.of(day).shifted(1).same_day(day)
    assert following.day == min(day.day, Month.of(following).last_day.day)
    # A grid runs at most 6 days past its month, never to the next 9th: that cell chosen
    # means the next month shows, with the day kept.
    expect(calendar_day(desktop, following)).to_have_attribute("aria-current", "true")

    chosen = desktop.locator("flt-semantics[role='button'][aria-current='true']")
    listed = schedule_rows(desktop).and_(chosen)
    expect(listed).to_have_count(1)
    before = listed.get_attribute("aria-label")
    desktop.keyboard.press("Tab")  # one Tab: out of the grid, not to the next day
    desktop.keyboard.press("ArrowDown")
    expect(calendar_day(desktop, following)).to_have_attribute("aria-current", "true")
    expect(schedule_rows(desktop).and_(chosen)).not_to_have_attribute("aria-label", before or "")


def test_phone_page_down_keeps_the_day_of_the_month(
    phone: Page, database: ScheduleDatabase
) -> None:
    schedule, _ = gap_schedule(database)
    click_in_list(phone, schedule_rows(phone).first, schedule_row(phone, schedule.title))
    today = datetime.now(UTC).astimezone(tzlocal.get_localzone()).date()
    day = today.replace(day=9)
    cell = calendar_day(phone, day)
    scroll_until_attached(phone, PHONE_DETAIL, cell)
    scroll_into_view(phone, PHONE_DETAIL, cell)
    cell.click()
    expect(calendar_day(phone, day)).to_have_attribute("aria-current", "true")

    phone.keyboard.press("PageDown")  # a phone with a keyboard attached, or a tablet's
    following = Month.of(day).shifted(1).same_day(day)
    expect(calendar_day(phone, following)).to_have_attribute("aria-current", "true")


def test_phone_calendar_says_the_spring_forward_firing_in_a_sentence(
    phone: Page, database: ScheduleDatabase
) -> None:
    change, wall = open_calendar_at_spring_forward(phone, database, PHONE_DETAIL)
    _check(phone, change, wall, PHONE_DETAIL)
    save_screenshot(phone, "calendar-phone")


def failed_run_schedule(database: ScheduleDatabase) -> tuple[StoredSchedule, list[date]]:
    """The demo's current schedule whose runs failed, with those firings' dates, newest first."""
    device_zone = tzlocal.get_localzone()
    for schedule_id, instants in database.failed_runs().items():
        schedule = database.schedule(schedule_id)
        if schedule.state in CURRENT_STATES:
            return schedule, [instant.astimezone(device_zone).date() for instant in instants]
    raise AssertionError("the demo needs a current schedule whose runs failed")


def test_desktop_calendar_marks_a_failed_run_as_failed_never_as_ran(
    desktop: Page, database: ScheduleDatabase
) -> None:
    schedule, failed_days = failed_run_schedule(database)
    click_in_list(desktop, schedule_rows(desktop).first, schedule_row(desktop, schedule.title))
    previous_month = button(desktop, PREVIOUS_MONTH)
    scroll_until_attached(desktop, DESKTOP_DETAIL, previous_month)
    today = datetime.now(UTC).astimezone(tzlocal.get_localzone()).date()
    newest = failed_days[0]
    for _ in range((today.year - newest.year) * 12 + today.month - newest.month):
        previous_month.click()
    expect(desktop.get_by_role("heading", name=newest.strftime("%B %Y"))).to_be_attached()

    for day in (d for d in failed_days if Month.of(d) == Month.of(newest)):
        failed = calendar_day(
            desktop, day, re.compile(r"run failed at \d\d:\d\d: it ran past its deadline")
        )
        scroll_until_attached(desktop, DESKTOP_DETAIL, failed)  # the grid may be below the fold
        expect(calendar_day(desktop, day, re.compile(r"\bran at\b"))).to_have_count(0)
    # The legend's words are read as part of the Calendar section's name.
    legend = rf"\b{MARK_WORDS[MarkKind.RAN]} {MARK_WORDS[MarkKind.FAILED]}\b"
    expect(
        desktop.get_by_role("group", name=re.compile(rf"^Calendar\b.*{legend}"))
    ).to_be_attached()
    scroll_into_view(desktop, DESKTOP_DETAIL, calendar_day(desktop, newest))
    save_screenshot(desktop, "calendar-failed-run-desktop")


def test_calendar_marks_are_at_least_12_px_with_a_shape_for_each_kind() -> None:
    # The icon box holds its glyph with a sixth of padding round it: 16 px draws about 12.
    assert MARK_SIZE * 0.75 >= 12
    assert set(MARK_GLYPHS) == set(MarkKind), "every kind has its glyph"
    shapes = [icon for icon, _ in MARK_GLYPHS.values()]
    assert len(set(shapes)) == len(shapes), "no two kinds share a shape"
