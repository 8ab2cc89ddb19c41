"""What stays in the browser: its storage read back (``localStorage``) after each path.

The hosted web view (``--behind-proxy`` on loopback, a real team
``schedule-server`` behind it): without "Remember on this device" nothing of
the person's is written; with it, one record holding a handle (never the
token) and its expiry, beside that person's own namespace; signing out from the
"can't reach the server" screen leaves nothing. The local web view (``--web
--server`` on loopback, its user data folder a temporary ``XDG_DATA_HOME``)
writes no instruction to the origin's storage, erases what an earlier version
wrote there, and keeps its offline copy in the data folder, private to the user.
"""

from __future__ import annotations

import json
import secrets
import stat
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.device_folder import FOLDER_NAME
from app.options import PROGRAM
from devtools.browser.accessible_names import (
    OPEN_SIDEBAR,
    SIGN_OUT,
    button,
    schedule_row,
)
from devtools.browser.flutter_page import (
    UI_TIMEOUT_MS,
    open_app,
    wait_for_text,
)
from devtools.browser.hosted_app import hosted_app, sign_in
from devtools.browser.schedule_server import TOKEN_ENV, Member, ScheduleServer, schedule_server
from devtools.browser.served_app import app_command, running_process
from devtools.ports import LOOPBACK, free_port
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import PHONE_SIZE
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase
from viewmodels.sign_in import SIGNED_OUT

pytestmark = pytest.mark.ui

ALICE = Member("alice", "Alice Example", secrets.token_urlsafe(32), tenant="team")
APP_KEY = "schedule-browser."
"""Part of every key the app writes to the browser's storage."""
RECORD_END = "sign_in.token"
"""The end of the remembered token's record's key."""
COULD_NOT_BE_CHECKED = "could not be checked"
"""Part of the "can't reach the server" screen of a remembered sign-in."""
REMEMBER_DAYS = 30


def stored(page: Page) -> dict[str, str]:
    """The app's keys in this origin's ``localStorage``, with their raw values."""
    everything: dict[str, str] = page.evaluate("() => Object.assign({}, localStorage)")
    return {key: value for key, value in everything.items() if APP_KEY in key}


def decoded(raw: str) -> object:
    """A stored value as the app wrote it (Flutter adds a layer of JSON to strings)."""
    value: object = json.loads(raw)
    while isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            break
    return value


def sidebar_read(page: Page) -> None:
    """The sidebar has read the person's sessions (the demo's "Scheduled" group shows)."""
    button(page, OPEN_SIDEBAR).click()
    wait_for_text(page, "Scheduled")


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScheduleServer]:
    with schedule_server(tmp_path_factory.mktemp("team-server"), [ALICE]) as server:
        yield server


@pytest.fixture
def running_team(team: ScheduleServer) -> ScheduleServer:
    team.start()
    return team


@pytest.fixture(scope="module")
def hosted_url(team: ScheduleServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with hosted_app(team, tmp_path_factory.mktemp("hosted-logs")) as app:
        yield app.url


def first_title(server: ScheduleServer) -> str:
    return ScheduleDatabase(server.database).schedules_in(CURRENT_STATES)[0].title


def test_without_remember_nothing_of_the_person_is_written_to_the_browser(
    running_team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    page = open_page(hosted_url, size=PHONE_SIZE)
    sign_in(page, ALICE, remember=False)
    expect(schedule_row(page, first_title(running_team))).to_be_visible()
    sidebar_read(page)  # the history is saved before the groups show

    assert stored(page) == {}


def test_with_remember_one_record_carries_a_handle_and_its_expiry_never_the_token(
    running_team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    page = open_page(hosted_url, size=PHONE_SIZE)
    signed_at = datetime.now(UTC)
    sign_in(page, ALICE, remember=True)
    expect(schedule_row(page, first_title(running_team))).to_be_visible()
    sidebar_read(page)

    keys = stored(page)
    records = [key for key in keys if key.endswith(RECORD_END)]
    assert len(records) == 1, sorted(keys)
    record = decoded(keys[records[0]])
    assert isinstance(record, dict), "the remembered token is a bare value, not a record"
    assert set(record) == {"handle", "expires_at", "person"}
    expires = datetime.fromisoformat(record["expires_at"]) - timedelta(days=REMEMBER_DAYS)
    assert signed_at - timedelta(minutes=1) <= expires <= datetime.now(UTC)
    assert [key for key in keys if "sign_in" in key] == records
    # Everything else is that person's own namespace; the token stays with the hosted app.
    namespaces = {key.split(APP_KEY)[1].split(".")[0] for key in keys if key not in records}
    assert len(namespaces) == 1
    assert not any(ALICE.token in value for value in keys.values())


def test_sign_out_from_the_unreachable_screen_leaves_nothing_of_the_person(
    running_team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    page = open_page(hosted_url, size=PHONE_SIZE)
    sign_in(page, ALICE, remember=True)
    expect(schedule_row(page, first_title(running_team))).to_be_visible()
    sidebar_read(page)

    try:
        running_team.stop()
        # Without a view cache (dropped, as a cache that does not read back is), a start
        # while the server is away shows the retry screen, not the offline copy. Dropped
        # once the server is away: a live round of this page would keep it again.
        page.evaluate(
            "() => Object.keys(localStorage).filter((k) => k.includes('.view_cache.'))"
            ".forEach((k) => localStorage.removeItem(k))"
        )
        assert len(stored(page)) > 1  # the record, and her sidebar's history
        # A new tab is a new session (a reload would reconnect to this one).
        fresh = page.context.new_page()
        open_app(fresh, hosted_url)
        wait_for_text(fresh, COULD_NOT_BE_CHECKED)
        button(fresh, SIGN_OUT).click()
        wait_for_text(fresh, SIGNED_OUT)
        fresh.wait_for_function(
            "(part) => !Object.keys(localStorage).some((key) => key.includes(part))",
            arg=APP_KEY,
            timeout=UI_TIMEOUT_MS,
        )
        save_screenshot(fresh, "test_browser_storage_signed_out_unreachable")
    finally:
        running_team.start()
    assert stored(fresh) == {}


@pytest.fixture(scope="module")
def local_app(
    team: ScheduleServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    """``schedule-browser --web --server URL`` on loopback; its URL and its data folder."""
    data_home = tmp_path_factory.mktemp("data-home")
    port = free_port()
    argv = [*app_command(), "--web", "--port", str(port), "--server", team.url]
    environment = {TOKEN_ENV: team.token, "XDG_DATA_HOME": str(data_home)}
    with running_process(
        argv, tmp_path_factory.mktemp("local-logs"), port=port, environment=environment
    ):
        yield f"http://{LOOPBACK}:{port}/", data_home / PROGRAM


def files_holding(folder: Path, text: str) -> list[Path]:
    encoded = json.dumps(text)[1:-1]
    return [
        path
        for path in (folder / FOLDER_NAME).rglob("*.json")
        if encoded in path.read_text(encoding="utf-8")
    ]


def test_the_local_web_view_keeps_its_offline_copy_in_the_data_folder_not_the_origin(
    running_team: ScheduleServer, local_app: tuple[str, Path], open_page: PageOpener
) -> None:
    url, data_dir = local_app
    schedule = ScheduleDatabase(running_team.database).schedules_in(CURRENT_STATES)[0]
    earlier = open_page(url, size=PHONE_SIZE)
    # What an earlier version left in this origin's storage goes when a session opens
    # (a new tab: a reload would reconnect to the session already open).
    earlier.evaluate(
        "() => localStorage.setItem('flutter.schedule-browser.earlier.view_cache.index', '{}')"
    )
    page = earlier.context.new_page()
    open_app(page, url)

    schedule_row(page, schedule.title).click()
    wait_for_text(page, "Instruction")
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while not (kept := files_holding(data_dir, schedule.instruction)):
        assert time.monotonic() < deadline, "the detail was not kept in the data folder"
        page.wait_for_timeout(100)

    page.wait_for_function(
        "(part) => !Object.keys(localStorage).some((key) => key.includes(part))",
        arg=APP_KEY,
        timeout=UI_TIMEOUT_MS,
    )
    everything: dict[str, str] = page.evaluate("() => Object.assign({}, localStorage)")
    assert not any(schedule.instruction in value for value in everything.values())
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in kept)
    assert stat.S_IMODE((data_dir / FOLDER_NAME).stat().st_mode) == 0o700
