"""Screenshots kept after a run, under ``tests/artifacts/ui/`` (git-ignored), to look at.

A test saves the looks it names; a failed test's pages are saved as they
were at its end (``close_pages``), so a failure can be seen, not only read.

Flutter's accessibility tree can be complete a few frames before the canvas
shows the same state (after a reload the startup screen, "Working...", stays
painted for a moment, and it does not change while it is there), so a
screenshot is taken once the page has looked the same for ``STILL_SECONDS``,
or has only turned between the same two looks for ``BLINKING_SECONDS`` (the
caret of a focused field blinking), within a bound, rather than at the first frame.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page

from devtools.browser.flutter_page import next_frames

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "ui"
SETTLE_SECONDS = 5.0
STILL_SECONDS = 0.5
BLINKING_SECONDS = 1.5
"""Three phases of a caret's blink (Flutter's: 500 ms on, 500 ms off)."""
FAILED = pytest.StashKey[bool]()
"""Set (``tests/ui/conftest.py``) on a test whose setup or call failed."""


def close_pages(opened: list[tuple[Page, str]], test: pytest.Item) -> None:
    """Close each ``(page, name)`` opened by ``test``, saving it first if the test failed."""
    failed = test.stash.get(FAILED, False)
    for page, name in opened:
        try:
            if failed:
                save_screenshot(page, name)
        finally:
            page.context.close()


def save_screenshot(page: Page, name: str) -> Path:
    """Save what the page shows, once it holds still, as ``<name>.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', name).strip('-')}.png"
    if page.is_closed():
        return path
    deadline = time.monotonic() + SETTLE_SECONDS
    capture, before = b"", b""
    since = pair_since = time.monotonic()
    while True:
        next_frames(page, 3)
        latest = page.screenshot()
        now = time.monotonic()
        if latest != capture:
            if latest != before:  # a look not seen just before: the page moves on
                pair_since = now
            before, capture, since = capture, latest, now
        if now - since >= STILL_SECONDS or now - pair_since >= BLINKING_SECONDS or now > deadline:
            break
    path.write_bytes(capture)
    return path
