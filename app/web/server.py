"""Serving the app to browsers: Flet's own ASGI app under uvicorn, over HTTPS when asked.

``ft.run_async(view=WEB_BROWSER)`` gives uvicorn no TLS options, so every web
view, local or hosted, is ``flet_web.fastapi.app`` run here; the two differ only
in the ``WebAddress`` they are handed. Around Flet this adds what an upgrade of
Flet must not drop: our name, manifest and icons (matching ``assets/manifest.json``);
404 for FastAPI's ``/docs``, ``/redoc`` and ``/openapi.json``; the ASGI layers of
``app.web`` (origin guard, security headers, sign-in door, tab departures, large
file reads) and the connection limits of ``WebLimits``; CJK glyphs from a font
installed here (``app.web.cjk_font``); Flet's debug lines without
payloads (``app.flet_logs``, ``app.web.messages``). A hosted session ends
``HOSTED_SESSION_GRACE_SECONDS`` after its tab is gone, which signs the person out;
the local view keeps Flet's hour (``FLET_SESSION_TIMEOUT`` overrides both). Ctrl+C
and SIGTERM only ask uvicorn to exit, so ``serve_web`` returns and every
``async with`` above it closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import threading
import webbrowser
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import flet as ft
import flet_web.fastapi as flet_fastapi
import uvicorn
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp

from app.browser_address import forwarded_browser
from app.flet_logs import redact_flet_logs
from app.settings import WebAddress, WebLimits
from app.web.cjk_font import add_cjk_fallback, installed_cjk_font
from app.web.departures import TabDepartures
from app.web.files import PathSend
from app.web.guard import OriginGuard
from app.web.headers import SecurityHeaders
from app.web.messages import quiet_message_repr
from app.web.origin import TrustedOrigins
from app.web.sign_in_door import SignInDoor

APP_NAME = "Schedule Browser"
"""As ``viewmodels.formatting.shared_words.APP_NAME``, written here because importing that
package loads the formatting stack, which the page served first must not wait for."""
APP_SHORT_NAME = "Schedules"
"""Under the icon on a phone's home screen, where about twelve characters fit."""
APP_DESCRIPTION = "Browse an agent platform's scheduled work and the chats it created."
HIDDEN_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json")
"""FastAPI's generated pages, which Flet's inner app would otherwise serve."""
SHUTDOWN_GRACE_SECONDS = 5
HOSTED_SESSION_GRACE_SECONDS = 60
"""How long a hosted session outlives its lost connection (Flet evicts every 10 s after)."""
LOCAL_SESSION_GRACE_SECONDS = 3600
DEFAULT_WEB_LIMITS = WebLimits()
NO_CJK_FONT = (
    "No Chinese font is installed here: Chinese, Japanese and Korean text will show "
    "as empty boxes in the web view (install fonts-noto-cjk or fonts-droid-fallback)."
)

_log = logging.getLogger(__name__)

Entry = Callable[[ft.Page], Awaitable[None]]


def trusted_origins(address: WebAddress, port: int) -> TrustedOrigins:
    """The origins the web view at ``address`` and ``port`` belongs to (``app.web.origin``)."""
    if address.public_url is not None:
        return TrustedOrigins.public(address.public_url)
    if address.serves_others and address.tls is not None:
        return TrustedOrigins.served_over_tls(port)
    return TrustedOrigins.local(port, scheme=address.scheme, host=address.host)


def session_grace_seconds(address: WebAddress) -> int:
    """How long Flet keeps a session whose connection is gone (see the module docstring)."""
    return HOSTED_SESSION_GRACE_SECONDS if address.serves_others else LOCAL_SESSION_GRACE_SECONDS


def web_app(
    entry: Entry,
    *,
    assets_dir: Path | None,
    address: WebAddress,
    port: int,
    limits: WebLimits = DEFAULT_WEB_LIMITS,
) -> Any:
    """The ASGI app serving ``entry`` to browsers (one Flet session per tab), guarded."""
    quiet_message_repr()
    redact_flet_logs()
    outer = flet_fastapi.FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    for path in HIDDEN_PATHS:
        outer.add_route(path, _not_found, methods=["GET", "HEAD"])
    cjk_font = installed_cjk_font()
    if cjk_font is None:
        _log.warning(NO_CJK_FONT)
    add_cjk_fallback(outer, cjk_font)
    outer.mount(
        "/",
        flet_fastapi.app(
            entry,
            assets_dir=str(assets_dir) if assets_dir is not None else None,
            app_name=APP_NAME,
            app_short_name=APP_SHORT_NAME,
            app_description=APP_DESCRIPTION,
            route_url_strategy=ft.RouteUrlStrategy.PATH,
            no_cdn=True,
            session_timeout_seconds=session_grace_seconds(address),
        ),
    )
    departures: ASGIApp = TabDepartures(PathSend(outer))
    if address.serves_others:
        departures = SignInDoor(
            departures, per_address=limits.waiting_per_address, within=limits.sign_in_seconds
        )
    # Inside the guard, which judges the real peer: Flet sees the browser's address.
    browsers = forwarded_browser(departures, address)
    guarded = OriginGuard(browsers, trusted_origins(address, port), peers=address.proxy_peers)
    return SecurityHeaders(guarded, https=address.reached_over_https)


async def _not_found(_request: Request) -> PlainTextResponse:
    return PlainTextResponse("Not Found", status_code=404)


def page_url(address: WebAddress, port: int) -> str:
    """The address to open, as this machine names it (``[::]`` style for IPv6 literals)."""
    host = address.host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{address.scheme}://{host}:{port}/"


async def serve_web(
    entry: Entry,
    *,
    address: WebAddress,
    port: int,
    assets_dir: Path | None,
    open_browser: bool = False,
    stop: asyncio.Event | None = None,
    limits: WebLimits = DEFAULT_WEB_LIMITS,
) -> None:
    """Serves until SIGINT or SIGTERM (or ``stop`` is set), then returns once shut down."""
    _log_level_from_env()
    tls = address.tls
    config = uvicorn.Config(
        web_app(entry, assets_dir=assets_dir, address=address, port=port, limits=limits),
        host=address.host,
        port=port,
        ws="websockets-sansio",
        # The guard judges the real peer; ``forwarded_browser`` reads the proxy's header.
        proxy_headers=False,
        log_level="warning",
        ssl_certfile=str(tls.certfile) if tls else None,
        ssl_keyfile=str(tls.keyfile) if tls else None,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
        **limits.connections.uvicorn_options(),
    )
    url = page_url(address, port)
    server = _Server(config, on_started=(lambda: _open_browser(url)) if open_browser else None)
    with _exit_on_signals(server):
        if stop is None:
            await server.serve()
            return
        watcher = asyncio.create_task(_exit_when(stop, server))
        try:
            await server.serve()
        finally:
            watcher.cancel()


async def _exit_when(stop: asyncio.Event, server: uvicorn.Server) -> None:
    await stop.wait()
    server.should_exit = True


def _log_level_from_env() -> None:
    """``FLET_LOG_LEVEL=info`` shows Flet's own log (each session made and deleted), as
    ``ft.run`` does; we serve Flet's app ourselves, so we apply it ourselves."""
    level = os.environ.get("FLET_LOG_LEVEL")
    if level:
        resolved = logging.getLevelName(level.strip().upper())
        if isinstance(resolved, int):
            logging.basicConfig(level=resolved)


class _Server(uvicorn.Server):
    """uvicorn without its own signal capture (``_exit_on_signals`` stands in for it),
    calling ``on_started`` once its sockets accept connections."""

    def __init__(self, config: uvicorn.Config, on_started: Callable[[], None] | None) -> None:
        super().__init__(config)
        self._on_started = on_started

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self._on_started is not None:
            self._on_started()


@contextlib.contextmanager
def _exit_on_signals(server: uvicorn.Server) -> Iterator[None]:
    """SIGINT/SIGTERM ask the server to exit (a second SIGINT: without waiting)."""

    def request_exit(sig: int) -> None:
        if server.should_exit and sig == signal.SIGINT:
            server.force_exit = True
        server.should_exit = True

    loop = asyncio.get_running_loop()
    handled: list[signal.Signals] = []
    previous: dict[signal.Signals, Any] = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, request_exit, sig)
            handled.append(sig)
        except (NotImplementedError, RuntimeError):  # Windows, or not the main thread
            with contextlib.suppress(ValueError):
                previous[sig] = signal.signal(
                    sig, lambda number, _frame: loop.call_soon_threadsafe(request_exit, number)
                )
    try:
        yield
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _open_browser(url: str) -> None:
    """The user's browser on ``url``, from a thread: opening it may block on a slow start."""
    threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
