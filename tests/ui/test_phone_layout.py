"""On a phone-sized window: the sidebar in a drawer, the detail pushed on top, back to the list."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import (
    BACK,
    OPEN_SIDEBAR,
    SCHEDULES_ENTRY,
    button,
    schedule_row,
    schedule_rows,
)
from tests.ui.artifacts import save_screenshot
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase

pytestmark = pytest.mark.ui

COPY_INSTRUCTION = "Copy instruction"


def test_phone_drawer_pushed_detail_and_back_navigation(
    phone: Page, database: ScheduleDatabase
) -> None:
    schedule = database.schedules_in(CURRENT_STATES)[0]
    row = schedule_row(phone, schedule.title)
    expect(row).to_be_visible()
    sidebar_entry = button(phone, SCHEDULES_ENTRY)
    expect(sidebar_entry).to_have_count(0)  # the sidebar is not beside the list

    button(phone, OPEN_SIDEBAR).click()
    expect(sidebar_entry).to_be_visible()
    save_screenshot(phone, "phone-drawer-open")
    sidebar_entry.click()
    expect(sidebar_entry).to_have_count(0)

    row.click()
    back = button(phone, BACK)
    expect(back).to_be_visible()
    expect(button(phone, COPY_INSTRUCTION)).to_be_visible()
    expect(schedule_rows(phone)).to_have_count(0)  # the list is under the pushed detail
    expect(phone).to_have_url(re.compile(rf"/schedules/{schedule.schedule_id}$"))
    save_screenshot(phone, "phone-detail-pushed")

    back.click()
    expect(row).to_be_visible()
    expect(back).to_have_count(0)
    expect(phone).to_have_url(re.compile(r"/$"))

    # The browser's own back (the system back gesture on the web) pops the detail too.
    row.click()
    expect(back).to_be_visible()
    phone.go_back()
    expect(row).to_be_visible()
    expect(back).to_have_count(0)
