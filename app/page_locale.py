"""The person's locale for one Flet page, and the same locale for Flet's own widgets.

A session starts in ``first_locale`` (the system's in a window, the default in
the web view); in the web view ``follow_browser`` then asks the browser for its
preferred languages (per person, so two tabs may differ) once the first screen
is up. A browser that does not answer is not an error: the locale stays.
``flet_locale`` hands the chosen locale to Flutter (date pickers, tooltips,
text direction) through ``page.locale_configuration``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import flet as ft
from babel import Locale

from viewmodels.language import (
    DEFAULT_LOCALE,
    REGIONAL_FORMATS,
    first_known_locale,
    os_locale,
    parsed_locale,
)

ASKING_SECONDS = 5.0
"""How long a page is given to say its languages; no answer leaves the first locale."""


def first_locale(page: ft.Page, explicit: str | None = None) -> Locale:
    """The locale a session starts in, asking nothing: ``explicit`` (``--locale``) when
    given, else the system's in a window, else the default (a browser's languages come
    later: ``follow_browser``)."""
    if explicit:
        return parsed_locale(explicit)
    return DEFAULT_LOCALE if page.web else os_locale() or DEFAULT_LOCALE


async def follow_browser(page: ft.Page, learn: Callable[[Locale], None]) -> None:
    """Ask the web view's browser for its languages and hand ``learn`` the first known one.

    Asked after the first screen, never before it: a round trip to the browser
    must not hold the window back, and a tab closed meanwhile must not find its
    session half made. No answer, or a page gone, leaves the first locale.
    """
    if not page.web:
        return
    try:
        info = await asyncio.wait_for(page.get_device_info(), ASKING_SECONDS)
    except Exception:
        return
    found = first_known_locale(getattr(info, "languages", None) or [])
    if found is not None:
        learn(found)


def flet_locale(locale: Locale) -> ft.LocaleConfiguration:
    """Flutter's locale settings for ``locale``: it first, then the formats Settings offers.

    Flutter hears only a language Settings offers: another one (Arabic, Hebrew) would
    turn the English screens right to left, or ask for words Flutter may lack, so it
    hears English in the person's territory instead.
    """
    offered = [Locale.parse(name) for name, _label in REGIONAL_FORMATS]
    if locale.language in {each.language for each in offered}:
        first = _flutter(locale)
    else:
        first = ft.Locale(language_code="en", country_code=locale.territory)
    flutter = [first, *(_flutter(each) for each in offered)]
    return ft.LocaleConfiguration(supported_locales=flutter, current_locale=first)


def _flutter(locale: Locale) -> ft.Locale:
    return ft.Locale(
        language_code=locale.language,
        country_code=locale.territory,
        script_code=locale.script,
    )
