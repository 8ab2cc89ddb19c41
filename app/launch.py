"""From validated settings to a running app, and back out cleanly.

Order matters: decide window or browser first (fetching Flet's desktop client
when a window needs it: Flet cannot recover from a missing client offline),
pick and check the port, open the backend (embedded database or remote probe)
so a failure is one sentence before any UI exists, then hand the session
entry to Flet's window loop or to the web server (``app.web_server``). Each
Flet session (a window, or each browser tab in web mode) gets its own view
models and device storage over the one shared backend; leaving the loop
closes the backend.

Serving others (``Settings.signs_in``) skips the window decision (``--web``
is required) and opens a ``SignInBackend``: no shared client, each browser
session signs in and gets its own (``app.sign_in_session``).
"""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import flet as ft
import tzlocal

from app.backend import Backend, SignInBackend, StartupError, open_backend, open_sign_in_backend
from app.desktop_client import client_present, client_release, fetch_over_network
from app.presentation import Presentation, View, decide_presentation
from app.session import session_entry
from app.settings import RemoteServerSettings, Settings, WebAddress
from app.sign_in_session import sign_in_entry
from app.web_port import choose_port
from app.web_server import page_url, serve_web

__all__ = ["StartupError", "run_app"]

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
"""``assets/`` at the project root (icon, splash, web manifest), shared with ``flet build``."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def current_presentation(settings: Settings) -> Presentation:
    return decide_presentation(
        platform=sys.platform,
        env=os.environ,
        client_cached=lambda: client_present(client_release(os.environ), os.environ),
        fetch_client=lambda: fetch_over_network(os.environ, time.monotonic, sys.stdout),
        web_requested=settings.web,
        desktop_requested=settings.desktop,
    )


async def run_app(settings: Settings) -> None:
    """Runs until the window closes or Ctrl+C; raises ``StartupError`` before any UI."""
    zone = tzlocal.get_localzone()
    if settings.signs_in:
        await _serve_others(settings, zone)
        return
    presentation = current_presentation(settings)
    address = settings.web_address
    port = choose_port(settings.port, address.host) if presentation.view is View.WEB else 0
    async with open_backend(settings.server, clock=utc_now) as backend:
        entry = session_entry(backend, clock=utc_now, device_zone=zone)
        if presentation.view is View.PACKAGED:
            await ft.run_async(entry, assets_dir=_assets_dir())
            return
        if presentation.view is View.DESKTOP:
            _announce_desktop(backend)
            await ft.run_async(entry, view=ft.AppView.FLET_APP, assets_dir=_assets_dir())
            return
        _announce_web(backend, presentation, address, port)
        await serve_web(
            entry,
            address=address,
            port=port,
            assets_dir=_assets_dir_path(),
            open_browser=presentation.open_browser,
        )


async def _serve_others(settings: Settings, zone: ZoneInfo) -> None:
    server = settings.server
    if not isinstance(server, RemoteServerSettings) or server.token is not None:
        # The command line refuses this; a Settings built elsewhere must not slip past.
        raise StartupError("Serving other devices needs --server URL and no token of its own.")
    address = settings.web_address
    port = choose_port(settings.port, address.host)
    async with open_sign_in_backend(server) as backend:
        entry = sign_in_entry(
            backend,
            clock=utc_now,
            device_zone=zone,
            remember_for=timedelta(days=settings.remember_days),
        )
        _announce_hosted(backend, address, port)
        await serve_web(entry, address=address, port=port, assets_dir=_assets_dir_path())


def _assets_dir_path() -> Path | None:
    return ASSETS_DIR if ASSETS_DIR.is_dir() else None


def _assets_dir() -> str | None:
    found = _assets_dir_path()
    return str(found) if found is not None else None


def _announce_desktop(backend: Backend) -> None:
    print(f"Schedule Browser: opening a window on {backend.description}.", flush=True)


def _announce_web(
    backend: Backend, presentation: Presentation, address: WebAddress, port: int
) -> None:
    if presentation.reason:
        print(f"Schedule Browser: {presentation.reason}", flush=True)
    print(
        f"Schedule Browser is at {page_url(address, port)} showing {backend.description} "
        "(Ctrl+C to stop).",
        flush=True,
    )


def _announce_hosted(backend: SignInBackend, address: WebAddress, port: int) -> None:
    where = page_url(address, port)
    if address.tls is not None:
        reach = f"Schedule Browser serves {where} over HTTPS"
    else:
        reach = f"Schedule Browser listens on {where} for the reverse proxy (TLS ends there)"
    print(
        f"{reach}: each person signs in with their own token to {backend.description} "
        "(Ctrl+C to stop).",
        flush=True,
    )
