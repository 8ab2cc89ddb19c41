"""The keyboard on a desktop: arrows select, Enter opens, Escape closes, Ctrl+R reloads.

After Enter the detail's heading holds the focus, and ↓ moves the focus ring
(``aria-current``) to the next row while the opened row keeps its own mark
(its name ends "Shown in the details") and the detail still shows it; Escape
then brings the ring back to the opened row.

Flutter's web client only hears keys while its canvas has focus, so the test
first clicks an empty part of the page (the detail pane, with nothing open),
as a person would before typing. The selected row is the one the tree marks
``aria-current`` (the row's ``Semantics(selected=True)``).

Ctrl+R is observed, not assumed: the test renames a schedule in the served
database behind the app's back, and only a reload can bring the new title
onto the screen. The old title is restored before the test ends.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from devtools.browser.accessible_names import CLOSE_DETAILS, schedule_row, schedule_rows
from devtools.browser.flutter_page import holds_text, scroll_reading
from tests.ui.advanced_group import open_advanced
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase, StoredSchedule
from viewmodels.schedule_list.snapshot import OPENED_ROW_TEXT

pytestmark = pytest.mark.ui

EMPTY_DETAIL_PANE = (1100, 700)
"""A point in the wide layout's detail pane, empty while no schedule is open."""


def selected_row(page: Page) -> Locator:
    return schedule_rows(page).and_(page.locator("[aria-current='true']"))


def starts_with_title(schedule: StoredSchedule) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(schedule.title)}\. ")


@contextmanager
def renamed(database: Path, schedule: StoredSchedule, title: str) -> Iterator[None]:
    """Give the schedule's current revision another title in the file, then put it back."""

    def write(new_title: str) -> None:
        with closing(sqlite3.connect(database)) as connection, connection:
            key = schedule.schedule_id.hex
            (definition_text,) = connection.execute(
                "SELECT definition FROM schedule_revisions WHERE schedule_id = ? AND revision = ?",
                (key, schedule.current_revision),
            ).fetchone()
            definition = json.loads(definition_text)
            definition["title"] = new_title
            updated = connection.execute(
                "UPDATE schedule_revisions SET definition = ? "
                "WHERE schedule_id = ? AND revision = ?",
                (json.dumps(definition), key, schedule.current_revision),
            )
            assert updated.rowcount == 1, f"no revision row for {schedule.title!r}"

    write(title)
    try:
        yield
    finally:
        write(schedule.title)


def test_arrows_select_enter_opens_escape_closes_and_ctrl_r_reloads(
    desktop: Page, database: ScheduleDatabase
) -> None:
    first, second = database.schedules_in(CURRENT_STATES)[:2]
    expect(schedule_row(desktop, first.title)).to_be_visible()
    expect(selected_row(desktop)).to_have_count(0)
    desktop.mouse.click(*EMPTY_DETAIL_PANE)

    desktop.keyboard.press("ArrowDown")
    expect(selected_row(desktop)).to_have_accessible_name(starts_with_title(first))
    desktop.keyboard.press("ArrowDown")
    expect(selected_row(desktop)).to_have_accessible_name(starts_with_title(second))
    expect(selected_row(desktop)).to_have_count(1)

    desktop.keyboard.press("Enter")
    expect(desktop).to_have_url(re.compile(rf"/schedules/{second.schedule_id}$"))
    close = desktop.get_by_role("button", name=CLOSE_DETAILS, exact=True)
    expect(close).to_be_visible()
    # The revision is one of the Advanced fields, at the detail's foot (folded at first).
    open_advanced(desktop, close)
    revision = f"Revision {second.current_revision}"
    read = scroll_reading(desktop, close, lambda texts: holds_text(texts, revision))
    assert holds_text(read, revision)

    desktop.keyboard.press("Escape")
    expect(close).to_have_count(0)
    expect(desktop).to_have_url(re.compile(r"/$"))

    desktop.evaluate("() => { window.beforeCtrlR = true; }")
    new_title = f"{first.title} (renamed while open)"
    with renamed(database.path, first, new_title):
        expect(schedule_row(desktop, first.title)).to_be_visible()
        desktop.keyboard.press("Control+r")
        expect(schedule_row(desktop, new_title)).to_be_visible()
    assert desktop.evaluate("() => window.beforeCtrlR === true"), (
        "Ctrl+R reloaded the browser page instead of the list"
    )


def test_after_enter_the_arrow_moves_the_ring_the_opened_mark_stays_and_escape_returns_to_it(
    desktop: Page, database: ScheduleDatabase
) -> None:
    first, second = database.schedules_in(CURRENT_STATES)[:2]
    expect(schedule_row(desktop, first.title)).to_be_visible()
    desktop.mouse.click(*EMPTY_DETAIL_PANE)
    desktop.keyboard.press("ArrowDown")
    expect(selected_row(desktop)).to_have_accessible_name(starts_with_title(first))

    desktop.keyboard.press("Enter")
    expect(desktop).to_have_url(re.compile(rf"/schedules/{first.schedule_id}$"))
    heading = desktop.get_by_role("heading", name=first.title, exact=True)
    expect(desktop.locator("flt-semantics:focus-within").filter(has=heading).last).to_be_attached()
    desktop.keyboard.press("ArrowDown")

    expect(selected_row(desktop)).to_have_accessible_name(starts_with_title(second))
    opened = schedule_rows(desktop).and_(
        desktop.get_by_role("button", name=re.compile(rf"\. {re.escape(OPENED_ROW_TEXT)}$"))
    )
    expect(opened).to_have_count(1)
    expect(opened).to_have_accessible_name(starts_with_title(first))
    expect(desktop).to_have_url(re.compile(rf"/schedules/{first.schedule_id}$"))

    desktop.keyboard.press("Escape")  # back to the list, at the row that was opened
    expect(desktop).to_have_url(re.compile(r"/$"))
    expect(opened).to_have_count(0)
    expect(selected_row(desktop)).to_have_accessible_name(starts_with_title(first))
