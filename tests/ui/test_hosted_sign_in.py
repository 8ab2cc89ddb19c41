"""The web view a team hosts for phones: each person signs in, and nobody sees anyone else.

A real ``schedule-server`` runs with a principals file of three people of one
team: Alice (given the demo data), Bob and Carol (each given schedules of
their own through the API, with their own tokens). The app serves it as a
team would: over HTTPS from its own certificate on every interface
(``--host 0.0.0.0 --certfile --keyfile``), and, for the keyboard test, as
plain HTTP for a reverse proxy (``--behind-proxy``). The phone tests run at
390x844, the keyboard test at 1280x800. The sign-in lifetime test waits for
Flet to end the session once its grace is over (Flet's log says so).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from devtools.api_bodies import definition_json
from devtools.browser.accessible_names import (
    HISTORY_TAB,
    NEXT_ON_12_HOUR_CLOCK,
    OPEN_SIDEBAR,
    ROW_NAME,
    SIGN_IN,
    SIGN_OUT,
    button,
    remember_choice,
    schedule_row,
    schedule_rows,
    token_field,
)
from devtools.browser.flutter_page import (
    UI_TIMEOUT_MS,
    accessible_texts,
    choose,
    enable_semantics,
    open_app,
    wait_for_text,
)
from devtools.browser.hosted_app import hosted_app, sign_in
from devtools.browser.schedule_server import Member, ScheduleServer, schedule_server
from devtools.self_signed import CertificatePair, self_signed
from tests.polling import eventually
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener
from tests.ui.schedule_database import CURRENT_STATES, ScheduleDatabase
from viewmodels.sign_in import EMPTY_TOKEN, REVOKED, SIGNED_OUT, TOKEN_REFUSED

pytestmark = pytest.mark.ui

ALICE = Member("alice", "Alice Example", secrets.token_urlsafe(32), tenant="team")
BOB = Member("bob", "Bob Example", secrets.token_urlsafe(32), tenant="team")
CAROL = Member("carol", "Carol Example", secrets.token_urlsafe(32), tenant="team")
OWN_SCHEDULES = {
    BOB: ("Bob's plant watering reminder", "Bob's invoice follow-up"),
    CAROL: ("Carol's backup check",),
}
LIST_FAILED = "Schedules could not be loaded"
SHOW_TOKEN = "Show token"
TYPING_DELAY_MS = 30
"""Between keystrokes: Flutter on a busy 2-core machine drops keys typed faster."""
TOKEN_REMEMBERED = "sign_in.token"
"""The end of the device-storage key under which a remembered token is kept."""


def give_own_schedules(server: ScheduleServer) -> None:
    """Bob's and Carol's schedules, created through the API with their own tokens."""
    with httpx.Client(base_url=server.url) as client:
        for member, titles in OWN_SCHEDULES.items():
            for title in titles:
                response = client.post(
                    "/v1/schedules",
                    json=definition_json(title=title, instruction=f"{title}: report briefly."),
                    headers={
                        "Authorization": f"Bearer {member.token}",
                        "Idempotency-Key": str(uuid.uuid4()),
                    },
                )
                assert response.status_code == 201, response.text


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScheduleServer]:
    work = tmp_path_factory.mktemp("team-server")
    with schedule_server(work, [ALICE, BOB, CAROL]) as server:
        give_own_schedules(server)
        yield server


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> CertificatePair:
    return self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def hosted_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hosted-app-logs")


@pytest.fixture(scope="module")
def hosted_url(
    team: ScheduleServer, certificate: CertificatePair, hosted_logs: Path
) -> Iterator[str]:
    with hosted_app(team, hosted_logs, certificate=certificate) as app:
        yield app.url


@pytest.fixture
def running_team(team: ScheduleServer) -> ScheduleServer:
    """The server up at the start of each test, whatever the one before left."""
    team.start()
    return team


def phone(open_page: PageOpener, url: str, suffix: str = "") -> Page:
    return open_page(url, size=PHONE_SIZE, trust_any_certificate=True, suffix=suffix)


def row_titles(page: Page) -> set[str]:
    return {match["title"] for text in accessible_texts(page) if (match := ROW_NAME.match(text))}


def alices_titles(server: ScheduleServer) -> list[str]:
    """The demo's current schedules (Alice's), newest first, as the list shows them."""
    others = {title for titles in OWN_SCHEDULES.values() for title in titles}
    stored = ScheduleDatabase(server.database).schedules_in(CURRENT_STATES)
    return [schedule.title for schedule in stored if schedule.title not in others]


def app_keys(page: Page) -> list[str]:
    """The app's device-storage keys in this browser's storage."""
    keys: list[str] = page.evaluate("Object.keys(localStorage)")
    return [key for key in keys if "schedule-browser." in key]


def remembered_keys(page: Page) -> list[str]:
    return [key for key in app_keys(page) if key.endswith(TOKEN_REMEMBERED)]


def wait_until_forgotten(page: Page, ending: str = "") -> None:
    """The app clears storage after it has shown the sign-in screen: wait (bounded) for it."""
    page.wait_for_function(
        """(ending) => !Object.keys(localStorage).some(
            (key) => key.includes("schedule-browser.") && key.endsWith(ending))""",
        arg=ending,
        timeout=UI_TIMEOUT_MS,
    )


def test_two_people_signed_in_at_once_each_see_only_their_own_schedules_sidebar_and_selection(
    running_team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    alice_first = alices_titles(running_team)[0]
    bob_first, bob_second = OWN_SCHEDULES[BOB]
    alice = phone(open_page, hosted_url, "alice")
    bob = phone(open_page, hosted_url, "bob")

    sign_in(alice, ALICE)
    sign_in(bob, BOB)
    expect(schedule_row(alice, alice_first)).to_be_visible()
    expect(schedule_row(bob, bob_second)).to_be_visible()
    expect(schedule_rows(bob)).to_have_count(2)

    assert row_titles(bob) == {bob_first, bob_second}
    assert row_titles(alice).isdisjoint(OWN_SCHEDULES[BOB])

    # Alice opens a schedule: only her screen follows.
    schedule_row(alice, alice_first).click()
    wait_for_text(alice, "Instruction")
    assert "/schedules/" in alice.url
    assert "/schedules/" not in bob.url
    expect(schedule_row(bob, bob_first)).to_be_visible()

    # Each sidebar names its own person; Alice's holds the demo's chats, Bob's none.
    button(alice, "Back").click()
    button(alice, OPEN_SIDEBAR).click()
    wait_for_text(alice, f"Signed in as {ALICE.display_name}")
    wait_for_text(alice, "Scheduled")
    button(bob, OPEN_SIDEBAR).click()
    wait_for_text(bob, f"Signed in as {BOB.display_name}")
    bob_texts = set(accessible_texts(bob))
    assert not any(ALICE.display_name in text for text in bob_texts)
    assert "Scheduled" not in bob_texts and "Folders" not in bob_texts


def test_a_wrong_token_is_refused_with_a_sentence_and_nothing_is_shown(
    running_team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    page = phone(open_page, hosted_url)

    button(page, SIGN_IN).click()
    wait_for_text(page, EMPTY_TOKEN)

    sign_in(page, Member("nobody", "Nobody", "not-a-token-of-this-team"))
    wait_for_text(page, TOKEN_REFUSED)
    expect(token_field(page)).to_be_visible()
    expect(schedule_rows(page)).to_have_count(0)
    assert remembered_keys(page) == []


def test_remember_survives_a_reload_and_a_new_tab_and_sign_out_forgets_it(
    running_team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    alice_first = alices_titles(running_team)[0]
    forgetful = phone(open_page, hosted_url, "not-remembered")
    sign_in(forgetful, ALICE)
    expect(schedule_row(forgetful, alice_first)).to_be_visible()
    not_remembered = forgetful.context.new_page()
    open_app(not_remembered, hosted_url)
    expect(token_field(not_remembered)).to_be_visible()

    page = phone(open_page, hosted_url, "remembered")
    sign_in(page, ALICE, remember=True)
    expect(schedule_row(page, alice_first)).to_be_visible()
    assert len(remembered_keys(page)) == 1

    page.reload()
    enable_semantics(page)
    expect(schedule_row(page, alice_first)).to_be_visible()
    expect(token_field(page)).to_have_count(0)

    # A new tab is a new session of the app: only the remembered token signs it in.
    second = page.context.new_page()
    open_app(second, hosted_url)
    expect(schedule_row(second, alice_first)).to_be_visible()
    expect(token_field(second)).to_have_count(0)
    second.close()
    assert len(app_keys(page)) > len(remembered_keys(page)) == 1  # her cached chats too

    button(page, OPEN_SIDEBAR).click()
    button(page, SIGN_OUT).click()
    wait_for_text(page, SIGNED_OUT)
    # The token and everything this browser kept for Alice (her cached chats) go.
    wait_until_forgotten(page)
    assert app_keys(page) == []

    page.reload()
    enable_semantics(page)
    expect(token_field(page)).to_be_visible()
    third = page.context.new_page()
    open_app(third, hosted_url)
    expect(token_field(third)).to_be_visible()
    expect(schedule_rows(third)).to_have_count(0)


def test_a_remembered_sign_in_opens_in_the_browsers_formats(
    running_team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    page = open_page(hosted_url, size=PHONE_SIZE, trust_any_certificate=True, locale="en-US")
    sign_in(page, ALICE, remember=True)
    expect(page.get_by_role("button", name=NEXT_ON_12_HOUR_CLOCK).first).to_be_attached()

    # The remembered token opens her screens at once: in her browser's formats still.
    page.reload()
    enable_semantics(page)
    expect(token_field(page)).to_have_count(0)
    expect(page.get_by_role("button", name=NEXT_ON_12_HOUR_CLOCK).first).to_be_attached()
    button(page, OPEN_SIDEBAR).click()
    button(page, SIGN_OUT).click()
    wait_until_forgotten(page)


def test_an_outage_shows_retry_and_a_revoked_token_returns_to_sign_in_with_the_reason(
    running_team: ScheduleServer,
    hosted_url: str,
    hosted_logs: Path,
    open_page: PageOpener,
) -> None:
    carols = OWN_SCHEDULES[CAROL][0]
    page = phone(open_page, hosted_url)
    sign_in(page, CAROL, remember=True)
    expect(schedule_row(page, carols)).to_be_visible()

    try:
        running_team.stop()
        # Recent History was never read: nothing kept for it to show offline.
        choose(button(page, HISTORY_TAB))
        wait_for_text(page, LIST_FAILED)
        expect(button(page, "Retry")).to_be_visible()
        expect(token_field(page)).to_have_count(0)  # an outage is not a sign-out

        running_team.set_enabled(CAROL.principal_id, False)
        running_team.start()
        button(page, "Retry").click()

        wait_for_text(page, REVOKED)
        expect(token_field(page)).to_be_visible()
        expect(schedule_rows(page)).to_have_count(0)
        wait_until_forgotten(page, TOKEN_REMEMBERED)
    finally:
        running_team.stop()
        running_team.set_enabled(CAROL.principal_id, True)
        running_team.start()
    stderr = (hosted_logs / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in stderr, f"the app logged a traceback:\n{stderr[-3000:]}"
    assert CAROL.token not in stderr


@pytest.fixture(scope="module")
def proxied_url(team: ScheduleServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with hosted_app(team, tmp_path_factory.mktemp("proxied-app-logs")) as app:
        yield app.url


def test_the_sign_in_screen_works_from_the_keyboard_and_enter_submits(
    running_team: ScheduleServer, proxied_url: str, open_page: PageOpener
) -> None:
    alice_first = alices_titles(running_team)[0]
    page = open_page(proxied_url, size=DESKTOP_SIZE)
    expect(token_field(page)).to_be_focused()

    page.keyboard.type("a-wrong-token", delay=TYPING_DELAY_MS)
    page.keyboard.press("Enter")
    wait_for_text(page, TOKEN_REFUSED)
    expect(token_field(page)).to_be_focused()

    page.keyboard.press("Control+A")
    page.keyboard.type(ALICE.token, delay=TYPING_DELAY_MS)
    page.keyboard.press("Tab")
    expect(button(page, SHOW_TOKEN)).to_be_focused()
    page.keyboard.press("Tab")
    expect(remember_choice(page)).to_be_focused()
    page.keyboard.press("Space")
    expect(remember_choice(page)).to_be_checked()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    expect(token_field(page)).to_be_focused()
    page.keyboard.press("Enter")

    expect(schedule_row(page, alice_first)).to_be_visible()
    wait_for_text(page, f"Signed in as {ALICE.display_name}")
    assert len(remembered_keys(page)) == 1


VIEW_CACHE = ".view_cache."
"""Part of every device-storage key the view cache writes."""
OFFLINE_BANNER = "Can't reach the schedule server. Showing what was read at"


def wait_until_unreadable(page: Page, text: str) -> None:
    """Poll the tree until no node reads ``text`` (bounded), or fail saying so."""
    eventually(
        lambda: not any(text in found for found in accessible_texts(page)),
        f"no longer readable in the accessibility tree: {text[:80]!r}…",
        within=UI_TIMEOUT_MS / 1000,
        every=0.2,
    )


def view_cache_keys(page: Page) -> list[str]:
    return [key for key in app_keys(page) if VIEW_CACHE in key]


def test_only_a_person_who_ticked_remember_sees_what_was_read_offline_and_sign_out_erases_it(
    running_team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    alice_first = alices_titles(running_team)[0]
    bob_first = OWN_SCHEDULES[BOB][0]
    forgetful = phone(open_page, hosted_url, "not-remembered")
    sign_in(forgetful, BOB)
    expect(schedule_row(forgetful, bob_first)).to_be_visible()
    remembered = phone(open_page, hosted_url, "remembered")
    sign_in(remembered, ALICE, remember=True)
    expect(schedule_row(remembered, alice_first)).to_be_visible()
    remembered.wait_for_function(
        "() => Object.keys(localStorage).some((key) => key.includes('.view_cache.'))",
        timeout=UI_TIMEOUT_MS,
    )
    assert view_cache_keys(forgetful) == []

    try:
        running_team.stop()
        button(forgetful, "Refresh").click()
        button(remembered, "Refresh").click()

        wait_for_text(forgetful, LIST_FAILED)
        expect(schedule_rows(forgetful)).to_have_count(0)
        assert not any(OFFLINE_BANNER in text for text in accessible_texts(forgetful))
        wait_for_text(remembered, OFFLINE_BANNER)
        expect(schedule_row(remembered, alice_first)).to_be_visible()

        # A new tab (the home-screen app) cannot ask the server who she is: the
        # remembered sign-in opens on what this browser read for her, and says so.
        fresh = remembered.context.new_page()
        open_app(fresh, hosted_url)
        wait_for_text(fresh, OFFLINE_BANNER)
        expect(schedule_row(fresh, alice_first)).to_be_visible()
        expect(token_field(fresh)).to_have_count(0)
        save_screenshot(fresh, "test_hosted_new_tab_offline")
        # Bob's browser kept nothing: a new tab of his is the sign-in form, no rows.
        forgetful_fresh = forgetful.context.new_page()
        open_app(forgetful_fresh, hosted_url)
        expect(token_field(forgetful_fresh)).to_be_visible()
        expect(schedule_rows(forgetful_fresh)).to_have_count(0)
        forgetful_fresh.close()

        # The server is back: the token is checked for real, the banner goes.
        running_team.start()
        button(fresh, "Retry").click()
        wait_until_unreadable(fresh, OFFLINE_BANNER)
        expect(schedule_row(fresh, alice_first)).to_be_visible()
        expect(token_field(fresh)).to_have_count(0)
        fresh.close()

        button(remembered, OPEN_SIDEBAR).click()
        button(remembered, SIGN_OUT).click()
        wait_for_text(remembered, SIGNED_OUT)
        wait_until_forgotten(remembered)
        assert view_cache_keys(remembered) == []
    finally:
        running_team.start()


SESSION_ID_KEY = "_flet_session_id"
"""Where Flet's web client keeps its session id (the tab's sessionStorage)."""
SHORT_GRACE_S = 15
"""The grace of the app the grace test runs against, set as an operator would
(``FLET_SESSION_TIMEOUT``): the ending is the same at any grace, and the hosted
default (60 s, pinned in ``tests/app/web/test_origin.py``) would cost a minute
more. A shorter one would race the tab that comes back within it on a loaded machine."""
ENDED_WITHIN_S = SHORT_GRACE_S + 10 + 30
"""Flet ends an expired session at its next look (every 10 s); the rest for a loaded machine."""
SESSION_ENDED = "Delete session"
"""Flet's log line (at info) when it ends a session: ``Delete session (0 left): <key>``."""


@dataclass(frozen=True, slots=True)
class ShortGraceApp:
    url: str
    logs: Path

    def wait_until_ended(self, session_id: str) -> None:
        """Until Flet's log says that the session ``session_id`` has ended."""
        stderr = self.logs / "stderr.txt"
        eventually(
            lambda: any(
                SESSION_ENDED in line and session_id in line
                for line in stderr.read_text(encoding="utf-8", errors="replace").splitlines()
            ),
            f"Flet to end session {session_id} after its grace",
            within=ENDED_WITHIN_S,
            every=0.2,
        )


@pytest.fixture
def short_grace(
    team: ScheduleServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ShortGraceApp]:
    logs = tmp_path_factory.mktemp("short-grace-app-logs")
    with hosted_app(team, logs, session_grace_seconds=SHORT_GRACE_S, log_level="info") as app:
        yield ShortGraceApp(app.url, logs)
    stderr = (logs / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in stderr, f"the app logged a traceback:\n{stderr[-3000:]}"


def tab(browser: Browser, url: str, session_id: str | None = None) -> Page:
    """A phone-sized tab in a fresh browser context; with ``session_id``, one that carries
    that id, as a restored or duplicated tab does (the caller closes its context)."""
    context = browser.new_context(viewport=PHONE_SIZE)
    context.set_default_timeout(UI_TIMEOUT_MS)
    if session_id is not None:
        context.add_init_script(f"sessionStorage.setItem({SESSION_ID_KEY!r}, {session_id!r})")
    page = context.new_page()
    open_app(page, url)
    return page


def test_a_sign_in_without_remember_ends_once_its_tab_has_been_gone_for_the_grace(
    running_team: ScheduleServer, short_grace: ShortGraceApp, browser: Browser
) -> None:
    alice_first = alices_titles(running_team)[0]
    first = tab(browser, short_grace.url)
    try:
        sign_in(first, ALICE)
        expect(schedule_row(first, alice_first)).to_be_visible()
        session_id = first.evaluate(f"sessionStorage.getItem({SESSION_ID_KEY!r})")
        assert session_id
    finally:
        first.context.close()  # the tab is closed: its connection is gone

    # Within the grace (a phone changing networks), the session resumes signed in.
    again = tab(browser, short_grace.url, session_id)
    try:
        expect(schedule_row(again, alice_first)).to_be_visible()
        expect(token_field(again)).to_have_count(0)
        save_screenshot(again, "test_a_sign_in_without_remember_ends-within-grace")
    finally:
        again.context.close()

    # After it, the old session id leads to the sign-in screen: nobody is signed in.
    short_grace.wait_until_ended(session_id)
    later = tab(browser, short_grace.url, session_id)
    try:
        expect(token_field(later)).to_be_visible()
        expect(schedule_rows(later)).to_have_count(0)
        assert remembered_keys(later) == []
        save_screenshot(later, "test_a_sign_in_without_remember_ends-after-grace")
    finally:
        later.context.close()
