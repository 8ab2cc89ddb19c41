"""The hosted web view speaks each person's language: two browsers, German and Chinese, at once.

A real ``schedule-server`` with two people of one team: Anna (given the demo
data) reads German on a phone (390x844), Wei reads Simplified Chinese on a
desktop (1280x800); one hosted app (``devtools.browser.hosted_app``, plain HTTP
behind a proxy) serves both. The sign-in screen learns each browser's language
once it is shown (``SignInViewModel.learn_locale``): each page's token field,
Remember choice and Sign in button end up in its own language and never in the
other's. Both sign in, ticking Remember; each list's Current section is in its
language. Then the server stops and each person refreshes: each reads the
offline banner (what was read, and when) in their own language.

Expected texts are the catalogs' translations of the app's English words, and
one literal word of each language is checked too, so uncompiled catalogs fail.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from devtools.api_bodies import definition_json
from devtools.browser.accessible_names import REMEMBER, SIGN_IN, TOKEN_FIELD, button
from devtools.browser.cjk_fonts import wait_for_cjk_fonts
from devtools.browser.flutter_page import UI_TIMEOUT_MS, wait_for_text
from devtools.browser.hosted_app import hosted_app, sign_in
from devtools.browser.schedule_server import Member, ScheduleServer, schedule_server
from tests.ui.artifacts import save_screenshot
from tests.ui.conftest import DESKTOP_SIZE, PHONE_SIZE
from tests.ui.page_opener import PageOpener
from viewmodels.language import Words, parsed_locale, words_for
from viewmodels.schedule_list.section import ListSection

pytestmark = pytest.mark.ui

ANNA = Member("anna", "Anna Beispiel", secrets.token_urlsafe(32), tenant="team")
WEI = Member("wei", "Wei Li", secrets.token_urlsafe(32), tenant="team")
WEIS_SCHEDULE = "Wei's weekly report"
REFRESH = "Refresh"
OFFLINE_SENTENCE = "Can't reach the schedule server. Showing what was read at {moment} ({age})."
"""The offline banner's sentence (``viewmodels.offline``); read up to its time."""
TYPING_DELAY_MS = 30


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScheduleServer]:
    with schedule_server(tmp_path_factory.mktemp("language-team"), [ANNA, WEI]) as server:
        with httpx.Client(base_url=server.url) as client:
            response = client.post(
                "/v1/schedules",
                json=definition_json(title=WEIS_SCHEDULE, instruction="Summarise my week."),
                headers={
                    "Authorization": f"Bearer {WEI.token}",
                    "Idempotency-Key": str(uuid.uuid4()),
                },
            )
            assert response.status_code == 201, response.text
        yield server


@pytest.fixture(scope="module")
def hosted_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hosted-languages-logs")


@pytest.fixture(scope="module")
def hosted_url(team: ScheduleServer, hosted_logs: Path) -> Iterator[str]:
    with hosted_app(team, hosted_logs) as app:
        yield app.url


def words_of(browser_language: str) -> Words:
    return words_for(parsed_locale(browser_language))


def reads_sign_in_in(page: Page, words: Words, literal: str, other: Words) -> None:
    """The sign-in form is in ``words``' language (its button says ``literal``), not ``other``'s."""
    sign_in = words.gettext(SIGN_IN)
    assert sign_in == literal, f"the catalog gives {sign_in!r} for {SIGN_IN!r}"
    expect(button(page, sign_in)).to_be_visible()
    expect(page.get_by_role("textbox", name=words.gettext(TOKEN_FIELD))).to_be_visible()
    expect(page.get_by_role("checkbox", name=words.gettext(REMEMBER))).to_be_visible()
    expect(button(page, other.gettext(SIGN_IN))).to_have_count(0)


def kept_for_offline(page: Page) -> None:
    """Until the view cache has written this person's screens to the browser (bounded)."""
    page.wait_for_function(
        "() => Object.keys(localStorage).some((key) => key.includes('.view_cache.'))",
        timeout=UI_TIMEOUT_MS,
    )


def shot(page: Page, name: str) -> None:
    wait_for_cjk_fonts(page)
    save_screenshot(page, name)


def test_two_browsers_in_german_and_chinese_each_read_the_hosted_app_in_their_own_language(
    team: ScheduleServer, hosted_url: str, open_page: PageOpener
) -> None:
    german, chinese = words_of("de-DE"), words_of("zh-CN")
    anna = open_page(hosted_url, size=PHONE_SIZE, locale="de-DE", suffix="de")
    wei = open_page(hosted_url, size=DESKTOP_SIZE, locale="zh-CN", suffix="zh")

    reads_sign_in_in(anna, german, "Anmelden", chinese)
    reads_sign_in_in(wei, chinese, "登录", german)
    shot(anna, "hosted-languages-de-sign-in-phone")
    shot(wei, "hosted-languages-zh-sign-in-desktop")

    sign_in(anna, ANNA, remember=True, words=german)
    sign_in(wei, WEI, remember=True, words=chinese)
    for page, words, literal in ((anna, german, "Aktuell"), (wei, chinese, "当前")):
        current = words.gettext(ListSection.CURRENT.label)
        assert current == literal, f"the catalog gives {current!r} for 'Current'"
        expect(button(page, current)).to_have_attribute("aria-current", "true")
    wait_for_text(wei, WEIS_SCHEDULE)
    kept_for_offline(anna)
    kept_for_offline(wei)

    try:
        team.stop()
        for page, words, literal in (
            (anna, german, "nicht erreichbar"),
            (wei, chinese, "无法连接"),
        ):
            banner = words.gettext(OFFLINE_SENTENCE)
            assert literal in banner, f"the catalog gives {banner!r} for the offline banner"
            button(page, words.gettext(REFRESH)).click()
            wait_for_text(page, banner.split("{moment}")[0])
        wait_for_text(wei, WEIS_SCHEDULE)  # what was read, under the banner
        shot(anna, "hosted-languages-de-offline-phone")
        shot(wei, "hosted-languages-zh-offline-desktop")
    finally:
        team.start()
