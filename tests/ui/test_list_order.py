"""The list's "Soonest first" order, in Chromium at 1280x800 against the real embedded server.

Three DAILY schedules, created soonest first, so the default order (newest
updated first) lists the soonest last. Choosing "Soonest first" (a chip beside
Needs attention, reached by its accessible name) lists it first at once, and
after the app is stopped and started again on the same data folder the choice
is still on: it is device state in that folder.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from devtools.browser.accessible_names import schedule_rows
from devtools.browser.flutter_page import next_frames
from devtools.browser.served_app import served_app
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE
from tests.ui.due_schedule import create_daily_due
from tests.ui.page_opener import PageOpener

pytestmark = pytest.mark.ui

SOONEST_FIRST = "Soonest first"
TITLES = ("Soonest stand-up notes", "Afternoon invoice check", "Evening backup report")
"""Firing 3, 6 and 9 hours from now, created in that order (the latest updated last)."""


def _first_row_is(page: Page, title: str) -> None:
    expect(schedule_rows(page).first).to_have_accessible_name(
        re.compile(rf"^{re.escape(title)}\. ")
    )


def _chip(page: Page) -> Locator:
    """The order chip (Flutter names a selectable chip as a checkbox)."""
    return page.get_by_role("checkbox", name=SOONEST_FIRST, exact=True)


def test_soonest_first_lists_the_soonest_schedule_first_and_survives_a_restart(
    open_page: PageOpener, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    now = datetime.now(UTC).replace(microsecond=0)
    for hours, title in zip((3, 6, 9), TITLES, strict=True):
        create_daily_due(
            data / "schedules.sqlite3",
            now + timedelta(hours=hours),
            title=title,
            instruction="Collect the notes into one short summary.",
            idempotency_key=f"ui-list-order-{hours}",
        )
    with served_app(data, tmp_path / "logs", extra_arguments=["--no-demo"]) as app:
        page = open_page(app.url, size=DESKTOP_SIZE, suffix="chosen")
        _first_row_is(page, TITLES[-1])
        chip = _chip(page)
        expect(chip).not_to_be_checked()
        chip.focus()
        page.keyboard.press("Space")
        expect(chip).to_be_checked()
        _first_row_is(page, TITLES[0])
        next_frames(page)
        save_screenshot(page, "list-order-soonest-first")
    with served_app(data, tmp_path / "logs-again", extra_arguments=["--no-demo"]) as app:
        page = open_page(app.url, size=DESKTOP_SIZE, suffix="restarted")
        expect(_chip(page)).to_be_checked()
        _first_row_is(page, TITLES[0])
        next_frames(page)
        save_screenshot(page, "list-order-after-restart")
