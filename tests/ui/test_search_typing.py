"""Search keeps the focus and every key, in order, at both sizes, accessibility tree on and off.

Twenty short queries are typed at a person's pace (30 to 120 ms a key, seeded,
some with a pause longer than the debounce, so the list answers while typing
goes on), the mouse left where a person leaves it: on the phone's Search
action, on the list's Refresh beside the field, or on a sidebar row's title
(where a hover tooltip would take the focus). After each query the focused
input holds exactly what was typed. Escape and the clear button empty the
field and leave the focus in it. With the tree off the page builds no DOM:
the points to click are measured on a tree-on page of the same size.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import pytest
from playwright.sync_api import FloatRect, Locator, Page, ViewportSize, expect

from devtools.browser.accessible_names import button, sidebar_group
from devtools.browser.flutter_page import UI_TIMEOUT_MS, box_centre
from devtools.browser.served_app import ServedApp
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import ScheduleDatabase

pytestmark = pytest.mark.ui

SIZES: dict[str, ViewportSize] = {"desktop": DESKTOP_SIZE, "phone": PHONE_SIZE}
SEARCH_FIELD = "Search schedules"
CLEAR_SEARCH = "Clear search"
QUERIES = (
    "backup", "news", "inbox", "trip", "zqxj", "check", "tram", "quote", "hob", "pull",
    "night", "rain", "cover", "pack", "aisle", "seat", "flag", "hob", "ten", "lead",
)  # fmt: skip
"""Twenty short words: some match demo schedules, some match nothing (the empty-list panel)."""
KEY_DELAYS_MS = (30, 120)
PAUSE_MS = (250, 450)
"""A pause mid-word, longer than the search's debounce: a reload answers while typing goes on."""
TITLE_INSET = 80
"""Pixels from a dense sidebar row's left edge to a point on its title (past the leading icon)."""

_TYPED_TEXT = """() => {
    const focused = document.activeElement;
    const editable = focused instanceof HTMLInputElement || focused instanceof HTMLTextAreaElement;
    return editable ? focused.value : null;
}"""

_FOCUS_IN_AN_EMPTY_INPUT = """() => {
    const focused = document.activeElement;
    return focused instanceof HTMLInputElement && focused.value === "";
}"""


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a person clicks, and how that part of the screen looks once the app painted it."""

    point: tuple[float, float]
    clip: FloatRect
    painted: bytes


def typed_text(page: Page) -> str | None:
    """The text of the input holding the keyboard focus; None when no input holds it.

    With the tree on it is the field's own ``textbox`` node; with it off, the
    input Flutter keeps in ``flt-text-editing-host`` while a field is focused.
    Either way a key typed while the focus is elsewhere is missing from it.
    """
    value: str | None = page.evaluate(_TYPED_TEXT)
    return value


def spot(page: Page, control: Locator) -> Spot:
    x, y = box_centre(control)
    clip: FloatRect = {"x": x - 12, "y": y - 12, "width": 24, "height": 24}
    return Spot((x, y), clip, page.screenshot(clip=clip))


def wait_until_painted(page: Page, where: Spot) -> None:
    """Poll the screen until the spot looks as it did on the measured page (the app is drawn)."""
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while page.screenshot(clip=where.clip) != where.painted:
        if time.monotonic() > deadline:
            raise AssertionError(f"the app never painted {where.point} as measured")
        page.wait_for_timeout(100)


def search_spots(page: Page, screen: str) -> tuple[Spot, Spot]:
    """Where search opens (the phone's action, or the field) and where the mouse then rests.

    Read from the accessibility tree, so ``page`` has it on."""
    if screen == "phone":
        action = button(page, "Search")
        expect(action).to_be_visible()
        return spot(page, action), spot(page, action)
    field = page.get_by_role("textbox", name=SEARCH_FIELD)
    refresh = button(page, "Refresh")
    expect(field).to_be_visible()
    expect(refresh).to_be_visible()
    return spot(page, field), spot(page, refresh)


def sidebar_title_spot(page: Page, database: ScheduleDatabase) -> Spot:
    """A point on the title of a sidebar row (a schedule's group), where a mouse may rest."""
    groups = database.scheduled_groups()
    assert groups, "the demo needs a schedule with two or more sessions"
    group = sidebar_group(page, next(iter(groups.values()))[0].title)
    expect(group).to_be_visible()
    box = group.bounding_box()
    assert box is not None, "the sidebar group is not on screen"
    x, y = box["x"] + TITLE_INSET, box["y"] + box["height"] / 2
    clip: FloatRect = {"x": x - 12, "y": y - 12, "width": 24, "height": 24}
    return Spot((x, y), clip, page.screenshot(clip=clip))


def open_search(page: Page, opener: Spot, rest: Spot, *, tree_on: bool) -> None:
    """Click where search opens, leave the mouse where a person leaves it, wait for the focus."""
    page.mouse.click(*opener.point)
    page.mouse.move(*rest.point)
    if tree_on:
        expect(page.get_by_role("textbox", name=SEARCH_FIELD)).to_be_focused()
    else:
        page.wait_for_function(_FOCUS_IN_AN_EMPTY_INPUT, timeout=UI_TIMEOUT_MS)


def type_like_a_person(page: Page, query: str, pace: random.Random) -> None:
    delay = pace.randint(*KEY_DELAYS_MS)
    split = pace.randint(1, len(query) - 1) if pace.random() < 0.3 else len(query)
    page.keyboard.type(query[:split], delay=delay)
    if split < len(query):
        page.wait_for_timeout(pace.randint(*PAUSE_MS))  # the person pauses; the list reloads
        page.keyboard.type(query[split:], delay=delay)


@pytest.fixture(scope="module")
def measured() -> dict[str, tuple[Spot, Spot]]:
    """Each size's search spots, once measured with the tree on (by whichever case came first)."""
    return {}


@pytest.mark.parametrize("tree", ["tree-on", "tree-off"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_search_keeps_the_focus_and_every_keystroke_in_order(
    screen: str,
    tree: str,
    open_page: PageOpener,
    served: ServedApp,
    measured: dict[str, tuple[Spot, Spot]],
) -> None:
    tree_on = tree == "tree-on"
    if tree_on:
        page = open_page(served.url, size=SIZES[screen])
        opener, rest = measured[screen] = search_spots(page, screen)
    else:
        if screen not in measured:
            reader = open_page(served.url, size=SIZES[screen], suffix="measured")
            measured[screen] = search_spots(reader, screen)
        opener, rest = measured[screen]
        page = open_page(served.url, size=SIZES[screen], semantics=False)
        wait_until_painted(page, opener)
    open_search(page, opener, rest, tree_on=tree_on)
    type_every_query(page, random.Random(f"{screen}-{tree}"))
    if tree_on:
        expect(page.get_by_role("textbox", name=SEARCH_FIELD)).to_be_focused()


def test_a_mouse_resting_on_a_sidebar_title_leaves_search_every_keystroke(
    open_page: PageOpener, served: ServedApp, database: ScheduleDatabase
) -> None:
    page = open_page(served.url, size=DESKTOP_SIZE)
    opener, _ = search_spots(page, "desktop")
    open_search(page, opener, sidebar_title_spot(page, database), tree_on=True)
    type_every_query(page, random.Random("desktop-sidebar"))
    expect(page.get_by_role("textbox", name=SEARCH_FIELD)).to_be_focused()


@pytest.mark.parametrize("clear_with", ["escape", "clear-button"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_clearing_empties_the_search_field_and_leaves_the_focus_in_it(
    screen: str, clear_with: str, open_page: PageOpener, served: ServedApp
) -> None:
    page = open_page(served.url, size=SIZES[screen])
    opener, rest = search_spots(page, screen)
    open_search(page, opener, rest, tree_on=True)
    field = page.get_by_role("textbox", name=SEARCH_FIELD)
    for query in QUERIES[:3]:
        page.keyboard.type(query, delay=KEY_DELAYS_MS[0])
        expect(field).to_have_value(query)
        if clear_with == "escape":
            page.keyboard.press("Escape")
        else:
            button(page, CLEAR_SEARCH).click()
        expect(field).to_have_value("")
        expect(field).to_be_focused()


def type_every_query(page: Page, pace: random.Random) -> None:
    """Type each query at a person's pace, checking the field holds it, then empty the field."""
    for number, query in enumerate(QUERIES, start=1):
        type_like_a_person(page, query, pace)
        assert typed_text(page) == query, f"query {number} of {len(QUERIES)}"
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.press("Backspace")
        assert typed_text(page) == "", f"query {number} was not emptied"
