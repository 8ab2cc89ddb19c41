"""Search says why a row matched, and a sidebar row's keyboard focus is a ring, in Chromium.

At desktop and phone size over the demo data: a row found by a word looks
different from the same row unsearched (its matched words are drawn
highlighted; the spoken name stays the same), and a search that finds nothing
offers "Search Recent History" right under its sentence, not at the pane's
foot. On a desktop, Tab onto a sidebar group draws a ring whose colour stands
at least 3:1 against the sidebar behind it (the list's ring's rule).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import FloatRect, Locator, Page, expect

from devtools.browser.accessible_names import button, schedule_row, sidebar_group
from devtools.browser.flutter_page import box_of, next_frames, wait_for_text
from devtools.browser.keyboard_focus import focus_the_view, tab_to
from devtools.browser.served_app import ServedApp
from tests.ui.artifacts import save_screenshot
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase
from tests.ui.screen_pixels import decode_png
from tests.ui.test_search_and_attention import SIZES, matching, search_field, type_into
from tests.views.test_look import FOCUS_RING_MINIMUM, contrast

pytestmark = pytest.mark.ui
TAB_STOPS = 20
"""Tab presses allowed from the page's start to the first sidebar group."""
RING_LOOKS = 10
"""Screenshots (two frames apart) in which the focused group's ring must show."""


def picture(row: Locator) -> bytes:
    """The row as drawn, once the page has drawn a few more frames."""
    next_frames(row.page, 3)
    return row.screenshot()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_searched_row_draws_its_matched_words_and_no_match_offers_recent_history_beside_it(
    screen: str, open_page: PageOpener, served: ServedApp, database: ScheduleDatabase
) -> None:
    page = open_page(served.url, size=SIZES[screen], touch=screen == "phone")
    current = database.schedules_in(CURRENT_STATES)
    word = "digest"
    title = next(t for t in matching(current, word) if word in t.casefold())
    row = schedule_row(page, title)
    field = search_field(page, screen)
    expect(row).to_be_visible()
    plain = picture(row)

    type_into(field, word, screen)
    expect(row).to_be_visible()
    save_screenshot(page, f"search-highlight-{screen}")
    assert picture(row) != plain, "the matched words are not drawn any differently"

    field.fill("")
    type_into(field, "zqxj", screen)
    wait_for_text(page, "No current schedules match “zqxj”")
    offer = button(page, "Search Recent History")
    expect(offer).to_be_visible()
    save_screenshot(page, f"search-no-match-{screen}")
    offer_box = offer.bounding_box()
    viewport = page.viewport_size
    assert offer_box is not None and viewport is not None
    # Under the centred sentence, not at the pane's foot.
    assert offer_box["y"] + offer_box["height"] < viewport["height"] * 0.75


def test_a_focused_sidebar_group_shows_a_ring_of_at_least_3_to_1(
    desktop: Page, database: ScheduleDatabase
) -> None:
    groups = database.scheduled_groups()
    assert groups, "the demo needs a schedule with two or more sessions"
    sessions = next(iter(groups.values()))
    label = sessions[0].title
    group = sidebar_group(desktop, label, expanded=False)
    expect(group).to_be_visible()
    behind = _sidebar_colour(desktop, group)

    # Keyboard alone: Tab from the page's start until the group holds the focus.
    focus_the_view(desktop)
    tab_to(desktop, f"{label}, {len(sessions)} sessions, collapsed", presses=TAB_STOPS)

    # The group holds the focus: its ring is drawn within a few frames, where it is now.
    best = 0.0
    for _ in range(RING_LOOKS):
        best = max(best, _ring_contrast(desktop, box_of(group), behind))
        if best >= FOCUS_RING_MINIMUM:
            break
        next_frames(desktop, 2)
    save_screenshot(desktop, "sidebar-group-focus-ring")
    assert best >= FOCUS_RING_MINIMUM, f"the group's focus is drawn at {best:.2f}:1 at most"


def _sidebar_colour(page: Page, group: Locator) -> str:
    """The sidebar's own colour where an unfocused group's top edge runs."""
    box = box_of(group)  # the sidebar's refresh may have just replaced the node
    return _hex(decode_png(page.screenshot()).rgb(_middle(box), int(box["y"]) + 1))


def _ring_contrast(page: Page, box: FloatRect, behind: str) -> float:
    """The strongest contrast against ``behind`` along the top edge of ``box``, as drawn."""
    drawn = decode_png(page.screenshot())
    edge = range(int(box["y"]) - 2, int(box["y"]) + 6)
    return max(contrast(_hex(drawn.rgb(_middle(box), y)), behind) for y in edge)


def _middle(box: FloatRect) -> int:
    return int(box["x"] + box["width"] / 2)


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)
