"""The focus comes back where it was, by keyboard alone, in Chromium at desktop size.

A detail closed by Escape, by its Close details button or by the browser's
Back gives the focus back to the row it was opened from (Enter on Close
details is the button's alone: the row is not opened again); Settings left by
Escape, and the Agenda left by Back or Escape, give it back to their sidebar
entry. Each
step reads the name of the node holding the focus, as a screen reader would.
The rows are one Tab stop (a roving focus): Tab reaches the first row.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import CLOSE_DETAILS, schedule_rows
from devtools.browser.keyboard_focus import focused_name, press_and_read, tab_to
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase
from viewmodels.agenda import AGENDA_ENTRY_LABEL, AGENDA_HEADING
from viewmodels.settings import SETTINGS_ENTRY_LABEL

pytestmark = pytest.mark.ui


def row_name(title: str) -> re.Pattern[str]:
    """A row's spoken name: its title first, then the state."""
    return re.compile(rf"^{re.escape(title)}\. ")


def move_on(page: Page, entry: str) -> None:
    """Two Tabs on from ``entry``: Flutter's own memory of the focus would go back one stop,
    to a control other than the entry."""
    for _ in range(2):
        before = press_and_read(page, "Tab")
        assert before != entry
    focus_is_on(page, re.compile(rf"^(?!{re.escape(entry)}$)."))


def focus_is_on(page: Page, name: re.Pattern[str] | str) -> None:
    """Wait (bounded) until the node holding the focus is named so."""
    pattern = name if isinstance(name, re.Pattern) else re.compile(rf"^{re.escape(name)}$")
    try:
        _wait_for_focus(page, pattern)
    except PlaywrightError as err:
        held = focused_name(page)
        raise AssertionError(
            f"the focus never reached {pattern.pattern!r} (it is on {held!r}): {err}"
        ) from err


def _wait_for_focus(page: Page, pattern: re.Pattern[str]) -> None:
    page.wait_for_function(
        """(pattern) => {
            const node = document.activeElement;
            const name = node && (node.getAttribute('aria-label') || node.textContent || '');
            return new RegExp(pattern).test(name.split(/\\s+/).filter(Boolean).join(' '));
        }""",
        arg=pattern.pattern,
    )


def test_closing_a_detail_by_escape_close_or_back_returns_the_focus_to_its_row(
    desktop: Page, database: ScheduleDatabase
) -> None:
    first = database.schedules_in(CURRENT_STATES)[0]
    expect(schedule_rows(desktop).first).to_be_visible()
    assert tab_to_row(desktop, first.title), "Tab never reached the list's rows"

    desktop.keyboard.press("Enter")
    expect(desktop).to_have_url(re.compile(rf"/schedules/{first.schedule_id}$"))
    desktop.keyboard.press("Escape")
    expect(desktop).to_have_url(re.compile(r"/$"))
    focus_is_on(desktop, row_name(first.title))

    desktop.keyboard.press("Enter")
    expect(desktop).to_have_url(re.compile(rf"/schedules/{first.schedule_id}$"))
    tab_to(desktop, CLOSE_DETAILS)
    desktop.keyboard.press("Enter")  # the button's Enter, not the list's: the row stays closed
    expect(desktop).to_have_url(re.compile(r"/$"))
    focus_is_on(desktop, row_name(first.title))

    desktop.keyboard.press("Enter")
    expect(desktop).to_have_url(re.compile(rf"/schedules/{first.schedule_id}$"))
    desktop.go_back()
    expect(desktop).to_have_url(re.compile(r"/$"))
    focus_is_on(desktop, row_name(first.title))


def test_leaving_settings_or_the_agenda_returns_the_focus_to_its_entry(
    desktop: Page,
) -> None:
    expect(schedule_rows(desktop).first).to_be_visible()
    tab_to(desktop, SETTINGS_ENTRY_LABEL)
    desktop.keyboard.press("Space")
    expect(desktop).to_have_url(re.compile(r"/settings$"))
    expect(desktop.get_by_role("radio").first).to_be_visible()
    move_on(desktop, SETTINGS_ENTRY_LABEL)
    desktop.keyboard.press("Escape")
    expect(desktop).to_have_url(re.compile(r"/$"))
    focus_is_on(desktop, SETTINGS_ENTRY_LABEL)

    tab_to(desktop, AGENDA_ENTRY_LABEL, key="Shift+Tab")
    desktop.keyboard.press("Space")
    expect(desktop).to_have_url(re.compile(r"/agenda$"))
    expect(desktop.get_by_role("heading", name=AGENDA_HEADING)).to_be_visible()
    move_on(desktop, AGENDA_ENTRY_LABEL)
    desktop.go_back()
    expect(desktop).to_have_url(re.compile(r"/$"))
    focus_is_on(desktop, AGENDA_ENTRY_LABEL)

    desktop.keyboard.press("Space")
    expect(desktop).to_have_url(re.compile(r"/agenda$"))
    move_on(desktop, AGENDA_ENTRY_LABEL)
    desktop.keyboard.press("Escape")
    expect(desktop).to_have_url(re.compile(r"/$"))
    focus_is_on(desktop, AGENDA_ENTRY_LABEL)


def tab_to_row(page: Page, title: str) -> bool:
    """Tab from where the focus is until the row titled ``title`` holds it."""
    for _ in range(40):
        reached = press_and_read(page, "Tab") or ""
        if row_name(title).match(reached):
            return True
    return False
