"""A person who signs in on the hosted page keeps their socket past ``--sign-in-timeout``.

The hosted app closes a socket on which nobody has signed in within the
timeout (``app.web.sign_in_door``); signing in must admit the page's own
socket, or the person's page would drop and reconnect every few seconds. A
real ``schedule-server`` and the app behind a "proxy" on this machine
(``--behind-proxy`` on loopback, ``--sign-in-timeout 10``); Chromium signs in
as Alice while the test counts the page's WebSockets. A stranger's socket,
opened after Alice's page and never signed in on, is closed (1008): her
socket's timeout has passed by then, and it is still the one it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from devtools.browser.accessible_names import schedule_row
from devtools.browser.flutter_page import UI_TIMEOUT_MS, open_app, wait_for_text
from devtools.browser.hosted_app import hosted_app, sign_in
from devtools.browser.schedule_server import ScheduleServer, schedule_server
from tests.app.flet_socket import register_frame
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import PHONE_SIZE
from tests.ui.test_hosted_sign_in import ALICE, alices_titles

pytestmark = pytest.mark.ui

SIGN_IN_SECONDS = 10
CLOSED_WITHIN = 30.0
STRANGER = "203.0.113.7"
ALICE_AT = "198.51.100.10"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScheduleServer]:
    with schedule_server(tmp_path_factory.mktemp("team-server"), [ALICE]) as server:
        yield server


@pytest.fixture
def hosted_url(team: ScheduleServer, tmp_path: Path) -> Iterator[str]:
    timeout = ["--sign-in-timeout", str(SIGN_IN_SECONDS)]
    with hosted_app(team, tmp_path / "hosted-app-logs", extra_arguments=timeout) as app:
        yield app.url


def strangers_socket_close_code(url: str) -> int | None:
    """A socket a stranger's script opens and registers on, never signing in: how it ends."""
    origin = url.rstrip("/")
    with connect(
        f"{origin.replace('http', 'ws', 1)}/ws",
        origin=Origin(origin),
        additional_headers={"X-Forwarded-For": STRANGER},
        open_timeout=CLOSED_WITHIN,
    ) as socket_:
        socket_.send(register_frame())
        try:
            while True:
                socket_.recv(timeout=CLOSED_WITHIN)
        except ConnectionClosed:
            pass
        return socket_.close_code


def test_a_signed_in_page_keeps_its_socket_past_the_sign_in_timeout(
    team: ScheduleServer, hosted_url: str, browser: Browser
) -> None:
    alice_first = alices_titles(team)[0]
    context = browser.new_context(
        viewport=PHONE_SIZE, extra_http_headers={"X-Forwarded-For": ALICE_AT}
    )
    context.set_default_timeout(UI_TIMEOUT_MS)
    page: Page = context.new_page()
    opened: list[WebSocket] = []
    closed: list[str] = []

    def follow(socket_: WebSocket) -> None:
        opened.append(socket_)
        socket_.on("close", lambda gone: closed.append(gone.url))

    page.on("websocket", follow)
    try:
        open_app(page, hosted_url)
        sign_in(page, ALICE)
        expect(schedule_row(page, alice_first)).to_be_visible()

        assert strangers_socket_close_code(hosted_url) == 1008

        schedule_row(page, alice_first).click()
        wait_for_text(page, "Instruction")
        assert (len(opened), closed) == (1, [])
    finally:
        save_screenshot(page, "signed-in-past-the-sign-in-timeout")
        context.close()
