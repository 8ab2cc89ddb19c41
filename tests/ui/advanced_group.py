"""The detail's Advanced group starts folded at every size: a test that reads its fields opens it.

Its heading is a button named "Advanced"; the group's fields (the revision,
the limits, the misfire grace) enter the accessibility tree once it is open.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from devtools.browser.accessible_names import button
from devtools.browser.flutter_page import box_centre, scroll_into_view, scroll_until_attached
from viewmodels.detail.explanations import ADVANCED_HEADING, explanation

MISFIRE_GRACE_LINE = explanation("Misfire grace")


def open_advanced(page: Page, area: Locator) -> None:
    """Scroll the detail under ``area`` to the folded Advanced group, open it, and scroll
    back until ``area`` is on screen again (callers read the detail from there)."""
    point = box_centre(area)
    heading = button(page, ADVANCED_HEADING)
    scroll_until_attached(page, point, heading)
    scroll_into_view(page, point, heading)
    heading.click()
    expect(page.get_by_text(str(MISFIRE_GRACE_LINE))).to_be_attached()
    scroll_until_attached(page, point, area, step_px=-500)
    scroll_into_view(page, point, area, found_going_down=False)
