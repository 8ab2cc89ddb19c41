"""The person's locale for one Flet page, and the same locale for Flutter's own widgets.

A session starts in ``first_locale`` (``--locale``, else the system's in a
window, else the default). In the web view the browser is asked for its
preferred languages (per person, so two tabs may differ): ``BrowserLocale``
opens the first screen in its answer when it comes within ``FIRST_SCREEN_WAIT``
(so the screens are not drawn, and their data read, twice), and hands a later
answer on; ``follow_browser`` asks once a screen is up (the hosted sign-in's).
A browser that does not answer is not an error: the locale stays.
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
FIRST_SCREEN_WAIT = 1.0
"""How long the web view's first screen waits for the browser's languages."""


def first_locale(page: ft.Page, explicit: str | None = None) -> Locale:
    """The locale a session starts in, asking nothing: ``explicit`` (``--locale``) when
    given, else the system's in a window, else the default (a browser's languages come
    from ``BrowserLocale`` or ``follow_browser``)."""
    if explicit:
        return parsed_locale(explicit)
    return DEFAULT_LOCALE if page.web else os_locale() or DEFAULT_LOCALE


async def follow_browser(page: ft.Page, learn: Callable[[Locale], None]) -> None:
    """Ask the web view's browser for its languages and hand ``learn`` the first known one.

    No answer, or a page gone, leaves the first locale.
    """
    if not page.web:
        return
    found = await _browser_locale(page)
    if found is not None:
        learn(found)


class BrowserLocale:
    """The web view's browser asked for its languages as the session opens, asked once.

    ``opening`` is the locale of the first screen: the browser's first known
    language when it answers within ``wait`` seconds, else ``first_locale``;
    an answer that comes later goes to ``follow``'s ``learn``. Nothing is asked
    in a window or when ``--locale`` chose.
    """

    def __init__(
        self, page: ft.Page, explicit: str | None = None, *, wait: float = FIRST_SCREEN_WAIT
    ) -> None:
        self._first = first_locale(page, explicit)
        self._wait = wait
        self._asking = (
            None if explicit or not page.web else asyncio.ensure_future(_browser_locale(page))
        )
        self._opened_in_answer = False

    async def opening(self) -> Locale:
        if self._asking is None:
            return self._first
        await asyncio.wait({self._asking}, timeout=self._wait)
        self._opened_in_answer = self._asking.done()
        return _answer(self._asking) or self._first

    def follow(self, learn: Callable[[Locale], None]) -> None:
        """``learn`` the browser's answer if it comes after the first screen."""
        if self._asking is None or self._opened_in_answer:
            return

        def answered(asking: asyncio.Future[Locale | None]) -> None:
            found = _answer(asking)
            if found is not None:
                learn(found)

        self._asking.add_done_callback(answered)


def _answer(asking: asyncio.Future[Locale | None]) -> Locale | None:
    return asking.result() if asking.done() and not asking.cancelled() else None


async def _browser_locale(page: ft.Page) -> Locale | None:
    """The browser's first known language; None when it says none, is mute or gone."""
    try:
        info = await asyncio.wait_for(page.get_device_info(), ASKING_SECONDS)
    except Exception:
        return None
    return first_known_locale(getattr(info, "languages", None) or [])


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
