"""The sidebar's Schedules, Agenda and Settings entries show keyboard focus as a ring, in Chromium.

At desktop size, in the light and the dark scheme: Tab alone brings each entry
the focus (its name read from the tree), and the ring then drawn at the
entry's edge stands at least 3:1 against what was painted there before (the
sidebar, or the chosen entry's fill), as WCAG asks of a focus indicator and
as the list's rows and the sidebar's groups already do.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import FloatRect, expect

from devtools.browser.accessible_names import SCHEDULES_ENTRY, button
from devtools.browser.flutter_page import next_frames
from devtools.browser.keyboard_focus import tab_to
from devtools.browser.served_app import ServedApp
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE
from tests.ui.page_opener import ColorScheme, PageOpener
from tests.ui.screen_pixels import Screenshot, decode_png
from tests.views.test_look import FOCUS_RING_MINIMUM, contrast
from viewmodels.agenda import AGENDA_ENTRY_LABEL
from viewmodels.settings import SETTINGS_ENTRY_LABEL

pytestmark = pytest.mark.ui

ENTRIES = (SCHEDULES_ENTRY, AGENDA_ENTRY_LABEL, SETTINGS_ENTRY_LABEL)
RING_WAIT_SECONDS = 10
"""The canvas can trail the tree by a few frames: how long to look for the ring."""


def ring_contrast(before: Screenshot, after: Screenshot, box: FloatRect) -> float:
    """The best contrast, along the middle of the entry's top edge, of now against before."""
    middle = int(box["x"] + box["width"] / 2)
    behind = before.rgb(middle, int(box["y"]) + 1)
    edge = range(int(box["y"]) - 2, int(box["y"]) + 6)
    return max(contrast(_hex(after.rgb(middle, y)), _hex(behind)) for y in edge)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_focused_sidebar_entry_shows_a_ring_of_at_least_3_to_1(
    scheme: ColorScheme, open_page: PageOpener, served: ServedApp
) -> None:
    page = open_page(served.url, size=DESKTOP_SIZE, color_scheme=scheme)
    for label in ENTRIES:
        expect(button(page, label)).to_be_visible()
    next_frames(page, 3)
    before = decode_png(page.screenshot())
    for label in ENTRIES:
        tab_to(page, label)
        box = button(page, label).bounding_box()
        assert box is not None
        deadline = time.monotonic() + RING_WAIT_SECONDS
        while True:
            best = ring_contrast(before, decode_png(page.screenshot()), box)
            if best >= FOCUS_RING_MINIMUM or time.monotonic() > deadline:
                break
            next_frames(page, 3)
        save_screenshot(page, f"sidebar-entry-focus-ring-{label}-{scheme}")
        assert best >= FOCUS_RING_MINIMUM, (
            f"{label!r} in the {scheme} scheme: its focus is drawn at {best:.2f}:1 at most"
        )


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)
