"""The app follows the browser's colour scheme: a dark context renders dark, a light one light.

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

from tests.ui.accessible_names import schedule_rows
from tests.ui.flutter_page import next_frames, wait_for_text
from tests.ui.page_opener import ColorScheme, PageOpener
from tests.ui.screen_pixels import decode_png
from tests.ui.served_app import ServedApp

pytestmark = pytest.mark.ui

SURFACE_SAMPLE: FloatRect = {"x": 1180, "y": 700, "width": 48, "height": 48}
"""Part of the wide layout's detail pane with nothing drawn on it while no schedule is open."""
DARK_AT_MOST = 60.0
LIGHT_AT_LEAST = 200.0


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
