"""From validated settings to a running app, and back out cleanly.

Order matters: decide window or browser (fetching Flet's desktop client when a
window needs it: Flet cannot recover from a missing client offline), check the
port, open the backend so a failure is one sentence, then hand each session's
entry to Flet's window loop or to the web server (``app.web.server``); leaving the
loop closes the backend. In a browser the web server starts first, importing no
more than a minimal Flet app needs: the client and the embedded server load in
worker threads while the page loads, and a session that arrives sooner waits for
the backend. Serving others (``Settings.signs_in``) opens a ``SignInBackend``
instead, and each browser session signs in (``app.sign_in_session``).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import flet as ft
import tzlocal

from app.command_line_words import person_locale, words_of_setting
from app.flet_logs import redact_flet_logs
from app.presentation import Presentation, View, decide_presentation
from app.settings import (
    RemoteServerSettings,
    Settings,
    WebAddress,
)
from app.startup_error import StartupError
from app.web.port import choose_port
from app.web.server import page_url, serve_web
from viewmodels.language import words_for

if TYPE_CHECKING:
    from app.backend.connected import Backend
    from app.backend.remote import SignInBackend
    from viewmodels.language import Words

__all__ = ["StartupError", "run_app"]

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
"""``assets/`` at the project root (icon, splash, web manifest), shared with ``flet build``."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def current_presentation(settings: Settings) -> Presentation:
    locale = person_locale(settings.locale)

    def client_cached() -> bool:
        from app.desktop_client import client_present, client_release

        return client_present(client_release(os.environ), os.environ)

    def fetch_client() -> None:
        from app.desktop_client import fetch_over_network

        fetch_over_network(os.environ, time.monotonic, sys.stdout, locale=locale)

    return decide_presentation(
        platform=sys.platform,
        env=os.environ,
        client_cached=client_cached,
        fetch_client=fetch_client,
        web_requested=settings.web,
        desktop_requested=settings.desktop,
        words=words_for(locale),
    )


async def run_app(settings: Settings) -> None:
    """Runs until the window closes or Ctrl+C; raises ``StartupError`` before any UI."""
    redact_flet_logs()  # the window's client too: see app.flet_logs
    zone = tzlocal.get_localzone()
    words = words_of_setting(settings.locale)
    if settings.signs_in:
        await _serve_others(settings, zone, words)
        return
    presentation = current_presentation(settings)
    address = settings.web_address
    port = (
        choose_port(settings.port, address.host, words=words)
        if presentation.view is View.WEB
        else 0
    )
    if presentation.view is View.WEB:
        await _serve_web_while_opening(settings, presentation, port, zone, words)
        return
    from app.backend import open_backend
    from app.notifications import OsNotifications
    from app.session import session_entry

    async with open_backend(settings.server, clock=utc_now, words=words) as backend:
        entry = session_entry(backend, clock=utc_now, device_zone=zone, locale=settings.locale)
        if presentation.view is View.PACKAGED:
            await ft.run_async(entry, assets_dir=_assets_dir())
            return
        if presentation.view is View.DESKTOP:
            _announce_desktop(backend, words)
            if settings.os_notifications:
                entry = session_entry(
                    backend,
                    clock=utc_now,
                    device_zone=zone,
                    announce=OsNotifications(words=words),
                    locale=settings.locale,
                )
            await ft.run_async(entry, view=ft.AppView.FLET_APP, assets_dir=_assets_dir())


async def _serve_web_while_opening(
    settings: Settings, presentation: Presentation, port: int, zone: ZoneInfo, words: Words
) -> None:
    """The web server from the start; the backend opens while the browser loads the page."""
    address = settings.web_address
    opened: asyncio.Future[Backend | None] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    serving = asyncio.create_task(
        serve_web(
            _entry_once_open(opened, zone, settings.locale),
            address=address,
            port=port,
            assets_dir=_assets_dir_path(),
            open_browser=presentation.open_browser,
            stop=stop,
            limits=settings.web_limits,
        )
    )
    try:
        embedded = not isinstance(settings.server, RemoteServerSettings)
        await asyncio.to_thread(_load_client, embedded=embedded)
        from app.backend import open_backend

        async with open_backend(settings.server, clock=utc_now, words=words) as backend:
            opened.set_result(backend)
            _announce_web(backend, presentation, address, port, words)
            await serving
    finally:
        if not opened.done():
            opened.set_result(None)
        if not serving.done():
            stop.set()
            await serving


def _load_client(*, embedded: bool) -> None:
    """In a worker thread, while the page loads: the client the first session needs
    and, for the embedded server, the module the loop opens it through next, so
    that neither is imported on the loop, where it would hold up the page's files.

    The themes are made once here too: Flet imports its theme classes (a
    large module) on first use, which would otherwise be the first session's.
    """
    from app.session import session_entry  # noqa: F401 - imported for the first session
    from views.look import themes

    themes()
    if embedded:
        import server.embedded  # noqa: F401 - opened next, on the loop


def _entry_once_open(
    opened: asyncio.Future[Backend | None], zone: ZoneInfo, locale: str | None
) -> Callable[[ft.Page], Awaitable[None]]:
    """Each session's entry, once the backend is open; nothing when it could not be had
    (the start is ending with its one sentence)."""

    async def start(page: ft.Page) -> None:
        backend = await asyncio.shield(opened)
        if backend is not None:
            from app.session import session_entry

            await session_entry(backend, clock=utc_now, device_zone=zone, locale=locale)(page)

    return start


async def _serve_others(settings: Settings, zone: ZoneInfo, words: Words) -> None:
    server = settings.server
    if not isinstance(server, RemoteServerSettings) or server.token is not None:
        # The command line refuses this; a Settings built elsewhere must not slip past.
        raise StartupError(
            words.gettext("Serving other devices needs --server URL and no token of its own.")
        )
    from app.backend.remote import open_sign_in_backend
    from app.remembered_tokens import RememberedTokens
    from app.sign_in_session import sign_in_entry

    address = settings.web_address
    port = choose_port(settings.port, address.host, words=words)
    async with open_sign_in_backend(server, words=words) as backend:
        entry = sign_in_entry(
            backend,
            RememberedTokens(server.device_dir, utc_now),
            clock=utc_now,
            device_zone=zone,
            remember_for=timedelta(days=settings.remember_days),
            locale=settings.locale,
        )
        _announce_hosted(backend, address, port, words)
        await serve_web(
            entry,
            address=address,
            port=port,
            assets_dir=_assets_dir_path(),
            limits=settings.web_limits,
        )


def _assets_dir_path() -> Path | None:
    return ASSETS_DIR if ASSETS_DIR.is_dir() else None


def _assets_dir() -> str | None:
    found = _assets_dir_path()
    return str(found) if found is not None else None


def _announce_desktop(backend: Backend, words: Words) -> None:
    # Translators: {server} names the schedule server ("the embedded schedule server (…)").
    opening = words.gettext("Schedule Browser: opening a window on {server}.")
    print(opening.format(server=backend.description), flush=True)


def _announce_web(
    backend: Backend, presentation: Presentation, address: WebAddress, port: int, words: Words
) -> None:
    if presentation.reason:
        # Translators: {reason} says why the app shows in the browser, not in a window.
        instead = words.gettext("Schedule Browser: {reason}")
        print(instead.format(reason=presentation.reason), flush=True)
    # Translators: {server} names the schedule server ("the embedded schedule server (…)").
    serving = words.gettext("Schedule Browser is at {url} showing {server} (Ctrl+C to stop).")
    print(serving.format(url=page_url(address, port), server=backend.description), flush=True)


def _announce_hosted(backend: SignInBackend, address: WebAddress, port: int, words: Words) -> None:
    where = page_url(address, port)
    if address.tls is not None:
        # Translators: {server} names the schedule server ("the embedded schedule server (…)").
        reach = words.gettext(
            "Schedule Browser serves {url} over HTTPS: each person signs in with their own "
            "token to {server} (Ctrl+C to stop)."
        )
    else:
        # Translators: {server} names the schedule server ("the embedded schedule server (…)").
        reach = words.gettext(
            "Schedule Browser listens on {url} for the reverse proxy (TLS ends there): each "
            "person signs in with their own token to {server} (Ctrl+C to stop)."
        )
    print(reach.format(url=where, server=backend.description), flush=True)
