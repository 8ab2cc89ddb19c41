"""Fixtures: one served app and one Chromium for the UI run, a page per test.

- ``served`` (session): ``schedule-browser --web`` over a fresh data folder, the demo
  loaded once; tests derive what they expect from the database as it is then. It
  also reads the pseudo-locale (``eo``: ``devtools.pseudo_locale``).
- ``browser`` (package, not session: the sync API's event loop must be gone before
  the asyncio tests of other packages run).
- ``open_page``: a fresh browser context (fresh device storage) at any size,
  colour scheme and language (a Chinese, Japanese or Korean one counting the CJK
  font's fetches: ``devtools.browser.cjk_fonts``), the accessibility tree on unless asked;
  closed when the test ends, and saved under ``tests/artifacts/ui/`` first if the
  test failed. ``desktop`` / ``phone``: it on the served app at 1280x800 or 390x844.
- ``no_traceback_logged`` (autouse): a test of the served app fails if the app
  logged a traceback meanwhile (Flet logs a callback's exception and goes on).
- ``remote`` / ``remote_url`` (module): a ``schedule-server`` and the app on it
  (``--server``), for the tests that stop and start the server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

from devtools.browser.chromium import CHROMIUM, launch_chromium
from devtools.browser.cjk_fonts import count_cjk_fonts, needs_cjk_font
from devtools.browser.flutter_page import UI_TIMEOUT_MS, open_app
from devtools.browser.schedule_server import ScheduleServer, remote_app, schedule_server
from devtools.browser.served_app import ServedApp, served_app
from devtools.pseudo_locale import write_pseudo_catalog
from tests.ui.artifacts import FAILED, close_pages
from tests.ui.page_opener import ColorScheme, PageOpener
from tests.ui.schedule_database import ScheduleDatabase
from viewmodels.language import PREVIEW_CATALOGS

DESKTOP_SIZE: ViewportSize = {"width": 1280, "height": 800}
PHONE_SIZE: ViewportSize = {"width": 390, "height": 844}

expect.set_options(timeout=UI_TIMEOUT_MS)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item) -> Iterator[pytest.TestReport]:
    report: pytest.TestReport = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApp]:
    root = tmp_path_factory.mktemp("ui-app")
    write_pseudo_catalog(root / "catalogs")
    with served_app(
        root / "data", root / "logs", environment={PREVIEW_CATALOGS: str(root / "catalogs")}
    ) as app:
        yield app


@pytest.fixture(autouse=True)
def no_traceback_logged(request: pytest.FixtureRequest) -> Iterator[None]:
    if "served" not in request.fixturenames:
        yield
        return
    log = request.getfixturevalue("served").log_dir / "stderr.txt"
    before = log.stat().st_size
    yield
    with log.open("rb") as logged:
        logged.seek(before)
        written = logged.read().decode(errors="replace")
    assert "Traceback" not in written, f"the app logged a traceback:\n{written[-3000:]}"


@pytest.fixture
def database(served: ServedApp) -> ScheduleDatabase:
    return ScheduleDatabase(served.database_path)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/setup --test installs Debian's chromium")
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def desktop(open_page: PageOpener, served: ServedApp) -> Page:
    return open_page(served.url, size=DESKTOP_SIZE)


@pytest.fixture
def phone(open_page: PageOpener, served: ServedApp) -> Page:
    return open_page(served.url, size=PHONE_SIZE)


@pytest.fixture
def open_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[PageOpener]:
    opened: list[tuple[Page, str]] = []

    def opener(
        url: str,
        *,
        size: ViewportSize = DESKTOP_SIZE,
        color_scheme: ColorScheme | None = None,
        suffix: str = "",
        trust_any_certificate: bool = False,
        touch: bool = False,
        semantics: bool = True,
        locale: str = "en-GB",
    ) -> Page:
        context = browser.new_context(
            locale=locale,  # the browser's language is the app's default locale
            viewport=size,
            color_scheme=color_scheme,
            ignore_https_errors=trust_any_certificate,
            has_touch=touch,
        )
        context.set_default_timeout(UI_TIMEOUT_MS)
        if needs_cjk_font(locale):  # its screenshots wait for the font (devtools.browser.cjk_fonts)
            count_cjk_fonts(context)
        page = context.new_page()
        opened.append((page, f"{request.node.name}-{suffix}" if suffix else request.node.name))
        open_app(page, url, semantics=semantics)
        return page

    try:
        yield opener
    finally:
        close_pages(opened, request.node)


@pytest.fixture(scope="module")
def remote(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScheduleServer]:
    with schedule_server(tmp_path_factory.mktemp("schedule-server")) as server:
        yield server


@pytest.fixture(scope="module")
def remote_app_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("remote-app-logs")


@pytest.fixture(scope="module")
def remote_url(remote: ScheduleServer, remote_app_logs: Path) -> Iterator[str]:
    with remote_app(remote, remote_app_logs) as url:
        yield url
