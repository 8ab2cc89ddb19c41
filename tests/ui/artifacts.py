"""Screenshots kept after a run, under ``tests/artifacts/ui/`` (git-ignored), to look at."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page

from tests.ui.flutter_page import next_frames

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "ui"


def save_screenshot(page: Page, name: str) -> Path:
    """Save what the page shows now as ``<name>.png`` (after Flutter's next frames)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', name).strip('-')}.png"
    if not page.is_closed():
        next_frames(page)
        page.screenshot(path=str(path))
    return path
