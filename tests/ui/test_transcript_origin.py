"""A scheduled session's transcript names its schedule, with Open schedule; the detail counts
the schedule's sessions, with Show in the sidebar.

The session is the database's newest session of a schedule with two or more
sessions; the header's title is that schedule's own, read from the database.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import button, schedule_rows, sidebar_group
from devtools.browser.flutter_page import open_app, wait_for_text
from devtools.browser.served_app import ServedApp
from tests.ui.artifacts import save_screenshot
from tests.ui.schedule_database import ScheduleDatabase

pytestmark = pytest.mark.ui

OPEN_SCHEDULE = "Open schedule"
SHOW_IN_SIDEBAR = "Show in the sidebar"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_scheduled_transcript_names_its_schedule_and_open_schedule_leads_to_it(
    size: str, request: pytest.FixtureRequest, database: ScheduleDatabase, served: ServedApp
) -> None:
    page: Page = request.getfixturevalue(size)
    groups = database.scheduled_groups()
    assert groups, "the demo needs a schedule with two or more sessions"
    schedule_id, sessions = next(iter(groups.items()))
    schedule = database.schedule(schedule_id)
    newest = sessions[0]

    # The first page's session must be up before the page leaves for the transcript:
    # one that goes while its session starts makes Flet log a traceback.
    expect(schedule_rows(page).first).to_be_attached()
    open_app(page, f"{served.url.rstrip('/')}/sessions/{newest.session_id}")
    wait_for_text(page, f"Started by the schedule \u201c{schedule.title}\u201d")
    wait_for_text(page, "Firing of ")
    save_screenshot(page, f"transcript-started-by-{size}")

    button(page, OPEN_SCHEDULE).click()
    expect(page).to_have_url(re.compile(rf"/schedules/{schedule_id}$"))
    wait_for_text(page, f"{len(sessions)} sessions")
    save_screenshot(page, f"detail-sessions-count-{size}")

    # On a phone the sheet comes back with its drawer open on the group.
    button(page, SHOW_IN_SIDEBAR).click()
    label = sessions[0].title
    expect(sidebar_group(page, label, expanded=True)).to_be_visible()
    save_screenshot(page, f"sidebar-revealed-{size}")
