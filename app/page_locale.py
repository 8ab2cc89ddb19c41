"""The person's locale for one Flet page, and the same locale for Flet's own widgets.

``device_locale_of`` is the locale a session starts from before Settings: the
browser's preferred languages in the web view (per person, so two tabs may
differ), the system's in a window. A browser that does not answer is not an
error: the app's default is used. ``flet_locale`` hands the chosen locale to
Flutter (date pickers, tooltips, text direction) through ``page.locale_configuration``.
"""

from __future__ import annotations

import asyncio

import flet as ft
from babel import Locale

from viewmodels.formatting.clock_text import DEFAULT_LOCALE
from viewmodels.formatting.locales import REGIONAL_FORMATS, first_known_locale, os_locale

ASKING_SECONDS = 5.0
"""How long a page is given to say its languages before the default is used."""


async def device_locale_of(page: ft.Page) -> Locale:
    """The browser's first known language in the web view, else the system's, else the default."""
    if not page.web:
        return os_locale() or DEFAULT_LOCALE
    try:
        info = await asyncio.wait_for(page.get_device_info(), ASKING_SECONDS)
    except (TimeoutError, RuntimeError, ValueError, TypeError, KeyError):
        return DEFAULT_LOCALE
    languages = getattr(info, "languages", None) or []
    return first_known_locale(languages) or DEFAULT_LOCALE


def flet_locale(locale: Locale) -> ft.LocaleConfiguration:
    """Flutter's locale settings for ``locale``: it first, then the formats Settings offers."""
    offered = [locale, *(Locale.parse(name) for name, _label in REGIONAL_FORMATS)]
    flutter = [_flutter(each) for each in offered]
    return ft.LocaleConfiguration(supported_locales=flutter, current_locale=flutter[0])


def _flutter(locale: Locale) -> ft.Locale:
    return ft.Locale(
        language_code=locale.language,
        country_code=locale.territory,
        script_code=locale.script,
    )
