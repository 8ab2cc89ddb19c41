"""The Agenda destination in Chromium against the embedded server with the demo data.

Reached from the sidebar by keyboard on a wide window and from the drawer on a
phone; a row opens its schedule's detail and Back (Escape, the app bar's Back)
returns to the agenda on the same span. Screenshots of Today and Month at
both sizes, light and dark, for the README.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from devtools.browser.accessible_names import BACK, CLOSE_DETAILS, OPEN_SIDEBAR, button
from devtools.browser.served_app import ServedApp
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import ColorScheme, PageOpener
from viewmodels.agenda import AGENDA_ENTRY_LABEL, AGENDA_HEADING, AgendaSpan

pytestmark = pytest.mark.ui

AGENDA_ROW = re.compile(r"^\d\d:\d\d, ")
"""An agenda row's name begins with its time on the person's clock."""
BUSY_HOURS = re.compile(r"^Busy hours (?:Quiet hours|Every hour)")
"""The strip is one group named by its heading and its quiet slots; each cell says its count."""
BUSY_DAYS = re.compile(r"^Busy days (?:Days with no firing|Every day)")
COUNT = re.compile(r"\d\d?(?::00)?\S*: (?:no firing \(quiet\)|\d+ firings?)")


def agenda_rows(page: Page) -> Locator:
    return page.get_by_role("button", name=AGENDA_ROW)


def agenda_heading(page: Page) -> Locator:
    return page.get_by_role("heading", name=AGENDA_HEADING, exact=True)


def tab_to(page: Page, target: Locator, most: int = 16) -> None:
    """Press Tab until ``target`` holds the focus (keyboard only); each press is given the
    frames Flutter takes to move the focus before the next one."""
    for _ in range(most):
        page.keyboard.press("Tab")
        try:
            expect(target).to_be_focused(timeout=1_000)
        except AssertionError:
            continue
        return
    raise AssertionError("Tab never reached the target")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_agenda_is_reached_by_keyboard_and_a_row_opens_its_detail_and_escape_returns(
    scheme: ColorScheme, open_page: PageOpener, served: ServedApp
) -> None:
    page = open_page(served.url, size=DESKTOP_SIZE, color_scheme=scheme)
    entry = button(page, AGENDA_ENTRY_LABEL)
    expect(entry).to_be_visible()
    tab_to(page, entry)
    page.keyboard.press("Enter")
    expect(agenda_heading(page)).to_be_visible()
    expect(page).to_have_url(re.compile(r"/agenda$"))
    expect(page.get_by_role("group", name=BUSY_HOURS)).to_contain_text(COUNT)
    save_screenshot(page, f"agenda-today-desktop-{scheme}")

    button(page, AgendaSpan.WEEK.label).click()
    first = agenda_rows(page).first
    expect(first).to_be_visible()
    first.click()
    expect(button(page, CLOSE_DETAILS)).to_be_visible()
    expect(page).to_have_url(re.compile(r"/agenda/schedules/[0-9a-f-]{36}$"))
    expect(agenda_heading(page)).to_be_visible()  # the agenda stays beside the detail

    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(r"/agenda$"))
    expect(button(page, CLOSE_DETAILS)).to_have_count(0)
    expect(agenda_rows(page).first).to_be_visible()

    button(page, AgendaSpan.MONTH.label).click()
    expect(page.get_by_role("group", name=BUSY_DAYS)).to_contain_text(COUNT)
    expect(agenda_rows(page).first).to_be_visible()
    save_screenshot(page, f"agenda-month-desktop-{scheme}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_agenda_is_in_the_drawer_and_back_returns_to_the_same_span(
    scheme: ColorScheme, open_page: PageOpener, served: ServedApp
) -> None:
    page = open_page(served.url, size=PHONE_SIZE, color_scheme=scheme)
    button(page, OPEN_SIDEBAR).click()
    entry = button(page, AGENDA_ENTRY_LABEL)
    entry.click()
    expect(entry).to_have_count(0)  # the drawer closed: a tap reaches the agenda, not its scrim
    expect(
        agenda_rows(page).first.or_(page.get_by_text(re.compile("^Nothing fires")))
    ).to_be_visible()
    expect(page).to_have_url(re.compile(r"/agenda$"))
    save_screenshot(page, f"agenda-today-phone-{scheme}")

    button(page, AgendaSpan.MONTH.label).click()
    first = agenda_rows(page).first
    expect(first).to_be_visible()
    save_screenshot(page, f"agenda-month-phone-{scheme}")
    first.click()
    back = button(page, BACK)
    expect(back).to_be_visible()
    expect(agenda_rows(page)).to_have_count(0)  # the agenda is under the pushed detail

    back.click()
    expect(first).to_be_visible()
    expect(page).to_have_url(re.compile(r"/agenda$"))
    selected = page.get_by_role("button", name=AgendaSpan.MONTH.label, exact=True)
    expect(selected).to_have_attribute("aria-current", "true")
