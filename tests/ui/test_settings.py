"""Settings, in Chromium at 1280x800 and 390x844 against the real embedded server.

One DAILY schedule fires 3 hours from now. Settings is reached from the
sidebar (the drawer on a phone); choosing Dark, 24-hour clock Off and the zone
Asia/Kolkata (found by searching "kolkata") applies at once: the page turns
dark and the row's next firing reads 12-hour in Kolkata, as do the agenda's
busy strip and its row. After the app is
stopped and started again on the same data folder, in a fresh browser, all
three are still chosen: they are device state in that folder.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import tzlocal
from playwright.sync_api import FloatRect, Page, ViewportSize, expect

from devtools.browser.accessible_names import OPEN_SIDEBAR, SCHEDULES_ENTRY, button, schedule_row
from devtools.browser.flutter_page import UI_TIMEOUT_MS, next_frames, pick, type_into_field
from devtools.browser.served_app import served_app
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.due_schedule import create_daily_due
from tests.ui.page_opener import PageOpener
from tests.ui.screen_pixels import decode_png
from viewmodels.agenda import AGENDA_ENTRY_LABEL, AgendaSpan
from viewmodels.formatting.clock_text import HourCycle, display_zone, local_clock_time
from viewmodels.settings import SETTINGS_ENTRY_LABEL
from viewmodels.settings.snapshot import ZONE_SEARCH_LABEL

pytestmark = pytest.mark.ui

TITLE = "Evening backup report"
KOLKATA = "Asia/Kolkata"
DARK = "Dark"
TWELVE_HOUR = "Off (1:00 pm)"
DARK_AT_MOST = 60.0
LIGHT_AT_LEAST = 200.0


def _next_firing(page: Page, time_text: str) -> None:
    """The row says its next firing at ``time_text`` ("Next: today at 9:00 pm")."""
    expect(schedule_row(page, TITLE)).to_have_accessible_name(
        re.compile(rf"Next: [^.]*\b{re.escape(time_text)}(?:[ .]|$)")
    )


def _surface_luminance(page: Page, size: ViewportSize) -> float:
    """An empty corner of the page, where the surface shows (bottom right)."""
    corner: FloatRect = {
        "x": size["width"] - 40,
        "y": size["height"] - 40,
        "width": 24,
        "height": 24,
    }
    next_frames(page, 3)
    shot = decode_png(page.screenshot(clip=corner))
    return shot.mean_luminance(0, 0, shot.width, shot.height)


def _until_surface_is(page: Page, size: ViewportSize, *, dark: bool) -> None:
    """The surface turns dark (or light): the theme lands a few frames after the radio."""
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while True:
        luminance = _surface_luminance(page, size)
        if (luminance <= DARK_AT_MOST) if dark else (luminance >= LIGHT_AT_LEAST):
            return
        assert time.monotonic() < deadline, f"the surface stayed at luminance {luminance:.0f}"


def _open_settings(page: Page, *, phone: bool) -> None:
    if phone:
        button(page, OPEN_SIDEBAR).click()
    button(page, SETTINGS_ENTRY_LABEL).click()
    expect(page).to_have_url(re.compile(r"/settings$"))


def _show_agenda(page: Page, *, phone: bool) -> None:
    if phone:
        button(page, OPEN_SIDEBAR).click()
    button(page, AGENDA_ENTRY_LABEL).click()
    expect(page).to_have_url(re.compile(r"/agenda$"))


def _show_schedules(page: Page, *, phone: bool) -> None:
    if phone:
        button(page, OPEN_SIDEBAR).click()
    button(page, SCHEDULES_ENTRY).click()
    expect(page).to_have_url(re.compile(r"/$"))


@pytest.mark.parametrize(
    ("size", "phone"), [(DESKTOP_SIZE, False), (PHONE_SIZE, True)], ids=["desktop", "phone"]
)
def test_settings_apply_at_once_and_are_remembered_across_a_restart(
    open_page: PageOpener, tmp_path: Path, size: ViewportSize, phone: bool
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    due = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(hours=3)
    create_daily_due(
        data / "schedules.sqlite3",
        due,
        title=TITLE,
        instruction="Back up the evening's files and report what changed.",
        idempotency_key="ui-settings",
    )
    in_kolkata = local_clock_time(due.astimezone(display_zone(ZoneInfo(KOLKATA), HourCycle.H12)))
    as_today = local_clock_time(due.astimezone(tzlocal.get_localzone()))
    kind = "phone" if phone else "desktop"
    with served_app(data, tmp_path / "logs", extra_arguments=["--no-demo"]) as app:
        page = open_page(app.url, size=size, color_scheme="light", suffix="chosen")
        _next_firing(page, as_today)
        _open_settings(page, phone=phone)
        _until_surface_is(page, size, dark=False)

        pick(page.get_by_role("radio", name=DARK))
        _until_surface_is(page, size, dark=True)

        pick(page.get_by_role("radio", name=TWELVE_HOUR))

        search = page.get_by_role("textbox", name=ZONE_SEARCH_LABEL)
        type_into_field(search, "kolkata")
        pick(page.get_by_role("radio", name=KOLKATA))
        expect(page.get_by_text(f"Times are shown in {KOLKATA}.")).to_be_visible()
        save_screenshot(page, f"settings-chosen-{kind}")

        _show_schedules(page, phone=phone)
        _next_firing(page, in_kolkata)

        _show_agenda(page, phone=phone)
        busy = page.get_by_role("group", name=re.compile(r"^Busy hours"))
        expect(busy).to_contain_text("12:00 am: ")  # the strip's first hour, on the chosen clock
        save_screenshot(page, f"agenda-12-hour-{kind}")
        button(page, AgendaSpan.WEEK.label).click()
        firing = re.compile(rf"^{re.escape(in_kolkata)}, .*{TITLE}")
        expect(page.get_by_role("button", name=firing).first).to_be_attached()  # one a day

    with served_app(data, tmp_path / "logs-again", extra_arguments=["--no-demo"]) as app:
        page = open_page(app.url, size=size, color_scheme="light", suffix="restarted")
        _next_firing(page, in_kolkata)
        _open_settings(page, phone=phone)
        expect(page.get_by_role("radio", name=DARK)).to_be_checked()
        expect(page.get_by_role("radio", name=TWELVE_HOUR)).to_be_checked()
        expect(page.get_by_role("radio", name=KOLKATA)).to_be_checked()
        _until_surface_is(page, size, dark=True)
