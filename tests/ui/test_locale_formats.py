"""The web view follows the browser's language for its formats, in Chromium at 1280x800.

A browser whose language is en-US reads the list's next firings on the
12-hour clock ("9:00 AM"), the calendar's weeks from Sunday and its days named
the American way ("Tuesday, December 1, 2026"); every other UI test opens its
pages in en-GB, the app's default look.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import tzlocal
from babel import Locale
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import (
    NEXT_ON_12_HOUR_CLOCK,
    calendar_day,
    schedule_rows,
)
from devtools.browser.flutter_page import click_in_list, scroll_into_view, scroll_until_attached
from devtools.browser.served_app import ServedApp
from tests.ui.conftest import DESKTOP_SIZE
from tests.ui.page_opener import PageOpener

pytestmark = pytest.mark.ui

DESKTOP_DETAIL = (1000, 500)


US = Locale.parse("en_US")


def _left(page: Page, day: date) -> float:
    box = calendar_day(page, day, locale=US).bounding_box()
    assert box is not None, f"{day} is not laid out"
    return box["x"]


def test_a_browser_in_en_us_reads_9_00_am_and_a_sunday_first_calendar(
    open_page: PageOpener, served: ServedApp
) -> None:
    page = open_page(served.url, size=DESKTOP_SIZE, locale="en-US")

    expect(page.get_by_role("button", name=NEXT_ON_12_HOUR_CLOCK).first).to_be_attached()

    click_in_list(page, schedule_rows(page).first, schedule_rows(page).first)
    today = datetime.now(UTC).astimezone(tzlocal.get_localzone()).date()
    cell = calendar_day(page, today, locale=US)
    scroll_until_attached(page, DESKTOP_DETAIL, cell)
    scroll_into_view(page, DESKTOP_DETAIL, cell)  # a node off screen has no box
    sunday = today - timedelta(days=today.isoweekday() % 7)
    monday, saturday = sunday + timedelta(days=1), sunday + timedelta(days=6)
    assert _left(page, sunday) < _left(page, monday) < _left(page, saturday)
