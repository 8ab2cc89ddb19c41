"""Firings that stop, in the browser: the scheduler banner and an overdue row, at both sizes.

Against a real ``schedule-server --no-worker`` over SQLite (so nothing fires)
whose last heartbeat, written by a scheduler that has since died, is 25
minutes old, and the app started with ``--server``. A schedule created 13
minutes ago came due 12 minutes ago undecided: the server marks it overdue.
Every screen says under its app bar that schedules are not firing and when
the scheduler last ran; the row says "Overdue: due at …" instead of "due
now", and its detail (beside the list, or pushed on a phone under the same
banner) says what that means.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from devtools.api_bodies import definition_json
from devtools.browser.accessible_names import BACK, button, schedule_row
from devtools.browser.flutter_page import (
    UI_TIMEOUT_MS,
    accessible_texts,
    next_frames,
    wait_for_text,
)
from devtools.browser.schedule_server import ScheduleServer, remote_app, schedule_server
from server.control.service import ScheduleService
from server.principals_file import load_principals
from server.storage.records import Heartbeat
from server.storage.sql.store import SqlStore
from server.worker.heartbeat import this_replica
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener

pytestmark = pytest.mark.ui

TITLE = "Renew the parking permit"
STOPPED = re.compile(
    r"Schedules are not firing: the server's scheduler last ran at"
    r" \d\d:\d\d(?: yesterday)? \(2[5-9] min ago\)\."
)
OVERDUE = re.compile(r"Overdue: due at \d\d:\d\d(?: yesterday)? \(1[2-9] min ago\)")
"""Minutes ago: in the first half hour after midnight, the day is named too."""
MEANING = "The server has not fired it yet. Firings resume when its scheduler runs;"


def stalled(database: Path, principals: Path, token: str) -> None:
    """A heartbeat 25 minutes old; a schedule created a minute before it came due, 12 min ago."""
    now = datetime.now(UTC)
    due = (now - timedelta(minutes=12)).replace(second=0, microsecond=0)
    store = SqlStore.open(f"sqlite:///{database}")
    try:
        store.replicas.tick(
            Heartbeat(this_replica(now - timedelta(hours=2)), now - timedelta(minutes=25))
        )
        directory = load_principals(principals)
        principal = directory.authenticate(token)
        assert principal is not None
        service = ScheduleService(store, lambda: due - timedelta(minutes=1), identity=directory)
        at = due.strftime("%Y-%m-%dT%H:%M:%SZ")
        definition = definition_json(
            title=TITLE, misfire_grace_seconds=3600, cadence={"kind": "ONCE", "at": at}
        )
        service.create(principal, definition, "scheduler-banner-ui")
    finally:
        store.close()


@pytest.fixture(scope="module")
def no_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScheduleServer]:
    with schedule_server(
        tmp_path_factory.mktemp("no-worker-server"), options=("--no-worker",)
    ) as server:
        stalled(server.database, server.principals, server.token)
        yield server


@pytest.fixture(scope="module")
def stalled_url(
    no_worker: ScheduleServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with remote_app(no_worker, tmp_path_factory.mktemp("no-worker-app")) as url:
        yield url


def readable(page: Page, pattern: re.Pattern[str]) -> None:
    """Waits until some name or text in the accessibility tree matches ``pattern``."""
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while True:
        seen = accessible_texts(page)
        if any(pattern.search(text) for text in seen):
            return
        assert time.monotonic() < deadline, f"never readable: {pattern.pattern} in {seen}"
        next_frames(page, 6)


@pytest.mark.parametrize("size", [DESKTOP_SIZE, PHONE_SIZE], ids=["desktop", "phone"])
def test_a_stopped_scheduler_shows_the_banner_and_the_overdue_row_on_every_screen(
    stalled_url: str, open_page: PageOpener, size: ViewportSize
) -> None:
    phone = size == PHONE_SIZE
    page = open_page(stalled_url, size=size)
    row = schedule_row(page, TITLE)
    expect(row).to_be_visible()
    expect(row).to_have_accessible_name(OVERDUE)
    readable(page, STOPPED)
    save_screenshot(page, f"scheduler-stopped-{'phone' if phone else 'desktop'}")

    row.click()
    wait_for_text(page, MEANING)
    readable(page, OVERDUE)
    readable(page, STOPPED)
    save_screenshot(page, f"scheduler-overdue-detail-{'phone' if phone else 'desktop'}")
    if phone:
        button(page, BACK).click()
        expect(row).to_be_visible()
