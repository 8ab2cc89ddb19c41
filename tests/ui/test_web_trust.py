"""In Chromium: another website can neither open the app's socket nor frame it, and the
app itself runs under its content security policy at desktop and phone size.

The foreign website is a second local server on another port serving one
page whose script opens ``new WebSocket`` to the app and frames the app in
an ``<iframe>``, as a malicious page a user visits would. The app is the
session's served ``schedule-browser --web``; every policy violation its own
page reports (``securitypolicyviolation`` events, gathered from the first
script on) fails the test, so a CanvasKit, font or socket the policy left
out would show here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, ViewportSize, expect

from devtools.browser.accessible_names import button, schedule_row
from devtools.browser.flutter_page import UI_TIMEOUT_MS, click_in_list, open_app
from devtools.browser.served_app import LOOPBACK, ServedApp
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase

pytestmark = pytest.mark.ui

COPY_INSTRUCTION = "Copy instruction"
RIVE_FROM_CDN = "cdn.jsdelivr.net/npm/@rive-app/"
"""Flet's client asks its CDN for the Rive runtime at start, for a control this app never
uses; the policy keeps it off the network (as being offline does) and nothing else."""
VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
    window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def foreign_page(app_port: int) -> bytes:
    return f"""<!DOCTYPE html>
<html><head><title>Evil</title></head><body>
<script>
window.socketOutcome = new Promise((done) => {{
    const socket = new WebSocket("ws://{LOOPBACK}:{app_port}/ws");
    socket.onopen = () => done("open");
    socket.onerror = () => done("error");
    socket.onclose = (event) => done(`closed ${{event.code}}`);
}});
</script>
<iframe id="app" src="http://{LOOPBACK}:{app_port}/" width="400" height="400"></iframe>
</body></html>""".encode()


@pytest.fixture
def foreign_site(served: ServedApp) -> Iterator[str]:
    """Another website on another local port, serving the attacking page at ``/``."""
    page = foreign_page(urlsplit(served.url).port or 0)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer((LOOPBACK, 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{LOOPBACK}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_another_website_can_neither_open_the_apps_socket_nor_frame_it(
    browser: Browser, foreign_site: str
) -> None:
    context = browser.new_context(viewport=DESKTOP_SIZE)
    try:
        page = context.new_page()
        with page.expect_console_message(lambda message: "frame-ancestors" in message.text):
            page.goto(foreign_site)
        outcome = page.evaluate("window.socketOutcome")
        assert outcome != "open"
        assert outcome.startswith(("error", "closed 1006"))
        framed = page.frames[1]
        assert framed.locator("flt-glass-pane, flutter-view").count() == 0
        save_screenshot(page, "test_another_website_cannot_frame_the_app")
    finally:
        context.close()


@pytest.mark.parametrize(("size", "suffix"), [(DESKTOP_SIZE, "desktop"), (PHONE_SIZE, "phone")])
def test_the_app_renders_and_works_under_its_security_headers(
    browser: Browser,
    served: ServedApp,
    database: ScheduleDatabase,
    size: ViewportSize,
    suffix: str,
) -> None:
    context = browser.new_context(viewport=size)
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_init_script(VIOLATIONS)
    refused: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            refused.append(message.text)

    try:
        page: Page = context.new_page()
        page.on("console", note)
        response = page.goto(served.url)
        assert response is not None
        headers = response.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert "access-control-allow-origin" not in headers
        open_app(page, served.url)
        current = database.schedules_in(CURRENT_STATES)
        first, last = current[0], current[min(3, len(current) - 1)]
        click_in_list(page, schedule_row(page, first.title), schedule_row(page, last.title))
        expect(button(page, COPY_INSTRUCTION)).to_be_visible()
        save_screenshot(page, f"test_the_app_renders_under_its_security_headers-{suffix}")
        violations: list[str] = page.evaluate("window.__violations")
        assert [v for v in violations if RIVE_FROM_CDN not in v] == []
        assert [line for line in refused if RIVE_FROM_CDN not in line] == []
    finally:
        context.close()
