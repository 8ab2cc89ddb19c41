"""From validated settings to a running app, and back out cleanly.

Order matters: decide window or browser first (fetching Flet's desktop client
when a window needs it: Flet cannot recover from a missing client offline),
pick and check the port, open the backend (embedded database or remote probe)
so a failure is one sentence before any UI exists, then hand Flet one entry
function. Each Flet session (a window, or each browser tab in web mode) gets
its own view models and device storage over the one shared backend; leaving
Flet's loop closes the backend.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import flet as ft
import tzlocal

from app.backend import Backend, StartupError, open_backend
from app.desktop_client import client_present, client_release, fetch_over_network
from app.presentation import Presentation, View, decide_presentation
from app.session import session_entry
from app.settings import Settings
from app.web_port import LOOPBACK, choose_port

__all__ = ["StartupError", "run_app"]

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
"""``assets/`` at the project root (icon, splash, fonts), shared with ``flet build``."""


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
    presentation = current_presentation(settings)
    port = choose_port(settings.port) if presentation.view is View.WEB else 0
    zone = tzlocal.get_localzone()
    async with open_backend(settings.server, clock=utc_now) as backend:
        entry = session_entry(backend, clock=utc_now, device_zone=zone)
        if presentation.view is View.PACKAGED:
            await ft.run_async(entry, assets_dir=_assets_dir())
            return
        if presentation.view is View.DESKTOP:
            _announce_desktop(backend)
            await ft.run_async(entry, view=ft.AppView.FLET_APP, assets_dir=_assets_dir())
            return
        if not presentation.open_browser:
            # Flet opens a browser for its web view unless told it is a server.
            os.environ["FLET_FORCE_WEB_SERVER"] = "true"
        _announce_web(backend, presentation, port)
        await ft.run_async(
            entry,
            view=ft.AppView.WEB_BROWSER,
            host=LOOPBACK,
            port=port,
            assets_dir=_assets_dir(),
            no_cdn=True,
            route_url_strategy=ft.RouteUrlStrategy.PATH,
        )


def _assets_dir() -> str | None:
    return str(ASSETS_DIR) if ASSETS_DIR.is_dir() else None


def _announce_desktop(backend: Backend) -> None:
    print(f"Schedule Browser: opening a window on {backend.description}.", flush=True)


def _announce_web(backend: Backend, presentation: Presentation, port: int) -> None:
    if presentation.reason:
        print(f"Schedule Browser: {presentation.reason}", flush=True)
    print(
        f"Schedule Browser is at http://{LOOPBACK}:{port}/ showing {backend.description} "
        "(Ctrl+C to stop).",
        flush=True,
    )
