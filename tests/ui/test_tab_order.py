"""Tab alone walks the schedules screen: no invisible stop, the rows one stop, in Chromium.

At desktop size, from the page's start (Flutter's view focused:
``focus_the_view``), Tab is pressed until a stop comes round again, and each
stop's name is read from the tree as a screen reader reads it. The walk is
the screen's focus table (saved as ``tests/artifacts/ui/tab-order-desktop.txt``)
and proves:

- every stop has a name: no stop whose focus nothing draws or says;
- the list's rows are one stop (a roving focus: the first row, ↓/↑ inside);
- the list's header reads in its own order (Current, Recent History, Refresh,
  Needs attention, Soonest first, Search schedules) before that row;
- the sidebar's entries read Schedules, Agenda, Settings before its groups.

Flutter orders Tab by reading order over the whole window, row band by row
band, so the sidebar's stops interleave with the list's header at the same
height; Flet 1.0.5 has no traversal group to keep a pane's stops together.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from devtools.browser.accessible_names import (
    CURRENT_TAB,
    HISTORY_TAB,
    ROW_PATTERN,
    SCHEDULES_ENTRY,
    schedule_rows,
)
from devtools.browser.keyboard_focus import TAB_STOPS, focus_the_view, press_and_read
from tests.ui.artifacts import ARTIFACTS
from viewmodels.agenda import AGENDA_ENTRY_LABEL
from viewmodels.schedule_list.snapshot import (
    ATTENTION_LABEL,
    REFRESH_LABEL,
    SEARCH_LABEL,
    SOONEST_FIRST_LABEL,
)
from viewmodels.settings import SETTINGS_ENTRY_LABEL

pytestmark = pytest.mark.ui

GROUP = re.compile(r", \d+ sessions?, (?:expanded|collapsed)")
"""A sidebar group's name, after its label."""


def walk(page: Page) -> list[str | None]:
    """Tab from the page's start until a named stop comes round again (or ``TAB_STOPS``)."""
    focus_the_view(page)
    stops: list[str | None] = []
    for _ in range(TAB_STOPS):
        reached = press_and_read(page, "Tab")
        if reached is not None and reached in stops:
            break
        stops.append(reached)
    return stops


def first_index(stops: list[str | None], wanted: re.Pattern[str]) -> int:
    found = [i for i, stop in enumerate(stops) if stop is not None and wanted.search(stop)]
    assert found, f"no stop named like {wanted.pattern!r} in {stops}"
    return found[0]


def named(text: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(text)}(?: \(\d+\))?$")


def test_tab_walks_the_schedules_screen_with_named_stops_and_the_rows_as_one(
    desktop: Page,
) -> None:
    expect(schedule_rows(desktop).first).to_be_visible()
    stops = walk(desktop)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "tab-order-desktop.txt").write_text(
        "".join(f"{n}\t{stop}\n" for n, stop in enumerate(stops, start=1))
    )

    assert None not in stops, f"a stop nobody can name: {stops}"
    rows = [stop for stop in stops if stop is not None and ROW_PATTERN.match(stop)]
    assert len(rows) == 1, f"the rows are {len(rows)} stops, not one: {rows}"

    header = [CURRENT_TAB, HISTORY_TAB, REFRESH_LABEL, ATTENTION_LABEL, SOONEST_FIRST_LABEL]
    places = [first_index(stops, named(name)) for name in [*header, SEARCH_LABEL]]
    places.append(first_index(stops, ROW_PATTERN))
    assert places == sorted(places), f"the list's header is out of order: {stops}"

    entries = [SCHEDULES_ENTRY, AGENDA_ENTRY_LABEL, SETTINGS_ENTRY_LABEL]
    places = [first_index(stops, named(name)) for name in entries]
    places.append(first_index(stops, GROUP))
    assert places == sorted(places), f"the sidebar is out of order: {stops}"
