"""Search keeps every key, in order, at both sizes, with the accessibility tree on and off.

A person clicks where search is (the phone's Search action in the app bar,
the field itself on a desktop) and types; the mouse stays where they leave
it: on the Search action they clicked, or, on a desktop, resting on the
list's Refresh action beside the field. Twenty short queries are typed at a
person's pace (30 to 120 ms a key, seeded, a pace of its own per query), some
with a pause longer than the search's debounce in the middle, so the list
reloads and answers while the rest is typed; select-all and Backspace
empty the field between queries (the whole section reloads then). After
each query the element holding the keyboard focus must be the input Flutter
edits the field with, holding exactly what was typed.

With the tree off the page builds no DOM for its controls: the points to
click are measured on a page of the same size with the tree on, and the
tree-off page is used once it paints those spots as the measured page does.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import pytest
from playwright.sync_api import FloatRect, Locator, Page, ViewportSize, expect

from devtools.browser.accessible_names import button
from devtools.browser.flutter_page import UI_TIMEOUT_MS, box_centre
from devtools.browser.served_app import ServedApp
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener

pytestmark = pytest.mark.ui

SIZES: dict[str, ViewportSize] = {"desktop": DESKTOP_SIZE, "phone": PHONE_SIZE}
SEARCH_FIELD = "Search schedules"
QUERIES = (
    "backup", "news", "inbox", "trip", "zqxj", "check", "tram", "quote", "hob", "pull",
    "night", "rain", "cover", "pack", "aisle", "seat", "flag", "hob", "ten", "lead",
)  # fmt: skip
"""Twenty short words: some match demo schedules, some match nothing (the empty-list panel)."""
KEY_DELAYS_MS = (30, 120)
PAUSE_MS = (250, 450)
"""A pause mid-word, longer than the search's debounce: a reload answers while typing goes on."""

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

    pace = random.Random(f"{screen}-{tree}")
    for number, query in enumerate(QUERIES, start=1):
        type_like_a_person(page, query, pace)
        assert typed_text(page) == query, f"query {number} of {len(QUERIES)}"
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.press("Backspace")
        assert typed_text(page) == "", f"query {number} was not emptied"
    if tree_on:
        expect(page.get_by_role("textbox", name=SEARCH_FIELD)).to_be_focused()
