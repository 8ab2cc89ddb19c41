"""Waiting for the web view's Chinese, Japanese and Korean glyphs before a screenshot.

Flutter's web engine fetches a font for the CJK characters of a screen only once
the screen is drawn, and repaints when it arrives; the app answers those fetches
with a font installed on the serving machine (``app.web.cjk_font``, which needs
Debian's ``fonts-droid-fallback`` here: ``scripts/setup --test`` installs it).
``count_cjk_fonts`` counts a browser context's fetches so that
``wait_for_cjk_fonts`` can wait until every one has arrived.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from playwright.sync_api import BrowserContext, Page, Request

from app.web.cjk_font import FONT_NAME, installed_cjk_font
from devtools.browser.flutter_page import UI_TIMEOUT_MS, next_frames

CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})
CJK_FONT_FETCH = re.compile(
    rf"/assets/fonts/(?:notosans(?:sc|tc|hk|jp|kr)/[^?]*\.woff2|{FONT_NAME}\.\w+$)"
)
"""A Noto CJK subset Flutter asks for, or the one font the app redirects it to."""


@dataclass(slots=True)
class _Fetches:
    asked: int = 0
    finished: int = 0


_FETCHES: WeakKeyDictionary[BrowserContext, _Fetches] = WeakKeyDictionary()


def needs_cjk_font(locale: str) -> bool:
    """Whether a browser in ``locale`` ("zh-CN") reads words the fallback font draws."""
    return re.split(r"[-_]", locale)[0].lower() in CJK_LANGUAGES


def count_cjk_fonts(context: BrowserContext) -> None:
    """Count ``context``'s font fetches for CJK glyphs, asked and finished."""
    if installed_cjk_font() is None:
        raise FileNotFoundError(
            "No CJK font is installed: scripts/setup --test installs Debian's fonts-droid-fallback"
        )
    fetches = _FETCHES[context] = _Fetches()

    def asked(request: Request) -> None:
        if CJK_FONT_FETCH.search(request.url):
            fetches.asked += 1

    def finished(request: Request) -> None:
        if CJK_FONT_FETCH.search(request.url):
            fetches.finished += 1

    context.on("request", asked)
    context.on("requestfinished", finished)
    context.on("requestfailed", finished)


def wait_for_cjk_fonts(page: Page) -> None:
    """Until every CJK font the page asked for has arrived (bounded), then a few frames.

    A no-op for a page whose context does not count them.
    """
    fetches = _FETCHES.get(page.context)
    if fetches is None:
        return
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    next_frames(page, 6)  # a screen just shown asks for its fonts on its first frames
    while fetches.finished < fetches.asked:
        if time.monotonic() > deadline:
            raise AssertionError(f"{fetches.asked - fetches.finished} CJK fonts never arrived")
        next_frames(page, 6)
    next_frames(page, 6)
