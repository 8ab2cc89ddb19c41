"""Debian's Chromium, headless, as the UI tests and the browser benches both drive it.

Playwright's own browser downloads are not used: the system package is what
``scripts/setup --test`` installs, and these flags keep it from reaching out to
the network or a GPU during a run.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch_chromium(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
