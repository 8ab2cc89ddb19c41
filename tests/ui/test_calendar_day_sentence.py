"""A calendar day chosen by keyboard brings its sentence into view, in Chromium at desktop size.

The month's chosen day takes the arrows (``tests/ui/test_calendar.py``). Here
the detail is scrolled back so that the chosen day's lines, under the grid,
are below the fold, as they are at 1280x800 when the grid has just come into
sight; then → chooses the next day by keyboard. The page's focus is then on
that day's node (named by its date and marks, so a screen reader reads it),
and the calendar has scrolled up so the chosen day's lines (starting with
its long date) are on screen; they are a live region, and the page announces
them to a screen reader.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import tzlocal
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import calendar_day, schedule_row, schedule_rows
from devtools.browser.announcements import announced, record_announcements
from devtools.browser.flutter_page import (
    click_in_list,
    next_frames,
    scroll_into_view,
    scroll_until_attached,
)
from tests.ui.artifacts import save_screenshot
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase
from viewmodels.formatting.clock_text import long_date_text
from viewmodels.language import DEFAULT_LOCALE

pytestmark = pytest.mark.ui
DESKTOP_DETAIL = (1000, 400)
"""A point over the wide layout's detail pane, where the wheel scrolls the detail."""
BACK_UP_PX = 200
BACK_UP_STEPS = 2
"""Wheel steps up, after the day is chosen: the lines go below the fold, the grid stays."""


def test_a_day_chosen_by_keyboard_brings_its_sentence_into_view(
    desktop: Page, database: ScheduleDatabase
) -> None:
    schedule = database.schedules_in(CURRENT_STATES)[0]
    click_in_list(desktop, schedule_rows(desktop).first, schedule_row(desktop, schedule.title))
    today = datetime.now(UTC).astimezone(tzlocal.get_localzone()).date()
    cell = calendar_day(desktop, today)
    scroll_until_attached(desktop, DESKTOP_DETAIL, cell)
    scroll_into_view(desktop, DESKTOP_DETAIL, cell)
    cell.click()
    expect(cell).to_have_attribute("aria-current", "true")
    chosen = today + timedelta(days=1)
    # The chosen day's lines start with its long date; the day's own name goes on with ":".
    named = re.escape(long_date_text(chosen, DEFAULT_LOCALE))
    pattern = re.compile(rf"^{named}(?![,:])")
    # Back up the page until the day's lines are below the fold.
    for _ in range(BACK_UP_STEPS):
        desktop.mouse.move(*DESKTOP_DETAIL)
        desktop.mouse.wheel(0, -BACK_UP_PX)
        next_frames(desktop, 3)
    save_screenshot(desktop, "calendar-day-sentence-before-the-key")

    record_announcements(desktop)
    desktop.keyboard.press("ArrowRight")
    expect(calendar_day(desktop, chosen)).to_have_attribute("aria-current", "true")
    expect(calendar_day(desktop, chosen)).to_be_focused()
    expect(desktop.locator("flt-semantics-host").get_by_text(pattern)).to_be_in_viewport()
    desktop.wait_for_function(
        "(pattern) => (window.__announced || []).some((text) => new RegExp(pattern).test(text))",
        arg=pattern.pattern,
    )
    assert any(pattern.match(text) for text in announced(desktop))
    save_screenshot(desktop, "calendar-day-sentence-in-view")
