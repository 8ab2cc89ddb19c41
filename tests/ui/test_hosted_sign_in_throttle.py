"""A stranger guessing tokens on the hosted sign-in page slows only their own browser.

A real ``schedule-server`` trusts the hosted app's address
(``--forwarded-allow-ips 127.0.0.1``); the app runs behind a "proxy" on
this machine (``--behind-proxy`` on loopback), and each Chromium context
sends the ``X-Forwarded-For`` a proxy would set for it, so the three
browsers have three addresses. Alice is signed in; a guesser types wrong
tokens until the page says to wait; then Bob signs in from his own browser
and Alice goes on reading, neither of them ever told to wait. (That the
guesser's wait doubles is proven with a clock in
``tests/viewmodels/test_sign_in_attempts.py``; here the first wait, 5 s, may
be over before Bob has signed in.)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest
from playwright.sync_api import Browser, Page, expect

from devtools.browser.accessible_names import SIGN_IN, button, schedule_row, token_field
from devtools.browser.flutter_page import UI_TIMEOUT_MS, accessible_texts, open_app, wait_for_text
from devtools.browser.hosted_app import hosted_app, sign_in
from devtools.browser.schedule_server import ScheduleServer, schedule_server
from tests.ui.artifacts import close_pages
from tests.ui.conftest import PHONE_SIZE
from tests.ui.test_hosted_sign_in import (
    ALICE,
    BOB,
    CAROL,
    OWN_SCHEDULES,
    alices_titles,
    give_own_schedules,
)

pytestmark = pytest.mark.ui

SLOWED = "Too many attempts. Try again in"
MOST_GUESSES = 25
"""Ten refusals start the wait; a click the form ignored while busy is not a guess."""


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScheduleServer]:
    work = tmp_path_factory.mktemp("team-server")
    trusting_the_app = ["--forwarded-allow-ips", "127.0.0.1"]
    with schedule_server(work, [ALICE, BOB, CAROL], trusting_the_app) as server:
        give_own_schedules(server)
        yield server


@pytest.fixture
def hosted_url(team: ScheduleServer, tmp_path: Path) -> Iterator[str]:
    with hosted_app(team, tmp_path / "hosted-app-logs") as app:
        yield app.url


class BrowserAt(Protocol):
    """Opens the app on a phone-sized page of a new context the proxy knows as ``address``."""

    def __call__(self, url: str, address: str, name: str) -> Page: ...


@pytest.fixture
def browser_at(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserAt]:
    opened: list[tuple[Page, str]] = []

    def open_at(url: str, address: str, name: str) -> Page:
        context = browser.new_context(
            viewport=PHONE_SIZE, extra_http_headers={"X-Forwarded-For": address}
        )
        context.set_default_timeout(UI_TIMEOUT_MS)
        page = context.new_page()
        opened.append((page, f"{request.node.name}-{name}"))
        open_app(page, url)
        return page

    try:
        yield open_at
    finally:
        close_pages(opened, request.node)


def guess_until_slowed(page: Page) -> str:
    """Wrong tokens until the form says to wait; that sentence."""
    for _ in range(MOST_GUESSES):
        token_field(page).fill(secrets.token_urlsafe(32))
        button(page, SIGN_IN).click()
        expect(button(page, SIGN_IN)).to_be_enabled()
        said = [text for text in accessible_texts(page) if SLOWED in text]
        if said:
            return said[0]
    raise AssertionError(f"{MOST_GUESSES} wrong tokens and the form never said to wait")


def test_a_guesser_is_slowed_alone_while_others_sign_in_and_read(
    team: ScheduleServer, hosted_url: str, browser_at: BrowserAt
) -> None:
    alice_first = alices_titles(team)[0]
    bob_first = OWN_SCHEDULES[BOB][0]
    alice = browser_at(hosted_url, "198.51.100.10", "alice")
    sign_in(alice, ALICE)
    expect(schedule_row(alice, alice_first)).to_be_visible()

    guesser = browser_at(hosted_url, "203.0.113.7", "guesser")
    slowed = guess_until_slowed(guesser)
    assert slowed.endswith(" s.")

    bob = browser_at(hosted_url, "198.51.100.20", "bob")
    sign_in(bob, BOB)
    expect(schedule_row(bob, bob_first)).to_be_visible()

    schedule_row(alice, alice_first).click()
    wait_for_text(alice, "Instruction")
    for page in (alice, bob):
        assert not any(SLOWED in text for text in accessible_texts(page))
