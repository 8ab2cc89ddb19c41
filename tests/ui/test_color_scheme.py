"""The app follows the browser's colour scheme: a dark context renders dark, a light one light.

Also the keyboard's focus ring: the colours ``views.look`` pins (whose
contrast ``tests/views/test_look.py`` computes) are the ones painted.

The look sets ``ThemeMode.SYSTEM``; Chromium reports the context's
``prefers-color-scheme`` to Flutter as the platform brightness. What is
checked is the pixels, not a setting: the average luminance of an empty
stretch of the detail pane (the page's surface), read from a screenshot once
the page holds still.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import FloatRect, Page, expect

from devtools.browser.accessible_names import schedule_rows
from devtools.browser.flutter_page import next_frames, wait_for_text
from devtools.browser.served_app import ServedApp
from tests.ui.page_opener import ColorScheme, PageOpener
from tests.ui.screen_pixels import Screenshot, decode_png
from views.look import DARK_MARKS, LIGHT_MARKS, KeyboardMarks

pytestmark = pytest.mark.ui

SURFACE_SAMPLE: FloatRect = {"x": 1180, "y": 700, "width": 48, "height": 48}
"""Part of the wide layout's detail pane with nothing drawn on it while no schedule is open."""
DARK_AT_MOST = 60.0
LIGHT_AT_LEAST = 200.0
COLOUR_TOLERANCE = 6
"""Per channel: Chromium's anti-aliasing and colour conversion, not another colour."""


def surface_luminance(page: Page) -> float:
    shot = decode_png(page.screenshot(clip=SURFACE_SAMPLE))
    # Device pixels may outnumber CSS pixels; the whole clip is surface either way.
    return shot.mean_luminance(0, 0, shot.width, shot.height)


def settled_surface_luminance(page: Page, timeout_s: float = 5.0) -> float:
    """The sample's luminance once two readings a few frames apart agree.

    The canvas can trail the accessibility tree by a few frames (Flet's start-up
    screen stays painted a moment), so one reading could see the splash.
    """
    deadline = time.monotonic() + timeout_s
    reading = surface_luminance(page)
    while True:
        next_frames(page, 3)
        latest = surface_luminance(page)
        if latest == reading or time.monotonic() > deadline:
            return latest
        reading = latest


def opened(open_page: PageOpener, served: ServedApp, scheme: ColorScheme) -> Page:
    """The app in a context of ``scheme``; saved as ``<test>-<scheme>.png`` at the end."""
    page = open_page(served.url, color_scheme=scheme, suffix=scheme)
    expect(schedule_rows(page).first).to_be_visible()
    wait_for_text(page, "No schedule selected")
    return page


def test_a_dark_browser_gets_a_dark_app_and_a_light_browser_a_light_one(
    open_page: PageOpener, served: ServedApp
) -> None:
    dark = opened(open_page, served, "dark")
    light = opened(open_page, served, "light")

    dark_luminance = settled_surface_luminance(dark)
    light_luminance = settled_surface_luminance(light)

    assert dark_luminance <= DARK_AT_MOST, f"dark context surface luminance {dark_luminance:.0f}"
    assert light_luminance >= LIGHT_AT_LEAST, (
        f"light context surface luminance {light_luminance:.0f}"
    )


def _nearest(shot: Screenshot, colour: str) -> int:
    """The smallest per-channel distance from ``colour`` of any pixel in ``shot``."""
    want = tuple(int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    best = 255
    for y in range(shot.height):
        for x in range(shot.width):
            best = min(best, max(abs(a - b) for a, b in zip(shot.rgb(x, y), want, strict=True)))
    return best


@pytest.mark.parametrize(("scheme", "marks"), [("light", LIGHT_MARKS), ("dark", DARK_MARKS)])
def test_the_focus_ring_is_drawn_in_the_pinned_colour_over_the_pinned_surface(
    open_page: PageOpener, served: ServedApp, scheme: ColorScheme, marks: KeyboardMarks
) -> None:
    page = opened(open_page, served, scheme)
    page.mouse.click(SURFACE_SAMPLE["x"], SURFACE_SAMPLE["y"])
    page.keyboard.press("ArrowDown")
    ringed = schedule_rows(page).and_(page.locator("[aria-current='true']"))
    expect(ringed).to_have_count(1)
    box = ringed.bounding_box()
    assert box is not None
    # The themes' colours are what Chromium paints (a pinned role Flutter ignored fails here),
    # so the contrast computed from them in tests/views/test_look.py is the one on screen.
    # The canvas can trail the tree by a few frames: read until the ring shows, or give up.
    deadline = time.monotonic() + 10
    while True:
        next_frames(page, 3)
        ring = _nearest(decode_png(page.screenshot(clip=box)), marks.focus_ring)
        if ring <= COLOUR_TOLERANCE or time.monotonic() > deadline:
            break
    assert ring <= COLOUR_TOLERANCE, "no pixel of the focus ring"
    surface = decode_png(page.screenshot(clip=SURFACE_SAMPLE))
    assert _nearest(surface, marks.surface) <= COLOUR_TOLERANCE, "the surface is not the pinned one"
