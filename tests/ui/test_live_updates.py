"""A schedule fires while the app is open: its session arrives, its row moves on, no Refresh.

A DAILY schedule due some seconds from now is created through the server's own
service in a fresh data folder, then ``schedule-browser --web`` starts on it
(the embedded server and its worker, as a user runs them). The test only
watches: the row first says when the schedule fires today, then the firing's
session appears in the sidebar and the row's next firing moves to the next
day, both within seconds of the instant and without any click. The expected
texts are made by the app's own formatter in this machine's zone, which the
app reads too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import tzlocal
from playwright.sync_api import ViewportSize, expect

from devtools.browser.accessible_names import schedule_row, session_rows
from devtools.browser.served_app import ServedApp, served_app
from tests.ui.due_schedule import LEAD, create_daily_due
from tests.ui.page_opener import PageOpener
from viewmodels.formatting import next_firing_text

pytestmark = pytest.mark.ui

TITLE = "Stand-up notes, due in a moment"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


@dataclass(frozen=True)
class FiringSoon:
    app: ServedApp
    due: datetime


@pytest.fixture
def firing_soon(tmp_path: Path) -> Iterator[FiringSoon]:
    """The app on a data folder whose one schedule fires ``LEAD`` from now."""
    due = (datetime.now(UTC) + LEAD).replace(microsecond=0)
    data = tmp_path / "data"
    data.mkdir()
    create_daily_due(
        data / "schedules.sqlite3",
        due,
        title=TITLE,
        instruction="Collect yesterday's stand-up notes into one short summary.",
        idempotency_key="ui-live-updates",
    )
    with served_app(data, tmp_path / "logs", extra_arguments=["--no-demo"]) as app:
        yield FiringSoon(app, due)


def test_a_firing_shows_up_in_the_sidebar_and_the_row_without_a_refresh(
    firing_soon: FiringSoon, open_page: PageOpener
) -> None:
    zone = tzlocal.get_localzone()
    due = firing_soon.due
    page = open_page(firing_soon.app.url, size=DESKTOP)
    row = schedule_row(page, TITLE)
    before = next_firing_text(due, datetime.now(UTC), zone)
    expect(row).to_have_accessible_name(re.compile(re.escape(before)))
    assert datetime.now(UTC) < due, "the page opened after the firing; raise LEAD"
    expect(session_rows(page, TITLE)).to_have_count(0)

    seconds_left = (due - datetime.now(UTC)).total_seconds()
    expect(session_rows(page, TITLE)).to_have_count(1, timeout=(seconds_left + 10) * 1000)
    after = next_firing_text(due + timedelta(days=1), datetime.now(UTC), zone)
    expect(row).to_have_accessible_name(re.compile(re.escape(after)), timeout=10_000)
    assert before != after
