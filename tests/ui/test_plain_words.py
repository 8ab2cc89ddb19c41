"""Issue 24's words in Chromium, at both sizes, against the real embedded server.

- The time pair: a row whose schedule keeps New York time names the New York
  time beside the device's ("Next: tomorrow at 07:30 (02:30 America/New_York)").
- The end sentence and the month: a completed schedule's row says when it
  ended ("Completed on 27 Nov after its only firing"), and its calendar opens
  on the month of its last firing, not the current one.
"""

from __future__ import annotations

import re
from datetime import datetime

import pytest
import tzlocal
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import HISTORY_TAB, button, schedule_row, schedule_rows
from devtools.browser.flutter_page import (
    choose,
    click_in_list,
    scroll_until_attached,
    until_it_takes,
    wait_for_text,
)
from tests.ui.artifacts import save_screenshot
from tests.ui.schedule_database import ScheduleDatabase, StoredSchedule, stored_instant
from tests.ui.test_calendar import DESKTOP_DETAIL, PHONE_DETAIL, gap_schedule
from viewmodels.detail.pause_help import COPY_NAME_AND_ID_LABEL
from viewmodels.formatting.clock_text import day_month_text
from viewmodels.language import DEFAULT_LOCALE

pytestmark = pytest.mark.ui

_POINTS = {"desktop": DESKTOP_DETAIL, "phone": PHONE_DETAIL}
HISTORY_ROW = re.compile(r"^.+?\. (?:Completed|Cancelled)\b")


def _show_history(page: Page) -> None:
    """Recent History chosen until its rows are shown: under load the list was once seen
    back on Current after the segment said Recent History (cause not found)."""
    until_it_takes(
        lambda: choose(button(page, HISTORY_TAB)),
        lambda: expect(page.get_by_role("button", name=HISTORY_ROW).first).to_be_attached(
            timeout=10_000
        ),
    )


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_row_names_the_schedules_time_beside_yours(
    screen: str, request: pytest.FixtureRequest, database: ScheduleDatabase
) -> None:
    page: Page = request.getfixturevalue(screen)
    schedule, wall = gap_schedule(database)
    expect(schedule_rows(page).first).to_be_visible()
    row = schedule_row(page, schedule.title)
    scroll_until_attached(page, _list_point(page), row)

    pair = rf"Next: .*\d\d:\d\d \({wall.hour:02d}:{wall.minute:02d} America/New_York"
    expect(row).to_have_accessible_name(re.compile(pair))
    expect(page.get_by_text(re.compile(r"^Times in .+, your device's zone$"))).to_have_count(1)


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_completed_schedule_says_when_it_ended_and_its_calendar_shows_its_last_firing(
    screen: str, request: pytest.FixtureRequest, database: ScheduleDatabase
) -> None:
    page: Page = request.getfixturevalue(screen)
    schedule, last = _completed_that_fired(database)
    zone = tzlocal.get_localzone()
    ended = stored_instant(schedule.updated_at).astimezone(zone)
    expect(schedule_rows(page).first).to_be_visible()
    _show_history(page)
    row = schedule_row(page, schedule.title)
    scroll_until_attached(page, _list_point(page), row)

    sentence = (
        rf"Completed on {day_month_text(ended, DEFAULT_LOCALE)}\b.* after its (only|last) firing"
    )
    expect(row).to_have_accessible_name(re.compile(sentence))
    click_in_list(page, schedule_rows(page).first, row)
    month = last.astimezone(zone).strftime("%B %Y")
    heading = page.get_by_role("heading", name=month)
    scroll_until_attached(page, _POINTS[screen], heading)
    expect(heading).to_be_attached()
    save_screenshot(page, f"ended-{screen}")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_schedule_paused_after_failures_says_why_leads_to_its_session_and_how_to_resume(
    screen: str, request: pytest.FixtureRequest, database: ScheduleDatabase
) -> None:
    page: Page = request.getfixturevalue(screen)
    paused = next(s for s in database.needs_attention() if s.state == "PAUSED")
    expect(schedule_rows(page).first).to_be_visible()
    click_in_list(page, schedule_rows(page).first, schedule_row(page, paused.title))

    session = button(page, "Open the failed firing's session")
    expect(session).to_be_visible()
    wait_for_text(page, "this demo server has no agent, so it stays paused")
    expect(button(page, COPY_NAME_AND_ID_LABEL)).to_be_attached()
    save_screenshot(page, f"paused-{screen}")
    session.click()
    expect(page).to_have_url(re.compile(r"/sessions/[0-9a-f-]{36}$"))


def _completed_that_fired(database: ScheduleDatabase) -> tuple[StoredSchedule, datetime]:
    for schedule in database.schedules_in(("COMPLETED",)):
        last = database.last_firing(schedule.schedule_id)
        if last is not None:
            return schedule, last
    raise AssertionError("the demo needs a COMPLETED schedule that fired")


def _list_point(page: Page) -> tuple[float, float]:
    """A point over the list: the wide layout's middle pane, the phone's only one."""
    width = (page.viewport_size or {"width": 1280})["width"]
    return (500, 400) if width > 600 else (195, 500)
