"""A page's locale: in the web view the browser's languages, the first screen's when the
browser answers in time and learnt after it otherwise (or asked once a screen is up),
the default until then; and Flutter's own."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import cast

import flet as ft
import pytest
from babel import Locale

from app.page_locale import BrowserLocale, first_locale, flet_locale, follow_browser
from viewmodels.language import DEFAULT_LOCALE


@dataclass
class _Browser:
    languages: list[str] | None = field(default_factory=list)


class _WebPage:
    web = True

    def __init__(self, answer: _Browser | Exception, said: asyncio.Event | None = None) -> None:
        self._answer = answer
        self._said = said
        self.asked = 0

    async def get_device_info(self) -> _Browser:
        self.asked += 1
        if self._said is not None:
            await self._said.wait()
        if isinstance(self._answer, Exception):
            raise self._answer
        return self._answer


def _page(answer: _Browser | Exception, said: asyncio.Event | None = None) -> ft.Page:
    return cast(ft.Page, _WebPage(answer, said))


async def _learnt(answer: _Browser | Exception) -> list[str]:
    learnt: list[Locale] = []
    await follow_browser(_page(answer), learnt.append)
    return [str(locale) for locale in learnt]


def test_the_web_view_starts_in_the_default_asking_nothing_first() -> None:
    assert first_locale(_page(_Browser(["de-DE"]))) == DEFAULT_LOCALE


@pytest.mark.parametrize(
    ("languages", "expected"),
    [
        pytest.param(["en-US", "en"], ["en_US"], id="the-first-language"),
        pytest.param(["xx", "de-DE"], ["de_DE"], id="the-first-cldr-knows"),
        pytest.param(["fr-FR"], ["fr_FR"], id="formats-for-a-language-without-words"),
        pytest.param([], [], id="none-keeps-the-first"),
        pytest.param(None, [], id="unsaid-keeps-the-first"),
    ],
)
async def test_the_web_view_then_follows_the_browsers_first_known_language(
    languages: list[str] | None, expected: list[str]
) -> None:
    assert await _learnt(_Browser(languages)) == expected


@pytest.mark.parametrize(
    "failure", [TimeoutError(), RuntimeError("Session closed")], ids=["mute", "page-gone"]
)
async def test_a_browser_that_cannot_say_its_languages_keeps_the_first_locale(
    failure: Exception,
) -> None:
    assert await _learnt(failure) == []


async def test_the_first_screen_opens_in_the_browsers_language_when_it_answers_in_time() -> None:
    page = _page(_Browser(["de-DE", "en"]))
    browser = BrowserLocale(page)
    learnt: list[Locale] = []

    opening = await browser.opening()
    browser.follow(learnt.append)
    await asyncio.sleep(0)  # a late answer would be handed on by now

    assert str(opening) == "de_DE"
    assert learnt == [], "the first screen is already in it: nothing to draw again"
    assert cast(_WebPage, page).asked == 1


async def test_an_answer_after_the_first_screen_is_learnt_when_it_comes() -> None:
    said, heard = asyncio.Event(), asyncio.Event()
    browser = BrowserLocale(_page(_Browser(["zh-CN"]), said), wait=0)
    learnt: list[Locale] = []

    def learn(locale: Locale) -> None:
        learnt.append(locale)
        heard.set()

    opening = await browser.opening()
    browser.follow(learn)
    said.set()
    await asyncio.wait_for(heard.wait(), 5)

    assert opening == DEFAULT_LOCALE
    assert [str(locale) for locale in learnt] == ["zh_Hans_CN"]


@pytest.mark.parametrize(
    "answer",
    [_Browser([]), _Browser(None), RuntimeError("Session closed")],
    ids=["none", "unsaid", "page-gone"],
)
async def test_a_browser_without_a_known_language_opens_and_stays_in_the_default(
    answer: _Browser | Exception,
) -> None:
    browser = BrowserLocale(_page(answer))
    learnt: list[Locale] = []

    assert await browser.opening() == DEFAULT_LOCALE
    browser.follow(learnt.append)
    assert learnt == []


async def test_a_chosen_locale_or_a_window_asks_the_browser_nothing() -> None:
    chosen = _page(_Browser(["de-DE"]))
    window = _page(_Browser(["de-DE"]))
    cast(_WebPage, window).web = False

    assert str(await BrowserLocale(chosen, "fr_FR").opening()) == "fr_FR"
    await BrowserLocale(window).opening()
    assert cast(_WebPage, chosen).asked == cast(_WebPage, window).asked == 0


def test_flutters_widgets_get_the_persons_locale_first() -> None:
    configured = flet_locale(Locale.parse("zh_Hans_CN"))
    current = configured.current_locale
    assert current is not None
    assert (current.language_code, current.script_code, current.country_code) == (
        "zh",
        "Hans",
        "CN",
    )
    assert ("de", "DE") in [
        (each.language_code, each.country_code) for each in configured.supported_locales
    ]


@pytest.mark.parametrize("name", ["ar_SA", "he_IL", "fy_NL"])
def test_a_language_the_app_does_not_offer_reaches_flutter_as_english_left_to_right(
    name: str,
) -> None:
    current = flet_locale(Locale.parse(name)).current_locale
    assert current is not None
    assert (current.language_code, current.country_code) == ("en", Locale.parse(name).territory)
