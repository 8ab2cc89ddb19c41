"""Where each control of the app is found: its role and accessible name, in one place.

The names are the app's own (``views/`` and the view models' words), so a test
that finds a control here also proves a screen reader can name it. A renamed
control is a one-line change in this module.

- A schedule row is one button named by its ``accessibility_label``: the title,
  then the state (with the pause reason), the cadence, the next firing and the
  website badge, joined by ". ".
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page

STATE_WORDS = ("Active", "Paused", "Completed", "Cancelled")
CURRENT_TAB = "Current"
HISTORY_TAB = "Recent History"
WEBSITE_PICKER = "Website access"
REFRESH = "Refresh"
BACK = "Back"

_ANY_STATE = "|".join(STATE_WORDS)


def schedule_row(page: Page, title: str) -> Locator:
    """The list row of the schedule titled ``title`` (and no other whose title it begins)."""
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(title)}\. (?:{_ANY_STATE})"))


def schedule_rows(page: Page) -> Locator:
    """Every schedule row now in the accessibility tree."""
    return page.get_by_role("button", name=re.compile(rf"^.+?\. (?:{_ANY_STATE})\b"))


def section_tab(page: Page, label: str) -> Locator:
    return page.get_by_role("button", name=label, exact=True)
