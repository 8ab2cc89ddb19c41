"""Serving the app to browsers: Flet's web client under uvicorn, over HTTPS when asked.

Why not ``ft.run_async(view=WEB_BROWSER)``: it builds its uvicorn server with
no TLS options, and a web view that serves other devices must be able to
serve HTTPS itself. So every web view, local or hosted, is Flet's own ASGI app
(``flet_web.fastapi.app``, the route Flet documents for hosting) run here:

- **One serving path.** The local web view (127.0.0.1, no TLS) and the hosted
  one differ only in the ``WebAddress`` they are handed.
- **Our name and icon for Add to Home Screen.** Flet serves
  ``assets/manifest.json`` in place of its own manifest, and every file in
  ``assets/`` over its packaged web files of the same name (``icons/*``,
  ``favicon.png``, the loading image); ``app_name`` also puts the name in the
  page title and the iOS home-screen title, and writes the names into the
  served manifest (the constants below match ``assets/manifest.json``).
- **Nothing else exposed.** FastAPI's generated ``/docs``, ``/redoc`` and
  ``/openapi.json`` pages (of Flet's inner app too) answer 404.
- **Only its own page drives it.** Two ASGI layers of ours wrap everything
  Flet serves: ``app.web_guard.OriginGuard`` refuses (403) a socket or
  request whose ``Origin`` or ``Host`` is not the app's own
  (``app.web_origin``) before Flet sees it, and
  ``app.web_headers.SecurityHeaders`` puts the content security policy,
  anti-framing and HSTS headers on every answer. They are applied here, not
  configured in Flet, so a Flet upgrade cannot drop them.
- **A hosted session ends with its tab.** Flet keeps a disconnected session
  for an hour by default so a tab can resume it by id; serving others, a
  session is kept ``HOSTED_SESSION_GRACE_SECONDS`` after its connection is
  gone (a phone changing networks reconnects within that), then Flet closes
  it, which signs the person out and releases their client and screens.
  The local web view keeps Flet's hour: it serves the person at this
  machine, whose app it is. (Flet's ``FLET_SESSION_TIMEOUT`` environment
  variable, when set, overrides both: it is the operator's own choice.) A
  tab that closes while updates are still on their way still ends this way:
  ``app.web_departures.TabDepartures`` drops what can no longer be sent, so
  Flet sees an ordinary disconnect rather than an error that skips it.
- **Nobody holds it with idle connections.** Every connection is held to
  ``connection_limits`` (header and idle timeouts, a connection
  limit, header and frame sizes), and serving others, the sockets on which
  nobody has signed in yet are few per browser address and closed after a
  while (``app.web_sign_in_door.SignInDoor``); both are ``WebLimits``.
- **The page's files are served in large reads** (``app.web_files.PathSend``),
  so serving them while the embedded server opens in a thread stays quick.
- **No message is formatted for nothing.** Flet builds a debug line of every
  message it sends, logged or not; ``app.web_messages`` makes that line
  name the message's action only (cheap, and it holds no row's text).
- **No log line holds what a person typed or reads.** At ``FLET_LOG_LEVEL=debug``
  Flet logs each message from the browser in full; ``app.flet_logs`` keeps
  Flet's lines and drops their payload.
- **Ctrl+C and SIGTERM end the serve cleanly.** uvicorn would restore the
  default handlers and raise the signal again after shutting down, killing
  the process before the backend closes; here the signals only ask the server
  to exit, and ``serve_web`` returns so every ``async with`` above it closes.
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
from app.web_departures import TabDepartures
from app.web_files import PathSend
from app.web_guard import OriginGuard
from app.web_headers import SecurityHeaders
from app.web_messages import quiet_message_repr
from app.web_origin import TrustedOrigins
from app.web_sign_in_door import SignInDoor

APP_NAME = "Schedule Browser"
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

Entry = Callable[[ft.Page], Awaitable[None]]


def trusted_origins(address: WebAddress, port: int) -> TrustedOrigins:
    """The origins the web view at ``address`` and ``port`` belongs to (``app.web_origin``)."""
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
