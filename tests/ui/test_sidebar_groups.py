"""A schedule's sessions form one group in the sidebar; its expansion is device state.

The group to use is the database's newest schedule with two or more sessions;
its label is the title of its most recent session. Expanding it, reloading the
page (same browser profile, so the same device storage) and finding it still
expanded proves the state is remembered; its first session then opens its
transcript, whose first visible message (its first line: answers render as
Markdown) is read back from the database.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import session_rows, sidebar_group
from devtools.browser.flutter_page import enable_semantics, wait_for_text
from tests.ui.artifacts import save_screenshot
from tests.ui.schedule_database import ScheduleDatabase

pytestmark = pytest.mark.ui


def test_a_scheduled_group_expands_stays_expanded_after_reload_and_opens_its_sessions(
    desktop: Page, database: ScheduleDatabase
) -> None:
    groups = database.scheduled_groups()
    assert groups, "the demo needs a schedule with two or more sessions"
    sessions = next(iter(groups.values()))
    label = sessions[0].title
    collapsed = sidebar_group(desktop, label, expanded=False)
    expect(collapsed).to_be_visible()
    expect(collapsed).to_have_accessible_name(re.compile(rf", {len(sessions)} sessions, "))
    rows = session_rows(desktop, label)
    rows_before = rows.count()

    collapsed.click()
    expanded = sidebar_group(desktop, label, expanded=True)
    expect(expanded).to_be_visible()
    expect(rows).to_have_count(rows_before + len(sessions))

    desktop.reload()
    enable_semantics(desktop)
    expect(expanded).to_be_visible()
    expect(rows).to_have_count(rows_before + len(sessions))
    save_screenshot(desktop, "sidebar-group-expanded-after-reload")

    rows.first.click()
    newest = sessions[0]
    expect(desktop).to_have_url(re.compile(rf"/sessions/{newest.session_id}$"))
    messages = database.visible_messages(newest.session_id)
    assert messages, "the newest session of the group has no visible message"
    # Assistant messages render as Markdown: their first line reads as written.
    wait_for_text(desktop, messages[0][1].splitlines()[0])
