"""A page's locale: the default at first in the web view, then the browser's languages
once it answers (asked after the first screen), and Flutter's own."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import flet as ft
import pytest
from babel import Locale

from app.page_locale import first_locale, flet_locale, follow_browser
from viewmodels.language import DEFAULT_LOCALE


@dataclass
class _Browser:
    languages: list[str] | None = field(default_factory=list)


class _WebPage:
    web = True

    def __init__(self, answer: _Browser | Exception) -> None:
        self._answer = answer

    async def get_device_info(self) -> _Browser:
        if isinstance(self._answer, Exception):
            raise self._answer
        return self._answer


def _page(answer: _Browser | Exception) -> ft.Page:
    return cast(ft.Page, _WebPage(answer))


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
