"""A page's starting locale: the browser's languages in the web view, and Flutter's own."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import flet as ft
import pytest
from babel import Locale

from app.page_locale import device_locale_of, flet_locale
from viewmodels.formatting import DEFAULT_LOCALE


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


@pytest.mark.parametrize(
    ("languages", "expected"),
    [
        pytest.param(["en-US", "en"], "en_US", id="the-first-language"),
        pytest.param(["xx", "de-DE"], "de_DE", id="the-first-cldr-knows"),
        pytest.param(["fr-FR"], "fr_FR", id="formats-for-a-language-without-words"),
        pytest.param([], "en_GB", id="none-the-default"),
        pytest.param(None, "en_GB", id="unsaid-the-default"),
    ],
)
async def test_the_web_view_starts_from_the_browsers_first_known_language(
    languages: list[str] | None, expected: str
) -> None:
    assert str(await device_locale_of(_page(_Browser(languages)))) == expected


async def test_a_browser_that_cannot_say_its_languages_gets_the_default() -> None:
    assert await device_locale_of(_page(TimeoutError())) == DEFAULT_LOCALE


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
