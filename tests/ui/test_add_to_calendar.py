"""Add to calendar in Chromium, at both sizes.

On a remote ``schedule-server`` (the app started with ``--server``, a browser
tab) the detail's Add to calendar makes a feed and shows its address in a
read-only field, and Copy puts that address on the clipboard. On the
embedded server (``schedule-browser --web``) the same button hands the
browser the feed's calendar as a download: the test catches the download
and reads the file (name, iCalendar content with the schedule's title), and
the page says in one sentence that the file is a snapshot.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from devtools.browser.accessible_names import button, schedule_row, schedule_rows
from devtools.browser.flutter_page import accessible_texts, next_frames, wait_for_text
from devtools.browser.schedule_server import ScheduleServer
from devtools.browser.served_app import ServedApp
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase
from viewmodels.feeds.words import (
    ADD_TO_CALENDAR_LABEL,
    ADDRESS_COPIED_TEXT,
    COPY_ADDRESS_LABEL,
    DOWNLOADED_TEXT,
    FEEDS_ENTRY_LABEL,
    REVOKE_LABEL,
    SUBSCRIBE_ALL_LABEL,
)

pytestmark = pytest.mark.ui

SIZES = [pytest.param(DESKTOP_SIZE, id="desktop"), pytest.param(PHONE_SIZE, id="phone")]
SHOWN_ADDRESS = re.compile(
    r"Calendar feed address: (http://127\.0\.0\.1:\d+/feeds/[A-Za-z0-9_-]{43,}\.ics)$"
)


def _add_to_calendar(page: Page) -> None:
    add = button(page, ADD_TO_CALENDAR_LABEL)
    expect(add).to_be_visible()
    add.scroll_into_view_if_needed()
    add.click()


@pytest.mark.parametrize("size", SIZES)
def test_on_a_remote_server_add_to_calendar_shows_a_copyable_feed_address(
    remote: ScheduleServer, remote_url: str, open_page: PageOpener, size: ViewportSize
) -> None:
    remote.start()
    schedule = ScheduleDatabase(remote.database).schedules_in(CURRENT_STATES)[0]
    page = open_page(f"{remote_url}schedules/{schedule.schedule_id}", size=size)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    wait_for_text(page, schedule.title)

    _add_to_calendar(page)

    address = _shown_address(page)
    button(page, COPY_ADDRESS_LABEL).click()
    wait_for_text(page, ADDRESS_COPIED_TEXT)
    assert page.evaluate("navigator.clipboard.readText()") == address


def _shown_address(page: Page) -> str:
    """The feed address the panel shows, read from the accessibility tree once drawn."""
    for _ in range(200):
        for text in accessible_texts(page):
            found = SHOWN_ADDRESS.search(text)
            if found:
                return found.group(1)
        next_frames(page, 6)
    raise AssertionError("the panel never showed a feed address")


@pytest.mark.parametrize("size", SIZES)
def test_on_the_embedded_server_add_to_calendar_downloads_the_calendar_file(
    served: ServedApp, open_page: PageOpener, size: ViewportSize
) -> None:
    page = open_page(served.url, size=size)
    expect(schedule_rows(page).first).to_be_visible()  # the embedded database is made
    schedule = ScheduleDatabase(served.database_path).schedules_in(("ACTIVE",))[0]
    schedule_row(page, schedule.title).click()
    wait_for_text(page, schedule.title)

    with page.expect_download() as downloading:
        _add_to_calendar(page)
    download = downloading.value
    file_name = f"{schedule.title}.ics"
    assert download.suggested_filename == file_name
    path = download.path()
    content = path.read_text(encoding="utf-8")
    assert content.startswith("BEGIN:VCALENDAR")
    assert f"SUMMARY:{schedule.title}" in content.replace("\r\n ", "")
    wait_for_text(page, DOWNLOADED_TEXT.format(file_name=file_name))


@pytest.mark.parametrize("size", SIZES)
def test_the_agenda_subscribes_to_all_schedules_and_lists_the_feeds_to_revoke(
    remote: ScheduleServer, remote_url: str, open_page: PageOpener, size: ViewportSize
) -> None:
    remote.start()
    page = open_page(f"{remote_url}agenda", size=size)
    button(page, SUBSCRIBE_ALL_LABEL).click()
    _shown_address(page)
    button(page, FEEDS_ENTRY_LABEL).click()
    feed = page.get_by_text(re.compile(r"^All schedules, created ")).first
    expect(feed).to_be_visible()
    revokes = button(page, REVOKE_LABEL)
    count = revokes.count()
    revokes.first.click()
    wait_for_text(page, "Revoke “All schedules”? Calendar apps subscribed to it stop")
    expect(button(page, REVOKE_LABEL)).to_have_count(count + 1)  # the question's own Revoke
    # Newest first: the question sits under the first row, its Revoke second in reading order.
    button(page, REVOKE_LABEL).nth(1).click()
    expect(button(page, REVOKE_LABEL)).to_have_count(count - 1)
