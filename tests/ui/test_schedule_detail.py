"""Opening a schedule shows its point read: every group, and the instruction in full.

The schedule opened is the demo's longest instruction (over 5,000 characters),
reached by scrolling the list and clicking its row, as a person would.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import ROW_NAME, WEBSITE_PICKER, button, schedule_row
from devtools.browser.flutter_page import (
    click_in_list,
    holds_text,
    scroll_reading,
)
from tests.ui.advanced_group import open_advanced
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase, StoredSchedule

pytestmark = pytest.mark.ui

COPY_INSTRUCTION = "Copy instruction"
VALUE_LABELS = (
    "Next firing",
    "Cadence",
    "Revision",
    "Max steps",
    "Run timeout",
    "Misfire grace",
    "Requested scopes",
    "Agent",
    "Policy profile",
    "Failure policy",
    "Created",
    "Updated",
)


def open_longest_instruction(page: Page, database: ScheduleDatabase) -> StoredSchedule:
    current = database.schedules_in(CURRENT_STATES)
    longest = max(current, key=lambda s: len(s.instruction))
    assert len(longest.instruction) > 5_000, "the demo needs an instruction over 5,000 characters"
    click_in_list(page, schedule_row(page, current[0].title), schedule_row(page, longest.title))
    expect(button(page, COPY_INSTRUCTION)).to_be_visible()
    return longest


def read_detail(page: Page, schedule: StoredSchedule) -> set[str]:
    """Scroll the detail from top to bottom, gathering every readable text."""

    def everything_read(texts: set[str]) -> bool:
        return all(holds_text(texts, line) for line in group_openings(schedule))

    open_advanced(page, button(page, COPY_INSTRUCTION))
    return scroll_reading(page, button(page, COPY_INSTRUCTION), everything_read)


def group_openings(schedule: StoredSchedule) -> list[str]:
    """Each group's heading with the line under it, as a reader meets them."""
    return [
        "Schedule",
        f"Instruction {schedule.instruction[:40]}",
        WEBSITE_PICKER,
        "Advanced",
        "How late a firing may still run after the server was down",
    ]


def test_opening_a_schedule_shows_every_group_and_the_complete_long_instruction(
    desktop: Page, database: ScheduleDatabase
) -> None:
    schedule = open_longest_instruction(desktop, database)

    texts = read_detail(desktop, schedule)

    assert [g for g in group_openings(schedule) if not holds_text(texts, g)] == []
    assert [v for v in VALUE_LABELS if not holds_text(texts, v)] == []
    outside_rows = {t for t in texts if not ROW_NAME.match(t)}
    assert holds_text(outside_rows, schedule.title), "the detail's title is not in the tree"
    assert holds_text(texts, f"Revision {schedule.current_revision}")
    assert holds_text(texts, schedule.instruction), "the instruction is not in the tree whole"
