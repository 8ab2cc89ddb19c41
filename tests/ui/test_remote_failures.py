"""Against a remote schedule server: an outage reads plainly and Retry recovers; a missing
schedule's deep link says it is not found.

``schedule-server`` runs as its own process (``devtools.browser.schedule_server``) and
the app is started with ``--server`` and the token in its environment, as a
person would run them. The outage is real: the server process is stopped,
then started again on the same port and database.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import (
    CLOSE_DETAILS,
    HISTORY_TAB,
    button,
    schedule_row,
    schedule_rows,
)
from devtools.browser.flutter_page import accessible_texts, choose, wait_for_text
from devtools.browser.schedule_server import ScheduleServer
from tests.ui.artifacts import save_screenshot
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import CURRENT_STATES, HISTORY_STATES, ScheduleDatabase

pytestmark = pytest.mark.ui

LIST_FAILED = "Schedules could not be loaded"
NOT_FOUND = "Schedule not found"
NOT_FOUND_REASON = "This schedule was removed or you no longer have access to it."
MISSING_ID = "00000000-0000-4000-8000-000000000000"
TRACEBACK_MARKS = ("Traceback", 'File "', "Exception", "Errno", "httpx", "\n  at ")


@pytest.fixture
def running_remote(remote: ScheduleServer) -> ScheduleServer:
    """The server up at the start of each test, whatever the one before left."""
    remote.start()
    return remote


def traceback_marks(page: Page) -> list[str]:
    return [t for t in accessible_texts(page) if any(mark in t for mark in TRACEBACK_MARKS)]


def test_an_outage_shows_a_plain_failure_with_retry_and_retry_brings_the_list_back(
    running_remote: ScheduleServer,
    remote_url: str,
    remote_app_logs: Path,
    open_page: PageOpener,
    request: pytest.FixtureRequest,
) -> None:
    first = ScheduleDatabase(running_remote.database).schedules_in(CURRENT_STATES)[0]
    finished = ScheduleDatabase(running_remote.database).schedules_in(HISTORY_STATES)[0]
    page = open_page(remote_url)
    expect(schedule_row(page, first.title)).to_be_visible()

    # Recent History was never read on this device: nothing kept to show offline.
    running_remote.stop()
    choose(button(page, HISTORY_TAB))

    wait_for_text(page, LIST_FAILED)
    retry = button(page, "Retry")
    expect(retry).to_be_visible()
    expect(schedule_rows(page)).to_have_count(0)
    assert traceback_marks(page) == []
    save_screenshot(page, f"{request.node.name}-outage")

    running_remote.start()
    retry.click()

    expect(schedule_row(page, finished.title)).to_be_visible()
    stderr = (remote_app_logs / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in stderr, f"the app logged a traceback:\n{stderr[-3000:]}"


def test_a_deep_link_to_a_missing_schedule_says_not_found_with_retry(
    running_remote: ScheduleServer, remote_url: str, open_page: PageOpener
) -> None:
    first = ScheduleDatabase(running_remote.database).schedules_in(CURRENT_STATES)[0]

    page = open_page(f"{remote_url}schedules/{MISSING_ID}")

    wait_for_text(page, NOT_FOUND)
    wait_for_text(page, NOT_FOUND_REASON)
    expect(button(page, "Retry")).to_be_visible()
    expect(schedule_row(page, first.title)).to_be_visible()
    assert traceback_marks(page) == []

    # The failed detail has the same way out a loaded one has.
    button(page, CLOSE_DETAILS).click()
    page.wait_for_url(remote_url)
    wait_for_text(page, "No schedule selected")
