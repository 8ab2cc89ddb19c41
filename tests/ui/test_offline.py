"""Offline: the server goes away, the page is reloaded, and the app shows what it last read.

Against a real ``schedule-server`` (``devtools.browser.schedule_server``) and the app
started with ``--server``, at desktop and phone size. The person reads both
lists, opens two schedules and reads the Agenda's Month; the server is stopped
and the page reloaded (a new session of the app, which must paint from the
view cache it keeps in its data folder; each size starts with that folder empty).
The rows, both details and the Agenda's Month are there under the banner
naming the time they were read; the website picker is disabled with its
reason; a schedule never opened says it was not read while online. The server
starts again and the banner goes within one offline recheck, without a click.
"""

from __future__ import annotations

import re
import shutil
import time
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from app.device_folder import FOLDER_NAME
from devtools.browser.accessible_names import (
    BACK,
    CURRENT_TAB,
    HISTORY_TAB,
    OPEN_SIDEBAR,
    ROW_NAME,
    SCHEDULES_ENTRY,
    button,
    schedule_row,
    website_picker,
)
from devtools.browser.flutter_page import (
    UI_TIMEOUT_MS,
    accessible_texts,
    choose,
    enable_semantics,
    next_frames,
    until_it_takes,
    wait_for_text,
)
from devtools.browser.schedule_server import DATA_HOME, ScheduleServer
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import CURRENT_STATES, HISTORY_STATES, ScheduleDatabase
from tests.ui.test_agenda import AGENDA_ROW, agenda_rows
from viewmodels.agenda import AGENDA_ENTRY_LABEL, AgendaSpan
from viewmodels.detail.snapshot import NOT_READ_TITLE
from viewmodels.detail.website_access import OFFLINE_REASON
from viewmodels.live_updates import OFFLINE_RECHECK

pytestmark = pytest.mark.ui

BANNER = re.compile(
    r"Can't reach the schedule server\. "
    r"Showing what was read at \d\d:\d\d(?: yesterday)? \((just now|\d+ min ago)\)\."
)
BANNER_START = "Can't reach the schedule server."
BACK_ONLINE_WITHIN_MS = OFFLINE_RECHECK / timedelta(milliseconds=1) + UI_TIMEOUT_MS
"""One offline recheck plus the time one round may take."""


def open_detail(page: Page, title: str, *, phone: bool) -> None:
    """Opens the schedule and waits until it is read whole and kept: its own heading,
    then its picker usable (the view cache keeps a detail before its picker loads).
    On a wide window the detail opened before stays, picker usable, until this one
    answers: the picker alone would not say which detail was read."""
    schedule_row(page, title).click()
    detail_shows(page, title)
    wait_for_text(page, "Instruction")
    expect(website_picker(page)).to_be_enabled()
    if phone:
        button(page, BACK).click()
        expect(schedule_row(page, title)).to_be_visible()


def banner(page: Page) -> None:
    """The banner is readable, with the time the copy was read and its age."""
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while not any(BANNER.search(text) for text in accessible_texts(page)):
        if time.monotonic() > deadline:
            near = [text for text in accessible_texts(page) if "reach" in text]
            raise AssertionError(f"no offline banner; texts naming reach: {near}")
        next_frames(page, 6)


def detail_shows(page: Page, title: str) -> None:
    """The detail's heading names ``title`` (not only its list row or a sidebar group)."""
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while not any(
        title in text and not ROW_NAME.match(text) and " sessions," not in text
        for text in accessible_texts(page)
    ):
        assert time.monotonic() < deadline, f"the detail of {title!r} is not shown"
        next_frames(page, 6)


def no_banner(page: Page) -> bool:
    return not any(BANNER_START in text for text in accessible_texts(page))


def go_to(page: Page, entry: str, *, phone: bool) -> None:
    """The destination ``entry`` (Schedules, Agenda): from the sidebar, or the phone's drawer."""
    if phone:
        button(page, OPEN_SIDEBAR).click()
    button(page, entry).click()


def agenda_month(page: Page, *, phone: bool) -> str:
    """The Agenda's Month shown: the name of its first row."""
    go_to(page, AGENDA_ENTRY_LABEL, phone=phone)
    button(page, AgendaSpan.MONTH.label).click()
    expect(agenda_rows(page).first).to_be_visible()
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while True:  # the rows may be redrawn for the span between the wait and the read
        first = next((text for text in accessible_texts(page) if AGENDA_ROW.match(text)), None)
        if first is not None:
            return first
        assert time.monotonic() < deadline, "no agenda row is readable"
        next_frames(page, 6)


def forget(kept: Path) -> None:
    """Remove ``kept``, again while the other size's session, just closed, still writes in it."""
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while kept.exists():
        assert time.monotonic() < deadline, f"{kept} is written to without end"
        shutil.rmtree(kept, ignore_errors=True)


@pytest.mark.parametrize("size", [DESKTOP_SIZE, PHONE_SIZE], ids=["desktop", "phone"])
def test_a_reload_while_the_server_is_away_shows_the_rows_and_details_last_read(
    remote: ScheduleServer,
    remote_url: str,
    remote_app_logs: Path,
    open_page: PageOpener,
    size: ViewportSize,
    request: pytest.FixtureRequest,
) -> None:
    phone = size == PHONE_SIZE
    remote.start()
    # The other size's copy (the detail it read last) is not this one's to show.
    for kept in (remote_app_logs / DATA_HOME).glob(f"*/{FOLDER_NAME}"):
        forget(kept)
    stored = ScheduleDatabase(remote.database)
    current = [schedule.title for schedule in stored.schedules_in(CURRENT_STATES)]
    history = [schedule.title for schedule in stored.schedules_in(HISTORY_STATES)]
    first, second, never_opened = current[0], current[1], current[2]
    page = open_page(remote_url, size=size)

    expect(schedule_row(page, first)).to_be_visible()
    # Each section until its rows show: under load the list was seen back on Current
    # after Recent History was chosen (as in test_plain_words; cause not found).
    until_it_takes(
        lambda: choose(button(page, HISTORY_TAB)),
        lambda: expect(schedule_row(page, history[0])).to_be_visible(timeout=10_000),
    )
    until_it_takes(
        lambda: choose(button(page, CURRENT_TAB)),
        lambda: expect(schedule_row(page, first)).to_be_visible(timeout=10_000),
    )
    open_detail(page, first, phone=phone)
    open_detail(page, second, phone=phone)
    month_row = agenda_month(page, phone=phone)
    go_to(page, SCHEDULES_ENTRY, phone=phone)
    expect(schedule_row(page, first)).to_be_visible()

    try:
        remote.stop()
        page.reload()
        enable_semantics(page)

        expect(schedule_row(page, first)).to_be_visible()
        expect(schedule_row(page, second)).to_be_visible()
        banner(page)
        if phone:
            save_screenshot(page, f"{request.node.name}-banner")

        for title in (first, second):
            schedule_row(page, title).click()
            detail_shows(page, title)
            wait_for_text(page, "Instruction")
            expect(website_picker(page)).to_be_disabled()
            wait_for_text(page, OFFLINE_REASON)
            if phone:
                button(page, BACK).click()

        schedule_row(page, never_opened).click()
        wait_for_text(page, NOT_READ_TITLE)
        if phone:
            button(page, BACK).click()

        button(page, HISTORY_TAB).click()
        expect(schedule_row(page, history[0])).to_be_visible()
        next_frames(page)

        assert agenda_month(page, phone=phone) == month_row
        banner(page)
        if phone:
            save_screenshot(page, f"{request.node.name}-agenda")
        go_to(page, SCHEDULES_ENTRY, phone=phone)
        expect(schedule_row(page, history[0])).to_be_visible()
    finally:
        remote.start()

    deadline = time.monotonic() + BACK_ONLINE_WITHIN_MS / 1000
    while not no_banner(page):
        assert time.monotonic() < deadline, "the banner stayed after the server came back"
        page.wait_for_timeout(250)
    expect(schedule_row(page, history[0])).to_be_visible()
    stderr = (remote_app_logs / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in stderr, f"the app logged a traceback:\n{stderr[-3000:]}"
