"""Chinese, Japanese and Korean glyphs in the tests' screenshots, from a Debian font.

Flutter's web engine draws with its own fonts, never the system's: for a
character its bundled Roboto lacks it fetches a Noto subset from
``fontFallbackBaseUrl``. Flet serving with ``no_cdn`` (as ``app.web.server``
does) sets that to the app's own ``assets/fonts/``, which ships no Noto
subsets, so those requests fail and CJK text is painted as empty boxes
(Flutter's CDN default, ``fonts.gstatic.com/s/``, is unreachable here too).

``serve_cjk_fallback`` answers those requests in one browser context with
Debian's ``DroidSansFallbackFull.ttf`` (``fonts-droid-fallback``, which
``scripts/setup --test`` installs): Flutter registers each answer under the
subset's name and draws the glyphs it holds with it. The app, the page and
its accessibility tree are otherwise untouched. Flutter repaints only once
its subsets have arrived, so ``wait_for_cjk_fonts`` comes before a screenshot.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from weakref import WeakKeyDictionary

from playwright.sync_api import BrowserContext, Page, Request, Route

from devtools.browser.flutter_page import UI_TIMEOUT_MS, next_frames

CJK_FONT = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})
NOTO_CJK_SUBSET = re.compile(r"/(?:assets/fonts|s)/notosans(?:sc|tc|hk|jp|kr)/[^?]*\.woff2")
"""A Noto CJK subset Flutter asks for: under the app's ``assets/fonts/`` or Google's ``/s/``."""


@dataclass(slots=True)
class _Subsets:
    asked: int = 0
    finished: int = 0


_SUBSETS: WeakKeyDictionary[BrowserContext, _Subsets] = WeakKeyDictionary()


def needs_cjk_font(locale: str) -> bool:
    """Whether a browser in ``locale`` ("zh-CN") reads words the fallback font draws."""
    return re.split(r"[-_]", locale)[0].lower() in CJK_LANGUAGES


def serve_cjk_fallback(context: BrowserContext) -> None:
    """Answer ``context``'s requests for Noto CJK subsets with the local CJK font."""
    if not CJK_FONT.is_file():
        raise FileNotFoundError(
            f"{CJK_FONT} is missing: scripts/setup --test installs Debian's fonts-droid-fallback"
        )
    font = _font_bytes()
    subsets = _SUBSETS[context] = _Subsets()

    def answer(route: Route) -> None:
        route.fulfill(status=200, body=font, headers={"Content-Type": "font/ttf"})

    def asked(request: Request) -> None:
        if NOTO_CJK_SUBSET.search(request.url):
            subsets.asked += 1

    def finished(request: Request) -> None:
        if NOTO_CJK_SUBSET.search(request.url):
            subsets.finished += 1

    context.on("request", asked)
    context.on("requestfinished", finished)
    context.on("requestfailed", finished)
    context.route(NOTO_CJK_SUBSET, answer)


def wait_for_cjk_fonts(page: Page) -> None:
    """Until every subset the page asked for has arrived (bounded), then a few frames.

    A no-op for a page whose context does not serve the fallback font.
    """
    subsets = _SUBSETS.get(page.context)
    if subsets is None:
        return
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    next_frames(page, 6)  # a screen just shown asks for its subsets on its first frames
    while subsets.finished < subsets.asked:
        if time.monotonic() > deadline:
            raise AssertionError(f"{subsets.asked - subsets.finished} font subsets never arrived")
        next_frames(page, 6)
    next_frames(page, 6)


@cache
def _font_bytes() -> bytes:
    """Read once a run: 4 MB, answered for each subset Flutter asks for."""
    return CJK_FONT.read_bytes()
