"""Current holds ACTIVE and PAUSED schedules, Recent History the finished ones.

Each test scrolls its section to the end, collecting the rows it passes, and
compares them with the database: every schedule of the section is listed with
its state's word, and none from the other section. Current holds more
schedules than one page, so reaching its last row proves that scrolling loads
the later pages.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Locator, Page, expect

from devtools.browser.accessible_names import (
    CURRENT_TAB,
    HISTORY_TAB,
    ROW_NAME,
    button,
    schedule_row,
    schedule_rows,
)
from devtools.browser.flutter_page import UI_TIMEOUT_MS, box_centre, choose
from tests.ui.schedule_database import (
    CURRENT_STATES,
    HISTORY_STATES,
    ScheduleDatabase,
    StoredSchedule,
)

pytestmark = pytest.mark.ui

PAGE_SIZE = 20
"""The list's page size (``ScheduleListViewModel``'s default)."""
STATE_WORDS = {
    "ACTIVE": "Active",
    "PAUSED": "Paused",
    "COMPLETED": "Completed",
    "CANCELLED": "Cancelled",
}


def rows_in_tree(page: Page) -> dict[str, str]:
    """Title -> state word of every schedule row now in the tree."""
    found: dict[str, str] = {}
    for name in schedule_rows(page).all_inner_texts():
        match = ROW_NAME.match(" ".join(name.split()))
        assert match is not None, f"a schedule row is named {name!r}"
        found[match["title"]] = match["state"]
    return found


def scroll_collecting_rows(page: Page, area: Locator, last: Locator) -> dict[str, str]:
    """Wheel down the list until ``last`` is in the tree; every row seen on the way."""
    x, y = box_centre(area)
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    seen: dict[str, str] = {}
    while time.monotonic() < deadline:
        seen.update(rows_in_tree(page))
        try:
            expect(last).to_be_attached(timeout=300)
        except AssertionError:
            page.mouse.move(x, y)
            page.mouse.wheel(0, 450)
            continue
        seen.update(rows_in_tree(page))
        return seen
    raise AssertionError(f"the list's last row never appeared; rows seen: {sorted(seen)}")


def expected_rows(schedules: list[StoredSchedule]) -> dict[str, str]:
    return {s.title: STATE_WORDS[s.state] for s in schedules}


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_current_lists_every_active_and_paused_schedule_and_no_finished_one(
    screen: str, request: pytest.FixtureRequest, database: ScheduleDatabase
) -> None:
    page: Page = request.getfixturevalue(screen)
    current = database.schedules_in(CURRENT_STATES)
    assert len(current) > PAGE_SIZE, f"paging needs more than {PAGE_SIZE} current schedules"
    assert {s.state for s in current} == {"ACTIVE", "PAUSED"}
    first = schedule_row(page, current[0].title)
    expect(first).to_be_visible()
    expect(button(page, CURRENT_TAB)).to_be_visible()

    seen = scroll_collecting_rows(page, first, schedule_row(page, current[-1].title))

    assert seen == expected_rows(current)


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_recent_history_lists_every_completed_and_cancelled_schedule_and_no_current_one(
    screen: str, request: pytest.FixtureRequest, database: ScheduleDatabase
) -> None:
    page: Page = request.getfixturevalue(screen)
    finished = database.schedules_in(HISTORY_STATES)
    assert {s.state for s in finished} == {"COMPLETED", "CANCELLED"}
    expect(schedule_rows(page).first).to_be_visible()

    choose(button(page, HISTORY_TAB))
    first = schedule_row(page, finished[0].title)
    expect(first).to_be_visible()
    seen = scroll_collecting_rows(page, first, schedule_row(page, finished[-1].title))

    assert seen == expected_rows(finished)
