"""Where each control of the app is found: its role and accessible name, in one place.

The names are the app's own (the view models' words, listed in the table of
docs/ARCHITECTURE.md), so a test that finds a control here also proves a
screen reader can name it. A renamed control is a one-line change in this module.

- A schedule row is one button named by the row's ``accessibility_label``: the
  title, then the state (with the pause reason), the cadence, the next firing
  and the website badge, joined by ". ".
- A sidebar group is a button "<label>, <N> sessions, expanded|collapsed"; a
  session row a button "<title>, <age>".
- A calendar day is a button named by its long date ("Sunday, 14 March 2027"),
  then ", today" and the month it lies outside of when so, then ": " and its
  marks in words; each of the month's notes is a text node holding its sentence
  alone (the card merges the calendar's other texts into its own name).
"""

from __future__ import annotations

import re
from datetime import date

from babel import Locale
from playwright.sync_api import Locator, Page

from viewmodels.formatting.clock_text import long_date_text
from viewmodels.language import DEFAULT_LOCALE

CURRENT_STATES = ("Active", "Paused")
HISTORY_STATES = ("Completed", "Cancelled")
CURRENT_TAB = "Current"
HISTORY_TAB = "Recent History"
WEBSITE_PICKER = "Website access"
OPEN_SIDEBAR = "Open sidebar"
BACK = "Back"
CLOSE_DETAILS = "Close details"
SCHEDULES_ENTRY = "Schedules"
TOKEN_FIELD = "Token"
REMEMBER = "Remember on this device"
SIGN_IN = "Sign in"
SIGN_OUT = "Sign out"
PREVIOUS_MONTH = "Previous month"
NEXT_MONTH = "Next month"

_ANY_STATE = "|".join((*CURRENT_STATES, *HISTORY_STATES))
ROW_NAME = re.compile(rf"^(?P<title>.+?)\. (?P<state>{_ANY_STATE})\b")
"""A schedule row's name, parsed in Python; ``state`` is the first word after the title."""
ROW_PATTERN = re.compile(rf"^.+?\. (?:{_ANY_STATE})\b")
"""The same without named groups: Playwright hands the pattern to JavaScript."""
NEXT_ON_12_HOUR_CLOCK = re.compile(r"Next: [^.]*\b\d{1,2}:\d{2}(?::\d{2})? [AP]M\b")
"""A row's next firing as en-US writes it ("Next: tomorrow at 9:00 AM")."""


def schedule_row(page: Page, title: str) -> Locator:
    """The list row of the schedule titled ``title`` (not one whose title merely begins so)."""
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(title)}\. (?:{_ANY_STATE})"))


def schedule_rows(page: Page) -> Locator:
    """Every schedule row now in the accessibility tree (lazy lists hold the visible ones)."""
    return page.get_by_role("button", name=ROW_PATTERN)


def button(page: Page, name: str) -> Locator:
    """The button named exactly ``name`` (a row whose sentence contains it does not count)."""
    return page.get_by_role("button", name=name, exact=True)


def website_picker(page: Page) -> Locator:
    """The detail's picker; read only, its name goes on with the reason it can't change."""
    return page.get_by_role("button", name=re.compile(rf"^{WEBSITE_PICKER}(?: |$)"))


def sidebar_group(page: Page, label: str, *, expanded: bool | None = None) -> Locator:
    state = {None: "(?:expanded|collapsed)", True: "expanded", False: "collapsed"}[expanded]
    return page.get_by_role(
        "button", name=re.compile(rf"^{re.escape(label)}, \d+ sessions?, {state}")
    )


def session_rows(page: Page, title: str) -> Locator:
    """Sidebar rows of sessions titled ``title`` (groups, which count sessions, excluded)."""
    return page.get_by_role(
        "button", name=re.compile(rf"^{re.escape(title)}, (?!\d+ sessions?, )\S")
    )


def token_field(page: Page) -> Locator:
    """The hosted web view's sign-in field (obscured: a password textbox)."""
    return page.get_by_role("textbox", name=TOKEN_FIELD)


def remember_choice(page: Page) -> Locator:
    return page.get_by_role("checkbox", name=REMEMBER)


def calendar_day(
    page: Page, day: date, says: re.Pattern[str] | None = None, *, locale: Locale = DEFAULT_LOCALE
) -> Locator:
    """The calendar's cell for ``day`` (named in ``locale``); with ``says``, only while its
    marks say that."""
    named = long_date_text(day, locale)
    marks = "" if says is None else f".*{says.pattern}"
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(named)}(?:,|:|$){marks}"))


def calendar_note(page: Page, sentence: re.Pattern[str]) -> Locator:
    """One of the month's notes (an adjusted firing, a date that never fires), by its sentence."""
    return page.get_by_text(sentence)
