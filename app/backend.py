"""The schedule server the app talks to: embedded in-process, or remote.

Both modes end in the same ``ScheduleClient``: the embedded one is handed an
``httpx.ASGITransport`` over the in-process server's ASGI app (no socket, no
token: every request is the local principal), the remote one a base URL and a
bearer token. ``open_backend`` is an async context manager so the client and the
embedded database are closed on every way out, Ctrl+C included.

Where the schedule worker runs
------------------------------
The scheduler (the worker that materializes due occurrences, the executor
that answers their runs, the retention purge) belongs to the embedded mode
only; a remote server runs its own. ``server.embedded.running``, the app's
one door into the server, starts it as tasks on this loop sharing the
embedded server's store and ``clock`` (database work on threads), and stops
it (cancelled and awaited) before the database closes, Ctrl+C included.

``Backend.changes`` is the embedded server's change signal: its callbacks run
on this loop after every change the scheduler commits, so screens can re-read
at once. It is None for a remote server, which is polled instead.

Starting offline
----------------
A remote server that cannot be reached at start stops the app with a
sentence, unless this device has read it with this token before
(``app.servers_read``): then the app opens offline (``Backend.offline_at_start``)
and the screens show the view cache, kept under ``Backend.views_namespace``
(per server and token). The embedded server is never away: it keeps no view cache.

Serving others (``SignInBackend``)
----------------------------------
When the web view serves other devices the process holds no token and no
client of its own: ``open_sign_in_backend`` only checks that the server
answers (a 401 to the tokenless probe is the expected answer), and each
browser session that signs in gets its own ``ScheduleClient`` from
``SignInBackend.connect``, closed when that person signs out or the session
ends. Nothing a session reads is kept here. Each session's copy of the
backend names its browser's address (``SignInBackend.browser_address``),
which every request of that person's client carries in ``X-Forwarded-For``
(``app.forwarded_for``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import httpx

from app.credential_watch import CredentialWatch
from app.device_storage import server_namespace
from app.forwarded_for import ForwardedFor
from app.servers_read import account_key, has_read, remember_read
from app.settings import EmbeddedServerSettings, RemoteServerSettings, ServerSettings
from app.startup_error import StartupError
from transport.client import ScheduleClient
from transport.errors import (
    ApiError,
    ConnectionFailed,
    ScopeMissing,
    ServerRefused,
    Unauthenticated,
)

if TYPE_CHECKING:  # the server stack is imported when the embedded server opens, not here
    from server.embedded import AttachedRuntime as AttachedRuntime  # for app.settings

__all__ = [
    "EMBEDDED_BASE_URL",
    "Backend",
    "ChangeSignal",
    "ServerUnreachable",
    "SignInBackend",
    "StartupError",
    "chosen_runtime",
    "open_backend",
    "open_sign_in_backend",
]

EMBEDDED_BASE_URL = "http://embedded.schedule-browser.invalid"
"""Never resolved: the ASGI transport answers every request in-process."""


class ServerUnreachable(StartupError):
    """The server did not answer at all (as opposed to answering with a refusal)."""


class ChangeSignal(Protocol):
    """Calls each subscribed callback, on the app's loop, when the server changed something."""

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Start calling ``callback``; the returned function stops it."""
        ...


@dataclass(frozen=True, slots=True)
class Backend:
    api: ScheduleClient
    identity: str
    """Stable per server (database path or URL): keys the device state namespace."""
    description: str
    """Where the data comes from, for the start-up line."""
    changes: ChangeSignal | None = None
    """The embedded server's change signal; None for a remote server."""
    views_namespace: str | None = None
    """Where the view cache is kept (per server and token); None keeps none (embedded)."""
    offline_at_start: bool = False
    """The server could not be reached at start, but this device has read it before."""
    embedded: bool = False
    """The in-process demo server (nothing behind it resumes a paused schedule)."""
    device_dir: Path | None = None
    """The user data folder, where a local session keeps its device state
    (``app.device_folder``); None keeps it in memory for the session only."""

    @property
    def namespace(self) -> str:
        """The device-state namespace of this server (see ``app.device_storage``)."""
        return server_namespace(self.identity)


@asynccontextmanager
async def open_backend(
    settings: ServerSettings, *, clock: Callable[[], datetime]
) -> AsyncIterator[Backend]:
    """The connected backend for ``settings``; ``StartupError`` when it cannot be had."""
    if isinstance(settings, RemoteServerSettings):
        async with _remote_backend(settings) as backend:
            yield backend
    else:
        async with _embedded_backend(settings, clock) as backend:
            yield backend


@asynccontextmanager
async def _embedded_backend(
    settings: EmbeddedServerSettings, clock: Callable[[], datetime]
) -> AsyncIterator[Backend]:
    from server import embedded

    database = settings.database_path
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StartupError(
            f"Cannot create the data folder {settings.data_dir} ({err.strerror or err}); "
            "choose another with --data-dir."
        ) from None
    try:
        async with embedded.running(
            database, demo=settings.demo, clock=clock, runtime=settings.runtime
        ) as server:
            transport = httpx.ASGITransport(app=server.app)
            async with ScheduleClient(EMBEDDED_BASE_URL, transport=transport) as api:
                yield Backend(
                    api=api,
                    identity=f"embedded:{database.resolve()}",
                    description=f"the embedded schedule server ({database})",
                    changes=server.changes,
                    embedded=True,
                    device_dir=settings.data_dir,
                )
    except embedded.DatabaseUnavailable as err:
        raise StartupError(
            f"Cannot open the schedule database {database} ({err}); "
            "move it aside or choose another folder with --data-dir."
        ) from None


@asynccontextmanager
async def _remote_backend(settings: RemoteServerSettings) -> AsyncIterator[Backend]:
    identity = _remote_identity(settings.base_url)
    key = account_key(identity, settings.token)
    async with ScheduleClient(settings.base_url, token=settings.token) as api:
        offline = False
        try:
            await _check_reachable(api, settings.base_url)
        except ServerUnreachable:
            if not has_read(settings.device_dir, key):
                raise
            offline = True
        else:
            remember_read(settings.device_dir, key)
        yield Backend(
            api=api,
            identity=identity,
            description=_remote_description(settings.base_url),
            views_namespace=key,
            offline_at_start=offline,
            device_dir=settings.device_dir,
        )


@dataclass(frozen=True, slots=True)
class SignInBackend:
    """A remote server that each browser session reaches with its own token."""

    base_url: str
    identity: str
    """As ``Backend.identity``: keys this server's device-state namespace."""
    description: str
    browser_address: str | None = None
    """The browser one session serves, sent on each of its requests; None sends none."""

    @property
    def namespace(self) -> str:
        return server_namespace(self.identity)

    def connect(self, token: str, on_refused: Callable[[], None]) -> ScheduleClient:
        """A client for one person's ``token``; ``on_refused()`` runs on any 401 it receives."""
        sent: httpx.AsyncBaseTransport = httpx.AsyncHTTPTransport()
        if self.browser_address:
            sent = ForwardedFor(sent, self.browser_address)
        watched = CredentialWatch(sent, on_refused)
        return ScheduleClient(self.base_url, token=token, transport=watched)


@asynccontextmanager
async def open_sign_in_backend(settings: RemoteServerSettings) -> AsyncIterator[SignInBackend]:
    """The server every session signs in to; ``StartupError`` when it does not answer."""
    async with ScheduleClient(settings.base_url) as probe:
        await _check_reachable(probe, settings.base_url, own_token=False)
    yield SignInBackend(
        base_url=settings.base_url,
        identity=_remote_identity(settings.base_url),
        description=_remote_description(settings.base_url),
    )


def _remote_identity(url: str) -> str:
    return f"remote:{url}"


def _remote_description(url: str) -> str:
    return f"the schedule server at {url}"


async def _check_reachable(api: ScheduleClient, url: str, *, own_token: bool = True) -> None:
    """One ``GET /v1/principal`` so a wrong address or token fails now, in one sentence.

    Without a token of its own (``own_token=False``) the process expects the
    server to ask for one: a 401 then proves it is a schedule server, up.
    """
    try:
        await api.get_principal()
    except Unauthenticated:
        if not own_token:
            return
        raise StartupError(
            f"The schedule server at {url} did not accept the token; check --token-file "
            "or SCHEDULE_BROWSER_TOKEN."
        ) from None
    except ScopeMissing:
        return  # the token works; each screen says which scope it lacks
    except ConnectionFailed:
        raise ServerUnreachable(
            f"Cannot reach the schedule server at {url}; check the address, or run "
            "without --server to use the embedded server."
        ) from None
    except ServerRefused as err:
        raise StartupError(
            f"The schedule server at {url} refused the first request ({err}); check that it "
            "speaks this app's API."
        ) from None
    except ApiError as err:
        raise StartupError(
            f"The server at {url} does not answer like a schedule server ({err})."
        ) from None


def chosen_runtime(target: str | None, secret_file: Path | None) -> AttachedRuntime | None:
    """``--executor`` and ``--executor-secret-file``, checked before anything starts.

    None: no runtime attached. A choice that cannot be had raises ``StartupError``
    with the server's one sentence on why.
    """
    from server.embedded import RuntimeChoiceError, attached_runtime

    try:
        return attached_runtime(target, secret_file)
    except RuntimeChoiceError as err:
        raise StartupError(str(err)) from None
